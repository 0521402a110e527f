"""benchmarks.compare.statistics (and Fleiss' kappa, in benchmarks.scorers.judge_agreement)
against independent oracles: scipy, published worked examples, definitions.

scipy is a test-only dependency (the ``dev`` extra); the module itself uses
numpy and integer arithmetic only.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom, binomtest

from benchmarks.compare.statistics import (
    bootstrap_p_value,
    bootstrap_statistics,
    cohen_kappa,
    holm_adjust,
    mcnemar_exact,
    newcombe_paired_interval,
    percentile_interval,
    wilson_interval,
)
from benchmarks.scorers.judge_agreement import fleiss_kappa

# Cavo et al. (2012), complete response before/after consolidation therapy, the worked
# example of Fagerland, Lydersen & Laake, "Statistical Analysis of Contingency Tables"
# (2017), ch. 8: rows before (response, none), columns after.
CAVO_2012 = (59, 6, 16, 80)


@pytest.mark.parametrize("n", [1, 2, 5, 10, 29, 30, 100, 1267, 7993])
def test_wilson_matches_scipy(n: int) -> None:
    for successes in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        expected = binomtest(successes, n).proportion_ci(0.95, method="wilson")
        interval = wilson_interval(successes, n)
        assert interval.low == pytest.approx(expected.low, abs=1e-12)
        assert interval.high == pytest.approx(expected.high, abs=1e-12)


def test_wilson_of_nothing_is_undefined() -> None:
    interval = wilson_interval(0, 0)
    assert math.isnan(interval.low) and math.isnan(interval.high)


def test_mcnemar_exact_and_mid_p_match_the_published_example() -> None:
    _, first_only, second_only, _ = CAVO_2012
    # Fagerland, Lydersen & Laake (2017), ch. 8: exact conditional 0.052479, mid-p 0.034690.
    assert round(mcnemar_exact(first_only, second_only), 6) == 0.052479
    assert round(mcnemar_exact(first_only, second_only, mid_p=True), 6) == 0.034690


@pytest.mark.parametrize(
    ("b", "c"),
    [(0, 1), (1, 0), (0, 10), (3, 3), (6, 16), (16, 6), (40, 20), (97, 143), (1900, 2100)],
)
def test_mcnemar_exact_matches_scipy_binomtest(b: int, c: int) -> None:
    expected = binomtest(b, b + c, 0.5, alternative="two-sided").pvalue
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-12, abs=1e-300)
    smaller, count = min(b, c), b + c
    mid_p = min(1.0, 2 * (binom.cdf(smaller - 1, count, 0.5) + binom.pmf(smaller, count, 0.5) / 2))
    assert mcnemar_exact(b, c, mid_p=True) == pytest.approx(mid_p, rel=1e-9)


def test_mcnemar_without_discordant_pairs_is_one() -> None:
    assert mcnemar_exact(0, 0) == 1.0


def test_newcombe_matches_the_published_example() -> None:
    # Fagerland, Lydersen & Laake (2017), ch. 8: Newcombe square-and-add (Newcombe 1998,
    # method 10): -0.0621 (95% CI -0.1186 to -0.0046).
    interval = newcombe_paired_interval(*CAVO_2012)
    assert (round(interval.low, 4), round(interval.high, 4)) == (-0.1186, -0.0046)


def test_newcombe_is_the_mirror_image_when_the_pair_is_swapped() -> None:
    both, first_only, second_only, neither = CAVO_2012
    swapped = newcombe_paired_interval(both, second_only, first_only, neither)
    original = newcombe_paired_interval(*CAVO_2012)
    assert swapped.low == pytest.approx(-original.high)
    assert swapped.high == pytest.approx(-original.low)


@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40), st.integers(0, 40))
def test_newcombe_contains_the_estimate_and_stays_in_range(
    both: int, first_only: int, second_only: int, neither: int
) -> None:
    n = both + first_only + second_only + neither
    if n == 0:
        return
    interval = newcombe_paired_interval(both, first_only, second_only, neither)
    estimate = (first_only - second_only) / n
    assert -1 <= interval.low <= estimate + 1e-12
    assert estimate - 1e-12 <= interval.high <= 1


def test_holm_textbook_example() -> None:
    # sorted 0.005, 0.01, 0.03, 0.04 -> 4x, 3x, 2x, 1x, made monotone: 0.02, 0.03, 0.06, 0.06
    assert holm_adjust([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm_adjust([]) == []
    adjusted = holm_adjust([0.5, math.nan, 0.01])
    assert adjusted[0] == pytest.approx(0.5) and math.isnan(adjusted[1])
    assert adjusted[2] == pytest.approx(0.02)


def holm_rejects(p_values: list[float], alpha: float) -> set[int]:
    """Holm's step-down procedure as Holm (1979) states it: reject the smallest p-values
    while p_(i) <= alpha / (m - i + 1)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    rejected: set[int] = set()
    for rank, index in enumerate(order):
        if p_values[index] > alpha / (len(p_values) - rank):
            break
        rejected.add(index)
    return rejected


@settings(max_examples=200)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_adjusted_p_values_reject_what_the_procedure_rejects(p_values: list[float]) -> None:
    adjusted = holm_adjust(p_values)
    for alpha in (0.01, 0.05, 0.1, 0.2):
        by_adjusted = {i for i, p in enumerate(adjusted) if p <= alpha}
        assert by_adjusted == holm_rejects(p_values, alpha)


@pytest.mark.parametrize(
    ("table", "kappa"),
    [
        # Two raters, yes/no: the standard textbook example (observed 0.70, chance 0.50).
        ([[20, 5], [10, 15]], 0.4),
        # Same observed agreement 0.60, different marginals: kappa 0.1304 and 0.2593.
        ([[45, 15], [25, 15]], 0.1304),
        ([[25, 35], [5, 35]], 0.2593),
    ],
)
def test_cohen_kappa_textbook_examples(table: list[list[int]], kappa: float) -> None:
    assert round(cohen_kappa(table), 4) == kappa


def test_cohen_kappa_limits() -> None:
    assert cohen_kappa([[4, 0, 0], [0, 3, 0], [0, 0, 3]]) == 1.0
    # Ratings independent by construction (the table is the product of its margins): 0.
    margins = np.outer([2, 3, 5], [1, 4, 5])
    assert cohen_kappa(margins) == pytest.approx(0.0, abs=1e-12)
    assert math.isnan(cohen_kappa([[5, 0], [0, 0]]))  # one category only: undefined
    with pytest.raises(ValueError, match="square"):
        cohen_kappa([[1, 2, 3]])


def test_fleiss_kappa_of_the_fleiss_1971_style_example() -> None:
    # 10 subjects, 14 raters, 5 categories; P-bar 0.378, P-bar-e 0.213, kappa 0.210.
    counts = [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
    assert round(fleiss_kappa(counts), 3) == 0.210


def test_fleiss_kappa_needs_equal_rater_counts() -> None:
    with pytest.raises(ValueError, match="same number"):
        fleiss_kappa([[1, 1], [2, 1]])


def test_bootstrap_p_value_definition() -> None:
    draws = np.array([-1.0, 1.0, 2.0, 3.0])
    # observed > 0: one draw at or below 0 -> 2 (1 + 1) / (4 + 1)
    assert bootstrap_p_value(2.0, draws) == pytest.approx(0.8)
    # observed < 0: three draws at or above 0 -> capped at 1
    assert bootstrap_p_value(-1.0, draws) == 1.0
    assert bootstrap_p_value(0.0, draws) == 1.0
    assert bootstrap_p_value(5.0, np.full(999, 1.0)) == pytest.approx(2 / 1000)


def test_bootstrap_is_reproducible_and_depends_on_the_seed() -> None:
    values = np.random.default_rng(0).random((200, 2))

    def mean(sums: np.ndarray, n: int) -> np.ndarray:
        return sums / n

    first = bootstrap_statistics(values, mean, 500, np.random.default_rng(7))
    again = bootstrap_statistics(values, mean, 500, np.random.default_rng(7))
    other = bootstrap_statistics(values, mean, 500, np.random.default_rng(8))
    assert first.shape == (500, 2)
    assert np.array_equal(first, again) and not np.array_equal(first, other)


def test_bootstrap_resamples_whole_rows_with_replacement() -> None:
    # Each row sums to 1 across columns: so must every resample's sums (same rows drawn).
    values = np.array([[1.0, 0.0], [0.0, 1.0], [0.25, 0.75]])
    sums = bootstrap_statistics(values, lambda s, n: s, 300, np.random.default_rng(1))
    assert np.allclose(sums.sum(axis=1), 3.0)
    assert set(np.round(sums[:, 0], 2)) <= {0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.25, 3.0}


def test_paired_bootstrap_interval_covers_a_known_difference() -> None:
    """Synthetic paired data with a known mean difference of 0.05: the 95% percentile
    interval covers it in about 95% of 200 replications, and the test rejects 0 in most."""
    rng = np.random.default_rng(2024)
    true_difference, n, replications = 0.05, 400, 200
    covered = rejected = 0
    for _ in range(replications):
        baseline = rng.random(n)
        candidate = baseline + true_difference + rng.normal(0, 0.3, n)
        values = np.column_stack([baseline, candidate])
        draws = bootstrap_statistics(values, lambda s, k: (s[..., 1:] - s[..., :1]) / k, 1000, rng)[
            :, 0
        ]
        interval = percentile_interval(draws)
        covered += interval.low <= true_difference <= interval.high
        observed = float(values[:, 1].mean() - values[:, 0].mean())
        rejected += bootstrap_p_value(observed, draws) < 0.05
    assert 0.90 <= covered / replications <= 0.99
    assert rejected / replications > 0.9


def test_paired_bootstrap_p_value_is_uniform_enough_under_no_difference() -> None:
    rng = np.random.default_rng(99)
    false_alarms = 0
    for _ in range(200):
        shared = rng.random(300)
        values = np.column_stack(
            [shared + rng.normal(0, 0.2, 300), shared + rng.normal(0, 0.2, 300)]
        )
        draws = bootstrap_statistics(values, lambda s, k: (s[..., 1:] - s[..., :1]) / k, 500, rng)
        observed = float(values[:, 1].mean() - values[:, 0].mean())
        false_alarms += bootstrap_p_value(observed, draws[:, 0]) < 0.05
    # 5% expected; 9% is 3 standard errors above it over 200 replications.
    assert false_alarms / 200 <= 0.09


def category_values(seed: int, n: int = 60) -> tuple[np.ndarray, np.ndarray, dict[str, list]]:
    """Exact match (0/1) and F1 per question, for two runs, and three answer types."""
    rng = np.random.default_rng(seed)
    baseline = rng.integers(0, 2, size=(n, 1)).astype(float)
    candidate = np.where(rng.random((n, 1)) < 0.3, 1 - baseline, baseline)
    f1 = rng.random((n, 1))
    types = [("Wiki", "Web", "Numerical")[i % 3] for i in range(n)]
    return (
        np.hstack([baseline, f1]),
        np.hstack([candidate, np.clip(f1 + 0.1, 0, 1)]),
        {"answer_type": [(t,) for t in types]},
    )


def test_every_groups_interval_is_scipys_wilson_at_95_percent() -> None:
    from benchmarks.catalog import specs
    from benchmarks.compare.analysis import Settings, describe

    values, _, categories = category_values(1)
    rows = describe(specs()["triviaqa"], values, categories, Settings(resamples=200))
    wilson = [row for row in rows if row["metric"] == "exact_match"]
    assert {row["category"] for row in wilson} == {"all", "Wiki", "Web", "Numerical"}
    for row in wilson:
        successes = round(row["value"] * row["n"])
        low, high = binomtest(successes, row["n"]).proportion_ci(0.95, method="wilson")
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), abs=1e-12), row


def test_every_groups_paired_p_value_is_the_exact_mcnemar_of_its_discordant_pairs() -> None:
    from benchmarks.catalog import specs
    from benchmarks.compare.analysis import Settings, compare

    baseline, candidate, categories = category_values(2)
    rows = compare(specs()["triviaqa"], baseline, candidate, categories, Settings(resamples=200))
    paired = [row for row in rows if row["metric"] == "exact_match"]
    assert len(paired) == 4
    for row in paired:
        mask = np.arange(len(baseline))
        if row["category"] != "all":
            mask = [i for i, (t,) in enumerate(categories["answer_type"]) if t == row["category"]]
        a, b = baseline[mask, 0], candidate[mask, 0]
        b_only = int(((a == 1) & (b == 0)).sum())
        c_only = int(((a == 0) & (b == 1)).sum())
        assert (row["baseline_only"], row["candidate_only"]) == (b_only, c_only)
        discordant = b_only + c_only
        exact = binomtest(b_only, discordant, 0.5).pvalue if discordant else 1.0
        assert row["p_value"] == pytest.approx(exact, abs=1e-12), row
        low_a, high_a = binomtest(int(a.sum()), len(a)).proportion_ci(0.95, method="wilson")
        low_b, high_b = binomtest(int(b.sum()), len(b)).proportion_ci(0.95, method="wilson")
        # Newcombe's hybrid interval lies within the differences of the Wilson limits
        assert low_b - high_a <= row["ci_low"] <= row["difference"] <= row["ci_high"]
        assert row["ci_high"] <= high_b - low_a
        # and is Newcombe (1998, method 10) built on scipy's 95% Wilson limits, the
        # candidate first
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(
            newcombe_from_scipy(b, a), abs=1e-12
        ), row


def newcombe_from_scipy(first: np.ndarray, second: np.ndarray) -> tuple[float, float]:
    n = len(first)
    both = int(((first == 1) & (second == 1)).sum())
    first_only = int(((first == 1) & (second == 0)).sum())
    second_only = int(((first == 0) & (second == 1)).sum())
    neither = n - both - first_only - second_only
    p1, p2 = first.mean(), second.mean()
    l1, u1 = binomtest(int(first.sum()), n).proportion_ci(0.95, method="wilson")
    l2, u2 = binomtest(int(second.sum()), n).proportion_ci(0.95, method="wilson")
    margins = (both + first_only) * (second_only + neither) * (both + second_only)
    margins *= first_only + neither
    cross = both * neither - first_only * second_only
    phi = 0.0
    if margins:
        phi = (max(cross - n / 2, 0) if cross > 0 else cross) / margins**0.5
    delta = ((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2) ** 0.5
    epsilon = ((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2) ** 0.5
    return (p1 - p2 - delta, p1 - p2 + epsilon)
