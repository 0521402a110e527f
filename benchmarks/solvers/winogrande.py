"""Winogrande's prompt parts: evalscope's template, its few-shot layout, the demonstrations.

The question is asked in evalscope 1.14.1's single-answer multiple-choice
template (``evalscope/utils/multi_choices.py``), options lettered A/B;
demonstrations, when asked for, follow the layout of its multiple-choice few-shot
template, drawn while the dataset is loaded (``data/winogrande.py``).
``prompt_format=inspect_evals`` asks as inspect_evals 0.28.0 does instead
(``benchmarks/solvers/winogrande_inspect_evals.py``).
"""

from __future__ import annotations

from inspect_ai.solver import Solver

from benchmarks.data.winogrande import WinograndeDemonstrations
from benchmarks.profiles.winogrande import PromptFormat
from benchmarks.solvers.mcq import mcq_prompt
from benchmarks.solvers.winogrande_inspect_evals import inspect_evals_winogrande_prompt

QUESTION_TEMPLATE = (
    "Answer the following multiple choice question. The entire content of your response "
    "should be of the following format: 'ANSWER: [LETTER]' (without quotes) where [LETTER] "
    "is one of {letters}.\n\n{question}\n\n{options}"
)
OPTION_LINE = "{letter}) {choice}"
DEMONSTRATION_TEMPLATE = "{question}\n{options}\nANSWER: {answer}"
FEWSHOT_PREAMBLE = "Here are some examples of how to answer similar questions:\n\n"


def question_prompt(
    prompt_format: PromptFormat, demonstrations: WinograndeDemonstrations | None
) -> Solver:
    """The solver that builds a sample's messages in ``prompt_format``."""
    if prompt_format == "inspect_evals":
        draws = demonstrations.draws if demonstrations is not None else None
        return inspect_evals_winogrande_prompt(
            demonstrations,
            shots=draws.shots if draws is not None else 0,
            seed=draws.seed if draws is not None else 0,
        )
    return winogrande_prompt(demonstrations)


def winogrande_prompt(demonstrations: WinograndeDemonstrations | None = None) -> Solver:
    """evalscope's single-answer template (and its few-shot layout, with demonstrations:
    each sample's drawn as the task loaded it)."""
    return mcq_prompt(
        QUESTION_TEMPLATE,
        OPTION_LINE,
        demonstrations=demonstrations,
        demonstration_template=DEMONSTRATION_TEMPLATE,
        fewshot_preamble=FEWSHOT_PREAMBLE,
        shots=demonstrations.draws.shots if demonstrations is not None else 0,
        seed=demonstrations.draws.seed if demonstrations is not None else 0,
    )
