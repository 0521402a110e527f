"""Models served through the completions endpoint (``/v1/completions``): one raw prompt a
request, no chat template; the server's tokenizer (``/tokenize``, ``/tokenizer_info``, as
vLLM and SGLang serve them) for prompts sent as token ids.

``generate_from_token_ids()`` sends the sample's prompt as lm-evaluation-harness
0.4.13's ``local-completions`` does with a tokenizer (``tokenizer_backend=remote``, its
choice against a server with ``/tokenizer_info``; ``lm_eval/models/api_models.py``
``generate_until``): the text tokenized by the server without special tokens,
left-truncated to its ``max_length`` (2048) less the tokens to generate, sent as token
ids, with the tokenizer's end-of-text string added to the stop sequences when asked
(its synchronous client, ``num_concurrent=1``, adds it; its concurrent one does not).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import anyio
from inspect_ai.model import ChatMessageUser, GenerateConfig, Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
    stop_any,
    stop_never,
    wait_exponential_jitter,
)
from tenacity.stop import stop_base as StopBaseT

from benchmarks.models.server_checks import (
    Need,
    check_server,
    require_server,
    sends_one_prompt,
    server_key,
    server_root,
)
from benchmarks.runtime.inspect_private import active_generate_config, connection_slot
from benchmarks.runtime.registry_names import namespaced

# lm-evaluation-harness's TemplateAPI max_length and max_gen_toks.
CONTEXT_LENGTH = 2048
DEFAULT_MAX_TOKENS = 256


# What the token-ids profile needs of the server (checked before the first sample).
TOKEN_IDS_NEED = Need(
    "a prompt sent as the server's token ids", ("tokenize",), "-T completions_prompt=text"
)
EOS_NEED = Need("the end-of-text stop sequence (-T stop_at_eos=true)", ("tokenizer_info",))


class TokenizerError(ValueError):
    """The server's tokenizer endpoints gave no usable answer (a sample error: retryable)."""


async def server_json(model: Model, path: str, body: dict[str, Any] | None = None) -> Any:
    """The JSON reply to a request at the server's root (a POST of ``body``, or a GET),
    sent through the provider's HTTP client, each attempt holding a slot of the model's
    connection pool (``--max-connections``; none is held while waiting to retry), retried
    by the model's rules (``--max-retries``, ``--timeout``, the provider's backoff) when it
    fails as a server under load fails."""
    api: Any = model.api
    if hasattr(api, "_ensure_server_started"):  # vllm-completions starts its server lazily
        await api._ensure_server_started()
    url = f"{server_root(api)}{path}"
    headers = {"Authorization": f"Bearer {api.api_key}"} if api.api_key else {}
    config = active_generate_config()
    timeout = config.attempt_timeout or 60.0
    async for attempt in AsyncRetrying(
        retry=retry_if_exception(lambda ex: transient(ex) or model.should_retry(ex)),
        stop=retry_stop(config),
        wait=api.retry_wait() or wait_exponential_jitter(initial=3, max=30 * 60, jitter=3),
        reraise=True,
    ):
        with attempt:
            async with connection_slot(model, config):
                if body is None:
                    response = await api.http_client.get(url, headers=headers, timeout=timeout)
                else:
                    response = await api.http_client.post(
                        url, json=body, headers=headers, timeout=timeout
                    )
            response.raise_for_status()
    return response.json()


def transient(ex: BaseException) -> bool:
    """A failure worth asking again: no connection or answer, or a status a busy or restarting
    server gives (408, 409, 429, 5xx), as the providers classify theirs. Read by the
    exception's shape: the provider's HTTP client may be httpx or a fork of it."""
    kinds = {kind.__name__ for kind in type(ex).__mro__}
    if "HTTPStatusError" in kinds:
        status = int(getattr(getattr(ex, "response", None), "status_code", 0))
        return status in (408, 409, 429) or status >= 500
    return "TransportError" in kinds


def retry_stop(config: GenerateConfig) -> StopBaseT:
    """Inspect's stop rule for a model's retries: ``max_retries`` retries, ``timeout`` s."""
    stops: list[StopBaseT] = []
    if config.max_retries is not None:
        stops.append(stop_after_attempt(config.max_retries + 1))
    if config.timeout is not None:
        stops.append(stop_after_delay(config.timeout))
    return stop_any(*stops) if stops else stop_never


# Each distinct text's token ids, per served model: a text is asked for once (a retried
# sample's, a repeated context: Winogrande's twin sentences share theirs), the least
# recently used forgotten past the bound; a text being asked for is waited for.
_TOKENIZED: OrderedDict[tuple[tuple[str, str], str], list[int]] = OrderedDict()
_ASKING: dict[tuple[tuple[str, str], str], anyio.Event] = {}
TOKENIZED_KEPT = 8192


async def tokenize(model: Model, text: str) -> list[int]:
    """``text``'s token ids from the model server (no special tokens added)."""
    api: Any = model.api
    if not sends_one_prompt(str(model)):  # benchmarks/oracle, random: their own tokenizer
        return list(await api.tokenize(text))
    key = (server_key(api), text)
    while key in _ASKING:
        await _ASKING[key].wait()
    if key in _TOKENIZED:
        _TOKENIZED.move_to_end(key)
        return _TOKENIZED[key]
    _ASKING[key] = anyio.Event()
    try:
        tokens = await ask_tokens(model, text)
        _TOKENIZED[key] = tokens
        while len(_TOKENIZED) > TOKENIZED_KEPT:
            _TOKENIZED.popitem(last=False)
    finally:
        _ASKING.pop(key).set()
    return tokens


async def ask_tokens(model: Model, text: str) -> list[int]:
    api: Any = model.api
    # the model named, as vLLM's provider names it: a router in front of several models
    # sends the request to the right one
    body = {"model": api.service_model_name(), "prompt": text, "add_special_tokens": False}
    reply = await server_json(model, "/tokenize", body)
    tokens = reply.get("tokens") if isinstance(reply, dict) else None
    if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
        raise TokenizerError(f"{server_root(api)}/tokenize gave no token ids: {reply!r:.200}")
    return tokens


# The end-of-text string of each served model, asked once (not once a sample).
_EOS_TOKENS: dict[tuple[str, str], str] = {}


async def eos_token(model: Model) -> str:
    """The tokenizer's end-of-text string, from the server's ``/tokenizer_info``."""
    api: Any = model.api
    offline = getattr(api, "eos_token", None)  # benchmarks/oracle, random
    if isinstance(offline, str):
        return offline
    key = server_key(api)
    if key not in _EOS_TOKENS:
        reply = await server_json(model, "/tokenizer_info")
        eos = reply.get("eos_token") if isinstance(reply, dict) else None
        if not isinstance(eos, str):
            root = server_root(api)
            raise TokenizerError(f"{root}/tokenizer_info gave no eos_token: {reply!r:.200}")
        _EOS_TOKENS[key] = eos
    return _EOS_TOKENS[key]


@solver(name=namespaced("generate_from_token_ids", __name__))
def generate_from_token_ids(*, stop_at_eos: bool) -> Solver:
    """Generate from the user message's text, sent as the server's token ids: the last
    ``CONTEXT_LENGTH`` less ``max_tokens`` of them.

    Args:
        stop_at_eos: Add the tokenizer's end-of-text string to the stop sequences.
    """
    needs = [TOKEN_IDS_NEED, *([EOS_NEED] if stop_at_eos else [])]
    for need in needs:
        require_server(need)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        for need in needs:
            await check_server(model, need)
        # the run's settings (the task's, with --max-tokens and the like merged in)
        config = active_generate_config()
        max_tokens = config.max_tokens or DEFAULT_MAX_TOKENS
        text = state.user_prompt.text
        token_ids = (await tokenize(model, text))[-(CONTEXT_LENGTH - max_tokens) :]
        # the text stays for the log viewer; the provider sends the ids
        state.messages = [ChatMessageUser(content=text, metadata={"prompt_token_ids": token_ids})]
        stops = list(config.stop_seqs or [])
        if stop_at_eos and (eos := await eos_token(model)) not in stops:
            stops.append(eos)
        return await generate(state, stop_seqs=stops)

    return solve
