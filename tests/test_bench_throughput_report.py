"""The throughput bench's arithmetic: per-sample CPU, paired ratios, CPU pinning."""

from __future__ import annotations

import pytest

from bench import http_runs
from bench.throughput import per_sample_cpu_ms
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
        lines[-2] == "| winogrande | default | 4.60 | 4.40 | 17.0 | 17.0 | 1.00 (0.95-1.07) | yes |"
    )
    slower = {
        "x": {
            "ours_fast": {"fixed_cpu_s": [1.0, 1.0], "per_sample_cpu_ms": [11.0, 10.6]},
            "bare_fast": {"fixed_cpu_s": [1.0, 1.0], "per_sample_cpu_ms": [10.0, 10.0]},
        }
    }
    assert (
        per_sample_table(slower)[-2]
        == "| x | fast | 1.00 | 1.00 | 10.8 | 10.0 | 1.08 (1.06-1.10) | **no** |"
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
