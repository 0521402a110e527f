"""``bench.construction``'s report of the package's entry point, and the probe it runs."""

from __future__ import annotations

from bench.construction.entry_point import entry_point_cost
from bench.construction.report import report

MACHINE = {
    "cpus": 2,
    "cpu_model": "cpu",
    "memory_gb": 24,
    "python": "3.11",
    "versions": {"inspect_ai": "0.3.285"},
    "load_average_start": [0.5],
    "load_average_end": [0.7],
}


def test_the_entry_points_cost_is_reported_in_its_own_section() -> None:
    results = {
        "started": "2026-12-07 10:00 UTC",
        "machine": MACHINE,
        "seconds": 9.0,
        "entry_point": {"seconds": 0.0512, "inspect_mb": 89.4, "added_mb": 2.04, "runs": 7},
    }
    text = report(results)
    assert (
        "### The package's entry point (every `inspect` command)\n\n"
        "Loading Inspect's entry points: 0.05 s, adding 2.0 MB to a process holding Inspect "
        "(89 MB); medians of 7 fresh processes.\n"
    ) in text


def test_the_probe_loads_the_entry_points_in_a_fresh_process() -> None:
    cost = entry_point_cost(1)
    assert cost["runs"] == 1 and 0 < cost["seconds"] < 30
    assert cost["inspect_mb"] > 20 and cost["added_mb"] >= 0
