"""The two sides of each log-likelihood comparison (bench/loglikelihood/rounds.py): the
commands, each run as a fresh process against tests/completions_server.py.

- ``token-ids``: ``inspect eval --run-config configs/winogrande_lm_eval.yaml --model
  openai-api-completions/loopback/scripted --max-connections N`` against lm-evaluation-
  harness 0.4.13's ``local-completions`` (``tokenizer_backend=remote``,
  ``num_concurrent=N``): token ids, four ``/tokenize`` calls and two echoed requests a
  question on both sides;
- ``vllm``: the same run through Inspect's ``vllm-completions`` provider (its own
  ``/tokenize``) against the same ``local-completions`` run;
- ``text``: ``configs/winogrande_lm_eval_gguf.yaml`` (one string a request, no tokenizer)
  against its ``gguf`` client, which sends one request at a time: ours runs with
  ``--max-connections 1`` then, the same concurrency.

``FLOORS``: bench/loglikelihood/floor_task.py with 0 and 2 plain requests a question, the
floor under any log-likelihood task on Inspect.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from bench.common.http_runs import REPO_DIR, timed_process
from tests.peers.peer_env import lm_eval_task_yaml

FIXTURE = REPO_DIR / "tests" / "fixtures" / "winogrande" / "validation_full.jsonl"
CONFIGS = REPO_DIR / "configs"


@dataclass(frozen=True)
class Run:
    """What a side needs to run once: where, with what, how many shots and connections."""

    port: int
    shots: int
    connections: int
    work: Path
    env: dict[str, str]
    lm_eval_python: str | None
    # more options for our inspect eval (e.g. --no-log-realtime)
    inspect_args: tuple[str, ...] = ()
    # more than 1: our run split into this many processes (python -m benchmarks.shards eval)
    shards: int = 1


@dataclass(frozen=True)
class Comparison:
    """Our command and lm-eval's for one request path; ``sequential``: lm-eval's client sends
    one request at a time, and ours is given one connection."""

    name: str
    ours: Callable[[Run], dict[str, Any]]
    lm_eval: Callable[[Run], dict[str, Any]]
    sequential: bool = False


def inspect_eval(run: Run, config: str, model: str, env: dict[str, str]) -> dict[str, Any]:
    """Our run: one ``inspect eval``, or ``run.shards`` of them and their merge (timed from
    the start of ``python -m benchmarks.shards eval`` to its end, the merged log written)."""
    files = json.dumps({"validation": str(FIXTURE), "train": str(FIXTURE)})
    arguments = [
        "--run-config", f"configs/{config}",
        "-T", f"shots={run.shots}", "-T", f"data_files={files}",
        "--model", model, "--model-base-url", f"http://127.0.0.1:{run.port}/v1",
        "--max-connections", str(run.connections), "--display", "none", *run.inspect_args,
    ]  # fmt: skip
    log_dir = ["--log-dir", str(run.work / "inspect")]
    if run.shards > 1:
        shards = ["-m", "benchmarks.shards", "eval", "--shards", str(run.shards)]
        command = [sys.executable, *shards, *log_dir, *arguments]
    else:
        command = [str(Path(sys.executable).with_name("inspect")), "eval", *arguments, *log_dir]
    return timed_process(command, {**run.env, **env})


def ours_token_ids(run: Run) -> dict[str, Any]:
    return inspect_eval(
        run, "winogrande_lm_eval.yaml", "openai-api-completions/loopback/scripted",
        {"LOOPBACK_API_KEY": "x"},
    )  # fmt: skip


def ours_vllm(run: Run) -> dict[str, Any]:
    return inspect_eval(
        run, "winogrande_lm_eval.yaml", "vllm-completions/scripted", {"VLLM_API_KEY": "x"}
    )


def ours_text(run: Run) -> dict[str, Any]:
    return inspect_eval(
        run, "winogrande_lm_eval_gguf.yaml", "openai-api-completions/loopback/scripted",
        {"LOOPBACK_API_KEY": "x"},
    )  # fmt: skip


def lm_eval_run(run: Run, model: str, model_args: str) -> dict[str, Any]:
    assert run.lm_eval_python is not None
    original = lm_eval_task_yaml(Path(run.lm_eval_python), "winogrande/default.yaml")
    tasks = run.work / "tasks"
    tasks.mkdir(exist_ok=True)
    local = {
        "include": str(original),
        "task": "winogrande_bench",
        "dataset_path": "json",
        "dataset_name": None,
        "dataset_kwargs": {"data_files": {"train": str(FIXTURE), "validation": str(FIXTURE)}},
    }
    (tasks / "winogrande_bench.yaml").write_text(yaml.safe_dump(local), encoding="utf-8")
    command = [
        run.lm_eval_python, "-m", "lm_eval", "--model", model, "--model_args", model_args,
        "--tasks", "winogrande_bench", "--include_path", str(tasks),
        "--num_fewshot", str(run.shots), "--output_path", str(run.work / "lm_eval"),
    ]  # fmt: skip
    return timed_process(command, {**run.env, "OPENAI_API_KEY": "x"})


def lm_eval_local_completions(run: Run) -> dict[str, Any]:
    return lm_eval_run(
        run,
        "local-completions",
        f"model=scripted,base_url=http://127.0.0.1:{run.port}/v1/completions,"
        f"tokenizer_backend=remote,num_concurrent={run.connections},max_retries=1",
    )


def lm_eval_gguf(run: Run) -> dict[str, Any]:
    return lm_eval_run(run, "gguf", f"base_url=http://127.0.0.1:{run.port}")


def floor_side(requests: int, model: str, env: dict[str, str]) -> Callable[[Run], dict[str, Any]]:
    """bench/loglikelihood/floor_task.py: ``requests`` plain calls a question, no tokenizer."""

    def run_floor(run: Run) -> dict[str, Any]:
        command = [
            str(Path(sys.executable).with_name("inspect")), "eval",
            "bench/loglikelihood/floor_task.py", "-T", f"rows={FIXTURE}",
            "-T", f"requests={requests}",
            "--model", model, "--model-base-url", f"http://127.0.0.1:{run.port}/v1",
            "--max-connections", str(run.connections),
            "--log-dir", str(run.work / "inspect"), "--display", "none",
        ]  # fmt: skip
        return timed_process(command, {**run.env, **env})

    return run_floor


# Inspect's floor, by the number of requests a question: the same model and connections
FLOOR_REQUESTS = (0, 2)
FLOORS = {
    requests: floor_side(
        requests, "openai-api-completions/loopback/scripted", {"LOOPBACK_API_KEY": "x"}
    )
    for requests in FLOOR_REQUESTS
}

COMPARISONS = {
    comparison.name: comparison
    for comparison in (
        Comparison("token-ids", ours_token_ids, lm_eval_local_completions),
        Comparison("vllm", ours_vllm, lm_eval_local_completions),
        Comparison("text", ours_text, lm_eval_gguf, sequential=True),
    )
}
