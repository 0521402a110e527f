"""Running a reference harness and this project side by side against one model server.

Each side talks to its own copy of the server through a ``RecordingProxy`` on
loopback that keeps every request body; ``compare_rows`` then compares the two
question by question.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import yaml
from aiohttp import web
from inspect_ai.log import read_eval_log

from tests.peers.peer_env import lm_eval_task_yaml
from tests.threaded_server import ThreadedServer

REPO_DIR = Path(__file__).resolve().parents[2]


class RecordingProxy(ThreadedServer):
    """Forwards every request to ``upstream`` and keeps each POST body, in order."""

    name = "recording-proxy"

    def __init__(self, upstream: str) -> None:
        super().__init__()
        self.upstream = upstream.rstrip("/")
        self.bodies: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    @property
    def root(self) -> str:
        return self.base_url.removesuffix("/v1")

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self.forward)
        return app

    async def forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        if request.method == "POST" and body:
            with self._lock:
                self.bodies.append(json.loads(body))
        headers = {"Content-Type": request.headers.get("Content-Type", "application/json")}
        timeout = aiohttp.ClientTimeout(total=3600)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            async with session.request(
                request.method, self.upstream + request.path_qs, data=body, headers=headers
            ) as reply:
                return web.Response(
                    status=reply.status, body=await reply.read(), content_type=reply.content_type
                )


def run(command: list[str], env: dict[str, str], log: Path) -> None:
    with log.open("w") as out:
        done = subprocess.run(command, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=REPO_DIR)
    if done.returncode != 0:
        tail = "\n".join(log.read_text().splitlines()[-20:])
        raise SystemExit(f"{command[0]} failed (exit {done.returncode}), {log}:\n{tail}")


def inspect_eval(config: str, model: str, server: str, work: Path, *task_args: str) -> Any:
    work.mkdir(parents=True)
    env = {**os.environ, "LLAMACPP_BASE_URL": f"{server}/v1", "LLAMACPP_API_KEY": "none"}
    command = [str(Path(sys.executable).with_name("inspect")), "eval", "--run-config", config]
    for argument in task_args:
        command += ["-T", argument]
    command += ["--model", model, "--max-connections", "1", "--log-dir", str(work / "inspect")]
    run([*command, "--display", "plain"], env, work / "inspect.txt")
    [log_file] = (work / "inspect").glob("*.eval")
    log = read_eval_log(str(log_file))
    if log.status != "success" or log.samples is None or log.results is None:
        raise SystemExit(f"our run ended {log.status}: {log_file}")
    return log


def lm_eval(python: str, task: str, server: str, work: Path, data: dict, *options: str) -> Path:
    original = lm_eval_task_yaml(Path(python), f"{task}/default.yaml")
    local = {
        "include": str(original),
        "task": f"{task}_local",
        "dataset_path": "json",
        "dataset_name": None,
        "dataset_kwargs": {"data_files": data},
    }
    tasks = work / "lm_eval_tasks"
    tasks.mkdir(parents=True)
    (tasks / f"{task}_local.yaml").write_text(yaml.safe_dump(local), encoding="utf-8")
    command = [python, "-m", "lm_eval", "--tasks", f"{task}_local", "--include_path", str(tasks)]
    command += [*options, "--log_samples", "--output_path", str(work / "lm_eval")]
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    run(command, {**env, "HF_DATASETS_CACHE": str(work / "hf")}, work / "lm_eval.txt")
    [samples] = (work / "lm_eval").glob(f"*/samples_{task}_local_*.jsonl")
    return samples


def first_rows(source: Path, count: int | None, target: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    rows = rows[:count] if count else rows
    target.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return rows


def in_parallel(*jobs: Any) -> list[Any]:
    results: list[Any] = [None] * len(jobs)
    errors: list[BaseException] = []

    def call(index: int, job: Any) -> None:
        try:
            results[index] = job()
        except BaseException as error:  # reported below, after every side has ended
            errors.append(error)

    threads = [threading.Thread(target=call, args=item) for item in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


def both_sides(
    args: argparse.Namespace,
    peer_side: Callable[[str], Any],
    our_side: Callable[[str], Any],
    *,
    our_model_named: bool = True,
) -> tuple[Any, Any, dict[str, Any]]:
    """Each side against its own copy of the server through a recording proxy, at once:
    the peer's result, our log, and whether the two sent the same request bodies.

    ``our_model_named=False``: the peer names no model (lm-eval's gguf client; the server
    ignores it) and Inspect always does, so ours are compared without it."""
    with RecordingProxy(args.server) as peer, RecordingProxy(args.our_server) as ours:
        peer_result, log = in_parallel(lambda: peer_side(peer.root), lambda: our_side(ours.root))
    our_bodies = ours.bodies
    if not our_model_named:
        our_bodies = [{k: v for k, v in body.items() if k != "model"} for body in our_bodies]
    requests = {
        "prompts_identical": bodies_match(peer.bodies, our_bodies),
        "requests": (len(peer.bodies), len(ours.bodies)),
    }
    return peer_result, log, requests


def row_of_sample(sample: Any) -> int:
    return int(str(sample.id).rsplit("_", 1)[1])


def bodies_match(peer: list[dict[str, Any]], ours: list[dict[str, Any]]) -> bool:
    """The same request bodies, in any order (the clients order their requests differently)."""

    def key(body: dict[str, Any]) -> str:
        return json.dumps(body, sort_keys=True)

    return sorted(map(key, peer)) == sorted(map(key, ours))


def compare_rows(
    count: int, theirs: dict, mine: dict, *, prompts_identical: bool, requests: tuple, what: str
) -> dict[str, Any]:
    """Per question: the first fields (what was read) identical, and the verdict (last)."""
    if sorted(theirs) != sorted(mine) or len(mine) != count:
        raise SystemExit(f"questions differ: peer {len(theirs)}, ours {len(mine)}, rows {count}")
    same_reading = [key for key in mine if tuple(mine[key][:-1]) == tuple(theirs[key][:-1])]
    same_verdict = [key for key in mine if mine[key][-1] == theirs[key][-1]]
    return {
        "questions": count,
        "requests (peer, ours)": list(requests),
        "request bodies identical": prompts_identical,
        f"{what} identical": len(same_reading),
        "verdicts identical": len(same_verdict),
        "accuracy (peer, ours)": [
            sum(value[-1] for value in theirs.values()) / count,
            sum(value[-1] for value in mine.values()) / count,
        ],
        "first differing": [
            {"question": key, "peer": theirs[key], "ours": mine[key]}
            for key in mine
            if key not in same_reading or key not in same_verdict
        ][:3],
    }
