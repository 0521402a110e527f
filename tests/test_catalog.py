"""Every benchmark is declared once (its SPEC) and has each piece a benchmark needs.

The catalog finds the benchmarks (every task module's SPEC); the test walks it and
says, for a missing piece, what to add (docs/development.md, "Adding a benchmark"):
the module, the registered task and its version, the data module, the
bundled sample and its SOURCE.md, the docs page and its parameter table (every
parameter of the signature, with its default), the profiles and their
configurations, the headline metric, the pinned revision, the offline models' rules.
The tables that list the benchmarks are tests/test_docs_tables.py's.
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

from benchmarks.catalog import BENCHMARKS, specs, task_modules
from benchmarks.configs import names as config_names
from benchmarks.spec import BenchmarkSpec

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "benchmarks"
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


def test_every_task_module_declares_a_spec() -> None:
    """A module with an ``@task`` and no SPEC would be missed by everything that reads the
    specs."""
    with_task = sorted(
        path.stem
        for path in PACKAGE.glob("*.py")
        if re.search(r"^@task\(", path.read_text(encoding="utf-8"), re.MULTILINE)
    )
    assert with_task == sorted(specs()), (
        "end each benchmark module with SPEC = BenchmarkSpec(...) (benchmarks/spec.py)"
    )


def test_the_catalog_lists_the_benchmarks_in_their_specs_order() -> None:
    orders = [specs()[name].order for name in BENCHMARKS]
    assert orders == sorted(set(orders)), (
        f"give each spec its own order (BenchmarkSpec.order); taken: {sorted(orders)}"
    )
    assert task_modules() == sorted(BENCHMARKS)


def test_a_module_without_a_spec_is_no_benchmark(monkeypatch: pytest.MonkeyPatch) -> None:
    import benchmarks.catalog as catalog

    monkeypatch.setattr(catalog, "task_modules", lambda: [*task_modules(), "spec"])
    catalog.specs.cache_clear()
    try:
        assert tuple(catalog.specs()) == BENCHMARKS
    finally:
        catalog.specs.cache_clear()


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_spec_declares_a_registered_task_with_its_pieces(name: str) -> None:
    spec: BenchmarkSpec = specs()[name]
    assert spec.name == name and spec.task.__name__ == name
    assert f'name="benchmarks/{name}"' in (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
    assert "default" in spec.profiles, f"benchmarks/profiles: give {name} a 'default' profile"
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
    bundled = ROOT / spec.bundled_sample
    assert bundled.is_dir(), f"add a bundled sample in {spec.bundled_sample}/"
    assert (bundled / "SOURCE.md").is_file(), (
        f"say where {spec.bundled_sample}/ comes from and its licence in its SOURCE.md"
    )
    assert (PACKAGE / "data" / f"{name}.py").is_file(), (
        f"put {name}'s record_to_sample and oracle rule in benchmarks/data/{name}.py"
    )
    module = (PACKAGE / f"{name}.py").read_text(encoding="utf-8")
    for moved in ("def record_to_sample", "def oracle_questions", "HubDataset("):
        assert moved not in module, f"{name}: {moved} belongs in benchmarks/data/{name}.py"


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
    assert headline_name == spec.headline
    page = (ROOT / spec.docs_page).read_text(encoding="utf-8")
    assert f"`{spec.headline}`" in page, f"{spec.docs_page}: name the headline, {spec.headline}"


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


def test_simpleqa_alone_is_not_on_the_hub() -> None:
    assert [name for name, spec in specs().items() if spec.dataset is None] == ["simpleqa"]


@pytest.mark.parametrize("name", [n for n in BENCHMARKS if n != "simpleqa"])
def test_the_default_source_is_the_hub_dataset_at_its_pinned_revision(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without local data, every Hub benchmark asks for its dataset at the revision its
    spec pins (docs/offline.md lists them), or visibly at none; the log's task metadata
    records it."""
    from benchmarks.data import source as data_source

    dataset = specs()[name].dataset
    assert dataset is not None, f"{name}: give its spec the pinned dataset (dataset=)"

    def capture(request: Any, **_: Any) -> Any:
        raise Requested(request)

    monkeypatch.setattr(data_source, "read_split", capture)
    with pytest.raises(Requested) as requested:
        specs()[name].task()
    request = requested.value.request
    assert (request.hub_path, request.revision) == (dataset.path, dataset.revision)
    assert request.revision is None or (real_looking_pin(request.revision) and dataset.pinned_by), (
        f"{name}: pin a real commit with its public source (pinned_by), or pin none "
        "(revision=None): never a placeholder"
    )
    source = data_source.DataSource(
        name, name, dataset, dataset_path=None, data_files=None, bundled_sample=False
    )
    assert source.metadata() == {"dataset": dataset.path, "revision": request.revision}


def real_looking_pin(revision: str | None) -> bool:
    """A commit hash as the Hub gives one: 40 hex digits, not a placeholder's few."""
    return (
        revision is not None
        and re.fullmatch(r"[0-9a-f]{40}", revision) is not None
        and len(set(revision)) >= 8
    )


def test_a_placeholder_pin_is_not_taken_for_a_real_one() -> None:
    assert not real_looking_pin("0" * 40)
    assert not real_looking_pin("0123" * 10)
    assert not real_looking_pin(None)
    assert real_looking_pin("01e74176c63542e6b0bcb004dcdea22d94fb67b5")


def test_another_hub_dataset_is_not_read_at_the_default_datasets_revision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from benchmarks.data import source as data_source
    from benchmarks.winogrande import winogrande

    def capture(request: Any, **_: Any) -> Any:
        raise Requested(request)

    monkeypatch.setattr(data_source, "read_split", capture)
    with pytest.raises(Requested) as other:
        winogrande(dataset_path="someone/winogrande-copy")
    assert other.value.request.revision is None
    with pytest.raises(Requested) as same:
        winogrande(dataset_path="allenai/winogrande")
    # the default id spelled out is the default: pinned (no dataset_path) and named
    assert same.value.request.revision == "01e74176c63542e6b0bcb004dcdea22d94fb67b5"
    assert same.value.request.dataset_path is None


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_bundled_sample_run_names_no_path_of_this_machine(name: str) -> None:
    metadata = specs()[name].task(bundled_sample=True).metadata or {}
    text = json.dumps(metadata)
    assert str(ROOT) not in text and "samples" not in text, metadata
    assert metadata["data"] == "bundled sample"


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_random_model_answers_a_multiple_choice_prompt_with_an_offered_letter(
    name: str, tmp_path: Path
) -> None:
    """A benchmark scored by its option letter tells the random model how its prompts offer
    the options (its spec's ``offered_options``); the others ask for free text."""
    spec = specs()[name]
    if spec.scorer != "option_letter_scorer":
        assert spec.offered_options is None
        return
    rule = spec.offered_options
    assert rule is not None, f"{name}: give its spec offered_options (benchmarks/spec.py)"
    (log,) = eval(
        spec.task(bundled_sample=True),
        model="benchmarks/random",
        limit=4,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.samples
    for sample in log.samples:
        prompt = "\n".join(m.text for m in sample.messages if m.role == "user")
        letters = rule.letters(prompt)
        assert len(letters) >= 2, prompt
        assert sample.output.completion in {rule.reply.format(letter=x) for x in letters}
        # the task's scorer reads the letter from the reply (no parse failure)
        assert sample.scores is not None
        assert next(iter(sample.scores.values())).answer in letters, sample.output.completion
