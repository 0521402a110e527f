"""Fresh child processes of the harness, and the machine they run on.

``run_child`` runs ``python -m bench.construction.fresh_process`` offline, with a
``datasets`` cache of the bench's own; ``machine`` describes the CPU, memory and package versions.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from bench.construction.fresh_process import RESULT_MARKER

REPO_DIR = Path(__file__).resolve().parents[2]
CHILD_TIMEOUT_SECONDS = 600


def child_env(data_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        # A cache of our own: runs do not depend on (or fill) the user's cache.
        HF_DATASETS_CACHE=str(data_dir / "hf_datasets_cache"),
        HF_DATASETS_DISABLE_PROGRESS_BARS="1",
        INSPECT_DISPLAY="none",
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_DIR), env.get("PYTHONPATH")])),
    )
    return env


def run_child(args: Sequence[str], data_dir: Path) -> dict[str, Any]:
    """Run ``python -m bench.construction.fresh_process <args>``; its result, with the
    process's wall time."""
    command = [
        sys.executable,
        "-m",
        "bench.construction.fresh_process",
        *args,
        "--data",
        str(data_dir),
    ]
    started = time.perf_counter()
    done = subprocess.run(
        command,
        cwd=REPO_DIR,
        env=child_env(data_dir),
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT_SECONDS,
    )
    wall = time.perf_counter() - started
    for line in reversed(done.stdout.splitlines()):
        if line.startswith(RESULT_MARKER):
            result: dict[str, Any] = json.loads(line.removeprefix(RESULT_MARKER))
            result["process_wall_s"] = wall
            return result
    tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-6:])
    return {"status": "error", "error": tail, "process_wall_s": wall}


def python_startup(data_dir: Path, repeat: int) -> float:
    durations = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=child_env(data_dir), check=True)
        durations.append(time.perf_counter() - started)
    return statistics.median(durations)


def median_of(runs: list[dict[str, Any]], key: str) -> float | None:
    values = [run[key] for run in runs if run.get("status") == "ok" and run.get(key) is not None]
    return statistics.median(values) if values else None


def summarize_construct(runs: list[dict[str, Any]]) -> dict[str, Any]:
    ok = [run for run in runs if run.get("status") == "ok"]
    if not ok:
        return {"status": runs[0].get("status"), "error": runs[0].get("error"), "runs": runs}
    keys = (
        "import_inspect_s",
        "import_datasets_s",
        "import_benchmark_s",
        "construct_s",
        "build_s",
        "beyond_imports_s",
        "rss_after_imports_mb",
        "peak_rss_mb",
        "process_wall_s",
        "eval_s",
    )
    summary: dict[str, Any] = {key: median_of(ok, key) for key in keys}
    summary.update(
        status="ok",
        repeat=len(ok),
        dataset_len=ok[-1]["dataset_len"],
        samples_built=ok[-1]["samples_built"],
        built_rows=max(
            (run["built_rows"] for run in ok if run["built_rows"] is not None), default=None
        ),
        runs=runs,
    )
    return summary


def machine() -> dict[str, Any]:
    cpu: str = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    versions: dict[str, str | None] = {}
    for package in ("inspect_ai", "datasets", "pyarrow", "pillow"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "cpus": os.cpu_count(),
        "cpu_model": cpu,
        "memory_gb": memory_gb,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": versions,
        "load_average_start": os.getloadavg(),
    }
