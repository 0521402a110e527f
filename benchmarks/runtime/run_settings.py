"""The settings a run of one of these tasks resolved, printed when the task ends.

The log's task arguments (``eval.task_args``, the viewer's header) hold each switch as it
ran (``benchmarks.runtime.recorded_arguments``), and the task records the values it applied
in its metadata too (the viewer's Info tab, ``log.eval.metadata``); this hook prints them
above the run's summary, so the terminal says what ran.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from inspect_ai.hooks import Hooks, TaskEnd, hooks

from benchmarks.runtime.registry_names import PACKAGE

# Recorded in the metadata too, but the data: Inspect's summary names the dataset.
DATA_ARGUMENTS = frozenset({"data_files", "dataset_path"})


def resolved_settings(task_args: Mapping[str, Any], metadata: Mapping[str, Any] | None) -> str:
    """``name: value, ...`` of each task argument the task recorded in its metadata (the
    profile and every switch as applied), in the task's parameter order."""
    applied = metadata or {}
    return ", ".join(
        f"{name}: {one_line(applied[name])}"
        for name in task_args
        if name in applied and name not in DATA_ARGUMENTS
    )


def one_line(value: Any) -> str:
    """``value`` as text on one line: control characters (a stop sequence's ``\\n``) escaped."""
    text = str(value)
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


class ResolvedSettings(Hooks):
    async def on_task_end(self, data: TaskEnd) -> None:
        spec = data.log.eval
        if not spec.task.startswith(f"{PACKAGE}/"):
            return
        settings = resolved_settings(spec.task_args, spec.metadata)
        if settings:
            print(f"{spec.task} settings: {settings}", file=sys.stderr)


def show_resolved_settings() -> None:
    """Subscribe the hook (once a process), from a task function after
    ``warn_when_no_sample_runs`` (which loads Inspect's hooks first, so that this one is
    not announced either)."""
    if not _registered:
        hooks(name=f"{PACKAGE}/resolved_settings", description=__doc__.splitlines()[0])(
            ResolvedSettings
        )
        _registered.append(True)


_registered: list[bool] = []
