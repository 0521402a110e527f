"""num_examples bounds what is built, even through Inspect's eval()."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai import Task, eval

from benchmarks.catalog import BENCHMARKS, specs
from benchmarks.scienceqa import scienceqa
from benchmarks.simpleqa import simpleqa
from benchmarks.triviaqa import triviaqa
from benchmarks.winogrande import winogrande
from tests.scripted import replies_by_prompt

FIXTURES = Path(__file__).parent / "fixtures"

TASKS: dict[str, Callable[[int | None], Task]] = {
    "triviaqa": lambda n: triviaqa(
        num_examples=n,
        data_files={
            "validation": str(FIXTURES / "triviaqa" / "validation.jsonl"),
            "train": str(FIXTURES / "triviaqa" / "train.jsonl"),
        },
    ),
    "simpleqa": lambda n: simpleqa(
        num_examples=n,
        dataset_path=str(FIXTURES / "simpleqa" / "simple_qa_test_set.sample.csv"),
    ),
    "winogrande": lambda n: winogrande(
        num_examples=n, data_files=str(FIXTURES / "winogrande" / "validation.jsonl")
    ),
    "scienceqa": lambda n: scienceqa(
        num_examples=n,
        subset="image",
        data_files=str(FIXTURES / "scienceqa" / "test_rows.hf.parquet"),
    ),
}


@pytest.mark.parametrize("name", list(TASKS))
def test_eval_builds_only_num_examples_samples(name: str, tmp_path: Path) -> None:
    task = TASKS[name](2)
    model = replies_by_prompt(lambda prompt: "A")
    [log] = eval(
        task, model=model, model_roles={"grader": model}, log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success"
    assert log.samples is not None and len(log.samples) == 2
    assert task.dataset.built_rows == 2  # type: ignore[attr-defined]
    assert sorted(str(s.id) for s in log.samples) == sorted(
        str(s.id) for s in TASKS[name](None).dataset[0:2]
    )


@pytest.mark.parametrize("name", BENCHMARKS)
def test_num_examples_must_be_positive(name: str) -> None:
    with pytest.raises(ValueError) as raised:
        specs()[name].task(bundled_sample=True, num_examples=0)
    assert (
        str(raised.value)
        == f"{name}: num_examples must be a positive integer or null (all rows), got 0."
    )
