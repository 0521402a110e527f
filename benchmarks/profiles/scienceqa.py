"""ScienceQA's reference profiles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from inspect_ai.model import GenerateConfig

from benchmarks.profiles import Profile, switch

PromptFormat = Literal["question_options", "lmms_eval"]
AnswerParse = Literal["option_letter", "lmms_eval"]


@dataclass(frozen=True)
class ScienceQAProfile(Profile):
    """ScienceQA's switches: the prompt's layout and how a reply is read."""

    prompt_format: PromptFormat = switch(
        "question_options",
        "``question_options`` (``Question:``/``Options:`` with ``(A)`` options) or "
        "``lmms_eval`` "
        "(lmms-eval 0.7.3's ``A.`` options and \"Answer with the option's letter from the "
        'given choices directly.").',
    )
    answer_parse: AnswerParse = switch(
        "option_letter",
        "``option_letter`` reads the reference rule (the reply is the letter, or starts with "
        "``X.``) and also ``(B)``, ``B)``, ``Answer: B`` and ``The answer is B.``; "
        "``lmms_eval`` the reference rule alone.",
    )


PROFILES: dict[str, ScienceQAProfile] = {
    "default": ScienceQAProfile(
        name="default",
        reference="this project's: Question/Options layout; lmms-eval 0.7.3's reply rule "
        "extended with formats that name one option unambiguously",
        proof=None,
    ),
    "lmms_eval_0.7.3": ScienceQAProfile(
        name="lmms_eval_0.7.3",
        reference="lmms-eval 0.7.3 `scienceqa` (tasks/scienceqa/scienceqa.yaml and utils.py): "
        "its prompt, the image before the text, its reply rule, greedy with at most 16 tokens",
        proof="tests/peers/test_lmms_eval_scienceqa.py",
        generate=GenerateConfig(max_tokens=16, temperature=0.0),
        prompt_format="lmms_eval",
        answer_parse="lmms_eval",
    ),
}
