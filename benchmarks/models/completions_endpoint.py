"""Generation from the prompt sent as the server's token ids, as lm-evaluation-harness
0.4.13's ``local-completions`` sends it with ``tokenizer_backend=remote``
(docs/triviaqa.md: the token ids, the truncation, the end-of-text stop). The request is
one model call (models/completions_requests.py): the text, tokenized within it, and the
body with the token ids in its model event.
"""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.models.completions_client import client_model
from benchmarks.models.completions_requests import token_ids_message
from benchmarks.models.server_checks import Need, check_server, require_server
from benchmarks.runtime.inspect_private import active_generate_config
from benchmarks.runtime.registry_names import namespaced

# lm-evaluation-harness's TemplateAPI max_length and max_gen_toks.
CONTEXT_LENGTH = 2048
DEFAULT_MAX_TOKENS = 256


# What the token-ids profile needs of the server (checked before the first sample).
TOKEN_IDS_NEED = Need(
    "a prompt sent as the server's token ids", ("tokenize",), "-T completions_prompt=text"
)
EOS_NEED = Need("the end-of-text stop sequence (-T stop_at_eos=true)", ("tokenizer_info",))


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
        # the run's settings (the task's, with --max-tokens and the like merged in), its
        # stop sequences given (the end-of-text string is added to them)
        config = active_generate_config()
        max_tokens = config.max_tokens or DEFAULT_MAX_TOKENS
        message = token_ids_message(
            state.user_prompt.text, CONTEXT_LENGTH - max_tokens, stop_at_eos=stop_at_eos
        )
        # the text stays for the log viewer; the request sends its token ids
        state.messages = [message]
        stops = GenerateConfig(stop_seqs=list(config.stop_seqs or []))
        state.output = await client_model(model).generate([message], config=config.merge(stops))
        state.messages.append(state.output.message)
        return state

    return solve
