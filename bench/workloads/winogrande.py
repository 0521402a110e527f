"""Winogrande: ``winogrande/validation.jsonl`` in the fields of ``allenai/winogrande``
(``sentence, option1, option2, answer``); the real rows, row for row, when at hand."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bench.common.data_files import read_jsonl, write_jsonl
from bench.common.synthetic_text import NAME_PARTS, cycle, words
from bench.workloads import Case, Workload

JSONL = "winogrande/validation.jsonl"


def synthetic_pool(rng: random.Random, size: int = 600) -> list[dict[str, str]]:
    pool = []
    for _ in range(size):
        first, second = rng.sample(NAME_PARTS, 2)
        sentence = f"{first} {words(rng, 3, 8)} than {second} so _ {words(rng, 2, 7)}."
        pool.append(
            {"sentence": sentence, "option1": first, "option2": second, "answer": rng.choice("12")}
        )
    return pool


def files(sizes: Mapping[str, int]) -> dict[str, tuple[int, int | None]]:
    return {JSONL: (sizes["validation"], None)}


def write(
    out_dir: Path, sizes: Mapping[str, int], rng: random.Random, seed_dir: Path | None, seed: int
) -> str:
    if seed_dir is None:
        pool, origin = synthetic_pool(rng), "synthetic vocabulary"
    else:
        path = seed_dir / "winogrande" / "validation.hf.jsonl"
        pool, origin = read_jsonl(path), f"real rows of {path.parent}"
    (out_dir / "winogrande").mkdir(parents=True, exist_ok=True)
    write_jsonl(out_dir / JSONL, [dict(row) for row in cycle(pool, sizes["validation"], rng)])
    return origin


def task_args(data: Path) -> dict[str, Any]:
    return {"data_files": str(data / JSONL)}


WORKLOAD = Workload(
    benchmark="winogrande",
    sizes={"validation": 1_267},
    files=files,
    write=write,
    cases=(Case("winogrande", "winogrande", task_args, reply="ANSWER: A", part="validation"),),
)
