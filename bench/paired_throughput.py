"""Ours, bare and bare + metadata through HTTP, paired round by round (``--parts throughput``)."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.http_runs import inspect_eval
from bench.throughput_variants import LOGGING_MODES, VARIANTS, describe, summarize, variant_commands
from bench.workloads import case


def per_sample_cpu_ms(full: dict[str, Any], fixed: dict[str, Any], samples: int) -> float | None:
    """A full run's CPU beyond its ``--limit 1`` twin, per further sample."""
    if full.get("status") != "ok" or fixed.get("status") != "ok":
        return None
    return (full["cpu_s"] - fixed["cpu_s"]) / (samples - 1) * 1000


def throughput_part(args: argparse.Namespace, env: dict[str, str], work: Path) -> dict[str, Any]:
    """Ours, bare and bare_meta, each logging mode, ``args.repeat`` rounds.

    Each full run has a ``--limit 1`` twin: that run's CPU is the process's
    fixed cost (imports, task construction, Inspect building every sample
    before it applies ``--limit``, log set-up), so the difference over the
    remaining samples is the per-sample cost, paired round by round. With
    ``--pairing concurrent`` (the default) the variants of a round run at the
    same time on the harness CPU, so a change in the machine's speed hits them
    alike; their wall times then mean nothing, so samples/s comes from one
    more full run of ours and of bare alone. With ``sequential`` they run one
    after another (twin, then full run) in rotating order.
    """
    results: dict[str, Any] = {}
    concurrent = args.pairing == "concurrent"
    for key in args.only:
        inputs = args.inputs[key]
        runs: dict[str, list[dict[str, Any]]] = {}
        fixed: dict[str, list[dict[str, Any]]] = {}
        solo: dict[str, list[dict[str, Any]]] = {}

        run = functools.partial(one_run, args, env, key, inputs)

        for repeat in range(args.repeat):
            for mode in LOGGING_MODES:
                shift = repeat % len(VARIANTS)
                variants = VARIANTS[shift:] + VARIANTS[:shift]
                for variant, (twin, full) in run_round(
                    run, variants, mode, args.samples, concurrent
                ).items():
                    fixed.setdefault(f"{variant}_{mode}", []).append(twin)
                    runs.setdefault(f"{variant}_{mode}", []).append(full)
        if concurrent:
            for mode in LOGGING_MODES:
                for variant in ("ours", "bare"):
                    solo[f"{variant}_{mode}"] = [run(variant, mode, args.samples)]
        results[key] = {
            name: summarize(solo.get(name, r), args.samples) for name, r in runs.items()
        }
        for name, fixed_runs in fixed.items():
            if concurrent:
                results[key][name]["paired_runs"] = runs[name]
            results[key][name]["fixed_cpu_s"] = [r.get("cpu_s") for r in fixed_runs]
            results[key][name]["per_sample_cpu_ms"] = [
                per_sample_cpu_ms(full, start, args.samples)
                for full, start in zip(runs[name], fixed_runs, strict=True)
            ]
        results[key]["samples"] = args.samples
        results[key]["pairing"] = args.pairing
    return results


def one_run(
    args: argparse.Namespace,
    env: dict[str, str],
    key: str,
    inputs: dict[str, Any],
    variant: str,
    mode: str,
    limit: int,
) -> dict[str, Any]:
    """One ``inspect eval`` of a variant in a logging mode, ``--limit limit``."""
    base = ["--limit", str(limit), "--max-connections", str(args.connections)]
    task, config, options = variant_commands(
        key, inputs, args.data, env, base + LOGGING_MODES[mode]
    )[variant]
    result = inspect_eval(task, config, key, case(key), options, env)
    print(f"  {key} {variant} {mode} --limit {limit}: {describe(result, limit)}", flush=True)
    return result


def run_round(
    run: Callable[[str, str, int], dict[str, Any]],
    variants: list[str],
    mode: str,
    samples: int,
    concurrent: bool,
) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Each variant's ``--limit 1`` twin and full run: all twins at once, then all
    full runs at once (``concurrent``), or each twin and its full run in turn."""
    if not concurrent:
        return {
            variant: (run(variant, mode, 1), run(variant, mode, samples)) for variant in variants
        }
    with ThreadPoolExecutor(len(variants)) as pool:
        twins = [pool.submit(run, variant, mode, 1) for variant in variants]
        twin_runs = [twin.result() for twin in twins]
        fulls = [pool.submit(run, variant, mode, samples) for variant in variants]
        return {
            variant: (twin, full.result())
            for variant, twin, full in zip(variants, twin_runs, fulls, strict=True)
        }
