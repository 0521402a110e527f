"""Small real samples of each benchmark's data, shipped with the package (see README.md).

``bundled_sample=true`` on any task reads them instead of the Hub or a local
file, so a benchmark can be tried with no network and no download.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

from benchmarks.data.rows import DataFiles
from benchmarks.runtime.task_parameters import fail

DATA_SUFFIXES = (".jsonl", ".csv", ".parquet")


def bundled_data_files(task: str) -> dict[str, str]:
    """``{split: path}`` of the bundled sample of ``task``."""
    folder = Path(str(files("benchmarks.data.samples").joinpath(task)))
    return {
        path.stem: str(path) for path in sorted(folder.iterdir()) if path.suffix in DATA_SUFFIXES
    }


def data_files_for(
    task: str,
    bundled_sample: bool,
    dataset_path: str | None,
    data_files: DataFiles | None,
    *,
    splits: Iterable[str],
) -> DataFiles | None:
    """``data_files`` to load: the bundled sample's when asked for (it must hold
    ``splits``), else as given."""
    if dataset_path is not None and not isinstance(dataset_path, str):
        fail(task, f"dataset_path must be a path or a Hub id, got {dataset_path!r}.")
    if not (
        data_files is None
        or isinstance(data_files, (str, os.PathLike))
        or (
            isinstance(data_files, Mapping)
            and all(isinstance(v, (str, os.PathLike)) for v in data_files.values())
        )
    ):
        fail(task, f"data_files must be a file or a mapping split -> file, got {data_files!r}.")
    if not isinstance(bundled_sample, bool):
        fail(task, f"bundled_sample must be true or false, got {bundled_sample!r}.")
    if not bundled_sample:
        return data_files
    if dataset_path is not None or data_files is not None:
        fail(
            task,
            "bundled_sample=true reads the rows shipped with the package; "
            "drop dataset_path and data_files, or drop bundled_sample.",
        )
    bundled = bundled_data_files(task)
    missing = [split for split in splits if split not in bundled]
    if missing:
        fail(
            task,
            f"the bundled sample has the split(s) {', '.join(map(repr, bundled))} only, "
            f"not {', '.join(map(repr, missing))}.",
        )
    return bundled


def jsonl_records(path: str) -> list[dict[str, Any]]:
    """The rows of a bundled JSON Lines file (for the offline oracle)."""
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def parquet_records(path: str, columns: list[str] | None = None) -> list[dict[str, Any]]:
    """The rows of a bundled parquet file (for the offline oracle)."""
    import pyarrow.parquet as pq

    return pq.read_table(path, columns=columns).to_pylist()
