"""This package's completions requests to a served model (``vllm-completions/<model>``,
``openai-api-completions/<service>/<model>``), made through ``Model.generate``.

``client_model(model)`` is the ``Model`` that answers them: for a served model, a
``Model`` over the user's own provider made anew through its public constructor (the
user's model name, base URL, key, settings and model args) as a subclass whose
``generate`` answers this package's requests (models/completions_requests.py) and passes
anything else to the provider's own. Inspect therefore runs each request as it runs any
model call: a model event, the connection pool (``--max-connections``, keyed by the
provider's ``connection_key()``) held while it runs, retries by ``should_retry``,
``--attempt-timeout``. The subclass is registered with Inspect's public ``@modelapi``,
under ``benchmarks/<provider>``, since Inspect names a model (its log entries, its usage)
by the registration of the object that made its provider: the log names the user's
provider. ``get_model("<provider>/...")`` still makes Inspect's own, which was registered
first; were it to make this one, it would be that provider with two more requests.

The HTTP side (``ServedModel``) posts each body itself, with one pooled ``httpx`` client
per server and event loop, and reads the reply as plain JSON (Inspect's provider would
parse every echoed prompt token into an object). The server's tokenizer is asked there
too, within the same call and connection: each distinct text once per process and served
model (the whole text, keyed with the server's URL and the model's name there), the
least recently used forgotten past ``TOKENIZED_KEPT``; the end-of-text string once. A
failed request is retried as the whole call, by Inspect, after the provider's backoff.
"""

from __future__ import annotations

import functools
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.lowlevel
import httpx
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelAPI,
    ModelCall,
    ModelName,
    ModelOutput,
    RetryDecision,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from benchmarks.models.completions_requests import CompletionsServer, answer, is_request
from benchmarks.models.server_checks import PROBE_TEXT, server_key, server_root
from benchmarks.runtime.registry_names import namespaced

# Seconds a request may take: a tokenizer call, and a completions request (the OpenAI
# SDK's default, which Inspect's provider used for these).
TOKENIZE_TIMEOUT = 60.0
COMPLETIONS_TIMEOUT = httpx.Timeout(600.0, connect=60.0)
TOKENIZED_KEPT = 8192


class TokenizerError(ValueError):
    """The server's tokenizer endpoints gave no usable answer (a sample error: retryable)."""


class ServerError(httpx.HTTPStatusError):
    """A server's answer other than 200, with what it said (retried as an HTTP status
    error is: 408, 409, 429 and 5xx)."""


def client_model(model: Model) -> Model:
    """The model whose ``generate`` answers this package's completions requests for
    ``model``: an offline model itself, a served model's provider with ``generate`` of ours."""
    if isinstance(model.api, CompletionsServer):
        return model
    if model not in _CLIENT_MODELS:
        _CLIENT_MODELS[model] = Model(requests_provider(model), model.config, model.model_args)
    return _CLIENT_MODELS[model]


_CLIENT_MODELS: weakref.WeakKeyDictionary[Model, Model] = weakref.WeakKeyDictionary()


def requests_provider(model: Model) -> ModelAPI:
    """``model``'s provider made anew, as ``get_model`` made it, answering our requests."""
    api = model.api
    provider = ModelName(model).api
    # the model's name as given (vLLM's provider drops a LoRA adapter from model_name)
    name = (api.qualified_model_name or str(model)).split("/", 1)[1]
    make = provider_with_requests(type(api), provider)
    return make(
        model_name=name,
        base_url=model.explicit_base_url,
        api_key=api.api_key,
        config=model.config,
        **model.model_args,
    )


@functools.cache
def provider_with_requests(provider: type[ModelAPI], name: str) -> type[ModelAPI]:
    """``provider`` with this package's requests, registered as ``benchmarks/<name>``."""

    class WithRequests(provider):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # the base URL given (vLLM's provider has its own only once its server is
            # resolved, at its first request of its own)
            self.given_base_url: str | None = kwargs.get("base_url")

        async def generate(
            self,
            input: list[ChatMessage],
            tools: list[ToolInfo],
            tool_choice: ToolChoice,
            config: GenerateConfig,
        ) -> ModelOutput | tuple[ModelOutput | Exception, ModelCall]:
            if not is_request(input):
                return await super().generate(input, tools, tool_choice, config)
            return await answer(
                ServedModel(self, self.base_url or self.given_base_url), input, config
            )

        def should_retry(self, ex: Exception) -> bool | RetryDecision:
            decision = http_retry(ex)
            return super().should_retry(ex) if decision is None else decision

    WithRequests.__name__ = WithRequests.__qualname__ = f"{provider.__name__}WithRequests"

    def with_requests() -> type[ModelAPI]:
        return WithRequests

    return modelapi(name=namespaced(name, __name__))(with_requests)


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
    started)."""

    def __init__(self, api: ModelAPI, base_url: str | None) -> None:
        self.api = api
        self.base_url = base_url

    def service_model_name(self) -> str:
        return self.api.service_model_name()

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api.api_key}"} if self.api.api_key else {}

    async def tokenize(self, text: str) -> list[int]:
        if self.base_url is None:
            return await self.start_with(text)
        served = server_key(self.base_url, self.api)
        return await tokenized(served, text, lambda: self.ask_tokens(text))

    async def start_with(self, text: str) -> list[int]:
        """``text``'s token ids through the provider's public ``tokenize()``, which starts
        the server Inspect launches for vllm-completions; other requests wait for it."""
        async with starting(self.api):
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
        reply = await self.send("POST", f"{root}/tokenize", body, TOKENIZE_TIMEOUT)
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
            reply = await self.send("GET", f"{root}/tokenizer_info", None, TOKENIZE_TIMEOUT)
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

    async def send(self, method: str, url: str, body: dict[str, Any] | None, timeout: Any) -> Any:
        """The JSON reply to a request (a ``ServerError`` for a status other than 200)."""
        response = await pooled_client(server_root(str(self.base_url))).request(
            method, url, json=body, headers=self.headers(), timeout=timeout
        )
        if response.status_code != 200:
            raise ServerError(
                f"{method} {url} answered {response.status_code} "
                f"{response.reason_phrase}: {response.text[:300]}",
                request=response.request,
                response=response,
            )
        return response.json()


# Each distinct text's token ids, per served model: a text is asked for once (a retried
# sample's, a repeated context: Winogrande's twin sentences share theirs), the least
# recently used forgotten past the bound; a text being asked for is waited for.
_TOKENIZED: OrderedDict[tuple[tuple[str, str], str], list[int]] = OrderedDict()
_ASKING: dict[tuple[tuple[str, str], str], anyio.Event] = {}
# The end-of-text string of each served model, asked once (not once a sample).
_EOS_TOKENS: dict[tuple[str, str], str] = {}


async def tokenized(
    served: tuple[str, str], text: str, ask: Callable[[], Awaitable[list[int]]]
) -> list[int]:
    """``text``'s token ids from the served model ``served``: remembered, or ``ask()``-ed."""
    key = (served, text)
    while key in _ASKING:
        await _ASKING[key].wait()
    if key in _TOKENIZED:
        _TOKENIZED.move_to_end(key)
        return _TOKENIZED[key]
    _ASKING[key] = anyio.Event()
    try:
        tokens = await ask()
        remember(served, text, tokens)
    finally:
        _ASKING.pop(key).set()
    return tokens


def remember(served: tuple[str, str], text: str, tokens: list[int]) -> None:
    _TOKENIZED[(served, text)] = tokens
    while len(_TOKENIZED) > TOKENIZED_KEPT:
        _TOKENIZED.popitem(last=False)


# A lock per provider while vllm-completions starts its server (its first request).
_STARTING: weakref.WeakKeyDictionary[ModelAPI, anyio.Lock] = weakref.WeakKeyDictionary()


def starting(api: ModelAPI) -> anyio.Lock:
    return _STARTING.setdefault(api, anyio.Lock())


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
