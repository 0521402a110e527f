"""The throughput bench's arithmetic: per-sample CPU, paired ratios, CPU pinning."""

from __future__ import annotations

import threading

import pytest

from bench import http_runs
from bench.paired_throughput import per_sample_cpu_ms, run_round
from bench.throughput_report import paired_ratios, per_sample_table, pinning


def run(cpu_s: float, status: str = "ok") -> dict[str, object]:
    return {"status": status, "cpu_s": cpu_s}


def test_per_sample_cpu_is_the_full_run_beyond_its_limit_1_twin() -> None:
    # 1,001 samples: 1,000 beyond the twin's one, 20 s of CPU beyond its 5 s
    assert per_sample_cpu_ms(run(25.0), run(5.0), 1001) == pytest.approx(20.0)
    assert per_sample_cpu_ms(run(25.0, "error"), run(5.0), 1001) is None
    assert per_sample_cpu_ms(run(25.0), run(5.0, "error"), 1001) is None


def test_ratios_are_paired_repeat_by_repeat_and_skip_failed_runs() -> None:
    assert paired_ratios([10.0, 22.0, None, 30.0], [10.0, 20.0, 9.0, None]) == [1.0, 1.1]


def test_the_per_sample_table_reports_the_median_paired_ratio_and_its_range() -> None:
    throughput = {
        "winogrande": {
            "ours_default": {
                "fixed_cpu_s": [4.6, 4.5, 4.7],
                "per_sample_cpu_ms": [17.0, 16.0, 19.0],
            },
            "bare_default": {
                "fixed_cpu_s": [4.4, 4.4, 4.5],
                "per_sample_cpu_ms": [17.0, 15.0, 20.0],
            },
        },
        "samples": 1000,
    }
    lines = per_sample_table(throughput)
    # ratios 1.00, 1.067, 0.95: median 1.00
    assert (
        lines[-2] == "| winogrande | default | 4.60 | 4.40 | 17.0 | 17.0 | – "
        "| 1.00 (0.95-1.07) | yes | – | – | – |"
    )
    slower = {
        "x": {
            "ours_fast": {"fixed_cpu_s": [1.0, 1.0], "per_sample_cpu_ms": [11.0, 10.6]},
            "bare_fast": {"fixed_cpu_s": [1.0, 1.0], "per_sample_cpu_ms": [10.0, 10.0]},
        }
    }
    assert (
        per_sample_table(slower)[-2]
        == "| x | fast | 1.00 | 1.00 | 10.8 | 10.0 | – | 1.08 (1.06-1.10) | **no** | – | – | – |"
    )


def test_bare_with_our_metadata_separates_our_code_from_inspects_handling_of_it() -> None:
    throughput = {
        "scienceqa": {
            "ours_fast": {"fixed_cpu_s": [4.0, 4.0], "per_sample_cpu_ms": [11.0, 10.4]},
            "bare_fast": {"fixed_cpu_s": [4.0, 4.0], "per_sample_cpu_ms": [10.0, 10.0]},
            "bare_meta_fast": {"fixed_cpu_s": [4.0, 4.0], "per_sample_cpu_ms": [10.8, 10.4]},
        }
    }
    # ours / bare: 1.10, 1.04 (median 1.07); ours / bare + metadata: 1.0185, 1.00
    # (median 1.01); bare + metadata / bare: 1.08, 1.04 (median 1.06)
    assert per_sample_table(throughput)[-2] == (
        "| scienceqa | fast | 4.00 | 4.00 | 10.7 | 10.0 | 10.6 | 1.07 (1.04-1.10) | **no** "
        "| 1.01 (1.00-1.02) | yes | 1.06 (1.04-1.08) |"
    )


def test_the_server_gets_the_first_cpu_and_the_harness_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(http_runs.os, "sched_getaffinity", lambda pid: {3, 1, 2})
    assert http_runs.cpu_plan() == ({1}, {2, 3})
    monkeypatch.setattr(http_runs.os, "sched_getaffinity", lambda pid: {0})
    assert http_runs.cpu_plan() is None
    assert pinning({"server": [0], "harness": [1]}) == (
        "The server pinned to CPU 0, each harness process to CPU 1 (`taskset`-style affinity)."
    )
    assert pinning(None) == "Processes not pinned to CPUs."


def test_a_concurrent_round_runs_every_twin_then_every_full_run_at_the_same_time() -> None:
    variants = ["ours", "bare", "bare_meta"]
    together = threading.Barrier(len(variants), timeout=10)
    calls: list[tuple[str, int]] = []

    def run(variant: str, mode: str, limit: int) -> dict[str, object]:
        calls.append((variant, limit))
        if limit > 1:
            together.wait()  # breaks (and raises) unless all three full runs overlap
        return {"variant": variant, "mode": mode, "limit": limit}

    done = run_round(run, variants, "fast", 1000, concurrent=True)
    assert sorted(calls[:3]) == sorted((variant, 1) for variant in variants)
    assert sorted(calls[3:]) == sorted((variant, 1000) for variant in variants)
    assert done["bare"] == (
        {"variant": "bare", "mode": "fast", "limit": 1},
        {"variant": "bare", "mode": "fast", "limit": 1000},
    )


def test_a_sequential_round_runs_each_twin_just_before_its_full_run() -> None:
    calls: list[tuple[str, int]] = []

    def run(variant: str, mode: str, limit: int) -> dict[str, object]:
        calls.append((variant, limit))
        return {}

    run_round(run, ["bare", "ours"], "default", 50, concurrent=False)
    assert calls == [("bare", 1), ("bare", 50), ("ours", 1), ("ours", 50)]
