"""inspect_evals 0.28.0's Winogrande prompt: its system message of demonstrations, then the
question as Inspect's ``multiple_choice()`` solver asks it in inspect_evals' template
(docs/winogrande.md shows both).

Read from inspect_evals 0.28.0, ``inspect_evals/winogrande/winogrande.py`` (MIT licence,
Copyright (c) 2024 UK AI Security Institute); the prompt text below is its, kept as data.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.data.records import option_letters
from benchmarks.runtime.registry_names import namespaced
from benchmarks.solvers.fewshot import DemonstrationDraw, replace_user_message
from benchmarks.solvers.mcq import render_options

BLANK = "[BLANK]"
SYSTEM_TEMPLATE = (
    "The following are multiple choice questions, with answers on the best logical completion "
    "to replace [BLANK] by A or B.\n\n{examples}\n"
)
USER_TEMPLATE = (
    "Answer the following multiple choice question by choosing the best logical option to "
    "replace the [BLANK]. The entire content of your response should be of the following "
    "format: 'ANSWER: $LETTER' (without quotes) where LETTER is one of {letters}.\n\n"
    "{question}\n{choices}\n"
)
EXAMPLE_SEPARATOR = "\n\n"


def sentence_question(sentence: str) -> str:
    """The question as inspect_evals' sample input holds it."""
    return f"Sentence: {sentence.replace('_', BLANK)}"


def user_text(sentence: str, choices: Sequence[str]) -> str:
    """``USER_TEMPLATE`` filled as ``multiple_choice()`` fills it (no other field is read)."""
    return USER_TEMPLATE.format(
        question=sentence_question(sentence),
        choices=render_options(choices),
        letters=",".join(option_letters(len(choices))),
    )


def system_text(demonstrations: Sequence[Mapping[str, Any]]) -> str:
    """The system message holding ``demonstrations`` (``question``, ``choices``, ``answer``)."""
    examples = EXAMPLE_SEPARATOR.join(
        "\n".join(
            [
                sentence_question(demo["question"]),
                render_options(demo["choices"]),
                f"ANSWER: {demo['answer']}",
            ]
        )
        for demo in demonstrations
    )
    # inspect_evals formats its template, then Inspect's system_message() formats the result
    # again with the sample's metadata and store (none there): the same two steps here
    return KeepingPlaceholders().format(SYSTEM_TEMPLATE.format(examples=examples))


class KeepingPlaceholders(string.Formatter):
    """Formats as Inspect's ``system_message()`` does with no fields to fill: each
    placeholder is kept as it is written (``{x}``), ``{{`` becomes ``{``."""

    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        return "{" + field_name + "}", field_name


@solver(name=namespaced("inspect_evals_winogrande_prompt", __name__))
def inspect_evals_winogrande_prompt(
    demonstrations: Mapping[int, Mapping[str, Any]] | None = None,
    shots: int = 5,
    seed: int = 42,
) -> Solver:
    """inspect_evals 0.28.0's messages: a system message of the sample's demonstrations
    (none without), then the question in its ``multiple_choice()`` template.

    Args:
        demonstrations: The train rows by position (``WinograndeDemonstrations``).
        shots: Demonstrations drawn for a sample whose metadata names none.
        seed: Seed of those draws.
    """
    draw = DemonstrationDraw(demonstrations, shots, seed, "inspect_evals_prompt")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        choices = [choice.value for choice in state.choices]
        replace_user_message(state, [ChatMessageUser(content=user_text(state.input_text, choices))])
        drawn = draw(state)
        if drawn:
            # after the last system message already there (else first), where Inspect's
            # system_message() puts it
            systems = [i for i, message in enumerate(state.messages) if message.role == "system"]
            at = systems[-1] + 1 if systems else 0
            state.messages.insert(at, ChatMessageSystem(content=system_text(drawn)))
        return state

    return solve
