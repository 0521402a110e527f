"""What ran is readable: the settings a run resolved are printed above its summary, and the
log's task arguments (the viewer's header) hold them, while the arguments as called, on which
eval-retry and eval-set match runs, stay as called."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval, eval_retry, eval_set
from inspect_ai.log import EvalError, read_eval_log, write_eval_log

from benchmarks.catalog import specs
from benchmarks.runtime.inspect_private import TASK_ALL_PARAMS_ATTR
from benchmarks.runtime.task_record import resolved_settings
from benchmarks.simpleqa import simpleqa
from benchmarks.triviaqa import triviaqa
from benchmarks.winogrande import winogrande
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
    # the log keeps the arguments as called, for eval-retry, and those that ran for the header
    assert log.eval.task_args_passed == {"bundled_sample": True, "grade_parse": "official"}
    assert log.eval.task_args["grader_temperature"] == 0.5


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
    header = read_eval_log(str(path), header_only=True).eval
    assert (header.task_args["prompt_format"], header.task_args_passed) == (
        "canonical",
        {"bundled_sample": True, "shots": 0},
    )


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


def test_the_settings_line_escapes_control_characters() -> None:
    metadata = {"profile": "x", "stop": "\n\tend", "stops": ["\n", "."]}
    assert resolved_settings(dict.fromkeys(metadata), metadata) == (
        "profile: x, stop: \\n\\tend, stops: ['\\n', '.']"
    )


@pytest.mark.parametrize(
    ("name", "profile"), [(n, p) for n, spec in specs().items() for p in spec.profiles]
)
def test_the_logs_task_arguments_hold_each_switch_as_it_ran(name: str, profile: str) -> None:
    task = specs()[name].task(profile=profile, bundled_sample=True)
    recorded = getattr(task, TASK_ALL_PARAMS_ATTR)
    switches = ["profile", *specs()[name].profiles[profile].switch_names()]
    assert task.metadata is not None
    assert {switch: recorded[switch] for switch in switches} == {
        switch: task.metadata[switch] for switch in switches
    }
    assert "profile" not in [recorded[switch] for switch in switches]


@pytest.mark.slow
def test_eval_retry_reruns_a_log_written_before_with_the_arguments_passed(
    tmp_path: Path,
) -> None:
    [log] = eval(
        winogrande(bundled_sample=True, num_examples=3, shots=0),
        model=ORACLE,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.samples is not None
    # the log as a run before the header held the applied values wrote it (the switches
    # left to the profile null), interrupted before its last sample
    switches = specs()["winogrande"].profiles["default"].switch_names()
    log.eval.task_args = {
        **log.eval.task_args,
        **{switch: None for switch in switches if switch != "shots"},
    }
    log.status, log.results, log.samples = "error", None, log.samples[:-1]
    log.error = EvalError(message="interrupted", traceback="", traceback_ansi="")
    write_eval_log(log, log.location)
    [retried] = eval_retry(log.location, log_dir=str(tmp_path), display="none")
    assert retried.status == "success" and retried.samples is not None
    assert len(retried.samples) == 3
    assert (
        retried.eval.task_args_passed
        == log.eval.task_args_passed
        == {
            "bundled_sample": True,
            "num_examples": 3,
            "shots": 0,
        }
    )
    assert (retried.eval.task_args["answer_parse"], retried.eval.task_args["fewshot_seed"]) == (
        "answer_marker",
        1234,
    )


@pytest.mark.slow
def test_eval_set_resumes_a_log_written_before_and_redoes_only_its_missing_sample(
    tmp_path: Path,
) -> None:
    def task() -> Any:
        return winogrande(bundled_sample=True, num_examples=3)

    done, [header] = eval_set(task(), log_dir=str(tmp_path), model=ORACLE, display="none")
    log = read_eval_log(header.location)  # eval_set hands back the headers
    assert done and log.samples is not None
    switches = specs()["winogrande"].profiles["default"].switch_names()
    log.eval.task_args = {**log.eval.task_args, **dict.fromkeys(switches)}
    log.status, log.results, log.samples = "error", None, log.samples[:-1]
    log.error = EvalError(message="interrupted", traceback="", traceback_ansi="")
    write_eval_log(log, log.location)
    done, [header] = eval_set(task(), log_dir=str(tmp_path), model=ORACLE, display="none")
    resumed = read_eval_log(header.location)
    assert done and resumed.status == "success" and resumed.samples is not None
    assert len(resumed.samples) == 3
    # the samples the interrupted log holds are kept, not run again
    kept = {sample.uuid for sample in log.samples}
    assert kept <= {sample.uuid for sample in resumed.samples} and len(kept) == 2
    assert resumed.eval.task_args_passed == log.eval.task_args_passed
    assert resumed.eval.task_args["shots"] == 0
