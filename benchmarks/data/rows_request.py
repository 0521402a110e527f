"""One split to read, as the eval process asks the rows child for it (JSON), and what both
sides agree on: the keys a rows file adds to a record, the layout's version, the user errors
the child hands back."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.data.image_cache import ImageCacheError
from benchmarks.data.split_reader import DataFiles, local_data_file
from benchmarks.runtime.errors import DataError, DataUnavailableError, UserInputError

# Bumped when what a rows file holds changes; part of every file's key.
ROWS_VERSION = 4

# Keys the rows file adds to a record (no dataset column is named so).
ROW_ERROR = "__row_error__"
ROW_HASH = "__row_hash__"


class RowsCacheError(UserInputError):
    """The rows file could not be written."""


# Exceptions of the child that are the user's to fix, re-raised as they are.
USER_ERRORS: dict[str, type[Exception]] = {
    "DataError": DataError,
    "DataUnavailableError": DataUnavailableError,
    "ImageCacheError": ImageCacheError,
    "RowsCacheError": RowsCacheError,
}


@dataclass(frozen=True)
class RowsRequest:
    """One split to read, and how (JSON, for the child).

    Attributes:
        benchmark: Name in messages (``TriviaQA``).
        hub_path: The Hub dataset read when no local data is given.
        revision: Its pinned revision.
        config: Hub config (ignored for local files).
        split: The split.
        dataset_path, data_files: Local data, as the task was given it.
        columns: Columns every row must have, written in this order.
        single_file_split: The split a lone local file stands for.
        shape: How records are shaped: ``plain`` (the columns' values) or a
            benchmark's (``scienceqa``: images into the image cache).
        options: The shape's options (image format, ...).
        row_hash: Also write a hash of each whole row (every column), for
            lm-evaluation-harness's "equal to the evaluated document" rule.
        layout: ``records`` (a JSON object per row) or ``columns`` (a JSON array
            per field: how ``prepared_columns`` reads a few-shot pool).
    """

    benchmark: str
    hub_path: str
    revision: str | None
    config: str | None
    split: str
    dataset_path: str | None
    data_files: str | dict[str, str] | None
    columns: tuple[str, ...]
    single_file_split: str | None = None
    shape: str = "plain"
    options: dict[str, Any] = field(default_factory=dict)
    row_hash: bool = False
    layout: str = "records"

    @classmethod
    def make(cls, *, data_files: DataFiles | None, **fields: Any) -> RowsRequest:
        return cls(data_files=_json_data_files(data_files), **fields)

    def local_file(self) -> Path | None:
        return local_data_file(
            self.benchmark, self.split, self.dataset_path, self.data_files, self.single_file_split
        )


def _json_data_files(data_files: DataFiles | None) -> str | dict[str, str] | None:
    if data_files is None:
        return None
    if isinstance(data_files, (str, os.PathLike)):
        return os.fspath(data_files)
    return {split: os.fspath(path) for split, path in data_files.items()}
