"""The numbers of a comparison: per metric and category, estimates with intervals and p-values.

The methods, the groups and the too-small rule: docs/compare.md, "The statistics". Every
metric is a function of per-question sums of the score value keys (the spec's ``columns``),
which is what lets one vectorized bootstrap serve all of them.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks.compare.score_tables import Categories
from benchmarks.compare.statistics import (
    Interval,
    SumsStatistic,
    bootstrap_p_value,
    bootstrap_statistics,
    holm_adjust,
    mcnemar_exact,
    newcombe_paired_interval,
    percentile_interval,
    wilson_interval,
)
from benchmarks.spec import BenchmarkSpec, CompareMetric, FloatArray

DEFAULT_RESAMPLES = 10_000
DEFAULT_SEED = 20240607
MIN_GROUP_QUESTIONS = 30
MIN_DISCORDANT_PAIRS = 10
# One question resampled is always itself: no spread to estimate.
MIN_BOOTSTRAP_QUESTIONS = 2
BOOTSTRAP_THREADS = 2
OVERALL = "overall"
ALL = "all"

WILSON = "wilson"
NEWCOMBE_MCNEMAR = "newcombe+mcnemar_exact"
BOOTSTRAP = "bootstrap"


@dataclass(frozen=True)
class Settings:
    """Bootstrap resamples and seed (fixed by default, so runs repeat)."""

    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED

    def rng(self, breakdown: str, category: str) -> np.random.Generator:
        # One stream per group: a group's numbers do not depend on which other groups exist.
        return np.random.default_rng([self.seed, zlib.crc32(f"{breakdown}\0{category}".encode())])


@dataclass(frozen=True)
class Group:
    breakdown: str
    category: str
    rows: np.ndarray  # row positions in the (paired) value arrays
    metrics: tuple[CompareMetric, ...]


def groups(spec: BenchmarkSpec, categories: Categories, count: int) -> Iterator[Group]:
    """The whole sample, then each category of each breakdown field (sorted by name); a
    question in several categories of a field is in each of their groups."""
    yield Group(OVERALL, ALL, np.arange(count), spec.compare_metrics)
    per_category = tuple(m for m in spec.compare_metrics if m.name in spec.category_metrics)
    for breakdown in spec.breakdowns:
        labels = categories[breakdown]
        for category in sorted({c for question in labels for c in question}):
            rows = [row for row, question in enumerate(labels) if category in question]
            yield Group(breakdown, category, np.array(rows, dtype=int), per_category)


def metric_value(
    spec: BenchmarkSpec, metric: CompareMetric, sums: FloatArray, n: int
) -> FloatArray:
    """A metric from column sums (shape (..., components)) over n questions."""
    if metric.mean_of is not None:
        return sums[..., spec.columns.index(metric.mean_of)] / n
    assert metric.ratio is not None
    return metric.ratio(sums, n)


def statistic(spec: BenchmarkSpec, metrics: Sequence[CompareMetric], paired: bool) -> SumsStatistic:
    """Resample sums -> the metrics, one column each; ``paired``: sums of [baseline |
    candidate] columns -> candidate - baseline per metric."""
    width = len(spec.columns)

    def values(sums: FloatArray, n: int) -> FloatArray:
        def of(columns: slice) -> FloatArray:
            return np.stack([metric_value(spec, m, sums[..., columns], n) for m in metrics], -1)

        return of(slice(width, None)) - of(slice(width)) if paired else of(slice(None))

    return values


def bootstrapped_groups(
    spec: BenchmarkSpec, tables: list[FloatArray], categories: Categories, settings: Settings
) -> list[tuple[Group, list[FloatArray], list[int | None], FloatArray | None]]:
    """Each group, its rows of each table (one log's, or a baseline's and a candidate's,
    paired), each metric's ``binary_column`` and, unless every metric is a proportion there,
    the bootstrap draws of its metrics (one column each). Two groups are drawn at a time: the
    draws and matrix products release the GIL, so two threads use both cores; each group has
    its own random stream, so the order the threads finish in does not change the results."""
    with ThreadPoolExecutor(BOOTSTRAP_THREADS) as pool:
        plan = []
        for group in groups(spec, categories, len(tables[0])):
            parts = [table[group.rows] for table in tables]
            job = (
                np.hstack(parts),
                statistic(spec, group.metrics, paired=len(parts) == 2),
                settings.resamples,
                settings.rng(group.breakdown, group.category),
            )
            columns = [binary_column(spec, m, *parts) for m in group.metrics]
            draws = pool.submit(bootstrap_statistics, *job) if None in columns else None
            plan.append((group, parts, columns, draws))
        return [
            (group, parts, columns, draws.result() if draws else None)
            for group, parts, columns, draws in plan
        ]


def bootstrapped(
    draws: FloatArray | None, index: int, n: int, observed: float
) -> tuple[Interval, float]:
    """Metric ``index``'s percentile interval and the p-value of ``observed`` differing from
    0; undefined for one question, whose resamples are all alike."""
    assert draws is not None  # drawn wherever a metric is not a proportion
    if n < MIN_BOOTSTRAP_QUESTIONS:
        return Interval(math.nan, math.nan), math.nan
    column = draws[:, index]
    return percentile_interval(column), bootstrap_p_value(observed, column)


def binary_column(spec: BenchmarkSpec, metric: CompareMetric, *tables: FloatArray) -> int | None:
    """The component column when the metric is a proportion in every table, else None."""
    if metric.mean_of is None or not metric.proportion:
        return None
    column = spec.columns.index(metric.mean_of)
    binary = all(np.all((table[:, column] == 0) | (table[:, column] == 1)) for table in tables)
    return column if binary else None


def small_group_warning(n: int, discordant: int | None = None) -> str:
    reasons = []
    if n < MIN_GROUP_QUESTIONS:
        reasons.append(f"only {n} question{'' if n == 1 else 's'}")
    if discordant is not None and discordant < MIN_DISCORDANT_PAIRS:
        reasons.append(f"only {discordant} discordant pair{'' if discordant == 1 else 's'}")
    return "; ".join(reasons) + " (too few to tell)" if reasons else ""


def describe(
    spec: BenchmarkSpec, values: FloatArray, categories: Categories, settings: Settings
) -> list[dict[str, Any]]:
    """One log: every metric of every group with its interval."""
    rows: list[dict[str, Any]] = []
    for group, [part], columns, draws in bootstrapped_groups(spec, [values], categories, settings):
        n = len(part)
        sums = part.sum(axis=0)
        for index, (metric, column) in enumerate(zip(group.metrics, columns, strict=True)):
            if column is not None:
                interval = wilson_interval(int(sums[column]), n)
            else:
                interval, _ = bootstrapped(draws, index, n, 0.0)
            rows.append(
                {
                    "breakdown": group.breakdown,
                    "category": group.category,
                    "metric": metric.name,
                    "n": n,
                    "value": float(metric_value(spec, metric, sums, n)),
                    "ci_low": interval.low,
                    "ci_high": interval.high,
                    "method": WILSON if column is not None else BOOTSTRAP,
                    "warning": small_group_warning(n),
                }
            )
    return rows


def compare(
    spec: BenchmarkSpec,
    baseline: FloatArray,
    candidate: FloatArray,
    categories: Categories,
    settings: Settings,
) -> list[dict[str, Any]]:
    """Paired rows (same question in both): the difference candidate - baseline per metric."""
    rows: list[dict[str, Any]] = []
    tables = [baseline, candidate]
    for group, [a, b], columns, draws in bootstrapped_groups(spec, tables, categories, settings):
        n = len(a)
        sums_a, sums_b = a.sum(axis=0), b.sum(axis=0)
        for index, (metric, column) in enumerate(zip(group.metrics, columns, strict=True)):
            value_a = float(metric_value(spec, metric, sums_a, n))
            value_b = float(metric_value(spec, metric, sums_b, n))
            if column is not None:
                x, y = a[:, column], b[:, column]
                both = int(np.count_nonzero((x == 1) & (y == 1)))
                only_a = int(np.count_nonzero((x == 1) & (y == 0)))
                only_b = int(np.count_nonzero((x == 0) & (y == 1)))
                neither = n - both - only_a - only_b
                # Newcombe's interval is for p_first - p_second: the candidate goes first.
                interval = newcombe_paired_interval(both, only_b, only_a, neither)
                p_value, method = mcnemar_exact(only_a, only_b), NEWCOMBE_MCNEMAR
                discordant: tuple[int | None, int | None] = (only_a, only_b)
                warning = small_group_warning(n, only_a + only_b)
            else:
                interval, p_value = bootstrapped(draws, index, n, value_b - value_a)
                method, discordant, warning = BOOTSTRAP, (None, None), small_group_warning(n)
            rows.append(
                {
                    "breakdown": group.breakdown,
                    "category": group.category,
                    "metric": metric.name,
                    "n": n,
                    "baseline_value": value_a,
                    "candidate_value": value_b,
                    "difference": value_b - value_a,
                    "ci_low": interval.low,
                    "ci_high": interval.high,
                    "p_value": p_value,
                    "p_holm": math.nan,
                    "method": method,
                    "baseline_only": discordant[0],
                    "candidate_only": discordant[1],
                    "warning": warning,
                }
            )
    add_holm(rows)
    return rows


def add_holm(rows: list[dict[str, Any]]) -> None:
    """``p_holm``: p-values adjusted across the categories of one breakdown field and metric."""
    families: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        if row["breakdown"] != OVERALL:
            families.setdefault((row["breakdown"], row["metric"]), []).append(row)
    for family in families.values():
        for row, adjusted in zip(family, holm_adjust([r["p_value"] for r in family]), strict=True):
            row["p_holm"] = adjusted
