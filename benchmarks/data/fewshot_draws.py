"""Deterministic few-shot demonstration draws, made while a dataset is loaded, and the
few-shot split's rows as demonstrations.

One generator, seeded with ``fewshot_seed``, walks the evaluation questions in order, one
draw per question; ``random.sample`` (and Hugging Face's shuffle) choose positions from the
pool's length alone, so the pool is never materialised. A draw is remembered, so question
``i`` gets the same demonstrations whatever order samples are built in, in any process
(``random.Random`` with an int seed ignores ``PYTHONHASHSEED``). Each sample keeps its draw
as row ids under ``metadata["fewshot"]``. The references' rules, with their sources, are in
docs/triviaqa.md and docs/winogrande.md.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

from benchmarks.data.records import ROW_HASH
from benchmarks.data.rows import Rows
from benchmarks.runtime.errors import DataError

T = TypeVar("T")

# The sample metadata key holding the ids of a sample's demonstrations.
FEWSHOT_KEY = "fewshot"
# What follows each demonstration, before the next one or the question: lm-evaluation-
# harness's TaskConfig default (config/task.py: fewshot_delimiter), which TriviaQA's
# prompts and Winogrande's log-likelihood requests keep.
FEWSHOT_DELIMITER = "\n\n"


class SeededDraws:
    """Demonstration indices for question ``i``: the ``i``-th ``rng.sample(pool, shots)``."""

    def __init__(self, pool_size: int, shots: int, seed: int, *, where: str = "the pool") -> None:
        if shots > pool_size:
            raise DataError(f"{where} has {pool_size} rows, fewer than shots={shots}.")
        self.pool_size = pool_size
        self.shots = shots
        self.seed = seed
        self.where = where
        self._rng = random.Random(seed)
        self._draws: list[list[int]] = []

    def for_question(self, position: int) -> list[int]:
        while len(self._draws) <= position:
            self._draws.append(self._draw(len(self._draws)))
        return self._draws[position]

    def _draw(self, position: int) -> list[int]:
        return self._rng.sample(range(self.pool_size), self.shots)


class ShuffledHeadDraws(SeededDraws):
    """The same demonstrations for every question: the first ``shots`` rows of the pool as
    Hugging Face ``datasets``' ``Dataset.shuffle(seed=fewshot_seed)`` orders them (inspect_evals'
    Winogrande draw), that is the first ``shots`` positions of
    ``numpy.random.default_rng(seed).permutation(pool_size)`` (datasets 5.2.0)."""

    def _draw(self, position: int) -> list[int]:
        if not self._draws:
            # numpy (a dependency of datasets) is imported by the first draw of this rule only
            import numpy

            permutation = numpy.random.default_rng(self.seed).permutation(self.pool_size)
            return [int(index) for index in permutation[: self.shots]]
        return self._draws[0]


class LmEvalDraws(SeededDraws):
    """lm-evaluation-harness 0.4.13's draw excluding the evaluated document:
    ``rng.sample(pool, shots + 1)``, the pool rows equal to the evaluated one removed, the
    first ``shots`` kept; if fewer remain, ``rng.sample(pool without them, shots)``
    (``lm_eval/api/samplers.py`` 57-75, 96-101).

    It compares whole documents, every column; the reader kept a hash of each whole row
    (``ROW_HASH``), equal for equal rows. Only the pool's copies of evaluated rows are kept.
    """

    def __init__(self, pool: Rows, evaluated: Rows, shots: int, seed: int, *, where: str) -> None:
        if shots + 1 > len(pool):
            raise DataError(
                f"{where} has {len(pool)} rows; lm-evaluation-harness's draw takes "
                f"shots + 1 = {shots + 1} of them."
            )
        super().__init__(len(pool), shots, seed, where=where)
        self.evaluated: list[str] = [record[ROW_HASH] for record in evaluated.records]
        wanted = set(self.evaluated)
        self.copies: dict[str, list[int]] = defaultdict(list)
        for index, record in enumerate(pool.records):
            if record[ROW_HASH] in wanted:
                self.copies[record[ROW_HASH]].append(index)

    def _draw(self, position: int) -> list[int]:
        drawn = self._rng.sample(range(self.pool_size), self.shots + 1)
        copies = self.copies.get(self.evaluated[position], [])
        kept = [index for index in drawn if index not in copies][: self.shots]
        if len(kept) == self.shots:
            return kept
        pool = [index for index in range(self.pool_size) if index not in copies]
        if len(pool) < self.shots:
            raise DataError(
                f"{self.where}: question {position} is repeated in {len(copies)} of the "
                f"{self.pool_size} rows, leaving fewer than shots={self.shots} to draw from."
            )
        return self._rng.sample(pool, self.shots)


class DemonstrationPool(Mapping[int, T]):
    """The few-shot split's rows, each made a demonstration by ``make`` when read (its
    field errors name the row), and the draw of each evaluated question."""

    def __init__(self, rows: Rows, draws: SeededDraws, make: Callable[[dict[str, Any]], T]):
        self.rows = rows
        self.draws = draws
        self.make = make

    def drawn(self, position: int) -> list[int]:
        """The rows drawn for the question at ``position``, checked now (before any model
        call)."""
        indices = self.draws.for_question(position)
        self.check(indices)
        return indices

    def check(self, indices: Iterable[int]) -> None:
        """Raise the error of the first of ``indices`` no demonstration can be made of."""
        for index in indices:
            self[index]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.rows)))

    def __getitem__(self, index: int) -> T:
        return self.rows.built(index, self.make)
