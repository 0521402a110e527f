"""Log-likelihood scoring through real HTTP: this project against lm-evaluation-harness.

``python -m bench.loglikelihood_speed`` serves tests/completions_server.py (a
tokenizer and echoed log-probabilities, answering at once) in a process of its
own, then runs Winogrande by log-likelihood on the 1,267 validation rows of
tests/fixtures/winogrande/validation_full.jsonl, alternately:

- ours: ``inspect eval --run-config configs/winogrande_lm_eval.yaml --model
  openai-api-completions/loopback/scripted`` with ``--max-connections N``;
- lm-evaluation-harness 0.4.13: ``lm_eval --model local-completions
  --model_args ...,tokenizer_backend=remote,num_concurrent=N`` (its own
  ``winogrande`` yaml with local data), when ``--lm-eval-python`` (or
  ``$LM_EVAL_PYTHON``) names the python of a venv holding ``lm-eval[api]==0.4.13``.

Each run is a fresh process timed from start to exit (imports, data and the
server's tokenizer calls included); samples/s is questions over that wall
time. A question costs two completions requests and four ``/tokenize`` calls
on both sides. Output: a markdown table on stdout and ``bench/out/loglikelihood.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from bench.http_runs import REPO_DIR, lm_eval_python, timed_process
from tests.peers.peer_env import lm_eval_task_yaml

FIXTURE = REPO_DIR / "tests" / "fixtures" / "winogrande" / "validation_full.jsonl"
CONFIG = REPO_DIR / "configs" / "winogrande_lm_eval.yaml"
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


def ours(port: int, shots: int, connections: int, work: Path, env: dict[str, str]) -> dict:
    files = json.dumps({"validation": str(FIXTURE), "train": str(FIXTURE)})
    command = [
        str(Path(sys.executable).with_name("inspect")), "eval",
        "--run-config", str(CONFIG.relative_to(REPO_DIR)),
        "-T", f"shots={shots}", "-T", f"data_files={files}",
        "--model", "openai-api-completions/loopback/scripted",
        "--max-connections", str(connections),
        "--log-dir", str(work / "inspect"), "--display", "none",
    ]  # fmt: skip
    run_env = {**env, "LOOPBACK_BASE_URL": f"http://127.0.0.1:{port}/v1"}
    return timed_process(command, {**run_env, "LOOPBACK_API_KEY": "x"})


def lm_eval(
    python: str, port: int, shots: int, connections: int, work: Path, env: dict[str, str]
) -> dict:
    original = lm_eval_task_yaml(Path(python), "winogrande/default.yaml")
    tasks = work / "tasks"
    tasks.mkdir(exist_ok=True)
    local = {
        "include": str(original),
        "task": "winogrande_bench",
        "dataset_path": "json",
        "dataset_name": None,
        "dataset_kwargs": {"data_files": {"train": str(FIXTURE), "validation": str(FIXTURE)}},
    }
    (tasks / "winogrande_bench.yaml").write_text(yaml.safe_dump(local), encoding="utf-8")
    model_args = (
        f"model=scripted,base_url=http://127.0.0.1:{port}/v1/completions,"
        f"tokenizer_backend=remote,num_concurrent={connections},max_retries=1"
    )
    command = [
        python, "-m", "lm_eval", "--model", "local-completions", "--model_args", model_args,
        "--tasks", "winogrande_bench", "--include_path", str(tasks),
        "--num_fewshot", str(shots), "--output_path", str(work / "lm_eval"),
    ]  # fmt: skip
    lm_cache = str(work / "lm_eval_datasets_cache")
    return timed_process(command, {**env, "OPENAI_API_KEY": "x", "HF_DATASETS_CACHE": lm_cache})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shots", default="0,5")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--lm-eval-python", default=None)
    args = parser.parse_args()
    rows = len(FIXTURE.read_text(encoding="utf-8").splitlines())
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    python, detail = lm_eval_python(args.lm_eval_python)
    if python is None:
        print(f"lm-eval skipped: {detail}", flush=True)
    server, port = start_server(env)
    work = Path(tempfile.mkdtemp(prefix="bench-loglikelihood-"))
    results: dict[str, Any] = {"rows": rows, "connections": args.connections, "runs": []}
    try:
        for shots in [int(s) for s in args.shots.split(",")]:
            for repetition in range(args.repeat):
                sides = [("ours", ours), ("lm-eval", lm_eval)] if python else [("ours", ours)]
                if repetition % 2:
                    sides.reverse()
                for side, run in sides:
                    folder = work / f"{side}-{shots}-{repetition}"
                    folder.mkdir()
                    extra = (python,) if side == "lm-eval" else ()
                    result = run(*extra, port, shots, args.connections, folder, env)  # type: ignore[operator]
                    if result["returncode"] != 0:
                        raise RuntimeError(f"{side} failed:\n{result['output_tail']}")
                    result.pop("output_tail")
                    result.update(side=side, shots=shots, samples_per_s=rows / result["wall_s"])
                    results["runs"].append(result)
                    print(f"{side} {shots}-shot: {result['wall_s']:.1f} s", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(f"\n{rows} questions, {args.connections} connections, median of {args.repeat}\n")
    print("| shots | ours samples/s | lm-eval samples/s | ours / lm-eval | CPU s ours | lm-eval |")
    print("|---|---|---|---|---|---|")
    for shots in sorted({run["shots"] for run in results["runs"]}):
        a, b = (median(results, side, shots, "samples_per_s") for side in ("ours", "lm-eval"))
        cpu_a, cpu_b = (median(results, side, shots, "cpu_s") for side in ("ours", "lm-eval"))
        print(f"| {shots} | {a:.1f} | {b:.1f} | {a / b:.2f} | {cpu_a:.1f} | {cpu_b:.1f} |")


def median(results: dict[str, Any], side: str, shots: int, key: str) -> float:
    values = [r[key] for r in results["runs"] if r["side"] == side and r["shots"] == shots]
    return statistics.median(values) if values else float("nan")


if __name__ == "__main__":
    main()
