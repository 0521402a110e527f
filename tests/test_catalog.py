"""Every benchmark is declared once (its SPEC) and has each piece a benchmark needs.

The test walks the catalog and says, for a missing piece, what to add
(docs/development.md, "Adding a benchmark"): the module and its size, the
registered task and its version, the bundled sample and its README row, the
docs page and its parameter table (every parameter of the signature, with its
default), the profiles and their configurations, the offline oracle's rule.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval

from benchmarks.catalog import BENCHMARKS, specs
from benchmarks.configs import names as config_names
from benchmarks.spec import BenchmarkSpec

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "benchmarks"
# A benchmark module is a short composition; no module of the package is long.
BENCHMARK_MODULE_LINES = 300
MODULE_LINES = 420
PARAMETER_ROW = re.compile(r"^\| `(?P<name>\w+)` \| (?P<default>[^|]+) \|", re.MULTILINE)


def parameter_table(page: str) -> dict[str, str]:
    """``{parameter: default cell}`` of the page's parameter table."""
    text = (ROOT / page).read_text(encoding="utf-8")
    (table,) = re.findall(r"^\| parameter \| default \|.*?(?=\n\n|\Z)", text, re.DOTALL | re.M)
    return {m["name"]: m["default"].strip() for m in PARAMETER_ROW.finditer(table)}


def documented_default(value: Any) -> str:
    """How a default is written in a parameter table's default cell."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def test_every_task_module_is_in_the_catalog() -> None:
    """A module with an ``@task`` and no place in BENCHMARKS would be missed by everything
    that reads the specs."""
    with_task = sorted(
        path.stem
        for path in PACKAGE.glob("*.py")
        if re.search(r"^@task\(", path.read_text(encoding="utf-8"), re.MULTILINE)
    )
    assert with_task == sorted(BENCHMARKS), (
        "add each benchmark module to BENCHMARKS in benchmarks/catalog.py"
    )


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_spec_declares_a_registered_task_with_its_pieces(name: str) -> None:
    spec: BenchmarkSpec = specs()[name]
    assert spec.name == name and spec.task.__name__ == name
    assert f'name="benchmarks/{name}"' in (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
    assert "default" in spec.profiles or name == "simpleqa", (
        f"benchmarks/profiles: give {name} a 'default' profile"
    )
    for profile_name, profile in spec.profiles.items():
        assert profile.name == profile_name, f"{name}: profile {profile_name!r} names itself"
        assert profile.reference, f"{name}: say what profile {profile_name!r} reproduces"
        if profile.proof is not None:
            assert (ROOT / profile.proof).is_file(), f"{name}: {profile.proof} does not exist"
            configured = [c for c in config_names() if f"profile: {profile_name}" in config_text(c)]
            assert configured, (
                f"{name}: add benchmarks/configs/{name}_<reference>.yaml for the proven "
                f"profile {profile_name!r}"
            )
    bundled = PACKAGE / "data" / "samples" / name
    assert bundled.is_dir(), f"add a bundled sample in benchmarks/data/samples/{name}/"
    readme = (PACKAGE / "data" / "samples" / "README.md").read_text(encoding="utf-8")
    assert f"`{name}/`" in readme, f"describe benchmarks/data/samples/{name}/ in its README"


def config_text(name: str) -> str:
    return (PACKAGE / "configs" / f"{name}.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_docs_page_lists_every_parameter_with_its_default(name: str) -> None:
    spec = specs()[name]
    page = ROOT / spec.docs_page
    assert page.is_file(), f"write {spec.docs_page}"
    signature = inspect.signature(inspect.unwrap(spec.task))
    parameters = {
        p.name: p.default
        for p in signature.parameters.values()
        if p.kind is not inspect.Parameter.VAR_KEYWORD
    }
    table = parameter_table(spec.docs_page)
    assert list(table) == list(parameters), (
        f"{spec.docs_page}: the parameter table should list {', '.join(parameters)} in order"
    )
    for parameter, default in parameters.items():
        written = documented_default(default)
        assert table[parameter].startswith(f"`{written}`"), (
            f"{spec.docs_page}: the default of {parameter} is `{written}`, "
            f"the table says {table[parameter]}"
        )


# The number each docs page calls the headline (SimpleQA's attempted accuracy, SimpleQA
# Verified's F1).
HEADLINES = {
    "triviaqa": "exact_match",
    "simpleqa": "attempted_accuracy",
    "simpleqa_verified": "f1",
    "winogrande": "accuracy",
    "scienceqa": "accuracy",
}


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_oracle_scores_every_bundled_question(name: str, tmp_path: Path) -> None:
    spec = specs()[name]
    roles = {"grader": "benchmarks/oracle"} if spec.judged else None
    (log,) = eval(
        spec.task(bundled_sample=True),
        model="benchmarks/oracle",
        model_roles=roles,  # type: ignore[arg-type]
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.results is not None
    headline_name, headline = next(iter(log.results.scores[0].metrics.items()))
    assert headline.value == 1.0, f"{name}: its spec's oracle rule does not answer every question"
    # the first metric is what the viewer's Score column and the analysis headline show
    assert headline_name == HEADLINES[name]


def test_no_module_is_too_long() -> None:
    lengths = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    long = {path: lines for path, lines in lengths.items() if lines > MODULE_LINES}
    assert long == {}, f"split these modules (over {MODULE_LINES} lines)"
    benchmarks = {
        name: lengths[f"benchmarks/{name}.py"]
        for name in BENCHMARKS
        if lengths[f"benchmarks/{name}.py"] > BENCHMARK_MODULE_LINES
    }
    assert benchmarks == {}, (
        f"a benchmark module is a short composition (at most {BENCHMARK_MODULE_LINES} lines): "
        "move its scorer or prompt parts to a module of their own"
    )


def test_every_task_takes_unknown_parameters_to_refuse_them() -> None:
    for name in specs():
        source = (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
        tree = ast.parse(source)
        (function,) = [
            node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == name
        ]
        assert function.args.kwarg is not None, f"{name}: take **unknown (task_parameters.py)"
        assert re.search(rf"task_arguments\(\s*{name},\s*locals\(\)", source), (
            f"{name}: call task_arguments first"
        )


class Requested(Exception):
    """Raised instead of reading the rows: the request is what the test looks at."""

    def __init__(self, request: Any) -> None:
        super().__init__("rows requested")
        self.request = request


@pytest.mark.parametrize("name", [n for n in BENCHMARKS if n != "simpleqa"])
def test_the_default_source_is_the_hub_dataset_at_its_pinned_revision(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without local data, every Hub benchmark asks for its dataset at the revision its
    module pins (docs/offline.md lists them); the log's task metadata records it."""
    import importlib

    from benchmarks.data import source as data_source

    module = importlib.import_module(f"benchmarks.{name}")

    def capture(request: Any, **_: Any) -> Any:
        raise Requested(request)

    monkeypatch.setattr(data_source, "prepared_rows", capture)
    monkeypatch.setattr(
        importlib.import_module("benchmarks.data.scienceqa_shape"), "prepared_rows", capture
    )
    with pytest.raises(Requested) as requested:
        specs()[name].task()
    request = requested.value.request
    assert (request.hub_path, request.revision) == (module.DATASET.path, module.DATASET.revision)
    assert re.fullmatch(r"[0-9a-f]{40}", request.revision)
    offline = (ROOT / "docs" / "offline.md").read_text(encoding="utf-8")
    assert f"`{request.revision}`" in offline, f"list {name}'s revision in docs/offline.md"
    source = data_source.DataSource(
        name, name, module.DATASET, dataset_path=None, data_files=None,
        bundled_sample=False, splits=["x"],
    )  # fmt: skip
    assert source.metadata() == {"dataset": module.DATASET.path, "revision": request.revision}


def test_another_hub_dataset_is_not_read_at_the_default_datasets_revision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from benchmarks.data import source as data_source
    from benchmarks.winogrande import winogrande

    def capture(request: Any, **_: Any) -> Any:
        raise Requested(request)

    monkeypatch.setattr(data_source, "prepared_rows", capture)
    with pytest.raises(Requested) as other:
        winogrande(dataset_path="someone/winogrande-copy")
    assert other.value.request.revision is None
    with pytest.raises(Requested) as same:
        winogrande(dataset_path="allenai/winogrande")
    # the default id spelled out is the default: pinned, cached (no dataset_path) and named
    assert same.value.request.revision == "01e74176c63542e6b0bcb004dcdea22d94fb67b5"
    assert same.value.request.dataset_path is None


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_bundled_sample_run_names_no_path_of_this_machine(name: str) -> None:
    metadata = specs()[name].task(bundled_sample=True).metadata or {}
    text = json.dumps(metadata)
    assert str(ROOT) not in text and "samples" not in text, metadata
    assert metadata["data"] == "bundled sample"
