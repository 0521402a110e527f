"""
Learn to Explain: Multimodal Reasoning via Thought Chains for Science Question Answering

Pan Lu, Swaroop Mishra, Tony Xia, Liang Qiu, Kai-Wei Chang, Song-Chun Zhu,
Oyvind Tafjord, Peter Clark, Ashwin Kalyan
https://arxiv.org/abs/2209.09513

Zero-shot multiple choice on ScienceQA, the image (if any) before the text, the reply read
by the rule of lmms-eval 0.7.3's ``scienceqa`` (after LLaVA), accuracy also in the columns
of the paper's table. docs/scienceqa.md says what the prompt holds, which replies are read
and what each parameter and profile does.

# all 4,241 test questions
inspect eval benchmarks/scienceqa.py --model openai/gpt-4o-mini

# lmms-eval 0.7.3's scienceqa: its prompt, reply rule and generation settings
inspect eval --run-config configs/scienceqa_lmms_eval.yaml --model openai/gpt-4o-mini
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from inspect_ai import Task, task

from benchmarks.data.image_encoding import ImageFormat
from benchmarks.data.rows import DataFiles
from benchmarks.data.scienceqa import (
    BREAKDOWNS,
    DATASET,
    offered_letters,
    oracle_questions,
    paper_columns_of_former_metadata,
    scienceqa_dataset,
)
from benchmarks.data.source import DataSource
from benchmarks.profiles import chosen_profile
from benchmarks.profiles.scienceqa import PROFILES, AnswerParse, PromptFormat
from benchmarks.runtime.registry_names import namespaced
from benchmarks.runtime.task_parameters import (
    PROFILES_VALUE,
    Minimum,
    NoneMeans,
    OneOf,
    ShardParameter,
    task_arguments,
)
from benchmarks.scorers.mcq_scorer import option_letter_scorer
from benchmarks.scorers.scienceqa import scienceqa_metrics
from benchmarks.solvers.prompted import prompted
from benchmarks.solvers.scienceqa import scienceqa_prompt
from benchmarks.spec import BenchmarkSpec, FormerVersions, Listing, OfferedOptions

Split = Literal["train", "validation", "test"]
Subset = Literal["all", "image", "no_image"]

RENAMED = {
    "split": "eval_split",
    "strict_parse": "answer_parse (strict_parse=true is answer_parse=lmms_eval)",
}
RENAMED_VALUES = {("prompt_format", "default"): "question_options"}
# answer_parse -> benchmarks.scorers.letter_reading.LETTER_PARSERS
LETTER_PARSER = {"option_letter": "option_letter", "lmms_eval": "option_letter_strict"}


@task(
    name=namespaced("scienceqa", __name__),
    description="ScienceQA multiple choice with optional image: "
    "option-letter accuracy by subject, context and grade",
)
def scienceqa(
    profile: Annotated[str, OneOf(PROFILES)] = "default",
    prompt_format: Annotated[PromptFormat | None, NoneMeans(PROFILES_VALUE)] = None,
    answer_parse: Annotated[AnswerParse | None, NoneMeans(PROFILES_VALUE)] = None,
    eval_split: Split = "test",
    subset: Subset = "all",
    num_examples: Annotated[int | None, Minimum(1), NoneMeans("all rows")] = None,
    shard: ShardParameter = None,
    image_format: ImageFormat = "png",
    max_image_side: Annotated[int | None, Minimum(1), NoneMeans("full size")] = None,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
    **unknown: Any,
) -> Task:
    """ScienceQA multiple choice, with the image (if any) before the text.

    Args:
        profile: The reference profile (``benchmarks/profiles/scienceqa.py``); each switch
            left None takes the profile's value (docs/scienceqa.md lists them).
        eval_split: Split evaluated.
        subset: ``all``, ``image`` (rows with an image) or ``no_image``.
        num_examples: Evaluate only the first this many rows of the subset (None: all).
        shard: Evaluate only shard ``i/n`` of the questions (None: all; docs/scaling.md).
        image_format: ``png`` (lossless) or ``jpeg`` (quality 95).
        max_image_side: Longest image side in pixels, scaled down to it (None: full size).
        dataset_path: Hub id, local snapshot folder or local data file.
        data_files: Local file for ``eval_split``, or mapping split -> file.
        bundled_sample: Read the real rows shipped with the package (an offline try-out).
    """
    args = task_arguments(scienceqa, locals(), renamed=RENAMED, renamed_values=RENAMED_VALUES)
    settings = chosen_profile(PROFILES, args)
    source = DataSource.of(args, "ScienceQA", DATASET, splits=[eval_split])
    dataset = scienceqa_dataset(
        source,
        eval_split=eval_split,
        subset=subset,
        num_examples=args.num_examples,
        image_format=image_format,
        max_image_side=args.max_image_side,
    )
    return settings.task(
        args,
        name="benchmarks/scienceqa",
        dataset=dataset,
        **prompted(scienceqa_prompt(settings.prompt_format)),
        scorer=option_letter_scorer(LETTER_PARSER[settings.answer_parse]),
        metrics=scienceqa_metrics(),
        metadata=source.metadata(),
        version=SPEC.version,
    )


SPEC = BenchmarkSpec(
    name="scienceqa",
    title="ScienceQA",
    task=scienceqa,
    version="1.4.0",
    scorer="option_letter_scorer",
    category_metrics=("accuracy",),
    breakdowns=tuple(BREAKDOWNS),
    order=5,
    listing=Listing(
        measures="multimodal science multiple choice",
        default_data="`derek-thomas/ScienceQA` test, 4,241 (2,017 with an image)",
        reference="lmms-eval 0.7.3 `scienceqa` (LLaVA rule)",
        metrics="`accuracy` (± stderr), by subject, context, grade band",
    ),
    dataset=DATASET,
    oracle=oracle_questions,
    offered_options=OfferedOptions(offered_letters),
    profiles=PROFILES,
    # 1.1.0 wrote scienceqa_test_12 where 1.2.0 writes test_12 (the viewer's list cut it);
    # 1.3.0 adds the paper's columns to the sample metadata; 1.4.0 renames prompt_format
    # default (the same prompt)
    former_versions=FormerVersions(
        versions=("1.1.0", "1.2.0", "1.3.0"),
        pattern=re.compile(r"scienceqa_(train|validation|test)_(\d+)"),
        replacement=r"\1_\2",
        metadata=paper_columns_of_former_metadata,
        renamed_values=RENAMED_VALUES,
    ),
)
