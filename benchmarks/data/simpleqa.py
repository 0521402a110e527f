"""SimpleQA's data: the upstream CSV of openai/simple-evals, or a local CSV/JSONL copy.

SimpleQA (Wei et al., 2024, https://cdn.openai.com/papers/simpleqa.pdf);
reference reader: ``pandas.read_csv`` in openai/simple-evals ``simpleqa_eval.py``
(commit ee3b0318d8d1d9d72755a4120879be65f7c07e9e). Every row is read and
checked before any model call; a ``metadata`` cell is parsed as a Python
literal, never evaluated. ``simpleqa_dataset`` turns the task's data parameters
into the dataset it evaluates.
"""

from __future__ import annotations

import ast
import logging
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from benchmarks.data import download
from benchmarks.data.records import field, field_problem
from benchmarks.data.rows import DataFiles, Rows, local_data_file, local_path, local_records
from benchmarks.data.samples import data_files_for
from benchmarks.data.source import announce_cut, samples_dataset
from benchmarks.runtime.errors import DataError
from benchmarks.runtime.task_parameters import fail

DATASET_URL = "https://openaipublic.blob.core.windows.net/simple-evals/simple_qa_test_set.csv"
DATASET_SHA256 = "feee3f7e7db3617e94e8fcf1977b756ec420ef8568f4e0fcbbe0e92e9d5fc032"
DATASET_FILENAME = "simple_qa_test_set.csv"
UNKNOWN_TOPIC = "unknown"
CSV_COLUMNS = ("metadata", "problem", "answer")

logger = logging.getLogger(__name__)
# A row's unreadable metadata is reported on the task's logger, where a user of
# the task looks for it (and filters it).
task_logger = logging.getLogger("benchmarks.simpleqa")


@dataclass(frozen=True)
class SimpleQAData:
    """The questions a task evaluates and the file they were read from."""

    dataset: MemoryDataset
    path: Path
    upstream: bool
    """Whether ``path`` is the upstream CSV (no dataset_path, data_files or bundled_sample)."""


def simpleqa_dataset(
    num_examples: int | None,
    draw: str,
    *,
    dataset_path: str | None,
    data_files: DataFiles | None,
    bundled_sample: bool,
) -> SimpleQAData:
    """Check the data parameters, read and check every row of the file, and make the
    dataset of the rows ``selected_rows`` picks (``draw``: the profile's)."""
    if dataset_path is not None and data_files is not None:
        fail("simpleqa", "pass either dataset_path or data_files, not both.")
    if isinstance(data_files, Mapping) and set(data_files) != {"test"}:
        fail(
            "simpleqa",
            "SimpleQA has one split, 'test': data_files must be a file or {'test': file}, "
            f"got the key(s) {', '.join(repr(k) for k in data_files)}.",
        )
    files = data_files_for("simpleqa", bundled_sample, dataset_path, data_files, splits=["test"])
    path = local_data_file("simpleqa", "test", dataset_path, files) or (
        local_path(dataset_path) if dataset_path is not None else official_dataset_file()
    )
    located = read_local_records(path)
    rows = Rows(str(path), [record for _, record in located], [line for line, _ in located])

    def build(row: int, record: dict[str, Any]) -> Sample:
        sample = record_to_sample(record)
        error = (sample.metadata or {}).get("metadata_error")
        if error is not None:
            task_logger.warning(
                f"SimpleQA {rows.at(row)}: field 'metadata' {error}; the raw value is kept "
                f"in the sample metadata as 'raw_metadata'; the question counts under "
                f"topic {(sample.metadata or {}).get('topic')!r}."
            )
        return sample

    dataset = samples_dataset(
        rows,
        build,
        name="simpleqa",
        num_examples=None,
        indices=selected_rows(num_examples, len(rows.records), draw, str(path)),
    )
    return SimpleQAData(dataset=dataset, path=path, upstream=files is None and dataset_path is None)


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One question; ``metadata`` is parsed as a literal, never evaluated (one that cannot
    be read: docs/simpleqa.md)."""
    details, error = parse_metadata(record.get("metadata"))
    topic = _first_string(record.get("topic"), details.get("topic"))
    answer_type = _first_string(record.get("answer_type"), details.get("answer_type"))
    urls = details.get("urls", [])
    if error is None and topic is None:
        error = "names no 'topic'"
    if error is None and not (isinstance(urls, list) and all(isinstance(u, str) for u in urls)):
        error = f"has 'urls' that are not a list of strings: {urls!r:.60}"
    metadata: dict[str, Any] = {
        "topic": topic if topic is not None else UNKNOWN_TOPIC,
        "answer_type": answer_type,
        "urls": urls if error is None else [],
    }
    if error is not None:
        metadata["metadata_error"] = error
        metadata["raw_metadata"] = record.get("metadata")
    return Sample(
        id=record["id"],
        input=record["problem"],
        target=record["answer"],
        metadata=metadata,
    )


def parse_metadata(raw: object) -> tuple[dict[str, Any], str | None]:
    """The metadata dict of a row and, when it cannot be read, why."""
    if raw is None:
        return {}, None
    if isinstance(raw, dict):
        return raw, None
    if not isinstance(raw, str):
        return {}, f"should be a dict or a Python-dict literal string, got {type(raw).__name__}"
    try:
        parsed = ast.literal_eval(raw)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as ex:
        reason = str(ex).splitlines()[0] if str(ex) else ""
        # ast names the offending node by its repr, memory address included
        reason = re.sub(r"<ast\.(\w+) object at 0x[0-9a-fA-F]+>", r"\1", reason)
        return {}, f"is not a Python-dict literal ({type(ex).__name__}: {reason}): {raw!r:.80}"
    if not isinstance(parsed, dict):
        return {}, f"is a {type(parsed).__name__} literal, not a dict: {raw!r:.80}"
    return parsed, None


def _first_string(*values: object) -> str | None:
    return next((value for value in values if isinstance(value, str)), None)


def read_local_records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """``(line, record)`` for every row of a local ``.csv`` or ``.jsonl`` file, read by
    ``data/rows.py``'s readers, its ``id``, ``problem`` and ``answer`` checked here, for every
    row, before any model call."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".jsonl"):
        raise DataError(f"{path}: unsupported file type {path.suffix!r}; use .csv or .jsonl.")
    rows = [(line or 0, record) for line, record in local_records(path)]
    if not rows:
        raise DataError(f"{path}: the file holds no rows.")
    missing = [column for column in CSV_COLUMNS if column not in rows[0][1]]
    if suffix == ".csv" and missing:
        raise DataError(
            f"{path}: missing column(s) {', '.join(repr(c) for c in missing)}; "
            f"found {', '.join(repr(c) for c in rows[0][1])}."
        )
    # ids are compared as logged: 1 and "1" are the same sample id
    first_line_of_id: dict[str, int] = {}
    for index, (line, record) in enumerate(rows):
        where = f"{path}, line {line}"
        if suffix == ".csv":
            for column in CSV_COLUMNS:
                if record[column] is None:
                    raise DataError(f"{where}: field {column!r} is missing (too few fields).")
        for name in ("problem", "answer"):
            try:
                if not field(record, name, str).strip():
                    raise DataError(f"{where}: field {name!r} is empty.")
            except (KeyError, TypeError) as ex:
                raise DataError(f"{where}: {field_problem(ex)}.") from None
        sample_id = record.get("id") if suffix == ".jsonl" else None
        if sample_id is None:
            sample_id = f"simpleqa_{index}"
        elif isinstance(sample_id, bool) or not isinstance(sample_id, (str, int)):
            raise DataError(
                f"{where}: field 'id' should be a string or an integer, got {sample_id!r:.60}."
            )
        elif str(sample_id) in first_line_of_id:
            raise DataError(
                f"{where}: field 'id' {sample_id!r} repeats the id of line "
                f"{first_line_of_id[str(sample_id)]}."
            )
        first_line_of_id[str(sample_id)] = line
        record["id"] = sample_id
    return rows


def download_dir() -> Path:
    """The folder the upstream CSV is downloaded to: ``simpleqa`` in the package's cache."""
    return download.cache_dir("simpleqa")


def official_dataset_file() -> Path:
    """The upstream CSV from the cache, downloaded and verified on first use."""
    return download.cached_verified_file(
        what="SimpleQA",
        url=DATASET_URL,
        destination=download_dir() / DATASET_FILENAME,
        sha256=DATASET_SHA256,
    )


def selected_rows(num_examples: int | None, available: int, draw: str, where: str) -> list[int]:
    """The rows to evaluate, in order: all, the first ``num_examples``, or simple-evals' draw.

    simple-evals draws ``random.Random(0).sample(examples, num_examples)``;
    ``sample`` picks positions from the population's length and the generator
    alone, so drawing from ``range(available)`` picks the same rows.
    """
    if num_examples is None:
        return list(range(available))
    if draw == "first":
        announce_cut(num_examples, available, where)
        return list(range(min(num_examples, available)))
    if num_examples > available:
        fail(
            "simpleqa",
            f"num_examples={num_examples} with profile simple_evals_ee3b031 draws without "
            f"replacement from the {available} rows of {where}, as simple-evals does; it can "
            f"draw at most {available}.",
        )
    logger.warning(
        f"num_examples={num_examples}: evaluating {num_examples} of the {available} rows of "
        f"{where}, drawn as simple-evals draws them (random.Random(0).sample)."
    )
    return random.Random(0).sample(range(available), num_examples)
