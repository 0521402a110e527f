"""ScienceQA as lmms-eval 0.7.3 reads replies: the rule of ``strict_parse``.

lmms-eval 0.7.3's ``sqa_process_results`` (lmms_eval/tasks/scienceqa/utils.py): the
reply is stripped; it is right when its lower case equals the target's, or when it
starts with a capital and a period and that capital's lower case is the target's.
tests/peers/test_lmms_eval_scienceqa.py runs that code against ours.
"""

from __future__ import annotations

import string

import pytest

from benchmarks.mcq import parse_option_letter

FIVE = list("ABCDE")

# reply, letter read by strict_parse (lmms-eval 0.7.3), for options A to E
STRICT_TABLE = [
    ("B", "B"),
    (" B", "B"),  # stripped
    ("B\n", "B"),
    ("b", "B"),  # lower case compared
    ("B.", "B"),  # capital and period
    ("B. 4:0", "B"),
    ("b. 4:0", None),  # the period rule wants a capital
    ("F. 4:0", None),  # a capital that is no option
    ("(B)", None),
    ("B)", None),
    ("The answer is B", None),
    ("Answer: B", None),
    ("**B**", None),
    ("", None),
    ("BA", None),
    ("B,", None),
]


@pytest.mark.parametrize(("reply", "letter"), STRICT_TABLE)
def test_strict_parse_is_lmms_eval_0_7_3(reply: str, letter: str | None) -> None:
    assert parse_option_letter(reply, FIVE, strict=True).letter == letter


# Lower case, not upper case, is compared (lmms-eval 0.7.3): three characters decide it,
# with enough options. The Kelvin sign lower-cases to 'k'; 'ı' and 'ſ' upper-case to
# 'I' and 'S' but lower-case to themselves.
UNICODE_TABLE = [
    ("\u212a", "K"),
    ("\u212a. kelvin", "K"),
    ("\u0131", None),
    ("\u017f", None),
]


@pytest.mark.parametrize(("reply", "letter"), UNICODE_TABLE)
def test_case_is_compared_in_lower_case(reply: str, letter: str | None) -> None:
    all_letters = list(string.ascii_uppercase)
    for strict in (True, False):
        assert parse_option_letter(reply, all_letters, strict=strict).letter == letter
