"""``python -m benchmarks.shards eval``: one run as N ``inspect eval`` processes, merged.

One ``inspect eval`` process runs its samples on one event loop, so it uses one
core (docs/performance.md). This starts N of them with the user's arguments,
each adding ``-T shard=i/N`` and writing its log to ``<log-dir>/<run>.shards/<i>/``
(Inspect's layout for a sharded run), waits for all, and merges them into
``<log-dir>/<run>.eval``. Each process has its own ``--max-connections``: N
processes open up to N times as many connections. A shard that fails stops the
merge; the message says how to finish it and merge by hand.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.shards.log_files import LogError
from benchmarks.shards.merged_output import SHARDS_SUFFIX, inspect_name, merge

# inspect eval options a shard process cannot take: each is refused with the reason
REFUSED = {
    "--limit": "a shard runs all of its questions; to cut the run give -T num_examples=N",
    "--sample-id": "a shard runs all of its questions; to cut the run give -T num_examples=N",
    "--log-format": "shards write .eval logs (Inspect's layout for a sharded run)",
}
TAIL_LINES = 20
# A task as inspect eval names one: a registered name, a file, a file@task.
TASK_WORD = re.compile(r"(benchmarks/\w+|.*\.py(@\w+)?|.*@\w+)")


def refusal(arguments: Sequence[str]) -> str | None:
    """Why ``arguments`` cannot be given to every shard, or None."""
    for index, word in enumerate(arguments):
        option = word.split("=", 1)[0]
        if option in REFUSED:
            return f"{option}: {REFUSED[option]}."
        value = arguments[index + 1] if index + 1 < len(arguments) else ""
        task_arg = value if word in ("-T", "--task-arg") else word.removeprefix("-T")
        task_arg = task_arg.removeprefix("--task-arg=")
        if word.startswith(("-T", "--task-arg")) and task_arg.split("=", 1)[0] == "shard":
            return "-T shard: this command gives each process its shard."
    return None


def run_name(arguments: Sequence[str]) -> str:
    """``<created>_<task>_<id>``, as Inspect names a log, for the shards folder and the
    merged log (the task as named, else the configuration's file name)."""
    task = next((word for word in arguments if TASK_WORD.fullmatch(word)), None)
    if task is None and "--run-config" in arguments[:-1]:
        task = arguments[arguments.index("--run-config") + 1]
    name = (task or "run").split("@")[-1].rstrip("/").removesuffix(".py").removesuffix(".yaml")
    return inspect_name(datetime.now(UTC).isoformat(timespec="seconds"), name, uuid.uuid4().hex)


def shard_command(arguments: Sequence[str], index: int, shards: int, folder: str) -> list[str]:
    display = (
        [] if any(word.startswith("--display") for word in arguments) else ["--display", "plain"]
    )
    return [
        sys.executable,
        "-m",
        "inspect_ai",
        "eval",
        *arguments,
        "-T",
        f"shard={index}/{shards}",
        "--log-dir",
        folder,
        *display,
    ]


def run(arguments: Sequence[str], *, shards: int, log_dir: str) -> int:
    """Run the shards, then merge them; 1 when a shard fails, 2 on refused arguments."""
    reason = refusal(arguments)
    if reason is not None:
        raise LogError(reason)
    shards_folder = f"{log_dir.rstrip('/')}/{run_name(arguments)}{SHARDS_SUFFIX}"
    print(f"{shards} shards, logs in {shards_folder}/<i>/", file=sys.stderr)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        outputs = [Path(scratch) / f"{index}.out" for index in range(shards)]
        processes: list[subprocess.Popen[bytes]] = []
        try:
            for index, output in enumerate(outputs):
                command = shard_command(arguments, index, shards, f"{shards_folder}/{index}")
                with open(output, "wb") as sink:
                    processes.append(
                        subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
                    )
            codes = []
            for index, process in enumerate(processes):
                codes.append(process.wait())
                seconds = time.monotonic() - started
                print(
                    f"shard {index}/{shards}: exit {codes[-1]} ({seconds:.0f} s)", file=sys.stderr
                )
        finally:  # stopped (Ctrl-C, an error): no shard is left running
            for process in processes:
                if process.poll() is None:
                    process.terminate()
        failed = [index for index, code in enumerate(codes) if code != 0]
        for index in failed:
            tail = outputs[index].read_text(errors="replace").splitlines()[-TAIL_LINES:]
            print(f"--- shard {index}/{shards}, last lines:", *tail, sep="\n", file=sys.stderr)
    if failed:
        print(
            f"{len(failed)} of {shards} shards failed. Finish each with `inspect eval-retry "
            f"<its log> --log-dir {shards_folder}/<i>` (or rerun it), then "
            f"`python -m benchmarks.shards merge {shards_folder}`.",
            file=sys.stderr,
        )
        return 1
    return merge([shards_folder], log_dir)
