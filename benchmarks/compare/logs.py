"""Reading Inspect logs into per-question score tables, and deciding whether two logs compare.

Logs are read with ``inspect_ai.log``: ``read_eval_log(header_only=True)``
for the run, then ``read_eval_log_sample_summaries`` for the samples. The
summaries hold what the statistics need (id, epoch, score values, error,
metadata, target) and are the fastest of Inspect's readers: for an
8,000-sample log of bench/compare_speed.py, 1.1 s against 2.8 s for
``inspect_ai.analysis.samples_df`` and 10 s for ``read_eval_log``. Inspect thins them (text
fields cut near 1 KB, larger metadata values dropped), which leaves score
values and short breakdown fields intact. Judge agreement reads full samples
(without messages and events), since it shows answers and judge replies.

Comparability rule: two logs compare when they ran the same task (with or
without the ``benchmarks/`` prefix) at the same task version, on the same
dataset, with the same prompt, data and scoring parameters:

- ``dataset.name`` (it encodes the Hub config and split) must be equal, and so
  must the ``dataset_sha256`` a task records in its metadata (SimpleQA);
- every task argument must be equal except those in ``UNCHECKED_TASK_ARGS``:
  ``num_examples`` (it only bounds the sample ids, which are paired and
  reported), ``dataset_path`` / ``data_files`` (the same data can be spelled as
  a Hub id, a snapshot folder or a local file: the dataset's identity is
  checked through its name, its hash and its targets instead) and
  ``topic_breakdown`` (which metrics the log lists, not how questions are
  scored). An argument that only one log records counts as a difference;
- the two logs must share at least one sample id, and every shared id must
  have the same target.

Model-side settings (temperature, max_tokens, system message, epochs, the
model itself) are what a comparison compares, and are not checked.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from inspect_ai.log import (
    EvalLog,
    EvalSample,
    EvalSampleSummary,
    list_eval_logs,
    read_eval_log,
    read_eval_log_sample_summaries,
)
from inspect_ai.scorer import Score, value_to_float

from benchmarks.compare.tasks import GRADED_TASKS, TASKS, TaskScores, task_key
from benchmarks.profiles import PROFILE_SENTINEL
from benchmarks.scorers.statistics import FloatArray
from benchmarks.spec import FormerVersions

# Arguments that change neither the questions asked nor how they are scored.
UNCHECKED_TASK_ARGS = frozenset(
    {"num_examples", "dataset_path", "data_files", "topic_breakdown", "breakdowns", "judge_cache"}
)
GRADER_ROLE = "grader"
# Sample fields judge agreement never reads (skipped: long transcripts are most of a log).
SKIPPED_SAMPLE_FIELDS = {"messages", "events", "store", "attachments", "output"}
MISSING_CATEGORY = "(none)"
NOT_RECORDED = "<not recorded>"

# A full sample or its summary: both have id, epoch, scores, error, metadata, target, input.
SampleRecord = EvalSample | EvalSampleSummary
SampleT = TypeVar("SampleT", EvalSample, EvalSampleSummary)

_to_float = value_to_float()


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
        a former version filled in as that version behaved."""
        args = effective_task_args(self.header.eval)
        if (former := self.former) is not None:
            args = {**former.added_args, **args}
        return args

    def current_ids(self, samples: Sequence[SampleT]) -> Sequence[SampleT]:
        """``samples`` with their ids as the current task version writes them."""
        if (former := self.former) is not None:
            for sample in samples:
                sample.id = former.current(str(sample.id))
        return samples


@dataclass
class ScoreTable:
    """Per-question scores of one log under one scorer (epochs averaged).

    ``values`` is (questions, components); ``ids`` gives its rows. Questions
    with an error, or without this score in some epoch, are in ``unscored``
    and not in ``values``.
    """

    ids: list[str]
    values: FloatArray
    categories: dict[str, list[str]]
    targets: dict[str, str]
    unscored: list[str]
    epochs: int
    judge_failures: int = 0
    row_of: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.row_of = {sample_id: row for row, sample_id in enumerate(self.ids)}


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
    return list(log.current_ids(summaries))


def read_full_samples(log: TaskLog) -> list[EvalSample]:
    """The samples of a log, complete but for messages, events, store and attachments."""
    try:
        full = read_eval_log(log.path, exclude_fields=SKIPPED_SAMPLE_FIELDS)
    except Exception as ex:
        raise CompareError(f"{display_path(log.path)}: cannot read the samples ({ex}).") from None
    if not full.samples:
        raise CompareError(f"{display_path(log.path)}: the log holds no samples.")
    return list(log.current_ids(full.samples))


def score_components(
    score: Score, spec: TaskScores, log: TaskLog, sample: SampleRecord
) -> list[float]:
    """The components of one score value, as floats."""
    value = score.value
    if not spec.components:
        return [_to_float(value)]
    if not isinstance(value, dict) or any(key not in value for key in spec.components):
        raise CompareError(
            f"{display_path(log.path)}, sample {sample.id} (epoch {sample.epoch}): score value "
            f"{value!r:.80} lacks the keys {', '.join(spec.components)} of {spec.scorer}."
        )
    return [float(value[key]) for key in spec.components]  # type: ignore[arg-type]


def score_table(log: TaskLog, samples: Sequence[SampleRecord], scorer: str) -> ScoreTable:
    """Per-question scores under ``scorer``, the mean over epochs."""
    spec = log.scores
    position: dict[str, int] = {}  # sample id -> position, in order of first appearance
    scored_positions: list[int] = []
    scored_values: list[list[float]] = []
    epochs_of: dict[str, int] = defaultdict(int)
    failed: set[str] = set()
    metadata: dict[str, dict[str, Any]] = {}
    targets: dict[str, str] = {}
    judge_failures = 0
    for sample in samples:
        sample_id = str(sample.id)
        epochs_of[sample_id] += 1
        if sample_id not in position:
            position[sample_id] = len(position)
            metadata[sample_id] = sample.metadata or {}
            targets[sample_id] = _target_text(sample.target)
        score = (sample.scores or {}).get(scorer)
        if sample.error is not None or score is None:
            failed.add(sample_id)
            continue
        scored_positions.append(position[sample_id])
        scored_values.append(score_components(score, spec, log, sample))
        if isinstance(score.value, dict) and score.value.get("judge_failure"):
            judge_failures += 1
    # Mean over epochs: sums and counts per position, in one pass each.
    sums = np.zeros((len(position), len(spec.columns)))
    np.add.at(sums, scored_positions, np.array(scored_values).reshape(-1, len(spec.columns)))
    counts = np.bincount(scored_positions, minlength=len(position))
    # Sorted: the bootstrap's draws map to questions by row, so a log's sample order
    # (completion order in .eval files) must not change the numbers.
    ids = sorted(sample_id for sample_id in position if sample_id not in failed)
    rows = [position[sample_id] for sample_id in ids]
    means = sums[rows] / counts[rows, None]
    categories = {name: [_category(metadata[i].get(name)) for i in ids] for name in spec.breakdowns}
    return ScoreTable(
        ids=ids,
        values=means,
        categories=categories,
        targets=targets,
        unscored=sorted(failed),
        epochs=max(epochs_of.values(), default=0),
        judge_failures=judge_failures,
    )


def scorer_names(samples: Sequence[SampleRecord]) -> list[str]:
    """Score names present in the log's samples, in first-seen order."""
    names: dict[str, None] = {}
    for sample in samples:
        names.update(dict.fromkeys(sample.scores or {}))
    return list(names)


def require_scorer(log: TaskLog, samples: Sequence[SampleRecord], scorer: str | None) -> str:
    """The scorer to read: the task's own, or one named by the user (it must exist)."""
    present = scorer_names(samples)
    own = [log.scores.scorer, *log.scores.other_scorers]
    wanted = scorer or next((name for name in own if name in present), own[0])
    if wanted not in present:
        raise CompareError(
            f"{display_path(log.path)}: no score named {wanted!r} in the samples "
            f"(found: {', '.join(present) or 'none'})."
        )
    return wanted


def _target_text(target: str | list[str]) -> str:
    return target if isinstance(target, str) else "\n".join(target)


def _category(value: object) -> str:
    return MISSING_CATEGORY if value is None else str(value)


def check_comparable(baseline: TaskLog, candidate: TaskLog, *, same_judges: bool = True) -> None:
    """Raise ``CompareError`` naming the first difference that makes the logs incomparable.

    ``same_judges``: a judged task's logs must name the same models in the grader role
    (not checked for a re-grading's scorer, which the header does not describe).
    """
    a, b = baseline.header.eval, candidate.header.eval
    names = (display_path(baseline.path), display_path(candidate.path))

    def differs(what: str, value_a: object, value_b: object) -> CompareError:
        return CompareError(
            f"cannot compare {names[0]} with {names[1]}: {what} differs "
            f"({value_a!r} in {Path(names[0]).name}, {value_b!r} in {Path(names[1]).name})."
        )

    if baseline.task != candidate.task:
        raise differs("the task", a.task, b.task)
    if baseline.task_version != candidate.task_version:
        raise differs("the task version", a.task_version, b.task_version)
    if a.dataset.name != b.dataset.name:
        raise differs("the dataset (name, config and split)", a.dataset.name, b.dataset.name)
    hash_a = (a.metadata or {}).get("dataset_sha256")
    hash_b = (b.metadata or {}).get("dataset_sha256")
    if hash_a is not None and hash_b is not None and hash_a != hash_b:
        raise differs("the dataset file (sha256)", hash_a, hash_b)
    if (
        same_judges
        and baseline.task in GRADED_TASKS
        and judges(a.model_roles) != judges(b.model_roles)
    ):
        raise CompareError(
            f"cannot compare {names[0]} with {names[1]}: they were graded by different judges "
            f"({', '.join(judges(a.model_roles))} in {Path(names[0]).name}, "
            f"{', '.join(judges(b.model_roles))} in {Path(names[1]).name}); a difference would "
            "mix the models' with the judges'. Re-grade one with the other's judge (inspect "
            "score LOG --model-role grader=... --action append, then --scorer <name>1), or "
            "measure the judges with --judges."
        )
    args_a, args_b = baseline.task_args(), candidate.task_args()
    for name in sorted((set(args_a) | set(args_b)) - UNCHECKED_TASK_ARGS):
        if args_a.get(name, NOT_RECORDED) != args_b.get(name, NOT_RECORDED):
            value_a, value_b = args_a.get(name, NOT_RECORDED), args_b.get(name, NOT_RECORDED)
            raise differs(f"task argument {name!r}", value_a, value_b)


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


def judges(model_roles: dict[str, Any] | None) -> list[str]:
    """The models bound to the grader role, as the log records them (the model under
    test when none: the task then warns that it grades itself)."""
    bound = (model_roles or {}).get(GRADER_ROLE)
    if bound is None:
        return ["(the model under test)"]
    configs = bound if isinstance(bound, list) else [bound]
    return [str(getattr(config, "model", config)) for config in configs]


def check_same_questions(
    baseline: TaskLog, a: ScoreTable, candidate: TaskLog, b: ScoreTable
) -> None:
    """The logs share sample ids, and each shared id has one target."""
    names = (display_path(baseline.path), display_path(candidate.path))
    shared = a.targets.keys() & b.targets.keys()
    if not shared:
        raise CompareError(
            f"cannot compare {names[0]} with {names[1]}: the logs share no sample id "
            "(not the same dataset)."
        )
    different = sorted(i for i in shared if a.targets[i] != b.targets[i])
    if different:
        first = different[0]
        raise CompareError(
            f"cannot compare {names[0]} with {names[1]}: {len(different)} shared sample id(s) "
            f"have different targets (first: {first}: {a.targets[first]!r:.60} vs "
            f"{b.targets[first]!r:.60}); not the same dataset."
        )
