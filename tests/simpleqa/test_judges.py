"""Judge agreement on SimpleQA logs re-graded the way ``inspect score --action append`` does.

A scripted candidate answers the 10 fixture questions (right / "I don't
know" / wrong for row i % 3 = 0 / 1 / 2); the first judge grades them
correctly, a harsh second judge calls every attempted answer INCORRECT. The
log is re-graded through Inspect's ``score()`` (what the ``inspect score``
command runs), which names the appended score ``simpleqa_scorer1``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval, score
from inspect_ai.log import EvalLog, write_eval_log
from inspect_ai.model import ChatMessage

from benchmarks.compare import CompareError, judge_agreement
from benchmarks.compare.judges import GRADE_OF_VALUE_KEY
from benchmarks.scorers.judge import simpleqa_scorer
from benchmarks.scorers.judge_agreement import fleiss_kappa
from benchmarks.scorers.simpleqa import GRADE_VALUE_KEYS
from benchmarks.simpleqa import simpleqa
from tests.scripted import last_user_text, scripted_model
from tests.test_compare import FAST, cli
from tests.test_examples import (
    NOT_ATTEMPTED_REPLY,
    SIMPLEQA_CSV,
    assert_is_a_real_plot,
    careful_reply,
    guesser_reply,
    judge_reply,
)


def harsh_judge(messages: list[ChatMessage]) -> str:
    """Not attempted stays C; any attempt is B."""
    return "C" if f"Predicted answer: {NOT_ATTEMPTED_REPLY}\n" in last_user_text(messages) else "B"


def simpleqa_log(reply, name: str, log_dir: Path) -> EvalLog:
    [log] = eval(
        simpleqa(dataset_path=SIMPLEQA_CSV),
        model=scripted_model(reply, name=name),
        model_roles={"grader": scripted_model(judge_reply, name="fair")},
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success"
    return log


def regrade(log: EvalLog, judge, name: str, action: str = "append") -> EvalLog:
    return score(
        log,
        simpleqa_scorer(),
        model_roles={"grader": scripted_model(judge, name=name)},
        action=action,  # type: ignore[arg-type]
        display="none",
    )


@pytest.fixture(scope="module")
def regraded(tmp_path_factory: pytest.TempPathFactory) -> tuple[EvalLog, Path]:
    folder = tmp_path_factory.mktemp("judges")
    log = simpleqa_log(careful_reply, "careful", folder / "run")
    twice = regrade(log, harsh_judge, "harsh")
    path = folder / "regraded.eval"
    write_eval_log(twice, str(path))
    return log, path


def test_the_appended_score_is_named_by_inspect(regraded) -> None:
    _, path = regraded
    from inspect_ai.log import read_eval_log

    sample = (read_eval_log(str(path)).samples or [])[0]
    assert list(sample.scores or {}) == ["simpleqa_scorer", "simpleqa_scorer1"]
    assert (sample.scores or {})["simpleqa_scorer1"].metadata["grader"] == "mockllm/harsh"


def test_agreement_kappa_confusion_and_metric_moves(regraded) -> None:
    _, path = regraded
    result = judge_agreement([path], settings=FAST)
    [summary] = result.summary.to_dict("records")
    assert summary["first"] == "simpleqa_scorer (mockllm/fair)"
    assert summary["second"] == "simpleqa_scorer1 (mockllm/harsh)"
    # 4 CORRECT -> INCORRECT; 3 NOT_ATTEMPTED and 3 INCORRECT agree.
    assert (summary["answers"], summary["agreement"], summary["disagreements"]) == (10, 0.6, 4)
    # chance: rows C 4, I 3, N 3; columns C 0, I 7, N 3 -> (0 + 21 + 9) / 100 = 0.3
    assert summary["kappa"] == pytest.approx((0.6 - 0.3) / (1 - 0.3))
    [confusion] = result.confusion.values()
    assert confusion.to_dict("index") == {
        "CORRECT": {"CORRECT": 0, "INCORRECT": 4, "NOT_ATTEMPTED": 0},
        "INCORRECT": {"CORRECT": 0, "INCORRECT": 3, "NOT_ATTEMPTED": 0},
        "NOT_ATTEMPTED": {"CORRECT": 0, "INCORRECT": 0, "NOT_ATTEMPTED": 3},
    }
    overall = {
        r["metric"]: r for r in result.metrics.to_dict("records") if r["breakdown"] == "overall"
    }
    correct = overall["correct"]
    assert (correct["baseline_value"], correct["candidate_value"]) == (0.4, 0.0)
    assert (correct["baseline_only"], correct["candidate_only"], correct["p_value"]) == (
        4,
        0,
        0.125,
    )
    assert overall["attempted_accuracy"]["difference"] == pytest.approx(-4 / 7)
    assert sorted(result.disagreements["id"]) == [
        "simpleqa_0",
        "simpleqa_3",
        "simpleqa_6",
        "simpleqa_9",
    ]
    first = result.disagreements.to_dict("records")[0]
    assert (first["first_grade"], first["second_grade"]) == ("CORRECT", "INCORRECT")
    assert (first["first_reply"], first["second_reply"]) == ("A", "B")
    assert first["answer"] == first["target"]  # the careful model answered it right
    assert result.fleiss_kappa is None


def test_two_logs_of_the_same_answers(regraded, tmp_path: Path) -> None:
    log, _ = regraded
    overwritten = regrade(log, harsh_judge, "harsh", action="overwrite")
    first, second = tmp_path / "fair.eval", tmp_path / "harsh.eval"
    write_eval_log(log, str(first))
    write_eval_log(overwritten, str(second))
    result = judge_agreement([first, second], settings=FAST)
    [summary] = result.summary.to_dict("records")
    assert (summary["agreement"], summary["disagreements"]) == (0.6, 4)
    assert summary["second"] == "simpleqa_scorer (mockllm/harsh)"


def test_three_gradings_get_fleiss_kappa(regraded, tmp_path: Path) -> None:
    _, path = regraded
    from inspect_ai.log import read_eval_log

    thrice = regrade(read_eval_log(str(path)), judge_reply, "fair-again")
    write_eval_log(thrice, str(tmp_path / "thrice.eval"))
    result = judge_agreement([tmp_path / "thrice.eval"], settings=FAST)
    assert list(result.summary["second"]) == [
        "simpleqa_scorer1 (mockllm/harsh)",
        "simpleqa_scorer2 (mockllm/fair-again)",
    ]
    assert list(result.summary["agreement"]) == [0.6, 1.0]
    # Per answer (C, I, N counts over 3 gradings): 4 x (2, 1, 0), 3 x (0, 3, 0), 3 x (0, 0, 3).
    counts = np.array([[2, 1, 0]] * 4 + [[0, 3, 0]] * 3 + [[0, 0, 3]] * 3)
    assert result.fleiss_kappa == pytest.approx(fleiss_kappa(np.pad(counts, ((0, 0), (0, 1)))))


def test_refuses_logs_of_different_answers(regraded, tmp_path: Path) -> None:
    _, path = regraded
    other = simpleqa_log(guesser_reply, "guesser", tmp_path)
    with pytest.raises(CompareError) as caught:
        judge_agreement([path, other.location], settings=FAST)
    assert str(caught.value) == (
        f"cannot compare the judges of {path} and {other.location}: 7 of 10 answers "
        "differ (first: sample simpleqa_0, epoch 1); judge agreement needs the same answers "
        "graded twice."
    )


def test_refuses_a_log_graded_once(regraded) -> None:
    log, _ = regraded
    with pytest.raises(CompareError, match="holds one grading only; re-grade it with `inspect"):
        judge_agreement([log.location])


def test_grade_table_matches_the_task() -> None:
    assert GRADE_OF_VALUE_KEY == {key: grade for grade, key in GRADE_VALUE_KEYS.items()}


@pytest.mark.slow
def test_cli_judges(regraded, tmp_path: Path) -> None:
    _, path = regraded
    plot = tmp_path / "judges.png"
    command = ["--judges", str(path), "--resamples", "500", "--plot", str(plot)]
    result = cli(*command)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "== judges: simpleqa_scorer (mockllm/fair) vs simpleqa_scorer1 (mockllm/harsh) ==" in out
    assert (
        "10 answers graded by both; agreement 60.0%, Cohen's kappa 0.429, 4 disagreement(s)." in out
    )
    assert "simpleqa_0  1      CORRECT -> INCORRECT  Michio Sugeno" in out
    assert_is_a_real_plot(plot)
