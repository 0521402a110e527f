"""Scorer throughput (each task's scorers called directly) and ScienceQA's image costs."""

from __future__ import annotations

import asyncio
import base64
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.common.case_tasks import Unavailable, make_task, models, task_function
from bench.workloads import Case, case
from bench.workloads.scienceqa import PARQUET as SCIENCEQA_PARQUET


def task_states(case: Case, samples: Sequence[Any]) -> list[tuple[Any, Any]]:
    from inspect_ai.model import ChatMessageUser, ModelName
    from inspect_ai.scorer import Target
    from inspect_ai.solver import TaskState

    from bench.common.instant_model import scripted_output

    pairs = []
    for sample in samples:
        messages = (
            [ChatMessageUser(content=sample.input)]
            if isinstance(sample.input, str)
            else list(sample.input)
        )
        target = Target(sample.target)
        state = TaskState(
            model=ModelName("mockllm/model"),
            sample_id=sample.id,
            epoch=1,
            input=sample.input,
            messages=messages,
            target=target,
            choices=sample.choices,
            output=scripted_output(case.reply),
            metadata=dict(sample.metadata or {}),
        )
        pairs.append((state, target))
    return pairs


async def scores_per_second(scorer: Any, pairs: list[tuple[Any, Any]], repeat: int) -> float:
    durations = []
    for _ in range(repeat):
        started = time.perf_counter()
        for state, target in pairs:
            await scorer(state, target)
        durations.append(time.perf_counter() - started)
    return len(pairs) / statistics.median(durations)


def cmd_scorers(keys: Sequence[str], samples: int, repeat: int, data_dir: Path) -> dict[str, Any]:
    """Scores per second of each task's scorers, called directly, and of match() alike."""
    import datasets
    from inspect_ai.scorer import match

    from benchmarks.runtime.inspect_private import init_model_roles

    datasets.disable_progress_bars()
    results: dict[str, Any] = {}
    for key in keys:
        measured = case(key)
        try:
            task = make_task(measured, data_dir)
        except Unavailable as ex:
            results[key] = {"status": "not available yet", "error": str(ex)}
            continue
        _, roles = models(measured)
        init_model_roles(roles or {})
        pairs = task_states(measured, list(task.dataset[0:samples]))
        entry: dict[str, Any] = {"samples": len(pairs), "scorers": {}}
        for scorer in task.scorer or []:
            name = getattr(scorer, "__registry_info__", None)
            label = getattr(name, "name", None) or getattr(scorer, "__qualname__", "scorer")
            entry["scorers"][label] = asyncio.run(scores_per_second(scorer, pairs, repeat))
        entry["match_baseline"] = asyncio.run(scores_per_second(match(), pairs, repeat))
        results[key] = entry
    return results


def cmd_images(images: int, repeat: int, data_dir: Path) -> dict[str, Any]:
    """Per-image encoding cost (ScienceQA) and the size of what is embedded."""
    import pyarrow.parquet as pq

    column = pq.read_table(data_dir / SCIENCEQA_PARQUET, columns=["image"]).column("image")
    sources = [value["bytes"] for value in column.to_pylist() if value is not None][:images]
    result: dict[str, Any] = {
        "images": len(sources),
        "source_png_bytes": statistics.fmean(len(b) for b in sources),
    }

    def per_image(action: Callable[[bytes], Any]) -> float:
        durations = []
        for _ in range(repeat):
            started = time.perf_counter()
            for data in sources:
                action(data)
            durations.append(time.perf_counter() - started)
        return statistics.median(durations) / len(sources)

    result["base64_floor_ms"] = 1000 * per_image(base64.b64encode)
    from benchmarks.data.image_encoding import encoded_image

    def data_uri(data: bytes) -> str:  # what an image becomes in the request
        return "data:image/png;base64," + base64.b64encode(encoded_image(data)).decode("ascii")

    result["image_data_uri_ms"] = 1000 * per_image(data_uri)
    result["data_uri_bytes"] = statistics.fmean(len(data_uri(b)) for b in sources)

    # Building samples through the task: the first image rows vs as many text rows.
    try:
        function = task_function(case("scienceqa"))
    except Unavailable as ex:
        result["build"] = str(ex)
        return result
    for label, subset in (("image", "image"), ("text", "no_image")):
        durations = []
        for _ in range(repeat):
            task = function(data_files=str(data_dir / SCIENCEQA_PARQUET), subset=subset)
            started = time.perf_counter()
            built = list(task.dataset[0:images])
            durations.append(time.perf_counter() - started)
        result[f"build_{label}_row_ms"] = 1000 * statistics.median(durations) / len(built)
    return result
