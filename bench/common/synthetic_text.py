"""Text for the generated rows when no real rows are at hand: a built-in vocabulary.

A pool is a list of source rows a generator cycles through: real rows when
``../shared/data`` is present, otherwise rows made from these words.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

VOCABULARY = (
    "river mountain king queen city island ocean novel painter composer battle treaty "
    "planet element metal flower bird horse country capital language author film song "
    "opera poet empire bridge castle tower desert forest lake valley harbour railway "
    "festival museum cathedral village county province dynasty revolution invention "
    "engine rocket satellite comet galaxy atom molecule protein virus organ muscle bone "
    "colour number letter alphabet symbol flag coin stamp medal trophy league team player "
    "season winter summer spring autumn morning evening north south east west ancient "
    "modern famous first last largest smallest highest longest oldest youngest national "
    "royal golden silver red blue green black white great little new old holy grand"
).split()
NAME_PARTS = (
    "Adams Baker Clarke Davies Evans Foster Grant Hughes Irving Jones Kelly Lewis Morgan "
    "Nolan Owens Parker Quinn Roberts Scott Turner Walker Young Sarah Maria James Robert "
    "Linda Michael Emily Daniel Laura Kevin Jessica Brian Rachel Victoria Samuel Natalie"
).split()


def words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(low, high)))


def sentence(rng: random.Random, low: int, high: int) -> str:
    text = words(rng, low, high)
    return text[:1].upper() + text[1:] + "."


def paragraph(rng: random.Random, chars: int) -> str:
    sentences: list[str] = []
    while sum(len(s) + 1 for s in sentences) < chars:
        sentences.append(sentence(rng, 5, 16))
    return "\n".join(sentences)


def cycle(pool: Sequence[Any], count: int, rng: random.Random) -> Iterator[Any]:
    """``pool`` in order when it has exactly ``count`` rows, else random draws from it."""
    if len(pool) == count:
        yield from pool
        return
    for _ in range(count):
        yield rng.choice(pool)
