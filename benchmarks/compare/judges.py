"""Judge agreement: the same SimpleQA answers graded twice (or more).

Two sources of gradings:

- one log re-graded in place with ``inspect score LOG --model-role
  grader=<judge> --action append --overwrite``: Inspect names the appended
  score after the scorer, made unique with a counter
  (``inspect_ai.scorer._scorer.unique_scorer_name``), so the samples hold
  ``simpleqa_scorer`` (the original judge) and ``simpleqa_scorer1`` (the new
  one), ``simpleqa_scorer2`` after a third grading, and so on;
- two logs holding the same answers (a log and a re-graded copy written with
  ``--output-file``, or two runs that replayed the same completions): paired
  by sample id and epoch, and refused unless every paired answer is the same.

The unit is one graded answer (sample id, epoch). Reported per pair of
gradings (the first against each other): percent agreement, Cohen's kappa,
the confusion of grades (CORRECT, INCORRECT, NOT_ATTEMPTED, and
JUDGE_FAILURE when it occurs), how each metric moves (the paired comparison of
``benchmarks.compare.analysis``, the first grading as baseline), and the
answers graded differently. With three or more gradings, Fleiss' kappa.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from inspect_ai.log import EvalSample

from benchmarks.compare import analysis
from benchmarks.compare.analysis import Settings
from benchmarks.compare.api import COMPARE_COLUMNS, pair, pandas
from benchmarks.compare.comparability import check_same_questions
from benchmarks.compare.logs import (
    CompareError,
    TaskLog,
    display_path,
    logs_at,
    read_full_samples,
)
from benchmarks.compare.score_tables import score_table, scorer_names
from benchmarks.compare.statistics import cohen_kappa
from benchmarks.compare.tasks import GRADE_OF_VALUE_KEY, GRADED_TASKS
from benchmarks.scorers.judge_agreement import fleiss_kappa

if TYPE_CHECKING:
    import pandas as pd

GRADES = tuple(GRADE_OF_VALUE_KEY.values())
QUESTION_CHARS = 120


@dataclass
class Grading:
    """One set of grades: which log and score, the judge named in the scores, the grades."""

    log: TaskLog
    samples: list[EvalSample]
    scorer: str
    grades: dict[tuple[str, int], str] = field(default_factory=dict)
    replies: dict[tuple[str, int], str] = field(default_factory=dict)
    answers: dict[tuple[str, int], str | None] = field(default_factory=dict)
    sample_of: dict[tuple[str, int], EvalSample] = field(default_factory=dict)
    judge: str = ""

    @property
    def label(self) -> str:
        return f"{self.scorer} ({self.judge})" if self.judge else self.scorer


@dataclass
class JudgeAgreement:
    """Agreement of the first grading with each other; tables are pandas DataFrames."""

    summary: pd.DataFrame
    confusion: dict[str, pd.DataFrame]
    metrics: pd.DataFrame
    disagreements: pd.DataFrame
    fleiss_kappa: float | None
    notes: list[str]


def judge_agreement(
    paths: Sequence[str | Path], *, scorer: str | None = None, settings: Settings | None = None
) -> JudgeAgreement:
    """Agreement between the gradings in one re-graded log, or between logs of the same answers."""
    settings = settings or Settings()
    gradings, notes = collect_gradings([str(path) for path in paths], scorer)
    first = gradings[0]
    frames = pandas()
    summary: list[dict[str, Any]] = []
    confusion: dict[str, pd.DataFrame] = {}
    metric_rows: list[dict[str, Any]] = []
    disagreement_rows: list[dict[str, Any]] = []
    for other in gradings[1:]:
        units = shared_units(first, other)
        grades_a = [first.grades[u] for u in units]
        grades_b = [other.grades[u] for u in units]
        shown = [g for g in GRADES if g in grades_a or g in grades_b or g != "JUDGE_FAILURE"]
        table = np.zeros((len(shown), len(shown)), dtype=int)
        for grade_a, grade_b in zip(grades_a, grades_b, strict=True):
            table[shown.index(grade_a), shown.index(grade_b)] += 1
        agreement = float(np.trace(table) / len(units))
        key = f"{first.label} vs {other.label}"
        confusion[key] = frames.DataFrame(table, index=shown, columns=shown)
        summary.append(
            {
                "first": first.label,
                "second": other.label,
                "answers": len(units),
                "agreement": agreement,
                "kappa": cohen_kappa(table),
                "disagreements": int(len(units) - np.trace(table)),
            }
        )
        metric_rows.extend(metric_moves(first, other, settings, notes))
        disagreement_rows.extend(
            disagreement(first, other, unit)
            for unit in units
            if first.grades[unit] != other.grades[unit]
        )
    fleiss = panel_kappa(gradings) if len(gradings) >= 3 else None
    metrics = frames.DataFrame(metric_rows, columns=COMPARE_COLUMNS)
    for column in ("baseline_only", "candidate_only"):
        metrics[column] = metrics[column].astype("Int64")
    return JudgeAgreement(
        summary=frames.DataFrame(summary),
        confusion=confusion,
        metrics=metrics,
        disagreements=frames.DataFrame(
            disagreement_rows,
            columns=[
                "second",
                "id",
                "epoch",
                "question",
                "target",
                "answer",
                "first_grade",
                "second_grade",
                "first_reply",
                "second_reply",
            ],
        ),
        fleiss_kappa=fleiss,
        notes=notes,
    )


def collect_gradings(arguments: list[str], scorer: str | None) -> tuple[list[Grading], list[str]]:
    """Every grading the arguments hold, in order (a log's scores in their logged order), and
    notes on the logs left aside or unfinished."""
    gradings: list[Grading] = []
    notes: list[str] = []
    for argument in arguments:
        found = logs_at(argument)
        notes.extend(found.notes)
        logs = found.by_task()
        graded = [log for task, log in logs.items() if task in GRADED_TASKS]
        if not graded:
            raise CompareError(
                f"{argument}: judge agreement needs a log of {' or '.join(GRADED_TASKS)} "
                f"(found {', '.join(logs)})."
            )
        if len(graded) > 1:
            raise CompareError(f"{argument}: holds logs of several graded tasks; pass one log.")
        log = graded[0]
        if log.header.status != "success":
            name = Path(display_path(log.path)).name
            notes.append(f"{name}: the run did not finish (status {log.header.status}).")
        samples = read_full_samples(log)
        base = scorer or log.scores.scorer
        # Inspect appends re-gradings as <scorer>1, <scorer>2, ... (unique_scorer_name).
        names = [n for n in scorer_names(samples) if re.fullmatch(re.escape(base) + r"\d*", n)]
        if not names:
            raise CompareError(
                f"{display_path(log.path)}: no score named {base!r} in the samples "
                f"(found: {', '.join(scorer_names(samples)) or 'none'})."
            )
        gradings.extend(read_grading(log, samples, name) for name in names)
    if len(gradings) < 2:
        raise CompareError(
            f"{arguments[0]}: holds one grading only; re-grade it with `inspect score LOG "
            "--model-role grader=<judge> --action append --overwrite`, or pass a second log "
            "of the same answers."
        )
    task = gradings[0].log.task
    for grading in gradings[1:]:
        if grading.log.task != task:
            raise CompareError(
                f"cannot compare the judges of {display_path(gradings[0].log.path)} and "
                f"{display_path(grading.log.path)}: the task differs ({task} vs "
                f"{grading.log.task})."
            )
    return gradings, notes


def read_grading(log: TaskLog, samples: list[EvalSample], scorer: str) -> Grading:
    grading = Grading(log=log, samples=samples, scorer=scorer)
    judges: set[str] = set()
    for sample in samples:
        score = (sample.scores or {}).get(scorer)
        if sample.error is not None or score is None or not isinstance(score.value, dict):
            continue
        unit = (str(sample.id), sample.epoch)
        grade = [
            GRADE_OF_VALUE_KEY[k]
            for k, v in score.value.items()
            if k in GRADE_OF_VALUE_KEY and v == 1
        ]
        if len(grade) != 1:
            raise CompareError(
                f"{display_path(log.path)}, sample {unit[0]} (epoch {unit[1]}): score "
                f"{scorer} has no single grade: {score.value!r:.80}."
            )
        grading.grades[unit] = grade[0]
        grading.sample_of[unit] = sample
        grading.answers[unit] = score.answer
        metadata = score.metadata or {}
        grading.replies[unit] = str(metadata.get("judge_reply", ""))
        if metadata.get("grader"):
            judges.add(str(metadata["grader"]))
    grading.judge = ", ".join(sorted(judges))
    return grading


def shared_units(first: Grading, other: Grading) -> list[tuple[str, int]]:
    """Answers graded by both; two logs must hold the very same answers."""
    units = sorted(unit for unit in first.grades if unit in other.grades)
    if not units:
        raise CompareError(
            f"{first.label} and {other.label} grade no answer in common "
            f"({display_path(first.log.path)}, {display_path(other.log.path)})."
        )
    if first.log.path != other.log.path:
        different = [u for u in units if first.answers[u] != other.answers[u]]
        if different:
            sample_id, epoch = different[0]
            raise CompareError(
                f"cannot compare the judges of {display_path(first.log.path)} and "
                f"{display_path(other.log.path)}: {len(different)} of {len(units)} answers "
                f"differ (first: sample {sample_id}, epoch {epoch}); judge agreement needs "
                "the same answers graded twice."
            )
    return units


def metric_moves(
    first: Grading, other: Grading, settings: Settings, notes: list[str]
) -> list[dict[str, Any]]:
    """The paired comparison of the metrics under the two gradings (first = baseline)."""
    a = score_table(first.log, first.samples, first.scorer)
    b = score_table(other.log, other.samples, other.scorer)
    if first.log.path != other.log.path:
        check_same_questions(first.log, a, other.log, b)
    counts, rows_a, rows_b = pair(a, b)
    one_judge_only = len(a.ids) + len(b.ids) - 2 * counts["paired"]
    if one_judge_only:
        notes.append(
            f"{first.label} vs {other.label}: {one_judge_only} question(s) scored under one "
            "grading only, left out of the metric comparison."
        )
    categories = {k: [v[r] for r in rows_a] for k, v in a.categories.items()}
    rows = analysis.compare(
        first.log.scores, a.values[rows_a], b.values[rows_b], categories, settings
    )
    return [
        {"task": first.log.task, "baseline": first.label, "candidate": other.label, **row}
        for row in rows
    ]


def disagreement(first: Grading, other: Grading, unit: tuple[str, int]) -> dict[str, Any]:
    sample = first.sample_of[unit]
    question = sample.input if isinstance(sample.input, str) else str(sample.input)
    return {
        "second": other.label,
        "id": unit[0],
        "epoch": unit[1],
        "question": question[:QUESTION_CHARS],
        "target": sample.target if isinstance(sample.target, str) else " | ".join(sample.target),
        "answer": first.answers[unit],
        "first_grade": first.grades[unit],
        "second_grade": other.grades[unit],
        "first_reply": first.replies[unit],
        "second_reply": other.replies[unit],
    }


def panel_kappa(gradings: list[Grading]) -> float:
    """Fleiss' kappa over the answers every grading graded."""
    units = [u for u in gradings[0].grades if all(u in g.grades for g in gradings[1:])]
    counts = np.zeros((len(units), len(GRADES)), dtype=int)
    for row, unit in enumerate(units):
        for grading in gradings:
            counts[row, GRADES.index(grading.grades[unit])] += 1
    return fleiss_kappa(counts)
