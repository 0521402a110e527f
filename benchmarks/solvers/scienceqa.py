"""ScienceQA's prompts: the question in one of two layouts, the image first.

``question_options`` is this project's (``Context:``, ``Question:``, ``Options:`` with
``(A)``); ``lmms_eval`` is lmms-eval 0.7.3's ``sqa_doc_to_text`` with the
default post_prompt of its ``scienceqa.yaml`` (``A.`` options). Both are
``mcq_prompt`` with the row's hint as the context line and its image (if any)
before the text, as lmms-eval's chat path sends it.
"""

from __future__ import annotations

from inspect_ai.solver import Solver

from benchmarks.profiles.scienceqa import PromptFormat
from benchmarks.solvers.mcq import mcq_prompt

CONTEXT_TEMPLATE = "Context: {hint}\n"

# prompt_format -> (template, option line) of mcq_prompt, after the optional context line.
PROMPT_TEMPLATES = {
    # Context: ...\nQuestion: ...\nOptions:\n(A) ...\n(B) ...\nAnswer with the option letter ...
    "question_options": (
        "{context}Question: {question}\nOptions:\n{options}\n"
        "Answer with the option letter from the given choices.",
        "({letter}) {choice}",
    ),
    # lmms-eval's sqa_doc_to_text with the default post_prompt of scienceqa.yaml.
    "lmms_eval": (
        "{context}{question}\n{options}\n"
        "Answer with the option's letter from the given choices directly.",
        "{letter}. {choice}",
    ),
}


def scienceqa_prompt(prompt_format: PromptFormat = "question_options") -> Solver:
    """The ScienceQA question of ``prompt_format``, the image (if any) before the text."""
    template, option_line = PROMPT_TEMPLATES[prompt_format]
    return mcq_prompt(template, option_line, context_template=CONTEXT_TEMPLATE, image_first=True)
