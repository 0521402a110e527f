"""bench.attribution (stacks to categories, ms a sample) and bench/common/wait4_command.py (the
command's own CPU and peak memory, not the bench's)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.attribution.sample_costs import category, per_sample, read_stacks
from bench.common.http_runs import WAIT4_COMMAND

SITE = "/venv/lib/python3.11/site-packages"


def frame(function: str, path: str, line: int = 1) -> str:
    return f"{function} ({path}:{line})"


def test_a_stack_goes_to_its_phase_else_its_innermost_component() -> None:
    loop = frame("_run_once", "/usr/lib/python3.11/asyncio/base_events.py")
    run = frame("task_run_sample", f"{SITE}/inspect_ai/_eval/task/run.py")
    solve = frame("solve", "/repo/benchmarks/solvers/prompted.py")
    score = frame("score", "/repo/benchmarks/scorers/triviaqa.py")
    httpx = frame("send", f"{SITE}/httpx/_client.py")
    generate = frame("generate", f"{SITE}/inspect_ai/model/_model.py")
    metrics = frame("eval_results", f"{SITE}/inspect_ai/_eval/task/results.py")
    imports = frame("_find_and_load", "<frozen importlib._bootstrap>")
    # our solver building the prompt is ours; the model call it makes is Inspect's, and the
    # HTTP under that the client's
    assert category(";".join([loop, run, solve])) == "our solvers (prompt built)"
    assert category(";".join([loop, run, solve, generate])) == (
        "Inspect's model call (Model.generate)"
    )
    assert category(";".join([loop, run, solve, generate, httpx])) == (
        "HTTP client (openai SDK, httpx)"
    )
    assert category(";".join([loop, run, score])) == "our scorer"
    # a phase takes the stack whatever it calls: the running metrics reducing our scores,
    # an import of our module
    assert category(";".join([loop, metrics, score])) == (
        "running metrics (Inspect's eval_results, reducers, metrics)"
    )
    assert category(";".join([imports, score])) == "start-up: imports"
    assert category(";".join([loop, run])) == "Inspect's sample loop (task/run.py and the rest)"
    assert category(loop) == "event loop (asyncio, anyio)"
    assert category(frame("main", "/other.py")) == "other"


def test_counts_become_cpu_milliseconds_a_sample(tmp_path: Path) -> None:
    stacks = tmp_path / "stacks.txt"
    score = frame("score", "/repo/benchmarks/scorers/triviaqa.py")
    loop = frame("_run_once", "/usr/lib/python3.11/asyncio/base_events.py")
    stacks.write_text(f"{loop};{score} 500\n{loop} 250\n{loop};{score} 250\n", encoding="utf-8")
    counts = read_stacks(stacks)
    assert counts == {"our scorer": 750, "event loop (asyncio, anyio)": 250}
    # 250 Hz: 750 samples are 3 s, over 100 samples 30 ms each
    expected = {"our scorer": 30.0, "event loop (asyncio, anyio)": 10.0}
    assert per_sample(dict(counts), 100) == expected


def test_wait4_command_reports_the_commands_own_peak_not_the_parents(tmp_path: Path) -> None:
    # the parent holds 400 MB when it starts the measured child: Linux would carry that peak
    # into a child it forks, but not into the command wait4_command starts
    held = bytearray(400 * 1024 * 1024)
    out = tmp_path / "used.json"
    command = [sys.executable, "-c", "x = bytearray(100 * 1024 * 1024); print(len(x))"]
    done = subprocess.run(
        [sys.executable, str(WAIT4_COMMAND), str(out), "--", *command],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, str(100 * 1024 * 1024))
    used = json.loads(out.read_text(encoding="utf-8"))
    assert used["returncode"] == 0
    assert 100 <= used["peak_rss_mb"] < 200
    assert used["cpu_s"] > 0
    del held


def test_wait4_command_passes_the_commands_exit_code_on(tmp_path: Path) -> None:
    out = tmp_path / "used.json"
    command = [sys.executable, "-c", "raise SystemExit(3)"]
    done = subprocess.run([sys.executable, str(WAIT4_COMMAND), str(out), "--", *command])
    assert done.returncode == 3
    assert json.loads(out.read_text(encoding="utf-8"))["returncode"] == 3
