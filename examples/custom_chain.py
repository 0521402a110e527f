"""Change a benchmark's solver chain, and reuse its prompt solvers in a task of your own.

A benchmark's samples hold the question (its choices, image and target); its
solvers build the prompt. So the chain can be extended or replaced:

    # Winogrande's evalscope prompt, then Inspect's chain-of-thought instruction
    # (0-shot: a solver given on the command line has no few-shot pool, so with
    # -T shots=3 the command stops before any sample runs and names the task below;
    # on another benchmark it stops too: its prompt is Winogrande's)
    inspect eval benchmarks/winogrande --solver examples/custom_chain.py@winogrande_cot \
        --model openai/gpt-4o-mini

    # the same as a task of its own, which keeps the task's own prompt step, so
    # its demonstrations too (task arguments pass through to winogrande)
    inspect eval examples/custom_chain.py@winogrande_cot_task -T shots=3 --model openai/gpt-4o-mini

    # the few-shot solver in a task that has nothing to do with this package
    inspect eval examples/custom_chain.py@capitals --model openai/gpt-4o-mini
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task, task_with
from inspect_ai.dataset import Sample
from inspect_ai.scorer import includes
from inspect_ai.solver import Solver, chain, chain_of_thought, generate, solver

from benchmarks.solvers.fewshot import fewshot_prompt
from benchmarks.solvers.prompted import prompt_solvers
from benchmarks.winogrande import winogrande, winogrande_prompt


@solver
def winogrande_cot() -> Solver:
    """Winogrande's prompt, then a request to reason step by step before the answer
    (Inspect's ``chain_of_thought``, which keeps the ``ANSWER: X`` form the scorer reads).
    Zero-shot: a sample that names demonstrations is an error here."""
    return chain(winogrande_prompt(), chain_of_thought(), generate())


@task
def winogrande_cot_task(**task_args: Any) -> Task:
    """Winogrande (any of its task arguments) with a chain-of-thought step after its own
    prompt step (which holds the task's few-shot pool)."""
    benchmark = winogrande(**task_args)
    prompt = prompt_solvers(benchmark.solver)  # its one step: the prompt, then generate()
    return task_with(benchmark, solver=chain(*prompt, chain_of_thought(), generate()))


# (country, capital): four demonstrations, then the questions
CAPITALS = [
    ("France", "Paris"),
    ("Japan", "Tokyo"),
    ("Kenya", "Nairobi"),
    ("Peru", "Lima"),
    ("Norway", "Oslo"),
    ("Chile", "Santiago"),
]


@task
def capitals(shots: int = 3) -> Task:
    """``fewshot_prompt`` on data of your own: three of the four demonstrations, drawn per
    sample from its id (the same three every run), then the question."""
    demonstrations = [{"question": c, "answer": a} for c, a in CAPITALS[:4]]
    return Task(
        dataset=[Sample(id=c, input=c, target=a) for c, a in CAPITALS[4:]],
        solver=[
            fewshot_prompt(demonstrations, "What is the capital of {question}?", shots=shots),
            generate(),
        ],
        scorer=includes(),
    )
