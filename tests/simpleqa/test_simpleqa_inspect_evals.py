"""The ``inspect_evals_0.28.0`` profiles of SimpleQA and SimpleQA Verified: the judge prompt's
bytes for one row, the generation settings, and inspect_evals' ``strict`` parse.

The pinned hashes are of the prompt inspect_evals 0.28.0's own ``simpleqa_scorer`` builds for
the same row and reply (its template ``.format(question=..., criterion=..., answer=...,
instructions=SIMPLEQA_GRADING_INSTRUCTIONS)``, computed in its peer venv); the peer test
``tests/peers/test_inspect_evals_simpleqa.py`` compares every request end to end.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage

from benchmarks.runtime.errors import TaskParameterError
from benchmarks.scorers.judge_prompt import (
    GRADER_TEMPLATE,
    SIMPLEQA_GRADER_PROMPTS,
    VERIFIED_GRADER_PROMPTS,
    parse_grade_inspect_evals_strict,
    parse_grade_official,
)
from benchmarks.simpleqa import simpleqa
from benchmarks.simpleqa_verified import simpleqa_verified
from tests.scripted import scripted_model

INSPECT_EVALS_GRADER_TEMPLATE = SIMPLEQA_GRADER_PROMPTS["inspect_evals"]
INSPECT_EVALS_VERIFIED_GRADER_TEMPLATE = VERIFIED_GRADER_PROMPTS["inspect_evals"]

FIXTURES = Path(__file__).parents[1] / "fixtures"
SIMPLEQA_CSV = FIXTURES / "simpleqa" / "simple_qa_test_set.sample.csv"
VERIFIED_CSV = FIXTURES / "simpleqa_verified" / "simpleqa_verified.sample.csv"
QUESTION = "Who received the IEEE Frank Rosenblatt Award in 2010?"
# braces and a line break in the reply: filled in as inspect_evals fills them, verbatim
REPLY = "{braces} and\nMichio Sugeno"
INSTRUCTIONS = (
    "Grade the predicted answer of this new question as one of:\nA: CORRECT\nB: INCORRECT\n"
    'C: NOT_ATTEMPTED\n\nJust return the letters "A", "B", or "C", with no text around it.'
)


class Recorder:
    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.calls: list[list[ChatMessage]] = []

    def __call__(self, messages: list[ChatMessage]) -> str:
        self.calls.append(list(messages))
        return self.reply


def run(task: Task, tmp_path: Path, judge_reply: str = "A") -> tuple[EvalLog, list[ChatMessage]]:
    judge = Recorder(judge_reply)
    (log,) = eval(
        task,
        model=scripted_model(Recorder(REPLY), name="candidate"),
        model_roles={"grader": scripted_model(judge, name="grader")},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    (judge_messages,) = judge.calls
    return log, judge_messages


def model_configs(log: EvalLog) -> dict[str, tuple[float | None, int | None]]:
    assert log.samples is not None
    events = [e for e in log.samples[0].events if e.event == "model"]
    return {e.model: (e.config.temperature, e.config.max_tokens) for e in events}  # type: ignore[union-attr]


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_template_files_are_inspect_evals_bytes() -> None:
    assert sha256(INSPECT_EVALS_GRADER_TEMPLATE) == (
        "6c0f20a2fce607f627e20d4827a2c5318bf321b50f2d1db26a8070575e895b7d"
    )
    assert sha256(INSPECT_EVALS_VERIFIED_GRADER_TEMPLATE) == (
        "8bd10d06072dda2c1ccbe99cd39d03bb87411971b028dc3b0953c9d438328739"
    )


def test_inspect_evals_simpleqa_template_differs_from_simple_evals_in_five_lines() -> None:
    ours, theirs = GRADER_TEMPLATE.splitlines(), INSPECT_EVALS_GRADER_TEMPLATE.splitlines()
    assert len(ours) == len(theirs)
    changed = [(a, b) for a, b in zip(ours, theirs, strict=True) if a != b]
    # four lines lose a trailing space; one sentence is reworded
    assert [a.rstrip() == b for a, b in changed] == [True, True, True, True, False]
    assert changed[-1] == (
        "Here is a new example. Simply reply with either CORRECT, INCORRECT, NOT ATTEMPTED. "
        "Don't apologize or correct yourself if there was a mistake; we are just trying to "
        "grade the answer.",
        "Here is a new example. Simply grade it as CORRECT, INCORRECT, or NOT_ATTEMPTED. "
        "Don't apologize or correct yourself if there was a mistake; we are just trying to "
        "grade the answer.",
    )


def test_the_simpleqa_profile_sends_inspect_evals_prompt_and_settings(tmp_path: Path) -> None:
    task = simpleqa(profile="inspect_evals_0.28.0", dataset_path=str(SIMPLEQA_CSV), num_examples=1)
    log, judge_messages = run(task, tmp_path)
    [message] = judge_messages
    assert message.role == "user"
    assert message.text.endswith(
        f"```\nQuestion: {QUESTION}\nGold target: Michio Sugeno\nPredicted answer: {REPLY}\n"
        f"```\n\n{INSTRUCTIONS}"
    )
    assert sha256(message.text) == (
        "45e2128adf9fed4081d3fe77e67e05372234968eefc4686e99175a72f72086e9"
    )
    # its paper_config/simpleqa.yaml: the eval's 0.5 / 2048, the grader role's 0.5 only
    assert model_configs(log) == {
        "mockllm/candidate": (0.5, 2048),
        "mockllm/grader": (0.5, None),
    }
    assert log.eval.metadata is not None
    assert log.eval.metadata["grade_parse"] == "inspect_evals_strict"
    assert log.eval.metadata["grader_prompt"] == "inspect_evals"


def test_the_verified_profile_sends_inspect_evals_prompt_and_settings(tmp_path: Path) -> None:
    task = simpleqa_verified(
        profile="inspect_evals_0.28.0", data_files=str(VERIFIED_CSV), num_examples=1
    )
    log, judge_messages = run(task, tmp_path)
    [message] = judge_messages
    assert message.role == "user"
    assert message.text.endswith(
        f"'''\nQuestion: {QUESTION}\nGold target: Michio Sugeno\nPredicted answer: {REPLY}\n"
        f"'''\n\n{INSTRUCTIONS}"
    )
    assert sha256(message.text) == (
        "7dc73cb42c7229168f6d4321fbf4765c8ccc3deeb81a7e649aab2af6d8b04192"
    )
    assert model_configs(log) == {
        "mockllm/candidate": (1.0, 2048),
        "mockllm/grader": (1.0, None),
    }


def test_the_inspect_evals_prompt_can_be_chosen_under_another_profile(tmp_path: Path) -> None:
    task = simpleqa_verified(
        grader_prompt="inspect_evals", data_files=str(VERIFIED_CSV), num_examples=1
    )
    log, judge_messages = run(task, tmp_path)
    assert sha256(judge_messages[0].text) == (
        "7dc73cb42c7229168f6d4321fbf4765c8ccc3deeb81a7e649aab2af6d8b04192"
    )
    # the default profile's judge settings: none (the grader's own)
    assert model_configs(log)["mockllm/grader"] == (None, None)


# inspect_evals' strict: re.search(r"\b([ABC])\b", reply), else C; its paper: official's search
TRICKY_REPLIES = [
    ("A", "A", "A"),
    ("**B**", "B", "B"),
    ("A.", "A", "A"),
    ("`C`", "C", "C"),
    ("The answer is B", "B", "B"),
    ("CORRECT", "C", "C"),  # no standalone letter: C, as the paper parse's first capital C
    ("INCORRECT", "C", "C"),
    ("NOT_ATTEMPTED", "C", "A"),  # paper: the A of ATTEMPTED
    ("A: CORRECT", "A", "A"),
    ("B: INCORRECT", "B", "B"),
    ("Grade: none of the above", "C", "C"),
    ("I am not sure how to grade this one.", "C", "C"),
    ("No Answer, so B", "B", "A"),  # paper: the A of Answer
    ("ABC", "C", "A"),
    ("CBA", "C", "C"),
    ("_A_", "C", "A"),  # "_" is a word character: no boundary
    ("A_", "C", "A"),
    ("(B)", "B", "B"),
    ("[A]", "A", "A"),
    ("é A", "A", "A"),
    ("éA", "C", "A"),  # é is a word character (Unicode)
    ("a", "C", "C"),
    ("b", "C", "C"),
    ("Explanation: it contradicts the gold target.\nB", "B", "B"),
    ("", "C", "C"),
    ("C2", "C", "C"),  # a digit is a word character too: paper's C, strict's fallback C
    ("B2 or A", "A", "B"),
]


@pytest.mark.parametrize(("reply", "strict", "paper"), TRICKY_REPLIES)
def test_inspect_evals_parses(reply: str, strict: str, paper: str) -> None:
    assert parse_grade_inspect_evals_strict(reply) == strict
    assert parse_grade_official(reply) == paper
    # the rule as inspect_evals' scorer states it
    match = re.search(r"\b([ABC])\b", reply)
    assert (match.group(1) if match else "C") == strict


def test_the_strict_parse_reads_the_judge_reply_in_a_run(tmp_path: Path) -> None:
    task = simpleqa(profile="inspect_evals_0.28.0", dataset_path=str(SIMPLEQA_CSV), num_examples=1)
    log, _ = run(task, tmp_path, judge_reply="No Answer, so B")
    assert log.samples is not None and log.samples[0].scores is not None
    [score] = log.samples[0].scores.values()
    assert score.metadata is not None and score.metadata["grade"] == "INCORRECT"


@pytest.mark.parametrize(
    ("build", "arguments"),
    [
        (simpleqa, {"grader_prompt": "inspect_evals"}),
        (simpleqa_verified, {"grader_prompt": "paper"}),
    ],
)
def test_a_grader_prompt_and_a_grade_prompt_file_are_not_both_taken(
    build: Any, arguments: dict[str, Any], tmp_path: Path
) -> None:
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("{question} {target} {predicted_answer}", encoding="utf-8")
    with pytest.raises(TaskParameterError, match="pass either grader_prompt or grade_prompt_file"):
        build(grade_prompt_file=str(prompt), **arguments)
