"""Every dataset method Inspect may call on a task's dataset gives what Inspect's own
``MemoryDataset`` gives on the same rows: ``shuffle`` with a seed, ``sort`` (by input
length, or a key), ``filter``, ``shuffle_choices`` and slicing, and ``eval(sample_shuffle=)``
(``--sample-shuffle``) with ``--limit``, which runs the same questions in the same order."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Dataset, MemoryDataset, Sample
from inspect_ai.solver import generate

from benchmarks.data.lazy_dataset import LazyDataset
from tests.scripted import scripted_model

ROWS = 23


def row_sample(row: int) -> Sample:
    # inputs of different lengths, some equal (a stable sort keeps their order)
    return Sample(
        id=f"q{row}",
        input="word " * ((row * 7) % 5 + 1) + str(row),
        choices=[f"option {row} {letter}" for letter in "abcd"],
        target="ABCD"[row % 4],
        metadata={"group": row % 3},
    )


def both() -> tuple[LazyDataset, MemoryDataset]:
    return LazyDataset(row_sample, ROWS, name="rows"), MemoryDataset(
        [row_sample(row) for row in range(ROWS)], name="rows"
    )


def listed(dataset: Dataset) -> list[tuple[object, ...]]:
    return [(s.id, s.input, tuple(s.choices or []), s.target) for s in dataset]


@pytest.mark.parametrize("seed", [0, 7, 42])
def test_shuffle_with_a_seed_is_inspects(seed: int) -> None:
    lazy, memory = both()
    lazy.shuffle(seed)
    memory.shuffle(seed)
    assert listed(lazy) == listed(memory) and lazy.shuffled and memory.shuffled
    assert [s.id for s in lazy] != [f"q{row}" for row in range(ROWS)]


def test_shuffle_without_a_seed_keeps_every_row_once() -> None:
    lazy, _ = both()
    lazy.shuffle()
    assert sorted(str(s.id) for s in lazy) == sorted(f"q{row}" for row in range(ROWS))


@pytest.mark.parametrize("reverse", [False, True])
def test_sort_is_inspects(reverse: bool) -> None:
    lazy, memory = both()
    lazy.sort(reverse=reverse)
    memory.sort(reverse=reverse)
    assert listed(lazy) == listed(memory)
    lazy, memory = both()
    lazy.sort(key=lambda s: str(s.target), reverse=reverse)
    memory.sort(key=lambda s: str(s.target), reverse=reverse)
    assert listed(lazy) == listed(memory)


def test_filter_is_inspects() -> None:
    lazy, memory = both()
    kept = lazy.filter(lambda s: (s.metadata or {})["group"] == 1, name="group 1")
    inspects = memory.filter(lambda s: (s.metadata or {})["group"] == 1, name="group 1")
    assert listed(kept) == listed(inspects) and kept.name == inspects.name == "group 1"
    assert listed(lazy.filter(lambda s: True)) == listed(memory) and lazy.filter(bool).name


@pytest.mark.parametrize("seed", [1, 99])
def test_shuffle_choices_is_inspects(seed: int) -> None:
    lazy, memory = both()
    lazy.shuffle_choices(seed)
    memory.shuffle_choices(seed)
    assert listed(lazy) == listed(memory)
    assert [s.target for s in lazy] != [row_sample(row).target for row in range(ROWS)]


def test_slices_are_inspects() -> None:
    lazy, memory = both()
    lazy.shuffle(3)
    memory.shuffle(3)
    for part in (slice(0, 5), slice(5, None), slice(2, 20, 3)):
        assert listed(lazy[part]) == listed(memory[part])
    assert listed([lazy[4]]) == listed([memory[4]])


@pytest.mark.parametrize("seed", [5, 11])
def test_sample_shuffle_with_a_limit_runs_inspects_questions(seed: int, tmp_path: Path) -> None:
    runs = {}
    for kind, dataset in zip(("lazy", "memory"), both(), strict=True):
        (log,) = eval(
            Task(dataset=dataset, solver=generate()),
            model=scripted_model(lambda messages: "x"),
            sample_shuffle=seed,
            limit=6,
            log_dir=str(tmp_path / kind),
            display="none",
        )
        assert log.samples is not None
        runs[kind] = [sample.id for sample in log.samples]
    assert runs["lazy"] == runs["memory"] and len(runs["lazy"]) == 6
    assert runs["lazy"] != [f"q{row}" for row in range(6)]
