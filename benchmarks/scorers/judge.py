"""The SimpleQA judge, shared by SimpleQA and SimpleQA Verified: filling the template
(``judge_prompt.py``), calling one judge or a panel (every model bound to ``grader``,
majority vote), telling a verdict from an output that is none, and caching verdicts
(docs/judges.md). Each task file composes it with its own data.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai.model import (
    CachePolicy,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
    model_roles,
)
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import collect
from tenacity import RetryError

from benchmarks.runtime.registry_names import also_by_short_name, namespaced
from benchmarks.scorers.judge_agreement import judge_panel_metrics
from benchmarks.scorers.judge_prompt import (
    GRADE_NAMES,
    GRADE_PARSERS,
    GRADER_TEMPLATE,
    GradeParse,
    grade_value,
)
from benchmarks.scorers.model_outputs import candidate_note, no_reply
from benchmarks.scorers.simpleqa import JUDGE_FAILURE, simpleqa_task_metrics

GRADER_ROLE = "grader"

logger = logging.getLogger(__name__)

_fallback_warned: set[str] = set()


def grader_models() -> list[Model]:
    """The models bound to the ``grader`` role (a panel when several), else the
    model under test (with a warning)."""
    bound = model_roles().get(GRADER_ROLE)
    if isinstance(bound, list) and bound:
        return list(bound)
    if isinstance(bound, Model):
        return [bound]
    fallback = get_model()
    name = str(fallback)
    if name not in _fallback_warned:
        _fallback_warned.add(name)
        logger.warning(
            f"SimpleQA judge: no model is bound to the role '{GRADER_ROLE}', so the model under "
            f"test ({name}) grades its own answers. The references grade with gpt-4o "
            f"(SimpleQA paper) or gpt-4.1-2025-04-14 (simple-evals today, SimpleQA Verified); "
            f"bind a judge with --model-role {GRADER_ROLE}=<provider/model> "
            f"(eval(..., model_roles={{'{GRADER_ROLE}': ...}}))."
        )
    return [fallback]


def panel_grade(grades: Sequence[str]) -> tuple[str, str]:
    """The sample's grade from its judges' grades, and how it was reached: a panel's is the
    grade more than half of the judges gave (a judge failure is no vote but counts in the
    panel's size, as in Inspect's ``majority`` reducer), else JUDGE_FAILURE, "no majority"."""
    if len(grades) == 1:
        return grades[0], "single judge"
    votes = Counter(grade for grade in grades if grade != JUDGE_FAILURE)
    if votes:
        grade, count = votes.most_common(1)[0]
        if count * 2 > len(grades):
            return grade, "unanimous" if count == len(grades) else "majority"
    return JUDGE_FAILURE, "no majority"


class JudgeRequestError(RuntimeError):
    """A judge request that failed after the provider's retries (a sample error)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        # Inspect records an exception's ``message`` as the sample's error text.
        self.message = message


async def judge_generate(
    grader: Model,
    prompt: str,
    config: GenerateConfig,
    cache: dict[str, Any],
    sample_id: object,
) -> ModelOutput:
    """The judge's output for one filled-in template; a request that still fails after
    Inspect's retries raises ``JudgeRequestError`` naming the judge, the sample and the
    provider's last error, where tenacity's ``RetryError`` names none of them."""
    try:
        return await grader.generate([ChatMessageUser(content=prompt)], config=config, **cache)
    except RetryError as ex:
        last = ex.last_attempt.exception()
        reason = getattr(last, "message", None) or repr(last)
        raise JudgeRequestError(
            f"SimpleQA judge {grader}, sample {sample_id}: the request failed after "
            f"{ex.last_attempt.attempt_number} attempt(s): {reason}"
        ) from ex


def judge_verdict(
    grader: str, output: ModelOutput, parse: Callable[[str], str | None], sample_id: object
) -> dict[str, Any]:
    """One judge's ``{"grader", "reply", "grade"}``, plus ``no_verdict`` (why) when its
    output is not a reply, a judge failure under every parse (docs/judges.md)."""
    reason = no_reply(output)
    if reason is None and not output.completion.strip():
        reason = "an empty reply"
    verdict = {"grader": grader, "reply": output.completion}
    if reason is not None:
        logger.warning(
            f"SimpleQA judge {grader}, sample {sample_id}: no verdict ({reason}); "
            "counted as a judge failure."
        )
        return verdict | {"grade": JUDGE_FAILURE, "no_verdict": reason}
    letter = parse(output.completion)
    return verdict | {"grade": GRADE_NAMES[letter] if letter is not None else JUDGE_FAILURE}


def verdict_text(judge: dict[str, Any]) -> str:
    """One judge's verdict in words."""
    reply, grade = judge["reply"], judge["grade"]
    if "no_verdict" in judge:
        return f"judge gave no verdict ({judge['no_verdict']}): judge failure"
    if grade == JUDGE_FAILURE:
        return f"judge reply {reply!r} is not A, B or C: judge failure"
    letter = next(letter for letter, name in GRADE_NAMES.items() if name == grade)
    return f"judge replied {reply!r}: {letter} = {grade}"


# The metrics an `inspect score` re-grading reports; a task may override them.
@also_by_short_name
@scorer(
    metrics=[*simpleqa_task_metrics(topic_breakdown=True), judge_panel_metrics()],
    name=namespaced("simpleqa_scorer", __name__),
)
def simpleqa_scorer(
    grade_prompt: str | None = None,
    grade_parse: GradeParse = "strict",
    grader_temperature: float | None = 0.5,
    grader_max_tokens: int | None = 1024,
    grader_system_message: str | None = None,
    judge_cache: bool = False,
) -> Scorer:
    """Grade the reply with the judge (or each judge of a panel; docs/judges.md): 1.0 under
    the sample's grade's key of the value, the verdicts in the metadata (docs/simpleqa.md,
    "Scoring"). ``grader_system_message`` goes in the call's config: it replaces the role's."""
    template = GRADER_TEMPLATE if grade_prompt is None else grade_prompt
    parse = GRADE_PARSERS[grade_parse]
    config = GenerateConfig(
        temperature=grader_temperature,
        max_tokens=grader_max_tokens,
        system_message=grader_system_message,
    )
    # Cached verdicts never expire and are shared across epochs (an identical prompt gets the
    # same verdict); without judge_cache the call leaves caching to the eval's own setting.
    cache: dict[str, Any] = (
        {"cache": CachePolicy(expiry=None, per_epoch=False)} if judge_cache else {}
    )

    async def score(state: TaskState, target: Target) -> Score:
        graders = grader_models()
        predicted_answer = state.output.completion
        prompt = template.format(
            question=state.input_text, target=target.text, predicted_answer=predicted_answer
        )
        outputs = await collect(
            *(judge_generate(grader, prompt, config, cache, state.sample_id) for grader in graders)
        )
        judges = [
            judge_verdict(str(grader), output, parse, state.sample_id)
            for grader, output in zip(graders, outputs, strict=True)
        ]
        grade, decision = panel_grade([judge["grade"] for judge in judges])
        candidate_metadata, candidate_explanation = candidate_note(state.output)
        metadata: dict[str, Any] = {"grade": grade, "judges": judges, **candidate_metadata}
        if len(judges) == 1:
            (judge,) = judges
            metadata |= {"judge_reply": judge["reply"], "grader": judge["grader"]}
            explanation = verdict_text(judge)
        else:
            metadata |= {
                "votes": dict(Counter(j["grade"] for j in judges)),
                "panel_decision": decision,
            }
            explanation = (
                "; ".join(f"{j['grader']}: {verdict_text(j)}" for j in judges)
                + f". Panel of {len(judges)}: {decision}, {grade}."
            )
        return Score(
            value=grade_value(grade),
            answer=predicted_answer,
            explanation=candidate_explanation + explanation,
            metadata=metadata,
        )

    return score
