"""A solver that puts demonstrations before the question: one text, or chat turns
(lm-evaluation-harness's two layouts, ``TARGET_DELIMITER`` and ``FEWSHOT_DELIMITER``).

Which demonstrations a sample gets: the ids under ``metadata["fewshot"]``, put there when the
dataset was loaded (the benchmarks here draw in evaluation order), else a draw of ``shots``
seeded with ``seed`` and the sample id, so any task can use the solver on its own. An id the
pool does not hold is an error, never a silently shorter prompt.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from functools import cached_property
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.data.fewshot_draws import FEWSHOT_DELIMITER, FEWSHOT_KEY
from benchmarks.models.server_checks import sends_one_prompt
from benchmarks.runtime.registry_names import namespaced

# lm-evaluation-harness's TaskConfig default (config/task.py: target_delimiter), which
# TriviaQA keeps; its fewshot_delimiter is FEWSHOT_DELIMITER (benchmarks.data.fewshot_draws).
TARGET_DELIMITER = " "

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
        shots: Demonstrations drawn for a sample whose metadata names none (the
            benchmarks here pass theirs, drawn while loading with this seed).
        seed: Seed of those draws (with the sample id: the same sample always
            gets the same demonstrations).
    """
    draw = DemonstrationDraw(demonstrations, shots, seed, "fewshot_prompt")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if multiturn and sends_one_prompt(str(state.model)):
            raise ValueError(
                f"fewshot_prompt: {state.model} sends one prompt to /v1/completions, and "
                "demonstrations as chat turns need a chat model: pass "
                "-T fewshot_as_multiturn=false (for TriviaQA, -T "
                "profile=lm_eval_0.4.13_completions), or use a chat provider."
            )
        drawn = draw(state)
        pairs = [(template.format(**d), d["answer"]) for d in drawn]
        question = template.format(**{**state.metadata, "question": state.input_text})
        replace_user_message(state, fewshot_messages(pairs, question, multiturn=multiturn))
        return state

    return solve


class DemonstrationDraw:
    """A sample's demonstrations from ``pool``: the ids its metadata names, else
    ``shots`` drawn by ``seed`` and the sample id (no pool: none)."""

    def __init__(self, pool: Demonstrations | None, shots: int, seed: int, solver: str) -> None:
        if pool is None:
            shots = 0
        if shots < 0:
            raise ValueError(f"{solver}: shots must be 0 or more, got {shots}")
        self.pool = pool
        self.shots = shots
        self.seed = seed
        self.solver = solver

    @cached_property
    def keys(self) -> Sequence[Hashable]:
        """The pool's ids in a fixed order (read once, when first drawn from)."""
        # a mapping's keys are ids (a sample may be in it); a sequence's are positions
        pool = self.pool
        return sorted(pool, key=str) if isinstance(pool, Mapping) else range(len(pool or ()))

    def __call__(self, state: TaskState) -> list[Demonstration]:
        named = state.metadata.get(FEWSHOT_KEY)
        ids = self.ids(state) if named is None else list(named)
        if ids and self.pool is None:
            raise ValueError(
                f"{self.solver}: sample {state.sample_id!r} names demonstrations "
                f"(metadata {FEWSHOT_KEY!r}: {ids}) but the solver has no pool; pass the task's "
                "demonstrations (its own prompt step, the task's setup, holds them)."
            )
        lookup: Any = self.pool
        try:
            return [lookup[i] for i in ids]
        except (KeyError, IndexError):
            missing = [i for i in ids if i not in self.keys]
            raise ValueError(
                f"{self.solver}: sample {state.sample_id!r} names demonstrations "
                f"{missing} that the pool of {len(self.pool or ())} does not hold."
            ) from None

    def ids(self, state: TaskState) -> list[Hashable]:
        """``shots`` ids drawn for the sample by its id and the seed."""
        if self.shots == 0:
            return []
        keys = self.keys
        if isinstance(self.pool, Mapping) and state.sample_id in self.pool:
            keys = [key for key in keys if key != state.sample_id]
        if self.shots > len(keys):
            raise ValueError(
                f"{self.solver}: shots={self.shots} but the pool has {len(keys)} "
                f"demonstrations for sample {state.sample_id!r}."
            )
        return random.Random(f"{self.seed}:{state.sample_id}").sample(keys, self.shots)


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
