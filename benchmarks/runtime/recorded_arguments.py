"""The log's task arguments as the task ran: each switch left to its profile shows the value
the profile gave it, not the null (or ``profile``) it was called with.

Inspect records ``eval.task_args`` (the viewer's header, the exported run configuration)
from what the ``@task`` decorator attaches to the ``Task`` after the task function returns:
the call's arguments with the signature's defaults. A switch's default is None, "the
profile's", so the header showed nulls for what ran. No public Inspect API sets those
arguments, so the task's ``Task`` takes the values that ran and puts them in place of the
call's as the decorator attaches them. Inspect matches runs (``eval-set`` resume,
``eval-retry``) on ``eval.task_args_passed``, what the call passed, which is left as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspect_ai import Task

from benchmarks.runtime.inspect_private import TASK_ALL_PARAMS_ATTR


class TaskWithArgumentsAsRun(Task):
    """A ``Task`` whose recorded arguments are ``_as_run`` where it names them."""

    _as_run: dict[str, Any]

    def __setattr__(self, name: str, value: Any) -> None:
        if name == TASK_ALL_PARAMS_ATTR and isinstance(value, dict):
            value = {key: self._as_run.get(key, given) for key, given in value.items()}
        super().__setattr__(name, value)


def record_recorded_arguments(task: Task, as_run: Mapping[str, Any]) -> Task:
    """``task``, whose log will record ``as_run``'s value for each argument it names (the
    others as called)."""
    task.__class__ = TaskWithArgumentsAsRun
    object.__setattr__(task, "_as_run", dict(as_run))
    return task
