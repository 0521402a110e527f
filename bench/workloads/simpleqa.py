"""SimpleQA: ``simpleqa/simple_qa_test_set.csv`` as openai/simple-evals has it (columns
``metadata, problem, answer``, ``metadata`` a Python-dict literal with ``topic``,
``answer_type`` and ``urls``); the real file row for row when real rows are at hand."""

from __future__ import annotations

import csv
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bench.common.data_files import write_csv
from bench.common.synthetic_text import cycle, words
from bench.workloads import GRADER_REPLY, Case, Workload

CSV = "simpleqa/simple_qa_test_set.csv"
COLUMNS = ("metadata", "problem", "answer")
TOPICS = (
    "Science and technology",
    "Politics",
    "Art",
    "Geography",
    "Sports",
    "Music",
    "TV shows",
    "History",
    "Video games",
    "Other",
)
ANSWER_TYPES = ("Person", "Date", "Number", "Place", "Other")


def synthetic_pool(rng: random.Random, size: int = 600) -> list[list[str]]:
    pool = []
    for _ in range(size):
        topic = rng.choice(TOPICS)
        answer_type = rng.choice(ANSWER_TYPES)
        urls = [
            f"https://en.wikipedia.org/wiki/{words(rng, 1, 4).title().replace(' ', '_')}"
            for _ in range(rng.randint(1, 5))
        ]
        metadata = {"topic": topic, "answer_type": answer_type, "urls": urls}
        problem = f"{rng.choice(('Who', 'What', 'In what year', 'Which'))} {words(rng, 8, 20)}?"
        answer = str(rng.randint(1800, 2023)) if answer_type == "Date" else words(rng, 1, 3).title()
        pool.append([repr(metadata), problem, answer])
    return pool


def pool(rng: random.Random, seed_dir: Path | None) -> tuple[list[list[str]], str]:
    """SimpleQA's rows (``metadata, problem, answer``): the real file's, else synthetic."""
    if seed_dir is None:
        return synthetic_pool(rng), "synthetic vocabulary"
    path = seed_dir / "simpleqa" / "simple_qa_test_set.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        if tuple(header) != COLUMNS:
            raise ValueError(f"{path}: unexpected header {header!r}")
        return list(reader), f"real rows of {path.parent}"


def files(sizes: Mapping[str, int]) -> dict[str, tuple[int, int | None]]:
    return {CSV: (sizes["test"], None)}


def write(
    out_dir: Path, sizes: Mapping[str, int], rng: random.Random, seed_dir: Path | None, seed: int
) -> str:
    rows, origin = pool(rng, seed_dir)
    (out_dir / "simpleqa").mkdir(parents=True, exist_ok=True)
    write_csv(out_dir / CSV, COLUMNS, [list(row) for row in cycle(rows, sizes["test"], rng)])
    return origin


def task_args(data: Path) -> dict[str, Any]:
    return {"dataset_path": str(data / CSV)}


WORKLOAD = Workload(
    benchmark="simpleqa",
    sizes={"test": 4_326},
    files=files,
    write=write,
    cases=(
        Case(
            "simpleqa",
            "simpleqa",
            task_args,
            reply="Michio Sugeno",
            grader_reply=GRADER_REPLY,
            part="test",
        ),
    ),
)
