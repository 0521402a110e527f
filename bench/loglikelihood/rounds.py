"""Log-likelihood scoring through real HTTP: this project against lm-evaluation-harness.

``python -m bench.loglikelihood`` serves tests/completions_server.py (a tokenizer
and echoed log-probabilities, answering at once) in a process of its own, then runs
Winogrande by log-likelihood on the 1,267 validation rows of
tests/fixtures/winogrande/validation_full.jsonl, for each request path
(``--comparisons``, bench/loglikelihood/commands.py: ``token-ids``, ``vllm``, ``text``) and
each ``--shots``, in ``--pairs`` rounds: our ``inspect eval`` and lm-evaluation-harness
0.4.13's ``lm_eval`` one after the other, and with ``--shards 2,4`` our run split into
that many processes and merged (``python -m benchmarks.shards eval``), the side that
goes first rotating from one round to the next, so that whatever else the machine is
doing falls on every side. With ``--floor`` (the default), each round also runs
bench/loglikelihood/floor_task.py, 0 and then 2 plain requests a question through Inspect's
``Model.generate`` (no tokenizer, no prefix; the first ``--shots`` only, as it has
none): the floor under anything built on Inspect that records every request. lm-eval's
python is ``--lm-eval-python``, ``$LM_EVAL_PYTHON`` or the peer tests' venv
(tests/peers/peer_env.py) when it exists.

Each run is a fresh process timed from start to exit (imports, data, the
server's tokenizer calls, the log included); samples/s is questions over that
wall time. Before the timed pairs each side runs once untimed (files read from
disk, lm-eval's datasets cache filled, as a user's second run finds them).
Output: a markdown table on stdout (medians with their ranges over the pairs,
and the median of the pairs' ratios) and ``bench/out/loglikelihood.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.common.http_runs import REPO_DIR, lm_eval_python
from bench.common.variants import pair_order
from bench.loglikelihood.commands import COMPARISONS, FIXTURE, FLOORS, Comparison, Run
from tests.peers.peer_env import ENV_DIR

OUT = REPO_DIR / "bench" / "out" / "loglikelihood.json"


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.completions_server"],
        cwd=REPO_DIR,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("PORT "):
        process.kill()
        raise RuntimeError(f"the completions server did not start: {line!r}")
    return process, int(line.split()[1])


def process_cpu_s(pid: int) -> float:
    """A process's CPU time so far (user + system), from /proc (the loopback server's)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peer_lm_eval_python() -> str | None:
    """The peer tests' lm-eval venv, when it has been made."""
    found = sorted(ENV_DIR.glob("lm-eval-*/bin/python"))
    return str(found[-1]) if found else None


def run_side(comparison: Comparison, side: str, run: Run) -> dict[str, Any]:
    if side.startswith("floor-"):
        result = FLOORS[int(side.removeprefix("floor-"))](run)
    else:
        result = (comparison.lm_eval if side == "lm-eval" else comparison.ours)(run)
    if result["returncode"] != 0:
        raise RuntimeError(f"{comparison.name} {side} failed:\n{result['output_tail']}")
    result.pop("output_tail")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.loglikelihood", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--shots", default="0,5")
    parser.add_argument("--comparisons", default=",".join(COMPARISONS))
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--lm-eval-python", default=None)
    parser.add_argument(
        "--floor",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also time bench/loglikelihood/floor_task.py in each pair (default: on)",
    )
    parser.add_argument(
        "--inspect-args", default="", help="more options for our side, e.g. --no-log-realtime"
    )
    parser.add_argument(
        "--shards",
        default="",
        help="also our run split into these many processes and merged, e.g. 2,4 (the sides "
        "ours-2, ours-4)",
    )
    args = parser.parse_args()
    rows = len(FIXTURE.read_text(encoding="utf-8").splitlines())
    python, detail = lm_eval_python(args.lm_eval_python or peer_lm_eval_python())
    if python is None:
        raise SystemExit(f"lm-eval needed: {detail}")
    comparisons = [COMPARISONS[name] for name in args.comparisons.split(",")]
    work = Path(tempfile.mkdtemp(prefix="bench-loglikelihood-"))
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_DATASETS_CACHE": str(work / "lm_eval_datasets_cache"),
    }
    server, port = start_server(env)
    # a terminated bench still stops its server (the finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    results: dict[str, Any] = {
        "rows": rows,
        "connections": args.connections,
        "lm_eval": detail,
        "inspect_args": args.inspect_args,
        "runs": [],
    }

    def one(comparison: Comparison, side: str, shots: int, label: str) -> dict[str, Any]:
        folder = work / f"{comparison.name}-{side}-{shots}-{label}"
        folder.mkdir()
        connections = 1 if comparison.sequential else args.connections
        extra = tuple(args.inspect_args.split())
        shards = int(side.removeprefix("ours-")) if side.startswith("ours-") else 1
        run = Run(port, shots, connections, folder, env, python, extra, shards)
        server_before = process_cpu_s(server.pid)
        result = run_side(comparison, side, run)
        # what the server spent answering this side: on a 2-core machine it shares the cores
        result["server_cpu_s"] = process_cpu_s(server.pid) - server_before
        return result

    floors = [f"floor-{requests}" for requests in FLOORS] if args.floor else []
    sharded = [f"ours-{count}" for count in args.shards.split(",") if count]
    try:
        for side in ("ours", "lm-eval", *sharded, *floors):
            one(comparisons[0], side, 0, "warm-up")
        for comparison in comparisons:
            all_shots = [int(s) for s in args.shots.split(",")]
            for shots in all_shots:
                for pair in range(args.pairs):
                    sides = list(pair_order(pair, ("ours", "lm-eval", *sharded)))
                    for side in sides + (floors if shots == all_shots[0] else []):
                        result = one(comparison, side, shots, str(pair))
                        samples_per_s = rows / result["wall_s"]
                        result.update(
                            comparison=comparison.name,
                            side=side,
                            shots=shots,
                            pair=pair,
                            samples_per_s=samples_per_s,
                        )
                        results["runs"].append(result)
                        print(
                            f"{comparison.name} {shots}-shot pair {pair} {side}: "
                            f"{result['wall_s']:.1f} s, {samples_per_s:.1f}/s",
                            flush=True,
                        )
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(report(results, args.pairs))


def report(results: dict[str, Any], pairs: int) -> str:
    """The markdown table: medians over the pairs with [min-max]."""
    lines = [
        f"\n{results['rows']} questions, {results['connections']} connections (text: 1), "
        f"lm-eval {results['lm_eval']}, ours {results['inspect_args'] or 'as configured'}, "
        f"medians of {pairs} alternated pairs [min-max]\n",
        "| path | shots | ours | ours samples/s | lm-eval samples/s | ours / lm-eval "
        "| CPU s ours | CPU s lm-eval | server CPU s, ours | server CPU s, lm-eval |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    keys = dict.fromkeys(
        (run["comparison"], run["shots"], run["side"])
        for run in results["runs"]
        if run["side"] == "ours" or run["side"].startswith("ours-")
    )
    for name, shots, ours in keys:
        runs = [r for r in results["runs"] if r["comparison"] == name and r["shots"] == shots]
        side = {
            who: sorted((r for r in runs if r["side"] == who), key=lambda r: r["pair"])
            for who in (ours, "lm-eval")
        }
        ratios = [
            a["samples_per_s"] / b["samples_per_s"]
            for a, b in zip(side[ours], side["lm-eval"], strict=True)
        ]
        processes = "1 process" if ours == "ours" else f"{ours.removeprefix('ours-')} shards"
        cells = [
            processes,
            spread([r["samples_per_s"] for r in side[ours]], 1),
            spread([r["samples_per_s"] for r in side["lm-eval"]], 1),
            spread(ratios, 2),
            spread([r["cpu_s"] for r in side[ours]], 1),
            spread([r["cpu_s"] for r in side["lm-eval"]], 1),
            spread([r.get("server_cpu_s", math.nan) for r in side[ours]], 1),
            spread([r.get("server_cpu_s", math.nan) for r in side["lm-eval"]], 1),
        ]
        lines.append(f"| {name} | {shots} | " + " | ".join(cells) + " |")
    floors = [run for run in results["runs"] if run["side"].startswith("floor-")]
    if floors:
        lines += [
            "\nInspect's floor (bench/loglikelihood/floor_task.py: plain requests a question, "
            "no tokenizer, no prefix)\n",
            "| path | requests a question | samples/s | CPU s |",
            "|---|---|---|---|",
        ]
        for name, side in dict.fromkeys((run["comparison"], run["side"]) for run in floors):
            runs = [r for r in floors if r["comparison"] == name and r["side"] == side]
            lines.append(
                f"| {name} | {side.removeprefix('floor-')} | "
                f"{spread([r['samples_per_s'] for r in runs], 1)} | "
                f"{spread([r['cpu_s'] for r in runs], 1)} |"
            )
    return "\n".join(lines)


def spread(values: list[float], digits: int) -> str:
    return (
        f"{statistics.median(values):.{digits}f} "
        f"[{min(values):.{digits}f}-{max(values):.{digits}f}]"
    )


if __name__ == "__main__":
    main()
