"""A scripted completions server with a tokenizer and echoed log-probabilities, on 127.0.0.1.

What lm-evaluation-harness's ``local-completions`` (``tokenizer_backend=remote``)
and Inspect's ``openai-api-completions`` / ``vllm-completions`` need to score
by log-likelihood, as vLLM serves it:

- ``POST /v1/completions``: ``prompt`` a string, token ids, or a list of
  either; ``echo``, ``logprobs``, ``max_tokens``; the reply's
  ``choices[i].logprobs`` hold ``tokens``, ``token_logprobs`` (None for the
  first prompt token), ``top_logprobs`` and ``text_offset``; with vLLM's
  ``prompt_logprobs``, each choice's ``prompt_logprobs`` (None, then one
  ``{id: {logprob, rank, decoded_token}}`` a prompt token);
- ``POST /tokenize`` (``{"prompt", "add_special_tokens"}`` -> ``{"tokens"}``),
  ``POST /detokenize``, ``GET /tokenizer_info``, ``GET /v1/models``.

The tokenizer splits text as GPT-2 does (a word with its leading space,
punctuation, whitespace); a token's id is a hash of its text, so two servers
give the same ids. The "model" gives each token a log-probability that depends
on it and the token before it. Every request body is kept in ``requests``.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
import zlib
from collections.abc import Callable
from typing import Any

from aiohttp import web

from benchmarks.models.server_checks import PROBE_HEADER
from tests.threaded_server import ThreadedServer

EOS = "<|endoftext|>"
MAX_MODEL_LEN = 4096
PIECES = re.compile(r"<\|endoftext\|>| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+")
GENERATED = [" Paris", ".", "\n", " The"]


def token_id(piece: str) -> int:
    return zlib.crc32(piece.encode("utf-8")) & 0x3FFFFFFF


class Tokenizer:
    """GPT-2-like pieces, ids hashed from their text (every instance knows every piece
    encoded so far, so a prompt's ids decode anywhere)."""

    pieces: dict[int, str] = {token_id(EOS): EOS}

    def encode(self, text: str) -> list[int]:
        ids = []
        for piece in PIECES.findall(text):
            ids.append(token_id(piece))
            self.pieces[ids[-1]] = piece
        return ids

    def decode(self, ids: list[int]) -> str:
        return "".join(self.pieces[i] for i in ids)


def is_check(request: web.Request) -> bool:
    """Whether a request is a profile's endpoint check (models/server_checks.py), which the
    recordings of what a run sent leave out."""
    return PROBE_HEADER in request.headers


def add_tokenizer_routes(
    app: web.Application,
    tokenizer: Tokenizer,
    record: Callable[[str, Any], None],
    *,
    served: frozenset[str] = frozenset({"/tokenize", "/detokenize", "/tokenizer_info"}),
) -> None:
    """vLLM's ``POST /tokenize``, ``POST /detokenize`` and ``GET /tokenizer_info`` (those in
    ``served``; the others answer 404, as a server that lacks them), each request but an
    endpoint check passed to ``record(path, body)``."""

    async def tokenize(request: web.Request) -> web.Response:
        body = await request.json()
        if not is_check(request):
            record(request.path, body)
        ids = tokenizer.encode(body["prompt"])
        return web.json_response({"count": len(ids), "max_model_len": MAX_MODEL_LEN, "tokens": ids})

    async def detokenize(request: web.Request) -> web.Response:
        body = await request.json()
        if not is_check(request):
            record(request.path, body)
        return web.json_response({"prompt": tokenizer.decode(body["tokens"])})

    async def tokenizer_info(request: web.Request) -> web.Response:
        if not is_check(request):
            record(request.path, None)
        return web.json_response(
            {
                "tokenizer_class": "ScriptedTokenizer",
                "eos_token": EOS,
                "bos_token": EOS,
                "pad_token": None,
                "chat_template": None,
                "model_max_length": MAX_MODEL_LEN,
            }
        )

    routes = {"/tokenize": tokenize, "/detokenize": detokenize, "/tokenizer_info": tokenizer_info}
    for path, handler in routes.items():
        if path in served:
            add = app.router.add_get if path == "/tokenizer_info" else app.router.add_post
            add(path, handler)


def logprob(previous: str, piece: str) -> float:
    return -(0.5 + (zlib.crc32(f"{previous}\0{piece}".encode()) % 400) / 100)


class CompletionsServer(ThreadedServer):
    """The server; ``base_url`` is ``http://127.0.0.1:<port>/v1``."""

    name = "completions server"

    def __init__(
        self,
        *,
        echo_generated: bool = True,
        served: frozenset[str] = frozenset({"/tokenize", "/detokenize", "/tokenizer_info"}),
        echoes: bool = True,
        prompt_logprobs: bool = True,
        delay: float = 0.0,
        failures: dict[str, int] | None = None,
        spoil: Callable[[dict[str, Any]], dict[str, Any] | web.Response] | None = None,
    ) -> None:
        super().__init__()
        # what the server does to every reply of /v1/completions but an endpoint check's: a
        # changed reply, or a response of its own (an error); None: none
        self.spoil = spoil
        # the tokenizer routes it serves, whether it echoes the prompt's log-probabilities
        # and answers vLLM's prompt_logprobs (as a server that lacks them: a 404, a reply
        # without them)
        self.served = served
        self.echoes = echoes
        self.prompt_logprobs = prompt_logprobs
        # seconds each request takes, and the first requests of a path answered 503 (a
        # server at capacity; "check:<path>": an endpoint check's); the most requests it has
        # had in flight at once
        self.delay = delay
        self.failures = dict(failures or {})
        self.failed: list[str] = []  # the paths of the requests answered 503
        self.in_flight = self.most_in_flight = 0
        # False: as llama-cpp-python, an echo's log-probabilities hold the prompt's tokens
        # only (its reply text still ends with the generated text)
        self.echo_generated = echo_generated
        self.tokenizer = Tokenizer()
        self.requests: list[tuple[str, Any]] = []
        self._lock = threading.Lock()

    def completions_bodies(self) -> list[dict[str, Any]]:
        return [body for path, body in self.requests if path.endswith("/completions")]

    @web.middleware
    async def _pacing(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """The delay, the injected failures and the count of requests in flight."""
        with self._lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            # a check's requests fail by "check:<path>", the others' by their path
            path = f"check:{request.path}" if is_check(request) else request.path
            failing = self.failures.get(path, 0) > 0
            if failing:
                self.failures[path] -= 1
                self.failed.append(path)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            if failing:
                return web.json_response({"error": {"message": "at capacity"}}, status=503)
            return await handler(request)
        finally:
            with self._lock:
                self.in_flight -= 1

    def app(self) -> web.Application:
        app = web.Application(client_max_size=1 << 30, middlewares=[self._pacing])
        app.router.add_post("/v1/completions", self._completions)
        add_tokenizer_routes(app, self.tokenizer, self._record, served=self.served)
        app.router.add_get("/v1/models", self._models)
        return app

    def _record(self, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append((path, body))

    async def _completions(self, request: web.Request) -> web.Response:
        body = await request.json()
        if not is_check(request):
            self._record(request.path, body)
        prompt = body.get("prompt")
        if isinstance(prompt, str):
            prompts = [self.tokenizer.encode(prompt)]
        elif isinstance(prompt, list) and prompt and isinstance(prompt[0], int):
            prompts = [prompt]
        elif isinstance(prompt, list) and prompt and isinstance(prompt[0], list):
            prompts = prompt
        else:
            prompts = [self.tokenizer.encode(p) for p in prompt]
        echo = bool(body.get("echo")) and self.echoes
        wanted = body.get("logprobs")
        max_tokens = body.get("max_tokens") or 16
        choices = []
        for index, ids in enumerate(prompts):
            pieces = [self.tokenizer.pieces[i] for i in ids]
            generated = [GENERATED[j % len(GENERATED)] for j in range(max_tokens)]
            full = pieces + generated
            shown = full if echo else generated
            start = 0 if echo else len(pieces)
            logprobs = None
            if wanted is not None:
                # as llama-cpp-python counts it: the length of the text before the token
                offsets, values, tops, offset = [], [], [], len("".join(full[:start]))
                end = len(full) if self.echo_generated or not echo else len(pieces)
                for position in range(start, end):
                    offsets.append(offset)
                    offset += len(full[position])
                    if position == 0:
                        values.append(None)
                        tops.append(None)
                        continue
                    value = logprob(full[position - 1], full[position])
                    values.append(value)
                    tops.append({full[position]: value})
                logprobs = {
                    "tokens": full[start:end],
                    "token_logprobs": values,
                    "top_logprobs": tops,
                    "text_offset": offsets,
                }
            choice = {
                "index": index,
                "text": "".join(shown),
                "logprobs": logprobs,
                "finish_reason": "length",
            }
            if body.get("prompt_logprobs") is not None and self.prompt_logprobs:  # vLLM's
                choice["prompt_logprobs"] = [None] + [
                    {
                        str(ids[position]): {
                            "logprob": logprob(pieces[position - 1], pieces[position]),
                            "rank": 1,
                            "decoded_token": pieces[position],
                        }
                    }
                    for position in range(1, len(pieces))
                ]
            choices.append(choice)
        prompt_tokens = sum(len(ids) for ids in prompts)
        completion_tokens = max_tokens * len(prompts)
        reply: dict[str, Any] | web.Response = {
            "id": "cmpl-scripted",
            "object": "text_completion",
            "created": int(time.time()),
            "model": body.get("model") or "scripted",
            "choices": choices,
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        if self.spoil is not None and not is_check(request):
            reply = self.spoil(reply)  # type: ignore[arg-type]
        return reply if isinstance(reply, web.Response) else web.json_response(reply)

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response(
            {"object": "list", "data": [{"id": "scripted", "object": "model"}]}
        )


def main() -> None:
    """``python -m tests.completions_server``: serve until killed, after printing ``PORT <n>``."""
    with CompletionsServer() as server:
        print(f"PORT {server.port}", flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
