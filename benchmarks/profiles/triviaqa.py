"""TriviaQA's reference profiles."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from inspect_ai.model import GenerateConfig

from benchmarks.profiles import Profile, switch

# How a reply's short answer is cut (extract_short_answer of scorers/answer_matching.py).
AnswerExtraction = Literal["stop_sequences", "first_line", "lm_eval"]
# The metric triviaqa_scorer (scorers/triviaqa.py) reports first.
TriviaQAMetric = Literal["normalized_alias_exact_match", "alias_exact_match", "lm_eval_exact_match"]
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
PromptFormat = Literal["canonical", "lm_eval"]
CompletionsPrompt = Literal["text", "token_ids"]


@dataclass(frozen=True)
class TriviaQAProfile(Profile):
    """TriviaQA's switches: the data, the demonstrations and their layout, the answer rule."""

    dataset_config: Config = switch(
        "rc.wikipedia.nocontext",
        "Hub config; ``rc.wikipedia.nocontext`` is the closed-book Wikipedia subset, "
        "``rc.nocontext`` lm-evaluation-harness's.",
    )
    shots: int = switch(5, "Demonstrations per question (0 loads no few-shot split).")
    fewshot_seed: int = switch(1234, "Seed of the demonstration draws.")
    prompt_format: PromptFormat = switch(
        "canonical",
        "``canonical`` (``Question: ...\\nAnswer:``, demonstrations answered with the "
        "canonical answer ``answer.value``, ``rng.sample(train, shots)`` per question) or "
        "``lm_eval`` "
        "(lm-evaluation-harness 0.4.13: ``?`` appended to questions, demonstrations answered "
        "with the first alias, drawn ``shots + 1`` at a time with the evaluated question "
        "removed).",
    )
    fewshot_as_multiturn: bool = switch(
        False,
        "Demonstrations as user/assistant turns ending with the question "
        "(lm-evaluation-harness's default for chat models) instead of one user message.",
    )
    answer_extraction: AnswerExtraction = switch(
        "stop_sequences",
        "``stop_sequences`` cuts the stripped reply at the first newline, period or comma "
        "(the reference); ``first_line`` keeps the whole first line (``U.S.``, ``1,000``, "
        "``St. Louis`` stay whole); ``lm_eval`` cuts the raw reply, then strips it "
        "(lm-evaluation-harness 0.4.13). The cut's stop sequences (``\\n`` alone for "
        "``first_line``) are also sent to the server, with the profile's ``max_tokens`` "
        "(256; ``--max-tokens`` overrides).",
    )
    metric: TriviaQAMetric = switch(
        "normalized_alias_exact_match",
        "``normalized_alias_exact_match`` (official normalization, against "
        "``answer.normalized_aliases``), ``alias_exact_match`` (case-sensitive, against the "
        "raw ``answer.aliases``) or ``lm_eval_exact_match`` (lm-evaluation-harness 0.4.13: "
        "lowercase as numpy does, punctuation deleted, against ``answer.aliases``).",
    )
    completions_prompt: CompletionsPrompt = switch(
        "text",
        "``text`` (the prompt as it is) or ``token_ids`` (the server's ``/tokenize`` ids, no "
        "special tokens, left-truncated to 2,048 less ``max_tokens``, as "
        "lm-evaluation-harness's ``local-completions`` sends them with a tokenizer; a "
        "completions-endpoint model).",
    )
    stop_at_eos: bool = switch(
        False,
        "With ``token_ids``, add the tokenizer's end-of-text string (``/tokenizer_info``) to "
        "the stop sequences, as lm-evaluation-harness does with ``num_concurrent=1`` (its "
        "default) and not with more.",
    )


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
        reference="this project's: the TriviaQA paper's metrics (official normalization and "
        "F1) on the Wikipedia validation set, 5-shot, with lm-evaluation-harness's stop "
        "sequences",
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
