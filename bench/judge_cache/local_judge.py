"""A local judge, interleaved with the answers or run after them: what a prompt cache changes.

A one-model local server (llama.cpp's, llama-cpp-python's) serves one request
at a time and keeps the tokens of the last prompt it processed: a new prompt
that starts the same way skips the common prefix. SimpleQA's judge prompt is a
long fixed template (about 1,500 tokens) ending with the question, target and
reply, so consecutive judge prompts share nearly all of it, while a candidate
request between two judge requests evicts it.

This bench starts a loopback server that models exactly that: one request at
a time, a cache of the last prompt (4 characters a token), and a service time
of ``uncached prompt tokens / --prompt-rate + reply tokens / --generation-rate``
seconds. It runs SimpleQA's bundled sample (or ``--data``) with the same
server as model and judge in two ways, each a fresh ``inspect`` process:

1. interleaved: ``inspect eval ... --model-role grader=...`` (each sample is
   answered, then graded, while other samples are answered);
2. two steps: ``inspect eval ... --no-score``, then
   ``inspect score LOG --model-role grader=...``.

It prints the wall time of each way and, from the server's record, the judge
requests' mean service time, prompt tokens processed and cache hits.

    python -m bench.judge_cache                      # bundled 30 questions, ~2 minutes
    python -m bench.judge_cache --data simple_qa_test_set.csv --limit 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from benchmarks.models.offline import oracle_reply
from tests.loopback_server import HOST, completion

CHARS_PER_TOKEN = 4
SERVICE = "local"
MODEL = f"openai-api/{SERVICE}/model"
GRADER_MARKER = "Predicted answer:"


def tokens(text: str) -> list[str]:
    """Fixed-width pieces standing for tokens (a prefix match is what matters)."""
    return [text[i : i + CHARS_PER_TOKEN] for i in range(0, len(text), CHARS_PER_TOKEN)]


def prompt_text(body: dict[str, Any]) -> str:
    parts = []
    for message in body.get("messages", []):
        content = message.get("content")
        if not isinstance(content, str):
            content = "".join(p.get("text", "") for p in content or [])
        parts.append(f"<{message.get('role')}>{content}")
    return "".join(parts)


@dataclass
class Served:
    kind: str  # "judge" or "candidate"
    prompt_tokens: int
    reused_tokens: int
    seconds: float


@dataclass
class PromptCacheServer:
    """One request at a time, the last prompt cached; replies from the offline oracle."""

    prompt_rate: float
    generation_rate: float
    served: list[Served] = field(default_factory=list)
    port: int = 0
    _cached: list[str] = field(default_factory=list)
    _lock: asyncio.Lock | None = None

    async def chat(self, request: web.Request) -> web.Response:
        body = await request.json()
        text = prompt_text(body)
        last_user = next(
            (m["content"] for m in reversed(body["messages"]) if m.get("role") == "user"), ""
        )
        reply = oracle_reply(last_user if isinstance(last_user, str) else text)
        pieces = tokens(text)
        assert self._lock is not None
        async with self._lock:
            reused = 0
            for cached, new in zip(self._cached, pieces, strict=False):
                if cached != new:
                    break
                reused += 1
            seconds = (len(pieces) - reused) / self.prompt_rate + max(
                1, len(tokens(reply))
            ) / self.generation_rate
            await asyncio.sleep(seconds)
            self._cached = pieces
        kind = "judge" if GRADER_MARKER in text else "candidate"
        self.served.append(Served(kind, len(pieces), reused, seconds))
        return web.json_response(completion(body, reply))

    def start(self) -> None:
        ready = threading.Event()

        async def serve() -> None:
            self._lock = asyncio.Lock()
            app = web.Application(client_max_size=1 << 26)
            app.router.add_post("/v1/chat/completions", self.chat)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, HOST, 0)
            await site.start()
            self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            ready.set()
            await asyncio.Event().wait()

        threading.Thread(target=lambda: asyncio.run(serve()), daemon=True).start()
        ready.wait(30)


def summary(served: list[Served], seconds: float, logs: list[Path]) -> dict[str, Any]:
    judges = [s for s in served if s.kind == "judge"]
    waits = judge_latencies(logs)
    return {
        "wall_seconds": round(seconds, 1),
        "server_busy_seconds": round(sum(s.seconds for s in served), 1),
        "judge_requests": len(judges),
        "judge_cache_misses": sum(s.reused_tokens < s.prompt_tokens // 2 for s in judges),
        "judge_mean_service_seconds": round(sum(s.seconds for s in judges) / len(judges), 2),
        "judge_mean_latency_seconds": round(sum(waits) / len(waits), 2),
        "judge_prompt_tokens_processed": sum(s.prompt_tokens - s.reused_tokens for s in judges),
        "candidate_requests": len(served) - len(judges),
    }


def judge_latencies(logs: list[Path]) -> list[float]:
    """Seconds from sending each judge request to its reply, as the client saw them
    (queueing at the server included), from the logs' model events."""
    from inspect_ai.log import read_eval_log

    latencies = []
    for path in logs:
        for sample in read_eval_log(str(path)).samples or []:
            for event in sample.events:
                if event.event == "model" and event.role == "grader" and event.completed:
                    latencies.append((event.completed - event.timestamp).total_seconds())
    return latencies


def inspect(args: list[str], env: dict[str, str]) -> None:
    subprocess.run(["inspect", *args], check=True, env=env, stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.judge_cache", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--data", help="a SimpleQA CSV (default: the bundled sample)")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--prompt-rate", type=float, default=500.0, help="prompt tokens a second")
    parser.add_argument("--generation-rate", type=float, default=25.0, help="tokens a second")
    parser.add_argument(
        "--max-connections", type=int, action="append", help="each a run (default: 1 and 10)"
    )
    args = parser.parse_args()

    server = PromptCacheServer(args.prompt_rate, args.generation_rate)
    server.start()
    env = {
        **os.environ,
        f"{SERVICE.upper()}_BASE_URL": f"http://{HOST}:{server.port}/v1",
        f"{SERVICE.upper()}_API_KEY": "local",
    }
    data = ["-T", f"dataset_path={args.data}"] if args.data else ["-T", "bundled_sample=true"]
    limit = ["--limit", str(args.limit)] if args.limit else []
    results: dict[str, Any] = {}
    for connections in args.max_connections or [1, 10]:
        task = [
            "benchmarks/simpleqa", *data, *limit, "--model", MODEL, "--display", "none",
            "--max-connections", str(connections),
        ]  # fmt: skip
        with tempfile.TemporaryDirectory() as logs:
            server.served.clear()
            started = time.perf_counter()
            grader = ["--model-role", f"grader={MODEL}"]
            inspect(["eval", *task, *grader, "--log-dir", f"{logs}/a"], env)
            elapsed = time.perf_counter() - started
            interleaved = summary(server.served, elapsed, list(Path(logs, "a").glob("*.eval")))

            server.served.clear()
            started = time.perf_counter()
            inspect(["eval", *task, "--no-score", "--log-dir", f"{logs}/b"], env)
            answered = time.perf_counter() - started
            (log,) = Path(logs, "b").glob("*.eval")
            inspect(["score", str(log), *grader, "--overwrite", "--display", "none"], env)
            two_steps = summary(server.served, time.perf_counter() - started, [log])
            two_steps["answer_step_seconds"] = round(answered, 1)
        results[f"max_connections={connections}"] = {
            "interleaved": interleaved,
            "two_steps": two_steps,
        }
    settings = {"prompt_rate": args.prompt_rate, "generation_rate": args.generation_rate}
    print(json.dumps({"settings": settings, **results}, indent=2))
    sys.exit(0)


if __name__ == "__main__":
    main()
