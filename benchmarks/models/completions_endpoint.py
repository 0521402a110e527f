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

from typing import Any

from inspect_ai.model import ChatMessageUser, Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.runtime.inspect_private import active_generate_config
from benchmarks.runtime.registry_names import namespaced

# Inspect's providers that post one raw prompt to /v1/completions.
COMPLETIONS_PROVIDERS = frozenset({"openai-api-completions", "vllm-completions"})
SUPPORTED = "vllm-completions/<model> or openai-api-completions/<service>/<model>"
# lm-evaluation-harness's TemplateAPI max_length and max_gen_toks.
MAX_LENGTH = 2048
DEFAULT_MAX_TOKENS = 256


class TokenizerError(ValueError):
    """The server's tokenizer endpoints gave no usable answer (a sample error: retryable)."""


def sends_one_prompt(model: str) -> bool:
    """Whether ``model`` (``<provider>/<name>``) is served through the completions endpoint."""
    return model.split("/", 1)[0] in COMPLETIONS_PROVIDERS


def answers_completions_requests(model: Model) -> bool:
    """Whether ``model`` takes token-id prompts and echoes log-probabilities: a completions
    provider, or the offline models (``benchmarks/oracle``, ``random``), which act as one."""
    return sends_one_prompt(str(model)) or getattr(model.api, "echoes_prompt_logprobs", False)


def _server_root(api: Any) -> tuple[str, dict[str, str]]:
    root = str(api.base_url).rstrip("/").removesuffix("/v1")
    headers = {"Authorization": f"Bearer {api.api_key}"} if api.api_key else {}
    return root, headers


async def tokenize(model: Model, text: str) -> list[int]:
    """``text``'s token ids from the model server (no special tokens added)."""
    api: Any = model.api
    if type(api).__name__ != "OpenAICompatibleCompletionsAPI":  # vLLM's, the offline models'
        return list(await api.tokenize(text))
    root, headers = _server_root(api)
    response = await api.http_client.post(
        f"{root}/tokenize",
        json={"prompt": text, "add_special_tokens": False},
        headers=headers,
        timeout=60.0,
    )
    response.raise_for_status()
    tokens = response.json().get("tokens")
    if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
        raise TokenizerError(f"{root}/tokenize gave no token ids: {response.text[:200]}")
    return tokens


# The end-of-text string of each server, asked once a run (not once a sample).
_EOS_TOKENS: dict[str, str] = {}


async def eos_token(model: Model) -> str:
    """The tokenizer's end-of-text string, from the server's ``/tokenizer_info``."""
    api: Any = model.api
    offline = getattr(api, "eos_token", None)  # benchmarks/oracle, random
    if isinstance(offline, str):
        return offline
    root, headers = _server_root(api)
    if root not in _EOS_TOKENS:
        response = await api.http_client.get(
            f"{root}/tokenizer_info", headers=headers, timeout=60.0
        )
        response.raise_for_status()
        eos = response.json().get("eos_token")
        if not isinstance(eos, str):
            raise TokenizerError(f"{root}/tokenizer_info gave no eos_token: {response.text[:200]}")
        _EOS_TOKENS[root] = eos
    return _EOS_TOKENS[root]


@solver(name=namespaced("generate_from_token_ids", __name__))
def generate_from_token_ids(*, stop_at_eos: bool) -> Solver:
    """Generate from the user message's text, sent as the server's token ids: the last
    ``MAX_LENGTH`` less ``max_tokens`` of them.

    Args:
        stop_at_eos: Add the tokenizer's end-of-text string to the stop sequences.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        if not answers_completions_requests(model):
            raise ValueError(
                f"a prompt sent as token ids needs a model served through the completions "
                f"endpoint with /tokenize and /tokenizer_info; {model} is not: use {SUPPORTED}."
            )
        # the run's settings (the task's, with --max-tokens and the like merged in)
        config = active_generate_config()
        max_tokens = config.max_tokens or DEFAULT_MAX_TOKENS
        text = state.user_prompt.text
        token_ids = (await tokenize(model, text))[-(MAX_LENGTH - max_tokens) :]
        # the text stays for the log viewer; the provider sends the ids
        state.messages = [ChatMessageUser(content=text, metadata={"prompt_token_ids": token_ids})]
        stops = list(config.stop_seqs or [])
        if stop_at_eos and (eos := await eos_token(model)) not in stops:
            stops.append(eos)
        return await generate(state, stop_seqs=stops)

    return solve
