"""TriviaQA's scorer: alias exact match and the official token F1 on the short answer
(``answer_matching.py``; the ``metric`` choices are on docs/triviaqa.md). Own scorer:
Inspect's ``exact``/``f1`` normalize differently from the official script.
"""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    accuracy,
    mean,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from benchmarks.profiles.triviaqa import AnswerExtraction, TriviaQAMetric
from benchmarks.runtime.registry_names import also_by_short_name, metric_named, namespaced
from benchmarks.scorers.answer_matching import (
    extract_short_answer,
    lm_eval_exact_match,
    max_token_f1,
    normalize_answer,
    normalized_match,
)
from benchmarks.scorers.model_outputs import candidate_note

# metric -> the alias a prediction matches, or None, from (answer, aliases, normalized aliases)
MATCH_RULES: dict[str, Callable[[str, list[str], list[str]], str | None]] = {
    "normalized_alias_exact_match": lambda answer, _, normalized: normalized_match(
        answer, normalized
    ),
    "alias_exact_match": lambda answer, aliases, _: answer if answer in aliases else None,
    "lm_eval_exact_match": lambda answer, aliases, _: lm_eval_exact_match(answer, aliases),
}


@metric_named("TriviaQA statistics", "triviaqa_metrics", __name__)
def triviaqa_metrics() -> Metric:
    """``exact_match`` and ``exact_match_stderr``, ``f1``: Inspect's ``accuracy()``,
    ``stderr()`` and ``mean()`` of those keys of triviaqa_scorer's value dicts.

    One metric over the dicts rather than a metrics dict keyed by value key: for that,
    Inspect deep-copies every score once per key each time it recomputes the running
    metrics, about 4,500 Python calls a sample (docs/performance.md).
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
    """Alias exact match and official token F1 on the extracted short answer."""
    matching_alias = MATCH_RULES[metric]

    async def score(state: TaskState, target: Target) -> Score:
        answer = extract_short_answer(state.output.completion, answer_extraction)
        normalized_aliases: list[str] = state.metadata["normalized_aliases"]
        matched = matching_alias(answer, target.target, normalized_aliases)
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
