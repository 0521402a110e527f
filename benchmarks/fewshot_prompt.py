"""A solver that puts demonstrations before the question: one text, or chat turns.

``fewshot_prompt(demonstrations, template)`` replaces the sample's user message
with the few-shot prompt:

- one user message (``multiturn=False``): each demonstration's block, a space
  and its answer, the blocks joined by a blank line, then the question's block
  (lm-evaluation-harness's completion layout and its ``--fewshot_as_multiturn
  false``; ``TARGET_DELIMITER``, ``FEWSHOT_DELIMITER``);
- alternating user and assistant messages ending with the question
  (``multiturn=True``, its ``--fewshot_as_multiturn`` layout).

A block is ``template`` filled with a demonstration's fields, or for the
question with ``question`` (the sample's input text) and the sample's metadata.
Which demonstrations a sample gets: the ids under ``metadata["fewshot"]``, put
there when the dataset was loaded (the benchmarks here compute draws that
depend on evaluation order that way), else a draw of ``shots`` by a
``random.Random`` seeded with ``seed`` and the sample id, so any task can use
the solver on its own. Messages before the user message (a system message)
are kept.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.registry_names import namespaced

# lm-evaluation-harness's TaskConfig defaults (config/task.py: target_delimiter,
# fewshot_delimiter), which TriviaQA keeps.
TARGET_DELIMITER = " "
FEWSHOT_DELIMITER = "\n\n"
# The sample metadata key holding the ids of a sample's demonstrations.
FEWSHOT_KEY = "fewshot"

# A demonstration: the fields its block is filled with, and "answer".
Demonstration = Mapping[str, str]
Demonstrations = Mapping[Any, Demonstration] | Sequence[Demonstration]


@solver(name=namespaced("fewshot_prompt", __name__))
def fewshot_prompt(
    demonstrations: Demonstrations,
    template: str = "{question}",
    *,
    multiturn: bool = False,
    shots: int = 5,
    seed: int = 1234,
) -> Solver:
    """Demonstrations, then the question, in place of the sample's user message.

    Args:
        demonstrations: The pool: a sequence (ids are positions) or a mapping
            from id to a demonstration, each a mapping of the fields
            ``template`` names and ``answer``.
        template: Block of one demonstration or question, e.g.
            ``"Question: {question}\\nAnswer:"``; the question's block is
            filled with ``question`` (the input text) and the sample metadata.
        multiturn: Demonstrations as user/assistant turns instead of one text.
        shots: Demonstrations drawn for a sample whose metadata names none.
        seed: Seed of those draws (with the sample id: the same sample always
            gets the same demonstrations).
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        drawn = drawn_demonstrations(state, demonstrations, shots, seed)
        pairs = [(template.format(**d), d["answer"]) for d in drawn]
        question = template.format(**{**state.metadata, "question": state.input_text})
        replace_user_message(state, fewshot_messages(pairs, question, multiturn=multiturn))
        return state

    return solve


def drawn_demonstrations(
    state: TaskState, pool: Demonstrations, shots: int, seed: int
) -> list[Demonstration]:
    """The sample's demonstrations, in the order drawn."""
    lookup: Any = pool
    return [lookup[i] for i in demonstration_ids(state, pool, shots, seed)]


def demonstration_ids(
    state: TaskState, pool: Demonstrations, shots: int, seed: int
) -> list[Hashable]:
    """The sample's drawn ids, or ``shots`` ids drawn for it by sample id and seed."""
    drawn = state.metadata.get(FEWSHOT_KEY)
    if drawn is not None:
        return list(drawn)
    keys: Sequence[Hashable] = (
        sorted(pool, key=str) if isinstance(pool, Mapping) else range(len(pool))
    )
    others = [key for key in keys if key != state.sample_id]
    return random.Random(f"{seed}:{state.sample_id}").sample(others, min(shots, len(others)))


def fewshot_messages(
    demonstrations: Sequence[tuple[str, str]], question: str, *, multiturn: bool
) -> list[ChatMessage]:
    """One user message holding every block, or user/assistant turns ending with the question."""
    if not multiturn:
        blocks = [block + TARGET_DELIMITER + answer for block, answer in demonstrations]
        return [ChatMessageUser(content=FEWSHOT_DELIMITER.join([*blocks, question]))]
    messages: list[ChatMessage] = []
    for block, answer in demonstrations:
        messages += [ChatMessageUser(content=block), ChatMessageAssistant(content=answer)]
    messages.append(ChatMessageUser(content=question))
    return messages


def replace_user_message(state: TaskState, messages: list[ChatMessage]) -> None:
    """Put ``messages`` where the sample's (last) user message is; keep the others."""
    last = max((i for i, m in enumerate(state.messages) if m.role == "user"), default=None)
    if last is None:
        state.messages = [*state.messages, *messages]
    else:
        state.messages = [*state.messages[:last], *messages, *state.messages[last + 1 :]]
