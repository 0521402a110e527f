"""TriviaQA: ``triviaqa/{train,validation}.{parquet,jsonl}`` in the schema of
``mandarjoshi/trivia_qa`` config ``rc.wikipedia.nocontext`` (the parquet carries the
``datasets`` features, as the Hub's parquet does), with unique ``question_id``s in the
upstream prefixes."""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bench.common.data_files import read_jsonl, write_jsonl, write_parquet
from bench.common.synthetic_text import NAME_PARTS, VOCABULARY, cycle, words
from bench.workloads import Case, Workload

TRAIN = "triviaqa/train"
VALIDATION = "triviaqa/validation"
# TriviaQA is read from parquet: with a warm cache .jsonl and .parquet load
# alike (~0.01 s a split), cold the parquet is ten times faster, and it keeps
# the upstream feature types (JSON infers list<null> for the empty lists).
FORMAT = "parquet"

# question_id prefixes of the TriviaQA sources and the site each came from.
SOURCES = {
    "tc": "http://www.triviacountry.com/",
    "qb": "http://www.quizballs.com/",
    "qf": "http://www.quiz-zone.co.uk/",
    "qg": "http://www.quizguy.com/",
    "qw": "http://www.quizwise.com/",
    "qz": "http://www.quiz-zone.co.uk/",
    "sfq": "http://www.sfquiz.org.uk/",
    "dpql": "http://www.quizwise.com/",
    "odql": "http://www.odquiz.org.uk/",
    "bt": "http://www.businessballs.com/",
    "wh": "http://www.wrexhamquiz.co.uk/",
    "jp": "http://www.jetpunk.com/",
    "bb": "http://www.businessballs.com/",
}


def features() -> Any:
    """Features of ``rc.wikipedia.nocontext`` as the Hub builder declares them."""
    from datasets import Features, List, Value

    text = Value("string")
    return Features(
        {
            "question": text,
            "question_id": text,
            "question_source": text,
            "entity_pages": {
                "doc_source": List(text),
                "filename": List(text),
                "title": List(text),
                "wiki_context": List(text),
            },
            "search_results": {
                "description": List(text),
                "filename": List(text),
                "rank": List(Value("int32")),
                "title": List(text),
                "url": List(text),
                "search_context": List(text),
            },
            "answer": {
                "aliases": List(text),
                "normalized_aliases": List(text),
                "matched_wiki_entity_name": text,
                "normalized_matched_wiki_entity_name": text,
                "normalized_value": text,
                "type": text,
                "value": text,
            },
        }
    )


def _alias_count(rng: random.Random) -> int:
    # Real rc.wikipedia rows: median 8 aliases, mean 14, long tail to ~180.
    return max(1, min(180, round(rng.lognormvariate(math.log(8), 0.95))))


def synthetic_pool(rng: random.Random, size: int = 600) -> list[dict[str, Any]]:
    from benchmarks.scorers.answer_matching import normalize_answer

    pool = []
    for _ in range(size):
        head = rng.choice(("Which", "What", "Who", "In which", "Where"))
        question = f"{head} {words(rng, 6, 18)}?"
        base = " ".join(rng.choice(NAME_PARTS + list(VOCABULARY)) for _ in range(rng.randint(1, 3)))
        aliases = [base.title()]
        while len(aliases) < _alias_count(rng):
            aliases.append(f"{base} {words(rng, 0, 2)}".strip().title())
        normalized = list(dict.fromkeys(normalize_answer(alias) for alias in aliases))
        pool.append(row(question, aliases, normalized, aliases[0], normalize_answer(aliases[0])))
    return pool


def row(
    question: str, aliases: list[str], normalized: list[str], value: str, normalized_value: str
) -> dict[str, Any]:
    return {
        "question": question,
        "question_id": "",
        "question_source": "",
        "entity_pages": {"doc_source": [], "filename": [], "title": [], "wiki_context": []},
        "search_results": {
            "description": [],
            "filename": [],
            "rank": [],
            "title": [],
            "url": [],
            "search_context": [],
        },
        "answer": {
            "aliases": aliases,
            "normalized_aliases": normalized,
            "matched_wiki_entity_name": "",
            "normalized_matched_wiki_entity_name": "",
            "normalized_value": normalized_value,
            "type": "WikipediaEntity",
            "value": value,
        },
    }


def splits(
    pool: list[dict[str, Any]], sizes: Mapping[str, int], rng: random.Random
) -> dict[str, list[dict[str, Any]]]:
    """Rows of each split cycled from ``pool``, under fresh ids of the upstream sources."""
    counters = dict.fromkeys(SOURCES, 0)
    prefixes = list(SOURCES)
    result: dict[str, list[dict[str, Any]]] = {}
    for split in ("train", "validation"):
        rows = []
        for source in cycle(pool, sizes[split], rng):
            copied = copy.deepcopy(source)
            prefix = rng.choice(prefixes)
            counters[prefix] += rng.randint(1, 7)
            copied["question_id"] = f"{prefix}_{counters[prefix]}"
            copied["question_source"] = SOURCES[prefix]
            rows.append(copied)
        result[split] = rows
    return result


def files(sizes: Mapping[str, int]) -> dict[str, tuple[int, int | None]]:
    return {
        f"{stem}.{suffix}": (sizes[split], None)
        for split, stem in (("train", TRAIN), ("validation", VALIDATION))
        for suffix in ("parquet", "jsonl")
    }


def write(
    out_dir: Path, sizes: Mapping[str, int], rng: random.Random, seed_dir: Path | None, seed: int
) -> str:
    if seed_dir is None:
        pool, origin = synthetic_pool(rng), "synthetic vocabulary"
    else:
        folder = seed_dir / "triviaqa"
        pool = [
            *read_jsonl(folder / "validation.hf.jsonl"),
            *read_jsonl(folder / "train.hf.jsonl"),
            *read_jsonl(folder / "validation_converted.hf.jsonl"),
        ]
        origin = f"real rows of {folder}"
    (out_dir / "triviaqa").mkdir(parents=True, exist_ok=True)
    for split, rows in splits(pool, sizes, rng).items():
        stem = TRAIN if split == "train" else VALIDATION
        write_parquet(out_dir / f"{stem}.parquet", rows, features())
        write_jsonl(out_dir / f"{stem}.jsonl", rows)
    return origin


def task_args(data: Path) -> dict[str, Any]:
    return {
        "data_files": {
            "validation": str(data / f"{VALIDATION}.{FORMAT}"),
            "train": str(data / f"{TRAIN}.{FORMAT}"),
        }
    }


WORKLOAD = Workload(
    benchmark="triviaqa",
    sizes={"train": 61_888, "validation": 7_993},
    files=files,
    write=write,
    cases=(Case("triviaqa", "triviaqa", task_args, reply="Sunset Boulevard", part="validation"),),
)
