"""Where merged logs go, and what ``python -m benchmarks.shards merge`` prints.

A run's shards in ``<name>.shards/<k>/`` (Inspect's layout for a sharded run,
which ``python -m benchmarks.shards eval`` writes) merge into ``<name>.eval``
beside that folder: the viewer then lists the merged log and hides the shards it
covers. Otherwise the merged log takes Inspect's own name for a log
(``<created>_<task>_<id>.eval``), in ``--output``, or beside the shards in the one folder
given, or else in ``$INSPECT_LOG_DIR`` (``./logs``) as ``inspect eval`` would.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence

from inspect_ai.log import EvalLog, write_eval_log

from benchmarks.runtime.log_files import LogError, display_path, is_folder
from benchmarks.shards.merge import ShardRun, merged_log, shard_runs

SHARDS_SUFFIX = ".shards"


def merge(locations: Sequence[str], output: str | None) -> int:
    """Merge every run whose shards ``locations`` hold; print where each went."""
    runs, notes = shard_runs(locations)
    if output is not None and output.endswith(".eval") and len(runs) > 1:
        raise LogError(
            f"--output {output}: the logs hold shards of {len(runs)} runs "
            f"({'; '.join(run.describe() for run in runs)}); give a folder to write each to."
        )
    for run in runs:
        log = merged_log(run)
        location = merged_location(log, locations, output, single_run=len(runs) == 1)
        write_eval_log(log, location, format="eval")
        if run.superseded:
            notes.append(
                f"{run.describe()}: {run.superseded} other log(s) of its shards (older, or "
                "unfinished) left aside."
            )
        print(summary(run, log, location))
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return 0


def merged_location(
    log: EvalLog, locations: Sequence[str], output: str | None, *, single_run: bool
) -> str:
    """``output`` if it names a .eval file; ``<name>.eval`` beside a lone ``<name>.shards``
    folder holding one run (unless ``output`` names another folder); else a file in
    ``output``, by default in the lone folder given (where the shards are), else in the log
    folder (``$INSPECT_LOG_DIR``, ``./logs``)."""
    if output is not None and output.endswith(".eval"):
        return output
    lone = locations[0].rstrip("/") if len(locations) == 1 and is_folder(locations[0]) else ""
    parent = lone.rpartition("/")[0] or "."
    beside = output is None or output.rstrip("/") == parent
    if single_run and lone.endswith(SHARDS_SUFFIX) and beside:
        return lone.removesuffix(SHARDS_SUFFIX) + ".eval"
    if output is None and lone and not lone.endswith(SHARDS_SUFFIX):
        output = lone
    folder = output or os.environ.get("INSPECT_LOG_DIR", "./logs")
    return f"{folder.rstrip('/')}/{log_name(log)}"


def log_name(log: EvalLog) -> str:
    """``<created>_<task>_<id>.eval``, as Inspect names a log (its default pattern)."""
    created = re.sub(r"[:+]", "-", log.eval.created.split(".")[0])
    task = log.eval.task.rsplit("/", 1)[-1]
    return f"{created}_{task}_{log.eval.eval_id[:22]}.eval"


def summary(run: ShardRun, log: EvalLog, location: str) -> str:
    """One line: the run, its shards and samples, its headline metric, where it went."""
    samples = len(log.samples or [])
    headline = ""
    if log.results and log.results.scores:
        score = log.results.scores[0]
        metric = next(iter(score.metrics.values()), None)
        if metric is not None:
            headline = f", {metric.name} {metric.value:.4g}"
    return (
        f"{run.describe()}: {len(run.logs)} shards, {samples:,} samples{headline} -> "
        f"{display_path(location)}"
    )
