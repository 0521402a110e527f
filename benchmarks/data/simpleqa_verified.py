"""SimpleQA Verified's fields that a CSV (the Kaggle file) holds as text, read as the
Hub's types, and the bundled questions the offline oracle answers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benchmarks.data.samples import csv_records
from benchmarks.spec import KnownQuestion

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


def oracle_questions(files: Mapping[str, str]) -> list[KnownQuestion]:
    """The bundled questions: known by the question; answered with the gold answer."""
    return [KnownQuestion((r["problem"],), r["answer"]) for r in csv_records(files["eval"])]
