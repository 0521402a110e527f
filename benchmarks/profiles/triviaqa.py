"""TriviaQA's reference profiles."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from inspect_ai.model import GenerateConfig

from benchmarks.profiles import Profile
from benchmarks.scorers.answer_matching import AnswerExtraction
from benchmarks.scorers.triviaqa import TriviaQAMetric

Config = Literal[
    "rc.wikipedia.nocontext",
    "rc.wikipedia",
    "rc.web.nocontext",
    "rc.web",
    "rc.nocontext",
    "rc",
    "unfiltered.nocontext",
    "unfiltered",
]
PromptFormat = Literal["default", "lm_eval"]
CompletionsPrompt = Literal["text", "token_ids"]
ProfileName = Literal[
    "default",
    "lm_eval_0.4.13",
    "lm_eval_0.4.13_completions",
    "lm_eval_0.4.13_completions_token_ids",
]


@dataclass(frozen=True)
class TriviaQAProfile(Profile):
    """TriviaQA's switches: the data, the demonstrations and their layout, the answer rule."""

    dataset_config: Config = "rc.wikipedia.nocontext"
    shots: int = 5
    fewshot_seed: int = 1234
    prompt_format: PromptFormat = "default"
    fewshot_as_multiturn: bool = False
    answer_extraction: AnswerExtraction = "stop_sequences"
    metric: TriviaQAMetric = "normalized_alias_exact_match"
    completions_prompt: CompletionsPrompt = "text"
    stop_at_eos: bool = False


# lm-evaluation-harness's default max_gen_toks. The longest alias in 3,000 real
# questions is 62 bytes, and a byte-level tokenizer spends at most one token a
# byte, so the limit cannot cut a real answer; it bounds a reply that runs on.
MAX_TOKENS = 256

LM_EVAL_CHAT = TriviaQAProfile(
    name="lm_eval_0.4.13",
    reference="lm-evaluation-harness 0.4.13 `triviaqa` against a chat model "
    "(local-chat-completions, --num_fewshot 5 --apply_chat_template)",
    proof="tests/peers/test_lm_eval_triviaqa.py",
    # the body its local-chat-completions sends: max_gen_toks 256, seed 1234
    generate=GenerateConfig(temperature=0.0, max_tokens=MAX_TOKENS, seed=1234),
    dataset_config="rc.nocontext",
    prompt_format="lm_eval",
    fewshot_as_multiturn=True,
    answer_extraction="lm_eval",
    metric="lm_eval_exact_match",
)
# the body its local-completions sends is the same: max_gen_toks 256, seed 1234 (and, with
# no tokenizer, no end-of-text string among the stops)
LM_EVAL_COMPLETIONS = replace(
    LM_EVAL_CHAT,
    name="lm_eval_0.4.13_completions",
    reference="lm-evaluation-harness 0.4.13 `triviaqa` against a base model over the "
    "completions endpoint (local-completions with string prompts: tokenizer_backend=none "
    "or tokenized_requests=False, --num_fewshot 5, no chat template)",
    fewshot_as_multiturn=False,
)

PROFILES: dict[str, TriviaQAProfile] = {
    "default": TriviaQAProfile(
        name="default",
        reference="the TriviaQA paper's metrics (official normalization and F1) on the "
        "Wikipedia validation set, 5-shot, with lm-evaluation-harness's stop sequences",
        proof=None,
        generate=GenerateConfig(max_tokens=MAX_TOKENS),
    ),
    "lm_eval_0.4.13": LM_EVAL_CHAT,
    "lm_eval_0.4.13_completions": LM_EVAL_COMPLETIONS,
    "lm_eval_0.4.13_completions_token_ids": replace(
        LM_EVAL_COMPLETIONS,
        name="lm_eval_0.4.13_completions_token_ids",
        reference="lm-evaluation-harness 0.4.13 `triviaqa` against a base model over the "
        "completions endpoint with the server's tokenizer (local-completions, "
        "tokenizer_backend=remote, its choice against a server with /tokenizer_info such as "
        "vLLM; num_concurrent=1, its default; --num_fewshot 5, no chat template)",
        completions_prompt="token_ids",
        # its synchronous client (num_concurrent=1) adds the tokenizer's end-of-text string
        stop_at_eos=True,
    ),
}
