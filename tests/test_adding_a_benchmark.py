"""Adding a benchmark, and a profile, as docs/development.md says, proven on toy ones.

``tests/fixtures/toy_benchmark/`` holds what the guide asks of a new benchmark and nothing
else: its task file, its data module, its profile, its bundled rows with their SOURCE.md,
its docs page and its tests folder. ``tests/fixtures/toy_profile/`` holds what it asks of a
new profile of a benchmark (Winogrande's): the profile's entry in ``PROFILES``, its
configuration and its docs section. The test copies the project, puts those in, runs the
guide's two generators (the docs tables and the switches' rows), then runs the whole quick
suite and the whole slow suite there, which must pass: no list of benchmarks or profiles is
edited, the copy holds no other change. It also checks that the toy is listed, runs offline
with the oracle (100 %) and the random model (a letter it offers, in its own reply form),
and that the conformance tests, which iterate over every spec, take it up.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from tests.inspect_cli import inspect_cli

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "fixtures" / "toy_benchmark"
NAME = "toy_mcq"
TOY_PROFILE = ROOT / "tests" / "fixtures" / "toy_profile"
PROFILE_NAME = "toy_harness_1.0"
# Where the toy profile goes: its entry ends Winogrande's PROFILES, its section ends the
# docs page's profiles (before the next heading).
PROFILES_MODULE = "benchmarks/profiles/winogrande.py"
DOCS_PAGE = "docs/winogrande.md"
DOCS_SECTION_BEFORE = "\n## Compare with published numbers\n"
# The nested suites: the quick one takes about 2 minutes on 2 cores, the slow one about 18.
QUICK_TIMEOUT = 1200
SLOW_TIMEOUT = 3600
# What a copy of the project needs; caches and run outputs stay behind.
LEFT_OUT = shutil.ignore_patterns(
    ".git", ".mypy_cache", ".ruff_cache", ".hypothesis", ".pytest_cache", "__pycache__",
    "logs", "out", "*.eval", "toy_benchmark", "toy_profile",
)  # fmt: skip
# The conformance tests the issue of one declaration per benchmark names: each must take up
# a new benchmark by itself (a test of the module parametrised with the toy's name).
CONFORMANCE = (
    "tests/test_bad_inputs.py",
    "tests/test_no_reply.py",
    "tests/test_compare.py",
    "tests/test_bounded_runs.py",
    "tests/test_determinism.py",
    "tests/test_secrets.py",
    "tests/test_faults.py",
    "tests/test_offline_models.py",
    "tests/test_log_viewer.py",
    "tests/test_examples.py",
    "tests/test_docs.py",
    "tests/test_catalog.py",
    "tests/test_switches.py",
    "tests/test_shards.py",
    "tests/test_server_checks.py",
)


def toy_files() -> list[Path]:
    return sorted(p.relative_to(TOY) for p in TOY.rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project with the toy benchmark's files put in, tables regenerated."""
    copy = tmp_path_factory.mktemp("project") / "repo"
    shutil.copytree(ROOT, copy, ignore=LEFT_OUT, symlinks=True)
    for relative in toy_files():
        assert not (copy / relative).exists(), f"{relative}: the toy adds files, changes none"
        (copy / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(TOY / relative, copy / relative)
    add_the_toy_profile(copy)
    for generator in ("tests.docs_tables", "tests.parameter_tables"):
        run(copy, [sys.executable, "-m", generator, "--write"])
    return copy


def add_the_toy_profile(copy: Path) -> None:
    """The toy profile's entry at the end of ``PROFILES``, its section at the end of the
    docs page's profiles, its configuration beside the others."""
    module = copy / PROFILES_MODULE
    source = module.read_text(encoding="utf-8")
    end = source.index("\n}\n", source.index("\nPROFILES: dict["))
    entry = (TOY_PROFILE / "profile_entry.txt").read_text(encoding="utf-8")
    module.write_text(source[: end + 1] + entry + source[end + 1 :], encoding="utf-8")
    page = copy / DOCS_PAGE
    text = page.read_text(encoding="utf-8")
    section = (TOY_PROFILE / "docs.md").read_text(encoding="utf-8")
    page.write_text(text.replace(DOCS_SECTION_BEFORE, section + DOCS_SECTION_BEFORE, 1))
    for config in (TOY_PROFILE / "benchmarks" / "configs").iterdir():
        target = copy / "benchmarks" / "configs" / config.name
        assert not target.exists(), f"{config.name}: the toy profile adds its configuration"
        shutil.copyfile(config, target)


def environment(project: Path) -> dict[str, str]:
    """The copy's package first on the path (before the editable install of this one)."""
    return {**os.environ, "PYTHONPATH": str(project), "INSPECT_LOG_DIR": str(project / "logs")}


def run(project: Path, command: list[str], timeout: int = 600) -> str:
    done = subprocess.run(
        command,
        cwd=project,
        env=environment(project),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_toy_is_a_task_file_its_parts_a_page_and_tests_and_no_list() -> None:
    assert [str(p) for p in toy_files()] == [
        "benchmarks/data/samples/toy_mcq/SOURCE.md",
        "benchmarks/data/samples/toy_mcq/validation.jsonl",
        "benchmarks/data/toy_mcq.py",
        "benchmarks/profiles/toy_mcq.py",
        "benchmarks/toy_mcq.py",
        "docs/toy_mcq.md",
        "tests/toy_mcq/__init__.py",
        "tests/toy_mcq/conformance.py",
        "tests/toy_mcq/test_toy_mcq.py",
    ]


# A letter multiple-choice benchmark with one profile, its task file and data module: the
# size a new benchmark costs (its profile, rows, tests and docs page beside them).
TOY_PACKAGE_LINES = 120


def test_a_new_letter_benchmark_is_small() -> None:
    lines = sum(
        len((TOY / relative).read_text(encoding="utf-8").splitlines())
        for relative in ("benchmarks/toy_mcq.py", "benchmarks/data/toy_mcq.py")
    )
    assert lines <= TOY_PACKAGE_LINES, f"the toy's task file and data module: {lines} lines"


def test_the_whole_quick_suite_passes_with_the_toys(project: Path) -> None:
    passed = run(
        project, [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], QUICK_TIMEOUT
    )
    assert_all_passed(passed)


def test_the_whole_slow_suite_passes_with_the_toys(project: Path) -> None:
    # all of it but this module (which would run it again)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "slow",
               "--ignore", "tests/test_adding_a_benchmark.py"]  # fmt: skip
    assert_all_passed(run(project, command, SLOW_TIMEOUT))


def assert_all_passed(output: str) -> None:
    summary = output.splitlines()[-1]
    assert re.match(r"\d+ passed", summary) and not re.search(r"failed|error", summary), output


def test_the_toy_profile_is_listed_and_runs(project: Path) -> None:
    page = (project / DOCS_PAGE).read_text(encoding="utf-8")
    assert f"### {PROFILE_NAME}" in page and f"`{PROFILE_NAME}`" in page.split("## Profiles")[0]
    log_dir = project / "logs" / "toy_profile"
    run(
        project,
        [
            inspect_cli(), "eval", "--run-config", "configs/winogrande_toy_harness.yaml",
            "-T", "bundled_sample=true", "--model", "benchmarks/oracle",
            "--log-dir", str(log_dir), "--display", "none",
        ],
    )  # fmt: skip
    (info,) = list_eval_logs(str(log_dir))
    log = read_eval_log(info)
    assert log.status == "success" and log.eval.metadata is not None
    assert (log.eval.metadata["profile"], log.eval.metadata["shots"]) == (PROFILE_NAME, 2)
    assert log.results is not None and log.results.scores[0].metrics["accuracy"].value == 1.0


def test_the_generated_tables_list_the_toy(project: Path) -> None:
    readme = (project / "README.md").read_text(encoding="utf-8")
    assert "[Toy MCQ](docs/toy_mcq.md)" in readme
    assert "**Toy MCQ**." in " ".join(readme.split())  # the opening sentence, last
    assert "| toy_mcq | `default` | | this project's |" in readme  # the profiles
    samples = (project / "benchmarks/data/samples/README.md").read_text(encoding="utf-8")
    assert "toy_mcq" in samples
    page = (project / "docs/toy_mcq.md").read_text(encoding="utf-8")
    assert '| `answer_parse` | `None` (the profile\'s: `"answer_marker"`) |' in page


def test_the_toy_is_listed(project: Path) -> None:
    listing = run(project, [sys.executable, "-m", "benchmarks"])
    assert re.search(r"^benchmarks/toy_mcq +Toy MCQ: letter accuracy$", listing, re.M), listing


@pytest.mark.parametrize(("model", "accuracy"), [("oracle", 1.0), ("random", None)])
def test_the_toy_runs_offline(project: Path, model: str, accuracy: float | None) -> None:
    log_dir = project / "logs" / model
    run(
        project,
        [
            inspect_cli(), "eval", f"benchmarks/{NAME}", "-T", "bundled_sample=true",
            "--model", f"benchmarks/{model}", "--log-dir", str(log_dir), "--display", "none",
        ],
    )  # fmt: skip
    (info,) = list_eval_logs(str(log_dir))
    log = read_eval_log(info)
    assert log.status == "success" and log.samples is not None and log.results is not None
    assert len(log.samples) == 6
    value = log.results.scores[0].metrics["accuracy"].value
    if accuracy is not None:
        assert value == accuracy
    else:  # its own reply form: every reply read as a letter it offers
        replies = [sample.output.completion for sample in log.samples]
        assert all(re.fullmatch(r"ANSWER: [ABC]", reply) for reply in replies), replies
        assert 0.0 <= value < 1.0


def test_the_conformance_tests_take_up_the_toy(project: Path) -> None:
    collected = run(
        project,
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "", "-p",
         "no:cacheprovider", "-k", NAME, *CONFORMANCE],
    )  # fmt: skip
    for module in CONFORMANCE:
        assert re.search(rf"^{re.escape(module)}::\S*{NAME}", collected, re.M), (
            f"{module} does not take up a new benchmark by itself"
        )
    # the quick ones run and pass, its own tests folder too
    passed = run(
        project,
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", NAME,
         *CONFORMANCE, f"tests/{NAME}"],
    )  # fmt: skip
    assert re.search(r"^\d+ passed", passed.splitlines()[-1]), passed
    assert "failed" not in passed.splitlines()[-1] and "error" not in passed.splitlines()[-1]
    # the checks over the whole project: its layout, the generated tables, the bench's
    # workloads (the toy's is its bundled sample)
    whole = run(
        project,
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_layout.py",
         "tests/test_docs_tables.py", "tests/test_bench_workloads.py"],
    )  # fmt: skip
    assert re.fullmatch(r"\d+ passed in .*", whole.splitlines()[-1]), whole


def test_the_bench_measures_the_toy_on_its_bundled_sample(project: Path) -> None:
    out = run(
        project,
        [sys.executable, "-m", "bench.construction.fresh_process", "construct", "--benchmark", NAME,
         "--mode", "eval10", "--data", str(project / "bench-data")],
    )  # fmt: skip
    result = json.loads(out.rsplit("BENCH_RESULT ", 1)[-1])
    assert (result["status"], result["dataset_len"]) == ("ok", 6), result
