"""The floor under any log-likelihood task built on Inspect, whatever its own code.

``inspect eval bench/loglikelihood/floor_task.py -T rows=<winogrande jsonl> -T requests=N``:
one sample per Winogrande row, and a solver that sends ``N`` requests a question (0 or
2) through ``Model.generate`` of the run's model: the sentence with an option filled in,
as text, with the settings of a log-likelihood request (``max_tokens=1``, ``echo``,
``logprobs``). No tokenizer calls, no few-shot prefix, nothing read from the replies:
every request is a model event, as the issue's rule for ours asks. Run by
``bench.loglikelihood`` beside ours and lm-evaluation-harness, so the table shows
how much of our time is Inspect's own per-sample and per-request cost.
"""

from __future__ import annotations

import json
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, GenerateConfig, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import Generate, Solver, TaskState, solver

# the settings of our log-likelihood requests (benchmarks/solvers/loglikelihood.py)
REQUEST = GenerateConfig(max_tokens=1, temperature=0.0, logprobs=True, extra_body={"echo": True})


@solver
def plain_requests(requests: int) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        options = state.choices
        for index in range(requests):
            text = state.input_text.replace("_", options[index % len(options)].value, 1)
            state.output = await model.generate([ChatMessageUser(content=text)], config=REQUEST)
        return state

    return solve


@task
def loglikelihood_floor(rows: str, requests: int = 2) -> Task:
    records = [json.loads(line) for line in Path(rows).read_text(encoding="utf-8").splitlines()]
    return Task(
        dataset=MemoryDataset(
            [
                Sample(
                    id=index,
                    input=record["sentence"],
                    choices=[record["option1"], record["option2"]],
                    target=record["answer"],
                )
                for index, record in enumerate(records)
                if record
            ]
        ),
        solver=plain_requests(requests),
        scorer=match(),
    )
