"""Where merged logs go (``merged_location``), and what ``python -m benchmarks.shards merge``
prints: a run's shards in ``<name>.shards/<k>/`` (Inspect's layout for a sharded run) merge
into ``<name>.eval`` beside that folder, so the viewer hides the shards it covers."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence

from inspect_ai.log import EvalLog, write_eval_log

from benchmarks.shards.log_files import LogError, display_path, is_folder
from benchmarks.shards.merge import merged_log, shard_runs

SHARDS_SUFFIX = ".shards"


def merge(locations: Sequence[str], output: str | None) -> int:
    """Merge every run whose shards ``locations`` hold; print where each went."""
    runs, notes = shard_runs(locations)
    if output is not None and output.endswith(".eval") and len(runs) > 1:
        raise LogError(
            f"--output {output}: the logs hold shards of {len(runs)} runs "
            f"({'; '.join(run[0].label for run in runs)}); give a folder to write each to."
        )
    for run in runs:
        log = merged_log(run)
        location = merged_location(log, locations, output, single_run=len(runs) == 1)
        try:
            write_eval_log(log, location, format="eval")
        except Exception as ex:  # a folder that cannot be written: the writer's own words
            raise LogError(f"{location}: cannot be written ({type(ex).__name__}: {ex}).") from None
        headline = ""  # the first score's first metric
        if log.results and log.results.scores and log.results.scores[0].metrics:
            metric = next(iter(log.results.scores[0].metrics.values()))
            headline = f", {metric.name} {metric.value:.4g}"
        print(
            f"{run[0].label}: {len(run)} shards, {len(log.samples or []):,} samples{headline} -> "
            f"{display_path(location)}"
        )
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return 0


def merged_location(
    log: EvalLog, locations: Sequence[str], output: str | None, *, single_run: bool
) -> str:
    """``output`` if it names a .eval file; ``<name>.eval`` beside a lone ``<name>.shards``
    folder of one run; else a new file in ``output``, by default beside the shards, else in
    ``$INSPECT_LOG_DIR`` (``./logs``)."""
    if output is not None and output.endswith(".eval"):
        return output
    if output is not None and output.endswith(".json"):
        raise LogError(f"--output {output}: a merged log is an .eval file; name one, or a folder.")
    lone = locations[0].rstrip("/") if len(locations) == 1 and is_folder(locations[0]) else ""
    parent = lone.rpartition("/")[0] or "."
    if lone.endswith(SHARDS_SUFFIX):
        if single_run and (output is None or same_folder(output, parent)):
            return lone.removesuffix(SHARDS_SUFFIX) + ".eval"
        output = output or parent
    elif lone and output is None:
        if log.eval.shards and any(entry.eval_set_id for entry in log.eval.shards.ledger):
            raise LogError(
                f"{lone}: the shards ran in an eval set, whose folder must hold its own logs "
                "only (inspect eval-set resumes from it); pass --output <another folder>."
            )
        output = lone
    folder = output or os.environ.get("INSPECT_LOG_DIR", "./logs")
    return f"{folder.rstrip('/')}/{log_name(log)}"


def same_folder(a: str, b: str) -> bool:
    if "://" in a or "://" in b:
        return a.rstrip("/") == b.rstrip("/")
    return os.path.normpath(a) == os.path.normpath(b)


def inspect_name(created: str, task: str, id: str) -> str:
    """``<created>_<task>_<id>``, as Inspect names a log (its default pattern)."""
    return f"{re.sub(r'[:+]', '-', created.split('.')[0])}_{task.rsplit('/', 1)[-1]}_{id[:22]}"


def log_name(log: EvalLog) -> str:
    return inspect_name(log.eval.created, log.eval.task, log.eval.eval_id) + ".eval"
