"""Where a benchmark's rows come from (``DataSource``, of the three data parameters every
task takes) and how they become Inspect's ``MemoryDataset`` (``samples_dataset``): see
docs/development.md ("How a benchmark is put together").
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from benchmarks.data.records import gc_paused
from benchmarks.data.rows import DataFiles, Rows, Shape, SplitRequest, read_split
from benchmarks.data.samples import data_files_for
from benchmarks.runtime.errors import DataError
from benchmarks.runtime.task_parameters import fail

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class HubDataset:
    """A benchmark's default data: a Hub dataset at a pinned commit (``revision`` None: none
    pinned, visibly), taken from the public source ``pinned_by`` (docs/development.md, "The
    dataset's revision, and running offline")."""

    path: str
    revision: str | None
    pinned_by: str | None = None


@dataclass(frozen=True)
class DataSource:
    """The rows of a task's splits, from the Hub, a snapshot folder, local files or the
    bundled sample."""

    task: str
    benchmark: str
    hub: HubDataset
    dataset_path: str | None
    data_files: DataFiles | None
    bundled_sample: bool

    @classmethod
    def of(cls, args: Any, benchmark: str, hub: HubDataset, splits: Sequence[str]) -> DataSource:
        """The source a task's checked arguments name (``dataset_path``, ``data_files``,
        ``bundled_sample``: the data parameters every task takes)."""
        if args.dataset_path is not None and not args.bundled_sample:
            refuse_a_missing_local_path(args.task_name, args.dataset_path)
        data_files = data_files_for(
            args.task_name, args.bundled_sample, args.dataset_path, args.data_files, splits=splits
        )
        # the default Hub id spelled out is the default: pinned, named in the log
        dataset_path = None if args.dataset_path == hub.path else args.dataset_path
        return cls(args.task_name, benchmark, hub, dataset_path, data_files, args.bundled_sample)

    def rows(
        self,
        split: str,
        *,
        columns: Sequence[str],
        config: str | None = None,
        single_file_split: str | None = None,
        shape: Shape | None = None,
        row_hash: bool = False,
    ) -> Rows:
        """One split's rows, each holding ``columns`` (as ``shape`` makes them; ``row_hash``
        adds a hash of the whole row)."""
        return read_split(
            SplitRequest(
                benchmark=self.benchmark,
                hub_path=self.hub.path,
                # the pinned commit is the default dataset's: another Hub id is read as it is
                revision=self.hub.revision if self.dataset_path is None else None,
                config=config,
                split=split,
                dataset_path=self.dataset_path,
                data_files=self.data_files,
                columns=columns,
                single_file_split=single_file_split,
                shape=shape,
                row_hash=row_hash,
            )
        )

    def dataset(
        self,
        split: str,
        record_to_sample: Callable[[dict[str, Any], str], Sample],
        *,
        columns: Sequence[str],
        num_examples: int | None,
    ) -> MemoryDataset:
        """The samples of one split, ``record_to_sample(record, "<split>_<row>")`` each, the
        first ``num_examples`` (a lone local file stands for this split)."""
        return samples_dataset(
            self.rows(split, columns=columns),
            lambda row, record: record_to_sample(record, f"{split}_{row}"),
            name=split,
            num_examples=num_examples,
        )

    def metadata(self) -> dict[str, Any]:
        """What the log's task metadata says of the data: the Hub dataset and its revision,
        or the local files."""
        if self.bundled_sample:
            # named inside the package: a shared log holds no path of this machine
            assert isinstance(self.data_files, dict)
            files = {
                split: f"{self.task}/{Path(path).name}" for split, path in self.data_files.items()
            }
            return {"data": "bundled sample", "data_files": files}
        if self.dataset_path is None and self.data_files is None:
            return {"dataset": self.hub.path, "revision": self.hub.revision}
        return {"dataset_path": self.dataset_path, "data_files": self.data_files}


def samples_dataset(
    rows: Rows,
    build: Callable[[int, dict[str, Any]], Sample],
    *,
    name: str,
    num_examples: int | None,
    indices: Sequence[int] | None = None,
    unique_field: str | None = None,
) -> MemoryDataset:
    """``build(row, record)`` for the rows ``indices`` (all by default), cut to the first
    ``num_examples`` (announced), as Inspect's ``MemoryDataset``; its field errors name the
    row (``Rows.built``). ``unique_field``: the record field the sample ids come from."""
    selected = range(len(rows)) if indices is None else indices
    announce_cut(num_examples, len(selected), rows.where)
    selected = selected[:num_examples] if num_examples is not None else selected
    if unique_field is not None:
        require_unique(rows, unique_field, selected)
    with gc_paused():
        samples = [rows.built(row, partial(build, row)) for row in selected]
    return MemoryDataset(samples, name=name, location=rows.where)


def require_unique(rows: Rows, field: str, evaluated: Sequence[int]) -> None:
    """Fail, naming both rows, when ``field`` repeats among the rows evaluated (sample
    ids come from it; 1 and "1" are the same id in a log)."""
    first_row: dict[str, int] = {}
    for row in evaluated:
        value = rows.records[row].get(field)
        if value is None:
            continue  # reported as a missing field when the row is built
        if str(value) in first_row:
            where = rows.at(first_row[str(value)]).removeprefix(f"{rows.where}, ")
            raise DataError(
                f"{rows.at(row)}: field {field!r} {value!r} repeats {where} (sample ids must "
                "be unique)."
            )
        first_row[str(value)] = row


def announce_cut(num_examples: int | None, available: int, where: str) -> None:
    """Say, once per task, that ``num_examples`` leaves rows out (never a silent cut)."""
    if num_examples is not None and num_examples < available:
        logger.warning(
            f"num_examples={num_examples}: evaluating the first {num_examples} of the "
            f"{available} rows of {where}."
        )


# The suffixes of the data files a dataset_path may name (a Hub id has none of them).
DATA_FILE_SUFFIXES = frozenset({".jsonl", ".json", ".csv", ".parquet", ".arrow", ".tsv"})


def refuse_a_missing_local_path(task: str, dataset_path: str) -> None:
    """Refuse a ``dataset_path`` meant as a local file or folder (absolute, relative with
    ``.`` or ``~``, more than one ``/``, or a data file's suffix) that does not exist, before
    the Hub is asked for it: a Hub id is ``name`` or ``owner/name``."""
    path = Path(dataset_path).expanduser()
    local = (
        path.is_absolute()
        or dataset_path.startswith((".", "~"))
        or dataset_path.count("/") > 1
        or "\\" in dataset_path
        or path.suffix.lower() in DATA_FILE_SUFFIXES
    )
    if local and not path.exists():
        fail(
            task,
            f"dataset_path {dataset_path}: no such file or folder (a Hub id is owner/name, "
            "without a leading / or .).",
        )
