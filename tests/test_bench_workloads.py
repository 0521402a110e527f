"""Every benchmark has a bench workload (bench/workloads): its generated data and cases."""

from __future__ import annotations

import pytest

from bench import workloads as workloads_module
from bench.workloads import MissingWorkload, cases, workloads
from benchmarks.catalog import specs


def test_every_benchmark_has_a_workload_with_its_main_case() -> None:
    assert list(workloads()) == list(specs())
    for name, spec in specs().items():
        main = cases()[name]
        assert (main.benchmark, main.module, main.function) == (name, f"benchmarks.{name}", name)
        # a judged benchmark's scripted judge replies; no other has one
        assert (main.grader_reply is not None) == spec.judged, name
    assert {case.benchmark for case in cases().values()} == set(specs())


def test_a_benchmark_without_a_workload_stops_the_bench(monkeypatch: pytest.MonkeyPatch) -> None:
    found = workloads_module.discovered()
    del found["simpleqa_verified"]
    monkeypatch.setattr(workloads_module, "discovered", lambda: found)
    workloads.cache_clear()
    try:
        with pytest.raises(MissingWorkload) as raised:
            workloads()
    finally:
        workloads.cache_clear()
    assert str(raised.value) == (
        "no bench workload for the benchmark(s) simpleqa_verified: add "
        "bench/workloads/simpleqa_verified.py (the generated data and the cases; see "
        "bench/workloads/__init__.py)"
    )
