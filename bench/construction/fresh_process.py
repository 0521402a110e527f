"""A measurement in a fresh process: ``python -m bench.construction.fresh_process <command>``.

Each command prints one line ``BENCH_RESULT <json>`` on stdout; ``bench.construction``
starts the children, so every measurement starts from a fresh interpreter.
Only the standard library is imported at module level, so that the import
times of ``inspect_ai``, ``datasets`` and the benchmark module can be timed.
Commands: ``construct`` (bench/construction/build_timing.py), ``scorers`` and
``images`` (bench/construction/scorer_and_image_timing.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bench.common.case_tasks import Unavailable
from bench.construction.build_timing import cmd_construct
from bench.construction.scorer_and_image_timing import cmd_images, cmd_scorers
from bench.generate_data import DATA_DIR
from bench.workloads import case

RESULT_MARKER = "BENCH_RESULT "


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="One harness measurement (see bench/construction/runner.py)."
    )
    parser.add_argument("command", choices=("construct", "scorers", "images"))
    parser.add_argument("--benchmark", action="append", default=[])
    parser.add_argument("--mode", default="full")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=DATA_DIR)
    args = parser.parse_args(argv)
    try:
        if args.command == "construct":
            result = cmd_construct(case(args.benchmark[0]), args.mode, args.data)
        elif args.command == "scorers":
            result = cmd_scorers(args.benchmark, args.samples, args.repeat, args.data)
        else:
            result = cmd_images(args.samples, args.repeat, args.data)
        result.setdefault("status", "ok")
    except Unavailable as ex:
        result = {"status": "not available yet", "error": str(ex)}
    sys.stdout.write(RESULT_MARKER + json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
