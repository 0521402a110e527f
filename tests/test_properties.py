"""Property-based tests: answer normalization and extraction, letter parsers, grade parsers.

Replies are arbitrary unicode, or text drawn from the characters the parsers
look at (markers, letters, brackets, emphasis, stop characters), so the
interesting branches are reached, not only the empty match.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from typing import get_args

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from benchmarks.profiles.triviaqa import AnswerExtraction
from benchmarks.scorers.answer_matching import (
    extract_short_answer,
    max_token_f1,
    normalize_answer,
)
from benchmarks.scorers.judge_prompt import parse_grade_official, parse_grade_strict
from benchmarks.scorers.letter_reading import (
    LETTER_PARSERS,
    parse_answer_marker,
    parse_evalscope_answer,
    parse_option_letter,
)

EXAMPLES = settings(max_examples=150, deadline=None)

# Characters the parsers branch on, plus a few that change under case mapping
# (dotless i, long s, Kelvin sign, sharp s) and unicode whitespace.
PARSER_ALPHABET = (
    "ABCDEFabcdeZz019 \n\t.,:;!?()[]*_`'\"-ANSWERanswer is The"
    "\u0131\u017f\u212a\u00df\u00a0\u2028\u3000（）【】，"
)
PARSER_TOKENS = (
    "ANSWER:|Answer:|answer is|The answer is| |\n|**|(|)|[|]|.|,|A|B|C|D|a|b|E|Z|1|option"
).split("|")
replies = st.one_of(
    st.text(),
    st.text(alphabet=PARSER_ALPHABET, max_size=40),
    st.lists(st.sampled_from(PARSER_TOKENS), max_size=12).map("".join),
)
option_counts = st.integers(min_value=1, max_value=26)

ARTICLES = {"a", "an", "the"}
PUNCTUATION = set(string.punctuation + "‘’´`")


def letters(count: int) -> list[str]:
    return list(string.ascii_uppercase[:count])


# ---------------------------------------------------------------------------
# TriviaQA normalization and extraction


@EXAMPLES
@given(st.text())
@example("The  U.S._A!")
@example("\u0130stanbul")  # İ lowercases to two code points
@example("a\u0301 an\u0301")  # articles before combining marks
@pytest.mark.slow
def test_normalize_answer_is_idempotent_and_canonical(text: str) -> None:
    normalized = normalize_answer(text)
    assert normalize_answer(normalized) == normalized
    assert normalized == normalized.strip()
    assert "  " not in normalized
    assert not PUNCTUATION & set(normalized)
    assert not ARTICLES & set(normalized.split(" "))
    assert normalized.lower() == normalized


def official_steps(text: str) -> str:
    """The official script's normalization, one step at a time in its order."""
    text = text.replace("_", " ")
    text = text.lower()
    text = "".join(" " if ch in PUNCTUATION else ch for ch in text)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


@EXAMPLES
@given(st.text() | st.text(alphabet=PARSER_ALPHABET + "‘’´`_\u0130\u212a", max_size=40))
@example("The_U.S._A!")
@example("\u0130stanbul")
def test_normalize_answer_takes_the_official_steps(text: str) -> None:
    assert normalize_answer(text) == official_steps(text)


@EXAMPLES
@given(st.text(), st.lists(st.text() | st.sampled_from(["the", "Ripken Jr.", "a a b"]), max_size=5))
@example("Calvin Ripken", ["Ripken", "Calvin Ripken, Jr.", "the"])
def test_max_token_f1_is_the_best_official_f1(prediction: str, truths: list[str]) -> None:
    def official_f1(truth: str) -> float:
        predicted, expected = official_steps(prediction).split(), official_steps(truth).split()
        same = sum((Counter(predicted) & Counter(expected)).values())
        if same == 0:
            return 0.0
        precision, recall = same / len(predicted), same / len(expected)
        return 2 * precision * recall / (precision + recall)

    assert max_token_f1(prediction, truths) == max(map(official_f1, truths), default=0.0)


@EXAMPLES
@given(st.text(), st.text())
def test_token_f1_is_a_bounded_symmetric_score(prediction: str, truth: str) -> None:
    score = token_f1(prediction, truth)
    assert 0.0 <= score <= 1.0
    assert score == token_f1(truth, prediction)
    if normalize_answer(prediction):
        assert token_f1(prediction, prediction) == 1.0
    assert max_token_f1(prediction, [truth, prediction]) >= score


@EXAMPLES
@given(st.text(alphabet=PARSER_ALPHABET + "\r\x0b\x0c\x85", max_size=60) | st.text())
@example(" U.S. Grant\n")
@example("\n\nParis")
def test_extract_short_answer_is_a_stop_free_substring(reply: str) -> None:
    for mode in get_args(AnswerExtraction):
        answer = extract_short_answer(reply, mode)
        assert answer in reply
        assert "\n" not in answer
        if mode != "first_line":
            assert not {".", ","} & set(answer)
    stop_sequences = extract_short_answer(reply, "stop_sequences")
    assert stop_sequences == stop_sequences.strip()
    # the cut is at the first stop character of the stripped reply
    assert reply.strip().startswith(stop_sequences)


# ---------------------------------------------------------------------------
# Multiple-choice letter parsers


@EXAMPLES
@given(replies, option_counts)
def test_letter_reading_rules_return_an_allowed_letter_or_none(reply: str, count: int) -> None:
    valid = letters(count)
    for name, parse in LETTER_PARSERS.items():
        parsed = parse(reply, valid)
        assert parsed.letter is None or parsed.letter in valid, name
        assert (parsed.letter is None) == (parsed.rule == "none"), name


@EXAMPLES
@given(replies, st.integers(min_value=2, max_value=26), st.data())
def test_the_last_answer_marker_wins(reply: str, count: int, data: st.DataObject) -> None:
    valid = letters(count)
    letter = data.draw(st.sampled_from(valid))
    final = f"{reply}\nANSWER: {letter}"
    assert parse_answer_marker(final, valid).letter == letter
    assert parse_evalscope_answer(final, valid).letter == letter


@EXAMPLES
@given(st.text(alphabet=" \t\n\u00a0", max_size=3), option_counts, st.data(), st.text())
def test_option_letter_reference_forms_parse_in_both_modes(
    padding: str, count: int, data: st.DataObject, rest: str
) -> None:
    valid = letters(count)
    letter = data.draw(st.sampled_from(valid))
    for strict in (True, False):
        assert parse_option_letter(f"{padding}{letter}{padding}", valid, strict=strict) == (
            letter,
            "exact",
        )
        with_period = f"{padding}{letter}. {rest}"
        if with_period.strip() != letter:
            assert parse_option_letter(with_period, valid, strict=strict).letter == letter


@EXAMPLES
@given(replies, option_counts)
def test_strict_option_letter_reads_a_subset_of_lenient(reply: str, count: int) -> None:
    valid = letters(count)
    strict = parse_option_letter(reply, valid, strict=True)
    if strict.letter is not None:
        assert parse_option_letter(reply, valid, strict=False) == strict


# ---------------------------------------------------------------------------
# SimpleQA grade parsers


@EXAMPLES
@given(replies)
def test_official_grade_is_the_first_a_b_or_c_else_c(reply: str) -> None:
    first = next((character for character in reply if character in "ABC"), "C")
    assert parse_grade_official(reply) == first


@EXAMPLES
@given(replies)
def test_strict_grade_is_a_bare_letter_up_to_decoration(reply: str) -> None:
    grade = parse_grade_strict(reply)
    assert grade in ("A", "B", "C", None)
    if grade is not None:
        assert re.sub(r"[\s*_`.!]", "", reply) == grade


@EXAMPLES
@given(
    st.sampled_from("ABC"),
    st.sampled_from(["", "**", "*", "__", "_", "`"]),
    st.sampled_from(["", ".", "!"]),
    st.text(alphabet=" \t\n", max_size=3),
)
def test_strict_grade_accepts_every_documented_decoration(
    letter: str, emphasis: str, end: str, padding: str
) -> None:
    reply = f"{padding}{emphasis}{letter}{end}{emphasis}{padding}"
    assert parse_grade_strict(reply) == letter


def token_f1(prediction: str, truth: str) -> float:
    """The official F1 of one prediction against one answer."""
    return max_token_f1(prediction, [truth])
