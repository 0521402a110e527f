"""Command line: ``python -m benchmarks.compare LOG [LOG ...]`` (see docs/compare.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.compare.analysis import DEFAULT_RESAMPLES, DEFAULT_SEED, Settings
from benchmarks.compare.report import FORMATS
from benchmarks.runtime.argument_types import positive
from benchmarks.shards.log_files import LogError


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(
        prog="python -m benchmarks.compare",
        description="Compare Inspect logs of the same benchmark: paired differences with 95% "
        "intervals and p-values, per category; one log alone: every metric with its interval.",
    )
    parse.add_argument(
        "logs", nargs="+", metavar="LOG", help="log files or log folders; the first is the baseline"
    )
    parse.add_argument(
        "--judges",
        action="store_true",
        help="judge agreement of SimpleQA gradings (one re-graded log, or logs "
        "of the same answers)",
    )
    parse.add_argument("--scorer", help="score to read (default: the task's own scorer)")
    parse.add_argument(
        "--baseline",
        metavar="MODEL",
        help="with one folder of several models' logs (an eval set's): compare every other "
        "model with this one, task by task",
    )
    parse.add_argument("--format", choices=FORMATS, default="text", help="output format")
    parse.add_argument(
        "--resamples",
        type=positive,
        default=DEFAULT_RESAMPLES,
        help=f"bootstrap resamples (default {DEFAULT_RESAMPLES})",
    )
    parse.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"bootstrap seed (default {DEFAULT_SEED})"
    )
    parse.add_argument(
        "--plot", metavar="FILE.png", type=png_path, help="also draw a forest plot (PNG)"
    )
    return parse


def png_path(text: str) -> str:
    """A writable .png path, checked before any log is read."""
    path = Path(text)
    if path.suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(f"must be a .png file, got {text!r}")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"{str(path.parent)!r} is not an existing folder")
    return text


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    options: dict[str, Any] = {
        "scorer": args.scorer,
        "settings": Settings(resamples=args.resamples, seed=args.seed),
    }
    one_log = len(args.logs) == 1 and args.baseline is None and not args.judges
    kind = "describe" if one_log else "compare"
    try:
        # Imported here so that a missing pandas is reported as a CompareError.
        from benchmarks.compare import api, judges, report
        from benchmarks.compare.plot import forest_plot

        if args.judges:
            result = judges.judge_agreement(args.logs, **options)
            frame, output = result.metrics, report.judges_render(result, args.format)
        elif kind == "describe":
            frame = api.describe_logs(args.logs[0], **options)
            output = report.render(frame, kind, args.format)
        else:
            frame = api.compare_logs(args.logs, baseline_model=args.baseline, **options)
            output = report.render(frame, kind, args.format)
        if args.plot:
            forest_plot(frame, args.plot, kind=kind)
    except LogError as ex:
        print(f"error: {ex}", file=sys.stderr)
        return 2
    sys.stdout.write(output)
    if args.plot:
        print(f"Wrote {args.plot}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
