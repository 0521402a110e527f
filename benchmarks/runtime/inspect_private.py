"""The Inspect internals this package uses, in one place (written against ``inspect_ai`` 0.3.285).

Each name below is private to Inspect (``inspect_ai._...``) and may move in any release;
every other module imports it from here, so an Inspect upgrade is checked in this one file.
Where Inspect has a public equivalent the modules use that instead (``registry_info`` and
``materialize_media`` are public in ``inspect_ai.util``).
"""

from __future__ import annotations

import sys
from typing import Any

# GENERATE_CONFIG_FIELDS_TO_EXCLUDE: the generation settings that say how requests were sent
# (timeouts, connections, batching, caching), not what was asked, which eval sets leave out
# of a task's identity; the shard merge leaves them out of a run's in the same way.
from inspect_ai._eval.evalset import GENERATE_CONFIG_FIELDS_TO_EXCLUDE

# TASK_ALL_PARAMS_ATTR: the attribute the @task decorator sets on the Task a task function
# returns, after it returns: every parameter with its value or default, which the log
# records as eval.task_args (the viewer's header); eval-set and eval-retry match runs on
# eval.task_args_passed instead. runtime/recorded_arguments.py puts the values that ran there.
from inspect_ai._eval.task.constants import TASK_ALL_PARAMS_ATTR

# sample_messages: a sample's input as the messages Inspect starts a sample with (a string
# input becomes a user message marked source="input"); a prompt preview must start from
# exactly those, and no public function builds them.
from inspect_ai._eval.task.util import sample_messages

# format_template: how Inspect's system_message() formats its template (unknown
# placeholders kept, ``{{`` read as ``{``); inspect_evals' Winogrande system prompt goes
# through it, and no public function formats the same way.
from inspect_ai._util.format import format_template

# registry_params: the arguments a registered metric was created with (bench/ reads a
# grouped metric's group key); the public registry_info gives its name, not its arguments.
from inspect_ai._util.registry import registry_params

# sample_input_len: the length Inspect's MemoryDataset.sort() orders samples by when given no
# key; LazyDataset.sort() must order the same way, and the measure is not public.
from inspect_ai.dataset._dataset import sample_input_len

# init_hooks: loads (and announces) the hooks registered so far, as Inspect does once a
# process when it makes the first model; run_warnings calls it before registering its own
# hook so that hook stays out of the announcement. Hooks have no public way to load early.
from inspect_ai.hooks._startup import init_hooks

# active_generate_config: the run's generation settings, the task's with the command line's
# (--max-tokens, ...) merged in; no public accessor gives them to a solver.
from inspect_ai.model._generate_config import active_generate_config

# init_model_roles: binds model roles (the grader) for scorers called outside an eval, as
# eval() binds them; bench/ times scorers that way. eval() is the only public binder.
# active_model: the model a task is being built for (inspect eval builds each task with
# its model active), so that a profile can check the server's endpoints before any
# sample; get_model() would make a model where none is active.
from inspect_ai.model._model import active_model, init_model_roles

# parse_answers: the letter(s) Inspect's multiple_choice() reads from a reply, which its
# choice() scorer relies on; the inspect_choice parser must read as the installed Inspect
# reads, and only the private function does.
from inspect_ai.solver._multiple_choice import parse_answers

# PrerequisiteError: the ``inspect`` command prints an error of this class as its message
# alone, without a traceback; no public class has that effect. A later Inspect without it
# leaves our errors plain exceptions (a traceback then, the same message).
try:
    from inspect_ai._util.error import PrerequisiteError
except ImportError:  # pragma: no cover - a later Inspect
    PrerequisiteError = Exception  # type: ignore[misc,assignment]

# get_installed_package_name, _registry, registry_key: whether Inspect will prefix our
# registered names with "benchmarks/" itself, and registering an object under its short
# name too (runtime/registry_names.py). The public registry API (inspect_ai.util) creates
# and describes registered objects but neither tells the prefix nor adds a second name.
# Without them Inspect's own naming applies (registry_names checks for None).
try:
    from inspect_ai._util.package import get_installed_package_name
    from inspect_ai._util.registry import _registry, registry_key
except ImportError:  # pragma: no cover - a later Inspect
    get_installed_package_name = None  # type: ignore[assignment]
    _registry = None  # type: ignore[assignment]
    registry_key = None  # type: ignore[assignment]

# eval_run's prepare_options (inspect_ai._eval.run): where eval(), eval-set, eval-retry and
# the inspect command build every sample of a task (ensuring ids) before any sample runs. Its
# locals hold the solver given in place of the task's own (eval_solver, from eval(solver=...)
# or --solver; None when the task's runs), that solver's spec and the task. No public API
# hands a task's dataset the solver that will run it, and a hook's exception is dropped.
_EVAL_RUN_MODULE = "inspect_ai._eval.run"
_SAMPLES_BUILT_IN = "prepare_options"


def eval_replacing_solver(depth: int = 8) -> tuple[Any, Any, Any] | None:
    """(solver, its SolverSpec, the Task) when called while Inspect builds a task's samples
    before its run (within ``depth`` frames) and a solver replaces the task's own."""
    frame = sys._getframe(1)
    for _ in range(depth):
        if frame.f_code.co_name == _SAMPLES_BUILT_IN and (
            frame.f_globals.get("__name__") == _EVAL_RUN_MODULE
        ):
            found = frame.f_locals
            solver = found.get("eval_solver")
            if solver is None:
                return None
            return solver, found.get("eval_solver_spec"), found.get("task")
        if frame.f_back is None:
            return None
        frame = frame.f_back
    return None


__all__ = [
    "TASK_ALL_PARAMS_ATTR",
    "GENERATE_CONFIG_FIELDS_TO_EXCLUDE",
    "PrerequisiteError",
    "_registry",
    "active_generate_config",
    "active_model",
    "eval_replacing_solver",
    "format_template",
    "get_installed_package_name",
    "init_hooks",
    "init_model_roles",
    "parse_answers",
    "registry_key",
    "registry_params",
    "sample_input_len",
    "sample_messages",
]
