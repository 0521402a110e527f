"""WinoGrande's pins for the generic conformance tests (tests/conformance_pins.py
says what each pins)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from tests.bad_inputs import (
    FIXTURES,
    Fails,
    Loads,
    file_case,
    read_jsonl,
    truncated_copy,
    write_jsonl,
    write_rows_parquet,
    write_text,
)

FIRST_SAMPLE = (
    "validation_0",
    "Here are some examples of how to answer similar questions:\n\nThe computer of Vict",
)

RANDOM_RIGHT = (22, 40)

EXPLANATION = r"read ([AB]) \(rule answer_marker\); target \1"

# What its scorer says of a no-reply output after "the model gave no reply (...); "
# (tests/test_no_reply.py): the reference rule applied to the text it holds.
NO_REPLY_EXPLANATION = r"no answer parsed; target [AB]"

BAD_INPUTS_COVERED_ELSEWHERE = {
    "missing column": "test_winogrande.py::test_missing_and_renamed_columns",
    "renamed column": "test_winogrande.py::test_missing_and_renamed_columns",
    "wrong type": "test_winogrande.py::test_integer_answers_are_refused",
    "empty choices": "test_winogrande.py::test_bad_row_names_file_row_and_field",
    "answer index out of range": "test_winogrande.py::test_bad_row_names_file_row_and_field",
    "empty file": "test_winogrande.py::test_empty_file",
    "non-UTF-8 bytes": "test_winogrande.py::test_undecodable_bytes_name_file_and_line",
    "1 MB field": "test_winogrande.py::test_a_one_megabyte_sentence_is_kept_whole",
}

BAD_INPUTS_NOT_APPLICABLE = {
    "empty alias list": "two options and a '1'/'2' answer, no aliases",
    "corrupt image bytes": "text only",
}


# --- Bad inputs (tests/test_bad_inputs.py): malformed files made from the fixtures --------

WINOGRANDE_VALIDATION = FIXTURES / "winogrande" / "validation.jsonl"


def winogrande_rows() -> list[dict[str, Any]]:
    return read_jsonl(WINOGRANDE_VALIDATION)


winogrande_case = partial(file_case, "winogrande")


def winogrande_row_changed(row: int, name: str, value: Any) -> Callable[[Path], Path]:
    def write(tmp: Path) -> Path:
        rows = winogrande_rows()
        rows[row][name] = value
        return write_jsonl(tmp / "v.jsonl", rows)

    return write


def winogrande_ids(count: int) -> list[str]:
    return [f"validation_{row}" for row in range(count)]


def check_repeated_winogrande_row(samples: list[Sample]) -> None:
    assert (samples[5].input, samples[5].target) == (samples[0].input, samples[0].target)


def check_csv_targets(samples: list[Sample]) -> None:
    assert [s.target for s in samples] == ["A", "B"]


WINOGRANDE_CSV = (
    "sentence,option1,option2,answer\n"
    "Ann beat Bo so _ won.,Ann,Bo,1\n"
    "Ann beat Bo so _ lost.,Ann,Bo,2\n"
)

BAD_INPUTS = [
    winogrande_case(
        "wrong type",
        "answer a number in jsonl row 1 only",
        winogrande_row_changed(1, "answer", 2),
        lambda path: Fails(f"{path}", ("line 2", "'answer'")),
    ),
    winogrande_case(
        "wrong type",
        "option1 a list in jsonl row 1",
        winogrande_row_changed(1, "option1", ["Sarah", "Maria"]),
        lambda path: Fails(f"{path}", ("line 2", "'option1'")),
    ),
    winogrande_case(
        "wrong type",
        "csv in the upstream schema (answers read as numbers)",
        lambda tmp: write_text(tmp / "v.csv", WINOGRANDE_CSV),
        lambda path: Loads(winogrande_ids(2), check_csv_targets),
    ),
    winogrande_case(
        "empty file",
        "csv with a header and no rows",
        lambda tmp: write_text(tmp / "v.csv", "sentence,option1,option2,answer\n"),
        lambda path: Fails(f"{path}: the file holds no rows."),
    ),
    winogrande_case(
        "truncated file",
        "parquet cut in half",
        lambda tmp: truncated_copy(
            write_rows_parquet(tmp / "good.parquet", winogrande_rows()), tmp / "v.parquet"
        ),
        lambda path: Fails(f"{path}: could not be read as parquet: ArrowInvalid: "),
    ),
    winogrande_case(
        "duplicate ids",
        "a repeated row is a sample of its own (ids are row positions)",
        lambda tmp: write_jsonl(tmp / "v.jsonl", [*winogrande_rows(), winogrande_rows()[0]]),
        lambda path: Loads(winogrande_ids(6), check_repeated_winogrande_row),
    ),
]

# Task parameters of Winogrande's own that are refused before any model call: (-T, message).
INVALID_TASK_ARGS = [
    ({"dataset_config": "xl"}, "winogrande: unknown dataset_config 'xl'"),
]
