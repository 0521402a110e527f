"""Every benchmark has a bench workload (bench/workloads): its generated data and cases, or
its bundled sample."""

from __future__ import annotations

from pathlib import Path

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


def test_a_benchmark_without_a_workload_is_measured_on_its_bundled_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = workloads_module.discovered()
    del found["simpleqa_verified"]
    monkeypatch.setattr(workloads_module, "discovered", lambda: found)
    workloads.cache_clear()
    try:
        fallback = workloads()["simpleqa_verified"]
    finally:
        workloads.cache_clear()
    (main,) = fallback.cases
    assert (main.key, main.benchmark, main.grader_reply) == (
        "simpleqa_verified",
        "simpleqa_verified",
        "A",
    )
    assert main.task_args(Path("unused")) == {"bundled_sample": True}
    assert fallback.files(fallback.scaled(1.0)) == {}
    assert (
        workloads_module.bundled_workload("winogrande", judged=False).cases[0].grader_reply is None
    )


def test_a_workload_for_no_benchmark_stops_the_bench(monkeypatch: pytest.MonkeyPatch) -> None:
    found = workloads_module.discovered()
    found["nothing"] = workloads_module.bundled_workload("nothing")
    monkeypatch.setattr(workloads_module, "discovered", lambda: found)
    workloads.cache_clear()
    try:
        with pytest.raises(MissingWorkload) as raised:
            workloads()
    finally:
        workloads.cache_clear()
    assert str(raised.value) == "bench workloads for no benchmark: nothing"
