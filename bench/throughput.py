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
import json
import os
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.child_runs import child_env, machine
from bench.generate_data import DATA_DIR, default_seed_dir
from bench.generate_data import generate as generate_data
from bench.http_runs import cpu_plan, pin_cpus, server_ceiling, start_server
from bench.memory_and_options import lm_eval_part, memory_part, options_part
from bench.paired_throughput import throughput_part
from bench.throughput_report import report
from bench.throughput_variants import EVERY_ROW, ceiling_bodies, http_env, replies, write_inputs
from bench.workloads import cases

OUT_DIR = Path(__file__).resolve().parent / "out"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--only", default=",".join(cases()))
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
    results["machine"]["load_average_end"] = os.getloadavg()
    results["seconds"] = results.get("seconds", 0) + time.perf_counter() - started
    OUT_DIR.mkdir(exist_ok=True)
    text = report(results)
    (OUT_DIR / "throughput.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    (OUT_DIR / "throughput.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
