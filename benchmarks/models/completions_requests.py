"""The completions-endpoint requests this package makes itself, each asked as one user
message to ``Model.generate`` and answered by ``answer`` within that call.

Three kinds, told by the message's metadata:

- a log-likelihood request with token ids (``loglikelihood_request``: ``token_ids``, or
  ``prompt_logprobs`` for vLLM's): the message's text is empty and ``options`` holds each
  option's ``[context, continuation]``; every option's prompt goes in one request, as a
  list of prompts the server answers with a choice each (vLLM, SGLang);
- a log-likelihood request as text (``loglikelihood_request``: ``text``): the message's
  text is context and continuation as one string, ``continuation`` its end;
- a generation from token ids (``completions_prompt``: ``token_ids``): the message's text
  sent as the server's token ids, the last ``keep_last_tokens`` of them, with the
  tokenizer's end-of-text string added to the stop sequences when ``stop_at_eos``.

``answer`` tokenizes (the server's ``/tokenize``), builds the body Inspect's completions
provider would post for the prompt and settings (``request_fields``), posts it and reads
the reply; a ``CompletionsServer`` does the asking: a served model over HTTP
(models/served_model.py) or an offline model in-process (models/offline.py). Running
within ``Model.generate``, the request is one model event: the request as sent, the reply
(of a log-likelihood request, only what was scored: see ``logged_reply``), the output.
"""

from __future__ import annotations

import abc
import os
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageUser, GenerateConfig, ModelCall, ModelOutput

from benchmarks.models.echo_completions import (
    LoglikelihoodError,
    Scored,
    check_finished,
    echoed_continuation,
    generated_per_choice,
    generation_output,
    prompt_continuation,
    reply_choices,
    scored_output,
    text_continuation,
    unread_output,
)

# The message metadata that makes a request (see the module docstring).
LOGLIKELIHOOD_REQUEST = "loglikelihood_request"
OPTIONS = "options"
CONTINUATION = "continuation"
COMPLETIONS_PROMPT = "completions_prompt"
KEEP_LAST_TOKENS = "keep_last_tokens"
STOP_AT_EOS = "stop_at_eos"
# lm-evaluation-harness's TemplateAPI: max_length 2048, less the one generated token.
MAX_LENGTH = 2047
# A debugging switch: set to 1, a log-likelihood request's model call keeps the server's
# whole reply (every prompt token's log-probabilities) instead of what was scored.
WHOLE_REPLIES = "INSPECT_BENCHMARKS_WHOLE_REPLIES"
# What a log-likelihood request's logged reply says in place of each choice's text and
# log-probabilities.
OMITTED = "omitted_by_benchmarks"
OMITTED_NOTE = (
    "each choice's text, logprobs and prompt_logprobs: the output holds the continuation's "
    f"tokens and log-probabilities ({WHOLE_REPLIES}=1 keeps the whole reply here)"
)


class CompletionsServer(abc.ABC):
    """What answers this package's completions requests: the server's tokenizer, its
    end-of-text string and its ``/v1/completions``."""

    @abc.abstractmethod
    def service_model_name(self) -> str:
        """The model's name at the server (the body's ``model``)."""

    @abc.abstractmethod
    async def tokenize(self, text: str) -> list[int]:
        """``text``'s token ids, no special tokens added (``POST /tokenize``)."""

    @abc.abstractmethod
    async def eos_token(self) -> str:
        """The tokenizer's end-of-text string (``GET /tokenizer_info``)."""

    @abc.abstractmethod
    async def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        """The JSON reply of ``POST /v1/completions`` with ``body``."""


def loglikelihood_messages(request: str, pairs: list[list[str]]) -> list[ChatMessageUser]:
    """The requests for the ``[context, continuation]`` pairs: one with every option's token
    ids (``token_ids``, ``prompt_logprobs``), or one an option as text (``text``)."""
    if request == "text":
        return [
            ChatMessageUser(
                content=context + continuation,
                metadata={LOGLIKELIHOOD_REQUEST: request, CONTINUATION: continuation},
            )
            for context, continuation in pairs
        ]
    return [ChatMessageUser(content="", metadata={LOGLIKELIHOOD_REQUEST: request, OPTIONS: pairs})]


def token_ids_message(text: str, keep_last_tokens: int, stop_at_eos: bool) -> ChatMessageUser:
    """The request to generate from ``text`` sent as the server's token ids."""
    return ChatMessageUser(
        content=text,
        metadata={
            COMPLETIONS_PROMPT: "token_ids",
            KEEP_LAST_TOKENS: keep_last_tokens,
            STOP_AT_EOS: stop_at_eos,
        },
    )


def is_request(input: list[ChatMessage]) -> bool:
    """Whether ``input`` is one of this package's completions requests."""
    metadata = (input[-1].metadata or {}) if input else {}
    return LOGLIKELIHOOD_REQUEST in metadata or COMPLETIONS_PROMPT in metadata


async def answer(
    server: CompletionsServer, input: list[ChatMessage], config: GenerateConfig
) -> tuple[ModelOutput, ModelCall]:
    """Send the request ``input`` holds to ``server`` and read its reply."""
    if len(input) != 1 or input[0].role != "user":
        raise TypeError("a completions request is a single user message")
    message = input[0]
    asked = message.metadata or {}
    request = asked.get(LOGLIKELIHOOD_REQUEST)
    tokens = []
    if request is None:
        # a generation: the text sent as the server's token ids (the last
        # keep_last_tokens), the end-of-text string added to the stop sequences if asked
        token_ids = await server.tokenize(message.text)
        prompt: str | list[int] | list[list[int]] = token_ids[-asked[KEEP_LAST_TOKENS] :]
        stops = list(config.stop_seqs or [])
        if asked.get(STOP_AT_EOS) and (eos := await server.eos_token()) not in stops:
            stops.append(eos)
        config = config.merge(GenerateConfig(stop_seqs=stops))
    elif request == "text":
        prompt = message.text
    else:
        tokens = [await request_tokens(server, context, rest) for context, rest in asked[OPTIONS]]
        prompt = [sent for sent, _ in tokens]
    body = request_fields(server, prompt, config)
    reply = as_reply(await server.complete(body))
    if request is None:
        return generation_output(reply), ModelCall.create(request=body, response=reply)
    choices = reply_choices(reply)
    try:
        check_finished(choices)
        if request == "text":
            context_length = len(message.text) - len(asked[CONTINUATION])
            first = choices[0] if choices else {}
            scored = [text_continuation(first, message.text, context_length)]
        else:
            wanted = [len(sent) - context_length for sent, context_length in tokens]
            scored = read_options(reply, choices, wanted, request)
        output = scored_output(reply, choices, scored, request == "prompt_logprobs")
    except LoglikelihoodError as ex:
        output = unread_output(reply, ex)
    return output, ModelCall.create(request=body, response=logged_reply(reply))


def request_fields(
    server: CompletionsServer, prompt: str | list[int] | list[list[int]], config: GenerateConfig
) -> dict[str, Any]:
    """The body Inspect's completions provider posts (``generate_raw_completions``: the
    same fields from the same settings, ``extra_body`` merged in as its SDK merges it)."""
    extra_body: dict[str, Any] = dict(config.extra_body or {})
    if config.prompt_logprobs is not None:
        extra_body["prompt_logprobs"] = config.prompt_logprobs
    fields: dict[str, Any] = {
        "model": server.service_model_name(),
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
    return {**fields, **extra_body}


async def request_tokens(
    server: CompletionsServer, context: str, continuation: str
) -> tuple[list[int], int]:
    """The token ids sent for ``context`` + ``continuation``, and how many are context:
    the context's trailing whitespace moved into the continuation, the whole and the
    context tokenized apart, the continuation being what the whole has past the context
    (lm-evaluation-harness's ``TemplateLM._encode_pair``), left-truncated to ``MAX_LENGTH``."""
    spaces = len(context) - len(context.rstrip())
    if spaces:
        context, continuation = context[:-spaces], context[-spaces:] + continuation
    whole = await server.tokenize(context + continuation)
    context_ids = await server.tokenize(context)
    continuation_ids = whole[len(context_ids) :]
    sent = (context_ids + continuation_ids)[-MAX_LENGTH:]
    overflow = max(0, len(context_ids) + len(continuation_ids) - MAX_LENGTH)
    return sent, len(context_ids) - overflow


def read_options(
    reply: dict[str, Any], choices: list[dict[str, Any]], wanted: list[int], request: str
) -> list[Scored]:
    """Each option's continuation in a reply to a list of prompts, ``wanted[i]`` tokens of
    choice ``i``: from the echo, or from vLLM's ``prompt_logprobs``."""
    if len(choices) != len(wanted):
        raise LoglikelihoodError(
            f"the reply holds {len(choices)} choices for {len(wanted)} prompts; the server "
            "must answer a list of prompts with a choice each (vLLM, SGLang)."
        )
    if request == "prompt_logprobs":
        return [prompt_continuation(c, n) for c, n in zip(choices, wanted, strict=True)]
    generated = generated_per_choice(reply, choices)
    return [echoed_continuation(c, n, generated) for c, n in zip(choices, wanted, strict=True)]


def as_reply(reply: Any) -> dict[str, Any]:
    return reply if isinstance(reply, dict) else {"body": reply}


def logged_reply(reply: dict[str, Any]) -> dict[str, Any]:
    """What a log-likelihood request's model call keeps of the reply: all but each choice's
    text and log-probabilities (the echoed prompt, every prompt token's log-probability),
    unless ``INSPECT_BENCHMARKS_WHOLE_REPLIES=1`` asks for the whole."""
    if os.environ.get(WHOLE_REPLIES) == "1" or not isinstance(reply.get("choices"), list):
        return reply
    # (a choice that is no object failed reply_choices already)
    dropped = ("text", "logprobs", "prompt_logprobs")
    choices = [
        {key: value for key, value in choice.items() if key not in dropped}
        for choice in reply["choices"]
    ]
    return {**reply, "choices": choices, OMITTED: OMITTED_NOTE}
