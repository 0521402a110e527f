"""Reading Inspect logs of this package's tasks: their headers, then their sample summaries,
the fastest of Inspect's readers, which keep the score values and breakdown fields intact
(docs/compare.md, "Speed"); judge agreement reads full samples, to show answers and replies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.log import (
    EvalSample,
    EvalSampleSummary,
    read_eval_log,
    read_eval_log_sample_summaries,
)

from benchmarks.catalog import specs
from benchmarks.profiles import PROFILE_SENTINEL
from benchmarks.shards.log_files import FoundLog, LogError, found_logs
from benchmarks.spec import BenchmarkSpec, FormerVersions

# Sample fields judge agreement never reads (skipped: long transcripts are most of a log).
SKIPPED_SAMPLE_FIELDS = {"messages", "events", "store", "attachments", "output"}

# A full sample or its summary: both have id, epoch, scores, error, metadata, target, input.
SampleRecord = EvalSample | EvalSampleSummary


class CompareError(LogError):
    """A log cannot be read or compared; the message names the file, the reason and what to
    pass instead."""


class TaskLog(FoundLog):
    """A log of a task of the catalog: its spec, and how to read it as the current version."""

    @property
    def spec(self) -> BenchmarkSpec:
        return specs()[self.task]

    @property
    def former(self) -> FormerVersions | None:
        """How this log, of an earlier task version read as the current one, differs."""
        former = self.spec.former_versions
        return former if former and str(self.header.eval.task_version) in former.versions else None

    @property
    def task_version(self) -> str:
        """The task version (a former one read as the current counts as the current)."""
        return self.spec.version if self.former else str(self.header.eval.task_version)

    def task_args(self) -> dict[str, Any]:
        """The task arguments as the task applied them: a switch left to its profile (None,
        or "profile" where None is a value of its own) is the profile's value, which the task
        records in its metadata; with those added since a former version filled in as that
        version behaved and the values renamed since under their new names."""
        resolved = self.header.eval.metadata or {}
        args = {
            name: resolved.get(name, value) if value in (None, PROFILE_SENTINEL) else value
            for name, value in (self.header.eval.task_args or {}).items()
        }
        return former.current_args(args) if (former := self.former) is not None else args


@dataclass
class LogsAt:
    """The logs an argument names, one per task and model, and notes on those left aside."""

    argument: str
    logs: dict[tuple[str, str], TaskLog]
    notes: list[str]

    def by_task(self) -> dict[str, TaskLog]:
        """One log per task; several models' logs of a task are refused, saying what to pass."""
        found: dict[str, TaskLog] = {}
        for (task, _), log in self.logs.items():
            if task in found:
                models = sorted(model for (name, model) in self.logs if name == task)
                raise CompareError(
                    f"{self.argument}: holds logs of task {task} from {len(models)} "
                    f"models ({', '.join(models)}); compare them with each other "
                    f"(--baseline {found[task].model}), or pass one model's log file "
                    f"({found[task].name})."
                )
            found[task] = log
        return found


def logs_at(argument: str) -> LogsAt:
    """The logs of known tasks ``argument`` names (a file, a folder, an eval-set folder or
    a URL): a file as it is, in a folder the newest finished log of each task and model, with
    a note on each log left aside (docs/compare.md, "Command line")."""
    try:
        found = [TaskLog(log.location, log.header) for log in found_logs(argument)]
    except LogError as ex:
        raise CompareError(str(ex)) from None
    if len(found) == 1 and found[0].location == argument:  # a file, read as it is
        [log] = found
        if log.shard is not None:
            raise CompareError(
                f"{log.name}: is shard {log.shard} of a run; merge its shards (python -m "
                "benchmarks.shards merge <their logs or folder>) and pass the merged log."
            )
        if log.task not in specs():
            raise CompareError(
                f"{log.name}: task {log.header.eval.task!r} is not one this tool knows "
                f"({', '.join(specs())}); pass a log of one of them (a benchmark declares its "
                "scorer and breakdown fields in its SPEC, benchmarks/spec.py)."
            )
        return LogsAt(argument, {(log.task, log.model): log}, [])
    notes: list[str] = []
    known = [log for log in found if log.task in specs()]
    if len(known) < len(found):
        notes.append(f"{argument}: {len(found) - len(known)} log(s) of other tasks left aside.")
    whole = [log for log in known if log.shard is None]
    shards = [log for log in known if log.shard is not None]
    for unfinished in whole:
        if unfinished.status != "success":
            notes.append(
                f"{unfinished.name}: left aside, the run did not finish (status "
                f"{unfinished.status})."
            )
    newest: dict[tuple[str, str], TaskLog] = {}
    # in the listing's order, which orders the tasks reported
    for run in (log for log in whole if log.status == "success"):
        key = (run.task, run.model)
        older, newer = sorted([newest.get(key, run), run], key=lambda r: (r.created, r.location))
        if older is not newer:
            notes.append(
                f"{older.name}: left aside for the newer {newer.file_name} (same task and model)."
            )
        newest[key] = newer
    # a shard is covered by a merged log that lists it (Inspect's ledger of the merge)
    merged = {
        entry.log for run in whole if run.header.eval.shards
        for entry in run.header.eval.shards.ledger
    }  # fmt: skip
    unmerged = sorted(
        {(log.task, log.model) for log in shards if log.file_name not in merged}, key=str
    )
    if unmerged:
        task, model = unmerged[0]
        raise CompareError(
            f"{argument}: holds shard logs of task {task} ({model}) and no merged log of "
            f"them; merge them first (python -m benchmarks.shards merge {argument}), then "
            "pass the merged log or this folder."
        )
    if shards:
        notes.append(f"{argument}: {len(shards)} shard log(s) left aside (their merged logs read).")
    if not newest:
        raise CompareError(
            f"{argument}: holds no finished log of {', '.join(specs())}; pass a log file to "
            "read an unfinished run."
        )
    return LogsAt(argument, newest, notes)


def read_samples(log: TaskLog, *, full: bool = False) -> Sequence[SampleRecord]:
    """The samples of a log as the current task version writes them: their summaries (see
    the module docstring for why), or with ``full`` the samples complete but for messages,
    events, store and attachments."""
    try:
        if full:
            samples: Sequence[SampleRecord] = (
                read_eval_log(log.location, exclude_fields=SKIPPED_SAMPLE_FIELDS).samples or []
            )
        else:
            samples = read_eval_log_sample_summaries(log.location)
    except Exception as ex:
        raise CompareError(f"{log.name}: cannot read the samples ({ex}).") from None
    if not samples:
        raise CompareError(f"{log.name}: the log holds no samples.")
    if (former := log.former) is not None:
        for sample in samples:
            sample.id = former.current(str(sample.id))
            if former.metadata is not None:
                sample.metadata = former.metadata(sample.metadata or {})
    return samples
