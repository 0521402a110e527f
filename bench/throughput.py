"""Throughput through real HTTP: ``python -m bench.throughput`` (see bench/README.md).

Starts the instant loopback server (``bench.loopback``, its own process,
127.0.0.1 only), measures its own ceiling with a fast client, then for each
benchmark runs ``inspect eval`` on our task and on a bare Inspect task over
the same prompts, targets and images (``bench.bare_task``), and on that bare
task also given our samples' metadata, choices and breakdowns (``bare_meta``),
with default logging and with ``--no-log-realtime``, in rotating order; lm-evaluation-
harness on TriviaQA beside them when ``$LM_EVAL_PYTHON`` names its python.
ScienceQA's peak memory: a full run and a ``--limit 10`` run, ours and bare.
The Inspect options sweep (``--parts options``) times TriviaQA under each
logging and concurrency option. Writes ``bench/out/throughput.md`` and
``.json``.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.generate_data import DATA_DIR, TRIVIAQA_TRAIN, TRIVIAQA_VALIDATION, default_seed_dir
from bench.generate_data import generate as generate_data
from bench.http_runs import (
    REPO_DIR,
    SERVICE,
    cpu_plan,
    inspect_eval,
    lm_eval_python,
    lm_eval_run,
    pin_cpus,
    server_ceiling,
    start_server,
)
from bench.measure import SPECS
from bench.run import child_env, machine
from bench.throughput_report import report

OUT_DIR = Path(__file__).resolve().parent / "out"
BENCHMARKS = ("triviaqa", "simpleqa", "winogrande", "scienceqa", "scienceqa_image")
# Task files, not registry names: an editable install of the distribution
# (inspect-reference-benchmarks) hides the "benchmarks/" names from Inspect.
TASK_NAMES = {key: f"{SPECS[key].module.replace('.', '/')}.py" for key in BENCHMARKS}
VARIANTS = ["ours", "bare", "bare_meta"]
# The bare tasks get every row of our task's dataset and the same --limit:
# Inspect builds and holds every sample of a dataset before it applies
# --limit, and a smaller heap makes each full garbage collection cheaper, so a
# bare task over only the evaluated rows would be spared a cost that bare
# Inspect over the same dataset pays too.
EVERY_ROW = 10**9
LOGGING_MODES: dict[str, list[str]] = {"default": [], "fast": ["--no-log-realtime"]}
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


def http_env(data_dir: Path, base_url: str) -> dict[str, str]:
    env = child_env(data_dir)
    env[f"{SERVICE.upper()}_BASE_URL"] = base_url
    env[f"{SERVICE.upper()}_API_KEY"] = "x"
    return env


def replies() -> dict[str, str]:
    texts = {key: spec.reply for key, spec in SPECS.items()}
    texts["grader"] = next(s.grader_reply for s in SPECS.values() if s.grader_reply)  # type: ignore[misc]
    return texts


def ceiling_bodies(inputs: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Request bodies the size of a TriviaQA prompt and of a ScienceQA image prompt."""
    import base64

    bodies: dict[str, dict[str, Any]] = {}
    for key, entry in inputs.items():
        first = json.loads(Path(entry["inputs"]).read_text(encoding="utf-8").splitlines()[0])
        content: Any = first["text"]
        if first.get("image"):
            data = base64.b64encode(Path(first["image"]).read_bytes()).decode()
            content = [
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}},
                {"type": "text", "text": first["text"]},
            ]
        bodies[key] = {"model": key, "messages": [{"role": "user", "content": content}]}
    return bodies


def write_inputs(key: str, samples: int, work: Path, data_dir: Path) -> dict[str, Any]:
    import subprocess
    import sys

    out = work / key
    done = subprocess.run(
        [sys.executable, "-m", "bench.throughput_inputs", "--benchmark", key]
        + ["--samples", str(samples), "--out", str(out), "--data", str(data_dir)],
        cwd=REPO_DIR,
        env=child_env(data_dir),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"inputs for {key}: {done.stderr.strip().splitlines()[-1:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def variant_commands(
    key: str, inputs: dict[str, Any], data_dir: Path, env: dict[str, str], options: list[str]
) -> dict[str, Any]:
    """(task, task config, options) for ``inspect eval`` of each variant.

    ``ours``: our task; ``bare``: the bare task on the same prompts, targets
    and images; ``bare_meta``: the bare task also given our samples' metadata
    and choices and Inspect's grouped accuracy over our breakdown keys.
    """
    spec = SPECS[key]
    bare_config = {"inputs": inputs["inputs"]}
    if "judge_template" in inputs:
        bare_config["judge_template"] = inputs["judge_template"]
    meta_config = {**bare_config, "sample_metadata": True, "group_by": inputs["group_by"]}
    return {
        "ours": (TASK_NAMES[key], spec.task_args(data_dir), options),
        "bare": ("bench/bare_task.py", bare_config, options),
        "bare_meta": ("bench/bare_task.py", meta_config, options),
    }


def median_rate(runs: list[dict[str, Any]], samples: int, field: str) -> float | None:
    values = [samples / run[field] for run in runs if run.get("status") == "ok"]
    return statistics.median(values) if values else None


def summarize(runs: list[dict[str, Any]], samples: int) -> dict[str, Any]:
    ok = [run for run in runs if run.get("status") == "ok"]
    return {
        "runs": runs,
        "ok": len(ok),
        "samples_per_s": median_rate(runs, samples, "wall_s"),
        "cpu_ms_per_sample": 1000 / rate if (rate := median_rate(runs, samples, "cpu_s")) else None,
        "peak_rss_mb": statistics.median(r["peak_rss_mb"] for r in ok) if ok else None,
        "error": next((r.get("output_tail", "")[-600:] for r in runs if r not in ok), None),
    }


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
    result = inspect_eval(task, config, key, SPECS[key], options, env)
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


def lm_eval_part(args: argparse.Namespace, env: dict[str, str], port: int) -> dict[str, Any]:
    python, detail = lm_eval_python(args.lm_eval_python)
    if python is None:
        print(f"  lm-eval skipped: {detail}", flush=True)
        return {"status": "skipped", "reason": detail}
    runs = []
    for _ in range(args.repeat):
        result = lm_eval_run(
            python,
            args.data / f"{TRIVIAQA_TRAIN}.parquet",
            args.data / f"{TRIVIAQA_VALIDATION}.parquet",
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
                result = inspect_eval(task, config, key, SPECS[key], opts, env)
                print(f"  {key} {label} {variant}: {describe(result, None)}", flush=True)
                measured[f"{variant}_{label}"] = result
            # A first run, with empty caches: the child reads the split (and fills the
            # image cache).
            with tempfile.TemporaryDirectory(prefix="bench-empty-cache-") as empty:
                task, config, opts = commands["ours"]
                cold_env = {**env, "INSPECT_BENCHMARKS_CACHE": empty}
                result = inspect_eval(task, config, key, SPECS[key], opts, cold_env)
                print(f"  {key} {label} ours, empty cache: {describe(result, None)}", flush=True)
                measured[f"ours_{label}_cold"] = result
        task, config, opts = variant_commands(key, few, args.data, env, connections)["bare"]
        result = inspect_eval(task, config, key, SPECS[key], opts, env)
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
            TASK_NAMES[key], SPECS[key].task_args(args.data), key, SPECS[key], opts + options, env
        )
        print(f"  options {label}: {describe(result, args.samples)}", flush=True)
        results[label] = summarize([result], args.samples)
    return results


def describe(result: dict[str, Any], samples: int | None) -> str:
    if result.get("status") != "ok":
        return f"ERROR {result.get('error') or result.get('output_tail', '')[-400:]}"
    rate = f"{samples / result['wall_s']:.1f} samples/s, " if samples else ""
    return f"{rate}{result['wall_s']:.1f} s, peak {result['peak_rss_mb']:.0f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--only", default=",".join(BENCHMARKS))
    parser.add_argument("--parts", default="ceiling,throughput,lm_eval,memory,options")
    parser.add_argument("--lm-eval-python", default=None)
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the server on the first CPU, every harness on the others (default: on)",
    )
    parser.add_argument(
        "--pairing",
        choices=("concurrent", "sequential"),
        default="concurrent",
        help="run the variants of a round at the same time on the harness CPU (default), "
        "or one after another",
    )
    parser.add_argument("--data", type=Path, default=DATA_DIR)
    parser.add_argument(
        "--reuse", type=Path, default=None, help="a throughput.json whose other parts to keep"
    )
    args = parser.parse_args()
    args.only = [key for key in args.only.split(",") if key]
    parts = set(args.parts.split(","))
    started = time.perf_counter()
    generate_data(args.data, seed_dir=default_seed_dir())
    results: dict[str, Any] = {
        "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "samples": args.samples,
        "repeat": args.repeat,
        "connections": args.connections,
    }
    if args.reuse is not None:
        previous = json.loads(args.reuse.read_text(encoding="utf-8"))
        for part in ("ceiling", "throughput", "lm_eval", "memory", "options"):
            if part not in parts and part in previous:
                results[part] = previous[part]
        if "throughput" not in parts:  # the header describes the throughput runs
            for key in ("started", "machine", "samples", "repeat", "connections", "cpu_plan"):
                results[key] = previous[key]
    env = child_env(args.data)
    server = start_server(replies(), env)
    plan = cpu_plan() if args.pin else None
    pin_cpus(server, plan)
    if "throughput" in parts or args.reuse is None:
        results["cpu_plan"] = (
            None if plan is None else {"server": sorted(plan[0]), "harness": sorted(plan[1])}
        )
    env = http_env(args.data, server.base_url)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-throughput-") as tmp:
            work = Path(tmp)
            needed = set(args.only)
            if "ceiling" in parts:
                needed |= {"triviaqa", "scienceqa_image"}
            args.inputs = {key: write_inputs(key, EVERY_ROW, work, args.data) for key in needed}
            if "ceiling" in parts:
                bodies = ceiling_bodies(
                    {k: args.inputs[k] for k in ("triviaqa", "scienceqa_image")}
                )
                results["ceiling"] = {
                    key: server_ceiling(server, body, 3000 if key == "triviaqa" else 1000, env)
                    for key, body in bodies.items()
                }
                print(f"server ceiling: {results['ceiling']}", flush=True)
            if "throughput" in parts:
                results["throughput"] = throughput_part(args, env, work)
            if "lm_eval" in parts:
                results["lm_eval"] = lm_eval_part(args, env, server.port)
            if "memory" in parts:
                results["memory"] = memory_part(args, env, work)
            if "options" in parts:
                results["options"] = options_part(args, env)
    finally:
        server.stop()
    results["machine"]["load_average_end"] = __import__("os").getloadavg()
    results["seconds"] = results.get("seconds", 0) + time.perf_counter() - started
    OUT_DIR.mkdir(exist_ok=True)
    text = report(results)
    (OUT_DIR / "throughput.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    (OUT_DIR / "throughput.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
