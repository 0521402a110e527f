"""A served model's server, asked over HTTP: its ``/v1/completions``, its tokenizer
(``/tokenize``, ``/tokenizer_info``).

``ServedModel`` posts each body itself, with one pooled ``httpx`` client per server and
event loop, and reads the reply as plain JSON (Inspect's provider would parse every
echoed prompt token into an object). Each distinct text is tokenized once per process
and served model (the server's URL and the model's name there), the end-of-text string
asked once. Within one call of the model (models/completions_client.py), a completions
request that fails is asked again as that call, by Inspect; a tokenizer request is asked
again within it, by the model's rules (``asked``).
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.lowlevel
import httpx
from inspect_ai.model import GenerateConfig, ModelAPI, RetryDecision
from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
    stop_any,
    stop_never,
    wait_exponential_jitter,
)
from tenacity.stop import stop_base

from benchmarks.models.completions_requests import CompletionsServer
from benchmarks.models.server_checks import PROBE_TEXT, auth_headers, server_key, server_root

# Seconds a request may take: a tokenizer call, and a completions request (an echoed long
# prompt on a busy server takes a while; --attempt-timeout bounds a whole call).
TOKENIZE_TIMEOUT = 60.0
COMPLETIONS_TIMEOUT = httpx.Timeout(600.0, connect=60.0)
TOKENIZED_KEPT = 8192


class TokenizerError(ValueError):
    """The server's tokenizer endpoints gave no usable answer (a sample error: retryable)."""


class ServerError(httpx.HTTPStatusError):
    """A server's answer other than 200, with what it said (retried as an HTTP status
    error is: 408, 409, 429 and 5xx)."""


def http_retry(ex: BaseException) -> RetryDecision | None:
    """Whether to ask again after an HTTP failure (None: not one): no connection or answer,
    or a status a busy or restarting server gives (408, 409, 429, 5xx), after the wait its
    ``Retry-After`` asks. Read by the exception's shape: vLLM's own ``tokenize()`` (which
    starts its server) raises the OpenAI SDK's fork of httpx."""
    kinds = {kind.__name__ for kind in type(ex).__mro__}
    if "TransportError" in kinds:
        return RetryDecision.transient()
    if "HTTPStatusError" not in kinds:
        return None
    response = getattr(ex, "response", None)
    status = int(getattr(response, "status_code", 0))
    try:
        retry_after: float | None = float(getattr(response, "headers", {})["retry-after"])
    except (KeyError, TypeError, ValueError):
        retry_after = None
    if status == 429:
        return RetryDecision.rate_limit(retry_after)
    if status in (408, 409) or status >= 500:
        return RetryDecision.transient(retry_after)
    return RetryDecision.no()


class ServedModel(CompletionsServer):
    """A served model's server, asked over HTTP for its provider ``api`` at ``base_url``
    (None: vllm-completions launching its own server, whose URL its provider knows once
    started), with the settings ``config`` of the request."""

    def __init__(
        self, api: ModelAPI, base_url: str | None, config: GenerateConfig | None = None
    ) -> None:
        self.api = api
        self.base_url = base_url
        self.config = config or GenerateConfig()

    def service_model_name(self) -> str:
        return self.api.service_model_name()

    async def tokenize(self, text: str) -> list[int]:
        if self.base_url is None:
            return await self.start_with(text)
        # a text is asked for once (a retried sample's, a repeated context: Winogrande's
        # twin sentences share theirs); a text being asked for is waited for
        key = (server_key(self.base_url, self.api), text)
        while key in _ASKING:
            await _ASKING[key].wait()
        if key in _TOKENIZED:
            _TOKENIZED.move_to_end(key)
            return _TOKENIZED[key]
        _ASKING[key] = anyio.Event()
        try:
            tokens = await self.ask_tokens(text)
            remember(key[0], text, tokens)
        finally:
            _ASKING.pop(key).set()
        return tokens

    async def start_with(self, text: str) -> list[int]:
        """``text``'s token ids through the provider's public ``tokenize()``, which starts
        the server Inspect launches for vllm-completions; other requests wait for it."""
        async with _STARTING.setdefault(self.api, anyio.Lock()):
            if self.api.base_url is None:
                tokens = list(await self.api.tokenize(text))
                self.base_url = str(self.api.base_url)
                remember(server_key(self.base_url, self.api), text, tokens)
                return tokens
        self.base_url = str(self.api.base_url)
        return await self.tokenize(text)

    async def ask_tokens(self, text: str) -> list[int]:
        # the model named, as vLLM's provider names it: a router in front of several
        # models sends the request to the right one
        body = {"model": self.service_model_name(), "prompt": text, "add_special_tokens": False}
        root = server_root(str(self.base_url))
        reply = await self.asked(lambda: self.tokenizer_json("POST", f"{root}/tokenize", body))
        tokens = reply.get("tokens") if isinstance(reply, dict) else None
        if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
            raise TokenizerError(f"{root}/tokenize gave no token ids: {reply!r:.200}")
        return tokens

    async def eos_token(self) -> str:
        if self.base_url is None:
            await self.start_with(PROBE_TEXT)
        key = server_key(str(self.base_url), self.api)
        if key not in _EOS_TOKENS:
            root = key[0]
            url = f"{root}/tokenizer_info"
            reply = await self.asked(lambda: self.tokenizer_json("GET", url, None))
            eos = reply.get("eos_token") if isinstance(reply, dict) else None
            if not isinstance(eos, str):
                raise TokenizerError(f"{root}/tokenizer_info gave no eos_token: {reply!r:.200}")
            _EOS_TOKENS[key] = eos
        return _EOS_TOKENS[key]

    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        if self.base_url is None:
            prompt = body["prompt"]
            await self.start_with(prompt if isinstance(prompt, str) else PROBE_TEXT)
        url = f"{str(self.base_url).rstrip('/')}/completions"
        try:
            reply = await self.send("POST", url, body, COMPLETIONS_TIMEOUT)
        except ServerError as ex:
            if ex.response.status_code != 404:
                raise
            raise RuntimeError(
                f"Server at {self.base_url} does not support /v1/completions. "
                "Ensure the server exposes the legacy completions endpoint."
            ) from None
        return reply  # type: ignore[no-any-return]

    async def tokenizer_json(self, method: str, url: str, body: dict[str, Any] | None) -> Any:
        """The JSON reply to a tokenizer request (an ``httpx.HTTPStatusError`` for a status
        other than 2xx)."""
        response = await pooled_client(server_root(str(self.base_url))).request(
            method, url, json=body, headers=auth_headers(self.api), timeout=TOKENIZE_TIMEOUT
        )
        response.raise_for_status()
        return response.json()

    async def asked(self, request: Callable[[], Awaitable[Any]]) -> Any:
        """``request()``, asked again after a failure by the model's rules (its
        ``should_retry``, ``--max-retries``, ``--timeout``, the provider's backoff), the last
        failure raised as it is: within one call of the model, so that a text tokenized is
        not asked for again with the call's others."""
        retrying = AsyncRetrying(
            retry=retry_if_exception(lambda ex: bool(self.api.should_retry(ex))),  # type: ignore[arg-type]
            stop=retry_stop(self.config),
            wait=self.api.retry_wait() or wait_exponential_jitter(initial=3, max=30 * 60, jitter=3),
            reraise=True,
        )
        try:
            async for attempt in retrying:
                with attempt:
                    return await request()
        except Exception as ex:
            _ASKED_AGAIN.add(ex)
            raise
        raise AssertionError("unreachable: tenacity returns or raises")

    async def send(self, method: str, url: str, body: dict[str, Any] | None, timeout: Any) -> Any:
        """The JSON reply to a request (a ``ServerError`` for a status other than 200)."""
        response = await pooled_client(server_root(str(self.base_url))).request(
            method, url, json=body, headers=auth_headers(self.api), timeout=timeout
        )
        if response.status_code != 200:
            raise ServerError(
                f"{method} {url} answered {response.status_code} "
                f"{response.reason_phrase}: {response.text[:300]}",
                request=response.request,
                response=response,
            )
        return response.json()


def retry_stop(config: GenerateConfig) -> stop_base:
    """Inspect's stop rule for a model's retries: ``max_retries`` retries, ``timeout`` s."""
    stops: list[stop_base] = []
    if config.max_retries is not None:
        stops.append(stop_after_attempt(config.max_retries + 1))
    if config.timeout is not None:
        stops.append(stop_after_delay(config.timeout))
    return stop_any(*stops) if stops else stop_never


# The failures of tokenizer calls asked again already (or not to be): not asked again as
# the model's call.
_ASKED_AGAIN: weakref.WeakSet[BaseException] = weakref.WeakSet()


def asked_again(ex: BaseException) -> bool:
    """Whether ``ex`` is a tokenizer call's failure that was asked again (or not to be)."""
    return ex in _ASKED_AGAIN


# Each distinct text's token ids, per served model, the least recently used forgotten past
# the bound; the texts being asked for.
_TOKENIZED: OrderedDict[tuple[tuple[str, str], str], list[int]] = OrderedDict()
_ASKING: dict[tuple[tuple[str, str], str], anyio.Event] = {}
# The end-of-text string of each served model, asked once (not once a sample).
_EOS_TOKENS: dict[tuple[str, str], str] = {}


def remember(served: tuple[str, str], text: str, tokens: list[int]) -> None:
    _TOKENIZED[(served, text)] = tokens
    while len(_TOKENIZED) > TOKENIZED_KEPT:
        _TOKENIZED.popitem(last=False)


# A lock per provider while vllm-completions starts its server (its first request).
_STARTING: weakref.WeakKeyDictionary[ModelAPI, anyio.Lock] = weakref.WeakKeyDictionary()


# One HTTP client per server root and event loop: a client's pooled connections belong to
# the loop that opened them (each eval() runs its own), and go with it.
_CLIENTS: weakref.WeakKeyDictionary[object, dict[str, httpx.AsyncClient]] = (
    weakref.WeakKeyDictionary()
)


def pooled_client(root: str) -> httpx.AsyncClient:
    loop = anyio.lowlevel.current_token().native_token
    clients = _CLIENTS.setdefault(loop, {})
    if root not in clients:
        # as many connections as Inspect lets requests run at once (its pool bounds them)
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        clients[root] = httpx.AsyncClient(limits=limits, timeout=COMPLETIONS_TIMEOUT)
    return clients[root]
