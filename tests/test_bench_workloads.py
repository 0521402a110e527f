"""Every benchmark has a bench workload (bench/workloads): its generated data and cases, or
its bundled sample."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import workloads as workloads_module
from bench.workloads import GRADER_REPLY, MissingWorkload, cases, chosen_cases, workloads
from benchmarks.catalog import specs


def test_every_benchmark_has_a_workload_with_its_main_case() -> None:
    assert list(workloads()) == list(specs())
    for name, spec in specs().items():
        main = cases()[name]
        assert (main.benchmark, main.module, main.function) == (name, f"benchmarks.{name}", name)
        # a judged benchmark's scripted judge replies; no other has one
        assert (main.grader_reply is not None) == spec.judged, name
    assert {case.benchmark for case in cases().values()} == set(specs())


@pytest.mark.parametrize("name", list(workloads_module.discovered()))
def test_a_benchmark_without_a_workload_is_measured_on_its_bundled_sample(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    found = workloads_module.discovered()
    del found[name]
    monkeypatch.setattr(workloads_module, "discovered", lambda: found)
    workloads.cache_clear()
    try:
        fallback = workloads()[name]
    finally:
        workloads.cache_clear()
    (main,) = fallback.cases
    # the scripted judge replies for a judged benchmark only
    grader = GRADER_REPLY if specs()[name].judged else None
    assert (main.key, main.benchmark, main.grader_reply, main.part) == (name, name, grader, None)
    assert main.task_args(Path("unused")) == {"bundled_sample": True}
    assert fallback.sizes == {} and fallback.files(fallback.scaled(1.0)) == {}
    # read without the catalog (the measuring child): judged unknown, so the judge replies
    assert workloads_module.bundled_workload(name).cases[0].grader_reply == GRADER_REPLY


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


def test_only_chooses_cases_of_the_catalog_in_its_order() -> None:
    # bench.overhead, bench.attribution and bench.construction take --only this way
    keys = list(cases())
    assert chosen_cases("") == keys
    assert chosen_cases(f"{keys[-1]},{keys[0]},") == [keys[0], keys[-1]]
    with pytest.raises(ValueError) as raised:
        chosen_cases(f"{keys[0]},nothing")
    assert str(raised.value) == f"no bench case nothing; the cases: {', '.join(keys)}"
