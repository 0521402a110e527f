"""The offline oracle answers TriviaQA with the canonical answer (``answer.value``), which a
reader of the log recognises, and falls back to an alias only where the stop sequences
would cut the canonical answer."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.catalog import spec
from benchmarks.data.triviaqa import oracle_questions

SAMPLE = Path(spec("triviaqa").bundled_sample) / "validation.jsonl"


def test_the_oracle_replies_with_the_canonical_answer() -> None:
    replies = {q.keys[0]: q.reply for q in oracle_questions({"validation": str(SAMPLE)})}
    duke = (
        "Question: In the Shakespeare play ‘The Tempest’, Prospero is the overthrown Duke of "
        "‘where’?"
    )
    # the first alias is "The weather in Milan"
    assert replies[duke] == "Milan"
    values = [json.loads(line)["answer"]["value"] for line in SAMPLE.read_text().splitlines()]
    assert list(replies.values()) == values


def test_an_answer_the_stop_sequences_would_cut_gives_the_first_whole_alias(
    tmp_path: Path,
) -> None:
    rows = [
        {
            "question": "Q1",
            "answer": {"value": "Dieppe, France", "aliases": ["Dieppe, F", "Dieppe"]},
        },
        {"question": "Q2", "answer": {"value": "St. Louis", "aliases": ["St. Louis, MO"]}},
    ]
    path = tmp_path / "validation.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    replies = [q.reply for q in oracle_questions({"validation": str(path)})]
    assert replies == ["Dieppe", "St. Louis"]
