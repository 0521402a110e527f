"""ScienceQA's dataset: the pinned Hub dataset, the lazy dataset a task evaluates (built
from the rows the child process prepares, ``scienceqa_rows``: checked fields, verified
image files), and the bundled questions the offline oracle answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Sample

from benchmarks.data.images import ImageFormat
from benchmarks.data.lazy_dataset import LazyDataset
from benchmarks.data.samples import parquet_records
from benchmarks.data.scienceqa_shape import (
    DATASET_PATH,
    DATASET_REVISION,
    REQUIRED_COLUMNS,
    SCIENCEQA_SHAPE,
    PreparedDataset,
    image_options,
    subset_rows,
)
from benchmarks.data.source import DataSource, HubDataset, rows_dataset
from benchmarks.solvers.mcq import option_letters
from benchmarks.spec import KnownQuestion

DATASET = HubDataset(
    DATASET_PATH,
    revision=DATASET_REVISION,
    pinned_by="apple/embedding-atlas (docs/examples/datasets.js: its train file and sha256)",
)

# ``record_to_sample(record, sample_id, image_file)`` of the task module.
RecordToSample = Callable[[dict[str, Any], str, Callable[[], Path | None]], Sample]


def scienceqa_dataset(
    source: DataSource,
    record_to_sample: RecordToSample,
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
