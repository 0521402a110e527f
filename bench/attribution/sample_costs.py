"""Where a sample's milliseconds go, ours against bare Inspect: ``python -m bench.attribution``
(needs py-spy: ``pip install py-spy``).

One ``inspect eval`` a side, run exactly as ``bench.overhead`` runs them (the same
loopback server, inputs, options and ``--limit``), each sampled by py-spy (all threads, CPU
only, ``--nonblocking`` so the process is never paused). Every sampled stack goes to one
category (``category``): a phase when any frame is in it (imports, the running metrics),
else the component of its innermost frame that names one (so our solver's prompt building
is ours, the model call it makes Inspect's, and the HTTP under that the client's). A
category's samples over the sampling rate, divided by the run's samples, is its CPU
milliseconds a sample; the fixed cost of a run (imports,
building the dataset) is spread over the samples too, and named apart.

Writes ``bench/out/<name>.json`` and ``.md`` (default ``attribution``), with py-spy's raw
stacks beside them (``<name>_<benchmark>_<side>.txt``), and prints the table.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.common.http_runs import inspect_eval
from bench.common.variants import (
    EVERY_ROW,
    OUT_DIR,
    add_run_arguments,
    eval_options,
    loopback_server,
    results_head,
    variant_commands,
    write_inputs,
    write_results,
)
from bench.generate_data import default_seed_dir
from bench.generate_data import generate as generate_data
from bench.workloads import case, chosen_cases

RATE = 250  # samples a second
# (category, fragments of a frame "function (file:line)"), in three kinds. A phase takes a
# stack when any of its frames matches (imports, and Inspect recomputing the running
# metrics, whatever they call). Otherwise the stack goes to the component of its innermost
# frame that matches one: our solver's own prompt building, but the model call it makes is
# Inspect's, and the HTTP under that the client's. What no component matches goes to the
# first catch-all one of its frames matches.
PHASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("start-up: imports", ("_find_and_load",)),
    ("running metrics (Inspect's eval_results, reducers, metrics)", ("_eval/task/results.py",)),
)
COMPONENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("our dataset (rows read, samples built)", ("/benchmarks/data/",)),
    ("our solvers (prompt built)", ("/benchmarks/solvers/", "/benchmarks/models/")),
    ("our scorer", ("/benchmarks/scorers/",)),
    ("HTTP client (openai SDK, httpx)", ("/openai/", "/httpx/", "/httpcore/", "/h11/")),
    ("realtime sample buffer", ("log/_recorders/buffer/", "log/_samples.py")),
    ("log writing (.eval recorder, condensing)", ("log/_recorders/", "log/_condense.py")),
    ("transcript events, state diffs", ("inspect_ai/event/", "log/_transcript", "util/_json")),
    ("Inspect's model call (Model.generate)", ("inspect_ai/model/",)),
    ("Inspect's scorer and solver plumbing", ("inspect_ai/scorer/", "inspect_ai/solver/")),
)
CATCH_ALLS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Inspect's sample loop (task/run.py and the rest)", ("inspect_ai/",)),
    ("event loop (asyncio, anyio)", ("asyncio/", "/anyio/")),
    ("other", ("",)),
)
CATEGORIES = PHASES + COMPONENTS + CATCH_ALLS  # the report's order


def category(stack: str) -> str:
    """The category of a collapsed stack (frames from the outermost to the innermost,
    joined by ``;``)."""
    frames = stack.split(";")
    for name, fragments in PHASES:
        if any(fragment in frame for frame in frames for fragment in fragments):
            return name
    for frame in reversed(frames):
        for name, fragments in COMPONENTS:
            if any(fragment in frame for fragment in fragments):
                return name
    for name, fragments in CATCH_ALLS:
        if any(fragment in frame for frame in frames for fragment in fragments):
            return name
    return "other"


def read_stacks(path: Path) -> Counter[str]:
    """py-spy's raw (collapsed) output: sampled counts by category."""
    counts: Counter[str] = Counter()
    for line in path.read_text(encoding="utf-8").splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            counts[category(stack)] += int(count)
    return counts


def py_spy() -> str:
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(found).exists():
        raise SystemExit("bench.attribution needs py-spy: pip install py-spy")
    return found


def sampled_eval(
    key: str, command: tuple[str, dict[str, Any], list[str]], env: dict[str, str], out: Path
) -> dict[str, Any]:
    """One ``inspect eval`` under py-spy; its run record and sampled counts."""
    task, config, options = command
    wrapper = [py_spy(), "record", "--format", "raw", "--rate", str(RATE), "--nonblocking"]
    wrapper += ["--threads", "--full-filenames", "--output", str(out), "--"]
    run = inspect_eval(task, config, key, case(key), options, env, wrapper)
    run["counts"] = dict(read_stacks(out)) if out.exists() else {}
    return run


def per_sample(counts: dict[str, int], samples: int) -> dict[str, float]:
    """CPU milliseconds a sample by category."""
    return {name: 1000.0 * count / RATE / samples for name, count in counts.items()}


def report(results: dict[str, Any]) -> str:
    info = results["machine"]
    lines = [
        f"Run {results['started']}, {info.get('cpus')} CPUs ({info.get('cpu_model')}), "
        f"Python {info.get('python')}, "
        + ", ".join(f"{name} {version}" for name, version in info.get("versions", {}).items())
        + f"; {results['samples']} samples a run, options `{' '.join(results['options'])}`, "
        f"py-spy at {RATE} Hz. CPU ms a sample (the run's fixed cost spread over its samples).",
    ]
    for key, sides in results["benchmarks"].items():
        ours, bare = sides["ours"], sides["bare"]
        lines += [
            "",
            f"**{key}** (ours {ours['wall_s']:.1f} s wall, bare {bare['wall_s']:.1f} s, "
            "under py-spy)",
            "",
            "| where | ours ms/sample | bare ms/sample | ours - bare |",
            "|---|---|---|---|",
        ]
        mine, theirs = ours["ms_per_sample"], bare["ms_per_sample"]
        for name, _ in CATEGORIES:
            if name in mine or name in theirs:
                a, b = mine.get(name, 0.0), theirs.get(name, 0.0)
                lines.append(f"| {name} | {a:.2f} | {b:.2f} | {a - b:+.2f} |")
        total_a, total_b = sum(mine.values()), sum(theirs.values())
        lines.append(f"| **all** | {total_a:.2f} | {total_b:.2f} | {total_a - total_b:+.2f} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.attribution", description=__doc__.split("\n\n")[0]
    )
    add_run_arguments(parser, "attribution", "more `inspect eval` options, quoted")
    args = parser.parse_args(argv)
    try:
        keys = chosen_cases(args.only)
    except ValueError as error:
        parser.error(str(error))
    py_spy()
    generate_data(args.data, seed_dir=default_seed_dir())
    options = eval_options(args)
    results: dict[str, Any] = {**results_head(args, options), "benchmarks": {}}
    OUT_DIR.mkdir(exist_ok=True)
    with loopback_server(args.data, pin=True) as env:
        with tempfile.TemporaryDirectory(prefix="bench-costs-") as tmp:
            for key in keys:
                inputs = write_inputs(key, EVERY_ROW, Path(tmp), args.data)
                commands = variant_commands(key, inputs, args.data, env, options)
                sides: dict[str, Any] = {}
                for side in ("ours", "bare"):
                    raw = OUT_DIR / f"{args.name}_{key}_{side}.txt"
                    run = sampled_eval(key, commands[side], env, raw)
                    if run.get("status") != "ok":
                        raise SystemExit(f"{key} {side} failed: {run.get('output_tail', '')}")
                    samples = run.get("samples", args.samples)
                    run["ms_per_sample"] = per_sample(run["counts"], samples)
                    sides[side] = run
                    print(f"  {key} {side}: {run['wall_s']:.1f} s", flush=True)
                results["benchmarks"][key] = sides
    write_results(args.name, results, report(results))


if __name__ == "__main__":
    main()
