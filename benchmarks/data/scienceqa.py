"""ScienceQA's dataset: the pinned Hub dataset, the dataset a task evaluates (each row's
fields checked and its image put into the image cache as the split is read), a row as a
sample, the offline models' rules (the bundled questions the oracle answers, the lettered
option lines the random model picks from), and the paper's columns a question counts in
(kept in its metadata; scorers/scienceqa.py's metric and benchmarks.compare read them)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageUser, ContentImage, ContentText

from benchmarks.data.image_cache import cached_image_file, image_bytes
from benchmarks.data.image_encoding import ImageDecodeError, ImageFormat
from benchmarks.data.records import field, option_letters, string_list
from benchmarks.data.rows import ROW_ERROR, local_data_file, local_path, local_records
from benchmarks.data.source import DataSource, HubDataset, samples_dataset
from benchmarks.runtime.errors import DataError
from benchmarks.spec import KnownQuestion

DATASET_PATH = "derek-thomas/ScienceQA"
REQUIRED_COLUMNS = (
    "image",
    "question",
    "choices",
    "answer",
    "hint",
    "grade",
    "subject",
    "topic",
    "category",
    "skill",
)
_GRADE = re.compile(r"grade(\d{1,2})")
DATASET = HubDataset(
    DATASET_PATH,
    # the parquet layout (apple/embedding-atlas pins it and checks its train file's sha256)
    revision="f18b0a70359ebfb41f658fd564208d0355b013f4",
    pinned_by="apple/embedding-atlas (`packages/docs/examples/datasets.js`, with the sha256 "
    "of its train file, `62c90a28e3fb1bc0ad7bbcab1ac62b483ae6758291a655944d8f494bf6445745`)",
)
# An option line of either prompt format: "(A) ..." (default) or "A. ..." (lmms_eval), in a
# prompt that ends as both do ("... letter from the given choices.")
LETTERED_LINE = re.compile(r"^(?:\(([A-Z])\)|([A-Z])[.)]) ", re.MULTILINE)
INSTRUCTION = "letter from the given choices"


def scienceqa_dataset(
    source: DataSource,
    *,
    eval_split: str,
    subset: str,
    num_examples: int | None,
    image_format: ImageFormat,
    max_image_side: int | None,
) -> MemoryDataset:
    """The dataset of ``subset``'s rows of ``eval_split``, each a sample named
    ``<split>_<row>`` with its image file from the image cache."""
    folder = image_folder(source, eval_split)

    def with_image_file(values: dict[str, Any]) -> dict[str, Any]:
        """The row without its image bytes: whether it has one, and its cache file (an
        ``ImageCacheError``, the cache's and not the row's, stops the run)."""
        image = values.pop("image")
        data, file = image_bytes(image, folder), None
        try:
            if data is not None:
                file = cached_image_file(data, image_format=image_format, max_side=max_image_side)
        except ImageDecodeError as ex:
            raise ValueError(f"field 'image': {ex}") from ex
        return {**values, "has_image": data is not None, "image_file": file and str(file)}

    rows = source.rows(eval_split, columns=REQUIRED_COLUMNS, shape=with_image_file)
    indices = None
    if subset != "all":
        # a row that could not be read is in either subset: its error names it when built
        wanted = subset == "image"
        indices = [
            row
            for row, record in enumerate(rows.records)
            if record.get("has_image") == wanted or ROW_ERROR in record
        ]
        if not indices:
            raise DataError(f"{rows.where}: no rows in subset {subset!r}.")
    return samples_dataset(
        rows,
        lambda row, record: record_to_sample(record, f"{eval_split}_{row}", record["image_file"]),
        name=f"scienceqa_{eval_split}" + ("" if subset == "all" else f"_{subset}"),
        num_examples=num_examples,
        indices=indices,
    )


def image_folder(source: DataSource, split: str) -> Path | None:
    """The folder that relative image paths of local data files are relative to."""
    file = local_data_file("ScienceQA", split, source.dataset_path, source.data_files)
    if file is not None:
        return file.parent
    if source.dataset_path is not None and local_path(source.dataset_path).is_dir():
        return local_path(source.dataset_path)
    return None


def oracle_questions(files: Mapping[str, str]) -> list[KnownQuestion]:
    """The bundled questions: known by the question, its choices and its hint; answered
    with the letter."""
    return [
        KnownQuestion(
            (r["question"], *r["choices"], r["hint"] or ""), option_letters(26)[r["answer"]]
        )
        for _, r in local_records(Path(files["test"]))
    ]


def offered_letters(prompt: str) -> list[str]:
    """The letters of the prompt's option lines (none: another kind of prompt)."""
    if INSTRUCTION not in prompt.replace("option's letter", "option letter"):
        return []
    return [a or b for a, b in LETTERED_LINE.findall(prompt)]


def record_to_sample(record: dict[str, Any], sample_id: str, image: str | None = None) -> Sample:
    """One ScienceQA row as a sample: the question, after the image when the row has one;
    the choices; the hint in the metadata, for ``scienceqa_prompt`` to lay out, and the
    paper's columns the question counts in (``paper_columns``).

    ``image`` is the row's file in the image cache, holding the exact bytes sent: Inspect
    reads it into the same data URI when the sample starts, while the dataset holds a path.
    """
    question = field(record, "question", str)
    choices = string_list(record, "choices")
    if len(choices) > 26:
        raise ValueError(f"field 'choices' has {len(choices)} options; at most 26 can be lettered")
    answer = field(record, "answer", int)
    if not 0 <= answer < len(choices):
        raise ValueError(
            f"field 'answer' is {answer}, not an index of the {len(choices)} choices "
            f"(0 to {len(choices) - 1})"
        )
    hint = record.get("hint")
    hint = "" if hint is None else hint
    if not isinstance(hint, str):
        raise TypeError(f"field 'hint' should be str, got {type(hint).__name__} {hint!r:.60}")
    grade = field(record, "grade", str)
    subject = field(record, "subject", str)
    columns = paper_columns(subject, bool(hint), image is not None, grade)
    sample_input: str | list[ChatMessage] = question
    if image is not None:
        sample_input = [
            ChatMessageUser(content=[ContentImage(image=str(image)), ContentText(text=question)])
        ]
    return Sample(
        id=sample_id,
        input=sample_input,
        choices=choices,
        target=option_letters(len(choices))[answer],
        metadata={
            "hint": hint,
            "has_image": image is not None,
            "has_hint": bool(hint),
            "subject": subject,
            "grade": grade,
            **{name: field(record, name, str) for name in ("topic", "category", "skill")},
            **columns,
        },
    )


def grade_band(grade: str) -> str:
    """``G1-6`` or ``G7-12``, the paper's grade columns, for ``grade1`` ... ``grade12``."""
    matched = _GRADE.fullmatch(grade)
    number = int(matched.group(1)) if matched else 0
    if not 1 <= number <= 12:
        raise ValueError(f"field 'grade' should be 'grade1' to 'grade12', got {grade!r:.60}")
    return "G1-6" if number <= 6 else "G7-12"


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
