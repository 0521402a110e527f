"""One run split into shards: shard ``i/n`` evaluates every ``n``-th question from the
``i``-th (0-based), of the questions the run evaluates (after ``num_examples``).

Every task takes ``shard`` (``-T shard=2/8``; None: every question). A shard's
samples are the unsharded run's own: the same ids, built from the same row
positions, so the same few-shot draws, prompts and scores; only the set differs.
Striding rather than cutting into blocks keeps the shards the same size within one
question and mixes the questions that cost more (long prompts, images) evenly over
them. ``python -m benchmarks.shards merge`` joins the shards' logs into the log of
the whole run (docs/scaling.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

from inspect_ai import Task

from benchmarks.data.lazy_dataset import LazyDataset
from benchmarks.runtime.task_parameters import NoneMeans, Parsed

# The task argument that names a shard (the merge drops it from the merged log's).
SHARD_ARGUMENT = "shard"
SHARD_TEXT = re.compile(r"(\d+)/(\d+)")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count``, both as written in ``index/count``."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: object) -> Shard:
        """``"i/n"`` with 0 <= i < n (the ValueError says what is wrong)."""
        match = SHARD_TEXT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"must be written i/n (shard i of n, from 0), got {text!r}.")
        shard = cls(int(match.group(1)), int(match.group(2)))
        if shard.count < 1 or shard.index >= shard.count:
            raise ValueError(
                f"must be i/n with 0 <= i < n (shards are counted from 0), got {text!r}."
            )
        return shard

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def size(self, total: int) -> int:
        """How many of ``total`` questions this shard evaluates."""
        return len(range(self.index, total, self.count))


# The parameter every task declares: ``shard: ShardParameter = None``.
ShardParameter = Annotated[str | None, Parsed(Shard.parse), NoneMeans("every question")]


def shard_task(task: Task, shard: str | None) -> Task:
    """``task`` evaluating only shard ``shard`` of its questions (None: all of them)."""
    if shard is None:
        return task
    dataset = task.dataset
    if not isinstance(dataset, LazyDataset):
        raise TypeError("shard_task needs the task's dataset as rows_dataset makes it")
    selected = Shard.parse(shard)
    task.dataset = dataset.stride(selected.index, selected.count)
    return task
