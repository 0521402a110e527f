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
parses apart); a request it does not know gets a marked reply, never an error.

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

import ast
import csv
import json
import subprocess
import time
from collections import Counter
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from tests.inspect_cli import inspect_cli, loopback_env
from tests.loopback_server import LoopbackServer, user_text
from tests.peers.inspect_evals_env import INSPECT_EVALS_VERSION, inspect_evals_python
from tests.peers.peer_env import ROOT, PeerResult, record
from tests.peers.test_simple_evals_simpleqa import CANDIDATE_REPLIES, JUDGE_REPLIES, pick

FIXTURE = ROOT / "tests" / "fixtures" / "simpleqa" / "simple_qa_test_set.first400.csv"
SIMPLEQA_CONFIG = ROOT / "configs" / "simpleqa_inspect_evals.yaml"
VERIFIED_CONFIG = ROOT / "configs" / "simpleqa_verified_inspect_evals.yaml"
CANDIDATE_MODEL = "candidate-model"
# the judges their paper configs name (openai/gpt-4o, openai/gpt-4.1-2025-04-14), served here
SIMPLEQA_JUDGE = "gpt-4o"
VERIFIED_JUDGE = "gpt-4.1-2025-04-14"
PLAIN_ROWS = 5
RUN_TIMEOUT_SECONDS = 900
UNKNOWN = "<a request this test does not know>"
LETTERS = {"CORRECT": "A", "INCORRECT": "B", "NOT_ATTEMPTED": "C", "JUDGE_FAILURE": "-"}

RUN_INSPECT_EVALS = r"""
import importlib
import json
import sys
from pathlib import Path

import yaml
from inspect_ai import eval
from inspect_ai.dataset import json_dataset
from inspect_ai.model import GenerateConfig, get_model

# the task module (its package's `simpleqa` attribute is the task function)
module = importlib.import_module("inspect_evals.simpleqa.simpleqa")
data = importlib.import_module("inspect_evals.simpleqa.dataset")
task_name, grade_parse, rows, log_dir, candidate, judge, with_paper_config = sys.argv[1:8]


def local_simpleqa_dataset():
    # the loader and sample_fields simpleqa_dataset() passes, on the local file
    return data.load_csv_dataset(
        file_path=rows,
        eval_name="simpleqa",
        cache_tag="simple_qa_test_set",
        sample_fields=data.simpleqa_record_to_sample,
    )


def local_simpleqa_verified_dataset():
    # the FieldSpec simpleqa_verified_dataset() passes, on local rows in the Hub schema
    return json_dataset(rows, sample_fields=data.SIMPLEQA_VERIFIED_FIELDS)


module.simpleqa_dataset = local_simpleqa_dataset
module.simpleqa_verified_dataset = local_simpleqa_verified_dataset

generate_config, grader_config, paper_judge = {}, {}, None
if with_paper_config == "yes":
    config_file = Path(module.__file__).parent / "paper_config" / f"{task_name}.yaml"
    config = yaml.safe_load(config_file.read_text())
    assert set(config) == {"generate_config", "model_roles"}, config
    assert set(config["model_roles"]) == {"grader"}, config
    generate_config = config["generate_config"]
    grader_config = config["model_roles"]["grader"]["config"]
    paper_judge = config["model_roles"]["grader"]["model"]

task = getattr(module, task_name)(scorer="original", grade_parse=grade_parse)
grader = get_model(judge, config=GenerateConfig(**grader_config))
[log] = eval(
    task,
    model=candidate,
    model_roles={"grader": grader},
    log_dir=log_dir,
    display="none",
    **generate_config,
)
assert log.status == "success", log.error
print(json.dumps({
    "log": log.location,
    "generate_config": generate_config,
    "grader_config": grader_config,
    "paper_judge": paper_judge,
}))
"""


def verified_rows(path: Path) -> list[dict[str, Any]]:
    """The fixture's rows as stand-ins in SimpleQA Verified's schema (google/simpleqa-verified,
    as codelion/SimpleQA-Verified holds it): ``original_index`` the row, ``problem`` and
    ``answer`` verbatim, ``topic``/``answer_type`` from the metadata literal, ``urls`` its
    URLs joined with ``,``, and made-up ``multi_step`` (``bool(k & 1)``) and
    ``requires_reasoning`` (``bool(k & 2)``). Written as JSON lines to ``path``."""
    with FIXTURE.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    table = []
    for index, row in enumerate(rows):
        metadata = ast.literal_eval(row["metadata"])
        table.append(
            {
                "original_index": index,
                "problem": row["problem"],
                "answer": row["answer"],
                "topic": metadata["topic"],
                "answer_type": metadata["answer_type"],
                "multi_step": bool(index & 1),
                "requires_reasoning": bool(index & 2),
                "urls": ",".join(metadata["urls"]),
            }
        )
    path.write_text("".join(json.dumps(row) + "\n" for row in table), encoding="utf-8")
    return table


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


def run_inspect_evals(
    base_url: str,
    tmp_path: Path,
    name: str,
    task: str,
    grade_parse: str,
    rows: Path,
    judge: str,
    *,
    paper_config: bool = True,
) -> tuple[EvalLog, dict[str, Any]]:
    python = inspect_evals_python()
    done = subprocess.run(
        [
            str(python),
            "-c",
            RUN_INSPECT_EVALS,
            task,
            grade_parse,
            str(rows),
            str(tmp_path / f"{name}_inspect_evals_logs"),
            f"openai-api/loopback/{CANDIDATE_MODEL}",
            f"openai-api/loopback/{judge}",
            "yes" if paper_config else "no",
        ],
        env={**loopback_env(base_url), "XDG_CACHE_HOME": str(tmp_path / "cache")},
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return read_eval_log(report["log"]), report


def run_ours(
    base_url: str, tmp_path: Path, name: str, config: Path, judge: str, *task_args: str
) -> EvalLog:
    log_dir = tmp_path / f"{name}_logs"
    arguments = [arg for value in task_args for arg in ("-T", value)]
    done = subprocess.run(
        [
            inspect_cli(),
            "eval",
            "--run-config",
            str(config),
            "--model",
            f"openai-api/loopback/{CANDIDATE_MODEL}",
            "--model-role",
            f"grader=openai-api/loopback/{judge}",
            *arguments,
            "--log-dir",
            str(log_dir),
            "--display",
            "none",
        ],
        cwd=ROOT,
        env={**loopback_env(base_url), "INSPECT_BENCHMARKS_CACHE": str(tmp_path / "ours")},
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    [log_file] = log_dir.glob("*.eval")
    return read_eval_log(str(log_file))


def their_grades(log: EvalLog) -> dict[str, tuple[str, str]]:
    """(letter, judge reply) of each question in inspect_evals' log."""
    assert log.status == "success" and log.samples is not None
    grades = {}
    for sample in log.samples:
        assert sample.scores is not None
        [score] = sample.scores.values()
        value = score.value
        assert isinstance(value, dict)
        [letter] = [
            letter
            for key, letter in (("correct", "A"), ("incorrect", "B"), ("not_attempted", "C"))
            if value[key] == 1.0
        ]
        assert score.metadata is not None
        grades[str(sample.input)] = (letter, score.metadata["grader_response"])
    return grades


def our_grades(log: EvalLog) -> dict[str, tuple[str, str]]:
    """(letter, or - for a judge failure, and the judge reply) of each question in our log."""
    assert log.status == "success" and log.samples is not None
    grades = {}
    for sample in log.samples:
        assert sample.scores is not None
        [score] = sample.scores.values()
        assert score.metadata is not None
        grades[str(sample.input)] = (
            LETTERS[score.metadata["grade"]],
            score.metadata["judge_reply"],
        )
    return grades


def metrics(log: EvalLog) -> dict[str, Any]:
    assert log.results is not None
    return {name: metric.value for name, metric in log.results.scores[0].metrics.items()}


def compare(
    name: str,
    peer: str,
    questions: list[str],
    theirs: tuple[EvalLog, list[dict[str, Any]]],
    ours: tuple[EvalLog, list[dict[str, Any]]],
    judge: str,
    f_name: str,
    seconds: float,
) -> dict[str, str]:
    """Compare one pair of runs question by question, record the counts, and return
    inspect_evals' letter for each question."""
    their_log, their_requests = theirs
    our_log, our_requests = ours
    their_candidate, their_judge = by_question(their_requests, judge)
    our_candidate, our_judge = by_question(our_requests, judge)
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
        "f_score": our_metrics[f_name],
    }
    record(
        PeerResult(
            peer=peer,
            version=INSPECT_EVALS_VERSION,
            rows=n,
            prompts_identical=len(same_prompt),
            verdicts_identical=len(same_verdict),
            compared=f"candidate and judge request bodies ({len(served)} judge-reply kinds), "
            "judge reply, grade, metrics",
            verdicts_note=f"the other {len(blank)} are blank judge replies, a judge failure "
            "here and C there by design "
            "([judges](docs/judges.md#when-the-judge-gives-no-verdict)); correct, incorrect, "
            "attempted accuracy and F equal",
            notes=f"{name}: whole request bodies identical {len(same_body)}/{n}; "
            f"{len(blank)} blank judge replies; {seconds:.0f} s",
        )
    )
    # the first question that differs, both sides shown
    for q in questions:
        for (a, b), what in zip(pairs[q], ("candidate", "judge"), strict=True):
            assert a["messages"] == b["messages"], (
                f"{name}, question {q!r}: inspect_evals' {what} messages\n{a['messages']}\n"
                f"ours\n{b['messages']}"
            )
            assert settings(a) == settings(b), (name, q, what, settings(a), settings(b))
        assert our_graded[q] == expected[q], (name, q, their_graded[q], our_graded[q])
    assert blank, "no blank judge reply was served: the departure is not exercised"
    assert len(served) >= 30, f"only {len(served)} kinds of judge reply were served"
    assert failures == len(blank)
    assert {key: their_metrics[key] for key in mapped} == mapped, (their_metrics, our_metrics)
    assert set(their_metrics) == set(mapped)
    return {q: letter for q, (letter, _) in their_graded.items()}


def test_simpleqa_and_verified_against_inspect_evals_end_to_end(tmp_path: Path) -> None:
    with FIXTURE.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    questions = [row["problem"] for row in rows]
    assert len(set(questions)) == len(questions)
    verified = tmp_path / "simpleqa_verified.jsonl"
    verified_rows(verified)
    server = LoopbackServer(ScriptedReplies({row["problem"]: row["answer"] for row in rows}))

    def requests_of(run: Any) -> tuple[Any, list[dict[str, Any]], float]:
        server.requests.clear()
        started = time.monotonic()
        result = run()
        return result, list(server.requests), time.monotonic() - started

    parse_letters: dict[str, dict[str, str]] = {}
    with server:
        url = server.base_url
        # inspect_evals without its paper config: no generation setting is sent
        (plain, _), plain_requests, _ = requests_of(
            lambda: run_inspect_evals(
                url,
                tmp_path,
                "plain",
                "simpleqa",
                "strict",
                write_head(tmp_path),
                SIMPLEQA_JUDGE,
                paper_config=False,
            )
        )
        assert plain.status == "success"
        assert {json.dumps(settings(r), sort_keys=True) for r in plain_requests} == {
            json.dumps({"model": CANDIDATE_MODEL}),
            json.dumps({"model": SIMPLEQA_JUDGE}),
        }
        assert len(plain_requests) == 2 * PLAIN_ROWS

        for name, parse, extra in (
            ("simpleqa_strict", "strict", ()),
            ("simpleqa_paper_parse", "paper", ("grade_parse=official",)),
        ):
            (their_log, report), their_requests, their_seconds = requests_of(
                lambda parse=parse, name=name: run_inspect_evals(  # type: ignore[misc]
                    url, tmp_path, name, "simpleqa", parse, FIXTURE, SIMPLEQA_JUDGE
                )
            )
            assert report["generate_config"] == {"temperature": 0.5, "max_tokens": 2048}
            assert report["grader_config"] == {"temperature": 0.5}
            assert report["paper_judge"] == "openai/gpt-4o"
            our_log, our_requests, our_seconds = requests_of(
                lambda name=name, extra=extra: run_ours(  # type: ignore[misc]
                    url,
                    tmp_path,
                    name,
                    SIMPLEQA_CONFIG,
                    SIMPLEQA_JUDGE,
                    f"dataset_path={FIXTURE}",
                    *extra,
                )
            )
            parse_letters[parse] = compare(
                name,
                f"inspect_evals `simpleqa`, original scorer, grade_parse={parse}",
                questions,
                (their_log, their_requests),
                (our_log, our_requests),
                SIMPLEQA_JUDGE,
                "f_score",
                their_seconds + our_seconds,
            )
            # what is sent, as its source and paper config read
            for request in our_requests:
                expected = (
                    {"temperature": 0.5, "max_tokens": 2048}
                    if request["model"] == CANDIDATE_MODEL
                    else {"temperature": 0.5}
                )
                assert settings(request) == {"model": request["model"], **expected}
                assert [m["role"] for m in request["messages"]] == ["user"]

        (their_log, report), their_requests, their_seconds = requests_of(
            lambda: run_inspect_evals(
                url, tmp_path, "verified", "simpleqa_verified", "strict", verified, VERIFIED_JUDGE
            )
        )
        assert report["generate_config"] == {"temperature": 1.0, "max_tokens": 2048}
        assert report["grader_config"] == {"temperature": 1.0}
        assert report["paper_judge"] == "openai/gpt-4.1-2025-04-14"
        our_log, our_requests, our_seconds = requests_of(
            lambda: run_ours(
                url, tmp_path, "verified", VERIFIED_CONFIG, VERIFIED_JUDGE, f"data_files={verified}"
            )
        )
        compare(
            "simpleqa_verified",
            "inspect_evals `simpleqa_verified`, original scorer, grade_parse=strict",
            questions,
            (their_log, their_requests),
            (our_log, our_requests),
            VERIFIED_JUDGE,
            "f1",
            their_seconds + our_seconds,
        )
        judge_prompts = [r for r in our_requests if r["model"] == VERIFIED_JUDGE]
        assert all("\n'''\nQuestion: " in user_text(r) for r in judge_prompts)

    # the served replies tell the two parses apart
    differing = [q for q in questions if parse_letters["strict"][q] != parse_letters["paper"][q]]
    assert len(differing) >= 20, f"strict and paper differ on only {len(differing)} questions"


def write_head(tmp_path: Path) -> Path:
    """The fixture's header and first ``PLAIN_ROWS`` rows (whole records), for the plain run."""
    with FIXTURE.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        records = [next(reader) for _ in range(PLAIN_ROWS + 1)]
    head = tmp_path / "head.csv"
    with head.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(records)
    return head


def test_unknown_requests_get_a_marked_reply() -> None:
    replies = ScriptedReplies({"What?": "That."})
    assert replies(
        {"model": CANDIDATE_MODEL, "messages": [{"role": "user", "content": "Eh?"}]}
    ) == (UNKNOWN)
    assert replies({"model": SIMPLEQA_JUDGE, "messages": [{"role": "user", "content": "x"}]}) == (
        UNKNOWN
    )
