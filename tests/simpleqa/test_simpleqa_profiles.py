"""SimpleQA profiles: what ``default`` and ``simple_evals_ee3b031`` send, and which rows they
evaluate."""

from __future__ import annotations

import csv
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage

from benchmarks.runtime.errors import TaskParameterError
from benchmarks.simpleqa import simpleqa
from tests.scripted import last_user_text, scripted_model

CSV = Path(__file__).parents[1] / "fixtures" / "simpleqa" / "simple_qa_test_set.sample.csv"
SYSTEM = "You are a helpful assistant."


class Recorder:
    """A scripted model that keeps every message list it was sent."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.calls: list[list[ChatMessage]] = []

    def __call__(self, messages: list[ChatMessage]) -> str:
        self.calls.append(list(messages))
        return self.reply


def run(tmp_path: Path, candidate: Recorder, judge: Recorder, **task_args: Any) -> EvalLog:
    task_args.setdefault("dataset_path", str(CSV))
    (log,) = eval(
        simpleqa(**task_args),
        model=scripted_model(candidate, name="candidate"),
        model_roles={"grader": scripted_model(judge, name="grader")},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    return log


def model_configs(log: EvalLog) -> dict[str, tuple[float | None, int | None]]:
    assert log.samples is not None
    events = [e for e in log.samples[0].events if e.event == "model"]
    return {e.model: (e.config.temperature, e.config.max_tokens) for e in events}  # type: ignore[union-attr]


def roles_and_texts(messages: list[ChatMessage]) -> list[tuple[str, str]]:
    return [(message.role, message.text) for message in messages]


def test_simple_evals_profile_sends_the_system_message_to_candidate_and_judge(
    tmp_path: Path,
) -> None:
    candidate, judge = Recorder("Mirza Hameedullah Beg"), Recorder("A")
    log = run(tmp_path, candidate, judge, profile="simple_evals_ee3b031", num_examples=1)
    # simple-evals draws fixture row 6 first (random.Random(0).sample(range(10), 1) == [6])
    question = "Who appointed the Chief Justice of India, Mirza Hameedullah Beg, in 1977?"
    (candidate_messages,) = candidate.calls
    (judge_messages,) = judge.calls
    assert roles_and_texts(candidate_messages) == [("system", SYSTEM), ("user", question)]
    assert [m.role for m in judge_messages] == ["system", "user"]
    assert judge_messages[0].text == SYSTEM
    assert judge_messages[1].text.startswith("Your job is to look at a question, a gold target")
    assert judge_messages[1].text.endswith(
        f"```\nQuestion: {question}\nGold target: Fakhruddin Ali Ahmed\n"
        "Predicted answer: Mirza Hameedullah Beg\n```\n\n"
        "Grade the predicted answer of this new question as one of:\nA: CORRECT\n"
        "B: INCORRECT\nC: NOT_ATTEMPTED\n\n"
        'Just return the letters "A", "B", or "C", with no text around it.'
    )
    assert model_configs(log) == {
        "mockllm/candidate": (0.5, 2048),
        "mockllm/grader": (0.5, 2048),
    }


def test_default_profile_sends_no_system_message_and_grades_with_1024_tokens(
    tmp_path: Path,
) -> None:
    candidate, judge = Recorder("Michio Sugeno"), Recorder("A")
    log = run(tmp_path, candidate, judge, num_examples=1)
    (candidate_messages,) = candidate.calls
    (judge_messages,) = judge.calls
    question = "Who received the IEEE Frank Rosenblatt Award in 2010?"
    assert roles_and_texts(candidate_messages) == [("user", question)]
    assert [m.role for m in judge_messages] == ["user"]
    assert model_configs(log) == {
        "mockllm/candidate": (0.5, 2048),
        "mockllm/grader": (0.5, 1024),
    }
    assert log.eval.task_args["profile"] == "default"  # recorded with the run


def test_explicit_judge_settings_win_over_the_profile(tmp_path: Path) -> None:
    log = run(
        tmp_path,
        Recorder("x"),
        Recorder("B"),
        profile="simple_evals_ee3b031",
        grader_max_tokens=4096,
        grader_temperature=None,
        num_examples=1,
    )
    assert model_configs(log)["mockllm/grader"] == (None, 4096)


def test_simple_evals_draws_num_examples_as_simple_evals_does(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # simple-evals: rng = random.Random(0); examples = rng.sample(examples, num_examples)
    with CSV.open(encoding="utf-8", newline="") as handle:
        examples = list(csv.DictReader(handle))
    drawn = random.Random(0).sample(examples, 4)
    with caplog.at_level(logging.WARNING, logger="benchmarks.simpleqa"):
        dataset = simpleqa(
            dataset_path=str(CSV), profile="simple_evals_ee3b031", num_examples=4
        ).dataset
    assert [s.input for s in dataset] == [row["problem"] for row in drawn]
    assert [s.id for s in dataset] == ["simpleqa_6", "simpleqa_9", "simpleqa_0", "simpleqa_2"]
    assert [r.getMessage() for r in caplog.records] == [
        f"num_examples=4: evaluating 4 of the 10 rows of {CSV}, drawn as simple-evals draws "
        "them (random.Random(0).sample)."
    ]
    # the default profile keeps the first rows
    first = simpleqa(dataset_path=str(CSV), num_examples=4).dataset
    assert [s.id for s in first] == [f"simpleqa_{i}" for i in range(4)]
    # every row, in file order, when num_examples is not given
    every = simpleqa(dataset_path=str(CSV), profile="simple_evals_ee3b031").dataset
    assert [s.id for s in every] == [f"simpleqa_{i}" for i in range(10)]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"profile": "openai"},
            "simpleqa: unknown profile 'openai'; choose one of default, simple_evals_ee3b031, "
            "inspect_evals_0.28.0.",
        ),
        (
            {"profile": "simple_evals"},
            "simpleqa: profile 'simple_evals' was renamed 'simple_evals_ee3b031'.",
        ),
        ({"profile": "paper"}, "simpleqa: profile 'paper' was renamed 'default'."),
        (
            {"profile": "simple_evals_ee3b031", "num_examples": 11},
            "simpleqa: num_examples=11 with profile simple_evals_ee3b031 draws without "
            f"replacement from the 10 rows of {CSV}, as simple-evals does; it can draw at "
            "most 10.",
        ),
        (
            {"grader_max_tokens": "profiles"},
            "simpleqa: grader_max_tokens must be a positive integer, null (the grader's own) "
            "or 'profile', got 'profiles'.",
        ),
    ],
)
def test_bad_profile_parameters_are_refused(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(TaskParameterError) as raised:
        simpleqa(dataset_path=str(CSV), **arguments)
    assert str(raised.value) == message


def test_the_candidate_question_text_is_what_the_judge_sees(tmp_path: Path) -> None:
    candidate, judge = Recorder("Paris"), Recorder("C")
    run(tmp_path, candidate, judge, profile="simple_evals_ee3b031", num_examples=2)
    asked = sorted(last_user_text(call) for call in candidate.calls)
    judged = sorted(
        call[-1].text.rsplit("\nQuestion: ", 1)[1].split("\nGold target: ", 1)[0]
        for call in judge.calls
    )
    assert asked == judged
