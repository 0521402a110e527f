"""Choosing an option by log-likelihood, as lm-evaluation-harness's ``local-completions``
scores a ``multiple_choice`` task.

Each sample names, under ``metadata["loglikelihood_requests"]``, one
``[context, continuation]`` per option. ``option_loglikelihoods()`` scores each:

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

``loglikelihood_choice()`` takes the option with the highest sum (the first on
a tie, as ``np.argmax``) and scores it against the target letter.

Providers: ``vllm-completions/<model>`` and
``openai-api-completions/<service>/<model>`` against a server with
``/tokenize`` and echoed log-probabilities (vLLM, SGLang). Any other provider is
refused before a request is sent.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessageUser, GenerateConfig, Model, ModelOutput, get_model
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.mcq_prompt import option_letters
from benchmarks.registry_names import namespaced

REQUESTS_KEY = "loglikelihood_requests"
SCORES_KEY = "option_loglikelihoods"
# lm-evaluation-harness's TemplateAPI: max_length 2048, less the one generated token.
MAX_LENGTH = 2047
# The body its local-completions sends for a log-likelihood request.
ECHO_CONFIG = GenerateConfig(
    max_tokens=1, temperature=0.0, seed=1234, logprobs=True, extra_body={"echo": True}
)
SUPPORTED = "vllm-completions/<model> or openai-api-completions/<service>/<model>"
COMPLETIONS_APIS = frozenset({"OpenAICompatibleCompletionsAPI", "VLLMCompletionsAPI"})


class LoglikelihoodError(ValueError):
    """A reply that holds no usable log-probabilities (a sample error: retryable)."""


@solver(name=namespaced("option_loglikelihoods", __name__))
def option_loglikelihoods() -> Solver:
    """Each option's summed continuation log-likelihood, into the sample's metadata."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        check_provider(model)
        pairs = state.metadata[REQUESTS_KEY]
        scores = [await loglikelihood(model, context, rest) for context, rest in pairs]
        state.metadata[SCORES_KEY] = scores
        return state

    return solve


def check_provider(model: Model) -> None:
    """Refuse, before any request, a model that cannot echo prompt log-probabilities."""
    offline = getattr(model.api, "echoes_prompt_logprobs", False)  # benchmarks/oracle, random
    if type(model.api).__name__ not in COMPLETIONS_APIS and not offline:
        raise ValueError(
            f"log-likelihood scoring needs a model served through the completions endpoint "
            f"with /tokenize and echoed log-probabilities; {model} is not: use {SUPPORTED}."
        )


async def tokenize(model: Model, text: str) -> list[int]:
    """``text``'s token ids from the model server (no special tokens added)."""
    api: Any = model.api
    if type(api).__name__ != "OpenAICompatibleCompletionsAPI":  # vLLM's, the offline models'
        return list(await api.tokenize(text))
    root = str(api.base_url).rstrip("/").removesuffix("/v1")
    headers = {"Authorization": f"Bearer {api.api_key}"} if api.api_key else {}
    response = await api.http_client.post(
        f"{root}/tokenize",
        json={"prompt": text, "add_special_tokens": False},
        headers=headers,
        timeout=60.0,
    )
    response.raise_for_status()
    tokens = response.json().get("tokens")
    if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
        raise LoglikelihoodError(f"{root}/tokenize gave no token ids: {response.text[:200]}")
    return tokens


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


async def loglikelihood(model: Model, context: str, continuation: str) -> float:
    """The summed log-probability of ``continuation`` after ``context``."""
    sent, context_length = await request_tokens(model, context, continuation)
    message = ChatMessageUser(content="", metadata={"prompt_token_ids": sent})
    output = await model.generate([message], config=ECHO_CONFIG)
    return continuation_logprob(output, len(sent) - context_length)


def continuation_logprob(output: ModelOutput, continuation_tokens: int) -> float:
    """The sum of the continuation's echoed log-probabilities (counted from the end: the
    prompt's first token has none, and the last entries are the generated tokens)."""
    if output.error:
        raise LoglikelihoodError(f"the server answered with an error: {output.error}")
    logprobs = output.choices[0].logprobs if output.choices else None
    entries = logprobs.content if logprobs is not None else []
    generated = output.usage.output_tokens if output.usage is not None else 1
    if len(entries) < continuation_tokens + generated:
        raise LoglikelihoodError(
            f"the reply holds {len(entries)} log-probabilities, fewer than the "
            f"{continuation_tokens} continuation tokens and {generated} generated; the server "
            "must echo the prompt's log-probabilities (echo: true, logprobs: 1)."
        )
    scored = entries[len(entries) - generated - continuation_tokens : len(entries) - generated]
    return sum(entry.logprob for entry in scored)


@scorer(metrics=[accuracy(), stderr()], name=namespaced("loglikelihood_choice", __name__))
def loglikelihood_choice() -> Scorer:
    """The option with the highest log-likelihood (the first on a tie) against the target."""

    async def score(state: TaskState, target: Target) -> Score:
        scores: list[float] = state.metadata[SCORES_KEY]
        letters = option_letters(len(scores))
        chosen = max(range(len(scores)), key=lambda index: (scores[index], -index))
        listed = ", ".join(
            f"{letter} {value:.4f}" for letter, value in zip(letters, scores, strict=True)
        )
        return Score(
            value=CORRECT if letters[chosen] == target.text else INCORRECT,
            answer=letters[chosen],
            explanation=f"log-likelihoods {listed}: chose {letters[chosen]}, target {target.text}",
            metadata={"loglikelihoods": scores},
        )

    return score
