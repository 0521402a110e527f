"""A solver that asks a multiple-choice question in a reference's template (Inspect's
``multiple_choice()`` renders its own): the options lettered, a context line, the images,
and demonstrations drawn as ``fewshot_prompt`` draws them."""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.model import ChatMessageUser, Content, ContentImage, ContentText
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.data.records import option_letters
from benchmarks.runtime.registry_names import namespaced
from benchmarks.solvers.fewshot import DemonstrationDraw, Demonstrations, replace_user_message

DEMONSTRATION_SEPARATOR = "\n\n"


def render_options(choices: Sequence[str], line: str = "{letter}) {choice}") -> str:
    """One line per choice, lettered A, B, C, ... (``line`` formats each)."""
    letters = option_letters(len(choices))
    return "\n".join(
        line.format(letter=letter, choice=choice)
        for letter, choice in zip(letters, choices, strict=True)
    )


@solver(name=namespaced("mcq_prompt", __name__))
def mcq_prompt(
    template: str,
    option_line: str = "{letter}) {choice}",
    *,
    context_template: str = "",
    image_first: bool = True,
    demonstrations: Demonstrations | None = None,
    demonstration_template: str = "{question}\n{options}\nANSWER: {answer}",
    fewshot_preamble: str = "",
    shots: int = 5,
    seed: int = 1234,
) -> Solver:
    """The question in ``template``, with its options, context and images.

    Args:
        template: The prompt, with ``{question}``, ``{options}``, ``{letters}``
            and ``{context}`` placeholders.
        option_line: One option's line, with ``{letter}`` and ``{choice}``.
        context_template: Text for ``{context}``, filled with the sample
            metadata (e.g. ``"Context: {hint}\\n"``); left out when a field it
            names is empty or missing.
        image_first: Images of the input before the text (else after it).
        demonstrations: A pool of solved questions to put first, drawn as
            ``fewshot_prompt`` draws them (None: zero-shot).
        demonstration_template: One demonstration, with ``{question}``,
            ``{options}`` and ``{answer}``.
        fewshot_preamble: Text before the demonstrations.
        shots: Demonstrations drawn for a sample whose metadata names none
            (with no pool: none).
        seed: Seed of those draws.
    """
    draw = DemonstrationDraw(demonstrations, shots, seed, "mcq_prompt")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        choices = [choice.value for choice in state.choices]
        text = template.format(
            **{
                **state.metadata,
                "question": state.input_text,
                "options": render_options(choices, option_line),
                "letters": ",".join(option_letters(len(choices))),
                "context": context_text(context_template, state.metadata),
            }
        )
        drawn = draw(state)
        if drawn:
            blocks = [
                demonstration_template.format(
                    question=demo["question"],
                    options=render_options(demo["choices"], option_line),
                    answer=demo["answer"],
                )
                for demo in drawn
            ]
            text = fewshot_preamble + DEMONSTRATION_SEPARATOR.join([*blocks, text])
        images = input_images(state)
        content: str | list[Content] = text
        if images:
            parts = [ContentText(text=text)]
            content = [*images, *parts] if image_first else [*parts, *images]
        replace_user_message(state, [ChatMessageUser(content=content)])
        return state

    return solve


def context_text(context_template: str, metadata: Mapping[str, Any]) -> str:
    """``context_template`` filled with the metadata, or nothing when a field it names is
    empty or missing."""
    # a field's name before any attribute or index ({hint.text}, {images[0]})
    fields = [
        re.split(r"[.\[]", name, maxsplit=1)[0]
        for _, name, _, _ in string.Formatter().parse(context_template)
        if name
    ]
    if not context_template or not all(metadata.get(name) for name in fields):
        return ""
    return context_template.format(**metadata)


def input_images(state: TaskState) -> list[ContentImage]:
    """The images of the sample's (last) user message, the one the prompt replaces."""
    users = [message for message in state.messages if message.role == "user"]
    if not users or isinstance(users[-1].content, str):
        return []
    return [part for part in users[-1].content if isinstance(part, ContentImage)]
