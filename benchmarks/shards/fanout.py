"""``python -m benchmarks.shards eval``: one run as N ``inspect eval`` processes, merged.

One ``inspect eval`` process uses one core (docs/performance.md): this starts N, shard i
of N each, writing to ``<log-dir>/<run>.shards/<i>/`` (Inspect's layout for a sharded run),
and merges them into ``<log-dir>/<run>.eval`` (docs/scaling.md).
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


def run_name(arguments: Sequence[str]) -> str:
    """``<created>_<task>_<id>``, as Inspect names a log, for the shards folder and the
    merged log (the task as named, else the configuration's file name)."""
    task = next((word for word in arguments if TASK_WORD.fullmatch(word)), None)
    if task is None and "--run-config" in arguments[:-1]:
        task = arguments[arguments.index("--run-config") + 1]
    name = (task or "run").split("@")[-1].rstrip("/").removesuffix(".py").removesuffix(".yaml")
    return inspect_name(datetime.now(UTC).isoformat(timespec="seconds"), name, uuid.uuid4().hex)


def run(arguments: Sequence[str], *, shards: int, log_dir: str) -> int:
    """Run the shards, then merge them; 1 when a shard fails, 2 on refused arguments."""
    for index, word in enumerate(arguments):  # what cannot be given to every shard
        option = word.split("=", 1)[0]
        if option in REFUSED:
            raise LogError(f"{option}: {REFUSED[option]}.")
        value = arguments[index + 1] if index + 1 < len(arguments) else ""
        task_arg = value if word in ("-T", "--task-arg") else word.removeprefix("-T")
        task_arg = task_arg.removeprefix("--task-arg=")
        if word.startswith(("-T", "--task-arg")) and task_arg.split("=", 1)[0] == "shard":
            raise LogError("-T shard: this command gives each process its shard.")
    # each shard's output goes to a file: the plain display unless one is named
    display = (
        [] if any(word.startswith("--display") for word in arguments) else ["--display", "plain"]
    )
    shards_folder = f"{log_dir.rstrip('/')}/{run_name(arguments)}{SHARDS_SUFFIX}"
    print(f"{shards} shards, logs in {shards_folder}/<i>/", file=sys.stderr)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as scratch:
        outputs = [Path(scratch) / f"{index}.out" for index in range(shards)]
        processes: list[subprocess.Popen[bytes]] = []
        try:
            for index, output in enumerate(outputs):
                own = ["-T", f"shard={index}/{shards}", "--log-dir", f"{shards_folder}/{index}"]
                command = [sys.executable, "-m", "inspect_ai", "eval", *arguments, *own, *display]
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
