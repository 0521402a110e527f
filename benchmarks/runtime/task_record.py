"""What a run of one of these tasks records of itself: each switch as it ran, in the log's
task arguments and its metadata, and at its end one line naming them (docs/development.md,
"The task it returns"). Inspect matches runs (``eval-set`` resume, ``eval-retry``) on
``eval.task_args_passed``, which is left as it is.
"""

from __future__ import annotations

import functools
import logging
import sys
from collections.abc import Callable, Mapping
from typing import Any

from inspect_ai import Task
from inspect_ai.hooks import Hooks, TaskEnd, hooks
from inspect_ai.log import EvalSpec
from inspect_ai.util import EarlyStop

from benchmarks.runtime.inspect_private import TASK_ALL_PARAMS_ATTR
from benchmarks.runtime.registry_names import PACKAGE

logger = logging.getLogger(__name__)
# Recorded in the task arguments too, but the data: Inspect's summary names the dataset.
DATA_ARGUMENTS = frozenset({"data_files", "dataset_path"})


class BenchmarkTask(Task):
    """A ``Task`` whose log records ``as_run``'s value for each argument it names (the
    others as called): a switch's default is None, "the profile's", so the log's task
    arguments would show nulls for what ran (``TASK_ALL_PARAMS_ATTR``)."""

    def __init__(self, *, as_run: Mapping[str, Any], **task: Any) -> None:
        self._as_run = dict(as_run)
        super().__init__(**task)
        if isinstance(self.early_stopping, SolverWatch):  # its solver is its own now
            self.early_stopping.task, self.early_stopping.own_solver = self, self.solver
        subscribe_run_end()

    def __setattr__(self, name: str, value: Any) -> None:
        if name == TASK_ALL_PARAMS_ATTR and isinstance(value, dict):
            value = {key: self._as_run.get(key, given) for key, given in value.items()}
        super().__setattr__(name, value)


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
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in str(value))


class RunEnd(Hooks):
    """Prints the settings a run resolved above Inspect's summary, and warns when no sample ran
    (``--limit 0``, a ``--sample-id`` that matches none): Inspect ends such a run in success,
    saying nothing."""

    async def on_task_end(self, data: TaskEnd) -> None:
        log = data.log
        if not log.eval.task.startswith(f"{PACKAGE}/"):
            return
        settings = resolved_settings(log.eval.task_args, log.eval.metadata)
        if settings:
            print(f"{log.eval.task} settings: {settings}", file=sys.stderr)
        if log.status == "success" and (log.results is None or log.results.total_samples == 0):
            config = log.eval.config
            if config.limit == 0:
                reason = "--limit 0 selects none"
            elif config.sample_id is not None:
                reason = f"--sample-id {config.sample_id} matches none"
            else:
                reason = "the selection (--limit, --sample-id, the data) holds none"
            logger.warning(
                f"{log.eval.task}: no sample was evaluated ({reason}), so no metric is reported."
            )


RUN_END = "prints the settings a run of a benchmarks/ task resolved; warns when no sample ran"


@functools.cache
def subscribe_run_end() -> None:
    """Register the run-end hook, once a process (when the first such task is built, so runs of
    other packages' tasks never see it)."""
    hooks(name=f"{PACKAGE}/run_end", description=RUN_END)(RunEnd)


class SolverWatch:
    """Whether a run's solver is the task's own (``--solver``, ``eval(solver=...)`` and
    ``task_with(task, solver=...)`` replace it), as the task's early stopping: Inspect's public
    ``EarlyStopping`` is told the run's spec before any sample (docs/development.md). With
    ``refusal``, a run whose solver is replaced is refused in one line, no sample run (a scorer
    that reads what only the task's own solver computes: log-likelihood scores).
    """

    def __init__(self, refusal: Callable[[str], str] | None = None) -> None:
        self.refusal = refusal
        self.replaced_by: str | None = None
        self.refused: str | None = None
        self.task: Task | None = None
        self.own_solver: Any = None

    async def start_task(self, task: EvalSpec, samples: list[Any], epochs: int) -> str:
        replaced_own = self.task is not None and self.task.solver is not self.own_solver
        self.replaced_by = task.solver or ("a solver of one's own" if replaced_own else None)
        self.refused = None
        if self.refusal is not None and self.replaced_by is not None:
            self.refused = self.refusal(self.replaced_by)
            print(self.refused, file=sys.stderr)
        return f"{PACKAGE}/solver_watch"

    async def schedule_sample(self, id: str | int, epoch: int) -> EarlyStop | None:
        if self.refused is None:
            return None
        return EarlyStop(id=id, epoch=epoch, reason=self.refused)

    async def complete_sample(self, id: str | int, epoch: int, scores: Any) -> None:
        return None

    async def complete_task(self) -> dict[str, Any]:
        return {} if self.refused is None else {"refused": self.refused}
