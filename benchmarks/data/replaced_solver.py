"""A task's solver replaced for a run: samples it cannot serve are refused before any runs.

``inspect eval <task> --solver <solver>``, and ``eval(task, solver=...)`` from Python, run
that solver in place of the task's whole chain, and Inspect builds it apart from the task:
it never gets the task's few-shot pool or its log-likelihood step, and it may build another
benchmark's prompt. Left alone, a sample then fails in the solver or the scorer (a traceback
in the log, exit 0), or the run measures a prompt nobody meant. Inspect 0.3.285 offers no
check of a task against the solver that replaces it before the samples run (a hook's
exception is logged and dropped, a solver error is a sample error), but it builds every
sample (ensuring their ids) after it built that solver and before any sample runs, and an
error there ends the command with its message alone and exit 1 (from Python: the error).
So ``LazyDataset`` asks ``replacing_solver_refusal()`` as it is iterated there, which
refuses at once a solver that builds another benchmark's prompt, and each sample that needs
a step of the task's own the solver does not keep (``refuse_unserved``).

A benchmark marks its prompt steps with ``prompt_of(step, __name__)``: the last part of
the module's name is the benchmark's (``benchmarks.solvers.winogrande``: winogrande).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.dataset import Sample
from inspect_ai.solver import Solver
from inspect_ai.util import registry_info

from benchmarks.data.fewshot_draws import FEWSHOT_KEY
from benchmarks.data.records import REQUESTS_KEY
from benchmarks.runtime.errors import TaskParameterError
from benchmarks.runtime.inspect_private import eval_replacing_solver
from benchmarks.runtime.registry_names import EVAL_COMMANDS

# the attribute of a benchmark's prompt step naming its benchmark (prompt_of), and of a
# prompt_then_generate step holding its prompt's solvers (solvers/prompted.py)
PROMPT_OF = "benchmark_prompt_of"
PROMPT_STEPS = "prompt_solvers"

SampleCheck = Callable[[Sample], None]


def prompt_of(step: Solver, module: str) -> Solver:
    """``step``, marked as a prompt step of the benchmark of ``module`` (its ``__name__``)."""
    setattr(step, PROMPT_OF, module.rpartition(".")[2])
    return step


def solver_steps(solver: Any) -> list[Any]:
    """Every step of ``solver``: the solvers of its chains and of its
    ``prompt_then_generate`` steps, in order, the steps themselves included."""
    if isinstance(solver, Sequence) and not isinstance(solver, str):
        return [step for part in solver for step in solver_steps(part)]
    inner = getattr(solver, PROMPT_STEPS, None)
    return [solver, *(solver_steps(inner) if inner is not None else [])]


@dataclass(frozen=True)
class Replacement:
    """How the solver that replaces the task's was given, for the messages."""

    name: str  # the --solver value, or the solver's registered name
    command_line: bool

    @property
    def who(self) -> str:
        return f"--solver {self.name}" if self.command_line else f"solver={self.name}"

    @property
    def replacer(self) -> str:
        return "--solver" if self.command_line else "the solver given to eval()"

    @property
    def without(self) -> str:
        return "without --solver" if self.command_line else "without solver="

    def argument(self, name: str, value: str) -> str:
        return f"-T {name}={value}" if self.command_line else f"{name}={value!r}"


def replacing_solver_refusal() -> SampleCheck | None:
    """While Inspect builds a task's samples for a run whose solver replaces the task's,
    ``solver_refusal`` of that solver (None otherwise)."""
    found = eval_replacing_solver()
    if found is None:
        return None
    solver, spec, task = found
    given = command_line_solver()
    name = given or (spec.solver if spec is not None else registry_name(solver))
    return solver_refusal(solver, task, Replacement(name, given is not None))


def solver_refusal(solver: Any, task: Task, replacement: Replacement) -> SampleCheck | None:
    """Refuse ``solver`` in place of ``task``'s own if it builds another benchmark's prompt;
    else the check of each sample against it (None: it keeps the task's own steps)."""
    steps = solver_steps(solver)
    own = solver_steps(task.solver)
    refuse_another_benchmark(steps, own, str(task.name), replacement)
    if any(step is mine for step in steps for mine in own):
        return None  # it keeps the task's own prompt (or log-likelihood) step
    return lambda sample: refuse_unserved(sample, replacement)


def refuse_another_benchmark(
    steps: list[Any], own: list[Any], task: str, replacement: Replacement
) -> None:
    """Fail when ``steps`` build the prompt of a benchmark none of the task's own steps
    builds and the task ``task`` is not."""
    benchmark = task.rpartition("/")[2]
    own_benchmarks = {benchmark, *(getattr(step, PROMPT_OF, None) for step in own)}
    for step in steps:
        other = getattr(step, PROMPT_OF, None)
        if other is None or other in own_benchmarks:
            continue
        run = (
            f"inspect eval benchmarks/{other}.py {replacement.who}"
            if replacement.command_line
            else f"eval(benchmarks.{other}.{other}(), solver=...)"
        )
        raise TaskParameterError(
            f"{replacement.who} cannot run {benchmark}'s samples: it builds {other}'s "
            f"prompt. Run it on {other} ({run}), or run {benchmark} {replacement.without} "
            "or with a chain of its own prompt step."
        )


def refuse_unserved(sample: Sample, replacement: Replacement) -> None:
    """Fail when ``sample`` needs what only the task's own solver gives it, which the
    replacing solver does not keep: log-likelihood requests (its scorer reads the options'
    scores only the task's solver computes) or named demonstrations (only its prompt step
    holds them)."""
    who, replacer = replacement.who, replacement.replacer
    if REQUESTS_KEY in (sample.metadata or {}):
        generative = ", or ".join(
            replacement.argument(name, value)
            for name, value in (("scoring", "generate"), ("profile", "default"))
        )
        raise TaskParameterError(
            f"{who} cannot run this task's samples: the profile scores each option "
            f"by log-likelihood (sample {sample.id!r} carries metadata {REQUESTS_KEY!r}), which "
            f"only the task's own solver requests, and {replacer} replaces it. Run a "
            f"generative profile with it ({generative}), or run the task {replacement.without}."
        )
    named = (sample.metadata or {}).get(FEWSHOT_KEY)
    if not named:
        return
    raise TaskParameterError(
        f"{who} cannot run this task's samples: sample {sample.id!r} names "
        f"demonstrations (metadata {FEWSHOT_KEY!r}: {list(named)}), which only the task's "
        f"own prompt step holds, and {replacer} replaces that step. {instead(replacement)}"
    )


def registry_name(solver: Any) -> str:
    """``solver``'s registered name (its type's name if it has none)."""
    try:
        return str(registry_info(solver).name)
    except ValueError:
        return type(solver).__name__


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


def instead(replacement: Replacement) -> str:
    """What to run instead: a task of the solver's module that wraps it, if one does."""
    file, _, name = replacement.name.partition("@")
    command_line = replacement.command_line and file.endswith(".py")
    wrapping = wrapping_tasks(Path(file), name or None) if command_line else []
    if wrapping:
        tasks = " or ".join(f"{file}@{task}" for task in wrapping)
        return (
            f"Run a task that keeps that step instead: inspect eval {tasks} (with the same "
            "-T arguments), or run without demonstrations (shots=0)."
        )
    if not replacement.command_line:
        return (
            "Keep the task's prompt step in the chain (prompt_solvers(task.solver), from "
            "benchmarks.solvers.prompted, as examples/custom_chain.py's winogrande_cot_task "
            "does), or run without demonstrations (shots=0)."
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
