"""
TriviaQA: A Large Scale Distantly Supervised Challenge Dataset for Reading Comprehension

Mandar Joshi, Eunsol Choi, Daniel S. Weld, Luke Zettlemoyer
https://arxiv.org/abs/1705.03551

Closed-book, few-shot generation on the Wikipedia subset, scored by exact match and token
F1 with the official normalization; lm-evaluation-harness 0.4.13's ``triviaqa`` as profiles
(chat models, and base models over the completions endpoint). docs/triviaqa.md says how the
demonstrations are drawn, the reply cut and scored, and what each parameter and profile does.

# 5-shot on the first 20 questions
inspect eval benchmarks/triviaqa --model openai/gpt-4o-mini --limit 20

# lm-evaluation-harness 0.4.13, chat models
inspect eval benchmarks/triviaqa --model openai/gpt-4o-mini -T profile=lm_eval_0.4.13
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from inspect_ai import Task, task

from benchmarks.data.rows import DataFiles
from benchmarks.data.source import DataSource
from benchmarks.data.triviaqa import (
    DATASET,
    check_splits,
    oracle_questions,
    triviaqa_data,
)
from benchmarks.models.completions_endpoint import generate_from_token_ids
from benchmarks.profiles import chosen_profile
from benchmarks.profiles.triviaqa import (
    PROFILES,
    AnswerExtraction,
    CompletionsPrompt,
    Config,
    PromptFormat,
    TriviaQAMetric,
)
from benchmarks.runtime.registry_names import namespaced
from benchmarks.runtime.task_parameters import (
    PROFILES_VALUE,
    Minimum,
    NoneMeans,
    OneOf,
    ShardParameter,
    task_arguments,
)
from benchmarks.scorers.answer_matching import STOP_SEQUENCES
from benchmarks.scorers.triviaqa import triviaqa_scorer
from benchmarks.solvers.fewshot import fewshot_prompt
from benchmarks.solvers.prompted import prompted
from benchmarks.solvers.triviaqa import block_template
from benchmarks.spec import BenchmarkSpec, CompareMetric, FormerVersions, Listing

Split = Literal["train", "validation", "test"]
EVIDENCE_MAX_CHARS = 4000
RENAMED_VALUES = {
    ("prompt_format", "lm_eval_harness"): "lm_eval",
    ("prompt_format", "default"): "canonical",
    ("answer_extraction", "lm_eval_harness"): "lm_eval",
}


@task(
    name=namespaced("triviaqa", __name__),
    description="Closed-book few-shot TriviaQA (Wikipedia): alias exact match and token F1",
)
def triviaqa(
    profile: Annotated[str, OneOf(PROFILES)] = "default",
    shots: Annotated[int | None, Minimum(0), NoneMeans(PROFILES_VALUE)] = None,
    fewshot_seed: Annotated[int | None, NoneMeans(PROFILES_VALUE)] = None,
    prompt_format: Annotated[PromptFormat | None, NoneMeans(PROFILES_VALUE)] = None,
    fewshot_as_multiturn: Annotated[bool | None, NoneMeans(PROFILES_VALUE)] = None,
    answer_extraction: Annotated[AnswerExtraction | None, NoneMeans(PROFILES_VALUE)] = None,
    metric: Annotated[TriviaQAMetric | None, NoneMeans(PROFILES_VALUE)] = None,
    dataset_config: Annotated[Config | None, NoneMeans(PROFILES_VALUE)] = None,
    completions_prompt: Annotated[CompletionsPrompt | None, NoneMeans(PROFILES_VALUE)] = None,
    stop_at_eos: Annotated[bool | None, NoneMeans(PROFILES_VALUE)] = None,
    fewshot_split: Split = "train",
    eval_split: Split = "validation",
    num_examples: Annotated[int | None, Minimum(1), NoneMeans("all rows")] = None,
    shard: ShardParameter = None,
    include_evidence: bool = False,
    evidence_max_chars: Annotated[int, Minimum(1)] = EVIDENCE_MAX_CHARS,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
    **unknown: Any,
) -> Task:
    """Closed-book few-shot TriviaQA with alias exact match and token F1.

    Args:
        profile: The reference profile (``benchmarks/profiles/triviaqa.py``); each switch
            left None takes the profile's value (docs/triviaqa.md lists them).
        fewshot_split: Split the demonstrations are drawn from.
        eval_split: Split evaluated (``test`` has no answers and is refused).
        num_examples: Evaluate only the first this many rows (None: all).
        shard: Evaluate only shard ``i/n`` of the questions (None: all; docs/scaling.md).
        include_evidence: Put the Wikipedia/web evidence before every
            demonstration and question (loads the config without ``.nocontext``).
        evidence_max_chars: Evidence kept per question, in characters.
        dataset_path: Hub id, local snapshot folder or local data file.
        data_files: Local file for ``eval_split``, or mapping split -> file.
        bundled_sample: Read the few real rows shipped with the package instead
            of the Hub or a file (a try-out, offline; not a measurement).
    """
    args = task_arguments(triviaqa, locals(), renamed_values=RENAMED_VALUES)
    settings = chosen_profile(PROFILES, args)
    check_splits(settings.shots, fewshot_split, eval_split)
    splits = [eval_split, *([fewshot_split] if settings.shots > 0 else [])]
    source = DataSource.of(args, "TriviaQA", DATASET, splits=splits)
    data = triviaqa_data(
        source,
        settings,
        fewshot_split=fewshot_split,
        eval_split=eval_split,
        num_examples=args.num_examples,
        include_evidence=include_evidence,
        evidence_max_chars=evidence_max_chars,
    )
    generation = None  # prompted's: generate()
    if settings.completions_prompt == "token_ids":
        generation = generate_from_token_ids(stop_at_eos=settings.stop_at_eos)
    return settings.task(
        args,
        name="benchmarks/triviaqa",
        dataset=data.dataset,
        **prompted(
            fewshot_prompt(
                data.demonstrations or [],
                block_template(settings.prompt_format, include_evidence),
                multiturn=settings.fewshot_as_multiturn,
                shots=settings.shots,
                seed=settings.fewshot_seed,
            ),
            generation,
        ),
        scorer=triviaqa_scorer(
            metric=settings.metric, answer_extraction=settings.answer_extraction
        ),
        config=settings.generate.merge(
            {"stop_seqs": STOP_SEQUENCES[settings.answer_extraction]}  # type: ignore[arg-type]
        ),
        metadata={
            "dataset_config": data.config,  # the one read (include_evidence drops ".nocontext")
            **source.metadata(),
        },
        version=SPEC.version,
    )


SPEC = BenchmarkSpec(
    name="triviaqa",
    title="TriviaQA",
    task=triviaqa,
    version="1.6.0",
    scorer="triviaqa_scorer",
    value_keys=("exact_match", "f1"),
    compare_metrics=(
        CompareMetric("exact_match", mean_of="exact_match"),
        CompareMetric("f1", mean_of="f1", proportion=False),
    ),
    category_metrics=("exact_match", "f1"),
    breakdowns=("answer_type",),
    order=1,
    headline="exact_match",
    listing=Listing(
        measures="closed-book factual recall, 5-shot",
        default_data="`mandarjoshi/trivia_qa` `rc.wikipedia.nocontext` validation, 7,993",
        reference="official TriviaQA normalization and F1; lm-evaluation-harness 0.4.13 as "
        "profiles (chat models; base models over the completions endpoint, as text or "
        "token ids)",
        metrics="`exact_match` (± stderr), `f1`",
    ),
    dataset=DATASET,
    oracle=oracle_questions,
    profiles=PROFILES,
    # 1.6.0 renamed prompt_format default canonical (the same prompt)
    former_versions=FormerVersions(
        versions=("1.5.0",), renamed_values={("prompt_format", "default"): "canonical"}
    ),
)
