"""A scripted OpenAI-compatible chat-completions (and text completions) server on 127.0.0.1.

Real clients (Inspect's ``openai-api`` and ``openai-api-completions`` providers,
lm-evaluation-harness's ``local-chat-completions`` and ``local-completions``,
evalscope's ``openai_api``) talk to it over real
HTTP, so tests and benchmarks exercise the request path a user's run takes,
with replies chosen by a Python function and no network beyond loopback.

- ``reply(request) -> str | Fault``: the reply text for a request body (the
  parsed JSON), or a ``Fault`` to inject (HTTP status, malformed JSON, a reset
  connection, a stall, an empty ``choices``).
- ``stop`` sequences in a request are honoured as real servers honour them:
  the reply is cut before the first one (``honour_stop=False`` turns it off).
- Streaming requests (``"stream": true``) get server-sent events.
- ``/completions`` takes a string ``prompt`` (what ``user_text`` returns for
  it) and answers with a ``text_completion``.
- Every request body is recorded, in arrival order, in ``requests``.

Use it as a context manager (it serves from a thread of its own), or as a
process: ``python -m tests.loopback_server --reply module:function``, which
prints ``PORT <n>`` once it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from aiohttp import web

from tests.completions_server import Tokenizer, add_tokenizer_routes, is_check
from tests.threaded_server import HOST, ThreadedServer

FaultKind = Literal["status", "malformed_json", "reset", "stall", "empty_choices"]
INJECTED_RESET = "injected reset"


class _HideInjectedResets(logging.Filter):
    """aiohttp logs a handler's exception with its traceback; an injected reset is no error."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (isinstance(error, ConnectionResetError) and str(error) == INJECTED_RESET)


logging.getLogger("aiohttp.server").addFilter(_HideInjectedResets())


@dataclass(frozen=True)
class Fault:
    """A failure to serve instead of a reply."""

    kind: FaultKind
    status: int = 500
    stall_seconds: float = 30.0
    # the error body of a status fault, as OpenAI-compatible servers send it
    message: str = "injected fault"
    error_type: str = "server_error"
    code: str | None = None


Reply = Callable[[dict[str, Any]], "str | Fault"]


def cut_at_stop(text: str, stop: str | list[str] | None) -> str:
    """``text`` up to (not including) the earliest stop sequence, as servers cut."""
    if not stop:
        return text
    sequences = [stop] if isinstance(stop, str) else stop
    positions = [text.find(s) for s in sequences if s]
    positions = [p for p in positions if p >= 0]
    return text[: min(positions)] if positions else text


def prompt_ids(request: dict[str, Any]) -> list[int] | None:
    """The token ids of a completions request's prompt (one prompt, or a batch of one)."""
    prompt = request.get("prompt")
    if isinstance(prompt, list) and len(prompt) == 1 and isinstance(prompt[0], list):
        prompt = prompt[0]
    if isinstance(prompt, list) and prompt and all(isinstance(t, int) for t in prompt):
        return prompt
    return None


def user_text(request: dict[str, Any]) -> str:
    """The text of the last user message of a chat request (text parts joined), or the
    prompt of a text completions request (token ids decoded)."""
    if isinstance(request.get("prompt"), str):
        return str(request["prompt"])
    ids = prompt_ids(request)
    if ids is not None:
        return Tokenizer().decode(ids)
    for message in reversed(request.get("messages", [])):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        return "\n".join(
            part.get("text", "") for part in content or [] if part.get("type") == "text"
        )
    return ""


class LoopbackServer(ThreadedServer):
    """The server; ``base_url`` is ``http://127.0.0.1:<port>/v1``."""

    name = "loopback server"

    def __init__(
        self, reply: Reply, *, honour_stop: bool = True, port: int = 0, tokenizer: bool = False
    ) -> None:
        super().__init__(port)
        self.reply = reply
        self.honour_stop = honour_stop
        # vLLM's tokenizer endpoints (tests/completions_server.py), and token-id prompts
        self.tokenizer = Tokenizer() if tokenizer else None
        self.requests: list[dict[str, Any]] = []
        self.tokenizer_requests: list[tuple[str, Any]] = []
        self._lock = threading.Lock()

    # -- serving ---------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=1 << 30)
        for prefix in ("/v1", ""):
            app.router.add_post(f"{prefix}/chat/completions", self._chat_completions)
            app.router.add_post(f"{prefix}/completions", self._text_completions)
            app.router.add_get(f"{prefix}/models", self._models)
        if self.tokenizer is not None:
            add_tokenizer_routes(app, self.tokenizer, self._record_tokenizer_request)
        return app

    def _record_tokenizer_request(self, path: str, body: Any) -> None:
        with self._lock:
            self.tokenizer_requests.append((path, body))

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response(
            {"object": "list", "data": [{"id": "scripted", "object": "model"}]}
        )

    async def _chat_completions(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        with self._lock:
            self.requests.append(body)
        outcome = self.reply(body)
        if isinstance(outcome, Fault):
            return await self._fault(request, outcome)
        text = cut_at_stop(outcome, body.get("stop")) if self.honour_stop else outcome
        if body.get("stream"):
            return await self._stream(request, body, text)
        return web.json_response(completion(body, text))

    async def _text_completions(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        if not is_check(request):
            with self._lock:
                self.requests.append(body)
        if not isinstance(body.get("prompt"), str) and (
            self.tokenizer is None or not prompt_ids(body)
        ):
            error = {"message": "this server takes a string prompt", "type": "invalid_request"}
            return web.json_response({"error": error}, status=400)
        outcome = self.reply(body)
        if isinstance(outcome, Fault):
            return await self._fault(request, outcome)
        text = cut_at_stop(outcome, body.get("stop")) if self.honour_stop else outcome
        return web.json_response(text_completion(body, text))

    async def _fault(self, request: web.Request, fault: Fault) -> web.StreamResponse:
        if fault.kind == "status":
            error = {"message": fault.message, "type": fault.error_type, "code": fault.code}
            return web.json_response({"error": error}, status=fault.status)
        if fault.kind == "malformed_json":
            return web.Response(text='{"id": "x", "choices": [', content_type="application/json")
        if fault.kind == "empty_choices":
            return web.json_response({**completion({}, ""), "choices": []})
        if fault.kind == "stall":
            await asyncio.sleep(fault.stall_seconds)
            return web.json_response(completion({}, ""))
        # reset: close the connection without a response
        transport = request.transport
        if transport is not None:
            transport.abort()
        raise ConnectionResetError(INJECTED_RESET)

    async def _stream(
        self, request: web.Request, body: dict[str, Any], text: str
    ) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        chunk = completion(body, text)
        chunk["object"] = "chat.completion.chunk"
        chunk["choices"] = [
            {"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ]
        await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response


def completion(request: dict[str, Any], text: str) -> dict[str, Any]:
    """A chat.completion response body holding ``text``."""
    return {
        "id": "chatcmpl-loopback",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "scripted"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def text_completion(request: dict[str, Any], text: str) -> dict[str, Any]:
    """A text_completion response body holding ``text``."""
    return {
        "id": "cmpl-loopback",
        "object": "text_completion",
        "created": int(time.time()),
        "model": request.get("model", "scripted"),
        "choices": [{"index": 0, "text": text, "logprobs": None, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reply", required=True, help="module:function giving the reply")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--no-stop", action="store_true", help="do not cut at stop sequences")
    args = parser.parse_args()
    module, _, function = args.reply.partition(":")
    reply = getattr(importlib.import_module(module), function)
    server = LoopbackServer(reply, honour_stop=not args.no_stop, port=args.port)

    async def run() -> None:
        runner = web.AppRunner(server.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, HOST, args.port)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        print(f"PORT {port}", flush=True)
        await asyncio.Event().wait()

    asyncio.run(run())


if __name__ == "__main__":
    main()
