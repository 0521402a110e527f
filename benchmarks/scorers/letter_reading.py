"""Reading the option letter of a multiple-choice reply.

The parsing rules, each named by the reference and version it reproduces:

- ``parse_answer_marker``: this project's rule, the letter of the last
  ``ANSWER: X`` (the format evalscope's multiple-choice template asks for).
- ``parse_evalscope_answer``: evalscope's ``parse_answers`` (single answer),
  release by release from 1.11.0 to 1.14.1 (``EVALSCOPE_RELEASES``).
- ``parse_inspect_choice``: Inspect's own reading for its ``choice()`` scorer
  (``multiple_choice()``'s single-answer parse), which inspect_evals' tasks use.
- ``parse_option_letter``: with ``strict``, lmms-eval 0.7.3's ScienceQA rule
  (``sqa_process_results``, after LLaVA: the stripped reply is the letter in
  either case, or starts with ``X.``); without, extended with formats that
  name one option unambiguously.

Inspect's ``multiple_choice()`` renders its own template and its own parse,
so benchmarks whose reference template differs render with ``mcq_prompt`` and
parse with these (``LETTER_PARSERS``, by the name ``option_letter_scorer`` takes).
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


def _same_lower_case(text: str, valid: Sequence[str]) -> str | None:
    """The valid letter whose lower case is ``text``'s, as lmms-eval compares.

    Comparing lower cases, not upper cases, decides the odd characters: the
    Kelvin sign lower-cases to ``k`` (it reads as K), while ``ı`` and ``ſ``
    upper-case to I and S but lower-case to themselves (they read as nothing).
    """
    folded = text.lower()
    return next((letter for letter in valid if letter.lower() == folded), None)


def parse_option_letter(reply: str, valid: Sequence[str], *, strict: bool) -> ParsedLetter:
    """The option letter of a ScienceQA-style reply.

    The reference rule (lmms-eval 0.7.3's ``sqa_process_results``, after
    LLaVA): the stripped reply lower-cased equals a letter lower-cased, rule
    ``exact``; or it starts with a capital letter and a period (``B. Paris``)
    and that capital lower-cased is a letter lower-cased, rule
    ``letter_period``. Unless ``strict``, also: a leading ``(B)`` or ``B)``
    (rule ``parenthesized``), and ``Answer: B`` / ``The answer is (B).``
    (rule ``answer_phrase``, all such phrases naming the same capital letter).
    """
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
# restated from the source of each release in EVALSCOPE_RELEASES. Every release reads
# the label after the last ``ANSWER:`` marker that is followed by one (bracketed, else
# plain), keeps the leading run of tokens made of valid letters, and counts the result
# only when it is a single valid letter; with no labelled marker, the last capital
# letter of the whole reply counts when it is valid. What changed between releases:
# which separators may join two labels, whether ``and``/``or`` may, and whether LaTeX
# wrappers before the label are skipped.
class EvalscopeRule(NamedTuple):
    """The single-answer parse of one evalscope release (the first release with it)."""

    since: str
    # characters that may separate two labels inside brackets: ``(A, C)``
    bracket_separators: str
    # characters besides letters and digits that a plain label may run through: ``A, C``
    plain_separators: str
    # ``A and B`` / ``A or B`` list two labels (stepped over only between two labels)
    connectors: bool
    # ``$``, ``\(``, ``\boxed{``, ``\text{``, ... before the label are skipped
    latex_wrappers: bool


EVALSCOPE_RULES = {
    "1.11.0": EvalscopeRule("1.11.0", ",，", " ,", connectors=False, latex_wrappers=False),
    # 1.11.1: ``/`` and ``、`` separate labels; ``and``/``or`` between two labels
    "1.11.1": EvalscopeRule("1.11.1", ",，/、", " ,/、", connectors=True, latex_wrappers=False),
    # 1.13.0: a plain label also runs through a full-width comma
    "1.13.0": EvalscopeRule("1.13.0", ",，/、", " ,，/、", connectors=True, latex_wrappers=False),
    # 1.14.0: ``ANSWER: $\boxed{B}$`` reads as B
    "1.14.0": EvalscopeRule("1.14.0", ",，/、", " ,，/、", connectors=True, latex_wrappers=True),
}
# Every release whose multi_choices.py was compared, and the rule it has (1.12.0 and
# 1.14.1 change nothing in the single-answer parse).
EVALSCOPE_RELEASES = {
    "1.11.0": EVALSCOPE_RULES["1.11.0"],
    "1.11.1": EVALSCOPE_RULES["1.11.1"],
    "1.12.0": EVALSCOPE_RULES["1.11.1"],
    "1.13.0": EVALSCOPE_RULES["1.13.0"],
    "1.14.0": EVALSCOPE_RULES["1.14.0"],
    "1.14.1": EVALSCOPE_RULES["1.14.0"],
}
EVALSCOPE_LATEST = "1.14.1"

_EVALSCOPE_MARKER = re.compile(r"ANSWER\s*:\s*\**\s*", re.IGNORECASE)
_EVALSCOPE_TOKEN = re.compile(r"[A-Za-z\d]+")
_LATEX_COMMANDS = ("boxed", "fbox", "text", "textbf", "mathbf", "mathrm")
# Any run of ``$``/``$$``, ``\(`` and ``\command{`` openers, each followed by optional space.
_LATEX_WRAPPERS = re.compile(r"(?:(?:\$+|\\\(|\\(?:" + "|".join(_LATEX_COMMANDS) + r")\s*\{)\s*)*")
_CONNECTORS = ("and", "or")


def _label_patterns(rule: EvalscopeRule) -> tuple[re.Pattern[str], re.Pattern[str]]:
    between = re.escape(rule.bracket_separators)
    bracketed = re.compile(
        rf"[\(\[（【]\s*([A-Za-z\d](?:\s*[{between}]\s*[A-Za-z\d])*)\s*[\)\]）】]"
    )
    plain = re.compile(rf"([A-Za-z\d][A-Za-z\d{re.escape(rule.plain_separators)}]*)")
    return bracketed, plain


_LABEL_PATTERNS = {since: _label_patterns(rule) for since, rule in EVALSCOPE_RULES.items()}


def _leading_labels(capture: str, allowed: set[str], rule: EvalscopeRule) -> str:
    """The start of ``capture`` up to the end of its last leading label token.

    A token is a label when each of its characters is a valid letter (``AB``
    counts: the multiple-answer form). The first other token ends the run,
    except a connector between two labels when ``rule.connectors``.
    """
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
    """evalscope's single-answer rule as of ``release`` (a key of ``EVALSCOPE_RELEASES``).

    The last ``ANSWER:`` marker (any case, optionally bold) followed by a label
    gives the answer: a bracketed label (``(A)``, ``[A]``, ``（A）``, ``【A】``)
    or a plain one, whose leading valid letters (case-sensitive) are kept; it
    counts only when that is a single valid letter (``ANSWER: A and B`` is no
    answer), rule ``answer_marker``. With no labelled marker, the last capital
    letter of the whole reply counts when it is valid (rule ``last_capital``):
    ``The answer is B`` reads as B.
    """
    rule = EVALSCOPE_RELEASES[release]
    bracketed, plain = _LABEL_PATTERNS[rule.since]
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
    """The letter Inspect's ``multiple_choice()`` solver reads from ``reply`` (one answer).

    Inspect's own function is called (``parse_answers`` in
    ``inspect_ai/solver/_multiple_choice.py``, which the ``choice()`` scorer relies on), on a
    state holding only the reply and as many choices as ``valid`` letters, so the reading is
    the installed Inspect's, as it is for inspect_evals run with it. In 0.3.285: the last
    ``ANSWER: X`` line (any case; ``$X$``, ``**X**`` and ``(X)`` unwrapped; a trailing period
    allowed), else the last ``ANSWER: X`` anywhere; the text after the marker must be one
    valid letter (``ANSWER: A, B`` and ``ANSWER: Because`` read nothing). Rule ``inspect_choice``.
    """
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
