"""Task construction, timed in a fresh process: imports, construction, building samples."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common.case_tasks import (
    LIMIT,
    bare_task,
    built_rows,
    make_task,
    models,
    peak_rss_mb,
    task_function,
)
from bench.workloads import Case


def cmd_construct(case: Case, mode: str, data_dir: Path) -> dict[str, Any]:
    """Import, construct the task, then build all samples (full) or the first ten."""
    started = time.perf_counter()
    import inspect_ai  # noqa: F401

    after_inspect = time.perf_counter()
    import datasets  # noqa: F401

    after_datasets = time.perf_counter()
    task_function(case)
    after_benchmark = time.perf_counter()
    rss_imports = peak_rss_mb()

    task = make_task(case, data_dir)
    after_construct = time.perf_counter()
    dataset = task.dataset
    result: dict[str, Any] = {"dataset_len": len(dataset)}
    if mode == "full":
        result["samples_built"] = sum(1 for _ in dataset)
    elif mode == "limit10":
        result["samples_built"] = len(list(dataset[0:LIMIT]))
    elif mode in ("eval10", "bare_eval10"):
        from inspect_ai import eval as inspect_eval

        model, roles = models(case)
        if mode == "bare_eval10":
            # Inspect's own cost of a 10-sample eval, on our first ten prompts.
            task, roles = bare_task(list(dataset[0:LIMIT])), None
        with tempfile.TemporaryDirectory() as log_dir:
            eval_started = time.perf_counter()
            log = inspect_eval(
                task, model=model, model_roles=roles, limit=LIMIT, display="none", log_dir=log_dir
            )[0]
            result["eval_s"] = time.perf_counter() - eval_started
            if log.status != "success":
                raise RuntimeError(f"eval(limit={LIMIT}) ended {log.status}: {log.error}")
            result["samples_built"] = len(log.samples or [])
    else:
        raise ValueError(f"unknown mode {mode!r}")
    finished = time.perf_counter()
    result.update(
        import_inspect_s=after_inspect - started,
        import_datasets_s=after_datasets - after_inspect,
        import_benchmark_s=after_benchmark - after_datasets,
        construct_s=after_construct - after_benchmark,
        build_s=finished - after_construct,
        beyond_imports_s=finished - after_benchmark,
        built_rows=built_rows(dataset),
        rss_after_imports_mb=rss_imports,
        peak_rss_mb=peak_rss_mb(),
    )
    return result
