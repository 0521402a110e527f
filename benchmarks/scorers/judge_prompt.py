"""The SimpleQA judge's prompts (the named templates of ``judge_templates/``, or a user's
own, checked for its placeholders) and the parses of its reply (``GRADE_PARSERS``; the
rules are on docs/simpleqa.md, "Scoring")."""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Literal

from benchmarks.runtime.errors import TaskParameterError
from benchmarks.scorers.simpleqa import GRADE_VALUE_KEYS


def _template(name: str) -> str:
    # read as bytes: a template's line ends are the reference's, byte for byte
    return files("benchmarks.scorers.judge_templates").joinpath(name).read_bytes().decode("utf-8")


# GRADER_TEMPLATE of simple-evals simpleqa_eval.py after .strip(), byte for byte.
GRADER_TEMPLATE = _template("simpleqa_grader_template.txt")
GRADE_PROMPT_FIELDS = frozenset({"question", "target", "predicted_answer"})
# The judge prompts a task's grader_prompt names, SimpleQA's and SimpleQA Verified's (the
# names: SimpleQAGraderPrompt and VerifiedGraderPrompt of their profiles modules).
# ``inspect_evals``: inspect_evals 0.28.0's templates, placeholders renamed to ours, which
# leaves the filled-in prompt its bytes (simpleqa_inspect_evals_grader_templates.md);
# ``paper``: SimpleQA Verified's revised autorater prompt (paper, Appendix A;
# docs/simpleqa_verified.md).
SIMPLEQA_GRADER_PROMPTS: dict[str, str] = {
    "simple_evals": GRADER_TEMPLATE,
    "inspect_evals": _template("simpleqa_inspect_evals_grader_template.txt"),
}
VERIFIED_GRADER_PROMPTS: dict[str, str] = {
    "simple_evals": GRADER_TEMPLATE,
    "paper": _template("simpleqa_verified_paper_grader_template.txt"),
    "inspect_evals": _template("simpleqa_verified_inspect_evals_grader_template.txt"),
}

GRADE_NAMES = {"A": "CORRECT", "B": "INCORRECT", "C": "NOT_ATTEMPTED"}
GradeParse = Literal["strict", "official", "verified_starter", "inspect_evals_strict"]


def parse_grade_strict(reply: str) -> str | None:
    """``A``, ``B`` or ``C`` when that letter is the whole reply (whitespace, one markdown
    emphasis and a trailing ``.`` or ``!`` tolerated), else None."""
    match = _STRICT_GRADE.fullmatch(reply.strip())
    return match.group("letter") if match else None


_STRICT_GRADE = re.compile(r"(?P<em>\*\*|__|\*|_|`)?(?P<letter>[ABC])[.!]?(?(em)(?P=em))[.!]?")


def first_grade_search(pattern: str) -> Callable[[str], str]:
    """The parse that takes the first match of ``pattern`` (one group) in the reply, else C."""
    compiled = re.compile(pattern)

    def parse(reply: str) -> str:
        match = compiled.search(reply)
        return match.group(1) if match else "C"

    return parse


# simple-evals' (also inspect_evals' ``grade_parse="paper"``): the first A, B or C anywhere
parse_grade_official = first_grade_search(r"(A|B|C)")
# inspect_evals' ``grade_parse="strict"``: the first A, B or C standing as a word of its own
# (Unicode word boundaries), so ``A: CORRECT`` reads A and ``CORRECT`` or ``_A_`` read C
parse_grade_inspect_evals_strict = first_grade_search(r"\b([ABC])\b")


def parse_grade_verified_starter(reply: str) -> str:
    """The SimpleQA Verified starter code's parse: ``official``'s search; else, on the
    upper-cased reply, ``"CORRECT" in`` gives A (so does a bare "incorrect": the starter
    code's next test, ``"INCORRECT" in`` for B, is never reached), anything else C."""
    match = re.search(r"(A|B|C)", reply)
    if match:
        return match.group(0)
    return "A" if "CORRECT" in reply.upper() else "C"


GRADE_PARSERS: dict[str, Callable[[str], str | None]] = {
    "strict": parse_grade_strict,
    "official": parse_grade_official,
    "verified_starter": parse_grade_verified_starter,
    "inspect_evals_strict": parse_grade_inspect_evals_strict,
}


def grade_value(grade: str) -> dict[str, float]:
    """Score value of a grade: 1.0 under its key, 0.0 under the others."""
    return {key: float(name == grade) for name, key in GRADE_VALUE_KEYS.items()}


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
