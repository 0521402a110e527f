"""An instant OpenAI-compatible server for the HTTP benches, in a process of its own.

``python -m bench.common.loopback --reply triviaqa="Sunset Boulevard" --reply grader=A``
listens on 127.0.0.1 only, prints ``PORT <n>`` and answers every chat
completion at once with the reply of the requested ``model`` (``--default``
otherwise), cut at the request's ``stop`` sequences as real servers cut.
Unlike ``tests/loopback_server.py`` it keeps nothing per request (a long run
would otherwise hold every request body, images included), and it is bounded
in time: it exits by itself after ``--max-seconds`` (default one hour).
"""

from __future__ import annotations

import argparse
import asyncio

from aiohttp import web

from tests.loopback_server import HOST, completion, cut_at_stop

DEFAULT_MAX_SECONDS = 3600.0


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reply", action="append", default=[], help="MODEL=TEXT")
    parser.add_argument("--default", default="A", help="reply to any other model")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS)
    args = parser.parse_args()
    replies = dict(item.split("=", 1) for item in args.reply)
    asyncio.run(serve(replies, args.default, args.port, args.max_seconds))


if __name__ == "__main__":
    main()
