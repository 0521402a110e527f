"""Short-answer extraction, normalization and matching for open QA.

``normalize_answer`` and ``max_token_f1`` follow the official TriviaQA evaluation
script (mandarjoshi90/triviaqa ``evaluation/triviaqa_evaluation.py``);
``extract_short_answer(..., "lm_eval")`` and ``lm_eval_exact_match`` are
lm-evaluation-harness 0.4.13's TriviaQA filter and metric (docs/triviaqa.md; file:line
references are to its ``lm_eval`` package).
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence

from benchmarks.profiles.triviaqa import AnswerExtraction

# Logs written before 1.4.0 name lm_eval "lm_eval_harness"; re-scoring them still works.
FORMER_EXTRACTIONS = {"lm_eval_harness": "lm_eval"}

PUNCTUATION = string.punctuation + "‘’´`"
# Each punctuation character (the underscore among them) to a space, in one
# str.translate rather than a test per character: the scorer runs per sample.
_PUNCTUATION_TO_SPACE = str.maketrans(dict.fromkeys(PUNCTUATION, " "))
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_STOP = re.compile(r"[\n.,]")
# Sent to the server so a reply ends where the extraction would cut it anyway
# (lm-evaluation-harness sends them as ``until``); the extraction still cuts the
# reply, for servers that ignore ``stop``. first_line keeps "U.S.".
STOP_SEQUENCES: dict[str, list[str]] = {
    "stop_sequences": ["\n", ".", ","],
    "lm_eval": ["\n", ".", ","],
    "first_line": ["\n"],
}


def normalize_answer(text: str) -> str:
    text = text.lower().translate(_PUNCTUATION_TO_SPACE)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def _token_f1(prediction_counts: Counter[str], ground_truth: str) -> float:
    truth_tokens = normalize_answer(ground_truth).split()
    same = sum((prediction_counts & Counter(truth_tokens)).values())
    if same == 0:
        return 0.0
    precision = same / prediction_counts.total()
    recall = same / len(truth_tokens)
    return 2 * precision * recall / (precision + recall)


def extract_short_answer(reply: str, mode: AnswerExtraction = "stop_sequences") -> str:
    """The answer part of a completion (``answer_extraction`` on docs/triviaqa.md).

    ``lm_eval`` cuts the raw reply at the first stop sequence (where a server honouring
    ``stop`` ends it; lm-evaluation-harness's client cuts nothing itself,
    ``models/openai_completions.py`` 214-230), then strips it (``remove_whitespace``,
    ``filters/extraction.py`` 109-119), so a reply starting with a newline is empty.
    """
    mode = FORMER_EXTRACTIONS.get(mode, mode)  # type: ignore[assignment]
    if mode == "lm_eval":
        return _STOP.split(reply, maxsplit=1)[0].strip()
    text = reply.strip()
    if mode == "stop_sequences":
        return _STOP.split(text, maxsplit=1)[0].strip()
    return text.split("\n", 1)[0].strip()


_DELETE_PUNCTUATION = str.maketrans("", "", string.punctuation)


def lm_eval_exact_match(prediction: str, references: Sequence[str]) -> str | None:
    """The first reference that lm-evaluation-harness 0.4.13's ``exact_match``
    (``ignore_case``, ``ignore_punctuation``) counts as equal to ``prediction``.

    It compares numpy string arrays (``api/task.py`` 1597-1607, ``api/metrics.py``
    234-266): ``np.char.lower``, ASCII punctuation deleted, ``==``. An array is as wide as
    its longest string and cuts a lowercase that grows (``İ`` is two code points) to that
    width, so the reply ``İstanbul`` can miss the alias ``İstanbul`` (docs/triviaqa.md).
    """
    if not references:
        return None
    [predicted] = _numpy_lower([prediction])
    for reference, lowered in zip(references, _numpy_lower(references), strict=True):
        if lowered.translate(_DELETE_PUNCTUATION) == predicted.translate(_DELETE_PUNCTUATION):
            return reference
    return None


def _numpy_lower(texts: Sequence[str]) -> list[str]:
    """``np.char.lower(np.asarray(texts))`` as Python strings (numpy drops trailing NULs)."""
    width = max(len(text) for text in texts)
    return [text.rstrip("\0").lower()[:width] for text in texts]


def normalized_match(prediction: str, aliases: Iterable[str]) -> str | None:
    """The first alias equal to ``prediction`` once both are normalized."""
    candidate = normalize_answer(prediction)
    for alias in aliases:
        if normalize_answer(alias) == candidate:
            return alias
    return None


def max_token_f1(prediction: str, ground_truths: Iterable[str]) -> float:
    """The best official token F1 over the ground truths (the prediction normalized once)."""
    prediction_counts = Counter(normalize_answer(prediction).split())
    return max((_token_f1(prediction_counts, truth) for truth in ground_truths), default=0.0)
