"""Winogrande's prompt parts: evalscope's template, its few-shot layout, the demonstrations.

The question is asked in evalscope 1.14.1's single-answer multiple-choice
template (``evalscope/utils/multi_choices.py``), options lettered A/B;
demonstrations, when asked for, follow the layout of its multiple-choice
few-shot template, drawn while the dataset is loaded (``SeededDraws``, or
``ShuffledHeadDraws`` under ``fewshot_draw=hf_shuffle``). ``prompt_format=inspect_evals``
asks as inspect_evals 0.28.0 does instead (``benchmarks/solvers/winogrande_inspect_evals.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from inspect_ai.solver import Solver

from benchmarks.data.fewshot_draws import SeededDraws, ShuffledHeadDraws
from benchmarks.data.records import field_problem
from benchmarks.data.replaced_solver import prompt_of
from benchmarks.data.rows import PreparedColumns
from benchmarks.data.winogrande import read_question
from benchmarks.profiles.winogrande import FewshotDraw, PromptFormat
from benchmarks.runtime.errors import DataError
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
DRAWS: dict[str, type[SeededDraws]] = {"per_question": SeededDraws, "hf_shuffle": ShuffledHeadDraws}


def question_prompt(
    prompt_format: PromptFormat, demonstrations: WinograndeDemonstrations | None
) -> Solver:
    """The solver that builds a sample's messages in ``prompt_format``."""
    if prompt_format == "inspect_evals":
        draws = demonstrations.draws if demonstrations is not None else None
        step = inspect_evals_winogrande_prompt(
            demonstrations,
            shots=draws.shots if draws is not None else 0,
            seed=draws.seed if draws is not None else 0,
        )
        return prompt_of(step, __name__)
    return winogrande_prompt(demonstrations)


def winogrande_prompt(demonstrations: WinograndeDemonstrations | None = None) -> Solver:
    """evalscope's single-answer template (and its few-shot layout, with demonstrations:
    each sample's drawn as the task loaded it)."""
    step = mcq_prompt(
        QUESTION_TEMPLATE,
        OPTION_LINE,
        demonstrations=demonstrations,
        demonstration_template=DEMONSTRATION_TEMPLATE,
        fewshot_preamble=FEWSHOT_PREAMBLE,
        shots=demonstrations.draws.shots if demonstrations is not None else 0,
        seed=demonstrations.draws.seed if demonstrations is not None else 0,
    )
    return prompt_of(step, __name__)


class WinograndeDemonstrations(Mapping[int, dict[str, Any]]):
    """The train split's rows as demonstrations (``question``, ``choices``, ``answer``),
    and the draw of each evaluated question (``draw``: a rule of ``DRAWS``)."""

    def __init__(
        self, rows: PreparedColumns, shots: int, seed: int, draw: FewshotDraw = "per_question"
    ) -> None:
        self.rows = rows
        self.draws = DRAWS[draw](len(rows), shots, seed, where=f"winogrande: {rows.where}")

    def drawn(self, position: int) -> list[int]:
        """The demonstrations of the question at ``position``, each read and checked."""
        indices = self.draws.for_question(position)
        for index in indices:
            self[index]
        return indices

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.rows)))

    def __getitem__(self, index: int) -> dict[str, Any]:
        try:
            sentence, options, letter = read_question(self.rows.record(index))
        except (KeyError, TypeError, ValueError) as ex:
            if isinstance(ex, DataError):
                raise
            raise DataError(f"{self.rows.at(index)}: {field_problem(ex)}") from ex
        return {"question": sentence, "choices": options, "answer": letter}
