"""SimpleQA Verified's pins for the generic conformance tests (tests/conformance_pins.py
says what each pins)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from tests.bad_inputs import ONE_MEGABYTE, Case, Expected, Fails, Loads, write_text

FIRST_SAMPLE = (0, "Who received the IEEE Frank Rosenblatt Award in 2010?")

RANDOM_RIGHT = (0, 20)

EXPLANATION = "judge replied 'A': A = CORRECT"

BAD_INPUTS_COVERED_ELSEWHERE = {
    "missing column": "test_simpleqa_verified.py::test_a_missing_column_is_named",
    "wrong type": "test_simpleqa_verified.py::test_bad_rows_are_named",
    "empty alias list": (
        "test_simpleqa_verified.py::test_bad_rows_are_named"  # an empty 'answer'
    ),
    "duplicate ids": "test_simpleqa_verified.py::test_a_repeated_original_index_names_both_rows",
}

BAD_INPUTS_NOT_APPLICABLE = {
    "empty choices": "open question answering: no choices",
    "answer index out of range": "the answer is a string, not an index",
    "corrupt image bytes": "text only",
}


# --- Bad inputs (tests/test_bad_inputs.py): malformed files made from the fixtures --------

VERIFIED_HEADER = (
    "original_index,problem,answer,topic,answer_type,multi_step,requires_reasoning,urls"
)


def verified_case(
    kind: str, name: str, content: bytes, expected: Callable[[Path], Expected]
) -> Case:
    def make(tmp: Path) -> tuple[dict[str, Any], Expected]:
        path = write_text(tmp / "eval.csv", content)
        return {"data_files": {"eval": str(path)}}, expected(path)

    return Case("simpleqa_verified", kind, name, make)


def check_verified_big_problem(samples: list[Sample]) -> None:
    assert samples[0].input == f"{ONE_MEGABYTE}?"  # the question, whole


BAD_INPUTS = [
    verified_case(
        "renamed column",
        "'problem' renamed 'question'",
        (
            VERIFIED_HEADER.replace("problem", "question") + "\n0,Q?,A,Art,Person,True,False,u\n"
        ).encode(),
        lambda path: Fails(f"{path} (eval split): missing column(s) 'problem'"),
    ),
    verified_case(
        "non-UTF-8 bytes",
        "Latin-1 byte in row 1",
        (
            f"{VERIFIED_HEADER}\n0,Q?,A,Art,Person,True,False,u\n".encode()
            + "1,Qui a gagné?,A,Art,Person,True,False,u\n".encode("latin-1")
        ),
        lambda path: Fails(f"{path}", ("UTF-8",)),
    ),
    verified_case(
        "1 MB field",
        "1 MB problem in row 0",
        f"{VERIFIED_HEADER}\n0,{ONE_MEGABYTE}?,A,Art,Person,True,False,u\n".encode(),
        lambda path: Loads([0], check_verified_big_problem),
    ),
]
