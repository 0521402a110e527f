"""ScienceQA's dataset: the pinned Hub dataset, the lazy dataset a task evaluates (built
from the rows the child process prepares, ``scienceqa_rows``: checked fields, verified
image files), a row as a sample, and the offline models' rules (the bundled questions
the oracle answers, the lettered option lines the random model picks from), and the
paper's columns a question counts in (kept in its metadata; scorers/scienceqa.py's metric
and benchmarks.compare read them)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ChatMessageUser, ContentImage, ContentText

from benchmarks.data.image_encoding import ImageDecodeError, ImageFormat
from benchmarks.data.lazy_dataset import LazyDataset
from benchmarks.data.records import option_letters
from benchmarks.data.samples import parquet_records
from benchmarks.data.scienceqa_shape import (
    DATASET_PATH,
    DATASET_REVISION,
    REQUIRED_COLUMNS,
    SCIENCEQA_SHAPE,
    PreparedDataset,
    checked_fields,
    grade_band,
    image_options,
    subset_rows,
)
from benchmarks.data.source import DataSource, HubDataset, rows_dataset
from benchmarks.spec import KnownQuestion

DATASET = HubDataset(
    DATASET_PATH,
    revision=DATASET_REVISION,
    pinned_by="apple/embedding-atlas (`packages/docs/examples/datasets.js`, with the sha256 "
    "of its train file, `62c90a28e3fb1bc0ad7bbcab1ac62b483ae6758291a655944d8f494bf6445745`)",
)
# An option line of either prompt format: "(A) ..." (default) or "A. ..." (lmms_eval)
LETTERED_LINE = re.compile(r"^(?:\(([A-Z])\)|([A-Z])[.)]) ", re.MULTILINE)


def scienceqa_dataset(
    source: DataSource,
    *,
    eval_split: str,
    subset: str,
    num_examples: int | None,
    image_format: ImageFormat,
    max_image_side: int | None,
) -> LazyDataset:
    """The lazy dataset of ``subset``'s rows of ``eval_split``, each a sample named
    ``scienceqa_<split>_<row>`` with its image file from the verified cache."""
    rows = PreparedDataset(
        source.request(
            eval_split,
            columns=REQUIRED_COLUMNS,
            shape=SCIENCEQA_SHAPE,
            options=image_options(image_format, max_image_side),
        )
    )
    return rows_dataset(
        rows,
        lambda row, record: record_to_sample(record, f"{eval_split}_{row}", rows.image_file(row)),
        name=f"scienceqa_{eval_split}" + ("" if subset == "all" else f"_{subset}"),
        num_examples=num_examples,
        indices=subset_rows(rows, subset),
    )


def oracle_questions(files: Mapping[str, str]) -> list[KnownQuestion]:
    """The bundled questions: known by the question, its choices and its hint; answered
    with the letter."""
    records = parquet_records(files["test"], columns=["question", "choices", "answer", "hint"])
    return [
        KnownQuestion(
            (r["question"], *r["choices"], r["hint"] or ""), option_letters(26)[r["answer"]]
        )
        for r in records
    ]


def offered_letters(prompt: str) -> list[str]:
    """The letters of the prompt's option lines (none: another kind of prompt)."""
    return [a or b for a, b in LETTERED_LINE.findall(prompt)]


def record_to_sample(
    record: dict[str, Any],
    sample_id: str,
    image_file: Callable[[], Path | None] = lambda: None,
) -> Sample:
    """One ScienceQA row as a sample: the question, after the image when the row has one;
    the choices; the hint in the metadata, for ``scienceqa_prompt`` to lay out, and the
    paper's columns the question counts in (``paper_columns``).

    ``image_file`` gives the row's file in the verified image cache, holding the
    exact bytes sent: Inspect reads it into the same data URI when the sample
    starts, while the dataset holds a path (``image_cache.cached_source_image``).
    """
    fields = checked_fields(record)
    choices, hint = fields["choices"], fields["hint"]
    try:
        image = image_file()
    except ImageDecodeError as ex:
        raise ImageDecodeError(f"field 'image': {ex}") from ex
    question = fields["question"]
    sample_input: str | list[ChatMessage] = question
    if image is not None:
        sample_input = [
            ChatMessageUser(content=[ContentImage(image=str(image)), ContentText(text=question)])
        ]
    return Sample(
        id=sample_id,
        input=sample_input,
        choices=choices,
        target=option_letters(len(choices))[fields["answer"]],
        metadata={
            "hint": hint,
            "has_image": image is not None,
            "has_hint": bool(hint),
            "subject": fields["subject"],
            "grade": fields["grade"],
            "topic": fields["topic"],
            "category": fields["category"],
            "skill": fields["skill"],
            **paper_columns(fields["subject"], bool(hint), image is not None, fields["grade"]),
        },
    )


# The dataset's subject -> the paper's column.
SUBJECT_COLUMNS = {"natural science": "NAT", "social science": "SOC", "language science": "LAN"}
# Sample metadata field -> the paper's columns it holds, in the paper's order. A field
# holds one column, or for the context the list of those the question counts in.
BREAKDOWNS = {
    "paper_subject": ("NAT", "SOC", "LAN"),
    "paper_context": ("TXT", "IMG", "NO"),
    "paper_grade": ("G1-6", "G7-12"),
}
PAPER_COLUMNS = tuple(column for columns in BREAKDOWNS.values() for column in columns)


def paper_columns(
    subject: str, has_hint: bool, has_image: bool, grade: str
) -> dict[str, str | list[str] | None]:
    """The sample metadata naming the paper's columns a question counts in (its
    ``BREAKDOWNS`` fields): ``paper_subject`` (None for a subject outside the three),
    ``paper_context`` (``["TXT", "IMG"]`` with a hint and an image), ``paper_grade``."""
    context = [name for name, has in (("TXT", has_hint), ("IMG", has_image)) if has]
    return {
        "paper_subject": SUBJECT_COLUMNS.get(subject),
        "paper_context": context or ["NO"],
        "paper_grade": grade_band(grade),
    }


def paper_columns_of_former_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The metadata of a sample of task version 1.2.0 or earlier, which held ``subject``,
    ``has_hint``, ``has_image`` and ``grade`` but not the paper's columns, with them added."""
    return {
        **metadata,
        **paper_columns(
            str(metadata.get("subject")),
            bool(metadata.get("has_hint")),
            bool(metadata.get("has_image")),
            str(metadata.get("grade")),
        ),
    }
