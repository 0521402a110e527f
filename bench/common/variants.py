"""The sides the HTTP benches compare: ours, bare and bare + metadata, and their order.

Each variant of a case is an ``inspect eval`` of a task file with its task
arguments; ``write_inputs`` gives the bare task our samples' prompts, targets and
images (``bench.common.bare_inputs``, a child process).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.common.child_runs import child_env
from bench.common.http_runs import REPO_DIR, SERVICE
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
