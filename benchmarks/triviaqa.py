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

The lm-evaluation-harness 0.4.13 ``triviaqa`` profile (``configs/triviaqa_lm_eval.yaml``
holds it with the generation settings): ``dataset_config="rc.nocontext"``,
``prompt_format="lm_eval_harness"`` (its prompt and its draw of ``shots + 1``
with the evaluated question removed), ``fewshot_as_multiturn=True`` (its chat
layout; ``False`` for ``--fewshot_as_multiturn false`` and completion models),
``answer_extraction="lm_eval_harness"`` and ``metric="lm_eval_exact_match"``.
tests/peers/test_lm_eval_triviaqa.py checks it against lm-evaluation-harness's
own code, request by request.

# 5-shot on the first 20 questions
inspect eval benchmarks/triviaqa --model openai/gpt-4o-mini --limit 20

# keep "U.S." and "St. Louis" whole
inspect eval benchmarks/triviaqa --model openai/gpt-4o-mini -T answer_extraction=first_line

# lm-evaluation-harness 0.4.13, chat models
inspect eval --run-config configs/triviaqa_lm_eval.yaml --model openai/gpt-4o-mini
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    accuracy,
    mean,
    metric,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState, generate

from benchmarks.answer_matching import (
    ANSWER_EXTRACTIONS,
    AnswerExtraction,
    best_match,
    extract_short_answer,
    lm_eval_exact_match,
    max_token_f1,
    normalize_answer,
)
from benchmarks.fewshot_prompt import FEWSHOT_KEY, fewshot_prompt
from benchmarks.lazy_dataset import dataset_from_rows
from benchmarks.loading import DataError, DataFiles, LoadedSplit, load_split
from benchmarks.model_outputs import candidate_note
from benchmarks.parameters import ParameterCheck
from benchmarks.records import field, string_list
from benchmarks.registry_names import also_by_short_name, namespaced
from benchmarks.sample_data import data_files_for
from benchmarks.triviaqa_prompts import (
    PROMPT_FORMATS,
    TriviaQADemonstrations,
    block_template,
    evidence_text,
    fewshot_draws,
)

DATASET_PATH = "mandarjoshi/trivia_qa"
DEFAULT_CONFIG = "rc.wikipedia.nocontext"
# Configs of the Hub dataset that hold rows ("unfiltered.web*" and
# "unfiltered.wikipedia*" are empty upstream).
CONFIGS = (
    "rc.wikipedia.nocontext",
    "rc.wikipedia",
    "rc.web.nocontext",
    "rc.web",
    "rc.nocontext",
    "rc",
    "unfiltered.nocontext",
    "unfiltered",
)
SPLITS = ("train", "validation", "test")
EVIDENCE_MAX_CHARS = 4000

TriviaQAMetric = Literal["normalized_alias_exact_match", "alias_exact_match", "lm_eval_exact_match"]
PromptFormat = Literal["default", "lm_eval_harness"]

# metric -> (the alias a prediction matches, or None; which aliases)
MATCH_RULES: dict[str, tuple[Callable[[str, list[str]], str | None], str]] = {
    "normalized_alias_exact_match": (
        lambda answer, aliases: best_match(answer, aliases, normalize_answer),
        "normalized_aliases",
    ),
    "alias_exact_match": (lambda answer, aliases: best_match(answer, aliases, str), "aliases"),
    "lm_eval_exact_match": (lm_eval_exact_match, "aliases"),
}

# Sent to the server so a reply ends where the answer extraction would cut it
# anyway (lm-evaluation-harness sends them as ``until``); the extraction still
# cuts the reply, for servers that ignore ``stop``. first_line keeps "U.S.".
STOP_SEQUENCES: dict[str, list[str]] = {
    "stop_sequences": ["\n", ".", ","],
    "lm_eval_harness": ["\n", ".", ","],
    "first_line": ["\n"],
}
# lm-evaluation-harness's default max_gen_toks. The longest alias in 3,000 real
# questions is 62 bytes, and a byte-level tokenizer spends at most one token a
# byte, so the limit cannot cut a real answer; it bounds a reply that runs on.
MAX_TOKENS = 256

REQUIRED_COLUMNS = ("question", "question_id", "answer")
EVIDENCE_COLUMNS = ("entity_pages", "search_results")


@task(
    name=namespaced("triviaqa", __name__),
    description="Closed-book few-shot TriviaQA (Wikipedia): alias exact match and token F1",
)
def triviaqa(
    shots: int = 5,
    dataset_config: str = DEFAULT_CONFIG,
    fewshot_split: str = "train",
    eval_split: str = "validation",
    num_examples: int | None = None,
    include_evidence: bool = False,
    evidence_max_chars: int = EVIDENCE_MAX_CHARS,
    metric: TriviaQAMetric = "normalized_alias_exact_match",
    answer_extraction: AnswerExtraction = "stop_sequences",
    prompt_format: PromptFormat = "default",
    fewshot_as_multiturn: bool = False,
    fewshot_seed: int = 1234,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
) -> Task:
    """Closed-book few-shot TriviaQA with alias exact match and token F1.

    Args:
        shots: Demonstrations per question (0 loads no few-shot split).
        dataset_config: Hub config; ``rc.wikipedia.nocontext`` is the closed-book
            Wikipedia subset, ``rc.nocontext`` lm-evaluation-harness's.
        fewshot_split: Split the demonstrations are drawn from.
        eval_split: Split evaluated (``test`` has no answers and is refused).
        num_examples: Evaluate only the first this many rows (None: all). Unlike
            ``--limit``, rows past it are never built.
        include_evidence: Put the Wikipedia/web evidence before every
            demonstration and question (loads the config without ``.nocontext``).
        evidence_max_chars: Evidence kept per question, in characters.
        metric: ``normalized_alias_exact_match`` (official normalization,
            against ``answer.normalized_aliases``), ``alias_exact_match``
            (case-sensitive, against the raw ``answer.aliases``) or
            ``lm_eval_exact_match`` (lm-evaluation-harness 0.4.13: lowercase
            as numpy does, punctuation deleted, against ``answer.aliases``).
        answer_extraction: ``stop_sequences`` cuts the stripped reply at the
            first newline, period or comma (the reference); ``first_line``
            keeps the whole first line; ``lm_eval_harness`` cuts the raw reply,
            then strips it (lm-evaluation-harness 0.4.13). The cut's stop
            sequences (``\\n`` alone for ``first_line``) and at most 256 new
            tokens are also sent to the server (``--max-tokens`` overrides).
        prompt_format: ``default`` (``Question: ...\\nAnswer:``, demonstrations
            answered with ``answer.value``, ``rng.sample(train, shots)`` per
            question) or ``lm_eval_harness`` (lm-evaluation-harness 0.4.13:
            ``?`` appended to questions, demonstrations answered with the first
            alias, drawn ``shots + 1`` at a time with the evaluated question
            removed).
        fewshot_as_multiturn: Demonstrations as user/assistant turns ending
            with the question (lm-evaluation-harness's default for chat models)
            instead of one user message.
        fewshot_seed: Seed of the demonstration draws.
        dataset_path: Hub id, local snapshot folder or local data file.
        data_files: Local file for ``eval_split``, or mapping split -> file.
        bundled_sample: Read the few real rows shipped with the package instead
            of the Hub or a file (a try-out, offline; not a measurement).
    """
    num_examples = _check_parameters(
        shots=shots,
        fewshot_seed=fewshot_seed,
        include_evidence=include_evidence,
        dataset_config=dataset_config,
        fewshot_split=fewshot_split,
        eval_split=eval_split,
        num_examples=num_examples,
        evidence_max_chars=evidence_max_chars,
        metric=metric,
        answer_extraction=answer_extraction,
        prompt_format=prompt_format,
        fewshot_as_multiturn=fewshot_as_multiturn,
    )
    data_files = data_files_for(
        "triviaqa",
        bundled_sample,
        dataset_path,
        data_files,
        splits=[eval_split, *([fewshot_split] if shots > 0 else [])],
    )
    config = dataset_config
    if include_evidence:
        config = config.removesuffix(".nocontext")
    columns = [*REQUIRED_COLUMNS, *(EVIDENCE_COLUMNS if include_evidence else ())]

    def load(split: str) -> LoadedSplit:
        return load_split(
            benchmark="TriviaQA",
            hub_path=DATASET_PATH,
            config=config,
            split=split,
            dataset_path=dataset_path,
            data_files=data_files,
            required_columns=columns,
            single_file_split=eval_split,
        )

    eval_rows = load(eval_split)
    require_unique_ids(eval_rows, num_examples)
    template = block_template(prompt_format, include_evidence)
    evidence_chars = evidence_max_chars if include_evidence else None
    demonstrations: TriviaQADemonstrations | None = None
    draws = None
    if shots > 0:
        fewshot_rows = load(fewshot_split)
        draws = fewshot_draws(fewshot_rows, eval_rows, shots, fewshot_seed, prompt_format)
        demonstrations = TriviaQADemonstrations(fewshot_rows, prompt_format, evidence_chars)

    def build(row: int, record: dict[str, Any]) -> Sample:
        sample = record_to_sample(record)
        assert sample.metadata is not None
        if evidence_chars is not None:
            sample.metadata["evidence"] = evidence_text(record, evidence_chars)
        if draws is not None and demonstrations is not None:
            drawn = draws.for_question(row)
            for index in drawn:
                demonstrations[index]  # read and checked now, before any model call
            sample.metadata[FEWSHOT_KEY] = drawn
        return sample

    return Task(
        name="benchmarks/triviaqa",
        dataset=dataset_from_rows(
            eval_rows,
            build,
            name=f"trivia_qa_{config}_{eval_split}",
            size=num_examples,
            columns=columns,
        ),
        solver=[
            fewshot_prompt(demonstrations or [], template, multiturn=fewshot_as_multiturn),
            generate(),
        ],
        scorer=triviaqa_scorer(metric=metric, answer_extraction=answer_extraction),
        config=GenerateConfig(stop_seqs=STOP_SEQUENCES[answer_extraction], max_tokens=MAX_TOKENS),
        version="1.4.0",
    )


def require_unique_ids(split: LoadedSplit, size: int | None) -> None:
    """Fail, naming the row, when a question_id repeats among the rows evaluated."""
    question_ids = split.rows.data.table.column("question_id").slice(0, size)
    first_row: dict[object, int] = {}
    for row, question_id in enumerate(question_ids.to_pylist()):
        if question_id is None:
            continue  # reported as a missing field when the row is built
        if question_id in first_row:
            raise DataError(
                f"{split.where}, row {row}: field 'question_id' {question_id!r} repeats "
                f"the id of row {first_row[question_id]}."
            )
        first_row[question_id] = row


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


@metric(name=namespaced("triviaqa_metrics", __name__))
def triviaqa_metrics() -> Metric:
    """``exact_match`` and ``exact_match_stderr``, ``f1``: Inspect's ``accuracy()``,
    ``stderr()`` and ``mean()`` of those keys of triviaqa_scorer's value dicts.

    One metric over the dicts rather than a metrics dict keyed by value key:
    for that, Inspect deep-copies every score once per key each time it
    recomputes the running metrics during a run, about 4,500 Python calls a
    sample (docs/performance.md).
    """
    exact_match, f1 = value_of("exact_match"), value_of("f1")
    statistics = {
        "exact_match": accuracy(to_float=exact_match),
        "exact_match_stderr": stderr(to_float=exact_match),
        "f1": mean(to_float=f1),
    }

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return {name: float(statistic(scores)) for name, statistic in statistics.items()}  # type: ignore[arg-type]

    return compute


def value_of(key: str) -> Callable[[Value], float]:
    """The float under ``key`` of a triviaqa_scorer value dict."""

    def to_float(value: Value) -> float:
        if not isinstance(value, dict) or key not in value:
            raise ValueError(
                f"TriviaQA metrics need triviaqa_scorer's value dict with {key!r}, "
                f"got {value!r:.60}"
            )
        return float(value[key])  # type: ignore[arg-type]

    return to_float


@also_by_short_name
@scorer(metrics=[triviaqa_metrics()], name=namespaced("triviaqa_scorer", __name__))
def triviaqa_scorer(
    metric: TriviaQAMetric = "normalized_alias_exact_match",
    answer_extraction: AnswerExtraction = "stop_sequences",
) -> Scorer:
    """Alias exact match and official token F1 on the extracted short answer.

    Own scorer: Inspect's ``exact``/``f1`` normalize differently from the
    official TriviaQA script.
    """
    matching_alias, alias_source = MATCH_RULES[metric]

    async def score(state: TaskState, target: Target) -> Score:
        answer = extract_short_answer(state.output.completion, answer_extraction)
        normalized_aliases: list[str] = state.metadata["normalized_aliases"]
        aliases = normalized_aliases if alias_source == "normalized_aliases" else target.target
        matched = matching_alias(answer, aliases)
        normalized_answer = normalize_answer(answer)
        no_reply_metadata, no_reply_explanation = candidate_note(state.output)
        return Score(
            value={
                "exact_match": 1.0 if matched is not None else 0.0,
                "f1": max_token_f1(answer, normalized_aliases),
            },
            answer=answer,
            # No score metadata repeating the explanation: Inspect deep-copies
            # each score (per metric key) whenever it updates running metrics.
            explanation=(
                no_reply_explanation
                + f"normalized answer: {normalized_answer!r}; "
                + (f"matched alias {matched!r}" if matched is not None else "no alias matched")
            ),
            metadata=no_reply_metadata or None,
        )

    return score


def _check_parameters(
    *,
    shots: int,
    fewshot_seed: int,
    include_evidence: bool,
    dataset_config: str,
    fewshot_split: str,
    eval_split: str,
    num_examples: int | None,
    evidence_max_chars: int,
    metric: str,
    answer_extraction: str,
    prompt_format: str,
    fewshot_as_multiturn: bool,
) -> int | None:
    """Fail on the first bad parameter; return ``num_examples`` (None: all)."""
    check = ParameterCheck("triviaqa")
    check.integer("shots", shots, minimum=0)
    check.integer("fewshot_seed", fewshot_seed)
    check.boolean("include_evidence", include_evidence)
    check.boolean("fewshot_as_multiturn", fewshot_as_multiturn)
    check.choice("dataset_config", dataset_config, CONFIGS)
    check.choice("metric", metric, MATCH_RULES)
    check.choice("answer_extraction", answer_extraction, ANSWER_EXTRACTIONS)
    check.choice("prompt_format", prompt_format, PROMPT_FORMATS)
    if eval_split == "test":
        check.fail(
            "the test split has no answers (they are withheld); use eval_split='validation'."
        )
    check.choice("eval_split", eval_split, SPLITS)
    check.choice("fewshot_split", fewshot_split, SPLITS)
    if shots > 0 and fewshot_split == "test":
        check.fail("the test split has no answers to demonstrate with; use fewshot_split='train'.")
    if shots > 0 and fewshot_split == eval_split:
        check.fail(
            f"fewshot_split and eval_split are both {eval_split!r}: demonstrations "
            "would leak evaluation answers; draw them from 'train'."
        )
    check.integer("evidence_max_chars", evidence_max_chars, minimum=1)
    return check.optional_integer("num_examples", num_examples, minimum=1, none_means="all rows")
