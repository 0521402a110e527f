"""num_examples bounds what is built and run, even through Inspect's eval(): every benchmark
of the catalog, on its bundled sample."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval

from benchmarks.catalog import BENCHMARKS, specs
from tests.scripted import replies_by_prompt


@pytest.mark.parametrize("name", BENCHMARKS)
def test_eval_builds_only_num_examples_samples(name: str, tmp_path: Path) -> None:
    spec = specs()[name]
    task = spec.task(bundled_sample=True, num_examples=2)
    model = replies_by_prompt(lambda prompt: "A")
    [log] = eval(
        task, model=model, model_roles={"grader": model}, log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success"
    assert log.samples is not None and len(log.samples) == 2
    assert len(task.dataset) == 2
    every_row = spec.task(bundled_sample=True).dataset
    assert len(every_row) > 2
    assert sorted(str(s.id) for s in log.samples) == sorted(str(s.id) for s in every_row[0:2])


@pytest.mark.parametrize("name", BENCHMARKS)
def test_num_examples_must_be_positive(name: str) -> None:
    with pytest.raises(ValueError) as raised:
        specs()[name].task(bundled_sample=True, num_examples=0)
    assert (
        str(raised.value)
        == f"{name}: num_examples must be a positive integer or null (all rows), got 0."
    )
