"""
SimpleQA Verified: A Reliable Factuality Benchmark to Measure Parametric Knowledge

Lukas Haas, Gal Yona, Giovanni D'Antonio, Sasha Goldshtein, Dipanjan Das
https://arxiv.org/abs/2509.07968

1,000 SimpleQA questions re-checked by Google DeepMind and Google Research
(Hub ``google/simpleqa-verified``, config ``simpleqa_verified``, split
``eval``; the Kaggle file ``simpleqa_verified.csv`` holds the same table).
Reference: DeepMind's Kaggle notebook "SimpleQA Verified Benchmark Starter
Code": the bare question to the model under test, the simple-evals grader
template unchanged to the judge gpt-4.1-2025-04-14, its own reply parse
(``grade_parse=verified_starter``), and the F1 of simple-evals as headline.
The judge is shared with SimpleQA (``benchmarks.judge``: panels, cached
verdicts, re-grading).

inspect eval benchmarks/simpleqa_verified --model openai/gpt-4o-mini \
    --model-role grader=openai/gpt-4.1-2025-04-14
inspect eval --run-config configs/simpleqa_verified_starter.yaml --model openai/gpt-4o-mini
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Metric, Scorer, scorer

from benchmarks.judge import (
    GRADE_PARSERS,
    GradeParse,
    judge_panel_metrics,
    read_grade_prompt_file,
    simpleqa_scorer,
)
from benchmarks.lazy_dataset import dataset_from_rows
from benchmarks.loading import DataError, DataFiles, LoadedSplit, load_split
from benchmarks.parameters import ParameterCheck
from benchmarks.records import field
from benchmarks.registry_names import also_by_short_name, namespaced
from benchmarks.sample_data import data_files_for
from benchmarks.simpleqa_metrics import breakdown_metrics, simpleqa_metrics

TASK = "simpleqa_verified"
DATASET_PATH = "google/simpleqa-verified"
DATASET_CONFIG = "simpleqa_verified"
SPLIT = "eval"
COLUMNS = (
    "original_index",
    "problem",
    "answer",
    "topic",
    "answer_type",
    "multi_step",
    "requires_reasoning",
    "urls",
)
# The paper's headline "F1" is simple-evals' f1: the harmonic mean of correct
# and correct given attempted (here f_score); it is reported as f1.
RENAMED = {"f_score": "f1"}
BREAKDOWNS = ("topic", "answer_type", "multi_step", "requires_reasoning")
BREAKDOWN_STATISTICS = ("accuracy", "attempted_accuracy", "abstention_rate", "f_score")
# A CSV (the Kaggle file) holds booleans as text.
BOOLEAN_TEXT = {"True": True, "true": True, "False": False, "false": False}


@task(
    name=namespaced("simpleqa_verified", __name__),
    description="SimpleQA Verified (1,000 re-checked SimpleQA questions) graded by an LLM "
    "judge (role grader): F1 and breakdowns",
)
def simpleqa_verified(
    grade_parse: GradeParse = "strict",
    grade_prompt_file: str | None = None,
    breakdowns: bool = True,
    grader_temperature: float | None = None,
    grader_max_tokens: int | None = None,
    judge_cache: bool = False,
    num_examples: int | None = None,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
) -> Task:
    """SimpleQA Verified, graded by an LLM judge (model role ``grader``).

    Args:
        grade_parse: ``strict`` (default): the judge's reply must be a bare
            ``A``, ``B`` or ``C``, anything else is a counted judge failure;
            ``verified_starter``: the starter code's parse (first ``A|B|C``,
            then ``CORRECT`` / ``INCORRECT`` / ``NOT_ATTEMPTED`` in the
            upper-cased reply, in that order, so "incorrect" reads as A; else
            C); ``official``: simple-evals' (first ``A|B|C``, else C).
        grade_prompt_file: A UTF-8 file holding the judge prompt, with the
            placeholders ``{question}``, ``{target}`` and
            ``{predicted_answer}`` (e.g. the paper's revised autorater
            prompt). None: the simple-evals grader template, as the starter
            code sends it.
        breakdowns: Also report accuracy, attempted_accuracy, abstention_rate
            and f1 per topic, answer_type, multi_step and requires_reasoning.
        grader_temperature: Judge temperature (None: the grader's own; the
            starter code sets none).
        grader_max_tokens: Judge output token limit (None: the grader's own).
        judge_cache: Cache the judge's replies (Inspect's generate cache).
        num_examples: Evaluate only the first this many questions (None: all).
        dataset_path: Hub id, local snapshot folder, or a local ``.csv``
            (the Kaggle ``simpleqa_verified.csv``), ``.jsonl``, ``.json`` or
            ``.parquet`` file in the published schema.
        data_files: A local file, or ``{"eval": file}``.
        bundled_sample: Read the few rows shipped with the package (a try-out,
            offline; not a measurement: they are stand-ins, see
            benchmarks/sample_data/README.md).
    """
    grade_prompt, grader_temperature, grader_max_tokens, num_examples = _check_parameters(
        grade_parse=grade_parse,
        grade_prompt_file=grade_prompt_file,
        breakdowns=breakdowns,
        grader_temperature=grader_temperature,
        grader_max_tokens=grader_max_tokens,
        judge_cache=judge_cache,
        num_examples=num_examples,
        data_files=data_files,
    )
    data_files = data_files_for(TASK, bundled_sample, dataset_path, data_files, splits=[SPLIT])
    split = load_split(
        benchmark="SimpleQA Verified",
        hub_path=DATASET_PATH,
        config=DATASET_CONFIG,
        split=SPLIT,
        dataset_path=dataset_path,
        data_files=data_files,
        required_columns=COLUMNS,
    )
    check_unique_ids(split)
    return Task(
        name="benchmarks/simpleqa_verified",
        dataset=dataset_from_rows(
            split,
            lambda row, record: record_to_sample(record),
            name=TASK,
            size=num_examples,
            columns=COLUMNS,
        ),
        scorer=simpleqa_verified_scorer(
            grade_prompt=grade_prompt,
            grade_parse=grade_parse,
            grader_temperature=grader_temperature,
            grader_max_tokens=grader_max_tokens,
            judge_cache=judge_cache,
        ),
        metrics=verified_metrics(breakdowns),
        metadata={"grade_parse": grade_parse, "grade_prompt_file": grade_prompt_file},
        version="1.1.0",
    )


def verified_metrics(breakdowns: bool = True) -> list[Metric | dict[str, list[Metric]]]:
    """SimpleQA's statistics with f1 named as the paper names it, the breakdowns
    (``<statistic>[<group>=<value>]``) when asked, and the panel's."""
    metrics: list[Metric | dict[str, list[Metric]]] = [simpleqa_metrics(renamed=RENAMED)]
    if breakdowns:
        for group in BREAKDOWNS:
            for statistic in BREAKDOWN_STATISTICS:
                name = RENAMED.get(statistic, statistic)
                metrics += breakdown_metrics(group, [statistic], f"{name}[{group}={{group_name}}]")
    metrics.append(judge_panel_metrics(renamed=RENAMED))
    return metrics


# The metrics an `inspect score` re-grading reports: the task's, not SimpleQA's.
@also_by_short_name
@scorer(metrics=verified_metrics(), name=namespaced("simpleqa_verified_scorer", __name__))
def simpleqa_verified_scorer(
    grade_prompt: str | None = None,
    grade_parse: GradeParse = "strict",
    grader_temperature: float | None = None,
    grader_max_tokens: int | None = None,
    judge_cache: bool = False,
) -> Scorer:
    """``benchmarks.judge.simpleqa_scorer`` with SimpleQA Verified's metrics."""
    return simpleqa_scorer(
        grade_prompt=grade_prompt,
        grade_parse=grade_parse,
        grader_temperature=grader_temperature,
        grader_max_tokens=grader_max_tokens,
        judge_cache=judge_cache,
    )


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One question; its id is ``original_index``, its row in SimpleQA."""
    metadata: dict[str, Any] = {
        "original_index": original_index(record),
        "topic": field(record, "topic", str),
        "answer_type": field(record, "answer_type", str),
        "multi_step": boolean(record, "multi_step"),
        "requires_reasoning": boolean(record, "requires_reasoning"),
        "urls": field(record, "urls", str),
    }
    problem, answer = field(record, "problem", str), field(record, "answer", str)
    for name, value in (("problem", problem), ("answer", answer)):
        if not value.strip():
            raise ValueError(f"field {name!r} is empty")
    return Sample(id=metadata["original_index"], input=problem, target=answer, metadata=metadata)


def original_index(record: dict[str, Any]) -> int:
    value = record.get("original_index")
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ValueError(f"field 'original_index' should be a non-negative integer, got {value!r:.60}")


def boolean(record: dict[str, Any], name: str) -> bool:
    value = record.get(name)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value in BOOLEAN_TEXT:
        return BOOLEAN_TEXT[value]
    raise ValueError(f"field {name!r} should be true or false, got {value!r:.60}")


def check_unique_ids(split: LoadedSplit) -> None:
    """Sample ids come from ``original_index``: a repeated one names both rows."""
    first_row: dict[str, int] = {}
    for row, value in enumerate(split.rows["original_index"]):
        key = str(value).strip()
        if key in first_row:
            raise DataError(
                f"{split.where}, row {row}: field 'original_index' {value!r} repeats row "
                f"{first_row[key]}."
            )
        first_row[key] = row


def _check_parameters(
    *,
    grade_parse: str,
    grade_prompt_file: str | None,
    breakdowns: bool,
    grader_temperature: float | None,
    grader_max_tokens: int | None,
    judge_cache: bool,
    num_examples: int | None,
    data_files: DataFiles | None,
) -> tuple[str | None, float | None, int | None, int | None]:
    """Fail on the first bad parameter; return the judge prompt (None: the
    official template), the judge's temperature and token limit, and ``num_examples``."""
    check = ParameterCheck(TASK)
    check.choice("grade_parse", grade_parse, tuple(GRADE_PARSERS))
    check.boolean("breakdowns", breakdowns)
    check.boolean("judge_cache", judge_cache)
    temperature = check.optional_number(
        "grader_temperature", grader_temperature, minimum=0, none_means="the grader's own"
    )
    max_tokens = check.optional_integer(
        "grader_max_tokens", grader_max_tokens, minimum=1, none_means="the grader's own"
    )
    if isinstance(data_files, Mapping) and set(data_files) != {SPLIT}:
        check.fail(
            "SimpleQA Verified has one split, 'eval': data_files must be a file or "
            f"{{'eval': file}}, got the key(s) {', '.join(repr(k) for k in data_files)}."
        )
    grade_prompt = None
    if grade_prompt_file is not None:
        if not isinstance(grade_prompt_file, str):
            check.fail(f"grade_prompt_file must be a path, got {grade_prompt_file!r}.")
        grade_prompt = read_grade_prompt_file(grade_prompt_file, TASK)
    count = check.optional_integer("num_examples", num_examples, minimum=1, none_means="all rows")
    return grade_prompt, temperature, max_tokens, count
