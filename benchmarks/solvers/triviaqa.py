"""TriviaQA's prompt: ``fewshot_prompt`` with the template of a question or demonstration block
(the prompt format's, after the evidence with ``include_evidence``)."""

from __future__ import annotations

from benchmarks.data.triviaqa import PROMPT_FORMATS

# Before a block, with the evidence field of include_evidence.
EVIDENCE_FIELD = "{evidence}"


def block_template(prompt_format: str, include_evidence: bool) -> str:
    """The template of one demonstration or question block."""
    template = PROMPT_FORMATS[prompt_format][0]
    return EVIDENCE_FIELD + template if include_evidence else template
