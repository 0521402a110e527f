"""Measurements run in a child process: ``python -m bench.measure <command> [options]``.

Each command prints one line ``BENCH_RESULT <json>`` on stdout; ``bench.run``
starts the children, so every measurement starts from a fresh interpreter.
Only the standard library is imported at module level, so that the import
times of ``inspect_ai``, ``datasets`` and the benchmark module can be timed.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import gc
import importlib
import json
import resource
import statistics
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.generate_data import (
    DATA_DIR,
    SCIENCEQA_PARQUET,
    SIMPLEQA_CSV,
    TRIVIAQA_TRAIN,
    TRIVIAQA_VALIDATION,
    WINOGRANDE_JSONL,
)

RESULT_MARKER = "BENCH_RESULT "
LIMIT = 10
# TriviaQA is read from parquet: with a warm cache .jsonl and .parquet load
# alike (~0.01 s a split), cold the parquet is ten times faster, and it keeps
# the upstream feature types (JSON infers list<null> for the empty lists).
TRIVIAQA_FORMAT = "parquet"


@dataclass(frozen=True)
class Spec:
    """How the harness builds and drives one benchmark task."""

    key: str
    module: str
    function: str
    task_args: Callable[[Path], dict[str, Any]]
    reply: str
    grader_reply: str | None = None
    image_rows: bool = False


SPECS: dict[str, Spec] = {
    spec.key: spec
    for spec in (
        Spec(
            "triviaqa",
            "benchmarks.triviaqa",
            "triviaqa",
            lambda data: {
                "data_files": {
                    "validation": str(data / f"{TRIVIAQA_VALIDATION}.{TRIVIAQA_FORMAT}"),
                    "train": str(data / f"{TRIVIAQA_TRAIN}.{TRIVIAQA_FORMAT}"),
                }
            },
            reply="Sunset Boulevard",
        ),
        Spec(
            "simpleqa",
            "benchmarks.simpleqa",
            "simpleqa",
            lambda data: {"dataset_path": str(data / SIMPLEQA_CSV)},
            reply="Michio Sugeno",
            grader_reply="A",
        ),
        Spec(
            "winogrande",
            "benchmarks.winogrande",
            "winogrande",
            lambda data: {"data_files": str(data / WINOGRANDE_JSONL)},
            reply="ANSWER: A",
        ),
        Spec(
            "scienceqa",
            "benchmarks.scienceqa",
            "scienceqa",
            lambda data: {"data_files": str(data / SCIENCEQA_PARQUET)},
            reply="A",
        ),
        Spec(
            "scienceqa_image",
            "benchmarks.scienceqa",
            "scienceqa",
            lambda data: {"data_files": str(data / SCIENCEQA_PARQUET), "subset": "image"},
            reply="A",
            # The 2,017 test rows that have an image.
            image_rows=True,
        ),
    )
}


class Unavailable(Exception):
    """The benchmark's module or task function does not exist (yet)."""


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MB.

    ``VmHWM`` belongs to the process image; ``ru_maxrss`` would carry over the
    parent's peak across fork and exec.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def task_function(spec: Spec) -> Callable[..., Any]:
    try:
        module = importlib.import_module(spec.module)
    except ModuleNotFoundError as ex:
        if ex.name is not None and spec.module.startswith(ex.name):
            raise Unavailable(f"{spec.module} not available yet ({ex})") from ex
        raise
    function = getattr(module, spec.function, None)
    if function is None:
        raise Unavailable(f"{spec.module}.{spec.function} not available yet")
    return function  # type: ignore[no-any-return]


def make_task(spec: Spec, data_dir: Path) -> Any:
    return task_function(spec)(**spec.task_args(data_dir))


def models(spec: Spec) -> tuple[Any, dict[str, Any] | None]:
    from bench.scripted import constant_model

    model = constant_model(spec.reply)
    roles = None
    if spec.grader_reply is not None:
        roles = {"grader": constant_model(spec.grader_reply, name="grader")}
    return model, roles


def input_text(value: Any) -> str:
    """The text of a sample input (the text parts of its messages, for multimodal input)."""
    if isinstance(value, str):
        return value
    return "\n".join(message.text for message in value)


def rendered_samples(task: Any, samples: Sequence[Any]) -> list[Any]:
    """The samples with the prompt our solvers build as their input (for a bare task)."""
    from benchmarks.solvers.prompt_preview import prompt_messages

    return [
        sample.model_copy(update={"input": prompt_messages(task, sample)}) for sample in samples
    ]


def built_rows(dataset: Any) -> int | None:
    rows = getattr(dataset, "built_rows", None)
    return rows if isinstance(rows, int) else None


# --------------------------------------------------------------------------- construct


def cmd_construct(spec: Spec, mode: str, data_dir: Path) -> dict[str, Any]:
    """Import, construct the task, then build all samples (full) or the first ten."""
    started = time.perf_counter()
    import inspect_ai  # noqa: F401

    after_inspect = time.perf_counter()
    import datasets  # noqa: F401

    after_datasets = time.perf_counter()
    task_function(spec)
    after_benchmark = time.perf_counter()
    rss_imports = peak_rss_mb()

    task = make_task(spec, data_dir)
    after_construct = time.perf_counter()
    dataset = task.dataset
    result: dict[str, Any] = {"dataset_len": len(dataset)}
    if mode == "full":
        result["samples_built"] = sum(1 for _ in dataset)
    elif mode == "limit10":
        result["samples_built"] = len(list(dataset[0:LIMIT]))
    elif mode in ("eval10", "bare_eval10"):
        from inspect_ai import eval as inspect_eval

        model, roles = models(spec)
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


# --------------------------------------------------------------------------- end to end


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


def bare_task(samples: Sequence[Any], judged: bool = False, same_input: bool = False) -> Any:
    """``generate()`` + ``match()`` on the same prompt text and targets.

    ``judged``: Inspect's ``model_graded_fact()`` (role ``grader``) instead of
    ``match()``; ``same_input``: the samples' own input, images included,
    instead of its text.
    """
    from inspect_ai import Task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.scorer import match, model_graded_fact
    from inspect_ai.solver import generate

    dataset = MemoryDataset(
        [
            Sample(
                input=sample.input if same_input else input_text(sample.input),
                target=sample.target,
            )
            for sample in samples
        ]
    )
    return Task(
        dataset=dataset,
        solver=generate(),
        scorer=model_graded_fact(model_role="grader") if judged else match(),
    )


def sliced_task(spec: Spec, data_dir: Path, samples: int) -> Any:
    """Our task with its dataset cut to the first ``samples`` before eval() sees it."""
    task = make_task(spec, data_dir)
    task.dataset = task.dataset[0:samples]
    return task


def cmd_e2e(spec: Spec, samples: int, repeat: int, data_dir: Path) -> dict[str, Any]:
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
    model, roles = models(spec)
    reference = make_task(spec, data_dir)
    chosen = rendered_samples(reference, list(reference.dataset[0:samples]))
    samples = len(chosen)
    variants: dict[str, tuple[Callable[[], Any], Any]] = {
        "ours": (lambda: make_task(spec, data_dir), roles),
        "ours_sliced": (lambda: sliced_task(spec, data_dir, samples), roles),
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
        timed_eval(sliced_task(spec, data_dir, LIMIT), model, roles, LIMIT, log_dir)
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
    if spec.image_rows:
        result["source_png_bytes"] = mean_source_image_bytes(data_dir, samples)
    return result


def mean_source_image_bytes(data_dir: Path, rows: int) -> float:
    """Mean PNG size of the first ``rows`` rows that have an image, in file order."""
    import pyarrow.parquet as pq

    images = pq.read_table(data_dir / SCIENCEQA_PARQUET, columns=["image"]).column("image")
    sizes = [len(value["bytes"]) for value in images.to_pylist() if value is not None][:rows]
    return statistics.fmean(sizes)


# --------------------------------------------------------------------------- scorers


def task_states(spec: Spec, samples: Sequence[Any]) -> list[tuple[Any, Any]]:
    from inspect_ai.model import ChatMessageUser, ModelName
    from inspect_ai.scorer import Target
    from inspect_ai.solver import TaskState

    from bench.scripted import scripted_output

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
            output=scripted_output(spec.reply),
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
    from inspect_ai.model._model import init_model_roles
    from inspect_ai.scorer import match

    datasets.disable_progress_bars()
    results: dict[str, Any] = {}
    for key in keys:
        spec = SPECS[key]
        try:
            task = make_task(spec, data_dir)
        except Unavailable as ex:
            results[key] = {"status": "not available yet", "error": str(ex)}
            continue
        _, roles = models(spec)
        init_model_roles(roles or {})
        pairs = task_states(spec, list(task.dataset[0:samples]))
        entry: dict[str, Any] = {"samples": len(pairs), "scorers": {}}
        for scorer in task.scorer or []:
            name = getattr(scorer, "__registry_info__", None)
            label = getattr(name, "name", None) or getattr(scorer, "__qualname__", "scorer")
            entry["scorers"][label] = asyncio.run(scores_per_second(scorer, pairs, repeat))
        entry["match_baseline"] = asyncio.run(scores_per_second(match(), pairs, repeat))
        results[key] = entry
    return results


# --------------------------------------------------------------------------- images


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
    from benchmarks.data.images import encoded_image

    def data_uri(data: bytes) -> str:  # what an image becomes in the request
        return "data:image/png;base64," + base64.b64encode(encoded_image(data)).decode("ascii")

    result["image_data_uri_ms"] = 1000 * per_image(data_uri)
    result["data_uri_bytes"] = statistics.fmean(len(data_uri(b)) for b in sources)

    # Building samples through the task: the first image rows vs as many text rows.
    try:
        function = task_function(SPECS["scienceqa"])
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


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="One harness measurement (see bench/run.py).")
    parser.add_argument("command", choices=("construct", "e2e", "scorers", "images"))
    parser.add_argument("--benchmark", action="append", default=[])
    parser.add_argument("--mode", default="full")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=DATA_DIR)
    args = parser.parse_args(argv)
    try:
        if args.command == "construct":
            result = cmd_construct(SPECS[args.benchmark[0]], args.mode, args.data)
        elif args.command == "e2e":
            result = cmd_e2e(SPECS[args.benchmark[0]], args.samples, args.repeat, args.data)
        elif args.command == "scorers":
            result = cmd_scorers(args.benchmark, args.samples, args.repeat, args.data)
        else:
            result = cmd_images(args.samples, args.repeat, args.data)
        result.setdefault("status", "ok")
    except Unavailable as ex:
        result = {"status": "not available yet", "error": str(ex)}
    sys.stdout.write(RESULT_MARKER + json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
