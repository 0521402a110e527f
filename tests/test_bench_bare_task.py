"""The throughput bench's bare task, plain and with our metadata and breakdowns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from bench.common.bare_inputs import grouped_keys
from bench.common.bare_task import bare
from benchmarks.scorers.scienceqa import scienceqa_metrics
from benchmarks.scorers.simpleqa import simpleqa_task_metrics
from tests.scripted import replies_by_prompt


def record(
    sample_id: str, text: str, target: str, choices: list[str], subject: str, has_hint: bool
) -> dict[str, object]:
    """One line of ``inputs.jsonl`` as ``bench.common.bare_inputs`` writes it (no image)."""
    return {
        "id": sample_id,
        "text": text,
        "target": target,
        "image": None,
        "choices": choices,
        "metadata": {"subject": subject, "has_hint": has_hint},
    }


RECORDS = [
    record("q1", "Which is blue?", "A", ["sky", "grass"], "natural science", True),
    record("q2", "Which is a verb?", "B", ["cat", "run", "red"], "language science", False),
    record("q3", "Which is green?", "B", ["sky", "grass"], "natural science", False),
]
GROUP_BY = [["subject", "{group_name}"], ["has_hint", "has_hint_{group_name}"]]


def write_inputs(tmp_path: Path) -> str:
    path = tmp_path / "inputs.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in RECORDS), encoding="utf-8")
    return str(path)


def test_the_plain_bare_task_carries_no_metadata_or_choices(tmp_path: Path) -> None:
    task = bare(inputs=write_inputs(tmp_path))
    sample = task.dataset[0]
    assert (sample.id, sample.input, sample.target) == ("q1", "Which is blue?", "A")
    assert not sample.metadata
    assert sample.choices is None


def test_with_sample_metadata_each_sample_has_our_metadata_and_choices(tmp_path: Path) -> None:
    task = bare(inputs=write_inputs(tmp_path), sample_metadata=True, group_by=GROUP_BY)
    assert [sample.metadata for sample in task.dataset] == [r["metadata"] for r in RECORDS]
    assert [sample.choices for sample in task.dataset] == [r["choices"] for r in RECORDS]


@pytest.mark.slow
def test_group_by_adds_inspects_grouped_accuracy_for_each_key(tmp_path: Path) -> None:
    task = bare(inputs=write_inputs(tmp_path), sample_metadata=True, group_by=GROUP_BY)
    # q1 right (A), q2 wrong (replies A, target B), q3 right (B)
    model = replies_by_prompt(lambda text: "B" if "green" in text else "A")
    [log] = inspect_eval(task, model=model, display="none", log_dir=str(tmp_path / "logs"))
    assert log.results is not None
    metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    assert metrics == {
        "accuracy": 2 / 3,
        "stderr": metrics["stderr"],
        "natural science": 1.0,
        "language science": 0.0,
        "has_hint_True": 1.0,
        "has_hint_False": 0.5,
    }


def test_the_group_keys_are_read_off_the_benchmarks_grouped_metrics() -> None:
    # ScienceQA's paper columns overlap (TXT and IMG): one metric of its own, not grouped()
    assert grouped_keys(scienceqa_metrics()) == []
    assert grouped_keys(simpleqa_task_metrics()) == [
        ["topic", "accuracy[Topic={group_name}]"],
        ["topic", "attempted_accuracy[Topic={group_name}]"],
        ["topic", "abstention_rate[Topic={group_name}]"],
    ]
    assert grouped_keys({"exact_match": []}) == []
    assert grouped_keys(None) == []
