"""ScienceQA: ``scienceqa/test.parquet`` in the schema of ``derek-thomas/ScienceQA`` split
``test`` (``image`` the ``datasets`` Image feature), 2,017 of its 4,241 rows with a PNG of
200-700 px sides (bench/common/synthetic_images.py). Two cases: every row, and the image rows."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bench.common.data_files import read_jsonl, write_parquet
from bench.common.synthetic_images import draw_images
from bench.common.synthetic_text import paragraph, sentence, words
from bench.workloads import Case, Workload

PARQUET = "scienceqa/test.parquet"
SUBJECTS = ("natural science", "social science", "language science")
TASKS = ("closed choice", "yes or no", "true-or false")


def features() -> Any:
    """Features of ``derek-thomas/ScienceQA``."""
    from datasets import Features, Image, List, Value

    text = Value("string")
    return Features(
        {
            "image": Image(),
            "question": text,
            "choices": List(text),
            "answer": Value("int8"),
            "hint": text,
            "task": text,
            "grade": text,
            "subject": text,
            "topic": text,
            "category": text,
            "skill": text,
            "lecture": text,
            "solution": text,
        }
    )


def synthetic_pool(rng: random.Random, size: int = 400) -> list[dict[str, Any]]:
    pool = []
    for index in range(size):
        count = rng.choice((2, 2, 2, 3, 4, 4, 5))
        choices = [words(rng, 1, 3) for _ in range(count)]
        pool.append(
            {
                "has_image": index % 2 == 0,
                "question": f"Which {words(rng, 4, 12)}?",
                "choices": choices,
                "answer": rng.randrange(count),
                "hint": sentence(rng, 0, 30) if rng.random() < 0.6 else "",
                "task": rng.choice(TASKS),
                "grade": f"grade{rng.randint(1, 12)}",
                "subject": rng.choice(SUBJECTS),
                "topic": words(rng, 1, 2).replace(" ", "-"),
                "category": words(rng, 1, 3).capitalize(),
                "skill": sentence(rng, 3, 8),
                "lecture": paragraph(rng, rng.randint(150, 1100)),
                "solution": paragraph(rng, rng.randint(60, 500)),
            }
        )
    return pool


def real_pool(seed_dir: Path) -> list[dict[str, Any]]:
    pool = []
    for row in read_jsonl(seed_dir / "scienceqa" / "test_slice.hf.jsonl"):
        row = dict(row)
        row["has_image"] = row.pop("image") is not None
        row.pop("pid", None)
        pool.append(row)
    return pool


def rows(
    pool: list[dict[str, Any]], count: int, image_count: int, rng: random.Random
) -> list[dict[str, Any]]:
    """Rows without images; the ``image_count`` rows marked ``has_image`` get one later."""
    with_image = [row for row in pool if row["has_image"]] or pool
    without_image = [row for row in pool if not row["has_image"]] or pool
    image_positions = set(rng.sample(range(count), image_count))
    result = []
    for position in range(count):
        has_image = position in image_positions
        source = dict(rng.choice(with_image if has_image else without_image))
        source["has_image"] = has_image
        result.append(source)
    return result


def files(sizes: Mapping[str, int]) -> dict[str, tuple[int, int | None]]:
    return {PARQUET: (sizes["test"], sizes["image"])}


def write(
    out_dir: Path, sizes: Mapping[str, int], rng: random.Random, seed_dir: Path | None, seed: int
) -> str:
    if seed_dir is None:
        pool, origin = synthetic_pool(rng), "synthetic vocabulary"
    else:
        pool, origin = real_pool(seed_dir), f"real rows of {seed_dir / 'scienceqa'}"
    table = rows(pool, sizes["test"], sizes["image"], rng)
    images = iter(draw_images(seed, sizes["image"]))
    columns = list(features())
    written = []
    for row in table:
        has_image = row.pop("has_image")
        row["image"] = {"bytes": next(images), "path": None} if has_image else None
        written.append({name: row[name] for name in columns})
    (out_dir / "scienceqa").mkdir(parents=True, exist_ok=True)
    write_parquet(out_dir / PARQUET, written, features())
    return origin


def task_args(data: Path) -> dict[str, Any]:
    return {"data_files": str(data / PARQUET)}


def image_task_args(data: Path) -> dict[str, Any]:
    return {"data_files": str(data / PARQUET), "subset": "image"}


WORKLOAD = Workload(
    benchmark="scienceqa",
    sizes={"test": 4_241, "image": 2_017},
    files=files,
    write=write,
    cases=(
        Case("scienceqa", "scienceqa", task_args, reply="A", part="test"),
        # The 2,017 test rows that have an image.
        Case(
            "scienceqa_image",
            "scienceqa",
            image_task_args,
            reply="A",
            image_rows=True,
            construct_modes=("limit10",),
            part="image",
        ),
    ),
)
