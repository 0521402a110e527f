"""Command line: ``python -m benchmarks.shards eval|merge`` (see docs/scaling.md)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from benchmarks.runtime.argument_types import positive
from benchmarks.shards import fanout, merged_output
from benchmarks.shards.log_files import LogError


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(
        prog="python -m benchmarks.shards",
        description="Split a run into shards over this machine's cores, or merge shard logs "
        "(from any machine) into the log of the whole run.",
    )
    commands = parse.add_subparsers(dest="command", required=True)
    merge = commands.add_parser(
        "merge",
        help="join shard logs into one log per run",
        description="Join the logs of a run's shards (runs with -T shard=i/n) into one log of "
        "the whole run, which the viewer, inspect score and benchmarks.compare read as one.",
    )
    merge.add_argument(
        "locations",
        nargs="+",
        metavar="LOCATION",
        help="shard log files or folders of them (local paths or URLs such as s3://...)",
    )
    merge.add_argument(
        "--output",
        metavar="LOCATION",
        help="the merged log (a .eval path, one run only) or the folder to write it to "
        "(default: <name>.eval beside a <name>.shards folder given alone; the folder given "
        "alone; else $INSPECT_LOG_DIR or ./logs)",
    )
    run = commands.add_parser(
        "eval",
        allow_abbrev=False,
        help="run one inspect eval as N shard processes, then merge",
        description="Run `inspect eval <arguments>` as N processes, shard i of N each "
        "(-T shard=i/N), then merge their logs. Every argument not listed here goes to "
        "inspect eval as given.",
    )
    run.add_argument(
        "--shards",
        type=positive,
        default=len(os.sched_getaffinity(0)),
        help="how many processes (default: the CPUs this process may use, %(default)s)",
    )
    run.add_argument(
        "--log-dir",
        default=os.environ.get("INSPECT_LOG_DIR", "./logs"),
        help="where the merged log goes, the shards' logs below it (default: "
        "$INSPECT_LOG_DIR or ./logs)",
    )
    return parse


def main(argv: Sequence[str] | None = None) -> int:
    args, rest = parser().parse_known_args(argv)
    try:
        if args.command == "merge":
            if rest:
                parser().error(f"unrecognized arguments: {' '.join(rest)}")
            return merged_output.merge(args.locations, args.output)
        return fanout.run(rest, shards=args.shards, log_dir=args.log_dir)
    except LogError as ex:
        print(f"error: {ex}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
