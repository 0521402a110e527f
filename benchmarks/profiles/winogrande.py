"""Winogrande's reference profiles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from inspect_ai.model import GenerateConfig

from benchmarks.profiles import Profile, switch

AnswerParse = Literal[
    "answer_marker",
    "evalscope",
    "evalscope_1.14.0",
    "evalscope_1.13.0",
    "evalscope_1.12.0",
    "evalscope_1.11.1",
    "evalscope_1.11.0",
    "inspect_choice",
]
Scoring = Literal["generate", "loglikelihood"]
# How scoring=loglikelihood requests each option (benchmarks/scorers/loglikelihood.py).
LoglikelihoodRequest = Literal["token_ids", "prompt_logprobs", "text"]
# inspect_evals: benchmarks/solvers/winogrande_inspect_evals.py.
PromptFormat = Literal["evalscope", "inspect_evals"]
# per_question: SeededDraws; hf_shuffle: ShuffledHeadDraws (inspect_evals' draw).
FewshotDraw = Literal["per_question", "hf_shuffle"]


@dataclass(frozen=True)
class WinograndeProfile(Profile):
    """Winogrande's switches: demonstrations, their draw, and how a reply is read."""

    shots: int = switch(
        0,
        "Demonstrations before each question, drawn from the ``train`` split of "
        "``dataset_config`` (0, the reference, loads no train split).",
    )
    fewshot_seed: int = switch(1234, "Seed of the demonstration draws.")
    answer_parse: AnswerParse = switch(
        "answer_marker",
        "``answer_marker`` reads the last ``ANSWER: X`` only (a reply without one is a "
        "parse failure); ``evalscope`` is evalscope 1.14.1's rule (case-sensitive letter, "
        "``A/B`` or ``A and B`` is no answer, ``$\\boxed{B}$`` is B, falling back to the last "
        "capital letter of the reply); ``evalscope_<release>`` is the rule of an earlier "
        "release (1.11.0, 1.11.1, 1.12.0, 1.13.0 or 1.14.0); ``inspect_choice`` is Inspect's "
        "``multiple_choice()``/``choice()`` reading (the last ``ANSWER: X``, one letter, any "
        "case).",
    )
    scoring: Scoring = switch(
        "generate",
        "``generate`` (a reply, its letter read) or ``loglikelihood`` (each option scored "
        "by the log-likelihood of the rest of the sentence, lm-evaluation-harness's rule; "
        "needs a completions-endpoint model: ``vllm-completions/<model>`` or "
        "``openai-api-completions/<service>/<model>``, or the offline models).",
    )
    loglikelihood_request: LoglikelihoodRequest = switch(
        "token_ids",
        "With ``scoring=loglikelihood``, how each option is requested: ``token_ids`` "
        "(lm-evaluation-harness's ``local-completions``: the server's ``/tokenize``, token "
        "ids, echoed log-probabilities), ``prompt_logprobs`` (the same token ids, the "
        "log-probabilities read from vLLM's or SGLang's ``prompt_logprobs`` instead of the "
        "echo) or ``text`` (its ``gguf`` client: context and continuation as one string, "
        "split where the continuation's text begins; llama.cpp-style servers, no "
        "``/tokenize`` needed).",
    )
    prompt_format: PromptFormat = switch(
        "evalscope",
        "``evalscope`` (one user message, demonstrations before the question) or "
        "``inspect_evals`` (inspect_evals 0.28.0's: the demonstrations in a system message, "
        "the question as ``Sentence:`` with ``[BLANK]`` in Inspect's ``multiple_choice()`` "
        "template).",
    )
    fewshot_draw: FewshotDraw = switch(
        "per_question",
        "``per_question`` (each question its own seeded draw, "
        "``random.Random(fewshot_seed)``) or ``hf_shuffle`` (the same demonstrations for "
        "every question: the first ``shots`` rows of the train split after Hugging Face "
        "``datasets``' ``Dataset.shuffle(seed=fewshot_seed)``).",
    )


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
        # each request's body is the log-likelihood one (benchmarks/solvers/loglikelihood.py)
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
