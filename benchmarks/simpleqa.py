"""
SimpleQA: Measuring short-form factuality in large language models

Jason Wei, Nguyen Karina, Hyung Won Chung, Yunxin Joy Jiao, Spencer Papay,
Amelia Glaese, John Schulman, William Fedus
https://cdn.openai.com/papers/simpleqa.pdf

Reference implementation: openai/simple-evals ``simpleqa_eval.py``. The
question alone goes to the model under test; a judge model (role ``grader``)
grades the reply with the official grader template as A (CORRECT),
B (INCORRECT) or C (NOT_ATTEMPTED); the headline metrics are the fraction
correct, the accuracy on attempted questions and their harmonic mean.

# all 4,326 questions, graded by gpt-4o as in the reference
inspect eval benchmarks/simpleqa --model openai/gpt-4o-mini --model-role grader=openai/gpt-4o

# the simple-evals grade parse, for comparison with published numbers
inspect eval benchmarks/simpleqa --model openai/gpt-4o-mini -T grade_parse=official \
    --model-role grader=openai/gpt-4o
"""

from __future__ import annotations

import ast
import contextlib
import csv
import json
import logging
import re
import string
from collections.abc import Callable, Iterator, Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import (
    ChatMessageUser,
    GenerateConfig,
    Model,
    get_model,
    model_roles,
)
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    grouped,
    metric,
    scorer,
)
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from benchmarks import download
from benchmarks.lazy_dataset import LazyDataset, announce_cut
from benchmarks.loading import DataError, DataFiles, local_path
from benchmarks.parameters import ParameterCheck
from benchmarks.records import field
from benchmarks.sample_data import data_files_for
from benchmarks.task_names import registry_task_name

DATASET_URL = "https://openaipublic.blob.core.windows.net/simple-evals/simple_qa_test_set.csv"
DATASET_SHA256 = "feee3f7e7db3617e94e8fcf1977b756ec420ef8568f4e0fcbbe0e92e9d5fc032"
DATASET_FILENAME = "simple_qa_test_set.csv"

# The reference sends the bare question as the only (user) message.
ANSWER_TEMPLATE = "{question}"
# GRADER_TEMPLATE of simple-evals simpleqa_eval.py after .strip(), byte for byte.
GRADER_TEMPLATE = (
    files("benchmarks").joinpath("simpleqa_grader_template.txt").read_bytes().decode("utf-8")
)
GRADER_TEMPLATE_SHA256 = "063c04ea798f91c4706c050b66a721afc77a458b12d8f0d72286d4b0eee8a3ee"
GRADER_ROLE = "grader"

# simple-evals samples the candidate with ChatCompletionSampler(max_tokens=2048),
# whose temperature defaults to 0.5; its gpt-4o grader used the defaults 0.5 / 1024.
CANDIDATE_TEMPERATURE = 0.5
CANDIDATE_MAX_TOKENS = 2048
GRADER_TEMPERATURE = 0.5
GRADER_MAX_TOKENS = 1024

GRADE_NAMES = {"A": "CORRECT", "B": "INCORRECT", "C": "NOT_ATTEMPTED"}
JUDGE_FAILURE = "JUDGE_FAILURE"
GRADE_PARSE_MODES = ("strict", "official")
# Score value keys, one per grade; exactly one is 1.0 in every score.
GRADE_VALUE_KEYS = {
    "CORRECT": "correct",
    "INCORRECT": "incorrect",
    "NOT_ATTEMPTED": "not_attempted",
    JUDGE_FAILURE: "judge_failure",
}
STATISTICS = (
    "correct",
    "incorrect",
    "not_attempted",
    "accuracy",
    "attempted_accuracy",
    "abstention_rate",
    "hallucination_rate",
    "f_score",
    "judge_failures",
)
TOPIC_STATISTICS = ("accuracy", "attempted_accuracy", "abstention_rate")
UNKNOWN_TOPIC = "unknown"

CSV_COLUMNS = ("metadata", "problem", "answer")
ANSWER_PROMPT_FIELDS = frozenset({"question"})
GRADE_PROMPT_FIELDS = frozenset({"question", "target", "predicted_answer"})

GradeParse = Literal["strict", "official"]

logger = logging.getLogger(__name__)


@task(
    name=registry_task_name("simpleqa", __name__),
    description="SimpleQA short-form factuality graded by an LLM judge (role grader): "
    "calibration metrics",
)
def simpleqa(
    answer_prompt: str = ANSWER_TEMPLATE,
    grade_prompt: str | None = None,
    grade_parse: GradeParse = "strict",
    topic_breakdown: bool = True,
    grader_temperature: float | None = GRADER_TEMPERATURE,
    grader_max_tokens: int | None = GRADER_MAX_TOKENS,
    num_examples: int | None = None,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
) -> Task:
    """SimpleQA short-form factuality, graded by an LLM judge (model role ``grader``).

    Args:
        answer_prompt: Template of the question sent to the model under test,
            with the placeholder ``{question}``; the default sends the bare
            question, as the reference does.
        grade_prompt: Judge prompt with the placeholders ``{question}``,
            ``{target}`` and ``{predicted_answer}``; None: the official
            simple-evals grader template.
        grade_parse: ``strict``: the stripped judge reply must be ``A``, ``B``
            or ``C`` (optionally in markdown emphasis, optionally followed by
            ``.`` or ``!``), anything else is a judge failure; ``official``:
            simple-evals' ``re.search(r"(A|B|C)", reply)``, ``C`` when nothing
            matches.
        topic_breakdown: Also report accuracy, attempted_accuracy and
            abstention_rate per topic.
        grader_temperature: Judge sampling temperature (None: the grader
            model's own setting).
        grader_max_tokens: Judge output token limit (None: the grader model's
            own setting).
        num_examples: Evaluate only the first this many questions (None: all);
            unlike ``--limit``, the others are never built (all rows are
            still read and checked).
        dataset_path: Local ``.csv`` (upstream columns ``metadata, problem,
            answer``) or ``.jsonl`` (``id, problem, answer, topic,
            answer_type, metadata``). None: the upstream CSV, downloaded once
            into the cache and verified against its sha256.
        data_files: Same as a file ``dataset_path``, or a mapping with the key
            ``test`` (the only split).
        bundled_sample: Read the few real rows shipped with the package instead
            of the Hub or a file (a try-out, offline; not a measurement).
    """
    grader_temperature, grader_max_tokens, num_examples = _check_parameters(
        answer_prompt=answer_prompt,
        grade_prompt=grade_prompt,
        grade_parse=grade_parse,
        topic_breakdown=topic_breakdown,
        grader_temperature=grader_temperature,
        grader_max_tokens=grader_max_tokens,
        num_examples=num_examples,
        dataset_path=dataset_path,
        data_files=data_files,
    )
    data_files = data_files_for(
        "simpleqa", bundled_sample, dataset_path, data_files, splits=["test"]
    )
    path = _dataset_file(dataset_path, data_files)
    rows = read_rows(path)

    def build(row: int) -> Sample:
        where, record = rows[row]
        sample = record_to_sample(record)
        error = (sample.metadata or {}).get("metadata_error")
        if error is not None:
            logger.warning(
                f"SimpleQA {where}: field 'metadata' {error}; the raw value is kept "
                f"in the sample metadata as 'raw_metadata'; the question counts under "
                f"topic {(sample.metadata or {}).get('topic')!r}."
            )
        return sample

    announce_cut(num_examples, len(rows), str(path))
    solver = [generate()]
    if answer_prompt != ANSWER_TEMPLATE:
        solver.insert(0, answer_template(answer_prompt))
    return Task(
        name="benchmarks/simpleqa",
        dataset=LazyDataset(
            build,
            len(rows) if num_examples is None else min(num_examples, len(rows)),
            name="simpleqa",
            location=str(path),
        ),
        solver=solver,
        scorer=simpleqa_scorer(
            grade_prompt=grade_prompt,
            grade_parse=grade_parse,
            grader_temperature=grader_temperature,
            grader_max_tokens=grader_max_tokens,
        ),
        metrics=simpleqa_task_metrics(topic_breakdown),
        config=GenerateConfig(temperature=CANDIDATE_TEMPERATURE, max_tokens=CANDIDATE_MAX_TOKENS),
        metadata={"grade_parse": grade_parse, "dataset_sha256": download.file_sha256(path)},
        version="1.0.0",
    )


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One question; ``metadata`` is parsed as a literal, never evaluated.

    A ``metadata`` value that cannot be read keeps its raw value under
    ``raw_metadata``, says why under ``metadata_error`` and files the
    question under the topic ``unknown``.
    """
    details, error = parse_metadata(record.get("metadata"))
    topic = _first_string(record.get("topic"), details.get("topic"))
    answer_type = _first_string(record.get("answer_type"), details.get("answer_type"))
    urls = details.get("urls", [])
    if error is None and topic is None:
        error = "names no 'topic'"
    if error is None and not (isinstance(urls, list) and all(isinstance(u, str) for u in urls)):
        error = f"has 'urls' that are not a list of strings: {urls!r:.60}"
    metadata: dict[str, Any] = {
        "topic": topic if topic is not None else UNKNOWN_TOPIC,
        "answer_type": answer_type,
        "urls": urls if error is None else [],
    }
    if error is not None:
        metadata["metadata_error"] = error
        metadata["raw_metadata"] = record.get("metadata")
    return Sample(
        id=record["id"],
        input=record["problem"],
        target=record["answer"],
        metadata=metadata,
    )


def parse_metadata(raw: object) -> tuple[dict[str, Any], str | None]:
    """The metadata dict of a row and, when it cannot be read, why."""
    if raw is None:
        return {}, None
    if isinstance(raw, dict):
        return raw, None
    if not isinstance(raw, str):
        return {}, f"should be a dict or a Python-dict literal string, got {type(raw).__name__}"
    try:
        parsed = ast.literal_eval(raw)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as ex:
        reason = str(ex).splitlines()[0] if str(ex) else ""
        # ast names the offending node by its repr, memory address included
        reason = re.sub(r"<ast\.(\w+) object at 0x[0-9a-fA-F]+>", r"\1", reason)
        return {}, f"is not a Python-dict literal ({type(ex).__name__}: {reason}): {raw!r:.80}"
    if not isinstance(parsed, dict):
        return {}, f"is a {type(parsed).__name__} literal, not a dict: {raw!r:.80}"
    return parsed, None


def _first_string(*values: object) -> str | None:
    return next((value for value in values if isinstance(value, str)), None)


@solver
def answer_template(template: str) -> Solver:
    """Put the question into ``template`` (placeholder ``{question}``).

    Own solver: Inspect's ``prompt_template`` names the placeholder
    ``{prompt}`` and also substitutes sample metadata.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.user_prompt.text = template.format(question=state.input_text)
        return state

    return solve


# ---------------------------------------------------------------------------
# Metrics


def grade_statistics(scores: list[SampleScore]) -> dict[str, float]:
    """Every SimpleQA statistic over ``scores``; N counts judge failures too."""
    totals = dict.fromkeys(GRADE_VALUE_KEYS.values(), 0.0)
    for sample_score in scores:
        value = sample_score.score.value
        if not isinstance(value, dict):
            raise ValueError(
                f"SimpleQA metrics need the score value dict of simpleqa_scorer, "
                f"got {value!r:.60} for sample {sample_score.sample_id}"
            )
        for key in totals:
            totals[key] += float(value[key])
    count = len(scores)
    correct, incorrect = totals["correct"], totals["incorrect"]
    accuracy = correct / count if count else 0.0
    attempted = correct + incorrect
    attempted_accuracy = correct / attempted if attempted else 0.0
    f_denominator = accuracy + attempted_accuracy
    return {
        "correct": accuracy,
        "incorrect": incorrect / count if count else 0.0,
        "not_attempted": totals["not_attempted"] / count if count else 0.0,
        "accuracy": accuracy,
        "attempted_accuracy": attempted_accuracy,
        "abstention_rate": totals["not_attempted"] / count if count else 0.0,
        "hallucination_rate": incorrect / count if count else 0.0,
        "f_score": 2 * accuracy * attempted_accuracy / f_denominator if f_denominator else 0.0,
        "judge_failures": totals["judge_failure"],
    }


@metric
def simpleqa_metrics() -> Metric:
    """All SimpleQA statistics, each reported under its own name."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return grade_statistics(scores)

    return compute


@metric
def simpleqa_statistic(statistic: str) -> Metric:
    """One SimpleQA statistic (for ``grouped``, which needs a single value)."""

    def compute(scores: list[SampleScore]) -> float:
        return grade_statistics(scores)[statistic]

    return compute


def simpleqa_task_metrics(topic_breakdown: bool = True) -> list[Metric | dict[str, list[Metric]]]:
    """The overall statistics, plus ``<statistic>[<topic>]`` per topic when asked."""
    metrics: list[Metric | dict[str, list[Metric]]] = [simpleqa_metrics()]
    if topic_breakdown:
        metrics += [
            grouped(
                simpleqa_statistic(statistic),
                "topic",
                all=False,
                name_template=statistic + "[{group_name}]",
            )
            for statistic in TOPIC_STATISTICS
        ]
    return metrics


# ---------------------------------------------------------------------------
# Judge


def parse_grade_strict(reply: str) -> str | None:
    """``A``, ``B`` or ``C`` when that letter is the whole reply, else None.

    Tolerated around the letter: whitespace, one markdown emphasis
    (``**A**``, ``*A*``, ``__A__``, ``_A_``, `` `A` ``) and a trailing
    ``.`` or ``!``.
    """
    match = _STRICT_GRADE.fullmatch(reply.strip())
    return match.group("letter") if match else None


_STRICT_GRADE = re.compile(r"(?P<em>\*\*|__|\*|_|`)?(?P<letter>[ABC])[.!]?(?(em)(?P=em))[.!]?")


def parse_grade_official(reply: str) -> str:
    """simple-evals: the first ``A``, ``B`` or ``C`` anywhere in the reply, else ``C``."""
    match = re.search(r"(A|B|C)", reply)
    return match.group(0) if match else "C"


GRADE_PARSERS: dict[str, Callable[[str], str | None]] = {
    "strict": parse_grade_strict,
    "official": parse_grade_official,
}


def grade_value(grade: str) -> dict[str, float]:
    """Score value of a grade: 1.0 under its key, 0.0 under the others."""
    return {key: float(name == grade) for name, key in GRADE_VALUE_KEYS.items()}


_fallback_warned: set[str] = set()


def grader_model() -> Model:
    """The model bound to the ``grader`` role, else the model under test (with a warning)."""
    if model_roles().get(GRADER_ROLE) is not None:
        return get_model(role=GRADER_ROLE)
    fallback = get_model()
    name = str(fallback)
    if name not in _fallback_warned:
        _fallback_warned.add(name)
        logger.warning(
            f"SimpleQA: no model is bound to the role '{GRADER_ROLE}', so the model under "
            f"test ({name}) grades its own answers. The reference grades with gpt-4o; "
            f"bind a judge with --model-role {GRADER_ROLE}=<provider/model> "
            f"(eval(..., model_roles={{'{GRADER_ROLE}': ...}}))."
        )
    return fallback


@scorer(metrics=[simpleqa_metrics()])
def simpleqa_scorer(
    grade_prompt: str | None = None,
    grade_parse: GradeParse = "strict",
    grader_temperature: float | None = GRADER_TEMPERATURE,
    grader_max_tokens: int | None = GRADER_MAX_TOKENS,
) -> Scorer:
    """Grade the reply with the judge; the score value has one key per grade.

    The value is ``{"correct", "incorrect", "not_attempted", "judge_failure"}``
    with 1.0 under the grade. ``answer`` is the graded reply, ``explanation``
    and ``metadata`` hold the judge's raw reply and the grade. An exception
    raised by the judge is not a grade: it propagates and the sample errors
    (``inspect eval-retry`` redoes it).
    """
    template = GRADER_TEMPLATE if grade_prompt is None else grade_prompt
    parse = GRADE_PARSERS[grade_parse]
    config = GenerateConfig(temperature=grader_temperature, max_tokens=grader_max_tokens)

    async def score(state: TaskState, target: Target) -> Score:
        grader = grader_model()
        predicted_answer = state.output.completion
        prompt = template.format(
            question=state.input_text, target=target.text, predicted_answer=predicted_answer
        )
        output = await grader.generate([ChatMessageUser(content=prompt)], config=config)
        reply = output.completion
        letter = parse(reply)
        grade = GRADE_NAMES[letter] if letter is not None else JUDGE_FAILURE
        if letter is None:
            explanation = f"judge reply {reply!r} is not A, B or C: judge failure"
        else:
            explanation = f"judge replied {reply!r}: {letter} = {grade}"
        return Score(
            value=grade_value(grade),
            answer=predicted_answer,
            explanation=explanation,
            metadata={"grade": grade, "judge_reply": reply, "grader": str(grader)},
        )

    return score


# ---------------------------------------------------------------------------
# Data


def read_rows(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """``(location, record)`` for every row of a local ``.csv`` or ``.jsonl`` file.

    Records have ``id``, ``problem`` and ``answer`` (checked here, for every
    row, before any model call) and the unparsed ``metadata``.
    """
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".jsonl"):
        raise DataError(f"{path}: unsupported file type {path.suffix!r}; use .csv or .jsonl.")
    if not path.is_file():
        raise DataError(f"{path}: no such file.")
    if path.stat().st_size == 0:
        raise DataError(f"{path}: the file is empty.")
    rows = _read_csv(path) if suffix == ".csv" else _read_jsonl(path)
    if not rows:
        raise DataError(f"{path}: the file holds no rows.")
    return rows


def _read_csv(path: Path) -> list[tuple[str, dict[str, Any]]]:
    rows: list[tuple[str, dict[str, Any]]] = []
    with _csv_field_limit(2**31 - 1), path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        try:
            columns = reader.fieldnames or []
            missing = [column for column in CSV_COLUMNS if column not in columns]
            if missing:
                raise DataError(
                    f"{path}: missing column(s) {', '.join(repr(c) for c in missing)}; "
                    f"found {', '.join(repr(c) for c in columns)}."
                )
            for index, record in enumerate(reader):
                where = f"{path}, row {index}"
                if None in record:
                    raise DataError(f"{where}: more fields than the {len(columns)} columns.")
                for column in CSV_COLUMNS:
                    if record[column] is None:
                        raise DataError(f"{where}: field {column!r} is missing (too few fields).")
                _require_text(record, where)
                record["id"] = f"simpleqa_{index}"
                rows.append((where, record))
        except UnicodeDecodeError as ex:
            raise DataError(
                f"{path}, near line {reader.line_num + 1}: not UTF-8 text ({ex.reason})."
            ) from None
        except csv.Error as ex:
            raise DataError(f"{path}, line {reader.line_num}: {ex}.") from None
    return rows


def _read_jsonl(path: Path) -> list[tuple[str, dict[str, Any]]]:
    rows: list[tuple[str, dict[str, Any]]] = []
    # ids are compared as logged: 1 and "1" are the same sample id
    first_line_of_id: dict[str, int] = {}
    with path.open("rb") as handle:
        for line_number, raw_line in enumerate(handle, start=1):
            where = f"{path}, line {line_number}"
            try:
                line = raw_line.decode("utf-8-sig" if line_number == 1 else "utf-8")
            except UnicodeDecodeError as ex:
                raise DataError(f"{where}: not UTF-8 text ({ex.reason}).") from None
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as ex:
                raise DataError(
                    f"{where}: not valid JSON ({ex.msg} at character {ex.pos})."
                ) from None
            if not isinstance(record, dict):
                raise DataError(f"{where}: should be a JSON object, got {type(record).__name__}.")
            _require_text(record, where)
            sample_id = record.get("id", f"simpleqa_{len(rows)}")
            if isinstance(sample_id, bool) or not isinstance(sample_id, (str, int)):
                raise DataError(
                    f"{where}: field 'id' should be a string or an integer, got {sample_id!r:.60}."
                )
            if str(sample_id) in first_line_of_id:
                raise DataError(
                    f"{where}: field 'id' {sample_id!r} repeats the id of line "
                    f"{first_line_of_id[str(sample_id)]}."
                )
            first_line_of_id[str(sample_id)] = line_number
            record["id"] = sample_id
            rows.append((where, record))
    return rows


def _require_text(record: dict[str, Any], where: str) -> None:
    for name in ("problem", "answer"):
        try:
            value = field(record, name, str)
        except (KeyError, TypeError) as ex:
            message = ex.args[0] if ex.args else ex
            raise DataError(f"{where}: {message}.") from None
        if not value.strip():
            raise DataError(f"{where}: field {name!r} is empty.")


@contextlib.contextmanager
def _csv_field_limit(limit: int) -> Iterator[None]:
    # pandas (the reference's reader) has no field size limit; csv's is 128 KiB.
    previous = csv.field_size_limit(limit)
    try:
        yield
    finally:
        csv.field_size_limit(previous)


def _dataset_file(dataset_path: str | None, data_files: DataFiles | None) -> Path:
    if data_files is not None:
        if isinstance(data_files, Mapping):
            return local_path(data_files["test"])
        return local_path(data_files)
    if dataset_path is not None:
        return local_path(dataset_path)
    return official_dataset_file()


def cache_dir() -> Path:
    return download.cache_dir("simpleqa")


def official_dataset_file() -> Path:
    """The upstream CSV from the cache, downloaded and verified on first use."""
    return download.cached_verified_file(
        what="SimpleQA",
        url=DATASET_URL,
        destination=cache_dir() / DATASET_FILENAME,
        sha256=DATASET_SHA256,
    )


# ---------------------------------------------------------------------------
# Parameters


def _check_parameters(
    *,
    answer_prompt: str,
    grade_prompt: str | None,
    grade_parse: str,
    topic_breakdown: bool,
    grader_temperature: float | None,
    grader_max_tokens: int | None,
    num_examples: int | None,
    dataset_path: str | None,
    data_files: DataFiles | None,
) -> tuple[float | None, int | None, int | None]:
    """Fail on the first bad parameter; return the grader temperature, the grader
    token limit and ``num_examples``, with None for each left unset."""
    check = ParameterCheck("simpleqa")
    fail = check.fail
    check.choice("grade_parse", grade_parse, GRADE_PARSE_MODES)
    check.boolean("topic_breakdown", topic_breakdown)
    for name, template, fields in (
        ("answer_prompt", answer_prompt, ANSWER_PROMPT_FIELDS),
        ("grade_prompt", grade_prompt, GRADE_PROMPT_FIELDS),
    ):
        if template is None:
            continue
        if not isinstance(template, str):
            fail(f"{name} must be a string, got {type(template).__name__}.")
        problem = _template_problem(template, fields)
        if problem is not None:
            fail(f"{name} {problem}")
    check.exclusive(dataset_path=dataset_path, data_files=data_files)
    if isinstance(data_files, Mapping) and set(data_files) != {"test"}:
        fail(
            "SimpleQA has one split, 'test': data_files must be a file or {'test': file}, "
            f"got the key(s) {', '.join(repr(k) for k in data_files)}."
        )
    return (
        check.optional_number(
            "grader_temperature", grader_temperature, minimum=0, none_means="the grader's own"
        ),
        check.optional_integer(
            "grader_max_tokens", grader_max_tokens, minimum=1, none_means="the grader's own"
        ),
        check.optional_integer("num_examples", num_examples, minimum=1, none_means="all rows"),
    )


def _template_problem(template: str, fields: frozenset[str]) -> str | None:
    """Why ``template`` cannot be filled with exactly ``fields``, or None."""
    try:
        used = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as ex:
        return f"is not a valid format string ({ex}); write literal braces as {{{{ and }}}}."
    missing = sorted(fields - used)
    unknown = sorted(used - fields)
    if missing:
        return f"lacks the placeholder(s) {', '.join('{' + name + '}' for name in missing)}."
    if unknown:
        return (
            f"has unknown placeholder(s) {', '.join('{' + name + '}' for name in unknown)}; "
            f"it may use only {', '.join('{' + name + '}' for name in sorted(fields))} "
            "(write literal braces as {{ and }})."
        )
    try:
        template.format(**dict.fromkeys(fields, ""))
    except (ValueError, IndexError, KeyError, AttributeError) as ex:
        return f"cannot be filled in ({type(ex).__name__}: {ex})."
    return None
