"""Winogrande rows built to reach the edges of lm-evaluation-harness's log-likelihood code.

None of the 1,267 real rows reaches them under the scripted tokenizer
(tests/completions_server.py): no context (the sentence up to the blank, the option put
in) ends in whitespace or in a one-character token, no two options tie, no prompt is
longer than the 2,047 tokens lm-evaluation-harness keeps. The rows below do, each kind
more than once; ``edge_kinds()`` counts which rows reach which edge, measured with the
scripted tokenizer (not taken from the row's label), so a row that stops reaching its
edge shows in the count.

- contexts ending in one or more spaces, or in a newline: ``_encode_pair`` moves the
  trailing whitespace into the continuation (``local-completions``); ``gguf`` splits the
  one string where the context ends, inside or after the whitespace token;
- a context whose last token is one character: ``gguf``'s split by ``text_offset`` is
  off by one only there;
- options that tie exactly (the same last context token, the same continuation): the
  first option wins (``np.argmax``), with the gold option first and second;
- a sentence longer than 2,047 tokens: the request is left-truncated;
- continuations of one token and of many.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.completions_server import Tokenizer

MAX_LENGTH = 2047
# A filler of plain words for the long sentence: one token each under the scripted tokenizer.
WORDS = ("the", "old", "river", "ran", "past", "a", "quiet", "town", "and", "its", "mill")


def row(sentence: str, option1: str, option2: str, answer: str) -> dict[str, str]:
    return {"sentence": sentence, "option1": option1, "option2": option2, "answer": answer}


def long_sentence(words: int) -> str:
    filler = " ".join(WORDS[i % len(WORDS)] for i in range(words))
    return f"{filler.capitalize()}, until _ stopped it."


EDGE_ROWS = [
    # contexts ending in one space, in several, in a newline (alone and after spaces)
    row(
        "The trophy does not fit in the case because _ is too big.", "the trophy ", "the case ", "1"
    ),
    row("The cup fell off the shelf because _ was tilted.", "the shelf   ", "the cup  ", "1"),
    row("Anna lent Beth a pen because _ had two.", "Anna\n", "Beth\n", "1"),
    row("The lamp lit the room since _ was dark.", "the lamp \n", "the room\n", "2"),
    # contexts whose last token is one character: punctuation, a letter after a bracket
    row(
        "Pick the word (_) that fits best in the sentence the teacher wrote on the board today.",
        "a",
        "b",
        "2",
    ),
    row("Tom called Ben, since _ had the keys.", "Tom,", "Ben.", "2"),
    row("The code was A-_ and it worked.", "4", "7", "1"),
    # ties: the same last context token and continuation, gold first and gold second
    row("Of the two, _ held the most water.", "the red box", "the blue box", "1"),
    row("Of the two, _ weighed the least.", "the red box", "the blue box", "2"),
    # continuations of one token, and of many
    row("The dog barked at the cat, so I went to _.", "the dog", "the cat", "2"),
    row(
        "The suitcase held the trophy because _ was the larger one of the two things she "
        "had bought at the market on the morning of the fair in the old town square.",
        "the suitcase",
        "the trophy",
        "1",
    ),
    # longer than 2,047 tokens: left-truncated (a one-token and a many-token continuation)
    row(long_sentence(2400), "the dam", "the mill", "1"),
    row(long_sentence(2100).replace(" stopped it.", "."), "the dam", "the mill", "2"),
]


def encode_pair(context: str, continuation: str) -> tuple[list[str], list[str]]:
    """The context's and continuation's tokens as ``local-completions`` makes them
    (trailing whitespace moved, the whole and the context tokenized apart)."""
    spaces = len(context) - len(context.rstrip())
    if spaces:
        context, continuation = context[:-spaces], context[-spaces:] + continuation
    tokenizer = Tokenizer()
    whole = [tokenizer.pieces[i] for i in tokenizer.encode(context + continuation)]
    context_tokens = [tokenizer.pieces[i] for i in tokenizer.encode(context)]
    return context_tokens, whole[len(context_tokens) :]


def last_context_token(context: str, continuation: str) -> str:
    """The token of the one string (``gguf``) that ends where the context ends."""
    tokenizer = Tokenizer()
    end = 0
    for piece in (tokenizer.pieces[i] for i in tokenizer.encode(context + continuation)):
        end += len(piece)
        if end >= len(context):
            return piece
    return ""


def requests_of(record: dict[str, str]) -> list[tuple[str, str]]:
    """lm-evaluation-harness's winogrande requests of a row (its ``preprocess_winogrande``)."""
    blank = record["sentence"].index("_")
    after = " " + record["sentence"][blank + 1 :].strip()
    return [(record["sentence"][:blank] + record[key], after) for key in ("option1", "option2")]


def edge_kinds(rows: list[dict[str, Any]], loglikelihoods: list[list[float]]) -> Counter[str]:
    """How many rows reach each edge (a row counts once a kind)."""
    kinds: Counter[str] = Counter()
    for record, lls in zip(rows, loglikelihoods, strict=True):
        found = set()
        for context, continuation in requests_of(record):
            context_tokens, continuation_tokens = encode_pair(context, continuation)
            if context.endswith(" "):
                found.add("contexts ending in spaces")
            if context.endswith("\n"):
                found.add("in a newline")
            if len(last_context_token(context, continuation)) == 1:
                found.add("last context token one character")
            if len(context_tokens) + len(continuation_tokens) > MAX_LENGTH:
                found.add("prompts over 2,047 tokens")
            if len(continuation_tokens) == 1:
                found.add("one-token continuations")
            if len(continuation_tokens) >= 10:
                found.add("continuations of 10+ tokens")
        if lls[0] == lls[1]:
            found.add("exact ties")
        kinds.update(found)
    return kinds


KINDS = (
    "contexts ending in spaces",
    "in a newline",
    "last context token one character",
    "exact ties",
    "prompts over 2,047 tokens",
    "one-token continuations",
    "continuations of 10+ tokens",
)


def describe(kinds: Counter[str]) -> str:
    return ", ".join(f"{kind} {kinds[kind]}" for kind in KINDS)
