"""The messages a task's solvers build for a sample, without calling a model.

A sample holds what the data holds (the question, choices, image, target);
the task's setup builds the prompt. ``prompt_messages(task, sample)`` runs it on the
sample, as Inspect starts it (a task without a setup: its solvers, up to the first
``generate``), and returns the messages that would be sent (in a notebook too, whose
event loop is running):

    from benchmarks.solvers.prompt_preview import prompt_messages
    from benchmarks.triviaqa import triviaqa

    task = triviaqa(bundled_sample=True)
    print(prompt_messages(task, task.dataset[0])[-1].text)
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from copy import deepcopy
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ChatMessageUser, ModelName
from inspect_ai.scorer import Target
from inspect_ai.solver import Solver, TaskState

from benchmarks.runtime.task_record import SolverWatch


class _Generated(Exception):
    """Raised by the stand-in ``generate``: the prompt is ready."""

    def __init__(self, messages: list[ChatMessage]) -> None:
        super().__init__("generate reached")
        self.messages = messages


def prompt_messages(task: Task, sample: Sample, model: str = "mockllm/model") -> list[ChatMessage]:
    """The messages of ``sample`` once ``task``'s setup has run (a task without one: when
    its solvers first call ``generate``)."""
    state = TaskState(
        model=ModelName(model),
        sample_id=sample.id if sample.id is not None else 0,
        epoch=1,
        input=sample.input,
        messages=sample_messages(sample),
        target=Target(sample.target),
        choices=sample.choices,
        metadata=dict(sample.metadata or {}),
    )

    async def generate(state: TaskState, *args: Any, **kwargs: Any) -> TaskState:
        raise _Generated(list(state.messages))

    async def run() -> list[ChatMessage]:
        watch = task.early_stopping if isinstance(task.early_stopping, SolverWatch) else None
        replaced_by = watch.replaced_by if watch is not None else None
        try:
            if watch is not None:  # the prompt step builds the prompt alone, as for a
                watch.replaced_by = "the prompt preview"  # solver of one's own
            # the prompt is the setup's (a task without one builds it in its solver)
            for step in steps(task.setup) or steps(task.solver):
                await step(state, generate)  # type: ignore[arg-type]
            if task.setup is not None:
                return list(state.messages)
        except _Generated as reached:
            return reached.messages
        finally:
            if watch is not None:
                watch.replaced_by = replaced_by
        raise ValueError(f"the solvers of task {task.name!r} never call generate")

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(run())
    # a running loop (a notebook): run the chain on a loop of its own, in a thread
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, run()).result()


def sample_messages(sample: Sample) -> list[ChatMessage]:
    """The messages Inspect starts a sample with: a text input as a user message, each
    marked as the input."""
    if isinstance(sample.input, str):
        return [ChatMessageUser(content=sample.input, source="input")]
    messages = deepcopy(sample.input)
    for message in messages:
        message.source = "input"
    return messages


def steps(solver: Solver | Sequence[Solver] | None) -> list[Solver]:
    """A task's setup or solver as the steps Inspect runs (a chain is a sequence)."""
    if solver is None:
        return []
    return list(solver) if isinstance(solver, Sequence) else [solver]


def prompt_text(task: Task, sample: Sample) -> str | list[ChatMessage]:
    """The prompt of ``sample``: its text when it is one user message of text, else the
    messages (several turns, a system message or images)."""
    messages = prompt_messages(task, sample)
    if len(messages) == 1 and messages[0].role == "user" and isinstance(messages[0].content, str):
        return messages[0].content
    return messages
