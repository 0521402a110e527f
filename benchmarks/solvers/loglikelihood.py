"""Choosing an option by log-likelihood, as lm-evaluation-harness scores a
``multiple_choice`` task through its ``local-completions`` or ``gguf`` client.

Each sample names, under ``metadata["loglikelihood_requests"]``, one
``[context, continuation]`` per option. ``option_loglikelihoods(request)``
scores each, as one of lm-evaluation-harness 0.4.13's clients does:

``token_ids`` (``local-completions``, ``tokenizer_backend=remote``):

- tokens from the model server's ``/tokenize`` (``add_special_tokens`` false):
  the context's trailing whitespace moved into the continuation, the whole and
  the context tokenized separately, the continuation being what the whole has
  past the context (``TemplateLM._encode_pair``, ``lm_eval/api/model.py`` 393-431);
- the tokens, left-truncated to ``MAX_LENGTH`` (its ``max_length`` 2048 less
  one), sent to ``/v1/completions`` with ``echo``, ``logprobs`` 1, ``max_tokens``
  1, temperature 0 and seed 1234 (``api_models.py`` 569-586);
- the option's log-likelihood is the sum of the echoed log-probabilities of the
  continuation's tokens (``token_logprobs[ctxlen:-1]``,
  ``openai_completions.py`` 99-117).

``prompt_logprobs``: the token ids of ``token_ids``, sent with vLLM's
``prompt_logprobs`` 1 instead of ``echo`` and ``logprobs`` (vLLM and SGLang),
the continuation's entries summed; the same sums wherever the server's echoed
log-probabilities are its prompt log-probabilities, as vLLM's are.

``text`` (``gguf``, for llama.cpp-style servers; ``lm_eval/models/gguf.py``):

- context + continuation sent as one string with ``echo``, ``logprobs`` 10,
  ``max_tokens`` 1, temperature 0 (no seed, no tokenizer call);
- the continuation's tokens are the echoed tokens from the first one whose text
  starts at or past the end of the context, the last entry left out
  (``get_result``: ``text_offset`` >= ``len(context)``, ``token_logprobs[idx:-1]``).
  Inspect's completions provider keeps the echoed tokens' text but not the
  server's ``text_offset``, so the offsets are counted back from the end of the
  text the tokens spell (the prompt and the generated text, or, from
  llama-cpp-python, whose echo has no entry for the generated token, the prompt
  alone; lm-evaluation-harness then leaves out the continuation's last token,
  and so does this): the same split wherever the echoed tokens spell the text
  they stand for, as llama.cpp's offsets assume; a reply whose tokens do not is
  a sample error, not a guess.

``benchmarks.scorers.loglikelihood.loglikelihood_choice()`` takes the option with the
highest sum.

Providers: ``vllm-completions/<model>`` and
``openai-api-completions/<service>/<model>`` against a server that echoes the
prompt's log-probabilities (vLLM, SGLang, llama-cpp-python; ``token_ids`` also
needs ``/tokenize``). Any other provider is refused before a request is sent.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.data.records import REQUESTS_KEY
from benchmarks.models.completions_endpoint import tokenize
from benchmarks.models.echo_completions import (
    CHOICES,
    ECHOED_LOGPROBS,
    ECHOED_TOKENS,
    PROMPT_LOGPROBS,
    generate_echo,
)
from benchmarks.models.server_checks import (
    Need,
    check_server,
    require_server,
    sends_one_prompt,
)
from benchmarks.profiles.winogrande import LoglikelihoodRequest
from benchmarks.runtime.registry_names import namespaced

SCORES_KEY = "option_loglikelihoods"
# lm-evaluation-harness's TemplateAPI: max_length 2048, less the one generated token.
MAX_LENGTH = 2047
# The bodies its local-completions and gguf clients send for a log-likelihood request.
ECHO_CONFIG = GenerateConfig(
    max_tokens=1, temperature=0.0, seed=1234, logprobs=True, extra_body={"echo": True}
)
TEXT_ECHO_CONFIG = GenerateConfig(
    max_tokens=1, temperature=0.0, logprobs=True, top_logprobs=10, extra_body={"echo": True}
)
# The same token ids, the log-probabilities read from vLLM's (and SGLang's) prompt_logprobs.
PROMPT_LOGPROBS_CONFIG = GenerateConfig(max_tokens=1, temperature=0.0, seed=1234, prompt_logprobs=1)
# What each request path needs of the server, checked before the first sample.
TEXT_INSTEAD = "-T loglikelihood_request=text (lm-evaluation-harness's gguf client)"
NEEDS: dict[LoglikelihoodRequest, Need] = {
    "token_ids": Need("log-likelihood scoring", ("tokenize", "echo"), TEXT_INSTEAD, False),
    "prompt_logprobs": Need(
        "log-likelihood scoring", ("tokenize", "prompt_logprobs"), TEXT_INSTEAD, False
    ),
    "text": Need("log-likelihood scoring", ("echo",), batched=False),
}


class LoglikelihoodError(ValueError):
    """A reply that holds no usable log-probabilities (a sample error: retryable)."""


@solver(name=namespaced("option_loglikelihoods", __name__))
def option_loglikelihoods(request: LoglikelihoodRequest = "token_ids") -> Solver:
    """Each option's summed continuation log-likelihood, into the sample's metadata.

    Args:
        request: ``token_ids`` (lm-evaluation-harness's ``local-completions``: the
            server's tokenizer, token ids, echo), ``prompt_logprobs`` (the same
            token ids, the log-probabilities read from vLLM's ``prompt_logprobs``
            instead of the echo) or ``text`` (its ``gguf``: one string, split by
            the echoed tokens' offsets).
    """
    need = NEEDS[request]
    require_server(need)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        await check_server(model, need)
        pairs = state.metadata[REQUESTS_KEY]
        state.metadata[SCORES_KEY] = await option_scores(model, request, pairs)
        return state

    return solve


async def option_scores(
    model: Model, request: LoglikelihoodRequest, pairs: list[list[str]]
) -> list[float]:
    """Each ``[context, continuation]``'s log-likelihood: with token ids, every option's
    prompt in one request (a list of prompts, each answered by a choice of its own, as vLLM
    and SGLang take them); as text, one request an option (lm-evaluation-harness's gguf
    client, and llama-cpp-python's server, which takes one prompt a request)."""
    if request == "text":
        return [await text_loglikelihood(model, context, rest) for context, rest in pairs]
    tokens = [await request_tokens(model, context, rest) for context, rest in pairs]
    prompts = [sent for sent, _ in tokens]
    message = ChatMessageUser(content="", metadata={"prompt_token_ids": prompts})
    config = ECHO_CONFIG if request == "token_ids" else PROMPT_LOGPROBS_CONFIG
    output = await send(model, message, config)
    if output.error:
        raise LoglikelihoodError(f"the server answered with an error: {output.error}")
    if len(output.choices) != len(prompts):
        raise LoglikelihoodError(
            f"the reply holds {len(output.choices)} choices for {len(prompts)} prompts; the "
            "server must answer a list of prompts with a choice each (vLLM, SGLang)."
        )
    read = continuation_logprob if request == "token_ids" else prompt_continuation_logprob
    return [
        read(output, len(sent) - context_length, index)
        for index, (sent, context_length) in enumerate(tokens)
    ]


async def request_tokens(model: Model, context: str, continuation: str) -> tuple[list[int], int]:
    """The token ids sent for ``context`` + ``continuation``, and how many are context."""
    spaces = len(context) - len(context.rstrip())
    if spaces:
        context, continuation = context[:-spaces], context[-spaces:] + continuation
    whole = await tokenize(model, context + continuation)
    context_ids = await tokenize(model, context)
    continuation_ids = whole[len(context_ids) :]
    sent = (context_ids + continuation_ids)[-MAX_LENGTH:]
    overflow = max(0, len(context_ids) + len(continuation_ids) - MAX_LENGTH)
    context_length = len(context_ids) - overflow
    return sent, context_length


def prompt_continuation_logprob(output: ModelOutput, wanted: int, index: int = 0) -> float:
    """The sum of the last ``wanted`` prompt log-probabilities of choice ``index`` (vLLM's
    ``prompt_logprobs``, for the same token ids ``continuation_logprob`` reads the echo of)."""
    entries = prompt_logprobs(output, index)
    if len(entries) < wanted:
        raise LoglikelihoodError(
            f"the reply holds {len(entries)} prompt log-probabilities, fewer than the "
            f"{wanted} continuation tokens; the server must return prompt_logprobs (vLLM, "
            "SGLang)."
        )
    return sum(entries[len(entries) - wanted :])


async def send(model: Model, message: ChatMessage, config: GenerateConfig) -> ModelOutput:
    """A served model's reply read as plain JSON (models/echo_completions.py); the offline
    models' (benchmarks/oracle, random) as they give it."""
    if sends_one_prompt(str(model)):
        return await generate_echo(model, message, config)
    return await model.generate([message], config=config)


def choice_read(output: ModelOutput, index: int) -> dict[str, Any] | None:
    """What echo_completions read of choice ``index`` of a served model's reply."""
    if output.metadata is None:
        return None
    return output.metadata[CHOICES][index] if CHOICES in output.metadata else output.metadata


def echoed_logprobs(output: ModelOutput, index: int = 0) -> tuple[list[str], list[float]]:
    """The echoed tokens and their log-probabilities (those that have one) of choice
    ``index``."""
    read = choice_read(output, index)
    if read is not None and ECHOED_LOGPROBS in read:
        return read.get(ECHOED_TOKENS, []), read[ECHOED_LOGPROBS]
    logprobs = output.choices[index].logprobs if output.choices else None
    entries = logprobs.content if logprobs is not None else []
    return [entry.token for entry in entries], [entry.logprob for entry in entries]


def prompt_logprobs(output: ModelOutput, index: int = 0) -> list[float]:
    """The prompt's log-probabilities of choice ``index`` (vLLM's ``prompt_logprobs``; the
    first token has none)."""
    read = choice_read(output, index)
    if read is not None and PROMPT_LOGPROBS in read:
        return list(read[PROMPT_LOGPROBS])
    logprobs = output.choices[index].prompt_logprobs if output.choices else None
    return [entry.logprob for entry in logprobs.content] if logprobs is not None else []


def continuation_logprob(output: ModelOutput, continuation_tokens: int, index: int = 0) -> float:
    """The sum of the continuation's echoed log-probabilities in choice ``index`` (counted
    from the end: the prompt's first token has none, and the last entries are the
    generated tokens, the reply's generated tokens shared evenly by its choices)."""
    if output.error:
        raise LoglikelihoodError(f"the server answered with an error: {output.error}")
    _, entries = echoed_logprobs(output, index)
    choices = max(1, len(output.choices))
    generated = output.usage.output_tokens // choices if output.usage is not None else 1
    if len(entries) < continuation_tokens + generated:
        raise LoglikelihoodError(
            f"the reply holds {len(entries)} log-probabilities, fewer than the "
            f"{continuation_tokens} continuation tokens and {generated} generated; the server "
            "must echo the prompt's log-probabilities (echo: true, logprobs: 1)."
        )
    scored = entries[len(entries) - generated - continuation_tokens : len(entries) - generated]
    return sum(scored)


async def text_loglikelihood(model: Model, context: str, continuation: str) -> float:
    """The summed log-probability of ``continuation`` after ``context``, both sent as one
    string (lm-evaluation-harness's gguf)."""
    prompt = context + continuation
    output = await send(model, ChatMessageUser(content=prompt), TEXT_ECHO_CONFIG)
    return text_continuation_logprob(output, prompt, len(context))


def text_continuation_logprob(output: ModelOutput, prompt: str, context_length: int) -> float:
    """The sum of the echoed log-probabilities of the tokens whose text starts at or past
    ``context_length``, the last entry (the generated token) left out."""
    if output.error:
        raise LoglikelihoodError(f"the server answered with an error: {output.error}")
    echoed = output.completion
    if not echoed.startswith(prompt):
        raise LoglikelihoodError(
            "the reply does not begin with the prompt; the server must echo it (echo: true)."
        )
    tokens, logprobs = echoed_logprobs(output)
    # The entries spell the echoed text up to its end (vLLM: the generated token too) or up
    # to the end of the prompt (llama-cpp-python has no entry for the generated token).
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
    return sum(logprobs[first:-1])
