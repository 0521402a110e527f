"""Short-answer extraction, normalization and matching for open QA.

``normalize_answer`` and ``token_f1`` follow the official TriviaQA evaluation
script (mandarjoshi90/triviaqa ``evaluation/triviaqa_evaluation.py``), itself
extended from SQuAD v1.1's: underscores to spaces, lowercase, ASCII punctuation
and the quotes ‘ ’ ´ ` replaced by a space, the articles a/an/the removed,
whitespace collapsed.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable
from typing import Literal

AnswerExtraction = Literal["stop_sequences", "first_line"]

ANSWER_EXTRACTIONS: tuple[AnswerExtraction, ...] = ("stop_sequences", "first_line")

_PUNCTUATION = frozenset(string.punctuation + "‘’´`")
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_STOP = re.compile(r"[\n.,]")


def normalize_answer(text: str) -> str:
    text = text.replace("_", " ").lower()
    text = "".join(" " if ch in _PUNCTUATION else ch for ch in text)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split()).strip()


def token_f1(prediction: str, ground_truth: str) -> float:
    prediction_tokens = normalize_answer(prediction).split()
    truth_tokens = normalize_answer(ground_truth).split()
    common = Counter(prediction_tokens) & Counter(truth_tokens)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision = same / len(prediction_tokens)
    recall = same / len(truth_tokens)
    return 2 * precision * recall / (precision + recall)


def extract_short_answer(reply: str, mode: AnswerExtraction = "stop_sequences") -> str:
    """The answer part of a completion.

    ``stop_sequences`` strips the reply and cuts it at the first newline,
    period or comma (the stop sequences of lm-evaluation-harness; ``U.S.``
    becomes ``U``). ``first_line`` keeps the whole first non-blank line.
    """
    text = reply.strip()
    if mode == "stop_sequences":
        return _STOP.split(text, maxsplit=1)[0].strip()
    return text.split("\n", 1)[0].strip()


def best_match(prediction: str, aliases: Iterable[str], *, normalized: bool) -> str | None:
    """The first alias that ``prediction`` matches exactly, or None.

    With ``normalized`` both sides go through ``normalize_answer`` (the official
    rule); otherwise the comparison is case-sensitive and literal.
    """
    candidate = normalize_answer(prediction) if normalized else prediction
    for alias in aliases:
        if (normalize_answer(alias) if normalized else alias) == candidate:
            return alias
    return None


def max_token_f1(prediction: str, ground_truths: Iterable[str]) -> float:
    return max((token_f1(prediction, truth) for truth in ground_truths), default=0.0)
