"""A completions client of our own for log-likelihood requests: the served model's own
provider, sent the same body, with the reply read as plain JSON.

Inspect's ``openai-api-completions`` and ``vllm-completions`` providers parse every
echoed reply through the OpenAI SDK's response models and then into Inspect's
``Logprobs``: one object per prompt token, with its top log-probabilities, of which a
log-likelihood needs only the numbers. ``echo_model(model)`` is a ``Model`` over a copy
of ``model``'s provider whose ``generate`` posts the body Inspect's provider would post
(``generate_raw_completions``: the same fields from the same ``GenerateConfig``,
through the same SDK client, so the same headers and errors), keeps the reply's JSON as
the model call, and hands back each echoed token with its log-probability in
``ModelOutput.metadata``. Being a copy, it keeps the provider's name in the log, its
connection pool (``--max-connections``), its retry rules and its HTTP client; being a
``Model``, each request is a model event in the transcript, retried and timed out
(``--attempt-timeout``) as any other.
"""

from __future__ import annotations

import copy
import json
import weakref
from functools import partial
from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    Model,
    ModelCall,
    ModelOutput,
    ModelUsage,
    StopReason,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from benchmarks.runtime.inspect_private import (
    REQUEST_ID_HEADER,
    active_generate_config,
    set_active_model_event_call,
)

ECHOED_TOKENS = "echoed_tokens"
# a reply to a list of prompts: what was read of each choice, in prompt order
CHOICES = "choices"
ECHOED_LOGPROBS = "echoed_logprobs"
PROMPT_LOGPROBS = "prompt_logprobs"
# the reply's finish_reason as Inspect's as_stop_reason() reads it
STOP_REASONS: dict[str | None, StopReason] = {
    "stop": "stop",
    "eos": "stop",
    "length": "max_tokens",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "content_filter",
    "model_length": "model_length",
    "max_tokens": "max_tokens",
}

# finish_reason values of a choice the server did not complete (vLLM's "abort"), whose
# log-probabilities are no model's reading of the prompt
FAILED_FINISH_REASONS = frozenset({"error", "abort"})

_ECHO_MODELS: weakref.WeakKeyDictionary[Model, Model] = weakref.WeakKeyDictionary()


def echo_model(model: Model) -> Model:
    """The model whose requests are read by ``echo_generate``, one a served model."""
    if model not in _ECHO_MODELS:
        api = copy.copy(model.api)
        setattr(api, "generate", partial(echo_generate, api))  # noqa: B010 - a method, replaced
        _ECHO_MODELS[model] = Model(api, model.config, model.model_args)
    return _ECHO_MODELS[model]


async def generate_echo(model: Model, message: ChatMessage, config: GenerateConfig) -> ModelOutput:
    """``model.generate([message], config)`` with the run's settings (``--attempt-timeout``,
    ``--max-retries``, ...) merged in, as the run's own model would have them."""
    return await echo_model(model).generate(
        [message], config=active_generate_config().merge(config)
    )


def completions_prompt(input: list[ChatMessage]) -> str | list[int] | list[list[int]]:
    """The prompt of a single user message: its ``prompt_token_ids`` (one prompt's, or a
    list of prompts'), else its text."""
    if len(input) != 1 or input[0].role != "user":
        raise TypeError("a log-likelihood request is a single user message")
    token_ids = (input[0].metadata or {}).get("prompt_token_ids")
    return token_ids if token_ids is not None else input[0].text


def request_fields(
    api: Any, prompt: str | list[int] | list[list[int]], config: GenerateConfig
) -> dict[str, Any]:
    """The arguments Inspect's ``generate_raw_completions`` gives ``completions.create``."""
    extra_body: dict[str, Any] = dict(config.extra_body or {})
    if config.prompt_logprobs is not None:
        extra_body["prompt_logprobs"] = config.prompt_logprobs
    fields: dict[str, Any] = {
        "model": api.service_model_name(),
        "prompt": prompt,
        "max_tokens": config.max_tokens if config.max_tokens is not None else 1,
        "temperature": config.temperature if config.temperature is not None else 0.0,
    }
    optional = {
        "top_p": config.top_p,
        "frequency_penalty": config.frequency_penalty,
        "presence_penalty": config.presence_penalty,
        "seed": config.seed,
        "stop": config.stop_seqs,
        "n": config.num_choices,
        "logprobs": (config.top_logprobs or 1) if config.logprobs is True else None,
    }
    fields.update({key: value for key, value in optional.items() if value is not None})
    if extra_body:
        fields["extra_body"] = extra_body
    return fields


async def echo_generate(
    api: Any,
    input: list[ChatMessage],
    tools: list[ToolInfo],
    tool_choice: ToolChoice,
    config: GenerateConfig,
) -> tuple[ModelOutput | Exception, ModelCall]:
    """Post the request as Inspect's completions provider would and read the reply's JSON."""
    prompt = completions_prompt(input)
    if hasattr(api, "_ensure_server_started"):  # vllm-completions starts its server lazily
        await api._ensure_server_started()
    fields = request_fields(api, prompt, config)
    extra_body = fields.pop("extra_body", None)
    with api._http_hooks.request() as request_id:
        headers = {REQUEST_ID_HEADER: request_id}
        recorded = {**fields, **({"extra_body": extra_body} if extra_body else {})}
        model_call = set_active_model_event_call({**recorded, "extra_headers": headers})
        options: dict[str, Any] = {"headers": headers, "security": {"bearer_auth": True}}
        if extra_body:
            options["extra_json"] = extra_body
        try:
            # bytes: the SDK hands back the body unparsed (its errors raised as usual)
            content = await api.client.post(
                "/completions", cast_to=bytes, body=fields, options=options
            )
        except Exception as ex:
            if getattr(ex, "status_code", None) != 404:  # the SDK's NotFoundError
                raise
            raise RuntimeError(
                f"Server at {api.base_url} does not support /v1/completions. "
                "Ensure the server exposes the legacy completions endpoint."
            ) from None
        reply = json.loads(content)
        model_call.set_response(reply, api._http_hooks.end_request(request_id))
    # the text path splits by the tokens' text; the token-ids path needs only the numbers
    return read_reply(reply, with_tokens=isinstance(prompt, str)), model_call


def read_reply(reply: dict[str, Any], with_tokens: bool = True) -> ModelOutput:
    """The reply's choices, each echoed token with its log-probability in the metadata (as
    Inspect reads them: the entries without a log-probability left out): the first
    choice's, and with several (a list of prompts) each one's under ``choices``."""
    choices = sorted(reply.get("choices") or [], key=lambda choice: choice.get("index") or 0)
    usage = reply.get("usage")
    output = ModelOutput(
        model=reply.get("model") or "",
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(content=choice.get("text") or ""),
                stop_reason=STOP_REASONS.get(choice.get("finish_reason"), "unknown"),
            )
            for choice in choices
        ],
        usage=ModelUsage(
            input_tokens=usage["prompt_tokens"],
            output_tokens=usage["completion_tokens"],
            total_tokens=usage["total_tokens"],
        )
        if usage
        else None,
        response_id=reply.get("id"),
    )
    failed = [choice.get("finish_reason") for choice in choices]
    failed = [reason for reason in failed if reason in FAILED_FINISH_REASONS]
    if failed:  # no log-probability of such a choice is the model's
        output.error = f"the server ended a choice with finish_reason {failed[0]!r}"
    if choices:
        output.metadata = echo_metadata(choices[0], with_tokens)
    if len(choices) > 1:
        each = [echo_metadata(choice, with_tokens) for choice in choices]
        output.metadata = {**each[0], CHOICES: each}
    return output


def echo_metadata(choice: dict[str, Any], with_tokens: bool = True) -> dict[str, Any]:
    """The metadata of one reply choice: ``echoed_logprobs`` (and ``echoed_tokens``), and its
    ``prompt_logprobs`` when it has them (vLLM's: the first entry of each position)."""
    logprobs = choice.get("logprobs") or {}
    tokens = logprobs.get("tokens") or []
    values = logprobs.get("token_logprobs") or []
    pairs = [
        (token, value) for token, value in zip(tokens, values, strict=False) if value is not None
    ]
    read: dict[str, Any] = {ECHOED_LOGPROBS: [float(value) for _, value in pairs]}
    if with_tokens:
        read[ECHOED_TOKENS] = [token for token, _ in pairs]
    if PROMPT_LOGPROBS in choice:
        read[PROMPT_LOGPROBS] = [
            float(next(iter(entry.values()))["logprob"])
            for entry in choice[PROMPT_LOGPROBS] or []
            if isinstance(entry, dict) and entry and isinstance(next(iter(entry.values())), dict)
        ]
    return read
