"""
SimpleQA: Measuring short-form factuality in large language models

Jason Wei, Nguyen Karina, Hyung Won Chung, Yunxin Joy Jiao, Spencer Papay,
Amelia Glaese, John Schulman, William Fedus
https://cdn.openai.com/papers/simpleqa.pdf

The question goes to the model under test, a judge model (role ``grader``) grades the reply
with the grader template of openai/simple-evals ``simpleqa_eval.py`` (ee3b031); simple-evals
and inspect_evals 0.28.0's ``simpleqa`` as profiles. docs/simpleqa.md says what each profile
sends and each parameter does.

# all 4,326 questions, graded by gpt-4o as in the paper era
inspect eval benchmarks/simpleqa --model openai/gpt-4o-mini --model-role grader=openai/gpt-4o
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from inspect_ai import Task, task

from benchmarks.data import download
from benchmarks.data.rows import DataFiles
from benchmarks.data.simpleqa import DATASET_URL, simpleqa_dataset
from benchmarks.profiles import PROFILE_SENTINEL, chosen_profile
from benchmarks.profiles.simpleqa import (
    SIMPLEQA_PROFILES,
    SimpleQAGradeParse,
    SimpleQAGraderPrompt,
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
from benchmarks.scorers.judge import simpleqa_scorer
from benchmarks.scorers.judge_agreement import judge_panel_metrics
from benchmarks.scorers.judge_prompt import (
    SIMPLEQA_GRADER_PROMPTS,
    read_grade_prompt_file,
    template_problem,
)
from benchmarks.scorers.simpleqa import (
    GRADE_VALUE_KEYS,
    SIMPLEQA_COMPARE_METRICS,
    simpleqa_task_metrics,
)
from benchmarks.solvers.prompted import prompted
from benchmarks.solvers.simpleqa import ANSWER_PROMPT_FIELDS, ANSWER_TEMPLATE, answer_prompts
from benchmarks.spec import BenchmarkSpec, FormerVersions, Listing

RENAMED = {
    "topic_breakdown": "breakdowns",
    "grade_prompt": "grade_prompt_file (a UTF-8 file holding the judge prompt)",
}
RENAMED_VALUES = {
    ("profile", "simple_evals"): "simple_evals_ee3b031",
    ("profile", "paper"): "default",
}


@task(
    name=namespaced("simpleqa", __name__),
    description="SimpleQA short-form factuality graded by an LLM judge (role grader): "
    "calibration metrics",
)
def simpleqa(
    profile: Annotated[str, OneOf(SIMPLEQA_PROFILES)] = "default",
    grade_parse: Annotated[SimpleQAGradeParse | None, NoneMeans(PROFILES_VALUE)] = None,
    grader_temperature: Annotated[
        float | None | Literal["profile"], Minimum(0), NoneMeans("the grader's own")
    ] = PROFILE_SENTINEL,
    grader_max_tokens: Annotated[
        int | None | Literal["profile"], Minimum(1), NoneMeans("the grader's own")
    ] = PROFILE_SENTINEL,
    answer_prompt: str = ANSWER_TEMPLATE,
    grader_prompt: Annotated[SimpleQAGraderPrompt | None, NoneMeans(PROFILES_VALUE)] = None,
    grade_prompt_file: str | None = None,
    breakdowns: bool = True,
    judge_cache: bool = False,
    num_examples: Annotated[int | None, Minimum(1), NoneMeans("all rows")] = None,
    shard: ShardParameter = None,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
    **unknown: Any,
) -> Task:
    """SimpleQA short-form factuality, graded by an LLM judge (model role ``grader``).

    Args:
        profile: The reference profile (``benchmarks/profiles/simpleqa.py``); each switch
            left None (or "profile") takes the profile's value (docs/simpleqa.md lists them).
        answer_prompt: Template of the question sent to the model under test (``{question}``).
        grade_prompt_file: A UTF-8 file holding the judge prompt, instead of ``grader_prompt``.
        breakdowns: Also report the metrics per topic.
        judge_cache: Cache the judge's replies (Inspect's generate cache).
        num_examples: Evaluate only this many questions (None: all).
        shard: Evaluate only shard ``i/n`` of the questions (None: all; docs/scaling.md).
        dataset_path: Local ``.csv`` or ``.jsonl`` (None: the upstream CSV, verified).
        data_files: Same as a file ``dataset_path``, or ``{"test": file}``.
        bundled_sample: Read the rows shipped with the package (an offline try-out).
    """
    args = task_arguments(simpleqa, locals(), renamed=RENAMED, renamed_values=RENAMED_VALUES)
    settings = chosen_profile(SIMPLEQA_PROFILES, args)
    problem = template_problem(answer_prompt, ANSWER_PROMPT_FIELDS)
    if problem is not None:
        fail("simpleqa", f"answer_prompt {problem}")
    if grade_prompt_file is not None and grader_prompt is not None:
        fail("simpleqa", "pass either grader_prompt or grade_prompt_file, not both.")
    grade_prompt = (
        SIMPLEQA_GRADER_PROMPTS[settings.grader_prompt]
        if grade_prompt_file is None
        else read_grade_prompt_file(grade_prompt_file, "simpleqa")
    )
    data = simpleqa_dataset(
        args.num_examples,
        settings.draw,
        dataset_path=dataset_path,
        data_files=data_files,
        bundled_sample=bundled_sample,
    )
    return settings.task(
        args,
        name="benchmarks/simpleqa",
        dataset=data.dataset,
        **prompted(answer_prompts(answer_prompt, settings.system_message)),
        scorer=simpleqa_scorer(
            grade_prompt=grade_prompt,
            grade_parse=settings.grade_parse,
            grader_temperature=settings.grader_temperature,
            grader_max_tokens=settings.grader_max_tokens,
            grader_system_message=settings.grader_system_message,
            judge_cache=judge_cache,
        ),
        metrics=[*simpleqa_task_metrics(breakdowns), judge_panel_metrics()],
        metadata={
            # the bundled file named inside the package: no path of this machine in the log
            **(
                {"data": "bundled sample", "data_files": f"simpleqa/{data.path.name}"}
                if bundled_sample
                else {"dataset": DATASET_URL if data.upstream else str(data.path)}
            ),
            "dataset_sha256": download.file_sha256(data.path),
        },
        version=SPEC.version,
    )


SPEC = BenchmarkSpec(
    name="simpleqa",
    title="SimpleQA",
    task=simpleqa,
    version="1.5.0",
    scorer="simpleqa_scorer",
    value_keys=tuple(GRADE_VALUE_KEYS.values()),
    compare_metrics=SIMPLEQA_COMPARE_METRICS,
    category_metrics=("correct", "attempted_accuracy"),
    breakdowns=("topic", "answer_type"),
    order=2,
    headline="attempted_accuracy",
    listing=Listing(
        measures="short-form factuality and calibration, LLM-judged",
        default_data="upstream CSV of openai/simple-evals, 4,326",
        reference="openai/simple-evals `simpleqa_eval.py`; inspect_evals 0.28.0 `simpleqa` "
        "(original scorer, its paper config) as a profile",
        metrics="`attempted_accuracy` (± stderr), `correct`, `f_score`, ... per topic",
    ),
    dataset=None,  # not on the Hub: the CSV, checked against its sha256
    profiles=SIMPLEQA_PROFILES,
    judged=True,
    # the switch 1.3.0 added, as 1.2.0 behaved; 1.4.0 renamed the topic metrics only;
    # 1.5.0 renamed the profile paper default
    former_versions=FormerVersions(
        versions=("1.2.0", "1.3.0", "1.4.0"),
        added_args={"grader_prompt": "simple_evals"},
        renamed_values={("profile", "paper"): "default"},
    ),
)
