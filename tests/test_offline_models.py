"""The offline models: the oracle scores 100 % on every bundled sample, the random
baseline is seeded and near chance, and a misuse gets a clear message."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import get_model

from benchmarks.catalog import BENCHMARKS, specs
from benchmarks.models.offline import (
    OfflineModelError,
    grade,
    multiple_choice_rules,
    oracle_reply,
    random_reply,
)
from benchmarks.models.server_checks import ServerSetupError
from benchmarks.solvers.prompt_preview import prompt_messages
from tests.conformance_pins import pinned


def headline(name: str, model: str, tmp_path: Path, **task_args: object) -> float:
    """The headline of benchmark ``name`` on its bundled sample, the oracle grading if judged."""
    spec = specs()[name]
    [log] = eval(
        spec.task(bundled_sample=True, **task_args),
        model=model,
        model_roles={"grader": "benchmarks/oracle"} if spec.judged else None,
        log_dir=str(tmp_path),
    )
    assert log.status == "success", log.error
    assert log.results is not None
    return log.results.scores[0].metrics[spec.headline].value


# Every benchmark with its default arguments and with each of its profiles; then a few
# arguments that change what the oracle must recognise.
ORACLE_RUNS = [
    pytest.param(name, {"profile": profile} if profile else {}, id=f"{name}-{profile}")
    for name, spec in specs().items()
    for profile in [None, *spec.profiles]
] + [
    pytest.param("triviaqa", {"prompt_format": "lm_eval", "shots": 2}, id="triviaqa-lm-eval"),
    pytest.param("triviaqa", {"metric": "lm_eval_exact_match"}, id="triviaqa-lm-eval-em"),
    pytest.param("winogrande", {"shots": 3}, id="winogrande-3-shot"),
]


@pytest.mark.parametrize(("name", "task_args"), ORACLE_RUNS)
@pytest.mark.slow
def test_the_oracle_answers_every_bundled_question(
    name: str, task_args: dict[str, object], tmp_path: Path
) -> None:
    assert headline(name, "benchmarks/oracle", tmp_path, **task_args) == 1.0


@pytest.mark.parametrize("name", [name for name, spec in specs().items() if spec.judged])
def test_the_oracle_answers_and_grades_the_judged_benchmarks(name: str, tmp_path: Path) -> None:
    [log] = eval(
        specs()[name].task(bundled_sample=True),
        model="benchmarks/oracle",
        model_roles={"grader": "benchmarks/oracle"},
        log_dir=str(tmp_path),
    )
    assert log.results is not None
    metrics = log.results.scores[0].metrics
    assert (metrics["correct"].value, metrics["not_attempted"].value) == (1.0, 0.0)
    assert metrics["judge_failures"].value == 0


# Seed 0: the questions benchmarks/random gets right, of the bundled sample's (near chance with
# 2 to 5 options; for free text, a random bundled answer that happens to fit), pinned in each
# benchmark's tests/<name>/conformance.py.
RANDOM_RIGHT = "RANDOM_RIGHT"
RANDOM_RIGHT_WHAT = "(questions benchmarks/random gets right at seed 0, questions)"


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_benchmark_has_its_random_baseline(name: str) -> None:
    right, questions = pinned(name, RANDOM_RIGHT, RANDOM_RIGHT_WHAT)
    assert 0 <= right < questions == len(specs()[name].task(bundled_sample=True).dataset)


@pytest.mark.parametrize("name", BENCHMARKS)
@pytest.mark.slow
def test_the_random_baseline_is_near_chance_and_reproducible(name: str, tmp_path: Path) -> None:
    right, questions = pinned(name, RANDOM_RIGHT, RANDOM_RIGHT_WHAT)
    assert headline(name, "benchmarks/random", tmp_path) == pytest.approx(right / questions)


def test_random_replies_depend_on_the_prompt_and_the_seed_only() -> None:
    prompt = "Answer ... where [LETTER] is one of A,B.\n\nThe cat _ sat.\n\nA) x\nB) y"
    replies = {random_reply(prompt, seed=0) for _ in range(5)}
    assert len(replies) == 1 and replies.pop() in ("ANSWER: A", "ANSWER: B")
    by_seed = {random_reply(prompt, seed=seed) for seed in range(20)}
    assert by_seed == {"ANSWER: A", "ANSWER: B"}
    science = "Question: Q?\nOptions:\n(A) one\n(B) two\n(C) three\nAnswer with the option letter "
    assert random_reply(science + "from the given choices.", seed=1) in ("A", "B", "C")


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_bundled_prompt_is_answered_by_its_own_benchmarks_rule(name: str) -> None:
    # benchmarks/random answers a multiple-choice prompt by the first rule that finds option
    # letters in it, whichever task asks: each rule finds letters in its own benchmark's
    # prompts alone (none in a prompt of a benchmark without one), under every profile.
    owners = {id(s.offered_options): other for other, s in specs().items() if s.offered_options}
    spec = specs()[name]
    for profile in spec.profiles:
        task = spec.task(bundled_sample=True, profile=profile)
        for sample in task.dataset:
            try:
                messages = prompt_messages(task, sample)
            except (ValueError, ServerSetupError):
                # a profile that asks for no reply (log-likelihood scoring), or sends token
                # ids to a completions server (the text of another profile of its own)
                continue
            prompt = next(m.text for m in reversed(messages) if m.role == "user")
            found = [owners[id(r)] for r in multiple_choice_rules() if r.letters(prompt)]
            assert found == ([name] if spec.offered_options else []), (
                f"{name}/{profile} {sample.id}: the rules of {found} find letters"
            )


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
    from benchmarks.scorers.judge_prompt import GRADER_TEMPLATE

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
