"""What SimpleQA's model under test gets: the profile's system message (if any), then
the question, bare as simple-evals sends it or put into the task's ``answer_prompt``."""

from __future__ import annotations

from inspect_ai.solver import Generate, Solver, TaskState, solver, system_message

from benchmarks.runtime.registry_names import namespaced

# simpleqa_eval.py packs the bare question as the only user message.
ANSWER_TEMPLATE = "{question}"
ANSWER_PROMPT_FIELDS = frozenset({"question"})


def answer_prompts(answer_prompt: str, system: str | None) -> list[Solver] | None:
    """What the model under test gets before its reply (the task's setup): ``system`` as
    the system message (None: none), the question through ``answer_prompt`` (unless it is
    the bare question); None when it gets the bare question alone."""
    prompts: list[Solver] = []
    if system is not None:
        prompts.append(system_message(system))
    if answer_prompt != ANSWER_TEMPLATE:
        prompts.append(answer_template(answer_prompt))
    return prompts or None


@solver(name=namespaced("answer_template", __name__))
def answer_template(template: str) -> Solver:
    """Put the question into ``template`` (placeholder ``{question}``).

    Own solver: Inspect's ``prompt_template`` names the placeholder
    ``{prompt}`` and also substitutes sample metadata.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.user_prompt.text = template.format(question=state.input_text)
        return state

    return solve
