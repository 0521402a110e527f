"""The tasks are registered with Inspect and carry a description and a version."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import list_eval_logs, read_eval_log

from benchmarks.catalog import BENCHMARKS, specs
from tests.inspect_cli import inspect_cli, offline_eval
from tests.scripted import replies_by_prompt

ROOT = Path(__file__).parents[1]
TASKS = tuple(sorted(BENCHMARKS))


@pytest.mark.slow
def test_inspect_lists_every_task_with_its_description() -> None:
    listed = subprocess.run(
        [inspect_cli(), "list", "tasks", "benchmarks", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    tasks = {entry["name"]: entry for entry in json.loads(listed.stdout)}
    assert sorted(tasks) == list(TASKS)
    for name in TASKS:
        assert tasks[name]["file"] == f"benchmarks/{name}.py"
        assert len(tasks[name]["attribs"]["description"]) > 20


def test_the_registry_name_works_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    data = str(ROOT / "tests" / "fixtures" / "winogrande" / "validation.jsonl")
    [log] = eval(
        "benchmarks/winogrande",
        task_args={"data_files": data},
        model=replies_by_prompt(lambda prompt: "ANSWER: A"),
        limit=2,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success"
    assert log.eval.task == "benchmarks/winogrande"
    assert log.eval.task_version == "1.5.0"


@pytest.mark.parametrize("name", TASKS)
@pytest.mark.slow
def test_every_task_has_a_version(name: str) -> None:
    script = (
        "import inspect_ai._util.registry as r, json\n"
        f"from benchmarks.{name} import {name}\n"
        f"print(json.dumps(r.registry_info({name}).metadata.get('attribs', {{}})))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert "description" in json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("spec", ["benchmarks/winogrande", "benchmarks/winogrande.py"])
@pytest.mark.slow
def test_logs_name_the_task_alike_however_it_is_launched(spec: str, tmp_path: Path) -> None:
    done = offline_eval(
        spec, "-T", "bundled_sample=true", "--limit", "2", log_dir=tmp_path, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    [log] = list_eval_logs(str(tmp_path))
    assert read_eval_log(log, header_only=True).eval.task == "benchmarks/winogrande"


# Imported by ``import benchmarks._registry`` only when something else imported them.
HEAVY_MODULES = ("datasets", "pyarrow", "pandas", "PIL", "numpy")


@pytest.mark.slow
def test_loading_the_entry_point_imports_no_data_library() -> None:
    # Inspect loads every installed package's entry point before any command,
    # other packages' evals included: datasets, pyarrow, pandas, Pillow and
    # numpy must wait until one of our tasks is built, and then come only as its data
    # needs them (a JSON Lines file needs none; ScienceQA's parquet and images, pyarrow
    # and Pillow).
    script = (
        "import json, sys\n"
        "from importlib.metadata import entry_points\n"
        f"HEAVY_MODULES = {HEAVY_MODULES!r}\n"
        "def imported(): return sorted(m for m in HEAVY_MODULES if m in sys.modules)\n"
        "[ep] = [ep for ep in entry_points(group='inspect_ai') if ep.name == 'benchmarks']\n"
        "ep.load()\n"
        "after_entry_point = imported()\n"
        "from benchmarks.scienceqa import scienceqa\n"
        "scienceqa_samples = list(scienceqa(bundled_sample=True).dataset)\n"
        "after_scienceqa = imported()\n"
        "from benchmarks.triviaqa import triviaqa\n"
        "triviaqa_samples = list(triviaqa(bundled_sample=True).dataset)\n"
        "after_triviaqa = imported()\n"
        "print(json.dumps([after_entry_point, after_scienceqa, after_triviaqa,\n"
        "                  len(scienceqa_samples), len(triviaqa_samples)]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    after_entry_point, after_scienceqa, after_triviaqa, scienceqa_samples, triviaqa_samples = (
        json.loads(done.stdout.strip().splitlines()[-1])
    )
    assert after_entry_point == []
    assert after_scienceqa == ["PIL", "numpy", "pyarrow"]  # pyarrow imports numpy
    assert scienceqa_samples == 20
    assert after_triviaqa == after_scienceqa  # no more: its files are JSON Lines
    assert triviaqa_samples > 0


@pytest.mark.slow
def test_python_m_benchmarks_lists_the_tasks_anywhere(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    tasks, configs = done.stdout.split("\n\nReference configurations: ")
    lines = tasks.splitlines()
    names = [line.split()[0] for line in lines if line.startswith("benchmarks/")]
    assert names == [f"benchmarks/{name}" for name in BENCHMARKS]
    assert lines[0].startswith("benchmarks/triviaqa ")
    assert "Closed-book few-shot TriviaQA" in lines[0]
    assert lines[1].split() == [
        "profiles:",
        "default,",
        "lm_eval_0.4.13,",
        "lm_eval_0.4.13_completions,",
        "lm_eval_0.4.13_completions_token_ids",
    ]
    assert lines[-1] == "Run one: inspect eval benchmarks/<name> --model <provider>/<model>"
    config_lines = configs.splitlines()
    assert config_lines[0] == "inspect eval --run-config <path> --model ..."
    shipped = sorted((ROOT / "benchmarks" / "configs").glob("*.yaml"))
    assert [line.split() for line in config_lines[1:]] == [
        [path.stem, str(path)] for path in shipped
    ]


@pytest.mark.slow
def test_a_listed_config_path_runs_from_another_directory(tmp_path: Path) -> None:
    listed = subprocess.run(
        [sys.executable, "-m", "benchmarks"], cwd=tmp_path, capture_output=True, text=True
    )
    line = next(line for line in listed.stdout.splitlines() if line.startswith("winogrande_e"))
    name, path = line.split()
    done = subprocess.run(
        [inspect_cli(), "eval", "--run-config", path, "--model", "benchmarks/oracle"]
        + ["-T", "bundled_sample=true", "--limit", "1", "--log-dir", str(tmp_path / "logs")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (name, done.returncode) == ("winogrande_evalscope", 0), done.stdout + done.stderr


@pytest.mark.parametrize(
    ("name", "profile"),
    [(name, profile) for name, spec in specs().items() for profile in spec.profiles],
)
def test_the_logged_scorer_name_finds_the_scorer(name: str, profile: str) -> None:
    """``inspect score LOG`` rebuilds a log's scorer by the name the log records (the short
    one): under every profile that name must find it."""
    from inspect_ai._util.registry import registry_info, registry_lookup

    task = specs()[name].task(bundled_sample=True, profile=profile)
    scorers = task.scorer if isinstance(task.scorer, list) else [task.scorer]
    for made in scorers:
        short = registry_info(made).name.rsplit("/", 1)[-1]
        assert registry_lookup("scorer", short) is not None, f"{name}/{profile}: {short}"
