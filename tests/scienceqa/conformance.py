"""ScienceQA's pins for the generic conformance tests (tests/conformance_pins.py
says what each pins)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage

from tests.bad_inputs import (
    FIXTURES,
    ONE_MEGABYTE,
    Fails,
    Loads,
    empty_file,
    file_case,
    renamed_parquet,
    replaced_column,
    truncated_copy,
    with_latin1_line,
    write_jsonl,
)

FIRST_SAMPLE = ("test_0", "Question: Which figure of speech is used in this text?")

RANDOM_RIGHT = (10, 20)

EXPLANATION = r"read ([A-E]) \(rule \w+\); target \1"

# What its scorer says of a no-reply output after "the model gave no reply (...); "
# (tests/test_no_reply.py): the reference rule applied to the text it holds.
NO_REPLY_EXPLANATION = r"no answer parsed; target [A-E]"

BAD_INPUTS_COVERED_ELSEWHERE = {
    "missing column": "test_scienceqa.py::test_missing_column",
    "wrong type": "test_scienceqa.py::test_answer_as_string_is_a_type_error",
    "empty choices": "test_scienceqa.py::test_bad_rows_name_row_and_field",
    "answer index out of range": "test_scienceqa.py::test_bad_rows_name_row_and_field",
    "corrupt image bytes": "test_scienceqa.py::test_corrupt_image_is_an_error_naming_the_row",
}

BAD_INPUTS_NOT_APPLICABLE = {
    "empty alias list": "answers are choice indices, no aliases",
}


# --- Bad inputs (tests/test_bad_inputs.py): malformed files made from the fixtures --------

SCIENCEQA_PARQUET = FIXTURES / "scienceqa" / "test_rows.hf.parquet"
SCIENCEQA_IDS = [f"test_{row}" for row in range(10)]


def scienceqa_records() -> list[dict[str, Any]]:
    return pq.read_table(SCIENCEQA_PARQUET).to_pylist()


def scienceqa_features() -> datasets.Features:
    return datasets.load_dataset(
        "parquet", data_files=str(SCIENCEQA_PARQUET), split="train"
    ).features


def write_scienceqa_parquet(path: Path, records: list[dict[str, Any]]) -> Path:
    datasets.Dataset.from_list(records, features=scienceqa_features()).to_parquet(str(path))
    return path


def scienceqa_text_rows() -> list[dict[str, Any]]:
    """The first three fixture rows as JSON-ready records without images."""
    return [{**record, "image": None} for record in scienceqa_records()[:3]]


scienceqa_case = partial(file_case, "scienceqa")


def scienceqa_with(row: int, **changes: Any) -> Callable[[Path], Path]:
    def write(tmp: Path) -> Path:
        records = scienceqa_records()
        records[row].update(changes)
        return write_scienceqa_parquet(tmp / "t.parquet", records)

    return write


def check_scienceqa_big_question(samples: list[Sample]) -> None:
    assert samples[1].input == ONE_MEGABYTE  # the question, whole


def check_repeated_scienceqa_row(samples: list[Sample]) -> None:
    first, repeat = samples[0].input, samples[9].input
    assert not isinstance(first, str) and not isinstance(repeat, str)

    def sent(messages: list[ChatMessage]) -> list[dict[str, Any]]:
        # image parts name cache files (one per row): compare the bytes they hold
        dumped = [m.model_dump(exclude={"id"}) for m in messages]
        for message in dumped:
            for part in message["content"]:
                if part["type"] == "image":
                    part["image"] = Path(part["image"]).read_bytes()
        return dumped

    assert sent(repeat) == sent(first)
    assert repeat is not first and samples[9].target == samples[0].target


BAD_INPUTS = [
    scienceqa_case(
        "renamed column",
        "parquet column 'answer' renamed 'label'",
        lambda tmp: renamed_parquet(SCIENCEQA_PARQUET, tmp / "t.parquet", "answer", "label"),
        lambda path: Fails(f"{path} (test split): missing column(s) 'answer'; found 'image', "),
    ),
    scienceqa_case(
        "wrong type",
        "answer a string column in parquet",
        lambda tmp: replaced_column(
            SCIENCEQA_PARQUET,
            tmp / "t.parquet",
            "answer",
            pa.array([str(r["answer"]) for r in scienceqa_records()]),
        ),
        lambda path: Fails(
            f"{path} (test split), row 1: field 'answer' should be int, got str '1'"
        ),
    ),
    scienceqa_case(
        "wrong type",
        "answer a string in jsonl row 1 only",
        lambda tmp: write_jsonl(
            tmp / "t.jsonl",
            [r if i != 1 else {**r, "answer": "0"} for i, r in enumerate(scienceqa_text_rows())],
        ),
        lambda path: Fails(f"{path}", ("line 2", "'answer'")),
    ),
    scienceqa_case(
        "wrong type",
        "image column of integers, subset=image",
        lambda tmp: replaced_column(
            SCIENCEQA_PARQUET, tmp / "t.parquet", "image", pa.array(range(9), pa.int64())
        ),
        lambda path: Fails(
            f"{path} (test split), row 1: field 'image' should be an image (bytes and path), "
            "a path or null, got int 0"
        ),
        subset="image",
    ),
    scienceqa_case(
        "empty file",
        "0-byte parquet",
        lambda tmp: empty_file(tmp / "t.parquet"),
        lambda path: Fails(f"{path}: the file is empty."),
    ),
    scienceqa_case(
        "truncated file",
        "parquet cut in half",
        lambda tmp: truncated_copy(SCIENCEQA_PARQUET, tmp / "t.parquet"),
        lambda path: Fails(
            f"{path}: could not be read as parquet: ArrowInvalid: Parquet magic bytes not "
            "found in footer."
        ),
    ),
    scienceqa_case(
        "non-UTF-8 bytes",
        "Latin-1 byte on line 2 of jsonl",
        lambda tmp: with_latin1_line(scienceqa_text_rows(), 2, "question", tmp / "t.jsonl"),
        lambda path: Fails(
            f"{path}: line 2 is not valid UTF-8 (invalid continuation byte); re-encode the "
            "file as UTF-8."
        ),
    ),
    scienceqa_case(
        "1 MB field",
        "1 MB question in row 1",
        scienceqa_with(1, question=ONE_MEGABYTE),
        lambda path: Loads(SCIENCEQA_IDS[:9], check_scienceqa_big_question),
    ),
    scienceqa_case(
        "duplicate ids",
        "a repeated row is a sample of its own (ids are row positions)",
        lambda tmp: write_scienceqa_parquet(
            tmp / "t.parquet", [*scienceqa_records(), scienceqa_records()[0]]
        ),
        lambda path: Loads(SCIENCEQA_IDS[:10], check_repeated_scienceqa_row),
    ),
]

# Task parameters of ScienceQA's own that are refused before any model call: (-T, message).
INVALID_TASK_ARGS = [
    ({"eval_split": "dev"}, "scienceqa: unknown eval_split 'dev'"),
]
