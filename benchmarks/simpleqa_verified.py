"""
SimpleQA Verified: A Reliable Factuality Benchmark to Measure Parametric Knowledge

Lukas Haas, Gal Yona, Giovanni D'Antonio, Sasha Goldshtein, Dipanjan Das
https://arxiv.org/abs/2509.07968

1,000 SimpleQA questions re-checked by Google DeepMind and Google Research, graded by
SimpleQA's judge (``benchmarks.scorers.judge``) as DeepMind's Kaggle notebook "SimpleQA
Verified Benchmark Starter Code" does; inspect_evals 0.28.0's ``simpleqa_verified`` as a
profile. docs/simpleqa_verified.md says what each profile sends and each parameter does.

inspect eval benchmarks/simpleqa_verified --model openai/gpt-4o-mini \
    --model-role grader=openai/gpt-4.1-2025-04-14
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from inspect_ai import Task, task

from benchmarks.data.rows import DataFiles
from benchmarks.data.simpleqa_verified import (
    COLUMNS,
    DATASET,
    DATASET_CONFIG,
    SPLIT,
    record_to_sample,
)
from benchmarks.data.source import DataSource, samples_dataset
from benchmarks.profiles import PROFILE_SENTINEL, chosen_profile
from benchmarks.profiles.simpleqa_verified import (
    VERIFIED_PROFILES,
    VerifiedGradeParse,
    VerifiedGraderPrompt,
)
from benchmarks.runtime.registry_names import namespaced
from benchmarks.runtime.task_parameters import (
    PROFILES_VALUE,
    Minimum,
    NoneMeans,
    OneOf,
    ShardParameter,
    fail,
    task_arguments,
)
from benchmarks.scorers.judge_prompt import VERIFIED_GRADER_PROMPTS, read_grade_prompt_file
from benchmarks.scorers.simpleqa import GRADE_VALUE_KEYS, SIMPLEQA_COMPARE_METRICS
from benchmarks.scorers.simpleqa_verified import (
    BREAKDOWNS,
    simpleqa_verified_scorer,
    verified_metrics,
)
from benchmarks.spec import BenchmarkSpec, FormerVersions, Listing

TASK = "simpleqa_verified"


@task(
    name=namespaced("simpleqa_verified", __name__),
    description="SimpleQA Verified (1,000 re-checked SimpleQA questions) graded by an LLM "
    "judge (role grader): F1 and breakdowns",
)
def simpleqa_verified(
    profile: Annotated[str, OneOf(VERIFIED_PROFILES)] = "default",
    grade_parse: Annotated[VerifiedGradeParse | None, NoneMeans(PROFILES_VALUE)] = None,
    grader_prompt: Annotated[VerifiedGraderPrompt | None, NoneMeans(PROFILES_VALUE)] = None,
    grade_prompt_file: str | None = None,
    grader_temperature: Annotated[
        float | None | Literal["profile"], Minimum(0), NoneMeans("the grader's own")
    ] = PROFILE_SENTINEL,
    grader_max_tokens: Annotated[
        int | None | Literal["profile"], Minimum(1), NoneMeans("the grader's own")
    ] = PROFILE_SENTINEL,
    breakdowns: bool = True,
    judge_cache: bool = False,
    num_examples: Annotated[int | None, Minimum(1), NoneMeans("all rows")] = None,
    shard: ShardParameter = None,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
    **unknown: Any,
) -> Task:
    """SimpleQA Verified, graded by an LLM judge (model role ``grader``).

    Args:
        profile: The reference profile (``benchmarks/profiles/simpleqa_verified.py``); each
            switch left None (or "profile") takes the profile's value (docs/simpleqa_verified.md
            lists them).
        grade_prompt_file: A UTF-8 file holding a judge prompt of your own.
        breakdowns: Also report the metrics per topic, answer_type, multi_step and
            requires_reasoning.
        judge_cache: Cache the judge's replies (Inspect's generate cache).
        num_examples: Evaluate only the first this many questions (None: all).
        shard: Evaluate only shard ``i/n`` of the questions (None: all; docs/scaling.md).
        dataset_path: Hub id, local snapshot folder or local file in the published schema.
        data_files: A local file, or ``{"eval": file}``.
        bundled_sample: Read the stand-in rows shipped with the package (an offline try-out).
    """
    args = task_arguments(simpleqa_verified, locals())
    settings = chosen_profile(VERIFIED_PROFILES, args)
    if isinstance(data_files, Mapping) and set(data_files) != {SPLIT}:
        fail(
            TASK,
            "SimpleQA Verified has one split, 'eval': data_files must be a file or "
            f"{{'eval': file}}, got the key(s) {', '.join(repr(k) for k in data_files)}.",
        )
    if grade_prompt_file is not None and grader_prompt is not None:
        fail(TASK, "pass either grader_prompt or grade_prompt_file, not both.")
    if grade_prompt_file is not None:
        grade_prompt = read_grade_prompt_file(grade_prompt_file, TASK)
    else:
        grade_prompt = VERIFIED_GRADER_PROMPTS[settings.grader_prompt]
    source = DataSource.of(args, "SimpleQA Verified", DATASET, splits=[SPLIT])
    rows = source.rows(SPLIT, columns=COLUMNS, config=DATASET_CONFIG)
    return settings.task(
        args,
        name="benchmarks/simpleqa_verified",
        dataset=samples_dataset(
            rows,
            lambda row, record: record_to_sample(record),
            name=TASK,
            num_examples=args.num_examples,
            unique_field="original_index",
        ),
        scorer=simpleqa_verified_scorer(
            grade_prompt=grade_prompt,
            grade_parse=settings.grade_parse,
            grader_temperature=settings.grader_temperature,
            grader_max_tokens=settings.grader_max_tokens,
            judge_cache=judge_cache,
        ),
        metrics=verified_metrics(breakdowns),
        metadata={"grade_prompt_file": grade_prompt_file, **source.metadata()},
        version=SPEC.version,
    )


SPEC = BenchmarkSpec(
    name="simpleqa_verified",
    title="SimpleQA Verified",
    task=simpleqa_verified,
    version="1.3.0",
    scorer="simpleqa_verified_scorer",
    value_keys=tuple(GRADE_VALUE_KEYS.values()),
    compare_metrics=SIMPLEQA_COMPARE_METRICS,
    category_metrics=("correct", "attempted_accuracy"),
    breakdowns=BREAKDOWNS,
    order=3,
    headline="f1",
    listing=Listing(
        measures="the same, on 1,000 re-checked questions",
        default_data="`google/simpleqa-verified` `eval`, 1,000, or the Kaggle CSV",
        reference="DeepMind's Kaggle starter code (grade parse); `-T grader_prompt=paper` "
        "(default: the profile's, `simple_evals`): the paper's autorater prompt; inspect_evals "
        "0.28.0 `simpleqa_verified` as a profile",
        metrics="`f1` (± stderr), `correct`, `attempted_accuracy`, ... per topic, answer type, "
        "multi-step, reasoning",
    ),
    dataset=DATASET,
    profiles=VERIFIED_PROFILES,
    judged=True,
    # 1.3.0 left grader_temperature and grader_max_tokens to the profile ("profile"), whose
    # values under default and kaggle_starter are 1.2.0's defaults
    former_versions=FormerVersions(versions=("1.2.0",)),
)
