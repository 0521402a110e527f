"""What a user sees on the command line: one clean message, no traceback, a non-zero exit.

Parameter errors, an unknown task name, a ``num_examples`` that leaves rows
out, the bundled sample switch and an unreachable Hub, each through the real
``inspect`` command (or the task function where the CLI adds nothing).
"""

from __future__ import annotations

import logging
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.runtime.errors import TaskParameterError
from benchmarks.scienceqa import scienceqa
from benchmarks.simpleqa import simpleqa
from benchmarks.triviaqa import triviaqa
from benchmarks.winogrande import winogrande
from tests.inspect_cli import inspect_cli

ROOT = Path(__file__).parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
WINOGRANDE_FILE = str(FIXTURES / "winogrande" / "validation.jsonl")


def run_inspect(*args: str) -> subprocess.CompletedProcess[str]:
    """The ``inspect`` command with the display a user gets (the tests' ``none`` dropped)."""
    env = {key: value for key, value in os.environ.items() if key != "INSPECT_DISPLAY"}
    return subprocess.run(
        [inspect_cli(), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["benchmarks/triviaqa", "-T", "shots=five"],
            "triviaqa: shots must be a non-negative integer or null (the profile's), got 'five'.",
        ),
        (
            ["benchmarks/triviaqa", "-T", "eval_split=valid"],
            "triviaqa: unknown eval_split 'valid'; choose one of train, validation, test.",
        ),
        (
            ["benchmarks/winogrande", "-T", "num_examples=0"],
            "winogrande: num_examples must be a positive integer or null (all rows), got 0.",
        ),
        (
            ["benchmarks/simpleqa", "-T", "grade_parse=loose"],
            "simpleqa: unknown grade_parse 'loose'; choose one of strict, official, "
            "inspect_evals_strict.",
        ),
        (
            ["benchmarks/simpleqa", "-T", "dataset_path=a.csv", "-T", "data_files=b.csv"],
            "simpleqa: pass either dataset_path or data_files, not both.",
        ),
        (
            ["benchmarks/winogrande", "-T", "bundled_sample=true", "-T", "data_files=b.jsonl"],
            "winogrande: bundled_sample=true reads the rows shipped with the package; "
            "drop dataset_path and data_files, or drop bundled_sample.",
        ),
        (
            ["benchmarks/scienceqa", "-T", "bundled_sample=true", "-T", "eval_split=validation"],
            "scienceqa: the bundled sample has the split(s) 'test' only, not 'validation'.",
        ),
        (
            ["benchmarks/winogrande", "-T", "num_examples=[1]"],
            "winogrande: num_examples must be a positive integer or null (all rows), got [1].",
        ),
        (
            ["benchmarks/triviaqa", "-T", "metric=[1]"],
            "triviaqa: unknown metric [1]; choose one of normalized_alias_exact_match, "
            "alias_exact_match, lm_eval_exact_match.",
        ),
        (
            ["benchmarks/scienceqa", "-T", "data_files=[1]"],
            "scienceqa: data_files must be a file or a mapping split -> file, got [1].",
        ),
    ],
)
@pytest.mark.slow
def test_the_cli_prints_one_clean_message(args: list[str], message: str) -> None:
    done = run_inspect("eval", *args, "--model", "mockllm/model")
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert message in " ".join(output.split())  # the console wraps long lines
    assert "Traceback" not in output
    assert len(output.strip().splitlines()) <= 8


@pytest.mark.slow
def test_a_corrupt_file_is_reported_once_in_our_words(tmp_path: Path) -> None:
    rows = Path(WINOGRANDE_FILE).read_text(encoding="utf-8").splitlines()[:5]
    corrupt = tmp_path / "corrupt.jsonl"
    corrupt.write_text("\n".join([*rows, '{"sentence": "x", "option1": ']) + "\n")
    done = run_inspect(
        "eval", "benchmarks/winogrande", "-T", f"data_files={corrupt}", "--model", "mockllm/model"
    )
    output = " ".join((done.stdout + done.stderr).split())
    assert done.returncode != 0
    assert output == (
        f"{corrupt}: could not be read as json: line 6 is not valid JSON "
        "(Expecting value, character 29)."
    )


def test_parameter_errors_are_value_errors_from_python() -> None:
    with pytest.raises(ValueError) as raised:
        triviaqa(shots=-1)
    assert isinstance(raised.value, TaskParameterError)
    assert str(raised.value) == (
        "triviaqa: shots must be a non-negative integer or null (the profile's), got -1."
    )


@pytest.mark.parametrize("spelling", ["None", "none", None])
def test_num_examples_none_is_accepted_in_every_spelling(spelling: object) -> None:
    task = winogrande(data_files=WINOGRANDE_FILE, num_examples=spelling)  # type: ignore[arg-type]
    assert len(task.dataset) == 5


@pytest.mark.slow
def test_num_examples_none_from_the_command_line(tmp_path: Path) -> None:
    done = run_inspect(
        "eval",
        "benchmarks/winogrande",
        "-T",
        f"data_files={WINOGRANDE_FILE}",
        "-T",
        "num_examples=None",
        "--model",
        "benchmarks/oracle",
        "--log-dir",
        str(tmp_path),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "winogrande (5 samples)" in done.stdout


def test_a_cut_by_num_examples_is_announced_once(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        task = winogrande(data_files=WINOGRANDE_FILE, num_examples=3)
        list(task.dataset)
    cuts = [r.getMessage() for r in caplog.records if "num_examples" in r.getMessage()]
    assert cuts == [
        f"num_examples=3: evaluating the first 3 of the 5 rows of {WINOGRANDE_FILE} "
        "(validation split)."
    ]


def test_no_cut_no_announcement(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        winogrande(data_files=WINOGRANDE_FILE, num_examples=5)
        triviaqa(bundled_sample=True)
    assert not [r for r in caplog.records if "num_examples" in r.getMessage()]


def test_triviaqa_evaluates_every_row_by_default() -> None:
    """No default silently drops rows (it used to stop at 7,993)."""
    assert len(triviaqa(bundled_sample=True).dataset) == 30
    assert len(triviaqa(bundled_sample=True, num_examples=None).dataset) == 30


@pytest.mark.parametrize(
    ("task", "size", "first_id"),
    [
        (lambda: triviaqa(bundled_sample=True), 30, "tc_33"),
        (lambda: simpleqa(bundled_sample=True), 30, "simpleqa_0"),
        (lambda: winogrande(bundled_sample=True, shots=2), 40, "validation_0"),
        (lambda: scienceqa(bundled_sample=True), 20, "test_0"),
    ],
)
def test_each_task_runs_on_its_bundled_sample(task, size: int, first_id: str) -> None:  # type: ignore[no-untyped-def]
    dataset = task().dataset
    assert len(dataset) == size
    assert dataset[0].id == first_id


def test_scienceqa_bundled_sample_has_images() -> None:
    samples = list(scienceqa(bundled_sample=True).dataset)
    assert sum(1 for s in samples if s.metadata and s.metadata["has_image"]) == 9


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_hub_fails_at_once_with_both_offline_variables(tmp_path: Path) -> None:
    port = _closed_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")
    }
    env.update(HF_HOME=str(tmp_path / "hf"), HF_ENDPOINT=f"http://127.0.0.1:{port}")
    script = (
        "from benchmarks.winogrande import winogrande\n"
        "try:\n"
        "    winogrande()\n"
        "except ValueError as ex:\n"
        "    print('MESSAGE', ex)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    message = done.stdout.split("MESSAGE ", 1)[1]
    assert message.startswith(
        "Could not load the Winogrande dataset 'allenai/winogrande' (config 'winogrande_xl'), "
        f"split 'validation': the Hub is unreachable (127.0.0.1:{port}: Connection refused) "
        "and the Hugging Face cache has no copy.\nTo run without the Hub:\n"
        "- warm the Hugging Face cache on a connected machine, then set HF_HUB_OFFLINE=1 "
        "and HF_DATASETS_OFFLINE=1;\n"
    )
    # no retry loop before the message
    assert "Retrying" not in done.stderr


@pytest.mark.slow
def test_a_run_that_evaluates_no_sample_says_so(tmp_path: Path) -> None:
    args = "benchmarks/winogrande -T bundled_sample=true --limit 0 --model benchmarks/oracle"
    done = run_inspect("eval", *args.split(), "--log-dir", str(tmp_path))
    # the console puts the logging call's file:line at the right of the first line
    output = re.sub(r" \S+\.py:\d+ ", " ", " ".join((done.stdout + done.stderr).split()))
    assert done.returncode == 0
    assert (
        "benchmarks/winogrande: no sample was evaluated (--limit 0 selects none), "
        "so no metric is reported." in output
    )
    assert "hooks enabled" not in output  # registered after start-up: no banner


@pytest.mark.slow
def test_eval_from_python_announces_the_run_end_hook_once(tmp_path: Path) -> None:
    """A task built in Python registers the run-end hook before Inspect first loads the
    hooks (with the first model): Inspect's banner above the first run names it."""
    program = (
        "from inspect_ai import eval\n"
        "from benchmarks.winogrande import winogrande\n"
        "task = winogrande(bundled_sample=True)\n"
        f"eval(task, model='benchmarks/oracle', limit=0, log_dir={str(tmp_path)!r})\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        env={**os.environ, "INSPECT_DISPLAY": "plain"},
    )
    output = re.sub(r" \S+\.py:\d+ ", " ", " ".join((done.stdout + done.stderr).split()))
    assert done.returncode == 0, output
    assert "no sample was evaluated (--limit 0 selects none)" in output
    assert output.count("hooks enabled: 1") == 1 and "benchmarks/run_end" in output
