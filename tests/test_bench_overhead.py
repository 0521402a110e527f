"""bench.overhead: alternated order, per-pair ratios and gaps, the report's rows."""

from __future__ import annotations

from typing import Any

from bench.common.variants import pair_order
from bench.overhead.pairs import WITH_BARE_META, report, summarize_pairs


def run(wall: float, cpu: float, rss: float = 200.0, samples: int = 100) -> dict[str, Any]:
    return {"status": "ok", "wall_s": wall, "cpu_s": cpu, "peak_rss_mb": rss, "samples": samples}


def test_pairs_alternate_which_side_goes_first() -> None:
    assert [pair_order(i) for i in range(3)] == [
        ("ours", "bare"),
        ("bare", "ours"),
        ("ours", "bare"),
    ]


def test_with_bare_meta_each_side_goes_first_in_turn() -> None:
    assert [pair_order(i, WITH_BARE_META) for i in range(4)] == [
        ("ours", "bare", "bare_meta"),
        ("bare", "bare_meta", "ours"),
        ("bare_meta", "ours", "bare"),
        ("ours", "bare", "bare_meta"),
    ]


def test_bare_meta_splits_the_ratio_into_our_code_and_inspects_cost_of_our_samples() -> None:
    pairs = [
        {"ours": run(12.0, 6.0), "bare": run(10.0, 5.0), "bare_meta": run(11.0, 6.0)},
        {"ours": run(10.0, 5.0), "bare": run(10.0, 5.0), "bare_meta": run(8.0, 4.0)},
        {"ours": run(10.0, 5.0), "bare": run(10.0, 5.0), "bare_meta": {"status": "error"}},
    ]
    summary = summarize_pairs(pairs, 100, WITH_BARE_META)
    assert (summary["ok_pairs"], summary["sides"]) == (2, ["ours", "bare", "bare_meta"])
    assert summary["wall_ratio"] == {"median": 1.1, "min": 1.0, "max": 1.2}
    assert summary["ours_over_bare_meta_wall_ratio"] == {
        "median": (12 / 11 + 10 / 8) / 2,
        "min": 12 / 11,
        "max": 1.25,
    }
    assert summary["bare_meta_over_bare_cpu_ratio"] == {"median": 1.0, "min": 0.8, "max": 1.2}
    assert summary["bare_meta_samples_per_s"] == {
        "median": (100 / 11 + 100 / 8) / 2,
        "min": 100 / 11,
        "max": 12.5,
    }
    assert "ours_over_bare_meta_wall_ratio" not in summarize_pairs(pairs[:1], 100)
    results = {
        "started": "2026-12-05 12:00 UTC",
        "machine": {"cpus": 2, "versions": {}},
        "seconds": 30.0,
        "samples": 100,
        "pairs": 3,
        "options": [],
        "bare_rows": None,
        "benchmarks": {"scienceqa_image": summary},
    }
    assert (
        "| scienceqa_image | 10.8 (9.1-12.5) | 1.17 (1.09-1.25) | 1.12 (1.00-1.25) "
        "| 0.95 (0.80-1.10) | 1.00 (0.80-1.20) |" in report(results)
    )


def test_ratios_and_gaps_are_per_pair_medians_with_ranges() -> None:
    pairs = [
        {"ours": run(11.0, 8.0), "bare": run(10.0, 8.0)},
        {"ours": run(20.0, 9.0), "bare": run(10.0, 6.0)},
        {"ours": run(10.0, 6.0), "bare": run(10.0, 6.0)},
        {"ours": {"status": "error"}, "bare": run(1.0, 1.0)},
    ]
    summary = summarize_pairs(pairs, 100)
    assert (summary["pairs"], summary["ok_pairs"]) == (4, 3)
    assert summary["wall_ratio"] == {"median": 1.1, "min": 1.0, "max": 2.0}
    assert summary["cpu_ratio"] == {"median": 1.0, "min": 1.0, "max": 1.5}
    assert summary["wall_s_gap"] == {"median": 1.0, "min": 0.0, "max": 10.0}
    assert summary["ours_samples_per_s"] == {"median": 100 / 11.0, "min": 5.0, "max": 10.0}


def test_report_judges_the_median_wall_ratio() -> None:
    pairs = [{"ours": run(10.4, 5.0), "bare": run(10.0, 5.0)}]
    results = {
        "started": "2026-12-04 17:00 UTC",
        "machine": {"cpus": 2, "versions": {}, "load_average_start": [1.0, 1.0, 1.0]},
        "seconds": 30.0,
        "samples": 100,
        "pairs": 1,
        "options": ["--limit", "100"],
        "bare_rows": None,
        "benchmarks": {"triviaqa": summarize_pairs(pairs, 100)},
    }
    text = report(results)
    assert (
        "| triviaqa | 9.6 (9.6-9.6) | 10.0 (10.0-10.0) | 1.04 (1.04-1.04) "
        "| 1.00 (1.00-1.00) | yes |" in text
    )
    assert "The bare task given every row." in text
    results["benchmarks"] = {
        "triviaqa": summarize_pairs([{"ours": run(10.6, 5.0), "bare": run(10.0, 5.0)}], 100)
    }
    assert "| 1.06 (1.06-1.06) | 1.00 (1.00-1.00) | **no** |" in report(results)


def test_shards_are_reported_as_the_speed_up_over_one_process() -> None:
    sides = ("ours", "bare", "ours-2")
    pairs = [
        {"ours": run(10.0, 9.0), "bare": run(9.0, 8.0), "ours-2": run(8.0, 12.0)},
        {"ours": run(12.0, 10.0), "bare": run(9.0, 8.0), "ours-2": run(6.0, 12.5)},
    ]
    summary = summarize_pairs(pairs, 100, sides)
    assert summary["ours-2_speedup_wall"] == {"median": 1.625, "min": 1.25, "max": 2.0}
    assert summary["ours-2_speedup_cpu"] == {"median": 0.775, "min": 0.75, "max": 0.8}
    results = {
        "started": "2026-12-07 12:00 UTC",
        "machine": {"cpus": 2, "versions": {}},
        "seconds": 30.0,
        "samples": 100,
        "pairs": 2,
        "options": [],
        "bare_rows": None,
        "benchmarks": {"winogrande": summary},
    }
    lines = report(results).splitlines()
    assert lines[-2:] == [
        "| winogrande | 1 | 9.2 (8.3-10.0) | 1 | 1 |",
        "| winogrande | 2 | 14.6 (12.5-16.7) | 1.62 (1.25-2.00) | 0.78 (0.75-0.80) |",
    ]
