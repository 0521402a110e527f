"""The sides the HTTP benches compare: ours, bare and bare + metadata, and their order.

Each variant of a case is an ``inspect eval`` of a task file with its task
arguments; ``write_inputs`` gives the bare task our samples' prompts, targets and
images (``bench.common.bare_inputs``, a child process).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.common.child_runs import child_env, machine
from bench.common.http_runs import REPO_DIR, SERVICE, cpu_plan, pin_cpus, start_server
from bench.generate_data import DATA_DIR
from bench.workloads import GRADER_REPLY, case, cases

SIDES = ("ours", "bare")
# The bare tasks get every row of our task's dataset and the same --limit:
# Inspect builds and holds every sample of a dataset before it applies
# --limit, and a smaller heap makes each full garbage collection cheaper, so a
# bare task over only the evaluated rows would be spared a cost that bare
# Inspect over the same dataset pays too.
EVERY_ROW = 10**9


def pair_order(index: int, sides: tuple[str, ...] = SIDES) -> tuple[str, ...]:
    """The sides rotated by ``index``, so that each goes first equally often: with two,
    ours first in even rounds and bare first in odd ones."""
    shift = index % len(sides)
    return sides[shift:] + sides[:shift]


def task_file(key: str) -> str:
    """The case's task file, not its registry name: an editable install of the distribution
    (inspect-reference-benchmarks) hides the "benchmarks/" names from Inspect."""
    return f"{case(key).module.replace('.', '/')}.py"


def http_env(data_dir: Path, base_url: str) -> dict[str, str]:
    env = child_env(data_dir)
    env[f"{SERVICE.upper()}_BASE_URL"] = base_url
    env[f"{SERVICE.upper()}_API_KEY"] = "x"
    return env


def replies() -> dict[str, str]:
    texts = {key: spec.reply for key, spec in cases().items()}
    texts["grader"] = GRADER_REPLY
    return texts


def write_inputs(key: str, samples: int, work: Path, data_dir: Path) -> dict[str, Any]:
    import subprocess
    import sys

    out = work / key
    done = subprocess.run(
        [sys.executable, "-m", "bench.common.bare_inputs", "--benchmark", key]
        + ["--samples", str(samples), "--out", str(out), "--data", str(data_dir)],
        cwd=REPO_DIR,
        env=child_env(data_dir),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"inputs for {key}: {done.stderr.strip().splitlines()[-1:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def variant_commands(
    key: str, inputs: dict[str, Any], data_dir: Path, env: dict[str, str], options: list[str]
) -> dict[str, Any]:
    """(task, task config, options) for ``inspect eval`` of each variant.

    ``ours``: our task; ``bare``: the bare task on the same prompts, targets
    and images; ``bare_meta``: the bare task also given our samples' metadata
    and choices and Inspect's grouped accuracy over our breakdown keys.
    """
    measured = case(key)
    bare_config = {"inputs": inputs["inputs"], "generate_config": inputs["generate_config"]}
    if "judge_template" in inputs:
        bare_config["judge_template"] = inputs["judge_template"]
    meta_config = {**bare_config, "sample_metadata": True, "group_by": inputs["group_by"]}
    return {
        "ours": (task_file(key), measured.task_args(data_dir), options),
        "bare": ("bench/common/bare_task.py", bare_config, options),
        "bare_meta": ("bench/common/bare_task.py", meta_config, options),
    }


def describe(result: dict[str, Any], samples: int | None) -> str:
    if result.get("status") != "ok":
        return f"ERROR {result.get('error') or result.get('output_tail', '')[-400:]}"
    rate = f"{samples / result['wall_s']:.1f} samples/s, " if samples else ""
    return f"{rate}{result['wall_s']:.1f} s, peak {result['peak_rss_mb']:.0f} MB"


# Where the commands write their results (bench/out/<name>.json and .md).
OUT_DIR = REPO_DIR / "bench" / "out"


def add_run_arguments(parser: argparse.ArgumentParser, name: str, options_help: str) -> None:
    """The options of a command that runs ``inspect eval`` against the loopback server."""
    parser.add_argument("--samples", type=int, default=1500)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated cases (default: every case of every benchmark of the catalog)",
    )
    parser.add_argument("--options", default="", help=options_help)
    parser.add_argument("--data", type=Path, default=DATA_DIR)
    parser.add_argument("--name", default=name, help="bench/out/<name>.json, .md")


def eval_options(args: argparse.Namespace) -> list[str]:
    """The ``inspect eval`` options every side runs with."""
    options = ["--limit", str(args.samples), "--max-connections", str(args.connections)]
    return options + args.options.split()


def results_head(args: argparse.Namespace, options: list[str]) -> dict[str, Any]:
    """What every command's results start with: when, where, how many samples, the options."""
    return {
        "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "samples": args.samples,
        "options": options,
    }


@contextmanager
def loopback_server(data_dir: Path, *, pin: bool) -> Iterator[dict[str, str]]:
    """The loopback server answering every case (with ``pin``, on the first CPU and the
    evaluations on the others), and the environment of a run against it."""
    server = start_server(replies(), child_env(data_dir))
    pin_cpus(server, cpu_plan() if pin else None)
    try:
        yield http_env(data_dir, server.base_url)
    finally:
        server.stop()


def write_results(name: str, results: dict[str, Any], text: str) -> None:
    """``bench/out/<name>.json`` (the raw numbers) and ``.md`` (the report), then print it."""
    OUT_DIR.mkdir(exist_ok=True)
    (OUT_DIR / f"{name}.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    (OUT_DIR / f"{name}.md").write_text(text, encoding="utf-8")
    print(text)
