"""SimpleQA metrics over the judge's grades, shared by SimpleQA and SimpleQA Verified: the
definitions of openai/simple-evals ``simpleqa_eval.py`` (commit ee3b0318d8d1), listed on
docs/simpleqa.md ("Metrics").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from inspect_ai.scorer import Metric, SampleScore, grouped, metric

from benchmarks.runtime.registry_names import metric_named, namespaced
from benchmarks.spec import CompareMetric

JUDGE_FAILURE = "JUDGE_FAILURE"
# Score value keys, one per grade; exactly one is 1.0 in every score.
GRADE_VALUE_KEYS = {
    "CORRECT": "correct",
    "INCORRECT": "incorrect",
    "NOT_ATTEMPTED": "not_attempted",
    JUDGE_FAILURE: "judge_failure",
}
TOPIC_STATISTICS = ("accuracy", "attempted_accuracy", "abstention_rate")
# Breakdown metrics of SimpleQA and SimpleQA Verified read ``<statistic>[<Group>=<value>]``
# (``accuracy[Topic=Art]``): a capital after the bracket, since the terminal (rich markup)
# takes a bracket followed by a lowercase letter (``[topic=Art]``, ``[unknown]``) for a
# style tag and prints ``accuracy`` alone.
GROUP_LABELS = {
    "topic": "Topic",
    "answer_type": "Answer type",
    "multi_step": "Multi-step",
    "requires_reasoning": "Requires reasoning",
}


def grade_values(scores: list[SampleScore]) -> list[dict[str, float]]:
    """Each score's value: 1.0 under its grade's key, 0.0 under the others."""
    values = []
    for sample_score in scores:
        value = sample_score.score.value
        if not isinstance(value, dict):
            raise ValueError(
                f"SimpleQA metrics need the score value dict of simpleqa_scorer, "
                f"got {value!r:.60} for sample {sample_score.sample_id}"
            )
        values.append({key: float(value[key]) for key in GRADE_VALUE_KEYS.values()})  # type: ignore[arg-type]
    return values


def grade_statistics(scores: list[SampleScore]) -> dict[str, float]:
    """Every SimpleQA statistic over ``scores``; N counts judge failures too."""
    values = grade_values(scores)
    totals = {key: sum(value[key] for value in values) for key in GRADE_VALUE_KEYS.values()}
    return statistics_from_totals(totals, len(scores))


def statistics_from_totals(totals: dict[str, float], count: int) -> dict[str, float]:
    """The statistics from the number of samples under each grade key.

    The operations run in simple-evals' order (fractions first, then their
    ratio and harmonic mean), so the floats are bit for bit the reference's.
    """
    correct = totals["correct"] / count if count else 0.0
    incorrect = totals["incorrect"] / count if count else 0.0
    not_attempted = totals["not_attempted"] / count if count else 0.0
    attempted = correct + incorrect
    attempted_accuracy = correct / attempted if attempted > 0 else 0.0
    f_denominator = attempted_accuracy + correct
    return {
        "correct": correct,
        "incorrect": incorrect,
        "not_attempted": not_attempted,
        "accuracy": correct,
        "attempted_accuracy": attempted_accuracy,
        "abstention_rate": not_attempted,
        "hallucination_rate": incorrect,
        "f_score": 2 * attempted_accuracy * correct / f_denominator if f_denominator > 0 else 0.0,
        "judge_failures": totals["judge_failure"],
    }


class Ratio(NamedTuple):
    """A statistic as sum(x) / sum(y) over the questions: x and y of a question are its
    score values (0/1 by grade key) weighted so, y plus 1 for every question if
    ``per_question``."""

    numerator: dict[str, float]
    denominator: dict[str, float]
    per_question: bool


RATIOS = {
    "correct": Ratio({"correct": 1}, {}, per_question=True),
    "accuracy": Ratio({"correct": 1}, {}, per_question=True),
    "incorrect": Ratio({"incorrect": 1}, {}, per_question=True),
    "hallucination_rate": Ratio({"incorrect": 1}, {}, per_question=True),
    "not_attempted": Ratio({"not_attempted": 1}, {}, per_question=True),
    "abstention_rate": Ratio({"not_attempted": 1}, {}, per_question=True),
    # c / (c + i): the accuracy on the attempted questions
    "attempted_accuracy": Ratio({"correct": 1}, {"correct": 1, "incorrect": 1}, False),
    # 2c / (n + c + i): the harmonic mean of c / n and c / (c + i)
    "f_score": Ratio({"correct": 2}, {"correct": 1, "incorrect": 1}, per_question=True),
}


def ratio_stderr(scores: list[SampleScore], statistic: str) -> float:
    """The standard error of ``statistic`` over ``scores``, by the linearization of a ratio
    of sums (Cochran 1977, section 6.4, without the finite-population correction;
    docs/simpleqa.md): for a fraction of all questions, Inspect's ``stderr()`` of the 0/1
    values. 0.0 for fewer than 2 scores or no denominator, as the statistics are 0.0 then."""
    ratio = RATIOS[statistic]
    values = grade_values(scores)

    def weighted(weights: dict[str, float], value: dict[str, float]) -> float:
        return sum(w * value[k] for k, w in weights.items())

    x = [weighted(ratio.numerator, value) for value in values]
    y = [weighted(ratio.denominator, value) + ratio.per_question for value in values]
    n = len(values)
    if n < 2 or sum(y) == 0:
        return 0.0
    r = math.fsum(x) / math.fsum(y)
    # fsum: exactly rounded, so the same value whatever the samples' order (a run and
    # its shards merged list them differently)
    squares = math.fsum((xi - r * yi) ** 2 for xi, yi in zip(x, y, strict=True))
    return math.sqrt(squares / (n * (n - 1))) / (math.fsum(y) / n)


@metric_named("SimpleQA statistics", "simpleqa_metrics", __name__)
def simpleqa_metrics(
    renamed: dict[str, str] | None = None, headline: str = "attempted_accuracy"
) -> Metric:
    """All SimpleQA statistics, each under its own name (or the name ``renamed`` gives it),
    ``headline`` first (the one the viewer's Score column shows), then its standard error."""
    names = dict(renamed or {})
    names[f"{headline}_stderr"] = f"{names.get(headline, headline)}_stderr"

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        statistics = grade_statistics(scores)
        ordered = {
            headline: statistics.pop(headline),
            f"{headline}_stderr": ratio_stderr(scores, headline),
            **statistics,
        }
        return {names.get(k, k): v for k, v in ordered.items()}

    return compute


def breakdown_metrics(
    group_key: str, statistics: Sequence[str], renamed: dict[str, str] | None = None
) -> list[Metric]:
    """Each of ``statistics`` per value of the sample metadata ``group_key``, named
    ``<statistic>[<Group>=<value>]`` (or by the name ``renamed`` gives the statistic)."""
    names, label = renamed or {}, GROUP_LABELS[group_key]
    return [
        BREAKDOWN_METRICS[group_key](
            statistic, group_key, f"{names.get(statistic, statistic)}[{label}={{group_name}}]"
        )
        for statistic in statistics
    ]


class GroupedStatistic:
    """Inspect's ``grouped()`` of one statistic, its groups in name order: ``grouped``
    lists them in the order the samples came, which differs between a run and an
    ``inspect score`` re-grading (so their tables would not line up) and between runs.
    Its ``group_key`` and ``name_template`` say what it groups by (bench/ reads them).
    Registered once a breakdown, so that the viewer heads its values "Topic breakdown" (a
    metric's registered name heads them); logs written before record each as
    "grouped_statistic", which stays registered for their `inspect score`."""

    def __init__(self, statistic: str, group_key: str, name_template: str) -> None:
        self.group_key = group_key
        self.name_template = name_template
        self.by_group = grouped(
            lambda scores: grade_statistics(scores)[statistic],
            group_key,
            all=False,
            name_template=name_template,
        )

    def __call__(self, scores: list[SampleScore]) -> dict[str, float]:
        values = self.by_group(scores)  # type: ignore[arg-type]  # grouped() takes SampleScores
        assert isinstance(values, dict)
        return {name: float(values[name]) for name in sorted(values)}  # type: ignore[arg-type]


BREAKDOWN_METRICS = {
    group_key: metric(name=namespaced(f"{label} breakdown", __name__))(GroupedStatistic)
    for group_key, label in GROUP_LABELS.items()
}
metric(name=namespaced("grouped_statistic", __name__))(GroupedStatistic)


def simpleqa_task_metrics(topic_breakdown: bool = True) -> list[Metric | dict[str, list[Metric]]]:
    """The overall statistics, plus ``<statistic>[Topic=<topic>]`` per topic when asked."""
    metrics: list[Metric | dict[str, list[Metric]]] = [simpleqa_metrics()]
    if topic_breakdown:
        metrics += breakdown_metrics("topic", TOPIC_STATISTICS)
    return metrics


# benchmarks.compare recomputes these from per-question sums of the value keys, in the
# order of GRADE_VALUE_KEYS (correct, incorrect, not_attempted, judge_failure).


def _safe_divide(numerator: Any, denominator: Any) -> Any:
    # The tasks' own metrics report 0 for an empty denominator; so does this.
    import numpy as np  # imported when compare needs it, not with the task

    result = np.zeros(np.broadcast(numerator, denominator).shape)
    np.divide(numerator, denominator, out=result, where=denominator != 0)
    return result


def attempted_accuracy_of_sums(sums: Any, n: int) -> Any:
    """correct / (correct + incorrect): accuracy on the attempted questions."""
    correct, incorrect = sums[..., 0], sums[..., 1]
    return _safe_divide(correct, correct + incorrect)


def f_score_of_sums(sums: Any, n: int) -> Any:
    """Harmonic mean of the share correct and the attempted accuracy (simple-evals' F)."""
    accuracy = sums[..., 0] / n
    attempted_accuracy = attempted_accuracy_of_sums(sums, n)
    return _safe_divide(2 * accuracy * attempted_accuracy, accuracy + attempted_accuracy)


SIMPLEQA_COMPARE_METRICS = (
    CompareMetric("correct", mean_of="correct"),
    CompareMetric("incorrect", mean_of="incorrect"),
    CompareMetric("not_attempted", mean_of="not_attempted"),
    CompareMetric("attempted_accuracy", ratio=attempted_accuracy_of_sums),
    CompareMetric("f_score", ratio=f_score_of_sums),
)
