"""The Inspect internals this package uses, in one place (written against ``inspect_ai`` 0.3.285).

Each name below is private to Inspect (``inspect_ai._...``) and may move in any release.
Every other module imports it from here, and each is imported plainly: a release without
one fails at import, naming it, and ``tests/test_layout.py`` counts them (at most
eight). Beside each: why no public name serves, and what would let us drop it.
"""

from __future__ import annotations

# TASK_ALL_PARAMS_ATTR: the attribute the @task decorator sets on the Task a task function
# returns: every parameter with its value or its signature's default, which the log records
# as eval.task_args (the viewer's CONFIG header). A switch's default is None ("the
# profile's"), so the header would show nulls for what ran; runtime/task_record.py's Task
# subclass records the values that ran under it. Dropped when Inspect lets a task set the
# arguments its log records.
from inspect_ai._eval.task.constants import TASK_ALL_PARAMS_ATTR

# PrerequisiteError: the inspect command prints an error of this class as its message alone,
# without a traceback, and exits 1; our UserInputError derives from it. Dropped when Inspect
# exports it.
from inspect_ai._util.error import PrerequisiteError

# get_installed_package_name: whether Inspect prefixes the names we register with
# "benchmarks/" itself (an installed package) or not (an editable install of a distribution
# named otherwise): runtime/registry_names.py then names them so. Dropped when Inspect
# recognises an editable install by its import package.
# registry_add: registers a second name for a scorer, the short one logs record, which
# `inspect score LOG` looks up; the public decorators prefix every name. Dropped when
# `inspect score` finds a package's scorer by its logged name.
from inspect_ai._util.package import get_installed_package_name
from inspect_ai._util.registry import registry_add

# active_generate_config: the run's generation settings, the task's with the command
# line's (--max-tokens, --batch, --attempt-timeout, ...) merged in; a solver, and a task
# being built, read them (the token-ids prompt's length, the batch check). Dropped when
# Inspect hands a solver its run's GenerateConfig.
from inspect_ai.model._generate_config import active_generate_config

# active_model: the model a task is being built for (inspect eval builds each task with
# its model active), so that a profile checks the server's endpoints before any sample;
# get_model() would make a model where none is active. Dropped when Inspect gives a task
# its model, or has a pre-run check hook.
# init_model_roles: (bench/ only) binds model roles (SimpleQA's grader) for scorers timed
# outside an eval, as eval() binds them; eval() and score() are the only public binders.
from inspect_ai.model._model import active_model, init_model_roles

# parse_answers: the letter(s) Inspect's multiple_choice() reads from a reply, which its
# choice() scorer relies on; the inspect_choice parser (inspect_evals' Winogrande) must read
# as the installed Inspect reads. Dropped when Inspect exports its answer parser.
from inspect_ai.solver._multiple_choice import parse_answers

__all__ = [
    "TASK_ALL_PARAMS_ATTR",
    "PrerequisiteError",
    "active_generate_config",
    "active_model",
    "get_installed_package_name",
    "init_model_roles",
    "parse_answers",
    "registry_add",
]
