"""Deterministic few-shot demonstration draws.

lm-evaluation-harness keeps one ``random.Random(fewshot_seed)`` per task and,
walking the evaluation set in order, draws ``rng.sample(pool, shots)`` for each
question. ``random.sample`` depends only on the pool's length, so drawing
indices from ``range(len(pool))`` gives the same demonstrations without
materialising the pool. Draws are made lazily and remembered, so question ``i``
always receives the same demonstrations whatever order questions are built in,
in any process (``random.Random`` with an int seed ignores ``PYTHONHASHSEED``).
"""

from __future__ import annotations

import random

from benchmarks.loading import DataError


class SeededDraws:
    """Demonstration indices for question ``i``: the ``i``-th draw of the seeded RNG."""

    def __init__(self, pool_size: int, shots: int, seed: int, *, where: str = "the pool") -> None:
        if shots > pool_size:
            raise DataError(f"{where} has {pool_size} rows, fewer than shots={shots}.")
        self.pool_size = pool_size
        self.shots = shots
        self._rng = random.Random(seed)
        self._draws: list[list[int]] = []

    def for_question(self, position: int) -> list[int]:
        while len(self._draws) <= position:
            self._draws.append(self._rng.sample(range(self.pool_size), self.shots))
        return self._draws[position]
