"""What ran is readable: the settings a run resolved are printed above its summary, since
Inspect records the task's arguments as called (a switch left to its profile is ``null``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import read_eval_log

from benchmarks.runtime.run_settings import resolved_settings
from benchmarks.simpleqa import simpleqa
from benchmarks.triviaqa import triviaqa
from tests.inspect_cli import ROOT, inspect_cli

ORACLE = "benchmarks/oracle"
TRIVIAQA_SHOTS_0 = (
    "benchmarks/triviaqa settings: profile: default, shots: 0, fewshot_seed: 1234, "
    "prompt_format: canonical, fewshot_as_multiturn: False, answer_extraction: stop_sequences, "
    "metric: normalized_alias_exact_match, dataset_config: rc.wikipedia.nocontext, "
    "completions_prompt: text, stop_at_eos: False"
)


def test_the_settings_are_the_recorded_arguments_as_applied_in_parameter_order() -> None:
    task_args = {"profile": "x", "shots": None, "data_files": None, "num_examples": None}
    metadata = {"shots": 5, "profile": "x", "data_files": "a.jsonl", "dataset_sha256": "ab"}
    assert resolved_settings(task_args, metadata) == "profile: x, shots: 5"
    assert resolved_settings(task_args, None) == ""


def test_a_run_prints_the_switches_it_resolved(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    [log] = eval(
        simpleqa(bundled_sample=True, grade_parse="official"),
        model=ORACLE,
        model_roles={"grader": ORACLE},
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    printed = capfd.readouterr().err.splitlines()
    assert (
        "benchmarks/simpleqa settings: profile: default, grade_parse: official, "
        "grader_temperature: 0.5, grader_max_tokens: 1024, grader_prompt: simple_evals"
    ) in printed
    # the log keeps the arguments as called, for eval-retry
    assert log.eval.task_args_passed == {"bundled_sample": True, "grade_parse": "official"}
    assert log.eval.task_args["grader_temperature"] == "profile"


@pytest.mark.slow
def test_the_inspect_command_prints_the_settings_above_the_summary(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            inspect_cli(),
            "eval",
            "benchmarks/triviaqa",
            "-T",
            "bundled_sample=true",
            "-T",
            "shots=0",
            "--model",
            ORACLE,
            "--log-dir",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert TRIVIAQA_SHOTS_0 in done.stderr.splitlines()
    [path] = tmp_path.glob("*.eval")
    assert read_eval_log(str(path), header_only=True).eval.task_args["prompt_format"] is None


def test_triviaqa_resolves_the_profiles_values(tmp_path: Path) -> None:
    [log] = eval(
        triviaqa(bundled_sample=True, shots=0),
        model=ORACLE,
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    assert (
        resolved_settings(log.eval.task_args, log.eval.metadata)
        == TRIVIAQA_SHOTS_0.split(" settings: ")[1]
    )
