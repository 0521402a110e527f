"""SimpleQA Verified's scorer and metrics: SimpleQA's judge registered again with the task's
metrics (so an ``inspect score`` re-grading reports them), ``f_score`` named ``f1`` as the
paper names its headline F1.
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, Scorer, scorer

from benchmarks.runtime.registry_names import also_by_short_name, namespaced
from benchmarks.scorers.judge import simpleqa_scorer
from benchmarks.scorers.judge_agreement import judge_panel_metrics
from benchmarks.scorers.judge_prompt import GradeParse
from benchmarks.scorers.simpleqa import breakdown_metrics, simpleqa_metrics

RENAMED = {"f_score": "f1"}
BREAKDOWNS = ("topic", "answer_type", "multi_step", "requires_reasoning")
BREAKDOWN_STATISTICS = ("accuracy", "attempted_accuracy", "abstention_rate", "f_score")


def verified_metrics(breakdowns: bool = True) -> list[Metric | dict[str, list[Metric]]]:
    """SimpleQA's statistics with f1 named as the paper names it, the breakdowns
    (``<statistic>[<Group>=<value>]``) when asked, and the panel's."""
    metrics: list[Metric | dict[str, list[Metric]]] = [
        simpleqa_metrics(renamed=RENAMED, headline="f_score")  # the paper's headline F1
    ]
    if breakdowns:
        for group in BREAKDOWNS:
            metrics += breakdown_metrics(group, BREAKDOWN_STATISTICS, RENAMED)
    metrics.append(judge_panel_metrics(renamed=RENAMED))
    return metrics


# The metrics an `inspect score` re-grading reports: the task's, not SimpleQA's.
@also_by_short_name
@scorer(metrics=verified_metrics(), name=namespaced("simpleqa_verified_scorer", __name__))
def simpleqa_verified_scorer(
    grade_prompt: str | None = None,
    grade_parse: GradeParse = "strict",
    grader_temperature: float | None = None,
    grader_max_tokens: int | None = None,
    judge_cache: bool = False,
) -> Scorer:
    """``benchmarks.scorers.judge.simpleqa_scorer`` with SimpleQA Verified's metrics."""
    return simpleqa_scorer(
        grade_prompt=grade_prompt,
        grade_parse=grade_parse,
        grader_temperature=grader_temperature,
        grader_max_tokens=grader_max_tokens,
        judge_cache=judge_cache,
    )
