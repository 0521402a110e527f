"""Reading the option letter of a multiple-choice reply, by the rule of each reference and
version (``LETTER_PARSERS``; the rules are on docs/winogrande.md and docs/scienceqa.md,
"Scoring"). Inspect's ``multiple_choice()`` renders its own template and its own parse, so
benchmarks whose reference template differs render with ``mcq_prompt`` and parse with these.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from inspect_ai.model import ModelName, ModelOutput
from inspect_ai.solver import TaskState

from benchmarks.runtime.inspect_private import parse_answers


class ParsedLetter(NamedTuple):
    """The option letter read from a reply (None when none), and the rule that read it."""

    letter: str | None
    rule: str


UNPARSED = ParsedLetter(None, "none")


# The marker, then the letter bare or as (X), [X], **X**; a following letter or
# digit means a word ("ANSWER: Because"), not an option.
_ANSWER_MARKER = re.compile(
    r"\bANSWER\s*:\s*\**\s*[(\[]?\s*\**([A-Za-z])\**\s*[)\]]?(?![A-Za-z0-9])",
    re.IGNORECASE,
)


def parse_answer_marker(reply: str, valid: Sequence[str]) -> ParsedLetter:
    """The letter of the last ``ANSWER: X`` in ``reply`` (nothing when it is no option)."""
    matches = _ANSWER_MARKER.findall(reply)
    if not matches:
        return UNPARSED
    letter = matches[-1].upper()
    return ParsedLetter(letter, "answer_marker") if letter in valid else UNPARSED


_LEADING_PAREN = re.compile(r"^\(?([A-Z])\)(?![A-Za-z0-9])")
_ANSWER_PHRASE = re.compile(
    r"\banswer(?:\s+is)?\s*[:=]?\s*\**\s*\(?([A-Z])\)?\**(?![A-Za-z0-9])", re.IGNORECASE
)


def _same_lower_case(text: str, valid: Sequence[str]) -> str | None:
    """The valid letter whose lower case is ``text``'s, as lmms-eval compares (not upper
    cases: the Kelvin sign reads as K, ``ı`` and ``ſ`` as nothing; docs/scienceqa.md)."""
    folded = text.lower()
    return next((letter for letter in valid if letter.lower() == folded), None)


def parse_option_letter(reply: str, valid: Sequence[str], *, strict: bool) -> ParsedLetter:
    """The option letter of a ScienceQA-style reply: lmms-eval 0.7.3's rule (rules ``exact``,
    ``letter_period``), unless ``strict`` also ``parenthesized`` and ``answer_phrase``."""
    text = reply.strip()
    letter = _same_lower_case(text, valid)
    if letter is not None:
        return ParsedLetter(letter, "exact")
    if len(text) >= 2 and text[0].isupper() and text[1] == ".":
        letter = _same_lower_case(text[0], valid)
        return ParsedLetter(letter, "letter_period") if letter is not None else UNPARSED
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


# evalscope's single-answer reading, ``parse_answers`` in evalscope/utils/multi_choices.py,
# restated from the source of each release in EVALSCOPE_RELEASES (docs/winogrande.md). What
# changed between releases: which separators may join two labels, whether ``and``/``or``
# may, and whether LaTeX wrappers before the label are skipped.
class EvalscopeRule(NamedTuple):
    """The single-answer parse of one evalscope release."""

    # characters that may separate two labels inside brackets: ``(A, C)``
    bracket_separators: str
    # characters besides letters and digits that a plain label may run through: ``A, C``
    plain_separators: str
    # ``A and B`` / ``A or B`` list two labels (stepped over only between two labels)
    connectors: bool
    # ``$``, ``\(``, ``\boxed{``, ``\text{``, ... before the label are skipped
    latex_wrappers: bool


# Every release whose multi_choices.py was compared, and the rule it has (1.12.0 and
# 1.14.1 change nothing in the single-answer parse).
EVALSCOPE_RELEASES = {
    "1.11.0": EvalscopeRule(",，", " ,", connectors=False, latex_wrappers=False),
    # 1.11.1: ``/`` and ``、`` separate labels; ``and``/``or`` between two labels
    "1.11.1": EvalscopeRule(",，/、", " ,/、", connectors=True, latex_wrappers=False),
    "1.12.0": EvalscopeRule(",，/、", " ,/、", connectors=True, latex_wrappers=False),
    # 1.13.0: a plain label also runs through a full-width comma
    "1.13.0": EvalscopeRule(",，/、", " ,，/、", connectors=True, latex_wrappers=False),
    # 1.14.0: ``ANSWER: $\boxed{B}$`` reads as B
    "1.14.0": EvalscopeRule(",，/、", " ,，/、", connectors=True, latex_wrappers=True),
    "1.14.1": EvalscopeRule(",，/、", " ,，/、", connectors=True, latex_wrappers=True),
}
EVALSCOPE_LATEST = "1.14.1"

_EVALSCOPE_MARKER = re.compile(r"ANSWER\s*:\s*\**\s*", re.IGNORECASE)
_EVALSCOPE_TOKEN = re.compile(r"[A-Za-z\d]+")
_LATEX_COMMANDS = ("boxed", "fbox", "text", "textbf", "mathbf", "mathrm")
# Any run of ``$``/``$$``, ``\(`` and ``\command{`` openers, each followed by optional space.
_LATEX_WRAPPERS = re.compile(r"(?:(?:\$+|\\\(|\\(?:" + "|".join(_LATEX_COMMANDS) + r")\s*\{)\s*)*")
_CONNECTORS = ("and", "or")


@functools.cache
def _label_patterns(rule: EvalscopeRule) -> tuple[re.Pattern[str], re.Pattern[str]]:
    between = re.escape(rule.bracket_separators)
    bracketed = re.compile(
        rf"[\(\[（【]\s*([A-Za-z\d](?:\s*[{between}]\s*[A-Za-z\d])*)\s*[\)\]）】]"
    )
    plain = re.compile(rf"([A-Za-z\d][A-Za-z\d{re.escape(rule.plain_separators)}]*)")
    return bracketed, plain


def _leading_labels(capture: str, allowed: set[str], rule: EvalscopeRule) -> str:
    """The start of ``capture`` up to the end of its last leading label token (all valid
    letters: ``AB``, the multiple-answer form, counts); the first other token ends the
    run, except a connector between two labels when ``rule.connectors``."""
    tokens = list(_EVALSCOPE_TOKEN.finditer(capture))

    def is_label(word: str) -> bool:
        return all(character in allowed for character in word)

    end = 0
    for position, token in enumerate(tokens):
        word = token.group(0)
        if is_label(word):
            end = token.end()
            continue
        between_labels = (
            end > 0 and position + 1 < len(tokens) and is_label(tokens[position + 1].group(0))
        )
        if rule.connectors and between_labels and word.lower() in _CONNECTORS:
            continue
        break
    return capture[:end]


def parse_evalscope_answer(
    reply: str, valid: Sequence[str], release: str = EVALSCOPE_LATEST
) -> ParsedLetter:
    """evalscope's single-answer rule as of ``release`` (a key of ``EVALSCOPE_RELEASES``):
    rules ``answer_marker`` and ``last_capital`` (docs/winogrande.md)."""
    rule = EVALSCOPE_RELEASES[release]
    bracketed, plain = _label_patterns(rule)
    allowed = set(valid)
    for marker in reversed(list(_EVALSCOPE_MARKER.finditer(reply))):
        start = marker.end()
        wrappers = _LATEX_WRAPPERS.match(reply, start) if rule.latex_wrappers else None
        if wrappers is not None:
            start = wrappers.end()
        for pattern in (bracketed, plain):
            label = pattern.match(reply, start)
            if label is None:
                continue
            labels = _leading_labels(label.group(1), allowed, rule)
            if labels:
                answer = labels.strip().rstrip(".")
                return ParsedLetter(answer, "answer_marker") if answer in allowed else UNPARSED
    for character in reversed(reply):
        if character.isupper():
            return ParsedLetter(character, "last_capital") if character in allowed else UNPARSED
    return UNPARSED


def parse_inspect_choice(reply: str, valid: Sequence[str]) -> ParsedLetter:
    """The letter Inspect's ``multiple_choice()`` solver reads from ``reply`` (one answer),
    rule ``inspect_choice``: Inspect's own ``parse_answers`` is called, on a state holding
    only the reply and as many choices as ``valid`` letters, so the reading is the installed
    Inspect's, as it is for inspect_evals run with it (docs/winogrande.md)."""
    state = TaskState(
        model=ModelName("none/none"),
        sample_id=0,
        epoch=0,
        input="",
        messages=[],
        choices=list(valid),
        output=ModelOutput.from_content("none", reply),
    )
    answers = parse_answers(state, multiple_correct=False)
    if len(answers) != 1:
        return UNPARSED
    (letter,) = answers
    return ParsedLetter(letter, "inspect_choice") if letter in valid else UNPARSED


LetterParser = Callable[[str, Sequence[str]], ParsedLetter]

LETTER_PARSERS: dict[str, LetterParser] = {
    "answer_marker": parse_answer_marker,
    "evalscope": parse_evalscope_answer,
    **{
        f"evalscope_{release}": functools.partial(parse_evalscope_answer, release=release)
        for release in EVALSCOPE_RELEASES
    },
    "inspect_choice": parse_inspect_choice,
    "option_letter": lambda reply, valid: parse_option_letter(reply, valid, strict=False),
    "option_letter_strict": lambda reply, valid: parse_option_letter(reply, valid, strict=True),
}
