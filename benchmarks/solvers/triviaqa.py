"""TriviaQA's prompt: ``fewshot_prompt`` with the template of a question or demonstration block.

The block is the prompt format's (``PROMPT_FORMATS`` of
``benchmarks/data/triviaqa.py``), after the evidence with
``include_evidence``; ``fewshot_prompt`` fills it for the demonstrations and the question.
"""

from __future__ import annotations

from inspect_ai.solver import Solver

from benchmarks.data.triviaqa import PROMPT_FORMATS
from benchmarks.solvers.fewshot import Demonstrations, fewshot_prompt

# Before a block, with the evidence field of include_evidence.
EVIDENCE_FIELD = "{evidence}"


def block_template(prompt_format: str, include_evidence: bool) -> str:
    """The template of one demonstration or question block."""
    template = PROMPT_FORMATS[prompt_format][0]
    return EVIDENCE_FIELD + template if include_evidence else template


def triviaqa_prompt(
    demonstrations: Demonstrations,
    template: str,
    *,
    multiturn: bool,
    shots: int,
    seed: int,
) -> Solver:
    """The question in ``template``, after the demonstrations drawn for it."""
    return fewshot_prompt(demonstrations, template, multiturn=multiturn, shots=shots, seed=seed)
