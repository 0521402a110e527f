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
  The server's ``text_offset`` is not read (Inspect's completions provider does
  not keep it), so the offsets are counted back from the end of the
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

Each request is one ``Model.generate`` call of the served model's provider
(models/completions_client.py), asked as one user message
(models/completions_requests.py): the tokenizer's calls, the body and the reply's reading
run within it, so its model event holds the request as sent, once, and of the reply only
what was scored: per option, the continuation's tokens and log-probabilities and their
sum (``INSPECT_BENCHMARKS_WHOLE_REPLIES=1`` keeps the server's whole reply).
"""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.data.records import REQUESTS_KEY
from benchmarks.models.completions_client import client_model
from benchmarks.models.completions_requests import MAX_LENGTH, loglikelihood_messages
from benchmarks.models.echo_completions import LOGLIKELIHOODS, LoglikelihoodError
from benchmarks.models.server_checks import Need, check_server, require_server
from benchmarks.profiles.winogrande import LoglikelihoodRequest
from benchmarks.runtime.inspect_private import active_generate_config
from benchmarks.runtime.registry_names import namespaced

__all__ = ["MAX_LENGTH", "LoglikelihoodError", "option_loglikelihoods"]

SCORES_KEY = "option_loglikelihoods"
# The bodies its local-completions and gguf clients send for a log-likelihood request.
ECHO_CONFIG = GenerateConfig(
    max_tokens=1, temperature=0.0, seed=1234, logprobs=True, extra_body={"echo": True}
)
TEXT_ECHO_CONFIG = GenerateConfig(
    max_tokens=1, temperature=0.0, logprobs=True, top_logprobs=10, extra_body={"echo": True}
)
# The same token ids, the log-probabilities read from vLLM's (and SGLang's) prompt_logprobs.
PROMPT_LOGPROBS_CONFIG = GenerateConfig(max_tokens=1, temperature=0.0, seed=1234, prompt_logprobs=1)
CONFIGS: dict[LoglikelihoodRequest, GenerateConfig] = {
    "token_ids": ECHO_CONFIG,
    "prompt_logprobs": PROMPT_LOGPROBS_CONFIG,
    "text": TEXT_ECHO_CONFIG,
}
# What each request path needs of the server, checked before the first sample.
TEXT_INSTEAD = "-T loglikelihood_request=text (lm-evaluation-harness's gguf client)"
NEEDS: dict[LoglikelihoodRequest, Need] = {
    "token_ids": Need("log-likelihood scoring", ("tokenize", "echo"), TEXT_INSTEAD, False),
    "prompt_logprobs": Need(
        "log-likelihood scoring", ("tokenize", "prompt_logprobs"), TEXT_INSTEAD, False
    ),
    "text": Need("log-likelihood scoring", ("echo",), batched=False),
}


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
    # the run's settings (--attempt-timeout, --max-retries, ...) merged in, as the run's
    # own model would have them
    config = active_generate_config().merge(CONFIGS[request])
    scores: list[float] = []
    for message in loglikelihood_messages(request, pairs):
        output = await client_model(model).generate([message], config=config)
        if output.error:
            raise LoglikelihoodError(output.error)
        scores += (output.metadata or {})[LOGLIKELIHOODS]
    return scores
