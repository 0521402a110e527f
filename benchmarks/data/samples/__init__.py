"""Small real samples of each benchmark's data, shipped with the package (see README.md).

``bundled_sample=true`` on any task reads them instead of the Hub or a local
file, so a benchmark can be tried with no network and no download.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path

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
