"""Reading a completions endpoint's reply to a log-likelihood request, as plain JSON.

A log-likelihood needs, of the reply, the log-probabilities of the continuation's tokens:
the last echoed entries before the generated ones for token ids (lm-evaluation-harness
0.4.13's ``local-completions``, ``openai_completions.py`` 99-117), the last entries of
vLLM's ``prompt_logprobs``, or for text the echoed entries from the first token whose
text starts at or past the end of the context, the last entry left out (its ``gguf``
client's ``get_result``). Each reading keeps the continuation's tokens and
log-probabilities (``Scored``) and nothing else of the reply: the model output of a
request holds them, one choice an option, and their sums under ``metadata["loglikelihoods"]``.
A reply without usable log-probabilities is a ``LoglikelihoodError``, never a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    Logprob,
    Logprobs,
    ModelOutput,
    ModelUsage,
    StopReason,
)

# the output's metadata: each option's summed log-likelihood, in the options' order
LOGLIKELIHOODS = "loglikelihoods"
# the reply's finish_reason as Inspect's completions provider reads it (as_stop_reason)
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


class LoglikelihoodError(ValueError):
    """A reply that holds no usable log-probabilities (a sample error: retryable)."""


@dataclass(frozen=True)
class Scored:
    """What one option's reading keeps: the continuation's tokens (as the server spells
    them) and their log-probabilities, whose sum is the option's log-likelihood."""

    tokens: list[str]
    logprobs: list[float]

    @property
    def loglikelihood(self) -> float:
        return sum(self.logprobs)


def reply_choices(reply: dict[str, Any]) -> list[dict[str, Any]]:
    """The reply's choices in prompt order."""
    return sorted(reply.get("choices") or [], key=lambda choice: choice.get("index") or 0)


def reply_usage(reply: dict[str, Any]) -> ModelUsage | None:
    usage = reply.get("usage")
    if not usage:
        return None
    return ModelUsage(
        input_tokens=usage["prompt_tokens"],
        output_tokens=usage["completion_tokens"],
        total_tokens=usage["total_tokens"],
    )


def check_finished(choices: list[dict[str, Any]]) -> None:
    """Refuse a reply with a choice the server did not complete."""
    failed = [choice.get("finish_reason") for choice in choices]
    failed = [reason for reason in failed if reason in FAILED_FINISH_REASONS]
    if failed:
        raise LoglikelihoodError(
            "the server answered with an error: the server ended a choice with "
            f"finish_reason {failed[0]!r}"
        )


def echoed_entries(choice: dict[str, Any]) -> tuple[list[str], list[float]]:
    """The echoed tokens and their log-probabilities, the entries without one (the prompt's
    first token) left out, as Inspect reads them."""
    logprobs = choice.get("logprobs") or {}
    pairs = [
        (token, value)
        for token, value in zip(
            logprobs.get("tokens") or [], logprobs.get("token_logprobs") or [], strict=False
        )
        if value is not None
    ]
    return [token for token, _ in pairs], [float(value) for _, value in pairs]


def prompt_entries(choice: dict[str, Any]) -> tuple[list[str], list[float]]:
    """vLLM's ``prompt_logprobs`` (the first token has none): each position's first entry,
    its decoded token (else its id) and its log-probability."""
    tokens: list[str] = []
    values: list[float] = []
    for entry in choice.get("prompt_logprobs") or []:
        if not isinstance(entry, dict) or not entry:
            continue
        token_id, read = next(iter(entry.items()))
        if isinstance(read, dict):
            tokens.append(str(read.get("decoded_token") or token_id))
            values.append(float(read["logprob"]))
    return tokens, values


def generated_per_choice(reply: dict[str, Any], choices: list[dict[str, Any]]) -> int:
    """The generated tokens of each choice: the reply's shared evenly by its choices."""
    usage = reply_usage(reply)
    return usage.output_tokens // max(1, len(choices)) if usage is not None else 1


def echoed_continuation(choice: dict[str, Any], continuation_tokens: int, generated: int) -> Scored:
    """The continuation's echoed entries, counted from the end: the last entries are the
    generated tokens (``token_logprobs[ctxlen:-1]`` for one generated token)."""
    tokens, values = echoed_entries(choice)
    if len(values) < continuation_tokens + generated:
        raise LoglikelihoodError(
            f"the reply holds {len(values)} log-probabilities, fewer than the "
            f"{continuation_tokens} continuation tokens and {generated} generated; the server "
            "must echo the prompt's log-probabilities (echo: true, logprobs: 1)."
        )
    start, end = len(values) - generated - continuation_tokens, len(values) - generated
    return Scored(tokens[start:end], values[start:end])


def prompt_continuation(choice: dict[str, Any], continuation_tokens: int) -> Scored:
    """The last ``continuation_tokens`` entries of vLLM's ``prompt_logprobs``."""
    tokens, values = prompt_entries(choice)
    if len(values) < continuation_tokens:
        raise LoglikelihoodError(
            f"the reply holds {len(values)} prompt log-probabilities, fewer than the "
            f"{continuation_tokens} continuation tokens; the server must return "
            "prompt_logprobs (vLLM, SGLang)."
        )
    start = len(values) - continuation_tokens
    return Scored(tokens[start:], values[start:])


def text_continuation(choice: dict[str, Any], prompt: str, context_length: int) -> Scored:
    """The echoed entries of the tokens whose text starts at or past ``context_length``,
    the last entry (the generated token) left out.

    The server's ``text_offset`` is not read (Inspect's completions provider does not keep
    it either): the offsets are counted back from the end of the text the entries spell,
    the prompt and the generated text (vLLM) or the prompt alone (llama-cpp-python has no
    entry for the generated token)."""
    echoed = str(choice.get("text") or "")
    if not echoed.startswith(prompt):
        raise LoglikelihoodError(
            "the reply does not begin with the prompt; the server must echo it (echo: true)."
        )
    tokens, logprobs = echoed_entries(choice)
    spelled = "".join(tokens)
    ends = [end for end in (len(echoed), len(prompt)) if tokens and echoed[:end].endswith(spelled)]
    if not ends:
        raise LoglikelihoodError(
            f"the reply's {len(tokens)} echoed tokens do not spell the prompt "
            f"({spelled[-40:]!r} against {echoed[-40:]!r}); the server must echo the prompt's "
            "tokens with their log-probabilities (echo: true, logprobs)."
        )
    # A token's text_offset is >= context_length when its text lies within the last
    # ends[0] - context_length characters of the text the entries spell.
    within = ends[0] - context_length
    first, tail = len(tokens), 0
    while first > 0 and len(tokens[first - 1]) + tail <= within:
        first -= 1
        tail += len(tokens[first])
    if first == 0 and tail < within:
        raise LoglikelihoodError(
            f"the reply's {len(tokens)} echoed tokens end {within - tail} characters short of "
            "the continuation's start; the server must echo every prompt token with its "
            "log-probability (echo: true, logprobs)."
        )
    # lm-evaluation-harness sums token_logprobs[idx:-1]: the last entry is left out
    return Scored(tokens[first:-1], logprobs[first:-1])


def scored_output(
    reply: dict[str, Any],
    choices: list[dict[str, Any]],
    scored: list[Scored],
    from_prompt_logprobs: bool,
) -> ModelOutput:
    """The model output of a log-likelihood request: a choice an option, holding the text and
    the log-probabilities of its continuation's tokens (in ``logprobs``, or in
    ``prompt_logprobs`` when read from there), and the options' sums in the metadata."""
    made = []
    for read, choice in zip(scored, choices, strict=False):
        entries = Logprobs(
            content=[
                Logprob(token=token, logprob=value)
                for token, value in zip(read.tokens, read.logprobs, strict=True)
            ]
        )
        made.append(
            ChatCompletionChoice(
                message=ChatMessageAssistant(content="".join(read.tokens)),
                stop_reason=STOP_REASONS.get(choice.get("finish_reason"), "unknown"),
                logprobs=None if from_prompt_logprobs else entries,
                prompt_logprobs=entries if from_prompt_logprobs else None,
            )
        )
    return ModelOutput(
        model=reply.get("model") or "",
        choices=made,
        usage=reply_usage(reply),
        response_id=reply.get("id"),
        metadata={LOGLIKELIHOODS: [read.loglikelihood for read in scored]},
    )


def unread_output(reply: dict[str, Any], error: LoglikelihoodError) -> ModelOutput:
    """The model output of a reply that could not be read: no choice, the reason as its
    error (the solver raises it as the sample's error)."""
    return ModelOutput(
        model=reply.get("model") or "",
        choices=[],
        usage=reply_usage(reply) if isinstance(reply.get("usage"), dict) else None,
        response_id=reply.get("id"),
        error=str(error),
    )


def generation_output(reply: dict[str, Any]) -> ModelOutput:
    """The model output of a generation request, as Inspect's completions provider reads
    the reply (its choices' text and finish reasons, its usage)."""
    return ModelOutput(
        model=reply.get("model") or "",
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(content=choice.get("text") or ""),
                stop_reason=STOP_REASONS.get(choice.get("finish_reason"), "unknown"),
            )
            for choice in reply_choices(reply)
        ],
        usage=reply_usage(reply),
        response_id=reply.get("id"),
    )
