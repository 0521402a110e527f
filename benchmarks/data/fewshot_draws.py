"""Deterministic few-shot demonstration draws, made while a dataset is loaded.

Two draw rules use one ``random.Random(fewshot_seed)`` walking the evaluation
questions in order, one draw per question:

- ``SeededDraws``: ``rng.sample(pool, shots)``.
- ``LmEvalDraws``: lm-evaluation-harness 0.4.13's default ``ContextSampler``
  when the task's config names neither ``fewshot_split`` nor ``test_split``
  (TriviaQA's and Winogrande's name only ``training_split`` and
  ``validation_split``): it then compares ``None == None``, takes the few-shot
  split for the evaluated one and excludes the evaluated document.
  ``rng.sample(pool, shots + 1)``, every drawn document equal to the evaluated
  one (``!=`` on whole rows) removed, the first ``shots`` kept; if fewer remain
  (the pool holds several copies of it), ``rng.sample(pool without its copies,
  shots)`` instead (``lm_eval/api/samplers.py`` 57-75 and ``rm_eval_doc``
  96-101, called from ``fewshot_context`` in ``lm_eval/api/task.py`` 982-986).
  The seed is its ``--seed`` fourth value, 1234 by default, set once per task
  (``evaluator.py`` 347, ``task.py`` 560-563).

``random.sample`` chooses positions from the population's length alone, so
drawing from ``range(len(pool))`` gives the same demonstrations without
materialising the pool. Draws are made lazily and remembered, so question ``i``
always receives the same demonstrations whatever order questions are built in,
in any process (``random.Random`` with an int seed ignores ``PYTHONHASHSEED``).
Each sample keeps its draw as row ids; ``fewshot_prompt`` and ``mcq_prompt``
render it.

A third gives every question the same demonstrations:

- ``ShuffledHeadDraws``: the first ``shots`` rows of the pool shuffled by
  Hugging Face ``datasets``' ``Dataset.shuffle(seed=fewshot_seed)``, as
  inspect_ai's ``hf_dataset(shuffle=True, seed=..., limit=shots)`` reads them
  (inspect_evals' Winogrande draw). That shuffle is ``select`` of
  ``numpy.random.default_rng(seed).permutation(len(dataset))``
  (``datasets/arrow_dataset.py``, ``Dataset.shuffle``, datasets 5.2.0), so the
  positions come from the pool's length alone, computed here without the rows.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from benchmarks.runtime.errors import DataError

# The key of a record's whole-row hash (``whole_row_hash``; no dataset column is named so).
ROW_HASH = "__row_hash__"

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
        self._rng = random.Random(seed)
        self._draws: list[list[int]] = []

    def for_question(self, position: int) -> list[int]:
        while len(self._draws) <= position:
            self._draws.append(self._draw(len(self._draws)))
        return self._draws[position]

    def _draw(self, position: int) -> list[int]:
        return self._rng.sample(range(self.pool_size), self.shots)


class ShuffledHeadDraws(SeededDraws):
    """The same demonstrations for every question: the first ``shots`` positions of
    ``numpy.random.default_rng(seed).permutation(pool_size)``, Hugging Face's shuffle."""

    def _draw(self, position: int) -> list[int]:
        if not self._draws:
            # numpy (a dependency of datasets) is imported by the first draw of this rule only
            import numpy

            permutation = numpy.random.default_rng(self.seed).permutation(self.pool_size)
            return [int(index) for index in permutation[: self.shots]]
        return self._draws[0]


class LmEvalDraws(SeededDraws):
    """lm-evaluation-harness 0.4.13's draw excluding the evaluated document.

    ``copies_of(position)`` gives the pool rows equal to the evaluated row at
    ``position`` (usually none).
    """

    def __init__(
        self,
        pool_size: int,
        shots: int,
        seed: int,
        copies_of: Callable[[int], Collection[int]],
        *,
        where: str = "the pool",
    ) -> None:
        if shots + 1 > pool_size:
            raise DataError(
                f"{where} has {pool_size} rows; lm-evaluation-harness's draw takes "
                f"shots + 1 = {shots + 1} of them."
            )
        super().__init__(pool_size, shots, seed, where=where)
        self.copies_of = copies_of
        self.where = where

    def _draw(self, position: int) -> list[int]:
        drawn = self._rng.sample(range(self.pool_size), self.shots + 1)
        copies = self.copies_of(position)
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


class IdenticalRows:
    """Few-shot rows equal, as whole documents, to the evaluated row at a position.

    lm-evaluation-harness compares the dicts ``datasets`` gives for two rows,
    every column included; the reader kept a hash of each whole row (``ROW_HASH``),
    equal for equal rows. Only the pool's copies of evaluated rows are kept.
    """

    def __init__(
        self, evaluated_records: Sequence[Mapping[str, Any]], pool: Sequence[Mapping[str, Any]]
    ) -> None:
        self.eval_hashes: list[str] = [record[ROW_HASH] for record in evaluated_records]
        evaluated = set(self.eval_hashes)
        self.copies: dict[str, list[int]] = defaultdict(list)
        for index, record in enumerate(pool):
            if record[ROW_HASH] in evaluated:
                self.copies[record[ROW_HASH]].append(index)

    def __call__(self, position: int) -> list[int]:
        return self.copies.get(self.eval_hashes[position], [])


def whole_row_hash(values: dict[str, Any], unique: str) -> str:
    """A hash of every column of a row: rows equal as Python compares their dicts
    (lm-evaluation-harness's ``!=`` on whole documents) hash alike; ``True == 1 == 1.0`` and
    ``-0.0 == 0`` alike too. A row holding a NaN (equal to nothing) gets ``unique``."""
    try:
        canonical = json.dumps(equality_form(values), sort_keys=True, default=repr)
    except ValueError:
        return f"unique {unique}"
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def equality_form(value: Any) -> Any:
    """``value`` with numbers Python finds equal written alike (a NaN: ValueError)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError("NaN")
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {key: equality_form(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [equality_form(item) for item in value]
    return value
