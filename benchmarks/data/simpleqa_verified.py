"""SimpleQA Verified's data: the pinned Hub dataset and the columns a question needs, the
fields that a CSV (the Kaggle file) holds as text read as the Hub's types, a row as a
sample, and the bundled questions the offline oracle answers."""

from __future__ import annotations

from typing import Any

from inspect_ai.dataset import Sample

from benchmarks.data.records import field
from benchmarks.data.source import HubDataset

DATASET = HubDataset(
    "google/simpleqa-verified",
    revision="0dc97e0d28d8233463e005cdc4475cc2a13ba2dc",
    pinned_by="public evaluation code that pins it together with the sha256 of its "
    "`simpleqa_verified.csv`, "
    "`b5db21155444763543fe31b67e7cf28ce2bb225742a5b889421c5f182e2f92f5` (several "
    "independent files; the index that found them does not name their repositories)",
)
DATASET_CONFIG = "simpleqa_verified"
SPLIT = "eval"
COLUMNS = (
    "original_index",
    "problem",
    "answer",
    "topic",
    "answer_type",
    "multi_step",
    "requires_reasoning",
    "urls",
)

# A CSV (the Kaggle file) holds booleans as text.
BOOLEAN_TEXT = {"True": True, "true": True, "False": False, "false": False}


def original_index(record: dict[str, Any]) -> int:
    """The row's ``original_index``: a non-negative integer, or its digits in a CSV."""
    value = record.get("original_index")
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ValueError(f"field 'original_index' should be a non-negative integer, got {value!r:.60}")


def boolean(record: dict[str, Any], name: str) -> bool:
    """The field ``name`` as a bool: a boolean, or its text in a CSV."""
    value = record.get(name)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value in BOOLEAN_TEXT:
        return BOOLEAN_TEXT[value]
    raise ValueError(f"field {name!r} should be true or false, got {value!r:.60}")


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One question; its id is ``original_index``, its row in SimpleQA."""
    metadata: dict[str, Any] = {
        "original_index": original_index(record),
        "topic": field(record, "topic", str),
        "answer_type": field(record, "answer_type", str),
        "multi_step": boolean(record, "multi_step"),
        "requires_reasoning": boolean(record, "requires_reasoning"),
        "urls": field(record, "urls", str),
    }
    problem, answer = field(record, "problem", str), field(record, "answer", str)
    for name, value in (("problem", problem), ("answer", answer)):
        if not value.strip():
            raise ValueError(f"field {name!r} is empty")
    return Sample(id=metadata["original_index"], input=problem, target=answer, metadata=metadata)
