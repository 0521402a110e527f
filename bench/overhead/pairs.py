"""Our overhead against bare Inspect, in alternated rounds: ``python -m bench.overhead``.

Generation "within 5 % of bare Inspect", as a user sees it:
whole ``inspect eval`` processes, wall time from start to exit, our task file
against ``bench/common/bare_task.py`` given exactly the prompts, targets and images
our solvers send (``bench.common.bare_inputs``), on the same loopback server
(``bench.common.loopback``, a process of its own answering at once) with the same
options (``--limit N --max-connections 32``, default logging unless
``--options`` says otherwise). The two sides run one after another, never at
the same time, the first of each pair alternating (ours-bare, bare-ours, ...),
so that a drift in the machine's speed hits both alike. Each pair gives a
ratio, ours' wall time over bare's; the report is the median of those ratios
with their range, and the same of CPU time (user + system of the process,
from ``os.wait4``), which the other load on a shared machine disturbs less.

``--bare-meta`` adds a third side, the bare task also given our samples' metadata and
breakdowns; ``--shards`` adds our run split into processes and merged; ``--bare-rows``
gives the bare task fewer rows (the start a user sees). Writes ``bench/out/overhead.json``
(``--name``) (every run's raw numbers) and ``.md``, and prints the table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common.http_runs import inspect_eval
from bench.common.variants import (
    EVERY_ROW,
    SIDES,
    add_run_arguments,
    describe,
    eval_options,
    loopback_server,
    pair_order,
    results_head,
    variant_commands,
    write_inputs,
    write_results,
)
from bench.generate_data import default_seed_dir
from bench.generate_data import generate as generate_data
from bench.workloads import case, chosen_cases

WITH_BARE_META = ("ours", "bare", "bare_meta")
# (numerator, denominator, name) of each per-pair ratio reported
RATIOS = (
    ("ours", "bare", ""),
    ("ours", "bare_meta", "ours_over_bare_meta_"),
    ("bare_meta", "bare", "bare_meta_over_bare_"),
)


def spread(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summarize_pairs(
    pairs: list[dict[str, dict[str, Any]]], samples: int, sides: tuple[str, ...] = SIDES
) -> dict[str, Any]:
    """Samples/s of each side and, per pair, ours over bare (and, with ``bare_meta``, ours
    over it and it over bare), as medians and ranges; a pair counts when every side ran."""
    ok = [pair for pair in pairs if all(pair[side].get("status") == "ok" for side in sides)]
    summary: dict[str, Any] = {"pairs": len(pairs), "ok_pairs": len(ok), "sides": list(sides)}
    for side in sides:
        summary[f"{side}_samples_per_s"] = spread(
            [p[side].get("samples", samples) / p[side]["wall_s"] for p in ok]
        )
        summary[f"{side}_peak_rss_mb"] = spread([p[side]["peak_rss_mb"] for p in ok])
    for field in ("wall_s", "cpu_s"):
        summary[f"ours_{field}"] = spread([p["ours"][field] for p in ok])
        summary[f"bare_{field}"] = spread([p["bare"][field] for p in ok])
        summary[f"{field}_gap"] = spread([p["ours"][field] - p["bare"][field] for p in ok])
    for side in (side for side in sides if side.startswith("ours-")):
        for field, label in (("wall_s", "wall"), ("cpu_s", "cpu")):
            # one process's time over the shards': the speed-up (CPU: below 1, the cost)
            summary[f"{side}_speedup_{label}"] = spread(
                [p["ours"][field] / p[side][field] for p in ok]
            )
    for numerator, denominator, name in RATIOS:
        if numerator in sides and denominator in sides:
            for field, label in (("wall_s", "wall"), ("cpu_s", "cpu")):
                summary[f"{name}{label}_ratio"] = spread(
                    [p[numerator][field] / p[denominator][field] for p in ok]
                )
    return summary


def fmt(value: dict[str, float] | None, digits: int = 2) -> str:
    if value is None:
        return "n/a"
    return f"{value['median']:.{digits}f} ({value['min']:.{digits}f}-{value['max']:.{digits}f})"


def load(averages: list[float] | None) -> str:
    return "n/a" if averages is None else " ".join(f"{value:.1f}" for value in averages)


def report(results: dict[str, Any]) -> str:
    info = results["machine"]
    lines = [
        f"Run {results['started']}, {info.get('cpus')} CPUs ({info.get('cpu_model')}), "
        f"Python {info.get('python')}, "
        + ", ".join(f"{name} {version}" for name, version in info.get("versions", {}).items())
        + f"; load average {load(info.get('load_average_start'))} at start, "
        f"{load(info.get('load_average_end'))} at end; {results['seconds']:.0f} s in all. "
        f"{results['samples']} samples a run (fewer where the dataset is smaller), "
        f"options `{' '.join(results['options'])}`, "
        f"{results['pairs']} alternated pairs: median (range). The bare task given "
        + (f"{results['bare_rows']} rows." if results["bare_rows"] else "every row."),
        "",
        "| benchmark | ours samples/s | bare samples/s | ours / bare, wall | ours / bare, CPU "
        "| within 5 % (wall) | ours peak RSS MB | bare peak RSS MB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key, summary in results["benchmarks"].items():
        wall = summary["wall_ratio"]
        within = "n/a" if wall is None else ("yes" if wall["median"] <= 1.05 else "**no**")
        lines.append(
            f"| {key} | {fmt(summary['ours_samples_per_s'], 1)} "
            f"| {fmt(summary['bare_samples_per_s'], 1)} | {fmt(wall)} "
            f"| {fmt(summary['cpu_ratio'])} | {within} "
            f"| {fmt(summary['ours_peak_rss_mb'], 0)} | {fmt(summary['bare_peak_rss_mb'], 0)} |"
        )
    lines += [
        "",
        "| benchmark | ours wall s | bare wall s | ours - bare wall s | ours CPU s | bare CPU s "
        "| ours - bare CPU s |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, summary in results["benchmarks"].items():
        lines.append(
            f"| {key} | {fmt(summary['ours_wall_s'], 1)} | {fmt(summary['bare_wall_s'], 1)} "
            f"| {fmt(summary['wall_s_gap'])} | {fmt(summary['ours_cpu_s'], 1)} "
            f"| {fmt(summary['bare_cpu_s'], 1)} | {fmt(summary['cpu_s_gap'])} |"
        )
    benchmarks = results["benchmarks"].items()
    with_meta = {k: v for k, v in benchmarks if "bare_meta" in v.get("sides", ())}
    if with_meta:
        lines += [
            "",
            "With `bare_meta`, the bare task also given our samples' metadata and choices and "
            "Inspect's grouped accuracy over our breakdown keys: ours over it is what our own "
            "code costs, it over bare what Inspect costs for what our samples carry.",
            "",
            "| benchmark | bare_meta samples/s | ours / bare_meta, wall | ours / bare_meta, CPU "
            "| bare_meta / bare, wall | bare_meta / bare, CPU |",
            "|---|---|---|---|---|---|",
        ]
        for key, summary in with_meta.items():
            lines.append(
                f"| {key} | {fmt(summary['bare_meta_samples_per_s'], 1)} "
                f"| {fmt(summary['ours_over_bare_meta_wall_ratio'])} "
                f"| {fmt(summary['ours_over_bare_meta_cpu_ratio'])} "
                f"| {fmt(summary['bare_meta_over_bare_wall_ratio'])} "
                f"| {fmt(summary['bare_meta_over_bare_cpu_ratio'])} |"
            )
    sharded = {k: v for k, v in benchmarks if any(s.startswith("ours-") for s in v["sides"])}
    if sharded:
        lines += [
            "",
            "Our run split into shards (`python -m benchmarks.shards eval --shards N`, timed to "
            "the merged log), against the same run in one process (both with "
            "`-T num_examples` instead of `--limit`): one process's time over the shards'.",
            "",
            "| benchmark | processes | samples/s | speed-up, wall | one process's CPU over "
            "theirs |",
            "|---|---|---|---|---|",
        ]
        for key, summary in sharded.items():
            lines.append(f"| {key} | 1 | {fmt(summary['ours_samples_per_s'], 1)} | 1 | 1 |")
            for side in (side for side in summary["sides"] if side.startswith("ours-")):
                lines.append(
                    f"| {key} | {side.removeprefix('ours-')} "
                    f"| {fmt(summary[f'{side}_samples_per_s'], 1)} "
                    f"| {fmt(summary[f'{side}_speedup_wall'])} "
                    f"| {fmt(summary[f'{side}_speedup_cpu'])} |"
                )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.overhead", description=__doc__.split("\n\n")[0]
    )
    add_run_arguments(parser, "overhead", "more `inspect eval` options for both sides, quoted")
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the server on the first CPU, every eval on the others (default: on, but off "
        "with --shards: shards use every CPU, as they would on a user's machine)",
    )
    parser.add_argument(
        "--bare-rows",
        type=int,
        default=None,
        help="give the bare task only this many rows (default: every row, as Inspect builds "
        "every sample before --limit); --samples 10 --bare-rows 10 is the start a user sees",
    )
    parser.add_argument(
        "--bare-meta",
        action="store_true",
        help="a third side in every pair: the bare task also given our samples' metadata, "
        "choices and grouped breakdowns",
    )
    parser.add_argument(
        "--shards",
        default="",
        help="more sides: our run split into these many processes and merged, e.g. 2,4 "
        "(ours then cut by -T num_examples, as shards take no --limit)",
    )
    args = parser.parse_args()
    try:
        keys = chosen_cases(args.only)
    except ValueError as error:
        parser.error(str(error))
    sharded = tuple(f"ours-{count}" for count in args.shards.split(",") if count)
    sides = (WITH_BARE_META if args.bare_meta else SIDES) + sharded
    started = time.perf_counter()
    generate_data(args.data, seed_dir=default_seed_dir())
    options = eval_options(args)
    results: dict[str, Any] = {
        **results_head(args, options),
        "pairs": args.pairs,
        "bare_rows": args.bare_rows,
        "sides": list(sides),
        "runs": {},
        "benchmarks": {},
    }
    pin = args.pin if args.pin is not None else not sharded
    with loopback_server(args.data, pin=pin) as env:
        with tempfile.TemporaryDirectory(prefix="bench-generation-") as tmp:
            for key in keys:
                inputs = write_inputs(key, args.bare_rows or EVERY_ROW, Path(tmp), args.data)
                commands = variant_commands(key, inputs, args.data, env, options)
                if sharded:  # shards take no --limit: ours cut by num_examples, every side
                    task, config, _ = commands["ours"]
                    config = {**config, "num_examples": args.samples}
                    at = options.index("--limit")
                    cut = options[:at] + options[at + 2 :]
                    commands.update({side: (task, config, cut) for side in ("ours", *sharded)})
                pairs: list[dict[str, dict[str, Any]]] = []
                for index in range(args.pairs):
                    pair: dict[str, dict[str, Any]] = {}
                    for side in pair_order(index, sides):
                        task, config, side_options = commands[side]
                        shards = int(side.removeprefix("ours-")) if side in sharded else 1
                        pair[side] = inspect_eval(
                            task, config, key, case(key), side_options, env, shards=shards
                        )
                        print(
                            f"  {key} pair {index + 1} {side}: "
                            f"{describe(pair[side], args.samples)}",
                            flush=True,
                        )
                    pairs.append(pair)
                results["runs"][key] = pairs
                results["benchmarks"][key] = summarize_pairs(pairs, args.samples, sides)
    results["machine"]["load_average_end"] = os.getloadavg()
    results["seconds"] = time.perf_counter() - started
    write_results(args.name, results, report(results))


if __name__ == "__main__":
    main()
