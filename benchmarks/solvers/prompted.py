"""One solver step that builds the prompt and generates, the way Inspect's own
``multiple_choice()`` does.

Inspect records each step of a task's solver chain as a span with a state event: the
JSON difference of the whole task state before and after the step, for which it
serializes that state twice. A prompt builder and ``generate()`` as two steps pay that
twice a sample. Measured by ``python -m bench.overhead``, the prompt's own step
was about half of what TriviaQA cost over a bare Inspect task (docs/performance.md).
``prompt_then_generate(prompt, generation)`` runs both within one step. The transcript
shows one solver span, whose state event holds the prompt and the reply, and the model
call as before. The log's plan names both solvers with their parameters, and
``prompt_solvers(step)`` hands back the prompt's solvers, for a chain of one's own
(examples/custom_chain.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks.data.replaced_solver import PROMPT_STEPS
from benchmarks.runtime.registry_names import namespaced


@solver(name=namespaced("prompt_then_generate", __name__))
def prompt_then_generate(prompt: Solver | Sequence[Solver], generation: Solver) -> Solver:
    """``prompt`` builds the sample's messages, then ``generation`` replies, in one step.

    Args:
        prompt: The solver that builds the prompt, or the solvers, in order (they call
            no model).
        generation: The solver that calls the model (``generate()``, or the token-ids
            request of a completions endpoint).
    """

    prompts = [prompt] if callable(prompt) else list(prompt)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        for builder in prompts:
            state = await builder(state, generate)
            if state.completed:
                return state
        return await generation(state, generate)

    setattr(solve, PROMPT_STEPS, prompts)  # noqa: B010 - read by prompt_solvers(), solver_steps()
    return solve


def prompt_solvers(step: Solver) -> list[Solver]:
    """The solvers that build the prompt in ``step`` (a ``prompt_then_generate`` step)."""
    prompts = getattr(step, PROMPT_STEPS, None)
    if prompts is None:
        raise TypeError(f"{step!r} is not a prompt_then_generate step")
    return list(prompts)
