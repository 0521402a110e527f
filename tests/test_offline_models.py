"""The offline models: the oracle scores 100 % on every bundled sample, the random
baseline is seeded and near chance, and a misuse gets a clear message."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.model import get_model

from benchmarks.models.offline import OfflineModelError, grade, oracle_reply, random_reply
from benchmarks.scienceqa import scienceqa
from benchmarks.simpleqa import simpleqa
from benchmarks.triviaqa import triviaqa
from benchmarks.winogrande import winogrande


def headline(task: Task, model: str, tmp_path: Path, **roles: str) -> float:
    [log] = eval(task, model=model, model_roles=roles or None, log_dir=str(tmp_path))
    assert log.status == "success", log.error
    assert log.results is not None
    first = log.results.scores[0]
    # SimpleQA's "correct", the MCQ tasks' "accuracy", TriviaQA's "exact_match"
    name = next(n for n in ("correct", "accuracy", "exact_match") if n in first.metrics)
    return first.metrics[name].value


@pytest.mark.parametrize(
    "task",
    [
        lambda: triviaqa(bundled_sample=True),
        lambda: triviaqa(bundled_sample=True, prompt_format="lm_eval", shots=2),
        lambda: triviaqa(bundled_sample=True, metric="lm_eval_exact_match"),
        lambda: winogrande(bundled_sample=True),
        lambda: winogrande(bundled_sample=True, shots=3),
        lambda: scienceqa(bundled_sample=True),
        lambda: scienceqa(bundled_sample=True, profile="lmms_eval_0.7.3"),
    ],
    ids=[
        "triviaqa",
        "triviaqa-lm-eval",
        "triviaqa-lm-eval-em",
        "winogrande",
        "winogrande-3-shot",
        "scienceqa",
        "scienceqa-lmms-eval",
    ],
)
@pytest.mark.slow
def test_the_oracle_answers_every_bundled_question(task, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert headline(task(), "benchmarks/oracle", tmp_path) == 1.0


def test_the_oracle_answers_and_grades_simpleqa(tmp_path: Path) -> None:
    [log] = eval(
        simpleqa(bundled_sample=True),
        model="benchmarks/oracle",
        model_roles={"grader": "benchmarks/oracle"},
        log_dir=str(tmp_path),
    )
    assert log.results is not None
    metrics = log.results.scores[0].metrics
    assert (metrics["correct"].value, metrics["f_score"].value) == (1.0, 1.0)
    assert metrics["judge_failures"].value == 0


@pytest.mark.slow
def test_the_random_baseline_is_near_chance_and_reproducible(tmp_path: Path) -> None:
    # seed 0: 22 of 40 Winogrande answers right, 10 of 20 ScienceQA (2 to 5 options),
    # 1 of 30 TriviaQA and SimpleQA (a random bundled answer that happens to fit)
    assert headline(winogrande(bundled_sample=True), "benchmarks/random", tmp_path) == 0.55
    assert headline(scienceqa(bundled_sample=True), "benchmarks/random", tmp_path) == 0.5
    assert headline(triviaqa(bundled_sample=True), "benchmarks/random", tmp_path) == 1 / 30
    assert (
        headline(
            simpleqa(bundled_sample=True), "benchmarks/random", tmp_path, grader="benchmarks/oracle"
        )
        == 1 / 30
    )


def test_random_replies_depend_on_the_prompt_and_the_seed_only() -> None:
    prompt = "Answer ... where [LETTER] is one of A,B.\n\nThe cat _ sat.\n\nA) x\nB) y"
    replies = {random_reply(prompt, seed=0) for _ in range(5)}
    assert len(replies) == 1 and replies.pop() in ("ANSWER: A", "ANSWER: B")
    by_seed = {random_reply(prompt, seed=seed) for seed in range(20)}
    assert by_seed == {"ANSWER: A", "ANSWER: B"}
    assert random_reply("Question: (A) one\n(B) two\n(C) three", seed=1) in ("A", "B", "C")


@pytest.mark.parametrize(
    ("predicted", "target", "grade_letter"),
    [
        ("Sunset Boulevard", "Sunset Boulevard", "A"),
        ("sunset boulevard.", "Sunset Boulevard", "A"),
        ("I don't know", "Sunset Boulevard", "C"),
        ("", "Sunset Boulevard", "C"),
        ("Cats", "Sunset Boulevard", "B"),
    ],
)
def test_the_oracle_grades_by_the_gold_target(
    predicted: str, target: str, grade_letter: str
) -> None:
    assert grade(predicted, target) == grade_letter


def test_the_oracle_grades_the_official_grader_prompt() -> None:
    from benchmarks.simpleqa import GRADER_TEMPLATE

    prompt = GRADER_TEMPLATE.format(
        question="Who?", target="Malia Obama", predicted_answer="Malia Obama\nsure."
    )
    assert oracle_reply(prompt) == "B"
    prompt = GRADER_TEMPLATE.format(question="Who?", target="Malia", predicted_answer="malia")
    assert oracle_reply(prompt) == "A"


def test_the_oracle_answers_an_unknown_question_with_nothing_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    import benchmarks.models.offline as offline

    offline._warned = False
    with caplog.at_level(logging.WARNING):
        assert oracle_reply("Question: What is the capital of Atlantis?\nAnswer:") == ""
        assert oracle_reply("Question: And of Lemuria?\nAnswer:") == ""
    assert [r.getMessage() for r in caplog.records] == [
        "benchmarks/oracle knows only the questions of the bundled samples (run the task "
        "with -T bundled_sample=true); it replies with nothing (scored as wrong) to other "
        "prompts, such as: 'Question: What is the capital of Atlantis?\\nAnswer:'"
    ]


def test_an_unknown_offline_model_is_named() -> None:
    with pytest.raises(OfflineModelError) as raised:
        get_model("benchmarks/genius")
    assert str(raised.value) == (
        "benchmarks/genius: there is no such offline model; use benchmarks/oracle or "
        "benchmarks/random."
    )
