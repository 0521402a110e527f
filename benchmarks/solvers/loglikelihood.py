"""Choosing an option by log-likelihood, as lm-evaluation-harness 0.4.13 scores a
``multiple_choice`` task through its ``local-completions`` or ``gguf`` client.

Each sample names, under ``metadata["loglikelihood_requests"]``, one ``[context,
continuation]`` per option; ``option_loglikelihoods(request)`` sums each continuation's
log-probabilities as the server echoes them (the requests: models/completions_requests.py,
their reading: models/echo_completions.py), each request one ``Model.generate`` call of the
served model's provider (models/completions_client.py), and
``benchmarks.scorers.loglikelihood.loglikelihood_choice()`` takes the highest sum.
docs/winogrande.md says what each request path sends and which servers answer it.
"""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.data.records import REQUESTS_KEY
from benchmarks.models.completions_client import client_model
from benchmarks.models.completions_requests import loglikelihood_messages
from benchmarks.models.echo_completions import LOGLIKELIHOODS, LoglikelihoodError
from benchmarks.models.server_checks import Need, check_server, require_server
from benchmarks.profiles.winogrande import LoglikelihoodRequest
from benchmarks.runtime.inspect_private import active_generate_config
from benchmarks.runtime.registry_names import namespaced

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
