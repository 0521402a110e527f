"""The SimpleQA judge, shared by SimpleQA and SimpleQA Verified.

SimpleQA (Wei et al., 2024, https://cdn.openai.com/papers/simpleqa.pdf) grades
each reply with an LLM judge (model role ``grader``) and the grader template of
openai/simple-evals ``simpleqa_eval.py`` (commit ee3b0318d8d1d9d72755a4120879be65f7c07e9e),
shipped byte for byte as ``simpleqa_grader_template.txt``. The judge answers
A (CORRECT), B (INCORRECT) or C (NOT_ATTEMPTED).

This module holds the judge itself: filling the template, calling the judge
and parsing its reply. Each task file composes it with its own data.
"""

from __future__ import annotations

import logging
import re
import string
from collections.abc import Callable
from importlib.resources import files
from typing import Literal

from inspect_ai.model import ChatMessageUser, GenerateConfig, Model, get_model, model_roles
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from benchmarks.simpleqa_metrics import GRADE_VALUE_KEYS, JUDGE_FAILURE, simpleqa_metrics

# GRADER_TEMPLATE of simple-evals simpleqa_eval.py after .strip(), byte for byte.
GRADER_TEMPLATE = (
    files("benchmarks").joinpath("simpleqa_grader_template.txt").read_bytes().decode("utf-8")
)
GRADER_TEMPLATE_SHA256 = "063c04ea798f91c4706c050b66a721afc77a458b12d8f0d72286d4b0eee8a3ee"
GRADE_PROMPT_FIELDS = frozenset({"question", "target", "predicted_answer"})
GRADER_ROLE = "grader"

GRADE_NAMES = {"A": "CORRECT", "B": "INCORRECT", "C": "NOT_ATTEMPTED"}
GradeParse = Literal["strict", "official"]

logger = logging.getLogger(__name__)


# ---------------------------------------------------------------------------
# Parsing the judge's reply


def parse_grade_strict(reply: str) -> str | None:
    """``A``, ``B`` or ``C`` when that letter is the whole reply, else None.

    Tolerated around the letter: whitespace, one markdown emphasis
    (``**A**``, ``*A*``, ``__A__``, ``_A_``, `` `A` ``) and a trailing
    ``.`` or ``!``.
    """
    match = _STRICT_GRADE.fullmatch(reply.strip())
    return match.group("letter") if match else None


_STRICT_GRADE = re.compile(r"(?P<em>\*\*|__|\*|_|`)?(?P<letter>[ABC])[.!]?(?(em)(?P=em))[.!]?")


def parse_grade_official(reply: str) -> str:
    """simple-evals: the first ``A``, ``B`` or ``C`` anywhere in the reply, else ``C``."""
    match = re.search(r"(A|B|C)", reply)
    return match.group(0) if match else "C"


GRADE_PARSERS: dict[str, Callable[[str], str | None]] = {
    "strict": parse_grade_strict,
    "official": parse_grade_official,
}


def grade_value(grade: str) -> dict[str, float]:
    """Score value of a grade: 1.0 under its key, 0.0 under the others."""
    return {key: float(name == grade) for name, key in GRADE_VALUE_KEYS.items()}


# ---------------------------------------------------------------------------
# Templates


def template_problem(template: str, fields: frozenset[str]) -> str | None:
    """Why ``template`` cannot be filled with exactly ``fields``, or None."""
    try:
        used = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as ex:
        return f"is not a valid format string ({ex}); write literal braces as {{{{ and }}}}."
    missing = sorted(fields - used)
    unknown = sorted(used - fields)
    if missing:
        return f"lacks the placeholder(s) {', '.join('{' + name + '}' for name in missing)}."
    if unknown:
        return (
            f"has unknown placeholder(s) {', '.join('{' + name + '}' for name in unknown)}; "
            f"it may use only {', '.join('{' + name + '}' for name in sorted(fields))} "
            "(write literal braces as {{ and }})."
        )
    try:
        template.format(**dict.fromkeys(fields, ""))
    except (ValueError, IndexError, KeyError, AttributeError) as ex:
        return f"cannot be filled in ({type(ex).__name__}: {ex})."
    return None


# ---------------------------------------------------------------------------
# The judge model

_fallback_warned: set[str] = set()


def grader_model() -> Model:
    """The model bound to the ``grader`` role, else the model under test (with a warning)."""
    if model_roles().get(GRADER_ROLE) is not None:
        return get_model(role=GRADER_ROLE)
    fallback = get_model()
    name = str(fallback)
    if name not in _fallback_warned:
        _fallback_warned.add(name)
        logger.warning(
            f"SimpleQA: no model is bound to the role '{GRADER_ROLE}', so the model under "
            f"test ({name}) grades its own answers. The references grade with gpt-4o "
            f"(SimpleQA paper) or gpt-4.1-2025-04-14 (simple-evals today, SimpleQA Verified); "
            f"bind a judge with --model-role {GRADER_ROLE}=<provider/model> "
            f"(eval(..., model_roles={{'{GRADER_ROLE}': ...}}))."
        )
    return fallback


@scorer(metrics=[simpleqa_metrics()])
def simpleqa_scorer(
    grade_prompt: str | None = None,
    grade_parse: GradeParse = "strict",
    grader_temperature: float | None = 0.5,
    grader_max_tokens: int | None = 1024,
    grader_system_message: str | None = None,
) -> Scorer:
    """Grade the reply with the judge; the score value has one key per grade.

    The value is ``{"correct", "incorrect", "not_attempted", "judge_failure"}``
    with 1.0 under the grade. ``answer`` is the graded reply, ``explanation``
    and ``metadata`` hold the judge's raw reply and the grade. An exception
    raised by the judge is not a grade: it propagates and the sample errors
    (``inspect eval-retry`` redoes it).

    ``grader_system_message`` goes before the filled-in template as a system
    message (simple-evals' samplers send "You are a helpful assistant."); it
    is passed in the call's config, so it replaces one set on the role.
    """
    template = GRADER_TEMPLATE if grade_prompt is None else grade_prompt
    parse = GRADE_PARSERS[grade_parse]
    config = GenerateConfig(
        temperature=grader_temperature,
        max_tokens=grader_max_tokens,
        system_message=grader_system_message,
    )

    async def score(state: TaskState, target: Target) -> Score:
        grader = grader_model()
        predicted_answer = state.output.completion
        prompt = template.format(
            question=state.input_text, target=target.text, predicted_answer=predicted_answer
        )
        output = await grader.generate([ChatMessageUser(content=prompt)], config=config)
        reply = output.completion
        letter = parse(reply)
        grade = GRADE_NAMES[letter] if letter is not None else JUDGE_FAILURE
        if letter is None:
            explanation = f"judge reply {reply!r} is not A, B or C: judge failure"
        else:
            explanation = f"judge replied {reply!r}: {letter} = {grade}"
        return Score(
            value=grade_value(grade),
            answer=predicted_answer,
            explanation=explanation,
            metadata={"grade": grade, "judge_reply": reply, "grader": str(grader)},
        )

    return score
