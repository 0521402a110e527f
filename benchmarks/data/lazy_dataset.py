"""An Inspect ``Dataset`` whose samples are built on first access.

Slicing (``dataset[0:10]``, how Inspect applies ``--limit``) builds only the
rows sliced, and built samples are cached (views share the cache), so each
row is converted once however often it is read. (Inspect 0.3.285 iterates the
whole dataset once before it slices it, to check sample ids, so under
``eval(limit=...)`` every row is still built once.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, overload

from inspect_ai.dataset import Dataset, MemoryDataset, Sample
from typing_extensions import override

from benchmarks.data.replaced_solver import replacing_solver_refusal

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

SampleBuilder = Callable[[int], Sample]


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
    ) -> None:
        self._build = build
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
        # Inspect iterates a task's dataset before any sample runs, with the solver that
        # will run them: one that cannot serve them is refused here (replaced_solver.py)
        refuse = replacing_solver_refusal()
        for row in self._indices:
            sample = self.sample_for_row(row)
            if refuse is not None:
                refuse(sample)
            yield sample

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

    def stride(self, start: int, step: int) -> LazyDataset:
        """A view of every ``step``-th of its samples from the ``start``-th (a shard)."""
        return self._view(self._indices[start::step])

    def _view(self, indices: Sequence[int]) -> LazyDataset:
        return LazyDataset(
            self._build,
            self._size,
            self._name,
            self._location,
            indices=indices,
            cache=self._cache,
            shuffled=self._shuffled,
        )


def _input_length(sample: Sample) -> int:
    from benchmarks.runtime.inspect_private import sample_input_len

    return sample_input_len(sample)
