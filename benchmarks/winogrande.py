"""
WinoGrande: An Adversarial Winograd Schema Challenge at Scale

Keisuke Sakaguchi, Ronan Le Bras, Chandra Bhagavatula, Yejin Choi
https://arxiv.org/abs/1907.10641

Two-choice fill-in-the-blank (``_``) questions, asked as evalscope 1.14.1's
``winogrande`` benchmark asks them (modelscope/evalscope,
``evalscope/benchmarks/winogrande/winogrande_adapter.py``; the same prompt
since 1.11.0): 0-shot, one user message in evalscope's single-answer
multiple-choice template (``evalscope/utils/multi_choices.py``), options
lettered A/B, temperature 0. Accuracy is on the letter of the last
``ANSWER: X`` in the reply; profile ``evalscope_1.14.1`` reads replies as
evalscope 1.14.1 does (``answer_parse=evalscope_<release>`` as an earlier
release did). Demonstrations, when asked for, follow the layout of
evalscope's multiple-choice few-shot template as read from its source (not
run against evalscope: its Winogrande benchmark is 0-shot, which the peer
test covers). Profile ``inspect_evals_0.28.0`` asks as inspect_evals 0.28.0's
``winogrande`` does (``inspect_evals/winogrande/winogrande.py``): 5 demonstrations
from the train split, Hugging Face's shuffle with seed 42, the same for every
question, in a system message; the question in Inspect's ``multiple_choice()``
template with ``[BLANK]``; the reply read by Inspect's ``choice()`` rule; max_tokens 64.

# 0-shot on the 1,267 validation questions
inspect eval benchmarks/winogrande.py --model openai/gpt-4o-mini

# evalscope 1.14.1's winogrande: prompt, reply parsing, generation settings
inspect eval benchmarks/winogrande.py --model openai/gpt-4o-mini -T profile=evalscope_1.14.1

# 5-shot, demonstrations drawn from the winogrande_xl train split
inspect eval benchmarks/winogrande.py --model openai/gpt-4o-mini -T shots=5

# inspect_evals 0.28.0's winogrande: system message of demonstrations, its template
inspect eval benchmarks/winogrande.py --model openai/gpt-4o-mini -T profile=inspect_evals_0.28.0
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.solver import generate

from benchmarks.data.shards import ShardParameter, shard_task
from benchmarks.data.source import DataSource, rows_dataset
from benchmarks.data.split_reader import DataFiles
from benchmarks.data.winogrande import (
    COLUMNS,
    DATASET,
    offered_letters,
    oracle_questions,
    record_to_sample,
)
from benchmarks.data.winogrande_loglikelihood import loglikelihood_dataset
from benchmarks.profiles import chosen_profile
from benchmarks.profiles.switch_docs import documented_switches
from benchmarks.profiles.winogrande import (
    PROFILES,
    AnswerParse,
    FewshotDraw,
    LoglikelihoodRequest,
    PromptFormat,
    Scoring,
)
from benchmarks.runtime.registry_names import namespaced
from benchmarks.runtime.task_parameters import (
    PROFILES_VALUE,
    Minimum,
    NoneMeans,
    OneOf,
    fail,
    task_arguments,
)
from benchmarks.scorers.loglikelihood import loglikelihood_choice
from benchmarks.scorers.mcq_scorer import option_letter_scorer
from benchmarks.solvers.fewshot import FEWSHOT_KEY
from benchmarks.solvers.loglikelihood import option_loglikelihoods
from benchmarks.solvers.prompted import prompt_then_generate
from benchmarks.solvers.winogrande import WinograndeDemonstrations, question_prompt

# the evalscope-format prompt solver, for chains of one's own (examples/custom_chain.py)
from benchmarks.solvers.winogrande import winogrande_prompt as winogrande_prompt
from benchmarks.spec import BenchmarkSpec, CompareMetric, FormerVersions, Listing, OfferedOptions

Config = Literal[
    "winogrande_xs",
    "winogrande_s",
    "winogrande_m",
    "winogrande_l",
    "winogrande_xl",
    "winogrande_debiased",
]
EvalSplit = Literal["validation", "train"]
# evalscope 1.14.1's rule is answer_parse=evalscope: no switch value is a profile's name
RENAMED_VALUES = {("answer_parse", "evalscope_1.14.1"): "evalscope"}
FEWSHOT_SPLIT = "train"


@task(
    name=namespaced("winogrande", __name__),
    description="Winogrande 0-shot two-choice MCQ (evalscope template): letter accuracy",
)
@documented_switches(PROFILES)
def winogrande(
    profile: Annotated[str, OneOf(PROFILES)] = "default",
    shots: Annotated[int | None, Minimum(0), NoneMeans(PROFILES_VALUE)] = None,
    fewshot_seed: Annotated[int | None, NoneMeans(PROFILES_VALUE)] = None,
    answer_parse: Annotated[AnswerParse | None, NoneMeans(PROFILES_VALUE)] = None,
    scoring: Annotated[Scoring | None, NoneMeans(PROFILES_VALUE)] = None,
    loglikelihood_request: Annotated[LoglikelihoodRequest | None, NoneMeans(PROFILES_VALUE)] = None,
    prompt_format: Annotated[PromptFormat | None, NoneMeans(PROFILES_VALUE)] = None,
    fewshot_draw: Annotated[FewshotDraw | None, NoneMeans(PROFILES_VALUE)] = None,
    dataset_config: Config = "winogrande_xl",
    eval_split: EvalSplit = "validation",
    num_examples: Annotated[int | None, Minimum(1), NoneMeans("all rows")] = None,
    shard: ShardParameter = None,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
    **unknown: Any,
) -> Task:
    """Winogrande as a two-choice question answered with ``ANSWER: A|B``.

    Args:
        dataset_config: Hub config, one of ``winogrande_xs``, ``_s``, ``_m``,
            ``_l``, ``_xl``, ``_debiased``; they differ only in their train
            split (validation is the same 1,267 rows in every config).
        eval_split: Split evaluated (``test`` has empty answers and is refused).
        num_examples: Evaluate only the first this many rows (None: all). Unlike
            ``--limit``, rows past it are never built.
        shard: Evaluate only shard ``i/n`` of the questions: every n-th from the
            i-th, counted from 0 (None: all), for a run split over processes or
            machines; ``python -m benchmarks.shards merge`` joins the shards' logs
            into the whole run's (docs/scaling.md).
        dataset_path: Hub id, local snapshot folder or local data file.
        data_files: Local file for ``eval_split``, or mapping split -> file
            (with ``shots`` > 0 the mapping needs a ``train`` entry).
        bundled_sample: Read the few real rows shipped with the package instead
            of the Hub or a file (a try-out, offline; not a measurement).
    """
    if eval_split == "test":
        fail(
            "winogrande",
            "the test split's answers are empty (the labels are withheld for the "
            "leaderboard); use eval_split='validation'.",
        )
    args = task_arguments(winogrande, locals(), renamed_values=RENAMED_VALUES)
    settings = chosen_profile(PROFILES, args)
    if settings.shots > 0 and eval_split == FEWSHOT_SPLIT:
        fail(
            "winogrande",
            "shots > 0 draws demonstrations from the train split, which is also "
            "eval_split: demonstrations would leak answers; use eval_split='validation'.",
        )
    source = DataSource(
        "winogrande",
        "Winogrande",
        DATASET,
        dataset_path=dataset_path,
        data_files=data_files,
        bundled_sample=bundled_sample,
        splits=[eval_split, *([FEWSHOT_SPLIT] if settings.shots > 0 else [])],
    )

    request = {"columns": COLUMNS, "config": dataset_config, "single_file_split": eval_split}
    if settings.scoring == "loglikelihood":
        dataset = loglikelihood_dataset(
            source,
            request,
            record_to_sample,
            eval_split,
            args.num_examples,
            shots=settings.shots,
            fewshot_seed=settings.fewshot_seed,
        )
        solver = option_loglikelihoods(settings.loglikelihood_request)
        scorer = loglikelihood_choice()
    else:
        demonstrations = None
        if settings.shots > 0:
            pool = source.pool(FEWSHOT_SPLIT, keep=COLUMNS, **request)
            demonstrations = WinograndeDemonstrations(
                pool, settings.shots, settings.fewshot_seed, settings.fewshot_draw
            )
        dataset = rows_dataset(
            source.rows(eval_split, **request),
            generative_sample(eval_split, demonstrations),
            name=f"{dataset_config}_{eval_split}",
            num_examples=args.num_examples,
        )
        solver = prompt_then_generate(
            question_prompt(settings.prompt_format, demonstrations), generate()
        )
        scorer = option_letter_scorer(settings.answer_parse)
    task = Task(
        name="benchmarks/winogrande",
        dataset=dataset,
        solver=solver,
        scorer=scorer,
        config=settings.generate,
        metadata={**settings.metadata(), "dataset_config": dataset_config, **source.metadata()},
        version=SPEC.version,
    )
    return shard_task(settings.recorded_in(task), args.shard)


def generative_sample(
    eval_split: str, demonstrations: WinograndeDemonstrations | None
) -> Callable[[int, dict[str, Any]], Sample]:
    """A row as a question, with the demonstrations drawn for it (if any)."""

    def build(row: int, record: dict[str, Any]) -> Sample:
        sample = record_to_sample(record, sample_id=f"{eval_split}_{row}")
        if demonstrations is not None:
            assert sample.metadata is not None
            sample.metadata[FEWSHOT_KEY] = demonstrations.drawn(row)
        return sample

    return build


SPEC = BenchmarkSpec(
    name="winogrande",
    title="Winogrande",
    task=winogrande,
    version="1.5.0",
    scorer="option_letter_scorer",
    other_scorers=("loglikelihood_choice",),
    value_keys=(),
    compare_metrics=(CompareMetric("accuracy", mean_of="correct"),),
    category_metrics=(),
    breakdowns=(),
    order=4,
    headline="accuracy",
    listing=Listing(
        measures="commonsense pronoun resolution, 0-shot two-choice",
        default_data="`allenai/winogrande` validation, 1,267",
        reference="evalscope 1.14.1 `winogrande`; inspect_evals 0.28.0 `winogrande` (5-shot, "
        "system message) and lm-evaluation-harness 0.4.13 `winogrande` by log-likelihood as "
        "profiles (base models: `local-completions`, `gguf`; 0- or 5-shot)",
        metrics="`accuracy` (± stderr), `parse_failure_rate` (generative)",
    ),
    dataset=DATASET,
    oracle=oracle_questions,
    offered_options=OfferedOptions(offered_letters, reply="ANSWER: {letter}"),
    profiles=PROFILES,
    # 1.2.0 (generative) and 1.3.0 (log-likelihood) wrote winogrande_xl_validation_12 where
    # 1.4.0 writes validation_12 (the viewer's list cut it; the config is the dataset's name);
    # their questions, prompts and scores are 1.4.0's under the same arguments; 1.5.0 renamed
    # answer_parse evalscope_1.14.1 evalscope (the same rule)
    former_versions=FormerVersions(
        versions=("1.2.0", "1.3.0", "1.4.0"),
        pattern=re.compile(r"winogrande_(?:xs|s|m|l|xl|debiased)_(validation|train)_(\d+)"),
        replacement=r"\1_\2",
        # the switches 1.4.0 added, as the earlier versions behaved
        added_args={"prompt_format": "evalscope", "fewshot_draw": "per_question"},
        renamed_values=RENAMED_VALUES,
    ),
)
