"""SimpleQA's and SimpleQA Verified's reference profiles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from inspect_ai.model import GenerateConfig

from benchmarks.profiles import Profile

SimpleQAGradeParse = Literal["strict", "official"]
VerifiedGradeParse = Literal["strict", "official", "verified_starter"]
Draw = Literal["first", "random0"]
ProfileName = Literal["paper", "simple_evals_ee3b031"]
VerifiedProfileName = Literal["default", "kaggle_starter"]

# OPENAI_SYSTEM_MESSAGE_API, sampler/chat_completion_sampler.py:9 of simple-evals.
SIMPLE_EVALS_SYSTEM_MESSAGE = "You are a helpful assistant."
# simple-evals samples the candidate with ChatCompletionSampler(max_tokens=2048),
# whose temperature defaults to 0.5 (sampler/chat_completion_sampler.py:25).
CANDIDATE = GenerateConfig(temperature=0.5, max_tokens=2048)


@dataclass(frozen=True)
class SimpleQAProfile(Profile):
    """SimpleQA's switches: the system messages, the judge's settings and parse, and which
    rows ``num_examples`` takes (``first``, or simple-evals' ``random.Random(0).sample``)."""

    system_message: str | None = None
    grader_system_message: str | None = None
    grader_temperature: float | None = 0.5
    grader_max_tokens: int | None = 1024
    grade_parse: SimpleQAGradeParse = "strict"
    draw: Draw = "first"


@dataclass(frozen=True)
class SimpleQAVerifiedProfile(Profile):
    """SimpleQA Verified's switches: the parse of the judge's reply."""

    grade_parse: VerifiedGradeParse = "strict"


SIMPLEQA_PROFILES: dict[str, SimpleQAProfile] = {
    # simple-evals' grading_sampler of the SimpleQA release:
    # ChatCompletionSampler(model="gpt-4o") with its defaults (0.5, 1024, no system message).
    "paper": SimpleQAProfile(
        name="paper",
        reference="the SimpleQA paper's setting: the judge as simple-evals' gpt-4o "
        "grading_sampler ran until May 2025, no system message (not verified against a commit)",
        proof=None,
        generate=CANDIDATE,
    ),
    # ee3b031: grading_sampler = ChatCompletionSampler(model="gpt-4.1-2025-04-14",
    # system_message=OPENAI_SYSTEM_MESSAGE_API, max_tokens=2048), candidates built the same
    # way, and SimpleQAEval(num_examples=N) draws random.Random(0).sample(examples, N)
    # (simpleqa_eval.py:105-108).
    "simple_evals_ee3b031": SimpleQAProfile(
        name="simple_evals_ee3b031",
        reference="openai/simple-evals `simpleqa` at commit ee3b031, request for request "
        "(bind its judge, gpt-4.1-2025-04-14, to the grader role)",
        proof="tests/peers/test_simple_evals_simpleqa.py",
        generate=CANDIDATE,
        system_message=SIMPLE_EVALS_SYSTEM_MESSAGE,
        grader_system_message=SIMPLE_EVALS_SYSTEM_MESSAGE,
        grader_max_tokens=2048,
        grade_parse="official",
        draw="random0",
    ),
}

VERIFIED_PROFILES: dict[str, SimpleQAVerifiedProfile] = {
    "default": SimpleQAVerifiedProfile(
        name="default",
        reference="the starter code's request (the simple-evals template, no judge settings) "
        "with a strict parse of the judge's reply",
        proof=None,
    ),
    "kaggle_starter": SimpleQAVerifiedProfile(
        name="kaggle_starter",
        reference="DeepMind's Kaggle notebook 'SimpleQA Verified Benchmark Starter Code': "
        "its judge request and reply parse (restated, not run here)",
        proof=None,
        grade_parse="verified_starter",
    ),
}
