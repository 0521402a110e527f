"""Building the tasks, offline: ``python -m bench.construction`` (see bench/README.md).

Generates the full-size datasets if needed, then measures, each in fresh child
processes (``bench.construction.fresh_process``): task construction (imports, the
full dataset, a ``limit=10`` slice, ``eval(limit=10)``), scorer throughput and
ScienceQA image costs and what the package's entry point adds to every ``inspect``
command, for every case of every benchmark's workload
(``bench/workloads``). Prints a markdown report (``bench.construction.report``) and
writes it, with the raw numbers as JSON, under ``bench/out/``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.common.case_tasks import LIMIT
from bench.common.child_runs import machine, python_startup, run_child, summarize_construct
from bench.construction.entry_point import entry_point_cost
from bench.construction.report import report
from bench.generate_data import DATA_DIR, default_seed_dir, generate
from bench.workloads import cases, chosen_cases, workloads

OUT_DIR = Path(__file__).resolve().parents[1] / "out"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.construction", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="repetitions of each construction (medians)"
    )
    parser.add_argument("--image-samples", type=int, default=100, help="ScienceQA image rows timed")
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated cases (default: every case of every benchmark of the catalog)",
    )
    parser.add_argument(
        "--parts",
        default="construct,scorers,images,entry_point",
        help="comma-separated subset of construct,scorers,images,entry_point",
    )
    parser.add_argument("--quick", action="store_true", help="one repetition, fewer samples")
    parser.add_argument("--data", type=Path, default=DATA_DIR)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.image_samples = 1, 20
    try:
        keys = chosen_cases(args.only)
    except ValueError as error:
        parser.error(str(error))
    parts = set(args.parts.split(","))

    def progress(message: str) -> None:
        print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    started = time.perf_counter()
    generate(args.data, seed_dir=default_seed_dir(), log=progress)
    results: dict[str, Any] = {
        "started": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "settings": {
            "repeat": args.repeat,
            "image_samples": args.image_samples,
        },
        "data": json.loads((args.data / "manifest.json").read_text()),
    }

    if "construct" in parts:
        results["python_startup_s"] = python_startup(args.data, 5)
        progress(f"bare eval(limit={LIMIT}) x{args.repeat}")
        bare_runs = [
            run_child(["construct", "--benchmark", "triviaqa", "--mode", "bare_eval10"], args.data)
            for _ in range(args.repeat)
        ]
        results["bare_eval10"] = summarize_construct(bare_runs)
        construct: dict[str, dict[str, Any]] = {}
        for key in keys:
            modes = cases()[key].construct_modes
            progress(f"construct {key}: warm-up")
            warm = run_child(["construct", "--benchmark", key, "--mode", "limit10"], args.data)
            if warm.get("status") != "ok":
                construct[key] = {mode: warm for mode in modes}
                progress(f"construct {key}: {warm.get('status')}")
                continue
            construct[key] = {}
            for mode in modes:
                repeat = 1 if mode == "eval10" else args.repeat
                progress(f"construct {key} {mode} x{repeat}")
                runs = [
                    run_child(["construct", "--benchmark", key, "--mode", mode], args.data)
                    for _ in range(repeat)
                ]
                construct[key][mode] = summarize_construct(runs)
        results["construct"] = construct

    if "scorers" in parts:
        progress("scorer throughput")
        # each benchmark once: its main case
        selected = [key for key in keys if key in workloads()]
        arguments = ["scorers", "--samples", "300", "--repeat", str(args.repeat)]
        for key in selected:
            arguments += ["--benchmark", key]
        results["scorers"] = run_child(arguments, args.data) if selected else {}

    if "images" in parts and any(cases()[key].benchmark == "scienceqa" for key in keys):
        progress("scienceqa images")
        results["images"] = run_child(
            ["images", "--samples", str(args.image_samples), "--repeat", str(args.repeat)],
            args.data,
        )

    if "entry_point" in parts:
        progress("the package's entry point")
        results["entry_point"] = entry_point_cost(3 if args.quick else 7)

    results["machine"]["load_average_end"] = os.getloadavg()
    results["seconds"] = time.perf_counter() - started
    markdown = report(results)
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    for name in ("results.json", f"results-{stamp}.json"):
        (args.out / name).write_text(json.dumps(results, indent=2) + "\n")
    (args.out / "results.md").write_text(markdown + "\n")
    print(markdown)
    progress(f"done in {results['seconds']:.0f} s; wrote {args.out / 'results.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
