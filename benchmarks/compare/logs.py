"""Reading Inspect logs of this package's tasks.

Logs are read with ``inspect_ai.log``: ``read_eval_log(header_only=True)``
for the run, then ``read_eval_log_sample_summaries`` for the samples. The
summaries hold what the statistics need (id, epoch, score values, error,
metadata, target) and are the fastest of Inspect's readers: for an
8,000-sample log (``python -m bench.compare``), 1.1 s against 2.8 s for
``inspect_ai.analysis.samples_df`` and 10 s for ``read_eval_log``. Inspect thins them (text
fields cut near 1 KB, larger metadata values dropped), which leaves score
values and short breakdown fields intact. Judge agreement reads full samples
(without messages and events), since it shows answers and judge replies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from inspect_ai.log import (
    EvalLog,
    EvalSample,
    EvalSampleSummary,
    read_eval_log,
    read_eval_log_sample_summaries,
)

from benchmarks.compare.tasks import TASKS, TaskScores, task_key
from benchmarks.profiles import PROFILE_SENTINEL
from benchmarks.shards.log_files import FoundLog, LogError, display_path, found_logs
from benchmarks.spec import FormerVersions

# Sample fields judge agreement never reads (skipped: long transcripts are most of a log).
SKIPPED_SAMPLE_FIELDS = {"messages", "events", "store", "attachments", "output"}

# A full sample or its summary: both have id, epoch, scores, error, metadata, target, input.
SampleRecord = EvalSample | EvalSampleSummary
SampleT = TypeVar("SampleT", EvalSample, EvalSampleSummary)


class CompareError(LogError):
    """A log cannot be read or compared; the message names the file, the reason and what to
    pass instead."""


@dataclass
class TaskLog:
    """One log of a known task: where it is, its header and its score table."""

    path: str
    header: EvalLog
    task: str

    @property
    def model(self) -> str:
        return self.header.eval.model

    @property
    def scores(self) -> TaskScores:
        return TASKS[self.task]

    @property
    def former(self) -> FormerVersions | None:
        """How this log, of an earlier task version read as the current one, differs."""
        former = self.scores.former_versions
        return former if former and str(self.header.eval.task_version) in former.versions else None

    @property
    def task_version(self) -> str:
        """The task version (a former one read as the current counts as the current)."""
        former = self.former
        return self.scores.version if former else str(self.header.eval.task_version)

    def task_args(self) -> dict[str, Any]:
        """The task arguments as applied (``effective_task_args``), with those added since
        a former version filled in as that version behaved and the values renamed since
        under their new names."""
        args = effective_task_args(self.header.eval)
        if (former := self.former) is not None:
            args = former.current_args(args)
        return args

    def as_current(self, samples: Sequence[SampleT]) -> Sequence[SampleT]:
        """``samples`` with their ids and metadata as the current task version writes them."""
        if (former := self.former) is not None:
            for sample in samples:
                sample.id = former.current(str(sample.id))
                if former.metadata is not None:
                    sample.metadata = former.metadata(sample.metadata or {})
        return samples


def task_log(path: str, header: EvalLog) -> TaskLog:
    """A log whose task is in the score table (else an error naming the task)."""
    task = task_key(header.eval.task)
    if task not in TASKS:
        raise CompareError(
            f"{display_path(path)}: task {header.eval.task!r} is not one this tool knows "
            f"({', '.join(TASKS)}); pass a log of one of them (a benchmark declares its "
            "scorer and breakdown fields in its SPEC, benchmarks/spec.py)."
        )
    return TaskLog(path=path, header=header, task=task)


@dataclass
class LogsAt:
    """The logs an argument names, one per task and model, and notes on those left aside."""

    argument: str
    logs: dict[tuple[str, str], TaskLog]
    notes: list[str]

    def models(self, task: str) -> list[str]:
        return sorted(model for (name, model) in self.logs if name == task)

    def by_task(self) -> dict[str, TaskLog]:
        """One log per task; several models' logs of a task are refused, saying what to pass."""
        found: dict[str, TaskLog] = {}
        for (task, _), log in self.logs.items():
            if task in found:
                raise CompareError(
                    f"{self.argument}: holds logs of task {task} from {len(self.models(task))} "
                    f"models ({', '.join(self.models(task))}); compare them with each other "
                    f"(--baseline {found[task].model}), or pass one model's log file "
                    f"({display_path(found[task].path)})."
                )
            found[task] = log
        return found


def logs_at(argument: str) -> LogsAt:
    """The logs of known tasks ``argument`` names (a file, a folder, an eval-set folder or
    a URL), the newest finished one of each task and model.

    A file is read as it is. In a folder, a log that did not finish (``started``, left by
    a killed or resumed run; ``error``; ``cancelled``) is left aside with a note, and so
    are older logs of the same task and model, logs of other tasks and the shards of a
    run that has a merged log; shards without one are refused (merge them first).
    """
    try:
        found = found_logs(argument)
    except LogError as ex:
        raise CompareError(str(ex)) from None
    if len(found) == 1 and found[0].location == argument:  # a file, read as it is
        [only] = found
        if only.shard is not None:
            raise CompareError(
                f"{only.name}: is shard {only.shard} of a run; merge its shards (python -m "
                "benchmarks.shards merge <their logs or folder>) and pass the merged log."
            )
        log = task_log(only.location, only.header)
        return LogsAt(argument, {(log.task, log.model): log}, [])
    notes: list[str] = []
    known = [log for log in found if task_key(log.task) in TASKS]
    if len(known) < len(found):
        notes.append(f"{argument}: {len(found) - len(known)} log(s) of other tasks left aside.")
    whole = [log for log in known if log.shard is None]
    shards = [log for log in known if log.shard is not None]
    finished = [log for log in whole if log.status == "success"]
    for unfinished in whole:
        if unfinished.status != "success":
            notes.append(
                f"{unfinished.name}: left aside, the run did not finish (status "
                f"{unfinished.status})."
            )
    newest: dict[tuple[str, str], FoundLog] = {}
    for run in finished:  # in the listing's order, which orders the tasks reported
        key = (task_key(run.task), run.model)
        older, newer = sorted([newest.get(key, run), run], key=lambda r: (r.created, r.location))
        if older is not newer:
            notes.append(
                f"{older.name}: left aside for the newer {Path(newer.name).name} "
                f"(same task and model)."
            )
        newest[key] = newer
    # a shard is covered by a merged log that lists it (Inspect's ledger of the merge)
    merged = {
        entry.log for run in whole if run.header.eval.shards
        for entry in run.header.eval.shards.ledger
    }  # fmt: skip
    unmerged = sorted(
        {(task_key(log.task), log.model) for log in shards if basename(log.name) not in merged},
        key=str,
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
            f"{argument}: holds no finished log of {', '.join(TASKS)}; pass a log file to "
            "read an unfinished run."
        )
    logs = {key: task_log(run.location, run.header) for key, run in newest.items()}
    return LogsAt(argument, logs, notes)


def basename(location: str) -> str:
    return location.rstrip("/").rsplit("/", 1)[-1]


def logs_by_task(argument: str) -> dict[str, TaskLog]:
    """The logs an argument names, one per task (several models of a task: refused)."""
    return logs_at(argument).by_task()


def read_sample_summaries(log: TaskLog) -> list[EvalSampleSummary]:
    """The sample summaries of a log (see the module docstring for why summaries)."""
    try:
        summaries = read_eval_log_sample_summaries(log.path)
    except Exception as ex:
        raise CompareError(f"{display_path(log.path)}: cannot read the samples ({ex}).") from None
    if not summaries:
        raise CompareError(f"{display_path(log.path)}: the log holds no samples.")
    return list(log.as_current(summaries))


def read_full_samples(log: TaskLog) -> list[EvalSample]:
    """The samples of a log, complete but for messages, events, store and attachments."""
    try:
        full = read_eval_log(log.path, exclude_fields=SKIPPED_SAMPLE_FIELDS)
    except Exception as ex:
        raise CompareError(f"{display_path(log.path)}: cannot read the samples ({ex}).") from None
    if not full.samples:
        raise CompareError(f"{display_path(log.path)}: the log holds no samples.")
    return list(log.as_current(full.samples))


def effective_task_args(spec: Any) -> dict[str, Any]:
    """A log's task arguments as the task applied them: a switch left to its profile (None,
    or "profile" where None is a value of its own) is the profile's value, which the task
    records in its metadata."""
    args = dict(spec.task_args or {})
    resolved = spec.metadata or {}
    return {
        name: resolved.get(name, value) if value in (None, PROFILE_SENTINEL) else value
        for name, value in args.items()
    }
