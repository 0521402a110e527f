"""The SimpleQA judge's prompt and the parse of its reply.

The grader template of openai/simple-evals ``simpleqa_eval.py`` (commit
ee3b0318d8d1d9d72755a4120879be65f7c07e9e), shipped byte for byte as
``simpleqa_grader_template.txt``; the other named templates (the SimpleQA Verified
paper's, inspect_evals 0.28.0's two); a template of the user's own, checked for its
placeholders; and the four parses of the judge's reply: ``strict`` (this project's),
``official`` (simple-evals', also inspect_evals' ``grade_parse="paper"``),
``verified_starter`` (SimpleQA Verified's starter code) and ``inspect_evals_strict``
(inspect_evals' ``grade_parse="strict"``).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Literal

from benchmarks.runtime.errors import TaskParameterError
from benchmarks.scorers.simpleqa import GRADE_VALUE_KEYS

# GRADER_TEMPLATE of simple-evals simpleqa_eval.py after .strip(), byte for byte.
GRADER_TEMPLATE = (
    files("benchmarks.scorers.judge_templates")
    .joinpath("simpleqa_grader_template.txt")
    .read_bytes()
    .decode("utf-8")
)
GRADE_PROMPT_FIELDS = frozenset({"question", "target", "predicted_answer"})
# SimpleQA Verified's revised autorater prompt (Haas et al. 2025, arXiv 2509.07968,
# Appendix A), laid out as the simple-evals template it revises (docs/simpleqa_verified.md).
VERIFIED_PAPER_GRADER_TEMPLATE = (
    files("benchmarks.scorers.judge_templates")
    .joinpath("simpleqa_verified_paper_grader_template.txt")
    .read_bytes()
    .decode("utf-8")
)
# inspect_evals 0.28.0's SimpleQA and SimpleQA Verified templates (simpleqa/grader_templates.py,
# MIT), with its grading instructions filled in and its placeholders renamed to ours, which
# leaves the filled-in prompt its bytes (simpleqa_inspect_evals_grader_templates.md).
INSPECT_EVALS_GRADER_TEMPLATE = (
    files("benchmarks.scorers.judge_templates")
    .joinpath("simpleqa_inspect_evals_grader_template.txt")
    .read_bytes()
    .decode("utf-8")
)
INSPECT_EVALS_VERIFIED_GRADER_TEMPLATE = (
    files("benchmarks.scorers.judge_templates")
    .joinpath("simpleqa_verified_inspect_evals_grader_template.txt")
    .read_bytes()
    .decode("utf-8")
)
# The judge prompts a task's grader_prompt names, SimpleQA's and SimpleQA Verified's (the
# names: SimpleQAGraderPrompt and VerifiedGraderPrompt of their profiles modules).
SIMPLEQA_GRADER_PROMPTS: dict[str, str] = {
    "simple_evals": GRADER_TEMPLATE,
    "inspect_evals": INSPECT_EVALS_GRADER_TEMPLATE,
}
VERIFIED_GRADER_PROMPTS: dict[str, str] = {
    "simple_evals": GRADER_TEMPLATE,
    "paper": VERIFIED_PAPER_GRADER_TEMPLATE,
    "inspect_evals": INSPECT_EVALS_VERIFIED_GRADER_TEMPLATE,
}

GRADE_NAMES = {"A": "CORRECT", "B": "INCORRECT", "C": "NOT_ATTEMPTED"}
GradeParse = Literal["strict", "official", "verified_starter", "inspect_evals_strict"]


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


def parse_grade_inspect_evals_strict(reply: str) -> str:
    """inspect_evals' ``grade_parse="strict"``: the first capital ``A``, ``B`` or ``C`` that
    stands as a word of its own (``\\b([ABC])\\b``, Unicode word boundaries), else ``C``.

    Unlike ``strict`` it never fails: a reply with no such letter (``CORRECT``, ``a``,
    ``_A_``, where ``_`` is a word character) is graded C, and ``A: CORRECT`` or ``The
    answer is B`` are read. Its ``grade_parse="paper"`` is ``official``, the same search.
    """
    match = _STANDALONE_GRADE.search(reply)
    return match.group(1) if match else "C"


_STANDALONE_GRADE = re.compile(r"\b([ABC])\b")


def parse_grade_verified_starter(reply: str) -> str:
    """The SimpleQA Verified starter code's parse.

    The first ``A``, ``B`` or ``C`` in the reply; else, on the upper-cased
    reply, ``"CORRECT" in`` gives A, then ``"INCORRECT" in`` B, then
    ``"NOT_ATTEMPTED" in`` C, in that order, so a bare "incorrect" reads as A
    (the B test is never reached: "INCORRECT" contains "CORRECT"); else C.
    """
    match = re.search(r"(A|B|C)", reply)
    if match:
        return match.group(0)
    upper = reply.upper()
    if "CORRECT" in upper:
        return "A"
    if "INCORRECT" in upper:  # unreachable, as in the starter code
        return "B"
    if "NOT_ATTEMPTED" in upper:
        return "C"
    return "C"


GRADE_PARSERS: dict[str, Callable[[str], str | None]] = {
    "strict": parse_grade_strict,
    "official": parse_grade_official,
    "verified_starter": parse_grade_verified_starter,
    "inspect_evals_strict": parse_grade_inspect_evals_strict,
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


def read_grade_prompt_file(path: str, task: str) -> str:
    """A grader template from a UTF-8 file, checked for its placeholders."""
    file = Path(path).expanduser()
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TaskParameterError(f"{task}: grade_prompt_file {path}: no such file.") from None
    except UnicodeDecodeError as ex:
        raise TaskParameterError(
            f"{task}: grade_prompt_file {path}: not UTF-8 text ({ex.reason})."
        ) from None
    except OSError as ex:
        raise TaskParameterError(
            f"{task}: grade_prompt_file {path}: {ex.strerror or ex}."
        ) from None
    problem = template_problem(text, GRADE_PROMPT_FIELDS)
    if problem is not None:
        raise TaskParameterError(f"{task}: grade_prompt_file {path} {problem}")
    return text
