"""What each benchmark's logs hold: its scorer, score value keys, metrics and breakdown fields.

This table is the only benchmark-specific knowledge of ``benchmarks.compare``;
a new task needs one entry. Every metric is a function of per-question sums
of the score value keys (``components``), which is what lets one vectorized
bootstrap serve all of them. A metric that is the mean of one component is a
proportion when that component is 0 or 1 on every question (after averaging
epochs), and then gets the exact binary methods instead of the bootstrap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchmarks.statistics import FloatArray

# The value of a "C"/"I" score (option_letter_scorer) is read as this component.
CORRECT = "correct"


@dataclass(frozen=True)
class Metric:
    """One metric: its name and how it follows from the component sums.

    ``mean_of``: the metric is the mean of this component; a proportion (Wilson,
    Newcombe, McNemar) when ``proportion`` and every value is 0 or 1 (several
    epochs can make it fractional), else bootstrapped like a ratio. Otherwise
    ``ratio`` computes it from the sums (columns in ``TaskScores.components``
    order) and the question count.
    """

    name: str
    mean_of: str | None = None
    ratio: Callable[[FloatArray, int], FloatArray] | None = None
    proportion: bool = True


@dataclass(frozen=True)
class TaskScores:
    """The scorer of a task, its value keys, its metrics and its breakdown fields.

    ``components``: the score value dict keys read per question; ``()`` for a
    single-valued score (``"C"``/``"I"`` and the like), read with Inspect's
    ``value_to_float`` as the component ``correct``. ``category_metrics``:
    the metrics also reported per category of each field in ``breakdowns``
    (sample metadata keys).
    """

    scorer: str
    components: tuple[str, ...]
    metrics: tuple[Metric, ...]
    category_metrics: tuple[str, ...]
    breakdowns: tuple[str, ...]

    @property
    def columns(self) -> tuple[str, ...]:
        return self.components or (CORRECT,)


def _safe_divide(numerator: FloatArray, denominator: FloatArray) -> FloatArray:
    # The tasks' own metrics report 0 for an empty denominator; so does this.
    result = np.zeros(np.broadcast(numerator, denominator).shape)
    np.divide(numerator, denominator, out=result, where=denominator != 0)
    return result


def simpleqa_attempted_accuracy(sums: FloatArray, n: int) -> FloatArray:
    """correct / (correct + incorrect): accuracy on the attempted questions."""
    correct, incorrect = sums[..., 0], sums[..., 1]
    return _safe_divide(correct, correct + incorrect)


def simpleqa_f_score(sums: FloatArray, n: int) -> FloatArray:
    """Harmonic mean of the share correct and the attempted accuracy (simple-evals' F)."""
    accuracy = sums[..., 0] / n
    attempted_accuracy = simpleqa_attempted_accuracy(sums, n)
    return _safe_divide(2 * accuracy * attempted_accuracy, accuracy + attempted_accuracy)


# Value keys of simpleqa_scorer, in the column order the ratios above read.
SIMPLEQA_COMPONENTS = ("correct", "incorrect", "not_attempted", "judge_failure")
SIMPLEQA_METRICS = (
    Metric("correct", mean_of="correct"),
    Metric("incorrect", mean_of="incorrect"),
    Metric("not_attempted", mean_of="not_attempted"),
    Metric("attempted_accuracy", ratio=simpleqa_attempted_accuracy),
    Metric("f_score", ratio=simpleqa_f_score),
)
SIMPLEQA_CATEGORY_METRICS = ("correct", "attempted_accuracy")
MCQ_METRICS = (Metric("accuracy", mean_of=CORRECT),)

TASKS: dict[str, TaskScores] = {
    "triviaqa": TaskScores(
        scorer="triviaqa_scorer",
        components=("exact_match", "f1"),
        metrics=(
            Metric("exact_match", mean_of="exact_match"),
            Metric("f1", mean_of="f1", proportion=False),
        ),
        category_metrics=("exact_match", "f1"),
        breakdowns=("answer_type",),
    ),
    "simpleqa": TaskScores(
        scorer="simpleqa_scorer",
        components=SIMPLEQA_COMPONENTS,
        metrics=SIMPLEQA_METRICS,
        category_metrics=SIMPLEQA_CATEGORY_METRICS,
        breakdowns=("topic", "answer_type"),
    ),
    "simpleqa_verified": TaskScores(
        scorer="simpleqa_verified_scorer",
        components=SIMPLEQA_COMPONENTS,
        metrics=SIMPLEQA_METRICS,
        category_metrics=SIMPLEQA_CATEGORY_METRICS,
        breakdowns=("topic", "answer_type", "multi_step", "requires_reasoning"),
    ),
    "winogrande": TaskScores(
        scorer="option_letter_scorer",
        components=(),
        metrics=MCQ_METRICS,
        category_metrics=(),
        breakdowns=(),
    ),
    "scienceqa": TaskScores(
        scorer="option_letter_scorer",
        components=(),
        metrics=MCQ_METRICS,
        category_metrics=("accuracy",),
        breakdowns=("subject", "context_type", "grade_band"),
    ),
}

# Tasks whose scores are SimpleQA judge grades (judge agreement applies).
GRADED_TASKS = ("simpleqa", "simpleqa_verified")
# simpleqa_scorer's value key holding 1.0 -> the grade (benchmarks.simpleqa_metrics.GRADE_VALUE_KEYS
# inverted; repeated here so reading logs does not import the task and its data loaders).
GRADE_OF_VALUE_KEY = {
    "correct": "CORRECT",
    "incorrect": "INCORRECT",
    "not_attempted": "NOT_ATTEMPTED",
    "judge_failure": "JUDGE_FAILURE",
}


def task_key(task_name: str) -> str:
    """``benchmarks/triviaqa`` and ``triviaqa`` are the same task (how it was launched differs)."""
    return task_name.rsplit("/", 1)[-1]
