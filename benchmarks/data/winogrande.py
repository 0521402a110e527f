"""Winogrande's data: the pinned Hub dataset, the columns a question needs, a row as a
sample, the train split's rows as demonstrations (drawn while the dataset is loaded:
``SeededDraws``, or ``ShuffledHeadDraws`` under ``fewshot_draw=hf_shuffle``), the questions
for log-likelihood scoring, and the offline models' rules (the bundled questions the oracle
answers, the prompts the random model answers with a letter)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspect_ai.dataset import Dataset, MemoryDataset, Sample

from benchmarks.data.fewshot_draws import (
    FEWSHOT_DELIMITER,
    FEWSHOT_KEY,
    DemonstrationPool,
    LmEvalDraws,
    SeededDraws,
    ShuffledHeadDraws,
)
from benchmarks.data.records import REQUESTS_KEY, field
from benchmarks.data.rows import local_records
from benchmarks.data.source import DataSource, HubDataset, samples_dataset
from benchmarks.profiles.winogrande import WinograndeProfile
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
# The train split's rows as demonstrations: ``question``, ``choices``, ``answer``.
WinograndeDemonstrations = DemonstrationPool[dict[str, Any]]


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
        draw = DRAWS[settings.fewshot_draw]
        draws = draw(
            len(pool), settings.shots, settings.fewshot_seed, where=f"winogrande: {pool.where}"
        )
        demonstrations = WinograndeDemonstrations(pool, draws, demonstration)

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


def demonstration(record: dict[str, Any]) -> dict[str, Any]:
    sentence, options, letter = read_question(record)
    return {"question": sentence, "choices": options, "answer": letter}


def oracle_questions(files: Mapping[str, str]) -> list[KnownQuestion]:
    """The bundled questions: known by the sentence and both options; answered as asked (by
    log-likelihood: the sentence with the right option put in is the likely one)."""
    questions = []
    for _, row in local_records(Path(files["validation"])):
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


# ---------------------------------------------------------------------------
# Log-likelihood scoring: lm-evaluation-harness 0.4.13's ``winogrande`` "partial evaluation"
# (tasks/winogrande/preprocess_winogrande.py; docs/winogrande.md): for each option the
# context is the sentence up to the blank with the option put in, the continuation the rest
# after the blank (" " + rest.strip()). Demonstrations are solved sentences (the gold option
# put in), each followed by FEWSHOT_DELIMITER, before the context, drawn by LmEvalDraws.


def read_sentence(record: Mapping[str, Any]) -> tuple[str, str, list[str], int]:
    """The text before the blank, the rest after it (stripped), the options, the gold index."""
    sentence = record.get("sentence")
    if not isinstance(sentence, str) or "_" not in sentence:
        raise ValueError(f"field 'sentence' should hold a blank '_', got {sentence!r:.60}")
    options = [record.get("option1"), record.get("option2")]
    if not all(isinstance(option, str) for option in options):
        raise ValueError(f"fields 'option1' and 'option2' should be text, got {options!r:.60}")
    gold = {"1": 0, "2": 1}.get(record.get("answer"))  # type: ignore[arg-type]
    if gold is None:
        raise ValueError(f"field 'answer' should be '1' or '2', got {record.get('answer')!r:.60}")
    blank = sentence.index("_")
    return sentence[:blank], sentence[blank + 1 :].strip(), options, gold  # type: ignore[return-value]


def option_requests(record: Mapping[str, Any], prefix: str) -> list[list[str]]:
    """``[context, continuation]`` for each option of the row."""
    before, after, options, _ = read_sentence(record)
    return [[prefix + before + option, " " + after] for option in options]


def solved_sentence(record: dict[str, Any]) -> str:
    before, after, options, gold = read_sentence(record)
    return before + options[gold] + " " + after


def loglikelihood_dataset(
    source: DataSource,
    request: dict[str, Any],
    eval_split: str,
    num_examples: int | None,
    *,
    shots: int,
    fewshot_seed: int,
) -> Dataset:
    """The questions, each carrying its options' ``[context, continuation]`` requests (and
    the ``shots`` demonstrations drawn before them) for ``option_loglikelihoods``."""
    eval_rows = source.rows(eval_split, **request, row_hash=shots > 0)
    demonstrations = None
    if shots > 0:
        pool = source.rows(FEWSHOT_SPLIT, **request, row_hash=True)
        draws = LmEvalDraws(pool, eval_rows, shots, fewshot_seed, where=f"winogrande: {pool.where}")
        demonstrations = DemonstrationPool(pool, draws, solved_sentence)

    def build(row: int, record: dict[str, Any]) -> Sample:
        sample = record_to_sample(record, f"{eval_split}_{row}")
        assert sample.metadata is not None
        drawn, prefix = [], ""
        if demonstrations is not None:
            drawn = demonstrations.draws.for_question(row)
            prefix = "".join(demonstrations[index] + FEWSHOT_DELIMITER for index in drawn)
        sample.metadata[FEWSHOT_KEY] = drawn
        sample.metadata[REQUESTS_KEY] = option_requests(record, prefix)
        return sample

    return samples_dataset(
        eval_rows, build, name=f"{request['config']}_{eval_split}", num_examples=num_examples
    )
