"""An instant OpenAI-compatible server for the throughput bench, in a process of its own.

``python -m bench.loopback --reply triviaqa="Sunset Boulevard" --reply grader=A``
listens on 127.0.0.1 only, prints ``PORT <n>`` and answers every chat
completion at once with the reply of the requested ``model`` (``--default``
otherwise), cut at the request's ``stop`` sequences as real servers cut.
Unlike ``tests/loopback_server.py`` it keeps nothing per request (a long run
would otherwise hold every request body, images included), and it is bounded
in time: it exits by itself after ``--max-seconds`` (default one hour).

``python -m bench.loopback load --port N`` is the server's own ceiling: a
fast aiohttp client (no Inspect) sends bounded numbers of requests over 32
connections and reports requests a second, so the bench can show that the
server is not what limits the rates it measures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from aiohttp import ClientSession, ClientTimeout, TCPConnector, web

from tests.loopback_server import HOST, completion, cut_at_stop

DEFAULT_MAX_SECONDS = 3600.0
LOAD_CONNECTIONS = 32


def make_app(replies: dict[str, str], default: str) -> web.Application:
    async def chat_completions(request: web.Request) -> web.Response:
        body = await request.json()
        text = cut_at_stop(replies.get(body.get("model", ""), default), body.get("stop"))
        return web.json_response(completion(body, text))

    async def models(_request: web.Request) -> web.Response:
        data = [{"id": name, "object": "model"} for name in replies]
        return web.json_response({"object": "list", "data": data})

    app = web.Application(client_max_size=1 << 30)
    for prefix in ("/v1", ""):
        app.router.add_post(f"{prefix}/chat/completions", chat_completions)
        app.router.add_get(f"{prefix}/models", models)
    return app


async def serve(replies: dict[str, str], default: str, port: int, max_seconds: float) -> None:
    runner = web.AppRunner(make_app(replies, default), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, HOST, port)
    await site.start()
    bound = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    print(f"PORT {bound}", flush=True)
    try:
        await asyncio.sleep(max_seconds)
    finally:
        await runner.cleanup()


async def load(
    port: int, requests: int, body: dict[str, Any], connections: int = LOAD_CONNECTIONS
) -> dict[str, float]:
    """Send ``requests`` copies of ``body`` over ``connections``; requests a second."""
    url = f"http://{HOST}:{port}/v1/chat/completions"
    payload = json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Authorization": "Bearer x"}
    remaining = requests

    async with ClientSession(
        connector=TCPConnector(limit=connections), timeout=ClientTimeout(total=60)
    ) as session:

        async def worker() -> None:
            nonlocal remaining
            while remaining > 0:
                remaining -= 1
                async with session.post(url, data=payload, headers=headers) as response:
                    response.raise_for_status()
                    await response.read()

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(connections)))
        seconds = time.perf_counter() - started
    return {"requests": requests, "seconds": seconds, "requests_per_s": requests / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    parser.add_argument("--reply", action="append", default=[], help="MODEL=TEXT")
    parser.add_argument("--default", default="A", help="reply to any other model")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS)
    loader = sub.add_parser("load", help="the server's ceiling, measured with a fast client")
    loader.add_argument("--port", type=int, required=True)
    loader.add_argument("--requests", type=int, default=3000)
    loader.add_argument("--body", required=True, help="JSON file: the request body to send")
    args = parser.parse_args()
    if args.command == "load":
        with open(args.body, encoding="utf-8") as file:
            body = json.load(file)
        print(json.dumps(asyncio.run(load(args.port, args.requests, body))), flush=True)
        return
    replies = dict(item.split("=", 1) for item in args.reply)
    asyncio.run(serve(replies, args.default, args.port, args.max_seconds))


if __name__ == "__main__":
    main()
