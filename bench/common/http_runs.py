"""Processes of the HTTP benches: the loopback server, ``inspect eval`` runs, lm-eval's python.

Each evaluation is a fresh ``inspect eval`` process (what a user runs), timed
from start to exit; its peak RSS and CPU time come from ``os.wait4`` of the
command itself (``bench/common/wait4_command.py``), the sample count and status from
its log header.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.workloads import Case

COMMON_DIR = Path(__file__).resolve().parent
REPO_DIR = COMMON_DIR.parents[1]
SERVICE = "loopback"
RUN_TIMEOUT_SECONDS = 900
WAIT4_COMMAND = COMMON_DIR / "wait4_command.py"
# The server exits by itself after this long, whatever happens to the bench.
SERVER_MAX_SECONDS = 3 * 3600
LM_EVAL_PYTHON_ENV = "LM_EVAL_PYTHON"
# CPUs the harness processes are confined to (None: wherever the kernel puts
# them); set by ``pin_cpus``.
_harness_cpus: set[int] | None = None


def cpu_plan() -> tuple[set[int], set[int]] | None:
    """(server CPUs, harness CPUs) on a machine of two CPUs or more, else None.

    The server gets the first CPU and every harness the others, so that a
    harness process (and its threads) never competes with the server for a
    core: on two cores this cut the run-to-run spread of per-sample CPU time
    from about +-10 % to about +-4 %.
    """
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        return None
    return {cpus[0]}, set(cpus[1:])


def pin_cpus(server: Server | None, plan: tuple[set[int], set[int]] | None) -> None:
    """Confine the server and the harness processes started from now on."""
    global _harness_cpus
    if plan is None:
        _harness_cpus = None
        return
    server_cpus, harness_cpus = plan
    if server is not None:
        os.sched_setaffinity(server.process.pid, server_cpus)
    _harness_cpus = harness_cpus


def model_name(key: str) -> str:
    return f"openai-api/{SERVICE}/{key}"


@dataclass
class Server:
    process: subprocess.Popen[str]
    port: int

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_server(replies: dict[str, str], env: dict[str, str]) -> Server:
    command = [
        sys.executable,
        "-m",
        "bench.common.loopback",
        "--max-seconds",
        str(SERVER_MAX_SECONDS),
    ]
    for model, text in replies.items():
        command += ["--reply", f"{model}={text}"]
    process = subprocess.Popen(
        command, cwd=REPO_DIR, env=env, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("PORT "):
        process.kill()
        raise RuntimeError(f"the loopback server did not start: {line!r}")
    return Server(process, int(line.split()[1]))


def timed_process(command: Sequence[str], env: dict[str, str]) -> dict[str, Any]:
    """Run ``command``; its wall time, CPU time, peak RSS (MB) and output tail. CPU and
    peak RSS are the command's own (``bench/common/wait4_command.py``: not the bench's peak,
    which Linux would carry over into a child it forks)."""
    with tempfile.TemporaryFile("w+") as output, tempfile.TemporaryDirectory() as tmp:
        used = Path(tmp) / "used.json"
        started = time.perf_counter()
        cpus = _harness_cpus
        process = subprocess.Popen(
            [sys.executable, str(WAIT4_COMMAND), str(used), "--", *command],
            cwd=REPO_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=None if cpus is None else lambda: os.sched_setaffinity(0, cpus),
        )
        try:
            process.wait(timeout=RUN_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.terminate()
            process.wait()
        wall = time.perf_counter() - started
        output.seek(0)
        tail = output.read()[-3000:]
        usage = json.loads(used.read_text(encoding="utf-8")) if used.exists() else {}
    return {
        "returncode": process.returncode,
        "wall_s": wall,
        # CPU of the process (user + system): steadier than wall time on a shared machine
        "cpu_s": usage.get("cpu_s", float("nan")),
        "peak_rss_mb": usage.get("peak_rss_mb", float("nan")),
        "output_tail": tail,
    }


def log_header(log_dir: Path) -> dict[str, Any]:
    from inspect_ai.log import read_eval_log

    logs = sorted(log_dir.glob("*.eval"))
    if len(logs) != 1:
        return {"log_error": f"{len(logs)} logs in {log_dir}"}
    log = read_eval_log(str(logs[0]), header_only=True)
    return {
        "status": log.status,
        "samples": log.results.completed_samples if log.results else 0,
        "log_bytes": logs[0].stat().st_size,
        "error": log.error.message if log.error else None,
    }


def inspect_eval(
    task: str,
    task_config: dict[str, Any],
    key: str,
    spec: Case,
    options: Sequence[str],
    env: dict[str, str],
    wrapper: Sequence[str] = (),
    shards: int = 1,
) -> dict[str, Any]:
    """One ``inspect eval`` of ``task`` against the loopback server (run by ``wrapper``, a
    sampler such as py-spy, when given), or ``shards`` of them and their merge (``python -m
    benchmarks.shards eval``)."""
    work = Path(tempfile.mkdtemp(prefix="bench-http-"))
    try:
        config = work / "task_config.json"
        config.write_text(json.dumps(task_config), encoding="utf-8")
        program = [str(Path(sys.executable).with_name("inspect")), "eval"]
        if shards > 1:
            program = [sys.executable, "-m", "benchmarks.shards", "eval", "--shards", str(shards)]
        command = [
            *wrapper,
            *program,
            task,
            "--task-config",
            str(config),
            "--model",
            model_name(key),
            "--log-dir",
            str(work / "logs"),
            "--display",
            "none",
            *options,
        ]
        if spec.grader_reply is not None:
            command += ["--model-role", f"grader={model_name('grader')}"]
        result = timed_process(command, env)
        if (work / "logs").exists():
            result.update(log_header(work / "logs"))
        if result["returncode"] != 0 or result.get("status") != "success":
            result["status"] = "error"
        else:
            result["status"] = "ok"
            result.pop("output_tail")
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def lm_eval_python(explicit: str | None) -> tuple[str | None, str]:
    """lm-eval's interpreter (``--lm-eval-python`` or ``$LM_EVAL_PYTHON``), or why not."""
    python = explicit or os.environ.get(LM_EVAL_PYTHON_ENV)
    if not python:
        return None, (
            f"lm-evaluation-harness not configured: set {LM_EVAL_PYTHON_ENV} (or "
            "--lm-eval-python) to the python of a venv holding lm-eval[api]==0.4.13"
        )
    if not Path(python).exists():
        return None, f"{LM_EVAL_PYTHON_ENV}={python} does not exist"
    found = subprocess.run(
        [python, "-c", "import lm_eval, importlib.metadata as m; print(m.version('lm_eval'))"],
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        return None, f"{python} cannot import lm_eval"
    return python, found.stdout.strip()
