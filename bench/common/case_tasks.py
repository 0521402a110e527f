"""A case's task, its scripted models, and the bare Inspect task beside it.

Only the standard library is imported at module level (and ``bench.workloads``,
which imports no benchmark), so that ``bench.construction.fresh_process`` can time the imports of
``inspect_ai``, ``datasets`` and the benchmark module.
"""

from __future__ import annotations

import importlib
import resource
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.workloads import Case

LIMIT = 10


class Unavailable(Exception):
    """The benchmark's module or task function does not exist (yet)."""


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MB.

    ``VmHWM`` belongs to the process image; ``ru_maxrss`` would carry over the
    parent's peak across fork and exec.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def task_function(case: Case) -> Callable[..., Any]:
    try:
        module = importlib.import_module(case.module)
    except ModuleNotFoundError as ex:
        if ex.name is not None and case.module.startswith(ex.name):
            raise Unavailable(f"{case.module} not available yet ({ex})") from ex
        raise
    function = getattr(module, case.function, None)
    if function is None:
        raise Unavailable(f"{case.module}.{case.function} not available yet")
    return function  # type: ignore[no-any-return]


def make_task(case: Case, data_dir: Path) -> Any:
    return task_function(case)(**case.task_args(data_dir))


def models(case: Case) -> tuple[Any, dict[str, Any] | None]:
    from bench.common.instant_model import constant_model

    model = constant_model(case.reply)
    roles = None
    if case.grader_reply is not None:
        roles = {"grader": constant_model(case.grader_reply, name="grader")}
    return model, roles


def input_text(value: Any) -> str:
    """The text of a sample input (the text parts of its messages, for multimodal input)."""
    if isinstance(value, str):
        return value
    return "\n".join(message.text for message in value)


def built_rows(dataset: Any) -> int | None:
    rows = getattr(dataset, "built_rows", None)
    return rows if isinstance(rows, int) else None


def bare_task(samples: Sequence[Any], judged: bool = False, same_input: bool = False) -> Any:
    """``generate()`` + ``match()`` on the same prompt text and targets.

    ``judged``: Inspect's ``model_graded_fact()`` (role ``grader``) instead of
    ``match()``; ``same_input``: the samples' own input, images included,
    instead of its text.
    """
    from inspect_ai import Task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.scorer import match, model_graded_fact
    from inspect_ai.solver import generate

    dataset = MemoryDataset(
        [
            Sample(
                input=sample.input if same_input else input_text(sample.input),
                target=sample.target,
            )
            for sample in samples
        ]
    )
    return Task(
        dataset=dataset,
        solver=generate(),
        scorer=model_graded_fact(model_role="grader") if judged else match(),
    )
