"""The throughput bench's other parts: lm-eval on TriviaQA, peak memory and start, and
the Inspect options sweep."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from bench.http_runs import inspect_eval, lm_eval_python, lm_eval_run
from bench.throughput_variants import (
    EVERY_ROW,
    describe,
    summarize,
    task_file,
    variant_commands,
    write_inputs,
)
from bench.workloads import case
from bench.workloads import triviaqa as triviaqa_workload

OPTION_SWEEP: dict[str, list[str]] = {
    "default": [],
    "--no-log-realtime": ["--no-log-realtime"],
    "--log-buffer 100": ["--log-buffer", "100"],
    "--no-log-realtime --log-buffer 100": ["--no-log-realtime", "--log-buffer", "100"],
    "--no-log-samples": ["--no-log-samples"],
    "--no-log-realtime --no-log-samples": ["--no-log-realtime", "--no-log-samples"],
    "--max-connections 8": ["--max-connections", "8"],
    "--max-connections 128": ["--max-connections", "128"],
    "--max-samples 8": ["--max-samples", "8"],
}


def lm_eval_part(args: argparse.Namespace, env: dict[str, str], port: int) -> dict[str, Any]:
    python, detail = lm_eval_python(args.lm_eval_python)
    if python is None:
        print(f"  lm-eval skipped: {detail}", flush=True)
        return {"status": "skipped", "reason": detail}
    runs = []
    for _ in range(args.repeat):
        result = lm_eval_run(
            python,
            args.data / f"{triviaqa_workload.TRAIN}.parquet",
            args.data / f"{triviaqa_workload.VALIDATION}.parquet",
            args.samples,
            port,
            args.connections,
            env,
        )
        print(f"  lm-eval triviaqa: {describe(result, args.samples)}", flush=True)
        runs.append(result)
    return {"status": "ok", "version": detail, **summarize(runs, args.samples)}


# Benchmarks whose peak memory and start are measured (their full data is large).
MEMORY_BENCHMARKS = ("scienceqa", "triviaqa")


def memory_part(args: argparse.Namespace, env: dict[str, str], work: Path) -> dict[str, Any]:
    """Peak RSS and wall time of a full run and a ``--limit 10`` run, ours and bare, for each
    of ``MEMORY_BENCHMARKS``; the bare task also on 10 rows only (what a ``--limit 10`` run
    of ours, which reads every row, starts against); ours once with empty caches."""
    results: dict[str, Any] = {}
    connections = ["--max-connections", str(args.connections)]
    for key in MEMORY_BENCHMARKS:
        full = write_inputs(key, EVERY_ROW, work / "memory", args.data)
        few = write_inputs(key, 10, work / "memory_10_rows", args.data)
        measured: dict[str, Any] = {"rows": full["samples"]}
        for label, limit in (("full", []), ("limit10", ["--limit", "10"])):
            commands = variant_commands(key, full, args.data, env, limit + connections)
            for variant in ("ours", "bare"):
                task, config, opts = commands[variant]
                result = inspect_eval(task, config, key, case(key), opts, env)
                print(f"  {key} {label} {variant}: {describe(result, None)}", flush=True)
                measured[f"{variant}_{label}"] = result
            # A first run, with empty caches: the child reads the split (and fills the
            # image cache).
            with tempfile.TemporaryDirectory(prefix="bench-empty-cache-") as empty:
                task, config, opts = commands["ours"]
                cold_env = {**env, "INSPECT_BENCHMARKS_CACHE": empty}
                result = inspect_eval(task, config, key, case(key), opts, cold_env)
                print(f"  {key} {label} ours, empty cache: {describe(result, None)}", flush=True)
                measured[f"ours_{label}_cold"] = result
        task, config, opts = variant_commands(key, few, args.data, env, connections)["bare"]
        result = inspect_eval(task, config, key, case(key), opts, env)
        print(f"  {key} bare on 10 rows: {describe(result, None)}", flush=True)
        measured["bare_10_rows"] = result
        results[key] = measured
    return results


def options_part(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    key = "triviaqa"
    results: dict[str, Any] = {"samples": args.samples}
    for label, options in OPTION_SWEEP.items():
        opts = ["--limit", str(args.samples)]
        if "--max-connections" not in options:
            opts += ["--max-connections", str(args.connections)]
        result = inspect_eval(
            task_file(key), case(key).task_args(args.data), key, case(key), opts + options, env
        )
        print(f"  options {label}: {describe(result, args.samples)}", flush=True)
        results[label] = summarize([result], args.samples)
    return results
