"""SimpleQA's pins for the generic conformance tests (tests/conformance_pins.py
says what each pins)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from tests.bad_inputs import Case, Expected, Fails, Loads

FIRST_SAMPLE = ("simpleqa_0", "Who received the IEEE Frank Rosenblatt Award in 2010?")

RANDOM_RIGHT = (0, 30)

EXPLANATION = "judge replied 'A': A = CORRECT"

BAD_INPUTS_COVERED_ELSEWHERE = {
    "missing column": "test_simpleqa.py::test_bad_files_are_named_with_row_and_field",
    "renamed column": "test_simpleqa.py::test_bad_files_are_named_with_row_and_field",
    "wrong type": "test_simpleqa.py::test_bad_files_are_named_with_row_and_field",
    "empty alias list": (
        "test_simpleqa.py::test_bad_files_are_named_with_row_and_field"  # an empty 'answer'
    ),
    "empty file": "test_simpleqa.py::test_bad_files_are_named_with_row_and_field",
    "truncated file": (
        "test_simpleqa.py::test_bad_files_are_named_with_row_and_field"  # broken.jsonl
    ),
    "non-UTF-8 bytes": "test_simpleqa.py::test_non_utf8_bytes_are_reported",
    "1 MB field": "test_simpleqa.py::test_a_one_megabyte_field_loads",
    "duplicate ids": "test_simpleqa.py::test_bad_files_are_named_with_row_and_field",
}

BAD_INPUTS_NOT_APPLICABLE = {
    "empty choices": "open question answering: no choices",
    "answer index out of range": "the answer is a string, not an index",
    "corrupt image bytes": "text only",
}


# --- Bad inputs (tests/test_bad_inputs.py): malformed files made from the fixtures --------


def simpleqa_case(
    kind: str,
    name: str,
    content: bytes,
    suffix: str,
    expected: Callable[[Path], Expected],
) -> Case:
    def make(tmp: Path) -> tuple[dict[str, Any], Expected]:
        path = tmp / f"questions{suffix}"
        path.write_bytes(content)
        return {"dataset_path": str(path)}, expected(path)

    return Case("simpleqa", kind, name, make)


def check_repeated_simpleqa_row(samples: list[Sample]) -> None:
    assert samples[0].input == samples[1].input == "Who won?"


BAD_INPUTS = [
    simpleqa_case(
        "wrong type",
        "id a float",
        b'{"id": 1.5, "problem": "Q?", "answer": "A"}\n',
        ".jsonl",
        lambda path: Fails(
            f"{path}, line 1: field 'id' should be a string or an integer, got 1.5."
        ),
    ),
    simpleqa_case(
        "non-UTF-8 bytes",
        "Latin-1 byte on line 2 of jsonl",
        b'{"id": "q1", "problem": "Who won?", "answer": "A"}\n'
        b'{"id": "q2", "problem": "Qui a gagn\xe9?", "answer": "A"}\n',
        ".jsonl",
        lambda path: Fails(f"{path}: line 2 is not valid UTF-8 (invalid continuation byte)"),
    ),
    simpleqa_case(
        "duplicate ids",
        "ids 1 and '1' (the same id once logged)",
        b'{"id": 1, "problem": "Q1?", "answer": "A"}\n'
        b'{"id": "1", "problem": "Q2?", "answer": "B"}\n',
        ".jsonl",
        lambda path: Fails(f"{path}, line 2:", ("'id'",)),
    ),
    simpleqa_case(
        "duplicate ids",
        "a repeated csv row is a question of its own (ids are row positions)",
        b"metadata,problem,answer\n\"{'topic': 'Art'}\",Who won?,A\n"
        b"\"{'topic': 'Art'}\",Who won?,A\n",
        ".csv",
        lambda path: Loads(["simpleqa_0", "simpleqa_1"], check_repeated_simpleqa_row),
    ),
]

# Task parameters of SimpleQA's own that are refused before any model call: (-T, message).
INVALID_TASK_ARGS = [
    ({"grade_parse": "loose"}, "simpleqa: unknown grade_parse 'loose'"),
    ({"topic_breakdown": "false"}, "simpleqa: topic_breakdown"),
]
