"""SimpleQA's reference profiles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from inspect_ai.model import GenerateConfig

from benchmarks.profiles import Profile, switch

# The judge prompts grader_prompt names (SIMPLEQA_GRADER_PROMPTS of scorers/judge_prompt.py).
SimpleQAGraderPrompt = Literal["simple_evals", "inspect_evals"]
SimpleQAGradeParse = Literal["strict", "official", "inspect_evals_strict"]
Draw = Literal["first", "random0"]

# OPENAI_SYSTEM_MESSAGE_API, sampler/chat_completion_sampler.py:9 of simple-evals.
SIMPLE_EVALS_SYSTEM_MESSAGE = "You are a helpful assistant."
# simple-evals samples the candidate with ChatCompletionSampler(max_tokens=2048),
# whose temperature defaults to 0.5 (sampler/chat_completion_sampler.py:25).
CANDIDATE = GenerateConfig(temperature=0.5, max_tokens=2048)


@dataclass(frozen=True)
class SimpleQAProfile(Profile):
    """SimpleQA's switches: the system messages, the judge's prompt, settings and parse, and
    which rows ``num_examples`` takes (``first``, or simple-evals' ``random.Random(0).sample``)."""

    system_message: str | None = None
    grader_prompt: SimpleQAGraderPrompt = switch(
        "simple_evals",
        "The judge prompt: ``simple_evals`` (the official simple-evals grader template) or "
        "``inspect_evals`` (inspect_evals 0.28.0's, which differs in whitespace and one "
        "sentence).",
    )
    grader_system_message: str | None = None
    grader_temperature: float | None = switch(
        0.5,
        "Judge sampling temperature (None, ``null`` on the command line: the grader model's "
        "own setting).",
    )
    grader_max_tokens: int | None = switch(
        1024,
        "Judge output token limit (None, ``null`` on the command line: the grader model's "
        "own setting).",
    )
    grade_parse: SimpleQAGradeParse = switch(
        "strict",
        "``strict``: the stripped judge reply must be ``A``, ``B`` or ``C`` (optionally in "
        "markdown emphasis, optionally followed by ``.`` or ``!``), anything else is a judge "
        'failure; ``official``: simple-evals\' ``re.search(r"(A|B|C)", reply)``, ``C`` when '
        "nothing matches (inspect_evals' ``paper``); ``inspect_evals_strict``: "
        "inspect_evals' ``strict``, the first standalone ``A``, ``B`` or ``C`` "
        "(``\\b([ABC])\\b``), ``C`` when none. A judge output that is not a reply is a "
        "judge failure under each.",
    )
    draw: Draw = "first"


SIMPLEQA_PROFILES: dict[str, SimpleQAProfile] = {
    # the judge: simple-evals' ChatCompletionSampler(model="gpt-4o") with its defaults
    "default": SimpleQAProfile(
        name="default",
        reference="this project's: the bare question; the judge with the settings of "
        "simple-evals' gpt-4o grading_sampler of the SimpleQA release (0.5, 1,024 tokens, no "
        "system message), a strict parse of its reply",
        proof=None,
        generate=CANDIDATE,
    ),
    # ee3b031: grading_sampler = ChatCompletionSampler(model="gpt-4.1-2025-04-14",
    # system_message=OPENAI_SYSTEM_MESSAGE_API, max_tokens=2048), candidates built the same
    # way, and SimpleQAEval(num_examples=N) draws random.Random(0).sample(examples, N)
    # (simpleqa_eval.py:105-108).
    "simple_evals_ee3b031": SimpleQAProfile(
        name="simple_evals_ee3b031",
        reference="openai/simple-evals `simpleqa` at commit ee3b031, request for request "
        "(bind its judge, gpt-4.1-2025-04-14, to the grader role)",
        proof="tests/peers/test_simple_evals_simpleqa.py",
        generate=CANDIDATE,
        system_message=SIMPLE_EVALS_SYSTEM_MESSAGE,
        grader_system_message=SIMPLE_EVALS_SYSTEM_MESSAGE,
        grader_max_tokens=2048,
        grade_parse="official",
        draw="random0",
    ),
    # inspect_evals 0.28.0 `simpleqa -T scorer=original` with its paper_config/simpleqa.yaml
    # (the task itself sets no generation setting): generate_config temperature 0.5 and
    # max_tokens 2048 for the candidate; the grader role's config temperature 0.5 and nothing
    # else (a role model does not inherit the eval's generate_config, inspect_ai
    # Model._resolve_config); its template with the judge prompt as the only user message;
    # its default parse, grade_parse="strict" (its "paper" parse is our `official`).
    "inspect_evals_0.28.0": SimpleQAProfile(
        name="inspect_evals_0.28.0",
        reference="inspect_evals 0.28.0 `simpleqa` with `-T scorer=original` and its "
        "paper_config/simpleqa.yaml (bind its judge, gpt-4o, to the grader role; "
        "`-T grade_parse=official` for its grade_parse=paper)",
        proof="tests/peers/test_inspect_evals_simpleqa.py",
        generate=CANDIDATE,
        grader_prompt="inspect_evals",
        grader_max_tokens=None,
        grade_parse="inspect_evals_strict",
    ),
}
