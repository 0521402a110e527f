"""The shared SimpleQA judge: panels, majority and ties, Fleiss' kappa, cached verdicts,
re-grading a log with another judge."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from inspect_ai import Task, eval, score
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import ChatMessage, Model

from benchmarks.scorers.judge import JUDGE_FAILURE, panel_grade, simpleqa_scorer
from benchmarks.scorers.judge_agreement import fleiss_kappa
from benchmarks.simpleqa import simpleqa
from benchmarks.simpleqa_verified import simpleqa_verified, simpleqa_verified_scorer
from tests.loopback_server import LoopbackServer
from tests.scripted import last_user_text, scripted_model

FIXTURES = Path(__file__).parents[1] / "fixtures"
CSV = FIXTURES / "simpleqa" / "simple_qa_test_set.sample.csv"
VERIFIED_CSV = FIXTURES / "simpleqa_verified" / "simpleqa_verified.sample.csv"

# Fleiss (1971), Table 1: 30 patients, 6 psychiatrists, 5 diagnoses (each row: the
# diagnosis each psychiatrist gave). Fleiss reports kappa = .430 (R irr: 0.4302445).
FLEISS_1971 = [
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
]  # fmt: skip
# The worked example of Wikipedia's "Fleiss' kappa": 10 subjects, 14 raters, kappa 0.210.
WIKIPEDIA = [
    [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
]  # fmt: skip


def counts(ratings: list[list[int]], categories: int) -> np.ndarray:
    return np.array([[row.count(c) for c in range(1, categories + 1)] for row in ratings])


def test_fleiss_kappa_reproduces_fleiss_1971() -> None:
    assert fleiss_kappa(counts(FLEISS_1971, 5)) == pytest.approx(0.4302445, abs=5e-8)
    assert round(fleiss_kappa(np.array(WIKIPEDIA)), 3) == 0.210


def test_fleiss_kappa_edge_cases() -> None:
    assert fleiss_kappa(np.array([[3, 0], [0, 3]])) == 1.0
    assert np.isnan(fleiss_kappa(np.array([[3, 0], [3, 0]])))  # chance agreement is 1
    with pytest.raises(ValueError, match="same number"):
        fleiss_kappa(np.array([[3, 0], [1, 1]]))
    with pytest.raises(ValueError, match="same number"):
        fleiss_kappa(np.array([[1, 0], [0, 1]]))  # one rater


@pytest.mark.parametrize(
    ("grades", "expected"),
    [
        (["CORRECT"], ("CORRECT", "single judge")),
        ([JUDGE_FAILURE], (JUDGE_FAILURE, "single judge")),
        (["INCORRECT"] * 3, ("INCORRECT", "unanimous")),
        (["CORRECT", "INCORRECT", "CORRECT"], ("CORRECT", "majority")),
        (["CORRECT", "CORRECT", JUDGE_FAILURE], ("CORRECT", "majority")),
        (["CORRECT", "INCORRECT"], (JUDGE_FAILURE, "no majority")),  # a tie decides nothing
        (["CORRECT", "INCORRECT", "NOT_ATTEMPTED"], (JUDGE_FAILURE, "no majority")),
        (["CORRECT", JUDGE_FAILURE, JUDGE_FAILURE], (JUDGE_FAILURE, "no majority")),
        (["A", "A", "B", "B"], (JUDGE_FAILURE, "no majority")),
        (["CORRECT", "CORRECT", "INCORRECT", "NOT_ATTEMPTED"], (JUDGE_FAILURE, "no majority")),
    ],
)
def test_the_panel_grade_is_a_strict_majority(grades: list[str], expected: tuple[str, str]) -> None:
    assert panel_grade(grades) == expected


QUESTIONS = [
    "Who received the IEEE Frank Rosenblatt Award in 2010?",
    "Who was awarded the Oceanography Society's Jerlov Award in 2018?",
    "What's the name of the women's liberal arts college in Cambridge, Massachusetts?",
    "In whose honor was the Leipzig 1877 tournament organized?",
]
# Three judges' replies for the first four fixture questions.
PANEL = {
    "judge_a": ["A", "B", "C", "A"],
    "judge_b": ["A", "A", "B", "garbled"],
    "judge_c": ["A", "B", "A", "B"],
}
# sample grades: unanimous A; majority B; no majority (C, B, A); no majority (A, fail, B)
PANEL_GRADES = ["CORRECT", "INCORRECT", JUDGE_FAILURE, JUDGE_FAILURE]


def question_of(messages: list[ChatMessage]) -> int:
    text = last_user_text(messages)
    question = text.rsplit("\nQuestion: ", 1)[1].split("\nGold target: ", 1)[0]
    return QUESTIONS.index(question)


class CountingJudge:
    """Replies from a table by question; counts its calls."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies
        self.calls = 0

    def __call__(self, messages: list[ChatMessage]) -> str:
        self.calls += 1
        return self.replies[question_of(messages)]


def candidate() -> Model:
    return scripted_model(lambda messages: "an answer", name="candidate")


def run(
    tmp_path: Path, roles: dict[str, Any], task: Callable[..., Task] = simpleqa, **task_args: Any
) -> EvalLog:
    task_args.setdefault("dataset_path", str(CSV))
    (log,) = eval(
        task(num_examples=4, **task_args),
        model=candidate(),
        model_roles=roles,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    return log


def metric_values(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


def test_a_panel_grades_by_majority_and_reports_each_judge(tmp_path: Path) -> None:
    judges = {name: CountingJudge(replies) for name, replies in PANEL.items()}
    models = [scripted_model(judge, name=name) for name, judge in judges.items()]
    log = run(tmp_path, {"grader": models}, breakdowns=False)
    assert [judge.calls for judge in judges.values()] == [4, 4, 4]
    assert log.samples is not None
    by_question = {QUESTIONS.index(str(s.input)): s.scores["simpleqa_scorer"] for s in log.samples}  # type: ignore[index]
    for index, grade in enumerate(PANEL_GRADES):
        metadata = by_question[index].metadata
        assert metadata is not None
        assert metadata["grade"] == grade
        assert [j["grader"] for j in metadata["judges"]] == [
            "mockllm/judge_a",
            "mockllm/judge_b",
            "mockllm/judge_c",
        ]
        assert [j["reply"] for j in metadata["judges"]] == [r[index] for r in PANEL.values()]
    assert by_question[1].metadata["votes"] == {"INCORRECT": 2, "CORRECT": 1}  # type: ignore[index]
    assert by_question[1].metadata["panel_decision"] == "majority"  # type: ignore[index]
    assert by_question[3].explanation == (
        "mockllm/judge_a: judge replied 'A': A = CORRECT; "
        "mockllm/judge_b: judge reply 'garbled' is not A, B or C: judge failure; "
        "mockllm/judge_c: judge replied 'B': B = INCORRECT. Panel of 3: no majority, JUDGE_FAILURE."
    )
    values = metric_values(log)
    assert values["correct"] == 1 / 4 and values["judge_failures"] == 2.0
    # judge_a: A B C A -> correct 2/4, attempted accuracy 2/3
    assert values["judge_1_correct"] == 2 / 4
    assert values["judge_1_attempted_accuracy"] == pytest.approx(2 / 3, rel=1e-12)
    assert values["judge_2_judge_failures"] == 1.0
    assert values["judge_3_incorrect"] == 2 / 4
    assert values["unanimous"] == 1 / 4
    # per sample, counts of CORRECT, INCORRECT, NOT_ATTEMPTED, JUDGE_FAILURE
    table = np.array([[3, 0, 0, 0], [1, 2, 0, 0], [1, 1, 1, 0], [1, 1, 0, 1]])
    assert values["fleiss_kappa"] == fleiss_kappa(table)
    # by hand: P-bar = (1 + 1/3 + 0 + 0) / 4 = 1/3; P-e = (6/12)^2 + (4/12)^2 + 2 (1/12)^2
    # = 3/8; kappa = (1/3 - 3/8) / (1 - 3/8) = -1/15
    assert values["fleiss_kappa"] == pytest.approx(-1 / 15, rel=1e-12)


def test_one_judge_costs_one_call_per_sample_and_reports_no_panel(tmp_path: Path) -> None:
    judge = CountingJudge(PANEL["judge_a"])
    log = run(tmp_path, {"grader": scripted_model(judge, name="solo")}, breakdowns=False)
    assert judge.calls == 4
    values = metric_values(log)
    assert not [name for name in values if name.startswith("judge_1") or "kappa" in name]
    assert log.samples is not None
    metadata = log.samples[0].scores["simpleqa_scorer"].metadata  # type: ignore[index]
    assert metadata is not None and set(metadata) == {"grade", "judges", "judge_reply", "grader"}


@pytest.mark.parametrize("task", [simpleqa, simpleqa_verified])
@pytest.mark.slow
def test_cached_verdicts_cost_no_call_when_run_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, task: Callable[..., Task]
) -> None:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    data = {"dataset_path": str(CSV if task is simpleqa else VERIFIED_CSV)}
    calls: list[str] = []

    def reply(messages: list[ChatMessage]) -> str:
        calls.append(last_user_text(messages))
        return "A"

    roles = {"grader": scripted_model(reply, name="cached")}
    first = run(tmp_path / "1", roles, task, judge_cache=True, **data)
    assert len(calls) == 4
    second = run(tmp_path / "2", roles, task, judge_cache=True, **data)
    assert len(calls) == 4  # the second run made no judge call
    assert metric_values(second) == metric_values(first)
    # re-scoring the log with the same judge and settings: no call either
    same_scorer = (simpleqa_scorer if task is simpleqa else simpleqa_verified_scorer)(
        judge_cache=True
    )
    rescored = score(first, same_scorer, model_roles=roles, action="overwrite")
    assert len(calls) == 4
    assert rescored.results is not None
    # without judge_cache every run calls the judge again
    run(tmp_path / "3", roles, task, **data)
    assert len(calls) == 8


def inspect_score(log: Path, judge: str, output: Path, base_url: str) -> None:
    env = {**os.environ, "LOOPBACK_BASE_URL": base_url, "LOOPBACK_API_KEY": "loopback"}
    done = subprocess.run(
        [
            str(Path(sys.executable).with_name("inspect")),
            "score",
            str(log),
            "--model-role",
            f"grader=openai-api/loopback/{judge}",
            "--action",
            "append",
            "--output-file",
            str(output),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]


@pytest.mark.parametrize(
    ("task", "scorer", "args", "headline"),
    [
        (simpleqa, "simpleqa_scorer", {"profile": "simple_evals_ee3b031"}, "f_score"),
        (simpleqa_verified, "simpleqa_verified_scorer", {}, "f1"),
    ],
)
@pytest.mark.slow
def test_inspect_score_regrades_a_log_with_another_judge(
    tmp_path: Path, task: Callable[..., Task], scorer: str, args: dict[str, Any], headline: str
) -> None:
    data = {"dataset_path": str(CSV if task is simpleqa else VERIFIED_CSV)}
    run(
        tmp_path / "logs",
        {"grader": scripted_model(lambda m: "A", name="first")},
        task,
        **data,
        **args,
    )
    (log_file,) = (tmp_path / "logs").glob("*.eval")
    regraded = tmp_path / "regraded.eval"
    with LoopbackServer(lambda request: "B") as server:
        inspect_score(log_file, "second-judge", regraded, server.base_url)
        requests = list(server.requests)
    assert len(requests) == 4
    if task is simpleqa:  # the scorer's options are kept: profile simple_evals' judge settings
        assert {(r["messages"][0]["role"], r["max_tokens"]) for r in requests} == {("system", 2048)}
    log = read_eval_log(str(regraded))
    assert log.samples is not None
    for sample in log.samples:
        assert sample.scores is not None
        original, again = sample.scores[scorer], sample.scores[f"{scorer}1"]
        assert original.metadata["grade"] == "CORRECT"  # type: ignore[index]
        assert original.metadata["grader"] == "mockllm/first"  # type: ignore[index]
        assert again.metadata["grade"] == "INCORRECT"  # type: ignore[index]
        assert again.metadata["grader"] == "openai-api/loopback/second-judge"  # type: ignore[index]
        assert set(again.value) == {"correct", "incorrect", "not_attempted", "judge_failure"}  # type: ignore[arg-type]
    assert log.results is not None
    results = {s.name: {n: m.value for n, m in s.metrics.items()} for s in log.results.scores}
    assert results[scorer]["correct"] == 1.0
    assert results[f"{scorer}1"]["incorrect"] == 1.0
    assert results[f"{scorer}1"][headline] == 0.0
    # the original log is left as it was
    assert [s.name for s in read_eval_log(str(log_file)).results.scores] == [scorer]  # type: ignore[union-attr]
