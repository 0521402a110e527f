"""
SimpleQA: Measuring short-form factuality in large language models

Jason Wei, Nguyen Karina, Hyung Won Chung, Yunxin Joy Jiao, Spencer Papay,
Amelia Glaese, John Schulman, William Fedus
https://cdn.openai.com/papers/simpleqa.pdf

Reference implementation: openai/simple-evals ``simpleqa_eval.py`` and its
``ChatCompletionSampler``, commit ee3b0318d8d1d9d72755a4120879be65f7c07e9e.
The question goes to the model under test; a judge model (role ``grader``,
``benchmarks.judge``) grades the reply with the official grader template as
A (CORRECT), B (INCORRECT) or C (NOT_ATTEMPTED); the headline metrics are the
fraction correct, the accuracy on attempted questions and their harmonic mean.

Two profiles: ``paper`` (default, this project's setting since 1.0.0) sends the
bare question and grades with the judge settings of simple-evals' gpt-4o
grader before May 2025 (no system message, 0.5 / 1,024 tokens); not verified
against a simple-evals commit. ``simple_evals`` reproduces simple-evals at
ee3b031 request for
request (system message "You are a helpful assistant." to the candidate and
the judge, judge 0.5 / 2,048 tokens, ``num_examples`` drawn with
``random.Random(0).sample``); bind its judge, gpt-4.1-2025-04-14, to ``grader``
(configs/simpleqa_simple_evals.yaml sets everything else).

# all 4,326 questions, graded by gpt-4o as in the paper era
inspect eval benchmarks/simpleqa --model openai/gpt-4o-mini --model-role grader=openai/gpt-4o

# simple-evals today, request for request
inspect eval --run-config configs/simpleqa_simple_evals.yaml --model openai/gpt-4o-mini \
    --model-role grader=openai/gpt-4.1-2025-04-14
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any, Final, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver, system_message

from benchmarks import download
from benchmarks.judge import (
    GRADE_PROMPT_FIELDS,
    GRADER_TEMPLATE,
    judge_panel_metrics,
    parse_grade_official,
    parse_grade_strict,
    simpleqa_scorer,
    template_problem,
)
from benchmarks.lazy_dataset import LazyDataset, announce_cut
from benchmarks.loading import DataFiles
from benchmarks.parameters import ParameterCheck
from benchmarks.registry_names import namespaced
from benchmarks.sample_data import data_files_for
from benchmarks.simpleqa_data import dataset_file, read_rows, record_to_sample
from benchmarks.simpleqa_metrics import JUDGE_FAILURE, simpleqa_task_metrics

__all__ = [
    "GRADER_TEMPLATE",
    "JUDGE_FAILURE",
    "parse_grade_official",
    "parse_grade_strict",
    "record_to_sample",
    "simpleqa",
]


# simpleqa_eval.py packs the bare question as the only user message.
ANSWER_TEMPLATE = "{question}"
ANSWER_PROMPT_FIELDS = frozenset({"question"})
# simple-evals samples the candidate with ChatCompletionSampler(max_tokens=2048),
# whose temperature defaults to 0.5 (sampler/chat_completion_sampler.py:25).
CANDIDATE_TEMPERATURE = 0.5
CANDIDATE_MAX_TOKENS = 2048

GRADE_PARSE_MODES = ("strict", "official")

Profile = Literal["paper", "simple_evals"]
PROFILES = ("paper", "simple_evals")
FROM_PROFILE: Final = "profile"
# OPENAI_SYSTEM_MESSAGE_API, sampler/chat_completion_sampler.py:9 of simple-evals.
SIMPLE_EVALS_SYSTEM_MESSAGE = "You are a helpful assistant."
# What each profile sends. paper: simple-evals' grading_sampler of the SimpleQA
# release, ChatCompletionSampler(model="gpt-4o") with its defaults (0.5, 1024,
# no system message). simple_evals (ee3b031): grading_sampler =
# ChatCompletionSampler(model="gpt-4.1-2025-04-14",
# system_message=OPENAI_SYSTEM_MESSAGE_API, max_tokens=2048), candidates built
# the same way, and SimpleQAEval(num_examples=N) draws
# random.Random(0).sample(examples, N) (simpleqa_eval.py:105-108).
PROFILE_SETTINGS: dict[str, dict[str, Any]] = {
    "paper": {
        "system_message": None,
        "grader_system_message": None,
        "grader_temperature": 0.5,
        "grader_max_tokens": 1024,
        "draw": "first",
    },
    "simple_evals": {
        "system_message": SIMPLE_EVALS_SYSTEM_MESSAGE,
        "grader_system_message": SIMPLE_EVALS_SYSTEM_MESSAGE,
        "grader_temperature": 0.5,
        "grader_max_tokens": 2048,
        "draw": "random0",
    },
}

logger = logging.getLogger(__name__)


@task(
    name=namespaced("simpleqa", __name__),
    description="SimpleQA short-form factuality graded by an LLM judge (role grader): "
    "calibration metrics",
)
def simpleqa(
    answer_prompt: str = ANSWER_TEMPLATE,
    grade_prompt: str | None = None,
    grade_parse: Literal["strict", "official"] = "strict",
    topic_breakdown: bool = True,
    profile: Profile = "paper",
    grader_temperature: float | None | Literal["profile"] = FROM_PROFILE,
    grader_max_tokens: int | None | Literal["profile"] = FROM_PROFILE,
    judge_cache: bool = False,
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
        profile: ``paper``: the bare question, judge at 0.5 / 1,024 tokens with
            no system message, ``num_examples`` takes the first rows;
            ``simple_evals``: simple-evals at ee3b031, request for request
            (system message "You are a helpful assistant." before the
            candidate's and the judge's user message, judge at 0.5 / 2,048
            tokens, ``num_examples`` drawn with ``random.Random(0).sample``).
        grader_temperature: Judge sampling temperature ("profile": the
            profile's, 0.5; None: the grader model's own setting).
        grader_max_tokens: Judge output token limit ("profile": the profile's,
            1,024 or 2,048; None: the grader model's own setting).
        judge_cache: Cache the judge's replies (Inspect's generate cache): a
            re-run or re-scoring with the same judge, prompt and settings
            makes no judge call.
        num_examples: Evaluate only this many questions (None: all): the first
            ones, or with ``profile="simple_evals"`` the ones simple-evals
            draws; unlike ``--limit``, the others are never built (all rows
            are still read and checked).
        dataset_path: Local ``.csv`` (upstream columns ``metadata, problem,
            answer``) or ``.jsonl`` (``id, problem, answer, topic,
            answer_type, metadata``). None: the upstream CSV, downloaded once
            into the cache and verified against its sha256.
        data_files: Same as a file ``dataset_path``, or a mapping with the key
            ``test`` (the only split).
        bundled_sample: Read the few real rows shipped with the package instead
            of the Hub or a file (a try-out, offline; not a measurement).
    """
    ParameterCheck("simpleqa").boolean("judge_cache", judge_cache)
    grader_temperature, grader_max_tokens, num_examples = _check_parameters(
        answer_prompt=answer_prompt,
        grade_prompt=grade_prompt,
        grade_parse=grade_parse,
        topic_breakdown=topic_breakdown,
        profile=profile,
        grader_temperature=grader_temperature,
        grader_max_tokens=grader_max_tokens,
        num_examples=num_examples,
        dataset_path=dataset_path,
        data_files=data_files,
    )
    settings = PROFILE_SETTINGS[profile]
    data_files = data_files_for(
        "simpleqa", bundled_sample, dataset_path, data_files, splits=["test"]
    )
    path = dataset_file(dataset_path, data_files)
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

    solver = [generate()]
    if answer_prompt != ANSWER_TEMPLATE:
        solver.insert(0, answer_template(answer_prompt))
    if settings["system_message"] is not None:
        solver.insert(0, system_message(settings["system_message"]))
    return Task(
        name="benchmarks/simpleqa",
        dataset=LazyDataset(
            build,
            len(rows),
            name="simpleqa",
            location=str(path),
            indices=selected_rows(num_examples, len(rows), settings["draw"], str(path)),
        ),
        solver=solver,
        scorer=simpleqa_scorer(
            grade_prompt=grade_prompt,
            grade_parse=grade_parse,
            grader_temperature=grader_temperature,
            grader_max_tokens=grader_max_tokens,
            grader_system_message=settings["grader_system_message"],
            judge_cache=judge_cache,
        ),
        metrics=[*simpleqa_task_metrics(topic_breakdown), judge_panel_metrics()],
        config=GenerateConfig(temperature=CANDIDATE_TEMPERATURE, max_tokens=CANDIDATE_MAX_TOKENS),
        metadata={
            "grade_parse": grade_parse,
            "profile": profile,
            "dataset_sha256": download.file_sha256(path),
        },
        version="1.2.0",
    )


def selected_rows(num_examples: int | None, available: int, draw: str, where: str) -> list[int]:
    """The rows to evaluate, in order: all, the first ``num_examples``, or simple-evals' draw.

    simple-evals draws ``random.Random(0).sample(examples, num_examples)``;
    ``sample`` picks positions from the population's length and the generator
    alone, so drawing from ``range(available)`` picks the same rows.
    """
    if num_examples is None:
        return list(range(available))
    if draw == "first":
        announce_cut(num_examples, available, where)
        return list(range(min(num_examples, available)))
    if num_examples > available:
        ParameterCheck("simpleqa").fail(
            f"num_examples={num_examples} with profile simple_evals draws without replacement "
            f"from the {available} rows of {where}, as simple-evals does; it can draw at most "
            f"{available}."
        )
    logger.warning(
        f"num_examples={num_examples}: evaluating {num_examples} of the {available} rows of "
        f"{where}, drawn as simple-evals draws them (random.Random(0).sample)."
    )
    return random.Random(0).sample(range(available), num_examples)


@solver(name=namespaced("answer_template", __name__))
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
# Parameters


def _check_parameters(
    *,
    answer_prompt: str,
    grade_prompt: str | None,
    grade_parse: str,
    topic_breakdown: bool,
    profile: str,
    grader_temperature: object,
    grader_max_tokens: object,
    num_examples: int | None,
    dataset_path: str | None,
    data_files: DataFiles | None,
) -> tuple[float | None, int | None, int | None]:
    """Fail on the first bad parameter; return the grader temperature and token
    limit (the profile's unless given) and ``num_examples``, None for each unset."""
    check = ParameterCheck("simpleqa")
    fail = check.fail
    check.choice("grade_parse", grade_parse, GRADE_PARSE_MODES)
    check.boolean("topic_breakdown", topic_breakdown)
    check.choice("profile", profile, PROFILES)
    for name, template, fields in (
        ("answer_prompt", answer_prompt, ANSWER_PROMPT_FIELDS),
        ("grade_prompt", grade_prompt, GRADE_PROMPT_FIELDS),
    ):
        if template is None:
            continue
        if not isinstance(template, str):
            fail(f"{name} must be a string, got {type(template).__name__}.")
        problem = template_problem(template, fields)
        if problem is not None:
            fail(f"{name} {problem}")
    check.exclusive(dataset_path=dataset_path, data_files=data_files)
    if isinstance(data_files, Mapping) and set(data_files) != {"test"}:
        fail(
            "SimpleQA has one split, 'test': data_files must be a file or {'test': file}, "
            f"got the key(s) {', '.join(repr(k) for k in data_files)}."
        )
    settings = PROFILE_SETTINGS[profile]
    if grader_temperature == FROM_PROFILE:
        grader_temperature = settings["grader_temperature"]
    if grader_max_tokens == FROM_PROFILE:
        grader_max_tokens = settings["grader_max_tokens"]
    return (
        check.optional_number(
            "grader_temperature", grader_temperature, minimum=0, none_means="the grader's own"
        ),
        check.optional_integer(
            "grader_max_tokens", grader_max_tokens, minimum=1, none_means="the grader's own"
        ),
        check.optional_integer("num_examples", num_examples, minimum=1, none_means="all rows"),
    )
