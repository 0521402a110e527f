"""A benchmark's own prompt step replaced from the command line: refused before any sample.

``inspect eval <task> --solver <solver>`` runs ``<solver>`` in place of the task's
whole chain, and Inspect builds that solver apart from the task: it never gets
the task's few-shot pool. A sample that names demonstrations then fails in the
solver, and Inspect reports a sample's error as a traceback in the log and
exits 0. Inspect 0.3.285 offers no check of a task against the solver that
replaces it before the samples run (a hook's exception is logged and dropped, a
solver error is a sample error), but it builds every sample (ensuring their
ids) after it built that solver and before any sample runs, and an error there
ends the command with its message alone and a non-zero exit. So the datasets
here check each sample as it is built (``refuse_named_demonstrations``), when
the running ``inspect eval`` command line names a ``--solver``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from inspect_ai.dataset import Sample

from benchmarks.data.fewshot_draws import FEWSHOT_KEY
from benchmarks.data.records import REQUESTS_KEY
from benchmarks.runtime.errors import TaskParameterError
from benchmarks.runtime.registry_names import EVAL_COMMANDS


def command_line_solver(argv: list[str] | None = None) -> str | None:
    """The ``--solver`` of the running ``inspect eval`` (or ``eval-set``) command, if any."""
    argv = sys.argv if argv is None else argv
    if len(argv) < 2 or Path(argv[0]).name != "inspect" or argv[1] not in EVAL_COMMANDS:
        return None
    for option, value in zip(argv[2:], [*argv[3:], ""], strict=True):
        if option == "--solver":
            return value or None
        if option.startswith("--solver="):
            return option.removeprefix("--solver=") or None
    return None


def refuse_named_demonstrations(sample: Sample, solver: str) -> None:
    """Fail when ``sample`` needs what only the task's own solver gives it, while ``solver``
    replaces that solver: log-likelihood requests (its scorer reads the options' scores only
    the task's solver computes) or named demonstrations (only its prompt step holds them)."""
    if REQUESTS_KEY in (sample.metadata or {}):
        raise TaskParameterError(
            f"--solver {solver} cannot run this task's samples: the profile scores each option "
            f"by log-likelihood (sample {sample.id!r} carries metadata {REQUESTS_KEY!r}), which "
            "only the task's own solver requests, and --solver replaces it. Run a generative "
            "profile with it (-T scoring=generate, or -T profile=default), or run the task "
            "without --solver."
        )
    named = (sample.metadata or {}).get(FEWSHOT_KEY)
    if not named:
        return
    raise TaskParameterError(
        f"--solver {solver} cannot run this task's samples: sample {sample.id!r} names "
        f"demonstrations (metadata {FEWSHOT_KEY!r}: {list(named)}), which only the task's "
        f"own prompt step holds, and --solver replaces that step. {instead(solver)}"
    )


def instead(solver: str) -> str:
    """What to run instead of ``solver``: a task of its module that wraps it, if one does."""
    file, _, name = solver.partition("@")
    wrapping = wrapping_tasks(Path(file), name or None) if file.endswith(".py") else []
    if wrapping:
        tasks = " or ".join(f"{file}@{task}" for task in wrapping)
        return (
            f"Run a task that keeps that step instead: inspect eval {tasks} (with the same "
            "-T arguments), or run without demonstrations (shots=0)."
        )
    return (
        "Run a task of your own that keeps the benchmark's prompt step (as "
        "examples/custom_chain.py's winogrande_cot_task does), or run without "
        "demonstrations (shots=0)."
    )


def wrapping_tasks(file: Path, solver: str | None) -> list[str]:
    """The ``@task`` functions of ``file`` that call the solver function ``solver`` or are
    named after it (``<solver>_task``); ``solver`` None: the file's only ``@solver``."""
    try:
        tree = ast.parse(file.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return []
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    if solver is None:
        solvers = [f.name for f in functions if any(_is(d, "solver") for d in f.decorator_list)]
        if len(solvers) != 1:
            return []
        solver = solvers[0]
    found = []
    for node in functions:
        if any(_is(d, "task") for d in node.decorator_list):
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            if solver in names or node.name.startswith(f"{solver}_"):
                found.append(node.name)
    return found


def _is(decorator: ast.expr, kind: str) -> bool:
    """Whether ``decorator`` is ``@kind``, ``@kind(...)`` or ``@module.kind``."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
    return name == kind
