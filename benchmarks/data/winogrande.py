"""Winogrande's data: the pinned Hub dataset, the columns a question needs, a row as a
sample, the train split's rows as demonstrations (drawn while the dataset is loaded:
``SeededDraws``, or ``ShuffledHeadDraws`` under ``fewshot_draw=hf_shuffle``), and the
offline models' rules (the bundled questions the oracle answers, the prompts the random
model answers with a letter)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample

from benchmarks.data.fewshot_draws import FEWSHOT_KEY, SeededDraws, ShuffledHeadDraws
from benchmarks.data.records import field, field_problem
from benchmarks.data.rows import Rows
from benchmarks.data.samples import jsonl_records
from benchmarks.data.source import DataSource, HubDataset, samples_dataset
from benchmarks.profiles.winogrande import FewshotDraw, WinograndeProfile
from benchmarks.runtime.errors import DataError
from benchmarks.spec import KnownQuestion

DATASET = HubDataset(
    "allenai/winogrande",
    revision="01e74176c63542e6b0bcb004dcdea22d94fb67b5",
    pinned_by="inspect_evals 0.28.0 (`winogrande/winogrande.py`) and "
    "Aleph-Alpha-Research/eval-framework",
)
COLUMNS = ("sentence", "option1", "option2", "answer")
ANSWER_LETTERS = {"1": "A", "2": "B"}
# "... where LETTER is one of A,B." in evalscope's template and in Inspect's
# multiple_choice() template (prompt_format=inspect_evals)
LETTERS_OFFERED = re.compile(r"is one of ((?:[A-Z],)*[A-Z])\.")
FEWSHOT_SPLIT = "train"
DRAWS: dict[str, type[SeededDraws]] = {"per_question": SeededDraws, "hf_shuffle": ShuffledHeadDraws}


def winogrande_dataset(
    source: DataSource,
    settings: WinograndeProfile,
    config: str,
    eval_split: str,
    num_examples: int | None,
) -> tuple[MemoryDataset, WinograndeDemonstrations | None]:
    """The questions of ``eval_split`` (``<split>_<row>``), each with the demonstrations
    drawn for it (if any), and the pool they come from."""
    request: dict[str, Any] = {
        "columns": COLUMNS,
        "config": config,
        "single_file_split": eval_split,
    }
    demonstrations = None
    if settings.shots > 0:
        pool = source.rows(FEWSHOT_SPLIT, **request)
        demonstrations = WinograndeDemonstrations(
            pool, settings.shots, settings.fewshot_seed, settings.fewshot_draw
        )

    def build(row: int, record: dict[str, Any]) -> Sample:
        sample = record_to_sample(record, sample_id=f"{eval_split}_{row}")
        if demonstrations is not None:
            assert sample.metadata is not None
            sample.metadata[FEWSHOT_KEY] = demonstrations.drawn(row)
        return sample

    dataset = samples_dataset(
        source.rows(eval_split, **request),
        build,
        name=f"{config}_{eval_split}",
        num_examples=num_examples,
    )
    return dataset, demonstrations


def record_to_sample(record: dict[str, Any], sample_id: str) -> Sample:
    """One question: the sentence, its two options, the target letter."""
    sentence, options, letter = read_question(record)
    return Sample(id=sample_id, input=sentence, choices=options, target=letter, metadata={})


def read_question(record: dict[str, Any]) -> tuple[str, list[str], str]:
    """The sentence, the two options and the target letter of one row."""
    sentence = _non_empty_string(record, "sentence")
    options = [_non_empty_string(record, "option1"), _non_empty_string(record, "option2")]
    answer = record.get("answer")
    letter = ANSWER_LETTERS.get(answer) if isinstance(answer, str) else None
    if letter is None:
        hint = " (answers are empty in the test split)" if answer == "" else ""
        raise ValueError(f"field 'answer' should be '1' or '2', got {answer!r:.60}{hint}")
    return sentence, options, letter


def oracle_questions(files: Mapping[str, str]) -> list[KnownQuestion]:
    """The bundled questions: known by the sentence and both options; answered as asked (by
    log-likelihood: the sentence with the right option put in is the likely one)."""
    questions = []
    for row in jsonl_records(files["validation"]):
        sentence, options, letter = read_question(row)
        before, _, after = sentence.partition("_")
        # the sentence's text on each side of the blank, found whether the prompt keeps the
        # `_` or writes it `[BLANK]` (prompt_format=inspect_evals); the longer first (ranked)
        parts = sorted((p for p in row["sentence"].split("_") if p.strip()), key=len, reverse=True)
        questions.append(
            KnownQuestion(
                (*parts, row["option1"], row["option2"]),
                f"ANSWER: {letter}",
                likely=f"{before}{options['AB'.index(letter)]} {after.strip()}",
            )
        )
    return questions


def offered_letters(prompt: str) -> list[str]:
    """The letters the prompt's ``ANSWER: [LETTER]`` instruction offers (none: another
    kind of prompt)."""
    offered = LETTERS_OFFERED.search(prompt)
    return offered.group(1).split(",") if offered is not None else []


def _non_empty_string(record: dict[str, Any], name: str) -> str:
    value = field(record, name, str)
    if not value.strip():
        raise ValueError(f"field {name!r} is empty")
    return value


class WinograndeDemonstrations(Mapping[int, dict[str, Any]]):
    """The train split's rows as demonstrations (``question``, ``choices``, ``answer``),
    and the draw of each evaluated question (``draw``: a rule of ``DRAWS``)."""

    def __init__(
        self, rows: Rows, shots: int, seed: int, draw: FewshotDraw = "per_question"
    ) -> None:
        self.rows = rows
        self.draws = DRAWS[draw](len(rows), shots, seed, where=f"winogrande: {rows.where}")

    def drawn(self, position: int) -> list[int]:
        """The demonstrations of the question at ``position``, each read and checked."""
        indices = self.draws.for_question(position)
        for index in indices:
            self[index]
        return indices

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.rows)))

    def __getitem__(self, index: int) -> dict[str, Any]:
        try:
            sentence, options, letter = read_question(self.rows.record(index))
        except (KeyError, TypeError, ValueError) as ex:
            if isinstance(ex, DataError):
                raise
            raise DataError(f"{self.rows.at(index)}: {field_problem(ex)}") from ex
        return {"question": sentence, "choices": options, "answer": letter}
