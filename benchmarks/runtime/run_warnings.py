"""A warning when a run of one of these tasks evaluates no sample.

Inspect runs ``--limit 0`` (or a ``--sample-id`` that matches nothing) as a task of
"(0 samples)" that ends in success with no metric and nothing said; a user who meant
to run something should be told.
"""

from __future__ import annotations

import logging

from inspect_ai.hooks import Hooks, TaskEnd, hooks

from benchmarks.runtime.inspect_private import init_hooks
from benchmarks.runtime.registry_names import PACKAGE

logger = logging.getLogger(__name__)


def no_sample_warning(task: str, limit: object, sample_id: object) -> str:
    if limit == 0:
        reason = "--limit 0 selects none"
    elif sample_id is not None:
        reason = f"--sample-id {sample_id} matches none"
    else:
        reason = "the selection (--limit, --sample-id, the data) holds none"
    return f"{task}: no sample was evaluated ({reason}), so no metric is reported."


class NoSampleWarning(Hooks):
    async def on_task_end(self, data: TaskEnd) -> None:
        log = data.log
        if not log.eval.task.startswith(f"{PACKAGE}/") or log.status != "success":
            return
        if log.results is None or log.results.total_samples == 0:
            config = log.eval.config
            logger.warning(no_sample_warning(log.eval.task, config.limit, config.sample_id))


def warn_when_no_sample_runs() -> None:
    """Subscribe the warning (once a process), from a task function.

    Registered when a task is built, not on import: Inspect lists the hooks registered at
    start-up ("hooks enabled") above every run, of any task; one registered later runs
    all the same, unannounced.
    """
    if not _registered:
        # Inspect loads (and announces) the registered hooks once a process, when it makes
        # the first model. A task built in Python comes before that; loading them first
        # keeps this one, registered just after, out of the announcement there too.
        init_hooks()
        hooks(name=f"{PACKAGE}/no_sample_warning", description=__doc__.splitlines()[0])(
            NoSampleWarning
        )
        _registered.append(True)


_registered: list[bool] = []
