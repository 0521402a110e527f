"""SimpleQA Verified's reference profiles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from inspect_ai.model import GenerateConfig

from benchmarks.profiles import Profile, switch

# The judge prompts grader_prompt names (VERIFIED_GRADER_PROMPTS of scorers/judge_prompt.py).
VerifiedGraderPrompt = Literal["simple_evals", "paper", "inspect_evals"]
VerifiedGradeParse = Literal["strict", "official", "verified_starter", "inspect_evals_strict"]


@dataclass(frozen=True)
class SimpleQAVerifiedProfile(Profile):
    """SimpleQA Verified's switches: the judge's prompt, settings and parse (None: the
    grader's own setting, as the starter code sends none)."""

    grader_prompt: VerifiedGraderPrompt = switch(
        "simple_evals",
        "``simple_evals``: the simple-evals grader template, as the Kaggle starter code sends "
        "it; ``paper``: the paper's revised autorater prompt (arXiv 2509.07968, Appendix A), "
        "in the layout of the template it revises; ``inspect_evals``: inspect_evals 0.28.0's "
        "transcription of it (same words, another layout).",
    )
    grader_temperature: float | None = switch(
        None,
        "Judge temperature (None, ``null`` on the command line: the grader's own, as the "
        "starter code sets none).",
    )
    grader_max_tokens: int | None = switch(
        None, "Judge output token limit (None, ``null`` on the command line: the grader's own)."
    )
    grade_parse: VerifiedGradeParse = switch(
        "strict",
        "``strict``: the judge's reply must be a bare ``A``, ``B`` or ``C`` (one markdown "
        "emphasis and a trailing ``.``/``!`` tolerated), anything else is a counted judge "
        "failure; ``verified_starter``: the starter code's parse (first ``A|B|C``, then "
        "``CORRECT`` / ``INCORRECT`` / ``NOT_ATTEMPTED`` in the upper-cased reply, in that "
        'order, so "incorrect" reads as A; else C); ``official``: simple-evals\' (first '
        "``A|B|C``, else C; inspect_evals' ``paper``); ``inspect_evals_strict``: "
        "inspect_evals' ``strict`` (first standalone ``A``, ``B`` or ``C``, else C). A judge "
        "output that is not a reply is a judge failure under each.",
    )


VERIFIED_PROFILES: dict[str, SimpleQAVerifiedProfile] = {
    "default": SimpleQAVerifiedProfile(
        name="default",
        reference="this project's: the starter code's request (the simple-evals template, no "
        "judge settings) with a strict parse of the judge's reply",
        proof=None,
    ),
    "kaggle_starter": SimpleQAVerifiedProfile(
        name="kaggle_starter",
        reference="DeepMind's Kaggle notebook 'SimpleQA Verified Benchmark Starter Code': "
        "its judge request and reply parse (restated, not run here)",
        proof=None,
        grade_parse="verified_starter",
    ),
    # inspect_evals 0.28.0 `simpleqa_verified -T scorer=original` with its
    # paper_config/simpleqa_verified.yaml: candidate temperature 1.0 and max_tokens 2048, the
    # grader role's temperature 1.0 only; its transcription of the paper's Appendix A prompt.
    "inspect_evals_0.28.0": SimpleQAVerifiedProfile(
        name="inspect_evals_0.28.0",
        reference="inspect_evals 0.28.0 `simpleqa_verified` with `-T scorer=original` and its "
        "paper_config/simpleqa_verified.yaml (bind its judge, gpt-4.1-2025-04-14, to the "
        "grader role; `-T grade_parse=official` for its grade_parse=paper)",
        proof="tests/peers/test_inspect_evals_simpleqa.py",
        generate=GenerateConfig(temperature=1.0, max_tokens=2048),
        grader_prompt="inspect_evals",
        grader_temperature=1.0,
        grade_parse="inspect_evals_strict",
    ),
}
