"""SimpleQA Verified: ``simpleqa_verified/simpleqa_verified.csv`` in the columns of the
Kaggle file (``original_index, problem, answer, topic, answer_type, multi_step,
requires_reasoning, urls``), its questions drawn from SimpleQA's rows (real or
synthetic) under distinct ``original_index`` values, as the 1,000 re-checked ones are."""

from __future__ import annotations

import ast
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bench.common.data_files import write_csv
from bench.workloads import GRADER_REPLY, Case, Workload
from bench.workloads import simpleqa as simpleqa_workload

CSV = "simpleqa_verified/simpleqa_verified.csv"


def rows(source: list[list[str]], count: int, rng: random.Random) -> list[list[Any]]:
    """``count`` rows of SimpleQA's ``source``, by increasing ``original_index``."""
    indices = sorted(rng.sample(range(max(count, len(source))), count))
    result = []
    for index in indices:
        metadata_text, problem, answer = source[index % len(source)]
        metadata = ast.literal_eval(metadata_text)
        result.append(
            [
                index,
                problem,
                answer,
                metadata["topic"],
                metadata["answer_type"],
                rng.random() < 0.4,
                rng.random() < 0.3,
                ",".join(metadata["urls"]),
            ]
        )
    return result


def files(sizes: Mapping[str, int]) -> dict[str, tuple[int, int | None]]:
    return {CSV: (sizes["eval"], None)}


def write(
    out_dir: Path, sizes: Mapping[str, int], rng: random.Random, seed_dir: Path | None, seed: int
) -> str:
    source, origin = simpleqa_workload.pool(rng, seed_dir)
    (out_dir / "simpleqa_verified").mkdir(parents=True, exist_ok=True)
    # the columns the task reads, imported here: reading a case imports no benchmark
    from benchmarks.data.simpleqa_verified import COLUMNS

    write_csv(out_dir / CSV, COLUMNS, rows(source, sizes["eval"], rng))
    return origin


def task_args(data: Path) -> dict[str, Any]:
    return {"dataset_path": str(data / CSV)}


WORKLOAD = Workload(
    benchmark="simpleqa_verified",
    sizes={"eval": 1_000},
    files=files,
    write=write,
    cases=(
        Case(
            "simpleqa_verified",
            "simpleqa_verified",
            task_args,
            reply="Michio Sugeno",
            grader_reply=GRADER_REPLY,
            part="eval",
        ),
    ),
)
