"""The prompt a task's solvers build for one of its samples (what used to be the sample input)."""

from __future__ import annotations

from inspect_ai import Task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage

from benchmarks.solvers.prompt_preview import prompt_text


def prompt(task: Task, index: int) -> str | list[ChatMessage]:
    """The prompt of the sample at ``index`` of ``task``'s dataset."""
    return prompt_text(task, task.dataset[index])


def prompts_of(task: Task, samples: list[Sample] | None = None) -> list[str | list[ChatMessage]]:
    """The prompt of each sample (every sample of the dataset by default)."""
    return [prompt_text(task, sample) for sample in (samples or list(task.dataset))]
