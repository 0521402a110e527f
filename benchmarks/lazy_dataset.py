"""An Inspect ``Dataset`` whose samples are built on first access.

Slicing (``dataset[0:10]``, how Inspect applies ``--limit``) builds only the
rows sliced, and built samples are cached, so each row is converted once
however often it is read. Iterating reads rows from Arrow in chunks. (Inspect
0.3.285 iterates the whole dataset once before it slices it, to check sample
ids, so under ``eval(limit=...)`` every row is still built once.)
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from inspect_ai.dataset import Dataset, MemoryDataset, Sample
from typing_extensions import override

from benchmarks.lazy_modules import LazyModule
from benchmarks.loading import DataError, LoadedSplit

if TYPE_CHECKING:
    import datasets
    from _typeshed import SupportsRichComparison
else:
    datasets = LazyModule("datasets")

SampleBuilder = Callable[[int], Sample]
BulkBuilder = Callable[[Sequence[int]], list[Sample]]
RecordToSample = Callable[[int, dict[str, Any]], Sample]
ITERATION_CHUNK = 256

logger = logging.getLogger(__name__)


def dataset_from_rows(
    split: LoadedSplit,
    record_to_sample: RecordToSample,
    *,
    name: str,
    size: int | None = None,
    columns: Sequence[str] | None = None,
    indices: Sequence[int] | None = None,
) -> LazyDataset:
    """A lazy dataset over the first ``size`` rows of ``split`` (or the rows ``indices``).

    ``record_to_sample(row_index, record)`` builds one sample; a ``KeyError``,
    ``TypeError`` or ``ValueError`` it raises becomes a ``DataError`` naming the
    source, the row and the message (which names the field).

    With ``columns``, records hold just those columns, read straight from the
    Arrow table (several times faster than ``datasets`` row formatting, and
    no feature decoding: an image column gives ``{"bytes", "path"}``).
    """
    rows, where = split
    read = arrow_row_reader(rows, columns) if columns is not None else rows.__getitem__

    def build(row: int, record: dict[str, Any] | None = None) -> Sample:
        try:
            return record_to_sample(row, read(row) if record is None else record)
        except (KeyError, TypeError, ValueError) as ex:
            if isinstance(ex, DataError):
                raise
            message = ex.args[0] if isinstance(ex, KeyError) and ex.args else ex
            raise DataError(f"{where}, row {row}: {message}") from ex

    build_many = None
    if columns is not None and rows._indices is None:
        table = rows.data.table.select(list(columns))

        def build_many(chunk: Sequence[int]) -> list[Sample]:
            try:
                records = table.take(list(chunk)).to_pylist()
            except UnicodeDecodeError:  # name the row: read them one by one
                return [build(row) for row in chunk]
            return [build(row, record) for row, record in zip(chunk, records, strict=True)]

    available = len(rows) if indices is None else len(indices)
    announce_cut(size, available, where)
    total = len(rows) if size is None else min(size, len(rows))
    if indices is not None and size is not None:
        indices = indices[:size]
    return LazyDataset(
        build, total, name=name, location=where, indices=indices, build_many=build_many
    )


def announce_cut(num_examples: int | None, available: int, where: str) -> None:
    """Say, once per task, that ``num_examples`` leaves rows out (never a silent cut)."""
    if num_examples is not None and num_examples < available:
        logger.warning(
            f"num_examples={num_examples}: evaluating the first {num_examples} of the "
            f"{available} rows of {where}."
        )


def arrow_row_reader(
    rows: datasets.Dataset, columns: Sequence[str]
) -> Callable[[int], dict[str, Any]]:
    """Read row ``i`` of ``columns`` as plain Python values from the Arrow table."""
    if rows._indices is not None:  # a selected/filtered view: let datasets map the index
        selected = rows.select_columns(list(columns))
        return lambda row: dict(selected[row])
    arrays = {name: rows.data.table.column(name) for name in columns}

    def read(row: int) -> dict[str, Any]:
        record: dict[str, Any] = {}
        for name, array in arrays.items():
            try:
                record[name] = array[row].as_py()
            except UnicodeDecodeError as ex:  # pyarrow's JSON reader does not validate UTF-8
                raise ValueError(f"field {name!r} is not valid UTF-8: {ex.reason}") from ex
        return record

    return read


class LazyDataset(Dataset):
    """Samples ``build(row)`` for the rows ``indices`` of a source of ``size`` rows."""

    def __init__(
        self,
        build: SampleBuilder,
        size: int,
        name: str | None = None,
        location: str | None = None,
        *,
        indices: Sequence[int] | None = None,
        cache: dict[int, Sample] | None = None,
        shuffled: bool = False,
        build_many: BulkBuilder | None = None,
    ) -> None:
        self._build = build
        self._build_many = build_many
        self._size = size
        self._name = name
        self._location = location
        self._indices: Sequence[int] = range(size) if indices is None else indices
        self._cache: dict[int, Sample] = {} if cache is None else cache
        self._shuffled = shuffled

    @property
    def built_rows(self) -> int:
        """How many distinct rows have been converted to samples so far."""
        return len(self._cache)

    def sample_for_row(self, row: int) -> Sample:
        sample = self._cache.get(row)
        if sample is None:
            sample = self._build(row)
            self._cache[row] = sample
        return sample

    @override
    @property
    def name(self) -> str | None:
        return self._name

    @override
    @property
    def location(self) -> str | None:
        return self._location

    @override
    @property
    def shuffled(self) -> bool:
        return self._shuffled

    @overload
    def __getitem__(self, index: int) -> Sample: ...

    @overload
    def __getitem__(self, index: slice) -> Dataset: ...

    @override
    def __getitem__(self, index: int | slice) -> Sample | Dataset:
        if isinstance(index, slice):
            return self._view(self._indices[index])
        return self.sample_for_row(self._indices[index])

    @override
    def __len__(self) -> int:
        return len(self._indices)

    @override
    def __iter__(self) -> Iterator[Sample]:
        # Iteration reads rows in chunks: one Arrow read converts a whole chunk.
        for start in range(0, len(self._indices), ITERATION_CHUNK):
            chunk = self._indices[start : start + ITERATION_CHUNK]
            self._build_rows(chunk)
            for row in chunk:
                yield self._cache[row]

    def _build_rows(self, rows: Sequence[int]) -> None:
        missing = [row for row in rows if row not in self._cache]
        if self._build_many is not None and len(missing) > 1:
            self._cache.update(zip(missing, self._build_many(missing), strict=True))
        else:
            for row in missing:
                self.sample_for_row(row)

    @override
    def shuffle(self, seed: int | None = None) -> None:
        order = list(self._indices)
        if seed is not None:
            random.Random(seed).shuffle(order)
        else:
            random.shuffle(order)
        self._indices = order
        self._shuffled = True

    @override
    def shuffle_choices(self, seed: int | None = None) -> None:
        # Inspect's own remapping rule, applied to the built samples in place.
        MemoryDataset(list(self)).shuffle_choices(seed)

    @override
    def sort(
        self,
        reverse: bool = False,
        key: Callable[[Sample], SupportsRichComparison] | None = None,
    ) -> None:
        def row_key(row: int) -> SupportsRichComparison:
            sample = self.sample_for_row(row)
            if key is None:
                return _input_length(sample)
            return key(sample)

        self._indices = sorted(self._indices, key=row_key, reverse=reverse)

    @override
    def filter(self, predicate: Callable[[Sample], bool], name: str | None = None) -> LazyDataset:
        kept = [row for row in self._indices if predicate(self.sample_for_row(row))]
        view = self._view(kept)
        view._name = name or self._name
        return view

    def _view(self, indices: Sequence[int]) -> LazyDataset:
        return LazyDataset(
            self._build,
            self._size,
            self._name,
            self._location,
            indices=indices,
            cache=self._cache,
            shuffled=self._shuffled,
            build_many=self._build_many,
        )


def _input_length(sample: Sample) -> int:
    from inspect_ai.dataset._dataset import sample_input_len

    return sample_input_len(sample)
