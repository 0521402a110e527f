"""SimpleQA and SimpleQA Verified against inspect_evals 0.28.0's own tasks, end to end.

inspect_evals' ``simpleqa`` (``scorer="original"``, with ``grade_parse="strict"`` and with
``"paper"``) and ``simpleqa_verified`` (``scorer="original"``, ``"strict"``) run through
inspect_ai's ``eval()`` in the peer venv (0.28.0's task modules from a 0.26.0 install,
checked file by file by ``inspect_evals_python()``), with the settings of their own
``paper_config/*.yaml`` read from the installed package: its ``generate_config`` as the
eval's generation settings, its grader role's ``config`` on the judge model. Only the data
source changes: the task module's ``simpleqa_dataset`` / ``simpleqa_verified_dataset`` read
the local rows, through the same loader and ``sample_fields`` they pass. This project runs
``configs/simpleqa_inspect_evals.yaml`` (``-T grade_parse=official`` for the ``paper``
parse) and ``configs/simpleqa_verified_inspect_evals.yaml`` through the ``inspect``
command. Both talk over real HTTP to one scripted OpenAI-compatible server on loopback: the
candidate's reply depends on the question, the judge's on the question and the predicted
answer (the 36 judge-reply kinds of ``test_simple_evals_simpleqa.py``, which tell the two
parses apart, non-ASCII letters beside a grade letter among them); a request it does not
know gets a marked reply, never an error.

Per question: the candidate's and the judge's whole request bodies (messages, roles and
bytes, every setting), the judge's reply, the grade; then every metric, theirs mapped to
ours. A plain run of inspect_evals' ``simpleqa`` without its paper config shows what it
sends then (no generation setting at all).

Rows: SimpleQA's first 400 (``tests/fixtures/simpleqa/simple_qa_test_set.first400.csv``).
SimpleQA Verified's file cannot be fetched here, so its rows are stand-ins built from the
same 400 rows, in its schema (``verified_rows``), as the fixtures of
``tests/fixtures/simpleqa_verified/`` are.
"""

from __future__ import annotations

import csv
import json
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from tests.loopback_server import LoopbackServer, user_text
from tests.peers.inspect_evals_env import INSPECT_EVALS_VERSION
from tests.peers.inspect_evals_simpleqa_runs import (
    CANDIDATE_MODEL,
    FIXTURE,
    PLAIN_ROWS,
    our_grades,
    run_inspect_evals,
    run_ours,
    their_grades,
    verified_rows,
    write_head,
)
from tests.peers.peer_env import ROOT, PeerResult, record
from tests.peers.test_simple_evals_simpleqa import (
    CANDIDATE_REPLIES,
    JUDGE_REPLIES,
    NON_ASCII_NEIGHBOURS,
    non_ascii_kinds,
    pick,
)

SIMPLEQA_CONFIG = ROOT / "configs" / "simpleqa_inspect_evals.yaml"
VERIFIED_CONFIG = ROOT / "configs" / "simpleqa_verified_inspect_evals.yaml"
# the judges their paper configs name (openai/gpt-4o, openai/gpt-4.1-2025-04-14), served here
SIMPLEQA_JUDGE = "gpt-4o"
VERIFIED_JUDGE = "gpt-4.1-2025-04-14"
UNKNOWN = "<a request this test does not know>"


def judged_question(prompt: str) -> tuple[str, str]:
    """(question, predicted answer) of a filled-in inspect_evals template: the example ends
    at its fence, backticks (SimpleQA) or ''' (SimpleQA Verified), before the instructions."""
    question = prompt.rsplit("\nQuestion: ", 1)[1].split("\nGold target: ", 1)[0]
    predicted = prompt.rsplit("\nPredicted answer: ", 1)[1]
    ends = [predicted.rfind(f"\n{fence}\n\nGrade the") for fence in ("```", "'''")]
    end = max(ends)
    if end < 0:
        raise IndexError("no fence before the grading instructions")
    return question, predicted[:end]


class ScriptedReplies:
    """The loopback server's replies, chosen from the request alone; a request it does not
    know gets ``UNKNOWN`` (not a server error, which would be retried), so the comparison
    shows it."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers

    def __call__(self, request: dict[str, Any]) -> str:
        text = user_text(request)
        if request["model"] == CANDIDATE_MODEL:
            answer = self.answers.get(text)
            return (
                UNKNOWN if answer is None else pick(CANDIDATE_REPLIES, text).format(answer=answer)
            )
        try:
            return pick(JUDGE_REPLIES, *judged_question(text))
        except IndexError:
            return UNKNOWN


def by_question(requests: list[dict[str, Any]], judge: str) -> tuple[dict[str, Any], ...]:
    """Candidate and judge requests, each keyed by its question (each asked once)."""
    candidate: dict[str, Any] = {}
    judged: dict[str, Any] = {}
    for request in requests:
        if request["model"] == CANDIDATE_MODEL:
            question = user_text(request)
            assert question not in candidate, f"asked twice: {question!r}"
            candidate[question] = request
        else:
            assert request["model"] == judge, request["model"]
            try:
                question, _ = judged_question(user_text(request))
            except IndexError:
                raise AssertionError(f"a judge request this test cannot read: {request}") from None
            assert question not in judged, f"judged twice: {question!r}"
            judged[question] = request
    return candidate, judged


def settings(request: dict[str, Any]) -> dict[str, Any]:
    """Every field of the body but the messages."""
    return {key: value for key, value in request.items() if key != "messages"}


def metrics(log: EvalLog) -> dict[str, Any]:
    assert log.results is not None
    return {name: metric.value for name, metric in log.results.scores[0].metrics.items()}


@dataclass(frozen=True)
class Case:
    """One comparison: inspect_evals' task with its paper config, ours with our config."""

    name: str
    task: str  # inspect_evals' task function
    grade_parse: str  # its grade_parse
    config: Path
    our_args: tuple[str, ...]  # -T values beside the rows
    judge: str
    f_name: str  # our name of its f_score
    # what its paper config sets: the eval's generation settings, the grader role's config
    candidate_settings: dict[str, Any]
    judge_settings: dict[str, Any]
    paper_judge: str

    @property
    def peer(self) -> str:
        return f"inspect_evals `{self.task}`, original scorer, grade_parse={self.grade_parse}"


CASES = [
    Case(
        "simpleqa_strict",
        "simpleqa",
        "strict",
        SIMPLEQA_CONFIG,
        (),
        SIMPLEQA_JUDGE,
        "f_score",
        {"temperature": 0.5, "max_tokens": 2048},
        {"temperature": 0.5},
        "openai/gpt-4o",
    ),
    Case(
        "simpleqa_paper_parse",
        "simpleqa",
        "paper",
        SIMPLEQA_CONFIG,
        ("grade_parse=official",),
        SIMPLEQA_JUDGE,
        "f_score",
        {"temperature": 0.5, "max_tokens": 2048},
        {"temperature": 0.5},
        "openai/gpt-4o",
    ),
    Case(
        "simpleqa_verified",
        "simpleqa_verified",
        "strict",
        VERIFIED_CONFIG,
        (),
        VERIFIED_JUDGE,
        "f1",
        {"temperature": 1.0, "max_tokens": 2048},
        {"temperature": 1.0},
        "openai/gpt-4.1-2025-04-14",
    ),
]


def compare(
    case: Case,
    questions: list[str],
    theirs: tuple[EvalLog, list[dict[str, Any]]],
    ours: tuple[EvalLog, list[dict[str, Any]]],
    seconds: float,
) -> dict[str, str]:
    """Compare one pair of runs question by question, record the counts, and return
    inspect_evals' letter for each question."""
    their_log, their_requests = theirs
    our_log, our_requests = ours
    their_candidate, their_judge = by_question(their_requests, case.judge)
    our_candidate, our_judge = by_question(our_requests, case.judge)
    assert set(their_candidate) == set(our_candidate) == set(questions)
    assert set(their_judge) == set(our_judge) == set(questions)

    pairs = {
        q: [(their_candidate[q], our_candidate[q]), (their_judge[q], our_judge[q])]
        for q in questions
    }
    same_prompt = [q for q in questions if all(a["messages"] == b["messages"] for a, b in pairs[q])]
    same_body = [q for q in questions if all(a == b for a, b in pairs[q])]
    their_graded, our_graded = their_grades(their_log), our_grades(our_log)
    # a blank judge reply is no verdict here (a judge failure), C there (docs/judges.md)
    blank = {q for q in questions if not their_graded[q][1].strip()}
    expected = {q: ("-", their_graded[q][1]) if q in blank else their_graded[q] for q in questions}
    same_verdict = [q for q in questions if their_graded[q] == our_graded[q]]
    served = Counter(reply for _, reply in their_graded.values())

    their_metrics, our_metrics = metrics(their_log), metrics(our_log)
    n = len(questions)
    failures = int(our_metrics["judge_failures"])
    # theirs count a judge failure as not attempted; every other statistic is the same
    their_not_attempted = (round(our_metrics["not_attempted"] * n) + failures) / n
    mapped = {
        "correct": our_metrics["correct"],
        "incorrect": our_metrics["incorrect"],
        "not_attempted": their_not_attempted,
        "attempted": 1 - their_not_attempted,
        "correct_given_attempted": our_metrics["attempted_accuracy"],
        "f_score": our_metrics[case.f_name],
    }
    record(
        PeerResult(
            peer=case.peer,
            version=INSPECT_EVALS_VERSION,
            rows=n,
            prompts_identical=len(same_prompt),
            verdicts_identical=len(same_verdict),
            compared="candidate and judge request bodies (its paper config's settings, "
            f"{len(served)} judge-reply kinds, {non_ascii_kinds(served)}), judge reply, grade, "
            "metrics",
            verdicts_note=f"the other {len(blank)} are blank judge replies, a judge failure "
            "here and C there by design "
            "([judges](docs/judges.md#when-the-judge-gives-no-verdict)); correct, incorrect, "
            "attempted accuracy and F equal, its not_attempted ours plus judge failures",
            notes=f"{case.name}: whole request bodies identical {len(same_body)}/{n}; "
            f"{len(blank)} blank judge replies; {seconds:.0f} s",
        )
    )
    # the first question that differs, both sides shown
    for q in questions:
        for (a, b), what in zip(pairs[q], ("candidate", "judge"), strict=True):
            assert a["messages"] == b["messages"], (
                f"{case.name}, question {q!r}: inspect_evals' {what} messages\n{a['messages']}\n"
                f"ours\n{b['messages']}"
            )
            assert settings(a) == settings(b), (case.name, q, what, settings(a), settings(b))
        assert our_graded[q] == expected[q], (case.name, q, their_graded[q], our_graded[q])
    assert blank, "no blank judge reply was served: the departure is not exercised"
    assert len(served) >= 30, f"only {len(served)} kinds of judge reply were served"
    assert all(served[reply] for reply in NON_ASCII_NEIGHBOURS), non_ascii_kinds(served)
    assert failures == len(blank)
    assert {key: their_metrics[key] for key in mapped} == mapped, (their_metrics, our_metrics)
    assert set(their_metrics) == set(mapped)
    # what is sent, as its source and paper config read: one user message, these settings
    for request in our_requests:
        candidate = request["model"] == CANDIDATE_MODEL
        wanted = case.candidate_settings if candidate else case.judge_settings
        assert settings(request) == {"model": request["model"], **wanted}
        assert [message["role"] for message in request["messages"]] == ["user"]
    return {q: letter for q, (letter, _) in their_graded.items()}


def test_simpleqa_and_verified_against_inspect_evals_end_to_end(tmp_path: Path) -> None:
    with FIXTURE.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    questions = [row["problem"] for row in rows]
    assert len(set(questions)) == len(questions)
    verified = tmp_path / "simpleqa_verified.jsonl"
    verified_rows(verified)
    server = LoopbackServer(ScriptedReplies({row["problem"]: row["answer"] for row in rows}))

    def served_requests() -> list[dict[str, Any]]:
        taken = list(server.requests)
        server.requests.clear()
        return taken

    letters: dict[str, dict[str, str]] = {}
    with server:
        url = server.base_url
        # inspect_evals without its paper config: no generation setting is sent
        plain, _ = run_inspect_evals(
            url,
            tmp_path,
            "plain",
            "simpleqa",
            "strict",
            write_head(tmp_path),
            SIMPLEQA_JUDGE,
            paper_config=False,
        )
        plain_requests = served_requests()
        assert plain.status == "success" and len(plain_requests) == 2 * PLAIN_ROWS
        assert {json.dumps(settings(r)) for r in plain_requests} == {
            json.dumps({"model": CANDIDATE_MODEL}),
            json.dumps({"model": SIMPLEQA_JUDGE}),
        }

        for case in CASES:
            rows_file = verified if case.task == "simpleqa_verified" else FIXTURE
            started = time.monotonic()
            their_log, report = run_inspect_evals(
                url, tmp_path, case.name, case.task, case.grade_parse, rows_file, case.judge
            )
            their_requests = served_requests()
            assert report["generate_config"] == case.candidate_settings
            assert report["grader_config"] == case.judge_settings
            assert report["paper_judge"] == case.paper_judge
            data = "data_files" if case.task == "simpleqa_verified" else "dataset_path"
            our_log = run_ours(
                url,
                tmp_path,
                case.name,
                case.config,
                case.judge,
                f"{data}={rows_file}",
                *case.our_args,
            )
            our_requests = served_requests()
            letters[case.name] = compare(
                case,
                questions,
                (their_log, their_requests),
                (our_log, our_requests),
                time.monotonic() - started,
            )

    # the served replies tell the two parses apart
    strict, paper = letters["simpleqa_strict"], letters["simpleqa_paper_parse"]
    differing = [q for q in questions if strict[q] != paper[q]]
    assert len(differing) >= 20, f"strict and paper differ on only {len(differing)} questions"


def test_unknown_requests_get_a_marked_reply() -> None:
    replies = ScriptedReplies({"What?": "That."})
    assert replies(
        {"model": CANDIDATE_MODEL, "messages": [{"role": "user", "content": "Eh?"}]}
    ) == (UNKNOWN)
    assert replies({"model": SIMPLEQA_JUDGE, "messages": [{"role": "user", "content": "x"}]}) == (
        UNKNOWN
    )
