"""Interval estimates, paired tests and agreement coefficients for benchmark scores.

numpy and integer arithmetic only (scipy is the tests' oracle). The methods, their references
and why each was chosen: docs/compare.md, "The statistics". Fleiss' kappa is in
``benchmarks.scorers.judge_agreement``, whose metric computes it during a run.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING

import numpy as np

from benchmarks.spec import FloatArray

if TYPE_CHECKING:
    import numpy.typing as npt

CONFIDENCE = 0.95
Z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)  # two-sided: 1.95996... for 95%
# Bounds the memory of one block of bootstrap resample counts (float64 cells).
BOOTSTRAP_BLOCK_CELLS = 4_000_000

# (resample sums of the value columns (R, k), sample count) -> statistics (R, m)
SumsStatistic = Callable[[FloatArray, int], FloatArray]


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def wilson_interval(successes: int, n: int) -> Interval:
    """Wilson (1927) score interval of a proportion ``successes / n``: it keeps its coverage
    for small n and proportions near 0 or 1, where the Wald interval fails."""
    if n <= 0:
        return Interval(math.nan, math.nan)
    p = successes / n
    denominator = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denominator
    half_width = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denominator
    # Clip rounding noise: at p = 0 or 1 one limit is exactly 0 or 1.
    return Interval(max(0.0, centre - half_width), min(1.0, centre + half_width))


def newcombe_paired_interval(
    both: int, first_only: int, second_only: int, neither: int
) -> Interval:
    """Newcombe (1998, method 10) interval of ``p_first - p_second`` for paired binary outcomes,
    from the counts of pairs where both succeed, the first only, the second only, neither."""
    n = both + first_only + second_only + neither
    first_successes, second_successes = both + first_only, both + second_only
    p1, p2 = first_successes / n, second_successes / n
    first = wilson_interval(first_successes, n)
    second = wilson_interval(second_successes, n)
    margins = first_successes * (n - first_successes) * second_successes * (n - second_successes)
    phi = 0.0
    if margins > 0:
        cross = both * neither - first_only * second_only
        if cross > n / 2:
            phi = (cross - n / 2) / math.sqrt(margins)
        elif cross < 0:
            phi = cross / math.sqrt(margins)
    lower_1, upper_1 = p1 - first.low, first.high - p1
    lower_2, upper_2 = p2 - second.low, second.high - p2
    # max(0, .): the radicand can dip below 0 by rounding when phi is near 1.
    delta = math.sqrt(max(0.0, lower_1**2 - 2 * phi * lower_1 * upper_2 + upper_2**2))
    epsilon = math.sqrt(max(0.0, upper_1**2 - 2 * phi * upper_1 * lower_2 + lower_2**2))
    difference = p1 - p2
    return Interval(max(-1.0, difference - delta), min(1.0, difference + epsilon))


def mcnemar_exact(first_only: int, second_only: int, *, mid_p: bool = False) -> float:
    """Two-sided p-value of McNemar's exact conditional test from the discordant counts: twice
    P(X <= the smaller count) for X ~ Binomial(b + c, 1/2), capped at 1 (mid-p: the tail
    P(X < s) + P(X = s)/2); 1.0 when there are no discordant pairs."""
    trials, smaller = first_only + second_only, min(first_only, second_only)
    # Binomial coefficients by the exact recurrence C(n, k+1) = C(n, k) (n - k) / (k + 1).
    coefficient, tail = 1, 0
    for k in range(smaller):
        tail += coefficient
        coefficient = coefficient * (trials - k) // (k + 1)
    # Integer numerator and denominator: one correctly rounded division.
    if mid_p:
        return min(1.0, 2 * ((2 * tail + coefficient) / 2 ** (trials + 1)))
    return min(1.0, 2 * ((tail + coefficient) / 2**trials))


def holm_adjust(p_values: list[float]) -> list[float]:
    """Holm (1979) step-down adjusted p-values, in the input order (NaNs stay NaN): they
    control the family-wise error rate whatever the dependence between the tests."""
    indexed = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    count = len(indexed)
    adjusted = [math.nan] * len(p_values)
    running = 0.0
    for rank, (p, index) in enumerate(indexed):
        # Monotone: an adjusted p-value is never below that of a smaller raw p-value.
        running = max(running, min(1.0, (count - rank) * p))
        adjusted[index] = running
    return adjusted


def cohen_kappa(confusion: npt.ArrayLike) -> float:
    """Cohen's (1960) kappa from a square table (rows: rater 1, columns: rater 2); NaN where it
    is undefined (chance agreement 1: both raters used one and the same category throughout)."""
    table = np.asarray(confusion, dtype=float)
    total = table.sum()
    if table.ndim != 2 or table.shape[0] != table.shape[1]:
        raise ValueError(f"Cohen's kappa needs a square table, got shape {table.shape}.")
    if total == 0:
        return math.nan
    observed = np.trace(table) / total
    chance = float(table.sum(axis=1) @ table.sum(axis=0)) / total**2
    if chance >= 1.0:
        return math.nan
    return float((observed - chance) / (1 - chance))


def bootstrap_statistics(
    values: FloatArray,
    statistic: SumsStatistic,
    resamples: int,
    rng: np.random.Generator,
) -> FloatArray:
    """``statistic`` on ``resamples`` bootstrap resamples of the rows of ``values`` (n, k), as
    (resamples, m): every statistic here is a function of column sums, so a resample is its
    row counts and its sums are ``counts @ values`` (docs/compare.md, "Speed")."""
    n = values.shape[0]
    block = max(1, BOOTSTRAP_BLOCK_CELLS // n)
    # Narrow indices draw twice as fast; bincount per row beats one offset bincount
    # over the block (no 64-bit offset array), measured by ``python -m bench.compare``.
    index_type = np.uint16 if n <= np.iinfo(np.uint16).max + 1 else np.int64
    results: list[FloatArray] = []
    for start in range(0, resamples, block):
        rows = min(block, resamples - start)
        indices = rng.integers(0, n, size=(rows, n), dtype=index_type)
        counts = np.empty((rows, n), dtype=np.float64)
        for row in range(rows):
            counts[row] = np.bincount(indices[row], minlength=n)
        results.append(statistic(counts @ values, n))
    return np.concatenate(results)


def percentile_interval(draws: FloatArray) -> Interval:
    """The bootstrap percentile interval: the central ``CONFIDENCE`` share of ``draws``."""
    tail = (1 - CONFIDENCE) / 2
    low, high = np.quantile(draws, [tail, 1 - tail])
    return Interval(float(low), float(high))


def bootstrap_p_value(observed: float, draws: FloatArray) -> float:
    """Two-sided bootstrap p-value of ``observed`` differing from 0: min(1, 2 (k + 1) / (R + 1))
    with k of the R draws on the other side of 0 (the +1 keeps finite draws from claiming p = 0);
    1 for an observed 0."""
    if observed == 0 or math.isnan(observed):
        return 1.0 if observed == 0 else math.nan
    other_side = int(np.count_nonzero(draws <= 0 if observed > 0 else draws >= 0))
    return min(1.0, 2 * (other_side + 1) / (len(draws) + 1))
