"""How a panel of SimpleQA judges agreed, from the ``judges`` that ``simpleqa_scorer``
records in each score's metadata: per-judge statistics, unanimity, Fleiss' kappa
(docs/judges.md, "A panel of judges")."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from inspect_ai.scorer import Metric, SampleScore

from benchmarks.runtime.registry_names import metric_named
from benchmarks.scorers.simpleqa import GRADE_VALUE_KEYS, statistics_from_totals

if TYPE_CHECKING:
    import numpy.typing as npt

PANEL_STATISTICS = ("correct", "incorrect", "not_attempted", "attempted_accuracy", "f_score")


@metric_named("Judge panel", "judge_panel_metrics", __name__)
def judge_panel_metrics(renamed: dict[str, str] | None = None) -> Metric:
    """Per judge of a panel, ``judge_<i>_<statistic>`` over its own grades (judge i is
    the i-th model bound to ``grader``), ``unanimous`` (the share of samples all judges
    graded alike) and ``fleiss_kappa`` over the four grades. Nothing for one judge."""
    names = renamed or {}

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        verdicts = [panel_verdicts(sample_score) for sample_score in scores]
        sizes = {len(grades) for grades in verdicts}
        if not verdicts or sizes == {1}:
            return {}
        if len(sizes) > 1:
            raise ValueError(
                f"SimpleQA panel metrics need the same judges for every sample, got panels "
                f"of {sorted(sizes)} judges"
            )
        (size,) = sizes
        results: dict[str, float] = {}
        for index in range(size):
            totals = dict.fromkeys(GRADE_VALUE_KEYS.values(), 0.0)
            for grades in verdicts:
                totals[GRADE_VALUE_KEYS[grades[index]]] += 1
            statistics = statistics_from_totals(totals, len(verdicts))
            for statistic in (*PANEL_STATISTICS, "judge_failures"):
                name = names.get(statistic, statistic)
                results[f"judge_{index + 1}_{name}"] = statistics[statistic]
        results["unanimous"] = sum(len(set(g)) == 1 for g in verdicts) / len(verdicts)
        results["fleiss_kappa"] = fleiss_kappa(
            [[grades.count(grade) for grade in GRADE_VALUE_KEYS] for grades in verdicts]
        )
        return results

    return compute


def panel_verdicts(sample_score: SampleScore) -> list[str]:
    judges = (sample_score.score.metadata or {}).get("judges")
    if not isinstance(judges, list) or not judges:
        raise ValueError(
            f"SimpleQA panel metrics need the 'judges' of simpleqa_scorer in the score "
            f"metadata, missing for sample {sample_score.sample_id}"
        )
    return [str(judge["grade"]) for judge in judges]


def fleiss_kappa(counts: npt.ArrayLike) -> float:
    """Fleiss' (1971) kappa from a subjects x categories table of rating counts.

    Every subject must have the same number of ratings (at least 2). NaN when
    all ratings fall in one category.
    """
    import numpy as np

    table = np.asarray(counts, dtype=float)
    if table.ndim != 2 or table.shape[0] == 0:
        raise ValueError(f"Fleiss' kappa needs a subjects x categories table, got {table.shape}.")
    raters = table.sum(axis=1)
    if not np.all(raters == raters[0]) or raters[0] < 2:
        raise ValueError("Fleiss' kappa needs the same number (>= 2) of ratings for every subject.")
    m = raters[0]
    per_subject = ((table**2).sum(axis=1) - m) / (m * (m - 1))
    observed = per_subject.mean()
    shares = table.sum(axis=0) / table.sum()
    chance = float((shares**2).sum())
    if chance >= 1.0:
        return math.nan
    return float((observed - chance) / (1 - chance))
