"""The multiple-choice scorer: the option letter read from the reply (by the task's choice
among ``LETTER_PARSERS``, letter_reading.py) against the target."""

from __future__ import annotations

from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    accuracy,
    metric,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from benchmarks.data.records import option_letters
from benchmarks.runtime.registry_names import also_by_short_name, namespaced
from benchmarks.scorers.letter_reading import LETTER_PARSERS
from benchmarks.scorers.model_outputs import candidate_note

NO_ANSWER = "no answer parsed"


@metric(name=namespaced("parse_failure_rate", __name__))
def parse_failure_rate() -> Metric:
    """Fraction of replies from which no option letter could be read.

    Returned as ``{"parse_failure_rate": ...}``: the viewer and the terminal show a dict
    metric by its key, a plain one by its registry name (``benchmarks/parse_failure_rate``).
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        failed = sum(1 for s in scores if (s.score.metadata or {}).get("rule") == "none")
        return {"parse_failure_rate": failed / len(scores) if scores else 0.0}

    return compute


@also_by_short_name
@scorer(
    metrics=[accuracy(), stderr(), parse_failure_rate()],
    name=namespaced("option_letter_scorer", __name__),
)
def option_letter_scorer(parser: str) -> Scorer:
    """Correct when the letter parsed from the reply (by ``LETTER_PARSERS[parser]``) is the
    target letter; the rule that read it is ``metadata["rule"]`` (``none``: nothing read)."""
    if parser not in LETTER_PARSERS:
        raise ValueError(f"unknown parser {parser!r}; choose one of {', '.join(LETTER_PARSERS)}")
    parse = LETTER_PARSERS[parser]

    async def score(state: TaskState, target: Target) -> Score:
        valid = option_letters(len(state.choices)) if len(state.choices) else []
        parsed = parse(state.output.completion, valid)
        no_reply_metadata, no_reply_explanation = candidate_note(state.output)
        read = NO_ANSWER if parsed.letter is None else f"read {parsed.letter} (rule {parsed.rule})"
        return Score(
            value=CORRECT if parsed.letter == target.text else INCORRECT,
            answer=parsed.letter,
            explanation=f"{no_reply_explanation}{read}; target {target.text}",
            metadata={"rule": parsed.rule, **no_reply_metadata},
        )

    return score
