"""
TriviaQA: A Large Scale Distantly Supervised Challenge Dataset for Reading Comprehension

Mandar Joshi, Eunsol Choi, Daniel S. Weld, Luke Zettlemoyer
https://arxiv.org/abs/1705.03551

Closed-book, few-shot generation on the Wikipedia subset
(``mandarjoshi/trivia_qa``, config ``rc.wikipedia.nocontext``). Default rules:

- demonstrations from ``train``: one ``random.Random(fewshot_seed)`` walking the
  evaluation questions in order, ``rng.sample(train, shots)`` for each (this
  project's rule; lm-evaluation-harness draws differently, see below);
- the reply cut at the first newline, period or comma (lm-evaluation-harness's
  stop sequences for TriviaQA), which are also sent to the server with
  ``max_tokens=256``, so a reply that runs on is bounded;
- exact match and token F1 with the official normalization of
  mandarjoshi90/triviaqa ``evaluation/triviaqa_evaluation.py``, against
  ``answer.normalized_aliases``.

Profile ``lm_eval_0.4.13`` is lm-evaluation-harness 0.4.13's ``triviaqa``
against a chat model (``benchmarks/profiles/triviaqa.py``):
``dataset_config="rc.nocontext"``, ``prompt_format="lm_eval"`` (its prompt and
its draw of ``shots + 1`` with the evaluated question removed),
``fewshot_as_multiturn=True`` (its chat layout; ``False`` for
``--fewshot_as_multiturn false``), ``answer_extraction="lm_eval"``,
``metric="lm_eval_exact_match"`` and its generation settings.
tests/peers/test_lm_eval_triviaqa.py checks it against lm-evaluation-harness's
own code, request by request.

# 5-shot on the first 20 questions
inspect eval benchmarks/triviaqa --model openai/gpt-4o-mini --limit 20

# keep "U.S." and "St. Louis" whole
inspect eval benchmarks/triviaqa --model openai/gpt-4o-mini -T answer_extraction=first_line

# lm-evaluation-harness 0.4.13, chat models
inspect eval benchmarks/triviaqa --model openai/gpt-4o-mini -T profile=lm_eval_0.4.13
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.solver import generate

from benchmarks.answer_matching import STOP_SEQUENCES, AnswerExtraction
from benchmarks.data_source import DataSource, HubDataset, rows_dataset
from benchmarks.fewshot_prompt import FEWSHOT_KEY, fewshot_prompt
from benchmarks.loading import DataFiles
from benchmarks.profiles import profile_named
from benchmarks.profiles.triviaqa import PROFILES, Config, ProfileName, PromptFormat
from benchmarks.records import field, string_list
from benchmarks.registry_names import namespaced
from benchmarks.sample_data import jsonl_records
from benchmarks.spec import BenchmarkSpec, CompareMetric, KnownQuestion
from benchmarks.task_parameters import FROM_PROFILE, Minimum, NoneMeans, fail, task_arguments
from benchmarks.triviaqa_prompts import (
    DEMONSTRATION_COLUMNS,
    QUESTION_COLUMNS,
    TriviaQADemonstrations,
    block_template,
    fewshot_draws,
    pool_fields,
)
from benchmarks.triviaqa_scorer import TriviaQAMetric, triviaqa_scorer

DATASET = HubDataset(
    "mandarjoshi/trivia_qa",
    revision="0f7faf33a3908546c6fd5b73a660e0f8ff173c2f",
    pinned_by="huggingface/smollm (text/evaluation/smollm2/tasks.py) and "
    "Aleph-Alpha-Research/eval-framework (hf-dataset-revisions.json)",
)
Split = Literal["train", "validation", "test"]
EVIDENCE_MAX_CHARS = 4000
RENAMED_VALUES = {
    ("prompt_format", "lm_eval_harness"): "lm_eval",
    ("answer_extraction", "lm_eval_harness"): "lm_eval",
}


@task(
    name=namespaced("triviaqa", __name__),
    description="Closed-book few-shot TriviaQA (Wikipedia): alias exact match and token F1",
)
def triviaqa(
    profile: ProfileName = "default",
    shots: Annotated[int | None, Minimum(0), NoneMeans(FROM_PROFILE)] = None,
    fewshot_seed: Annotated[int | None, NoneMeans(FROM_PROFILE)] = None,
    prompt_format: Annotated[PromptFormat | None, NoneMeans(FROM_PROFILE)] = None,
    fewshot_as_multiturn: Annotated[bool | None, NoneMeans(FROM_PROFILE)] = None,
    answer_extraction: Annotated[AnswerExtraction | None, NoneMeans(FROM_PROFILE)] = None,
    metric: Annotated[TriviaQAMetric | None, NoneMeans(FROM_PROFILE)] = None,
    dataset_config: Annotated[Config | None, NoneMeans(FROM_PROFILE)] = None,
    fewshot_split: Split = "train",
    eval_split: Split = "validation",
    num_examples: Annotated[int | None, Minimum(1), NoneMeans("all rows")] = None,
    include_evidence: bool = False,
    evidence_max_chars: Annotated[int, Minimum(1)] = EVIDENCE_MAX_CHARS,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
    **unknown: Any,
) -> Task:
    """Closed-book few-shot TriviaQA with alias exact match and token F1.

    Args:
        profile: ``default`` (the paper's metrics, 5-shot) or ``lm_eval_0.4.13``
            (lm-evaluation-harness 0.4.13 against a chat model); the switches
            below that default to None take the profile's.
        shots: Demonstrations per question (0 loads no few-shot split).
        fewshot_seed: Seed of the demonstration draws.
        prompt_format: ``default`` (``Question: ...\\nAnswer:``, demonstrations
            answered with ``answer.value``, ``rng.sample(train, shots)`` per
            question) or ``lm_eval`` (lm-evaluation-harness 0.4.13: ``?``
            appended to questions, demonstrations answered with the first
            alias, drawn ``shots + 1`` at a time with the evaluated question
            removed).
        fewshot_as_multiturn: Demonstrations as user/assistant turns ending
            with the question (lm-evaluation-harness's default for chat models)
            instead of one user message.
        answer_extraction: ``stop_sequences`` cuts the stripped reply at the
            first newline, period or comma (the reference); ``first_line``
            keeps the whole first line; ``lm_eval`` cuts the raw reply, then
            strips it (lm-evaluation-harness 0.4.13). The cut's stop sequences
            (``\\n`` alone for ``first_line``) are also sent to the server, with
            the profile's ``max_tokens`` (256; ``--max-tokens`` overrides).
        metric: ``normalized_alias_exact_match`` (official normalization,
            against ``answer.normalized_aliases``), ``alias_exact_match``
            (case-sensitive, against the raw ``answer.aliases``) or
            ``lm_eval_exact_match`` (lm-evaluation-harness 0.4.13: lowercase
            as numpy does, punctuation deleted, against ``answer.aliases``).
        dataset_config: Hub config; ``rc.wikipedia.nocontext`` is the closed-book
            Wikipedia subset, ``rc.nocontext`` lm-evaluation-harness's.
        fewshot_split: Split the demonstrations are drawn from.
        eval_split: Split evaluated (``test`` has no answers and is refused).
        num_examples: Evaluate only the first this many rows (None: all). Unlike
            ``--limit``, rows past it are never built.
        include_evidence: Put the Wikipedia/web evidence before every
            demonstration and question (loads the config without ``.nocontext``).
        evidence_max_chars: Evidence kept per question, in characters.
        dataset_path: Hub id, local snapshot folder or local data file.
        data_files: Local file for ``eval_split``, or mapping split -> file.
        bundled_sample: Read the few real rows shipped with the package instead
            of the Hub or a file (a try-out, offline; not a measurement).
    """
    args = task_arguments(triviaqa, locals(), renamed_values=RENAMED_VALUES)
    settings = profile_named("triviaqa", PROFILES, profile).with_overrides(args)
    check_splits(settings.shots, fewshot_split, eval_split)
    source = DataSource(
        "triviaqa",
        "TriviaQA",
        DATASET,
        dataset_path=dataset_path,
        data_files=data_files,
        bundled_sample=bundled_sample,
        splits=[eval_split, *([fewshot_split] if settings.shots > 0 else [])],
    )
    config: str = settings.dataset_config
    if include_evidence:
        config = config.removesuffix(".nocontext")
    row_hash = settings.prompt_format == "lm_eval" and settings.shots > 0
    rows_options: dict[str, Any] = {
        "config": config,
        "single_file_split": eval_split,
        "options": {"evidence_max_chars": evidence_max_chars} if include_evidence else {},
        "row_hash": row_hash,
    }
    evidence = ("entity_pages", "search_results") if include_evidence else ()
    eval_rows = source.rows(
        eval_split, columns=(*QUESTION_COLUMNS, *evidence), shape="triviaqa_questions",
        **rows_options,
    )  # fmt: skip
    demonstrations: TriviaQADemonstrations | None = None
    draws = None
    if settings.shots > 0:
        fewshot_rows = source.pool(
            fewshot_split,
            keep=pool_fields(settings.prompt_format, include_evidence, row_hash),
            columns=(*DEMONSTRATION_COLUMNS, *evidence), shape="triviaqa_demonstrations",
            **rows_options,
        )  # fmt: skip
        draws = fewshot_draws(
            fewshot_rows, eval_rows, settings.shots, settings.fewshot_seed, settings.prompt_format
        )
        demonstrations = TriviaQADemonstrations(
            fewshot_rows, settings.prompt_format, include_evidence
        )

    def build(row: int, record: dict[str, Any]) -> Sample:
        sample = record_to_sample(record)
        assert sample.metadata is not None
        if include_evidence:
            sample.metadata["evidence"] = record["evidence"]
        if draws is not None and demonstrations is not None:
            drawn = draws.for_question(row)
            for index in drawn:
                demonstrations[index]  # read and checked now, before any model call
            sample.metadata[FEWSHOT_KEY] = drawn
        return sample

    template = block_template(settings.prompt_format, include_evidence)
    return Task(
        name="benchmarks/triviaqa",
        dataset=rows_dataset(
            eval_rows,
            build,
            name=f"trivia_qa_{config}_{eval_split}",
            num_examples=args.num_examples,
            unique_field="question_id",
            release=eval_rows.release,
        ),
        solver=[
            fewshot_prompt(demonstrations or [], template, multiturn=settings.fewshot_as_multiturn),
            generate(),
        ],
        scorer=triviaqa_scorer(
            metric=settings.metric, answer_extraction=settings.answer_extraction
        ),
        config=settings.generate.merge(
            {"stop_seqs": STOP_SEQUENCES[settings.answer_extraction]}  # type: ignore[arg-type]
        ),
        metadata={"profile": settings.name, **settings.switches(), **source.metadata()},
        version="1.4.0",
    )


def check_splits(shots: int, fewshot_split: str, eval_split: str) -> None:
    """The rules between the two splits and the shots."""
    if eval_split == "test":
        fail(
            "triviaqa",
            "the test split has no answers (they are withheld); use eval_split='validation'.",
        )
    if shots > 0 and fewshot_split == "test":
        fail(
            "triviaqa",
            "the test split has no answers to demonstrate with; use fewshot_split='train'.",
        )
    if shots > 0 and fewshot_split == eval_split:
        fail(
            "triviaqa",
            f"fewshot_split and eval_split are both {eval_split!r}: demonstrations "
            "would leak evaluation answers; draw them from 'train'.",
        )


def record_to_sample(record: dict[str, Any]) -> Sample:
    """One question: its text, its aliases as the target, the normalized aliases."""
    answer = field(record, "answer", dict)
    aliases = string_list(answer, "aliases", label="answer.aliases")
    normalized_aliases = string_list(
        answer, "normalized_aliases", label="answer.normalized_aliases"
    )
    return Sample(
        id=field(record, "question_id", str),
        input=field(record, "question", str),
        target=aliases,
        metadata={"normalized_aliases": normalized_aliases, "answer_type": answer.get("type")},
    )


# An alias without TriviaQA's stop characters survives the cut whole.
STOP_CHARACTERS = set("\n.,")


def oracle_questions(files: Mapping[str, str]) -> list[KnownQuestion]:
    """The bundled questions: known by their question block; answered with the first alias
    that the stop sequences leave whole."""
    questions = []
    for record in jsonl_records(files["validation"]):
        answer = record["answer"]
        whole = [a for a in answer["aliases"] if not STOP_CHARACTERS & set(a)]
        reply = whole[0] if whole else answer["value"]
        questions.append(KnownQuestion((f"Question: {record['question']}",), reply))
    return questions


SPEC = BenchmarkSpec(
    name="triviaqa",
    title="TriviaQA",
    task=triviaqa,
    scorer="triviaqa_scorer",
    value_keys=("exact_match", "f1"),
    compare_metrics=(
        CompareMetric("exact_match", mean_of="exact_match"),
        CompareMetric("f1", mean_of="f1", proportion=False),
    ),
    category_metrics=("exact_match", "f1"),
    breakdowns=("answer_type",),
    oracle=oracle_questions,
    profiles=PROFILES,
)
