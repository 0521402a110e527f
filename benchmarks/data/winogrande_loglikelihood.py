"""Winogrande's questions for log-likelihood scoring, as lm-evaluation-harness 0.4.13's
``winogrande`` makes them.

Its "partial evaluation" (``tasks/winogrande/preprocess_winogrande.py``): for
each option the context is the sentence up to the blank with the option put
in, the continuation is the rest of the sentence after the blank (`` " " +
rest.strip()``), and the option whose continuation is the more likely wins.
Demonstrations are solved sentences (the gold option put in), each followed
by ``"\\n\\n"``, before the context; they are drawn as its ``ContextSampler``
draws for a task that names neither ``fewshot_split`` nor ``test_split``
(``LmEvalDraws``: ``shots + 1`` from the train split with one
``random.Random(1234)``, the rows equal to the evaluated one removed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from inspect_ai.dataset import Dataset, Sample

from benchmarks.data.fewshot_draws import (
    FEWSHOT_DELIMITER,
    FEWSHOT_KEY,
    IdenticalRows,
    LmEvalDraws,
)
from benchmarks.data.records import REQUESTS_KEY, field_problem
from benchmarks.data.rows import Rows
from benchmarks.data.source import DataSource, samples_dataset
from benchmarks.runtime.errors import DataError


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


class LoglikelihoodDemonstrations(Mapping[int, str]):
    """The train rows as solved sentences, drawn as lm-evaluation-harness draws them."""

    def __init__(self, pool: Rows, eval_rows: Rows, shots: int, seed: int) -> None:
        self.pool = pool
        copies = IdenticalRows(eval_rows.records, pool.records)
        self.draws = LmEvalDraws(len(pool), shots, seed, copies, where=f"winogrande: {pool.where}")

    def prefix(self, position: int) -> tuple[list[int], str]:
        """The drawn rows of the question at ``position``, and the text they make."""
        drawn = self.draws.for_question(position)
        return drawn, "".join(self[index] + FEWSHOT_DELIMITER for index in drawn)

    def __len__(self) -> int:
        return len(self.pool)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.pool)))

    def __getitem__(self, index: int) -> str:
        try:
            before, after, options, gold = read_sentence(self.pool.record(index))
        except (KeyError, TypeError, ValueError) as ex:
            if isinstance(ex, DataError):
                raise
            raise DataError(f"{self.pool.at(index)}: {field_problem(ex)}") from ex
        return before + options[gold] + " " + after


def loglikelihood_dataset(
    source: DataSource,
    request: dict[str, Any],
    record_to_sample: Callable[[dict[str, Any], str], Sample],
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
        pool = source.rows("train", **request, row_hash=True)
        demonstrations = LoglikelihoodDemonstrations(pool, eval_rows, shots, fewshot_seed)

    def build(row: int, record: dict[str, Any]) -> Sample:
        sample = record_to_sample(record, f"{eval_split}_{row}")
        assert sample.metadata is not None
        drawn, prefix = demonstrations.prefix(row) if demonstrations else ([], "")
        sample.metadata[FEWSHOT_KEY] = drawn
        sample.metadata[REQUESTS_KEY] = option_requests(record, prefix)
        return sample

    return samples_dataset(
        eval_rows, build, name=f"{request['config']}_{eval_split}", num_examples=num_examples
    )
