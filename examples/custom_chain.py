"""Change a benchmark's solver chain, and reuse its prompt solvers in a task of your own.

A benchmark's samples hold the question (its choices, image and target); the task's
``setup``, which Inspect runs even when a solver replaces the task's own (``--solver``,
``eval(solver=...)``, ``task_with``), builds the prompt and gets the reply in one step,
and builds the prompt alone when a solver replaced the task's. So a chain given in its
place runs on the benchmark's own prompt, demonstrations and images included (the log's
plan: ``benchmarks/prompt_then_generate``, then the chain's steps):

    # Winogrande's prompt (here with 3 demonstrations), then Inspect's chain-of-thought
    # instruction, then the reply; the scorer still reads the last ANSWER: X
    inspect eval benchmarks/winogrande -T shots=3 --solver examples/custom_chain.py@cot \
        --model openai/gpt-4o-mini

    # the few-shot solver in a task that has nothing to do with this package (here as the
    # task's setup, then generate(): two steps in the log's plan)
    inspect eval examples/custom_chain.py@capitals --model openai/gpt-4o-mini

(A log-likelihood profile scores with its own step, which no other solver can take the
place of: such a run is refused before any request.)
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import includes
from inspect_ai.solver import Solver, chain, chain_of_thought, generate, solver

from benchmarks.solvers.fewshot import fewshot_prompt


@solver
def cot() -> Solver:
    """A request to reason step by step before the answer (Inspect's ``chain_of_thought``,
    which keeps the ``ANSWER: X`` form the letter scorers read), then the reply."""
    return chain(chain_of_thought(), generate())


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
        setup=fewshot_prompt(demonstrations, "What is the capital of {question}?", shots=shots),
        solver=generate(),
        scorer=includes(),
    )
