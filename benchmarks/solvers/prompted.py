"""A benchmark's prompt and its reply in one solver step, which keeps the prompt when a solver
of one's own replaces the task's.

One step, because Inspect records each step of a plan with a JSON difference of the whole
task state: a second step costs TriviaQA's 5-shot samples 8 % of a run's wall time
(``python -m bench.overhead``, docs/performance.md). docs/development.md ("How a benchmark
is put together") says how the task's ``setup`` and its ``SolverWatch`` make it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from benchmarks.runtime.registry_names import namespaced
from benchmarks.runtime.task_record import SolverWatch


@solver(name=namespaced("prompt_then_generate", __name__))
def prompt_then_generate(
    prompt: Solver | Sequence[Solver], generation: Solver, watch: SolverWatch | None = None
) -> Solver:
    """``prompt`` builds the sample's messages, then ``generation`` replies, in one step;
    ``prompt`` alone when ``watch`` says a solver replaced the task's own.

    Args:
        prompt: The solver that builds the prompt, or the solvers, in order (they call
            no model).
        generation: The solver that calls the model (``generate()``, or the token-ids
            request of a completions endpoint).
        watch: The task's ``SolverWatch`` (None: always reply).
    """

    prompts = [prompt] if callable(prompt) else list(prompt)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        for builder in prompts:
            state = await builder(state, generate)
            if state.completed:
                return state
        if watch is not None and watch.replaced_by is not None:
            return state  # the solver that replaced the task's replies
        return await generation(state, generate)

    return solve


def prompted(
    prompt: Solver | Sequence[Solver] | None, generation: Solver | None = None
) -> dict[str, Any]:
    """The ``Task`` arguments of a benchmark's prompt and its reply (``generation``, default
    ``generate()``): the one step as the task's setup, an empty solver, the task's
    ``SolverWatch``; a task without a prompt (``None``) replies in its solver alone."""
    generation = generation or generate()
    if prompt is None:
        return {"solver": generation}
    watch = SolverWatch()
    return {
        "setup": prompt_then_generate(prompt, generation, watch),
        "solver": [],
        "early_stopping": watch,
    }
