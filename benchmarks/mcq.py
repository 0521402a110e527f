"""Multiple-choice building blocks: option letters, rendering, reply parsing, scoring.

Two parsing rules are provided, one per reference:

- ``parse_answer_marker``: the last ``ANSWER: X`` line, as asked for by the
  evalscope/Inspect multiple-choice template (Winogrande).
- ``parse_option_letter``: the lmms-eval / LLaVA rule for ScienceQA (the reply
  is the letter, or starts with ``X.``), optionally extended with formats that
  unambiguously name one option.

Inspect's ``multiple_choice()`` renders its own template and its own parse,
so benchmarks whose reference template differs render and parse with these.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Sequence
from typing import NamedTuple

from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    accuracy,
    metric,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

NO_ANSWER = "no answer parsed"


class ParsedLetter(NamedTuple):
    """The option letter read from a reply (None when none), and the rule that read it."""

    letter: str | None
    rule: str


UNPARSED = ParsedLetter(None, "none")


def option_letters(count: int) -> list[str]:
    if not 1 <= count <= len(string.ascii_uppercase):
        raise ValueError(f"cannot letter {count} options (1 to 26 supported)")
    return list(string.ascii_uppercase[:count])


def render_options(choices: Sequence[str], line: str = "{letter}) {choice}") -> str:
    """One line per choice, lettered A, B, C, ... (``line`` formats each)."""
    letters = option_letters(len(choices))
    return "\n".join(
        line.format(letter=letter, choice=choice)
        for letter, choice in zip(letters, choices, strict=True)
    )


# The marker, then the letter bare or as (X), [X], **X**; a following letter or
# digit means a word ("ANSWER: Because"), not an option.
_ANSWER_MARKER = re.compile(
    r"\bANSWER\s*:\s*\**\s*[(\[]?\s*\**([A-Za-z])\**\s*[)\]]?(?![A-Za-z0-9])",
    re.IGNORECASE,
)


def parse_answer_marker(reply: str, valid: Sequence[str]) -> ParsedLetter:
    """The letter of the last ``ANSWER: X`` in ``reply``.

    The marker is case-insensitive and so is the letter. When the last marker
    names a letter outside ``valid`` nothing is parsed: the model's final
    answer is not an option.
    """
    matches = _ANSWER_MARKER.findall(reply)
    if not matches:
        return UNPARSED
    letter = matches[-1].upper()
    return ParsedLetter(letter, "answer_marker") if letter in valid else UNPARSED


_LEADING_PAREN = re.compile(r"^\(?([A-Z])\)(?![A-Za-z0-9])")
_ANSWER_PHRASE = re.compile(
    r"\banswer(?:\s+is)?\s*[:=]?\s*\**\s*\(?([A-Z])\)?\**(?![A-Za-z0-9])", re.IGNORECASE
)


def parse_option_letter(reply: str, valid: Sequence[str], *, strict: bool) -> ParsedLetter:
    """The option letter of a ScienceQA-style reply.

    The reference rule (lmms-eval's ScienceQA scoring, after LLaVA): the
    stripped reply equals a letter (case-insensitive), rule ``exact``; or it
    starts with a capital letter and a period (``B. Paris``), rule
    ``letter_period``. Unless ``strict``, also: a leading ``(B)`` or ``B)``
    (rule ``parenthesized``), and ``Answer: B`` / ``The answer is (B).``
    (rule ``answer_phrase``, all such phrases naming the same capital letter).
    """
    text = reply.strip()
    if text.upper() in valid:
        return ParsedLetter(text.upper(), "exact")
    if len(text) >= 2 and text[0].isupper() and text[1] == ".":
        return ParsedLetter(text[0], "letter_period") if text[0] in valid else UNPARSED
    if strict:
        return UNPARSED
    leading = _LEADING_PAREN.match(text)
    if leading and leading.group(1) in valid:
        return ParsedLetter(leading.group(1), "parenthesized")
    named = {m for m in _ANSWER_PHRASE.findall(text) if m.isupper()}
    if len(named) == 1:
        (letter,) = named
        if letter in valid:
            return ParsedLetter(letter, "answer_phrase")
    return UNPARSED


# evalscope's single-answer reading (evalscope/utils/multi_choices.py ``parse_answers``).
_EVALSCOPE_MARKER = re.compile(r"(?i)ANSWER\s*:\s*\**\s*")
_EVALSCOPE_BRACKETED = re.compile(
    r"[\(\[（【]\s*([A-Za-z\d](?:\s*[,，]\s*[A-Za-z\d])*)\s*[\)\]）】]"
)
_EVALSCOPE_PLAIN = re.compile(r"([A-Za-z\d][A-Za-z\d ,]*)")
_EVALSCOPE_TOKEN = re.compile(r"[A-Za-z\d]+")


def parse_evalscope_answer(reply: str, valid: Sequence[str]) -> ParsedLetter:
    """evalscope's rule, for exact comparability with its published numbers.

    The last ``ANSWER:`` marker followed by a label made of valid letters
    (bracketed or plain; letters are case-sensitive) gives the answer, which
    counts only when it is a single valid letter. With no such marker, the
    last capital letter of the whole reply is taken when it is valid (rule
    ``last_capital``): ``The answer is B`` reads as B.
    """
    allowed = set(valid)
    for marker in reversed(list(_EVALSCOPE_MARKER.finditer(reply))):
        tail = reply[marker.end() :]
        for label_pattern in (_EVALSCOPE_BRACKETED, _EVALSCOPE_PLAIN):
            label = label_pattern.match(tail)
            if label is None:
                continue
            end = 0
            for token in _EVALSCOPE_TOKEN.finditer(label.group(1)):
                word = token.group(0)
                if word in allowed or set(word) <= allowed:
                    end = token.end()
                    continue
                break
            if end:
                matched = label.group(1)[:end].strip().rstrip(".")
                return ParsedLetter(matched, "answer_marker") if matched in allowed else UNPARSED
    for character in reversed(reply):
        if character.isupper():
            return ParsedLetter(character, "last_capital") if character in allowed else UNPARSED
    return UNPARSED


LetterParser = Callable[[str, Sequence[str]], ParsedLetter]

LETTER_PARSERS: dict[str, LetterParser] = {
    "answer_marker": parse_answer_marker,
    "evalscope": parse_evalscope_answer,
    "option_letter": lambda reply, valid: parse_option_letter(reply, valid, strict=False),
    "option_letter_strict": lambda reply, valid: parse_option_letter(reply, valid, strict=True),
}


@metric
def parse_failure_rate() -> Metric:
    """Fraction of replies from which no option letter could be read."""

    def compute(scores: list[SampleScore]) -> float:
        if not scores:
            return 0.0
        failed = sum(1 for s in scores if (s.score.metadata or {}).get("rule") == "none")
        return failed / len(scores)

    return compute


@scorer(metrics=[accuracy(), stderr(), parse_failure_rate()])
def option_letter_scorer(parser: str) -> Scorer:
    """Correct when the letter parsed from the reply is the target letter.

    ``parser`` names an entry of ``LETTER_PARSERS``. The score records the
    letter as ``answer`` and the rule that matched in ``metadata["rule"]``
    (``none`` when nothing was parsed, explained as "no answer parsed").
    """
    if parser not in LETTER_PARSERS:
        raise ValueError(f"unknown parser {parser!r}; choose one of {', '.join(LETTER_PARSERS)}")
    parse = LETTER_PARSERS[parser]

    async def score(state: TaskState, target: Target) -> Score:
        valid = option_letters(len(state.choices)) if len(state.choices) else []
        parsed = parse(state.output.completion, valid)
        if parsed.letter is None:
            return Score(
                value=INCORRECT,
                answer=None,
                explanation=NO_ANSWER,
                metadata={"rule": parsed.rule},
            )
        return Score(
            value=CORRECT if parsed.letter == target.text else INCORRECT,
            answer=parsed.letter,
            metadata={"rule": parsed.rule},
        )

    return score
