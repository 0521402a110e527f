"""Choosing an option by log-likelihood, as lm-evaluation-harness scores a
``multiple_choice`` task (its summed log-likelihoods: ``benchmarks.solvers.loglikelihood``)."""

from __future__ import annotations

from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from benchmarks.data.records import option_letters
from benchmarks.runtime.registry_names import also_by_short_name, namespaced
from benchmarks.solvers.loglikelihood import SCORES_KEY


@also_by_short_name
@scorer(metrics=[accuracy(), stderr()], name=namespaced("loglikelihood_choice", __name__))
def loglikelihood_choice() -> Scorer:
    """The option with the highest log-likelihood (the first on a tie, as ``np.argmax``)
    against the target."""

    async def score(state: TaskState, target: Target) -> Score:
        scores: list[float] = state.metadata[SCORES_KEY]
        letters = option_letters(len(scores))
        chosen = max(range(len(scores)), key=lambda index: (scores[index], -index))
        listed = ", ".join(
            f"{letter} {value:.4f}" for letter, value in zip(letters, scores, strict=True)
        )
        return Score(
            value=CORRECT if letters[chosen] == target.text else INCORRECT,
            answer=letters[chosen],
            explanation=f"log-likelihoods {listed}: chose {letters[chosen]}, target {target.text}",
            metadata={"loglikelihoods": scores},
        )

    return score
