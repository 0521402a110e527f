"""Every reference configuration in configs/ loads as ``inspect eval --run-config`` loads it,
carries the long-run options, runs offline, and is listed in the README.

What each configuration reproduces is proven by the peer tests (tests/peers/), which
run these same files against the references' own code.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inspect_ai._cli.eval import parse_run_config
from inspect_ai.log import list_eval_logs, read_eval_log

from benchmarks.catalog import BENCHMARKS, specs
from tests.inspect_cli import offline_eval

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))
TASKS = set(BENCHMARKS)


def test_there_is_a_configuration_per_reference_profile() -> None:
    """Each profile but ``default`` has one configuration, ``<benchmark>_<...>.yaml``, that
    names it; each configuration names a profile of its benchmark."""
    named: dict[tuple[str, str], list[str]] = {}
    for config in CONFIGS:
        params = parse_run_config(str(config))
        task = params["tasks"].removeprefix("benchmarks/")
        assert config.name.startswith(f"{task}_"), config.name
        named.setdefault((task, params["task_args"]["profile"]), []).append(config.name)
    profiles = {
        (name, profile)
        for name, spec in specs().items()
        for profile in spec.profiles
        if profile != "default"
    }
    assert set(named) == profiles
    assert all(len(files) == 1 for files in named.values()), named


def test_the_readme_lists_every_configuration() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"\]\((configs/[\w.]+\.yaml)\)", readme)
    assert sorted(set(listed)) == [f"configs/{config.name}" for config in CONFIGS]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda path: path.stem)
def test_the_configuration_loads_as_the_cli_loads_it(config: Path) -> None:
    params = parse_run_config(str(config))
    assert params["tasks"].removeprefix("benchmarks/") in TASKS
    assert params["retry_on_error"] == 3
    assert params["attempt_timeout"] == 300
    # the file says what it reproduces and how to run it
    header = config.read_text(encoding="utf-8").split("\ntask:")[0]
    assert "inspect eval --run-config configs/" in header


@pytest.mark.parametrize("config", CONFIGS, ids=lambda path: path.stem)
@pytest.mark.slow
def test_the_configuration_runs_offline_on_the_bundled_sample(config: Path, tmp_path: Path) -> None:
    done = offline_eval(
        "--run-config",
        str(config.relative_to(ROOT)),
        "--model-role",
        "grader=benchmarks/oracle",
        "-T",
        "bundled_sample=true",
        log_dir=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    [log_file] = list_eval_logs(str(tmp_path))
    log = read_eval_log(log_file)
    assert log.status == "success"
    assert log.results is not None
    first = log.results.scores[0].metrics
    # SimpleQA's "correct", the MCQ tasks' "accuracy", TriviaQA's "exact_match"
    headline = next(first[name] for name in ("correct", "accuracy", "exact_match") if name in first)
    assert headline.value == 1.0
