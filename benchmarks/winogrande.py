"""
WinoGrande: An Adversarial Winograd Schema Challenge at Scale

Keisuke Sakaguchi, Ronan Le Bras, Chandra Bhagavatula, Yejin Choi
https://arxiv.org/abs/1907.10641

Two-choice fill-in-the-blank questions asked as evalscope 1.14.1's ``winogrande`` asks them
(0-shot, options lettered A/B, accuracy on the letter of the last ``ANSWER: X``);
inspect_evals 0.28.0's ``winogrande`` and lm-evaluation-harness 0.4.13's (each option scored
by log-likelihood) as profiles. docs/winogrande.md says what each profile sends and each
parameter does.

# 0-shot on the 1,267 validation questions
inspect eval benchmarks/winogrande.py --model openai/gpt-4o-mini

# evalscope 1.14.1's winogrande: prompt, reply parsing, generation settings
inspect eval benchmarks/winogrande.py --model openai/gpt-4o-mini -T profile=evalscope_1.14.1
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from inspect_ai import Task, task

from benchmarks.data.rows import DataFiles
from benchmarks.data.source import DataSource
from benchmarks.data.winogrande import (
    COLUMNS,
    DATASET,
    FEWSHOT_SPLIT,
    loglikelihood_dataset,
    offered_letters,
    oracle_questions,
    winogrande_dataset,
)
from benchmarks.profiles import chosen_profile
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
    ShardParameter,
    fail,
    task_arguments,
)
from benchmarks.runtime.task_record import SolverWatch
from benchmarks.scorers.loglikelihood import loglikelihood_choice
from benchmarks.scorers.mcq_scorer import option_letter_scorer
from benchmarks.solvers.loglikelihood import option_loglikelihoods
from benchmarks.solvers.prompted import prompted
from benchmarks.solvers.winogrande import question_prompt

# the evalscope-format prompt solver, for chains of one's own (examples/custom_chain.py)
from benchmarks.solvers.winogrande import winogrande_prompt as winogrande_prompt
from benchmarks.spec import BenchmarkSpec, FormerVersions, Listing, OfferedOptions

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


@task(
    name=namespaced("winogrande", __name__),
    description="Winogrande 0-shot two-choice MCQ (evalscope template): letter accuracy",
)
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
        profile: The reference profile (``benchmarks/profiles/winogrande.py``); each switch
            left None takes the profile's value (docs/winogrande.md lists them).
        dataset_config: Hub config (they differ only in their train split).
        eval_split: Split evaluated (``test`` has empty answers and is refused).
        num_examples: Evaluate only the first this many rows (None: all).
        shard: Evaluate only shard ``i/n`` of the questions (None: all; docs/scaling.md).
        dataset_path: Hub id, local snapshot folder or local data file.
        data_files: Local file for ``eval_split``, or mapping split -> file.
        bundled_sample: Read the few real rows shipped with the package (an offline try-out).
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
    splits = [eval_split, *([FEWSHOT_SPLIT] if settings.shots > 0 else [])]
    source = DataSource.of(args, "Winogrande", DATASET, splits=splits)
    metadata = {"dataset_config": dataset_config, **source.metadata()}
    if settings.scoring == "loglikelihood":
        request = {"columns": COLUMNS, "config": dataset_config, "single_file_split": eval_split}
        return settings.task(
            args,
            name="benchmarks/winogrande",
            dataset=loglikelihood_dataset(
                source,
                request,
                eval_split,
                args.num_examples,
                shots=settings.shots,
                fewshot_seed=settings.fewshot_seed,
            ),
            # its own step requests the options' scores: a solver in its place is refused
            solver=option_loglikelihoods(settings.loglikelihood_request),
            scorer=loglikelihood_choice(),
            early_stopping=SolverWatch(loglikelihood_refusal),
            metadata=metadata,
            version=SPEC.version,
        )
    dataset, demonstrations = winogrande_dataset(
        source, settings, dataset_config, eval_split, args.num_examples
    )
    return settings.task(
        args,
        name="benchmarks/winogrande",
        dataset=dataset,
        **prompted(question_prompt(settings.prompt_format, demonstrations)),
        scorer=option_letter_scorer(settings.answer_parse),
        metadata=metadata,
        version=SPEC.version,
    )


def loglikelihood_refusal(solver: str) -> str:
    return (
        f"winogrande: the solver {solver} cannot run this profile's samples: it scores each "
        "option by log-likelihood, which only the task's own solver requests. Run a "
        "generative profile with it (-T scoring=generate, or -T profile=default), or run "
        "the task without a solver of your own."
    )


SPEC = BenchmarkSpec(
    name="winogrande",
    title="Winogrande",
    task=winogrande,
    version="1.5.0",
    scorer="option_letter_scorer",
    other_scorers=("loglikelihood_choice",),
    order=4,
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
