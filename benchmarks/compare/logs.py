"""Reading Inspect logs of this package's tasks.

Logs are read with ``inspect_ai.log``: ``read_eval_log(header_only=True)``
for the run, then ``read_eval_log_sample_summaries`` for the samples. The
summaries hold what the statistics need (id, epoch, score values, error,
metadata, target) and are the fastest of Inspect's readers: for an
8,000-sample log of bench/compare_speed.py, 1.1 s against 2.8 s for
``inspect_ai.analysis.samples_df`` and 10 s for ``read_eval_log``. Inspect thins them (text
fields cut near 1 KB, larger metadata values dropped), which leaves score
values and short breakdown fields intact. Judge agreement reads full samples
(without messages and events), since it shows answers and judge replies.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from inspect_ai.log import (
    EvalLog,
    EvalSample,
    EvalSampleSummary,
    list_eval_logs,
    read_eval_log,
    read_eval_log_sample_summaries,
)

from benchmarks.compare.tasks import TASKS, TaskScores, task_key
from benchmarks.profiles import PROFILE_SENTINEL
from benchmarks.spec import FormerVersions

# Sample fields judge agreement never reads (skipped: long transcripts are most of a log).
SKIPPED_SAMPLE_FIELDS = {"messages", "events", "store", "attachments", "output"}

# A full sample or its summary: both have id, epoch, scores, error, metadata, target, input.
SampleRecord = EvalSample | EvalSampleSummary
SampleT = TypeVar("SampleT", EvalSample, EvalSampleSummary)


class CompareError(ValueError):
    """A log cannot be read or compared; the message names the file and the reason."""


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
        return former.now if former else str(self.header.eval.task_version)

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


def expand(argument: str) -> list[str]:
    """The log files an argument names: the file itself, or every log in a folder."""
    if "://" not in argument and not os.path.exists(argument):
        raise CompareError(f"{argument}: no such file or directory.")
    if os.path.isdir(argument):
        files = [info.name for info in list_eval_logs(argument, descending=False)]
        if not files:
            raise CompareError(f"{argument}: the folder holds no Inspect log (.eval or .json).")
        return files
    return [argument]


def read_header(path: str) -> EvalLog:
    try:
        return read_eval_log(path, header_only=True)
    except Exception as ex:  # Inspect raises many kinds for a file that is not a log.
        raise CompareError(f"{display_path(path)}: not a readable Inspect log ({ex}).") from None


def task_log(path: str, header: EvalLog | None = None) -> TaskLog:
    """A log whose task is in the score table (else an error naming the task)."""
    header = header or read_header(path)
    task = task_key(header.eval.task)
    if task not in TASKS:
        raise CompareError(
            f"{display_path(path)}: task {header.eval.task!r} is not one this tool knows "
            f"({', '.join(TASKS)}); a benchmark declares its scorer and breakdown fields in "
            "its SPEC (benchmarks/spec.py)."
        )
    return TaskLog(path=path, header=header, task=task)


def logs_by_task(argument: str) -> dict[str, TaskLog]:
    """The logs an argument names, one per task; two logs of one task are ambiguous."""
    files = expand(argument)
    found: dict[str, TaskLog] = {}
    for path in files:
        header = read_header(path)
        if len(files) > 1 and task_key(header.eval.task) not in TASKS:
            continue  # a folder may hold logs of other tasks
        log = task_log(path, header)
        if log.task in found:
            raise CompareError(
                f"{argument}: holds more than one log of task {log.task} "
                f"({display_path(found[log.task].path)}, {display_path(path)}); "
                "pass the log file you mean."
            )
        found[log.task] = log
    if not found:
        raise CompareError(f"{argument}: holds no log of {', '.join(TASKS)}.")
    return found


def display_path(path: str) -> str:
    """A log location as a person would type it (Inspect lists local files as file:// URIs)."""
    return path.removeprefix("file://")


def read_samples(log: TaskLog) -> list[EvalSampleSummary]:
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
