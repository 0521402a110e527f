"""SimpleQA against openai/simple-evals' own code, request for request.

simple-evals (commit ee3b0318d8d1d9d72755a4120879be65f7c07e9e, MIT, not on
PyPI: ``require_simple_evals()`` finds its sources) runs its own
``SimpleQAEval`` with its own ``ChatCompletionSampler`` for the candidate and
the judge, built as its ``simple_evals.py`` builds them, in a venv of its
imports. This project runs ``configs/simpleqa_simple_evals.yaml`` through the
``inspect`` command with Inspect's ``openai-api`` provider. Both talk over
real HTTP to one scripted OpenAI-compatible server on loopback: the
candidate's reply depends on the question, the judge's on the question and
the predicted answer (over 30 kinds of judge reply). Per question, the
candidate's and the judge's messages (roles and bytes), the request settings
and the grade must be identical, and so must every metric and the questions
``num_examples`` draws.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from tests.loopback_server import LoopbackServer, user_text
from tests.peers.peer_env import PeerResult, peer_python, record, require_simple_evals

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "configs" / "simpleqa_simple_evals.yaml"
# The header and the first 400 rows of simple_qa_test_set.csv, byte for byte (see its README).
FIXTURE = ROOT / "tests" / "fixtures" / "simpleqa" / "simple_qa_test_set.first400.csv"
NUM_EXAMPLES = 300
CANDIDATE_MODEL = "candidate-model"
JUDGE_MODEL = "gpt-4.1-2025-04-14"
SYSTEM_MESSAGE = "You are a helpful assistant."
# simple-evals' imports (common.py, simpleqa_eval.py, the sampler), pinned.
REQUIREMENTS = [
    "openai==3.57.0",
    "pandas==3.1.1",
    "numpy==2.4.6",
    "jinja2==3.1.6",
    "requests==2.34.2",
    "tqdm==4.70.1",
]
RUN_TIMEOUT_SECONDS = 900

# Non-ASCII letters beside a grade letter (Unicode ``\b`` sees no word boundary there, an
# ASCII-only one does) and look-alikes of one (fullwidth A, Cyrillic A: no grade letter).
NON_ASCII_NEIGHBOURS = ("éA", "Ａ", "А")
# How a judge may answer: bare letters, emphasis, punctuation, words, case, non-ASCII, noise.
JUDGE_REPLIES = [
    "A",
    "B",
    "C",
    "**A**",
    "**B**",
    "*C*",
    "A.",
    "B.",
    "C!",
    "`A`",
    "The answer is B",
    "The grade is: **C**",
    "CORRECT",
    "INCORRECT",
    "NOT_ATTEMPTED",
    "NOT ATTEMPTED",
    "correct",
    "А",
    "a",
    "éA",
    "Ａ",
    "",
    "   ",
    "A: CORRECT",
    "B: INCORRECT",
    "C: NOT_ATTEMPTED",
    "(B)",
    "[A]",
    "  B\n",
    "A\n\nExplanation: the predicted answer contains the gold target.",
    "Explanation: it contradicts the gold target.\nB",
    "I am not sure how to grade this one.",
    "Grade: none of the above",
    "ABC",
    "CBA",
    "é A",
]
CANDIDATE_REPLIES = [
    "{answer}",
    "I don't know.",
    "I believe it is {answer}, but I am not sure.",
    "Paris",
    "",
    "Line one\nLine two, ünïcödé ✓ — 12.5%",
]

DRIVER = r"""
import ast, contextlib, io, json, sys, types

import pandas

source, fixture, out_path, num_examples = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
# The pinned sources are a folder named "simple-evals" (not an importable name, no
# __init__.py): bind it to a package name so that its relative imports resolve.
package = types.ModuleType("simple_evals")
package.__path__ = [source]
sys.modules["simple_evals"] = package
from simple_evals import simpleqa_eval
from simple_evals.sampler.chat_completion_sampler import (
    OPENAI_SYSTEM_MESSAGE_API,
    ChatCompletionSampler,
)

# No network: the one URL simpleqa_eval.py reads is served from the fixture, which
# holds the same rows byte for byte; pandas still parses it.
URL = "https://openaipublic.blob.core.windows.net/simple-evals/simple_qa_test_set.csv"
read_csv = pandas.read_csv


def local_read_csv(path, *args, **kwargs):
    assert path == URL, path
    return read_csv(fixture, *args, **kwargs)


pandas.read_csv = local_read_csv

# Record each grade as grade_sample returns it (its logic untouched).
graded = []
grade_sample = simpleqa_eval.SimpleQAEval.grade_sample


def recording_grade_sample(self, question, target, predicted_answer):
    letter = grade_sample(self, question, target, predicted_answer)
    graded.append([question, predicted_answer, letter])
    return letter


simpleqa_eval.SimpleQAEval.grade_sample = recording_grade_sample

# As simple_evals.py builds its chat models and its grading_sampler at ee3b031.
candidate = ChatCompletionSampler(
    model="candidate-model", system_message=OPENAI_SYSTEM_MESSAGE_API, max_tokens=2048
)
grader = ChatCompletionSampler(
    model="gpt-4.1-2025-04-14", system_message=OPENAI_SYSTEM_MESSAGE_API, max_tokens=2048
)
evaluation = simpleqa_eval.SimpleQAEval(grader_model=grader, num_examples=num_examples)
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    result = evaluation(candidate)
lines = printed.getvalue().splitlines()
with open(out_path, "w") as handle:
    json.dump(
        {
            "examples": [row["problem"] for row in evaluation.examples],
            "graded": graded,
            "metrics": {name: float(value) for name, value in result.metrics.items()},
            "score": float(result.score),
            "aggregate": ast.literal_eval(lines[lines.index("AGGREGATE METRICS") + 1]),
            "f1": next(line for line in lines if line.startswith("F1 Score: ")).split(": ")[1],
        },
        handle,
    )
"""


def non_ascii_kinds(served: Counter[str]) -> str:
    """The non-ASCII neighbours of the grade letters, with how many questions got each."""
    listed = ", ".join(f"`{reply}` {served[reply]}" for reply in NON_ASCII_NEIGHBOURS)
    return f"non-ASCII beside or for a grade letter: {listed}"


def pick(options: list[str], *keys: str) -> str:
    digest = hashlib.sha256("\x00".join(keys).encode("utf-8")).digest()
    return options[int.from_bytes(digest[:8], "big") % len(options)]


def judged_question(prompt: str) -> tuple[str, str]:
    """(question, predicted answer) of a filled-in grader template."""
    question = prompt.rsplit("\nQuestion: ", 1)[1].split("\nGold target: ", 1)[0]
    predicted = prompt.rsplit("\nPredicted answer: ", 1)[1].rsplit("\n```\n\nGrade the", 1)[0]
    return question, predicted


UNKNOWN = "<a request this test does not know>"


class ScriptedReplies:
    """The loopback server's replies, chosen from the request alone."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers

    def __call__(self, request: dict[str, Any]) -> str:
        """A request the fixture does not know gets a marked reply, not a server error
        (which would be retried): the comparison then shows the request."""
        text = user_text(request)
        if request["model"] == CANDIDATE_MODEL:
            answer = self.answers.get(text)
            return (
                UNKNOWN if answer is None else pick(CANDIDATE_REPLIES, text).format(answer=answer)
            )
        try:
            return pick(JUDGE_REPLIES, *judged_question(text))
        except IndexError:  # not the grader template this test knows
            return UNKNOWN


def messages_as_text(request: dict[str, Any]) -> list[tuple[str, str]]:
    """(role, text) of each message; content given as text parts is joined."""
    messages = []
    for message in request["messages"]:
        content = message["content"]
        if not isinstance(content, str):
            content = "".join(part["text"] for part in content if part["type"] == "text")
        messages.append((message["role"], content))
    return messages


def judge_reply_of(request: dict[str, Any]) -> str:
    """The scripted judge's reply to a judge request."""
    return pick(JUDGE_REPLIES, *judged_question(user_text(request)))


def settings(request: dict[str, Any]) -> tuple[Any, Any]:
    return request.get("temperature"), request.get("max_tokens")


def by_question(requests: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Candidate and judge requests, each keyed by its question (each asked once)."""
    candidate: dict[str, Any] = {}
    judge: dict[str, Any] = {}
    for request in requests:
        if request["model"] == CANDIDATE_MODEL:
            question = user_text(request)
            assert question not in candidate, f"asked twice: {question!r}"
            candidate[question] = request
        else:
            assert request["model"] == JUDGE_MODEL, request["model"]
            question, _ = judged_question(user_text(request))
            assert question not in judge, f"judged twice: {question!r}"
            judge[question] = request
    return candidate, judge


def run_simple_evals(base_url: str, out: Path) -> dict[str, Any]:
    source = require_simple_evals()
    python = peer_python("simple-evals", REQUIREMENTS)
    env = {**os.environ, "OPENAI_BASE_URL": base_url, "OPENAI_API_KEY": "loopback"}
    driver = out.parent / "simple_evals_driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    done = subprocess.run(
        [str(python), str(driver), str(source), str(FIXTURE), str(out), str(NUM_EXAMPLES)],
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def run_ours(base_url: str, log_dir: Path) -> EvalLog:
    inspect = Path(sys.executable).with_name("inspect")
    env = {**os.environ, "LOOPBACK_BASE_URL": base_url, "LOOPBACK_API_KEY": "loopback"}
    done = subprocess.run(
        [
            str(inspect),
            "eval",
            "--run-config",
            str(CONFIG),
            "--model",
            f"openai-api/loopback/{CANDIDATE_MODEL}",
            "--model-role",
            f"grader=openai-api/loopback/{JUDGE_MODEL}",
            "-T",
            f"dataset_path={FIXTURE}",
            "-T",
            f"num_examples={NUM_EXAMPLES}",
            "--log-dir",
            str(log_dir),
            "--display",
            "none",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    (log_file,) = log_dir.glob("*.eval")
    return read_eval_log(str(log_file))


def test_simpleqa_matches_simple_evals_request_for_request(tmp_path: Path) -> None:
    with FIXTURE.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    answers = {row["problem"]: row["answer"] for row in rows}
    row_of = {row["problem"]: index for index, row in enumerate(rows)}
    started = time.monotonic()
    with LoopbackServer(ScriptedReplies(answers)) as server:
        theirs = run_simple_evals(server.base_url, tmp_path / "simple_evals.json")
        their_requests = list(server.requests)
        server.requests.clear()
        log = run_ours(server.base_url, tmp_path / "logs")
        our_requests = list(server.requests)
    seconds = time.monotonic() - started

    # num_examples: the same questions, drawn in the same order
    assert log.status == "success"
    assert log.eval.dataset.sample_ids == [
        f"simpleqa_{row_of[question]}" for question in theirs["examples"]
    ]
    questions = theirs["examples"]
    assert len(questions) == NUM_EXAMPLES

    their_candidate, their_judge = by_question(their_requests)
    our_candidate, our_judge = by_question(our_requests)
    assert set(their_candidate) == set(our_candidate) == set(questions)
    assert set(their_judge) == set(our_judge) == set(questions)

    prompts_identical = bodies_identical = 0
    differences = []
    for question in questions:
        ours_and_theirs = [
            (their_candidate[question], our_candidate[question]),
            (their_judge[question], our_judge[question]),
        ]
        prompts_identical += all(
            messages_as_text(a) == messages_as_text(b) for a, b in ours_and_theirs
        )
        # the whole request body: model, messages, temperature, max_tokens, nothing else
        bodies_identical += all(a == b for a, b in ours_and_theirs)
        differences += [(question, a, b) for a, b in ours_and_theirs if a != b]
    # the peer first: the first differing request, both bodies shown
    assert differences == [], "first differing request ({!r}):\nsimple-evals: {}\nours: {}".format(
        *differences[0]
    )
    # then what simple-evals sends, as its source reads (a change on both sides shows here)
    for question in questions:
        assert messages_as_text(our_candidate[question]) == [
            ("system", SYSTEM_MESSAGE),
            ("user", question),
        ]
        assert settings(their_judge[question]) == settings(our_judge[question]) == (0.5, 2048)
    served = Counter(
        pick(JUDGE_REPLIES, *judged_question(user_text(r))) for r in their_judge.values()
    )
    assert len(served) >= 30, f"only {len(served)} kinds of judge reply were served"
    assert all(served[reply] for reply in NON_ASCII_NEIGHBOURS), non_ascii_kinds(served)

    # The one documented departure (docs/judges.md): a blank judge reply is no verdict,
    # a judge failure here, where simple-evals' parse reads C (NOT_ATTEMPTED).
    blank = {q for q in questions if not judge_reply_of(their_judge[q]).strip()}
    assert blank, "no blank judge reply was served: the departure is not exercised"
    their_grades = {question: letter for question, _, letter in theirs["graded"]}
    assert {their_grades[q] for q in blank} == {"C"}
    letters = {"CORRECT": "A", "INCORRECT": "B", "NOT_ATTEMPTED": "C", "JUDGE_FAILURE": "-"}
    assert log.samples is not None
    our_grades = {
        str(sample.input): letters[sample.scores["simpleqa_scorer"].metadata["grade"]]  # type: ignore[index]
        for sample in log.samples
    }
    expected = {q: "-" if q in blank else their_grades[q] for q in questions}
    verdicts_identical = sum(their_grades[q] == our_grades[q] for q in questions)
    assert {q: our_grades[q] for q in questions} == expected

    assert log.results is not None
    ours = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    aggregate = theirs["aggregate"]
    n = len(questions)
    assert ours["correct"] == aggregate["is_correct"] == theirs["metrics"]["is_correct"]
    assert ours["incorrect"] == aggregate["is_incorrect"] == theirs["metrics"]["is_incorrect"]
    assert ours["judge_failures"] == len(blank)
    their_not_attempted = aggregate["is_not_attempted"]
    assert their_not_attempted == theirs["metrics"]["is_not_attempted"]
    assert round(ours["not_attempted"] * n) + len(blank) == round(their_not_attempted * n)
    # Neither C nor a judge failure is attempted: the headline ratios are the reference's.
    assert ours["attempted_accuracy"] == aggregate["accuracy_given_attempted"]
    assert f"{ours['f_score']:.3f}" == theirs["f1"]
    assert ours["correct"] == theirs["score"]

    record(
        PeerResult(
            peer="openai/simple-evals `simpleqa`",
            compared=f"candidate and judge request bodies ({len(served)} judge-reply kinds, "
            f"{non_ascii_kinds(served)}), grade, metrics",
            verdicts_note=f"the other {len(blank)} are blank judge replies, a judge failure "
            "here and C there by design "
            "([judges](docs/judges.md#when-the-judge-gives-no-verdict)); correct, incorrect, "
            "attempted accuracy and F equal",
            version="ee3b031",
            rows=len(questions),
            prompts_identical=prompts_identical,
            verdicts_identical=verdicts_identical,
            notes=f"whole request bodies identical {bodies_identical}/{len(questions)}, "
            f"{len(served)} judge-reply kinds, num_examples={NUM_EXAMPLES} of {len(rows)} "
            f"rows drawn identically; the {len(blank)} blank judge replies are judge failures "
            "here and C there (by design), every other verdict identical; correct, incorrect, "
            f"attempted accuracy and F equal, {seconds:.0f} s",
        )
    )
    assert prompts_identical == bodies_identical == len(questions)
    assert verdicts_identical == len(questions) - len(blank)
