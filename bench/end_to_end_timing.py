"""End to end per sample: ``eval()`` of our task against a bare Inspect task, same prompts."""

from __future__ import annotations

import gc
import statistics
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.case_tasks import (
    LIMIT,
    bare_task,
    built_rows,
    make_task,
    models,
    rendered_samples,
    sliced_task,
)
from bench.workloads import Case
from bench.workloads.scienceqa import PARQUET as SCIENCEQA_PARQUET


def log_stats(location: str) -> dict[str, Any]:
    """Sizes of the per-sample members of an ``.eval`` log (a zip)."""
    path = Path(location.removeprefix("file://"))
    with zipfile.ZipFile(path) as archive:
        members = [m for m in archive.infolist() if m.filename.startswith("samples/")]
        base64_copies = [archive.read(m).count(b";base64,") for m in members]
    count = max(1, len(members))
    return {
        "log_bytes": path.stat().st_size,
        "samples_logged": len(members),
        "sample_bytes_compressed": sum(m.compress_size for m in members) / count,
        "sample_bytes_uncompressed": sum(m.file_size for m in members) / count,
        "base64_payloads_per_sample": sum(base64_copies) / count,
    }


def timed_eval(task: Any, model: Any, roles: Any, samples: int, log_dir: str) -> dict[str, Any]:
    from inspect_ai import eval as inspect_eval

    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    log = inspect_eval(
        task, model=model, model_roles=roles, limit=samples, display="none", log_dir=log_dir
    )[0]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if log.status != "success":
        raise RuntimeError(f"eval ended {log.status}: {log.error}")
    return {"wall_s": wall, "cpu_s": cpu, "location": log.location}


def cmd_e2e(case: Case, samples: int, repeat: int, data_dir: Path) -> dict[str, Any]:
    """Per-sample time of our task vs a bare Inspect task over the same prompts.

    Variants: ``ours`` (eval(limit=samples) on the task, what a user runs),
    ``ours_sliced`` (the task's dataset sliced to the samples first, so only
    they are built), ``bare`` (generate() + match()) and, for a benchmark
    with a judge, ``bare_judged`` (generate() + model_graded_fact()); with
    images, ``bare_same_input`` (the bare task on the very same multimodal
    input, so that what remains is ours, not Inspect's cost of images).
    """
    import datasets

    datasets.disable_progress_bars()
    model, roles = models(case)
    reference = make_task(case, data_dir)
    chosen = rendered_samples(reference, list(reference.dataset[0:samples]))
    samples = len(chosen)
    variants: dict[str, tuple[Callable[[], Any], Any]] = {
        "ours": (lambda: make_task(case, data_dir), roles),
        "ours_sliced": (lambda: sliced_task(case, data_dir, samples), roles),
        "bare": (lambda: bare_task(chosen), None),
    }
    if roles is not None:
        variants["bare_judged"] = (lambda: bare_task(chosen, judged=True), roles)
    if any(not isinstance(m.content, str) for sample in chosen for m in sample.input):
        variants["bare_same_input"] = (lambda: bare_task(chosen, same_input=True), None)
    runs: dict[str, list[dict[str, Any]]] = {variant: [] for variant in variants}
    built: int | None = None
    with tempfile.TemporaryDirectory() as log_dir:
        # Warm-up: first-eval costs (imports, provider set-up) are not per-sample.
        timed_eval(sliced_task(case, data_dir, LIMIT), model, roles, LIMIT, log_dir)
        timed_eval(bare_task(chosen[:LIMIT]), model, None, LIMIT, log_dir)
        for rep in range(repeat):
            order = list(variants) if rep % 2 == 0 else list(reversed(variants))
            for variant in order:
                factory, variant_roles = variants[variant]
                task = factory()
                run = timed_eval(task, model, variant_roles, samples, log_dir)
                run.update(log_stats(run.pop("location")))
                runs[variant].append(run)
                if variant == "ours":
                    built = built_rows(task.dataset)
    result: dict[str, Any] = {
        "samples": samples,
        "repeat": repeat,
        "ours_built_rows": built,
        "dataset_len": len(reference.dataset),
        "runs": runs,
    }
    for variant, variant_runs in runs.items():
        for key in ("wall_s", "cpu_s", "sample_bytes_compressed", "sample_bytes_uncompressed"):
            result[f"{variant}_{key}"] = statistics.median(run[key] for run in variant_runs)
        result[f"{variant}_base64_payloads_per_sample"] = variant_runs[-1][
            "base64_payloads_per_sample"
        ]
    # ratio_<wall|cpu>[_sliced][_vs_<baseline>]; no suffix: against the plain bare task.
    for variant in ("ours", "ours_sliced"):
        for baseline in (name for name in variants if name.startswith("bare")):
            for key in ("wall", "cpu"):
                name = "ratio_" + key + ("_sliced" if variant == "ours_sliced" else "")
                if baseline != "bare":
                    name += "_vs_" + baseline.removeprefix("bare_")
                result[name] = result[f"{variant}_{key}_s"] / result[f"{baseline}_{key}_s"]
    if case.image_rows:
        result["source_png_bytes"] = mean_source_image_bytes(data_dir, samples)
    return result


def mean_source_image_bytes(data_dir: Path, rows: int) -> float:
    """Mean PNG size of the first ``rows`` rows that have an image, in file order."""
    import pyarrow.parquet as pq

    images = pq.read_table(data_dir / SCIENCEQA_PARQUET, columns=["image"]).column("image")
    sizes = [len(value["bytes"]) for value in images.to_pylist() if value is not None][:rows]
    return statistics.fmean(sizes)
