"""Judge agreement: the same SimpleQA answers graded twice (or more), in one log re-graded by
``inspect score --action append`` or in two logs of the same answers (docs/compare.md,
"Judge agreement"). The unit is one graded answer (sample id, epoch)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from inspect_ai.scorer import Score

from benchmarks.catalog import specs
from benchmarks.compare import analysis
from benchmarks.compare.analysis import Settings
from benchmarks.compare.api import pair, paired_frame, pandas
from benchmarks.compare.comparability import check_same_questions
from benchmarks.compare.logs import CompareError, SampleRecord, TaskLog, logs_at, read_samples
from benchmarks.compare.score_tables import no_score, score_table, scorer_names
from benchmarks.compare.statistics import cohen_kappa
from benchmarks.scorers.judge_agreement import fleiss_kappa
from benchmarks.scorers.simpleqa import GRADE_VALUE_KEYS

if TYPE_CHECKING:
    import pandas as pd

# simpleqa_scorer's value key holding 1.0 -> the grade.
GRADE_OF_VALUE_KEY = {key: grade for grade, key in GRADE_VALUE_KEYS.items()}
GRADES = tuple(GRADE_VALUE_KEYS)
QUESTION_CHARS = 120
# An answer graded: (sample id, epoch).
Unit = tuple[str, int]


class Graded(NamedTuple):
    sample: SampleRecord
    score: Score
    grade: str


@dataclass
class Grading:
    """One set of grades: which log and score, each graded answer, and the score's name with
    the judge its scores name."""

    log: TaskLog
    samples: Sequence[SampleRecord]
    scorer: str
    graded: dict[Unit, Graded]
    label: str


class Disagreement(NamedTuple):
    """An answer the first grading and another grade differently."""

    second: str
    id: str
    epoch: int
    question: str
    target: str
    answer: str | None
    first_grade: str
    second_grade: str
    first_reply: str
    second_reply: str


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
    disagreement_rows: list[Disagreement] = []
    for other in gradings[1:]:
        units = shared_units(first, other)
        grades_a = [first.graded[u].grade for u in units]
        grades_b = [other.graded[u].grade for u in units]
        shown = [g for g in GRADES if g in grades_a or g in grades_b or g != "JUDGE_FAILURE"]
        table = np.zeros((len(shown), len(shown)), dtype=int)
        for grade_a, grade_b in zip(grades_a, grades_b, strict=True):
            table[shown.index(grade_a), shown.index(grade_b)] += 1
        confusion[f"{first.label} vs {other.label}"] = frames.DataFrame(
            table, index=shown, columns=shown
        )
        summary.append(
            {
                "first": first.label,
                "second": other.label,
                "answers": len(units),
                "agreement": float(np.trace(table) / len(units)),
                "kappa": cohen_kappa(table),
                "disagreements": int(len(units) - np.trace(table)),
            }
        )
        metric_rows.extend(metric_moves(first, other, settings, notes))
        disagreement_rows.extend(
            disagreement(first, other, unit)
            for unit in units
            if first.graded[unit].grade != other.graded[unit].grade
        )
    return JudgeAgreement(
        summary=frames.DataFrame(summary),
        confusion=confusion,
        metrics=paired_frame(metric_rows),
        disagreements=frames.DataFrame(disagreement_rows, columns=Disagreement._fields),
        fleiss_kappa=panel_kappa(gradings) if len(gradings) >= 3 else None,
        notes=notes,
    )


def collect_gradings(arguments: list[str], scorer: str | None) -> tuple[list[Grading], list[str]]:
    """Every grading the arguments hold, in order (a log's scores in their logged order), and
    notes on the logs left aside or unfinished."""
    gradings: list[Grading] = []
    notes: list[str] = []
    graded_tasks = [name for name, spec in specs().items() if spec.judged]
    for argument in arguments:
        found = logs_at(argument)
        notes.extend(found.notes)
        logs = found.by_task()
        graded = [log for task, log in logs.items() if task in graded_tasks]
        if not graded:
            raise CompareError(
                f"{argument}: judge agreement needs a log of {' or '.join(graded_tasks)} "
                f"(found {', '.join(logs)})."
            )
        if len(graded) > 1:
            raise CompareError(f"{argument}: holds logs of several graded tasks; pass one log.")
        log = graded[0]
        if log.header.status != "success":
            notes.append(f"{log.file_name}: the run did not finish (status {log.header.status}).")
        samples = read_samples(log, full=True)
        base = scorer or log.spec.scorer
        # Inspect appends re-gradings as <scorer>1, <scorer>2, ... (unique_scorer_name).
        names = [n for n in scorer_names(samples) if re.fullmatch(re.escape(base) + r"\d*", n)]
        if not names:
            raise no_score(log, base, scorer_names(samples))
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
                f"cannot compare the judges of {gradings[0].log.name} and {grading.log.name}: "
                f"the task differs ({task} vs {grading.log.task})."
            )
    return gradings, notes


def read_grading(log: TaskLog, samples: Sequence[SampleRecord], scorer: str) -> Grading:
    graded: dict[Unit, Graded] = {}
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
                f"{log.name}, sample {unit[0]} (epoch {unit[1]}): score "
                f"{scorer} has no single grade: {score.value!r:.80}."
            )
        graded[unit] = Graded(sample, score, grade[0])
    judges = {str((g.score.metadata or {}).get("grader") or "") for g in graded.values()}
    judge = ", ".join(sorted(judges - {""}))
    return Grading(log, samples, scorer, graded, f"{scorer} ({judge})" if judge else scorer)


def shared_units(first: Grading, other: Grading) -> list[Unit]:
    """Answers graded by both; two logs must hold the very same answers."""
    units = sorted(unit for unit in first.graded if unit in other.graded)
    if not units:
        raise CompareError(
            f"{first.label} and {other.label} grade no answer in common "
            f"({first.log.name}, {other.log.name})."
        )
    if first.log.location != other.log.location:
        different = [
            u for u in units if first.graded[u].score.answer != other.graded[u].score.answer
        ]
        if different:
            sample_id, epoch = different[0]
            raise CompareError(
                f"cannot compare the judges of {first.log.name} and {other.log.name}: "
                f"{len(different)} of {len(units)} answers differ (first: sample {sample_id}, "
                f"epoch {epoch}); judge agreement needs the same answers graded twice."
            )
    return units


def metric_moves(
    first: Grading, other: Grading, settings: Settings, notes: list[str]
) -> list[dict[str, Any]]:
    """The paired comparison of the metrics under the two gradings (first = baseline)."""
    a = score_table(first.log, first.samples, first.scorer)
    b = score_table(other.log, other.samples, other.scorer)
    check_same_questions(first.log, a, other.log, b)  # one log's two gradings pass
    counts, paired = pair(a, b)
    one_judge_only = len(a.ids) + len(b.ids) - 2 * counts["paired"]
    if one_judge_only:
        notes.append(
            f"{first.label} vs {other.label}: {one_judge_only} question(s) scored under one "
            "grading only, left out of the metric comparison."
        )
    who = {"task": first.log.task, "baseline": first.label, "candidate": other.label}
    return [{**who, **row} for row in analysis.compare(first.log.spec, *paired, settings)]


def disagreement(first: Grading, other: Grading, unit: Unit) -> Disagreement:
    a, b = first.graded[unit], other.graded[unit]
    question, target = a.sample.input, a.sample.target
    return Disagreement(
        second=other.label,
        id=unit[0],
        epoch=unit[1],
        question=(question if isinstance(question, str) else str(question))[:QUESTION_CHARS],
        target=target if isinstance(target, str) else " | ".join(target),
        answer=a.score.answer,
        first_grade=a.grade,
        second_grade=b.grade,
        first_reply=str((a.score.metadata or {}).get("judge_reply", "")),
        second_reply=str((b.score.metadata or {}).get("judge_reply", "")),
    )


def panel_kappa(gradings: list[Grading]) -> float:
    """Fleiss' kappa over the answers every grading graded."""
    units = [u for u in gradings[0].graded if all(u in g.graded for g in gradings[1:])]
    grades = [[grading.graded[unit].grade for grading in gradings] for unit in units]
    return fleiss_kappa([[row.count(grade) for grade in GRADES] for row in grades])
