"""TriviaQA's pins for the generic conformance tests (tests/conformance_pins.py
says what each pins)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from tests.bad_inputs import (
    FIXTURES,
    ONE_MEGABYTE,
    Case,
    Expected,
    Fails,
    Loads,
    empty_file,
    file_case,
    read_jsonl,
    renamed_parquet,
    set_path,
    truncated_copy,
    with_latin1_line,
    write_jsonl,
    write_rows_parquet,
    write_text,
)

FIRST_SAMPLE = ("tc_33", "Question: What is the star sign of the date of the Battle of Waterloo?")

RANDOM_RIGHT = (0, 30)

# What its scorer says of a no-reply output after "the model gave no reply (...); "
# (tests/test_no_reply.py): the reference rule applied to the text it holds.
EXPLANATION = r"normalized answer: '([^']+)'; matched alias '\1'"

NO_REPLY_EXPLANATION = (
    r"normalized answer: 'this model s maximum context length is 4096 tokens'; no alias matched"
)

BAD_INPUTS_COVERED_ELSEWHERE = {
    "missing column": "test_triviaqa.py::test_a_missing_column_names_the_file",
    "empty alias list": "test_triviaqa.py::test_a_bad_row_names_file_row_and_field",
}

BAD_INPUTS_NOT_APPLICABLE = {
    "empty choices": "open question answering: no choices",
    "answer index out of range": "answers are alias lists, not indices",
    "corrupt image bytes": "text only",
}


# --- Bad inputs (tests/test_bad_inputs.py): malformed files made from the fixtures --------

TRIVIAQA_VALIDATION = FIXTURES / "triviaqa" / "validation.jsonl"
TRIVIAQA_TRAIN = FIXTURES / "triviaqa" / "train.jsonl"
TRIVIAQA_PARQUET = FIXTURES / "triviaqa" / "validation.parquet"


def triviaqa_rows() -> list[dict[str, Any]]:
    return read_jsonl(TRIVIAQA_VALIDATION)


TRIVIAQA_IDS = [row["question_id"] for row in triviaqa_rows()]


triviaqa_case = partial(file_case, "triviaqa", shots=0)


def triviaqa_row_changed(name: str, row: int, change: Callable[[dict[str, Any]], None]) -> Any:
    def write(tmp: Path) -> Path:
        rows = triviaqa_rows()
        change(rows[row])
        return write_jsonl(tmp / name, rows)

    return write


def triviaqa_fewshot_case(
    kind: str,
    name: str,
    change_train: Callable[[list[dict[str, Any]]], list[dict[str, Any]]],
    expected: Callable[[Path], Expected],
) -> Case:
    def make(tmp: Path) -> tuple[dict[str, Any], Expected]:
        train = write_jsonl(tmp / "train.jsonl", change_train(read_jsonl(TRIVIAQA_TRAIN)))
        files = {"validation": str(TRIVIAQA_VALIDATION), "train": str(train)}
        return {"data_files": files}, expected(train)

    return Case("triviaqa", kind, name, make)


def without_answer_value(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for row in rows:
        del row["answer"]["value"]
    return rows


def check_triviaqa_big_question(samples: list[Sample]) -> None:
    assert samples[1].input == f"{ONE_MEGABYTE}?"  # the question, whole


BAD_INPUTS = [
    triviaqa_case(
        "renamed column",
        "parquet column 'question' renamed 'query'",
        lambda tmp: renamed_parquet(TRIVIAQA_PARQUET, tmp / "v.parquet", "question", "query"),
        lambda path: Fails(f"{path} (validation split): missing column(s) 'question'; found "),
    ),
    triviaqa_fewshot_case(
        "missing column",
        "train rows without answer.value",
        without_answer_value,
        lambda path: Fails(f"{path} (train split)", ("'answer.value'",)),
    ),
    triviaqa_fewshot_case(
        "missing column",
        "train rows with a null answer.value",
        lambda rows: [{**row, "answer": {**row["answer"], "value": None}} for row in rows],
        lambda path: Fails(f"{path} (train split), line ", ("field 'answer.value' is missing",)),
    ),
    triviaqa_case(
        "wrong type",
        "aliases a string in every parquet row",
        lambda tmp: write_rows_parquet(
            tmp / "v.parquet",
            [
                {**row, "answer": {**row["answer"], "aliases": row["answer"]["aliases"][0]}}
                for row in triviaqa_rows()
            ],
        ),
        lambda path: Fails(
            f"{path} (validation split), row 1: field 'answer.aliases' should be a list of "
            "strings, got 'Sunset Blvd'"
        ),
    ),
    triviaqa_case(
        "wrong type",
        "aliases a string in jsonl row 1",
        triviaqa_row_changed("v.jsonl", 1, lambda r: set_path(r, "answer.aliases", "Onion")),
        lambda path: Fails(f"{path}", ("line 2", "'answer.aliases'")),
    ),
    triviaqa_case(
        "wrong type",
        "question_id a number in jsonl row 1",
        triviaqa_row_changed("v.jsonl", 1, lambda r: set_path(r, "question_id", 7)),
        lambda path: Fails(f"{path}", ("line 2", "'question_id'")),
    ),
    triviaqa_case(
        "empty file",
        "0-byte parquet",
        lambda tmp: empty_file(tmp / "v.parquet"),
        lambda path: Fails(f"{path}: the file is empty."),
    ),
    triviaqa_case(
        "empty file",
        "jsonl of blank lines",
        lambda tmp: write_text(tmp / "v.jsonl", "\n\n\n"),
        lambda path: Fails(f"{path}: the file holds no rows."),
    ),
    triviaqa_case(
        "truncated file",
        "parquet cut in half",
        lambda tmp: truncated_copy(TRIVIAQA_PARQUET, tmp / "v.parquet"),
        lambda path: Fails(
            f"{path}: could not be read as parquet: ArrowInvalid: Parquet magic bytes not "
            "found in footer."
        ),
    ),
    triviaqa_case(
        "truncated file",
        "jsonl whose last line is cut",
        lambda tmp: write_text(tmp / "v.jsonl", TRIVIAQA_VALIDATION.read_bytes()[:-100]),
        lambda path: Fails(f"{path}", ("line 5", "not valid JSON")),
    ),
    triviaqa_case(
        "non-UTF-8 bytes",
        "Latin-1 byte on line 3",
        lambda tmp: with_latin1_line(triviaqa_rows(), 3, "question", tmp / "v.jsonl"),
        lambda path: Fails(
            f"{path}: line 3 is not valid UTF-8 (invalid continuation byte); re-encode the "
            "file as UTF-8."
        ),
    ),
    triviaqa_case(
        "1 MB field",
        "1 MB question in row 1",
        triviaqa_row_changed("v.jsonl", 1, lambda r: set_path(r, "question", ONE_MEGABYTE + "?")),
        lambda path: Loads(TRIVIAQA_IDS, check_triviaqa_big_question),
    ),
    triviaqa_case(
        "duplicate ids",
        "row 1 repeats the question_id of row 0",
        triviaqa_row_changed("v.jsonl", 1, lambda r: set_path(r, "question_id", "tc_33")),
        lambda path: Fails(
            f"{path} (validation split), line 2:", ("'question_id'", "'tc_33'", "repeats line 1")
        ),
    ),
    triviaqa_fewshot_case(
        "few-shot pool too small",
        "3 train rows for 5 shots",
        lambda rows: rows[:3],
        lambda path: Fails("", (f"{path} (train split)", "3 rows", "shots=5")),
    ),
]

# Task parameters of TriviaQA's own that are refused before any model call: (-T, message).
INVALID_TASK_ARGS = [
    (
        {"shots": "5"},
        "triviaqa: shots must be a non-negative integer or null (the profile's), got '5'.",
    ),
    ({"fewshot_seed": "1234"}, "triviaqa: fewshot_seed"),
    ({"include_evidence": "false"}, "triviaqa: include_evidence"),
]
