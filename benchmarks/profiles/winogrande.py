"""Winogrande's reference profiles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from inspect_ai.model import GenerateConfig

from benchmarks.profiles import Profile
from benchmarks.scorers.loglikelihood import LoglikelihoodRequest

AnswerParse = Literal[
    "answer_marker",
    "evalscope",
    "evalscope_1.14.1",
    "evalscope_1.14.0",
    "evalscope_1.13.0",
    "evalscope_1.12.0",
    "evalscope_1.11.1",
    "evalscope_1.11.0",
    "inspect_choice",
]
ProfileName = Literal[
    "default",
    "evalscope_1.14.1",
    "inspect_evals_0.28.0",
    "lm_eval_0.4.13",
    "lm_eval_0.4.13_gguf",
]
Scoring = Literal["generate", "loglikelihood"]
# evalscope: one user message, demonstrations before the question (evalscope's layout);
# inspect_evals: its system message holding the demonstrations, then Inspect's
# multiple_choice() user message in its template (benchmarks/solvers/winogrande_inspect_evals.py).
PromptFormat = Literal["evalscope", "inspect_evals"]
# per_question: this project's seeded draw per question (SeededDraws); hf_shuffle: the first
# `shots` rows of the train split shuffled as Hugging Face datasets shuffles it, the same for
# every question (ShuffledHeadDraws, inspect_evals' draw).
FewshotDraw = Literal["per_question", "hf_shuffle"]


@dataclass(frozen=True)
class WinograndeProfile(Profile):
    """Winogrande's switches: demonstrations, their draw, and how a reply is read."""

    shots: int = 0
    fewshot_seed: int = 1234
    answer_parse: AnswerParse = "answer_marker"
    scoring: Scoring = "generate"
    loglikelihood_request: LoglikelihoodRequest = "token_ids"
    prompt_format: PromptFormat = "evalscope"
    fewshot_draw: FewshotDraw = "per_question"


# evalscope's generation default for API models; greedy decoding for local checkpoints.
TEMPERATURE_0 = GenerateConfig(temperature=0.0)

PROFILES: dict[str, WinograndeProfile] = {
    "default": WinograndeProfile(
        name="default",
        reference="this project's: evalscope 1.14.1's prompt and settings, 0-shot, the letter "
        "of the last `ANSWER: X`",
        proof=None,
        generate=TEMPERATURE_0,
    ),
    "evalscope_1.14.1": WinograndeProfile(
        name="evalscope_1.14.1",
        reference="evalscope 1.14.1 `winogrande` against an API model "
        "(TaskConfig(eval_type='openai_api')): 0-shot, its prompt, its reply parse",
        proof="tests/peers/test_evalscope_winogrande.py",
        generate=TEMPERATURE_0,
        answer_parse="evalscope",
    ),
    "inspect_evals_0.28.0": WinograndeProfile(
        name="inspect_evals_0.28.0",
        reference="inspect_evals 0.28.0 `winogrande` (inspect_evals/winogrande/winogrande.py): "
        "5 demonstrations from the train split (Hugging Face shuffle, seed 42, the same for "
        "every question) in a system message, Inspect's multiple_choice() user message in its "
        "template, the reply read by Inspect's choice() rule, max_tokens 64",
        proof="tests/peers/test_inspect_evals_winogrande.py",
        # its Task's GenerateConfig(max_tokens=64), nothing else (no temperature)
        generate=GenerateConfig(max_tokens=64),
        shots=5,
        fewshot_seed=42,
        answer_parse="inspect_choice",
        prompt_format="inspect_evals",
        fewshot_draw="hf_shuffle",
    ),
    "lm_eval_0.4.13": WinograndeProfile(
        name="lm_eval_0.4.13",
        reference="lm-evaluation-harness 0.4.13 `winogrande` against a base model over the "
        "completions endpoint (local-completions, tokenizer_backend=remote): each option "
        "scored by the log-likelihood of the rest of the sentence; 0-shot (its default), "
        "-T shots=5 for the Open LLM Leaderboard's setting",
        proof="tests/peers/test_lm_eval_winogrande.py",
        # each request's body is the log-likelihood one (benchmarks/scorers/loglikelihood.py)
        generate=GenerateConfig(),
        scoring="loglikelihood",
    ),
    "lm_eval_0.4.13_gguf": WinograndeProfile(
        name="lm_eval_0.4.13_gguf",
        reference="lm-evaluation-harness 0.4.13 `winogrande` through its `gguf` client "
        "(llama.cpp-style servers: context and continuation sent as one string, split by "
        "the echoed tokens' offsets); 0-shot, -T shots=5 for the Open LLM Leaderboard's "
        "setting",
        proof="tests/peers/test_lm_eval_winogrande.py",
        generate=GenerateConfig(),
        scoring="loglikelihood",
        loglikelihood_request="text",
    ),
}
