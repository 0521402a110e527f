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
from collections.abc import Callable, Iterable
from typing import Literal

AnswerExtraction = Literal["stop_sequences", "first_line", "lm_eval_harness"]

ANSWER_EXTRACTIONS: tuple[AnswerExtraction, ...] = (
    "stop_sequences",
    "first_line",
    "lm_eval_harness",
)

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
    ``lm_eval_harness`` is that harness to the letter: the raw reply cut at
    the first stop sequence (where generation would have stopped), then one
    leading space removed (its ``remove_whitespace`` filter), so a reply
    starting with a newline is empty.
    """
    if mode == "lm_eval_harness":
        cut = _STOP.split(reply, maxsplit=1)[0]
        return cut[1:] if cut.startswith(" ") else cut
    text = reply.strip()
    if mode == "stop_sequences":
        return _STOP.split(text, maxsplit=1)[0].strip()
    return text.split("\n", 1)[0].strip()


_DELETE_PUNCTUATION = str.maketrans("", "", string.punctuation)


def lm_eval_exact_form(text: str) -> str:
    """Text as lm-evaluation-harness's ``exact_match`` compares it with
    ``ignore_case`` and ``ignore_punctuation``: lowercased, ASCII punctuation
    deleted (not replaced by a space), nothing else."""
    return text.lower().translate(_DELETE_PUNCTUATION)


def best_match(
    prediction: str, aliases: Iterable[str], comparable: Callable[[str], str]
) -> str | None:
    """The first alias equal to ``prediction`` once both are passed through ``comparable``."""
    candidate = comparable(prediction)
    for alias in aliases:
        if comparable(alias) == candidate:
            return alias
    return None


def max_token_f1(prediction: str, ground_truths: Iterable[str]) -> float:
    return max((token_f1(prediction, truth) for truth in ground_truths), default=0.0)
