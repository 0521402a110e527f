"""evalscope's winogrande against ours, question by question, on the 1,267 validation rows.

evalscope 1.14.1 runs end to end (``run_task(TaskConfig(eval_type="openai_api"))`` on
the rows as local data) against a scripted OpenAI-compatible server on loopback; this
project runs through ``inspect eval --run-config configs/winogrande_evalscope.yaml``
with Inspect's ``openai-api`` provider against a second such server, so the config
file itself is what is checked. Each question gets the same reply on both sides (it
depends only on the question), drawn from ``REPLY_FORMATS``. Compared per question:
the messages sent, the letter parsed, the verdict; then the accuracy.

A second test runs ``parse_answers`` from the source of every evalscope release that
``answer_parse`` names (``evalscope_<release>``, 1.11.0 to 1.14.0; ``evalscope``, 1.14.1)
on the same replies and on generated ones, against
``benchmarks.scorers.letter_reading.parse_evalscope_answer``.
"""

from __future__ import annotations

import json
import random
import subprocess
import zipfile
from pathlib import Path
from typing import Any, NamedTuple

from benchmarks.scorers.letter_reading import (
    EVALSCOPE_RELEASES,
    parse_answer_marker,
    parse_evalscope_answer,
)
from tests.inspect_cli import config_log
from tests.loopback_server import LoopbackServer, user_text
from tests.peers.peer_env import ROOT, PeerResult, downloaded_wheel, peer_python, record

RELEASE = "1.14.1"
FIXTURE = ROOT / "tests" / "fixtures" / "winogrande" / "validation_full.jsonl"
CONFIG = ROOT / "configs" / "winogrande_evalscope.yaml"
ROWS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
ROW_OF_SENTENCE = {row["sentence"]: position for position, row in enumerate(ROWS)}
TARGETS = ["A" if row["answer"] == "1" else "B" for row in ROWS]


class ReplyFormat(NamedTuple):
    """A reply shape; ``{L}`` is the letter the reply names, ``{O}`` the other one.

    ``evalscope`` and ``answer_marker`` say what each parse reads ("L" or None);
    ``why`` explains a difference between them.
    """

    template: str
    evalscope: str | None
    answer_marker: str | None
    why: str = ""


CASE = "evalscope's letters are case-sensitive; answer_marker's are not"
TWO = "two letters are no single answer for evalscope; answer_marker takes the first"
NO_MARKER = "without a usable marker evalscope takes the last capital; answer_marker nothing"
LATEX = "evalscope skips LaTeX wrappers; answer_marker reads plain, (), [] and ** only"
UNICODE = "evalscope reads full-width brackets; answer_marker ASCII ones only"

REPLY_FORMATS = [
    ReplyFormat("ANSWER: {L}", "L", "L"),
    ReplyFormat("answer: {l}", None, "L", CASE),
    ReplyFormat("ANSWER: {l}", None, "L", CASE),
    ReplyFormat("ANSWER: ({L})", "L", "L"),
    ReplyFormat("ANSWER: [{L}]", "L", "L"),
    ReplyFormat("ANSWER: **{L}**", "L", "L"),
    ReplyFormat("**ANSWER: {L}**", "L", "L"),
    ReplyFormat("ANSWER: {L}.", "L", "L"),
    ReplyFormat("ANSWER:{L}", "L", "L"),
    ReplyFormat("ANSWER: $\\boxed{{{L}}}$\n\nExplanation: {O} does not fit.", "L", None, LATEX),
    ReplyFormat("ANSWER: $\\boxed{{\\text{{{L}}}}}$", "L", None, LATEX),
    ReplyFormat("ANSWER: \\({L}\\)", "L", None, LATEX),
    ReplyFormat("ANSWER: ${L}$", "L", None, LATEX),
    ReplyFormat("ANSWER: {L}/{O}", None, "L", TWO),
    ReplyFormat("ANSWER: {L} and {O}", None, "L", TWO),
    ReplyFormat("ANSWER: {L} or {O}", None, "L", TWO),
    ReplyFormat("ANSWER: {L}，{O}", None, "L", TWO),
    ReplyFormat("ANSWER: {L}、{O}", None, "L", TWO),
    ReplyFormat("ANSWER: {L} {O}", None, "L", TWO),
    ReplyFormat("ANSWER: {L}, not {O}", "L", "L"),
    ReplyFormat("ANSWER: {L}\n\nThe other option, {O}, does not fit the sentence.", "L", "L"),
    ReplyFormat("ANSWER: {O}\nOn reflection, no.\nANSWER: {L}", "L", "L"),
    ReplyFormat("ANSWER: （{L}）", "L", None, UNICODE),
    ReplyFormat("ANSWER: 【{L}】", "L", None, UNICODE),
    ReplyFormat("I think the blank is option {L}", "L", None, NO_MARKER),
    ReplyFormat("The answer is ({L}).", "L", None, NO_MARKER),
    ReplyFormat("{L}", "L", None, NO_MARKER),
    ReplyFormat("ANSWER: [LETTER]\nI choose {L}", "L", None, NO_MARKER),
    ReplyFormat("ANSWER: Because {L} fits the blank", "L", None, NO_MARKER),
    ReplyFormat("<think>{O} looks wrong.</think>\nANSWER: {L}", "L", "L"),
    ReplyFormat("ANSWER: C", None, None),
    ReplyFormat("", None, None),
]


def reply_for(row: int) -> tuple[ReplyFormat, str, str]:
    """The reply format, reply text and named letter for a question (by its row).

    Formats cycle with the row; the named letter is the target on even cycles and
    the other letter on odd ones, so every format is met right and wrong.
    """
    shape = REPLY_FORMATS[row % len(REPLY_FORMATS)]
    target = TARGETS[row]
    other = "B" if target == "A" else "A"
    letter = target if (row // len(REPLY_FORMATS)) % 2 == 0 else other
    unnamed = other if letter == target else target
    text = shape.template.format(L=letter, O=unnamed, l=letter.lower())
    return shape, text, letter


def row_of(request: dict[str, Any]) -> int:
    """The question a request asks: its sentence is the prompt's second paragraph."""
    paragraphs = user_text(request).split("\n\n")
    return ROW_OF_SENTENCE[paragraphs[1]] if len(paragraphs) > 1 else -1


def scripted_reply(request: dict[str, Any]) -> str:
    row = row_of(request)
    return reply_for(row)[1] if row >= 0 else ""


RUN_EVALSCOPE = """
import sys
from evalscope import TaskConfig, run_task

api_url, data_dir, work_dir = sys.argv[1:4]
run_task(TaskConfig(
    model="scripted", api_url=api_url, api_key="loopback", eval_type="openai_api",
    datasets=["winogrande"], dataset_args={"winogrande": {"local_path": data_dir}},
    work_dir=work_dir, no_timestamp=True, eval_batch_size=16,
))
"""


def run_evalscope(python: Path, base_url: str, tmp_path: Path) -> tuple[dict[int, Any], float]:
    """evalscope's per-question reviews (by row) and its reported accuracy."""
    data_dir = tmp_path / "evalscope_data"
    data_dir.mkdir()
    (data_dir / "validation.jsonl").write_bytes(FIXTURE.read_bytes())
    work_dir = tmp_path / "evalscope_out"
    done = subprocess.run(
        [str(python), "-c", RUN_EVALSCOPE, base_url, str(data_dir), str(work_dir)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    [reviews_file] = (work_dir / "reviews").glob("*/winogrande_default.jsonl")
    reviews = [json.loads(line) for line in reviews_file.read_text().splitlines()]
    [report_file] = (work_dir / "reports").glob("*/winogrande.json")
    [metric] = json.loads(report_file.read_text())["metrics"]
    assert metric["identity"]["name"] == "accuracy"
    return {review["index"]: review for review in reviews}, metric["score"]


def run_ours(base_url: str, tmp_path: Path) -> tuple[dict[int, Any], float]:
    """Our per-question scores (by row) and accuracy, through the run config."""
    log = config_log(CONFIG, base_url, tmp_path, "-T", f"data_files={FIXTURE}")
    assert log.status == "success" and log.samples is not None and log.results is not None
    assert log.eval.metadata is not None and log.eval.metadata["answer_parse"] == "evalscope"
    scores = {}
    for sample in log.samples:
        assert sample.scores is not None
        scores[int(str(sample.id).rsplit("_", 1)[1])] = sample.scores["option_letter_scorer"]
    return scores, log.results.scores[0].metrics["accuracy"].value


def messages_by_row(requests: list[dict[str, Any]]) -> dict[int, list[tuple[str, Any]]]:
    by_row: dict[int, list[tuple[str, Any]]] = {}
    for request in requests:
        row = row_of(request)
        assert row not in by_row, f"question {row} was asked twice"
        by_row[row] = [(message["role"], message["content"]) for message in request["messages"]]
    return by_row


def generation_settings(request: dict[str, Any]) -> dict[str, Any]:
    ignored = {"messages", "model", "stream", "stream_options"}
    return {key: value for key, value in request.items() if key not in ignored}


def test_winogrande_against_evalscope_end_to_end(tmp_path: Path) -> None:
    python = peer_python("evalscope", [f"evalscope=={RELEASE}"])
    with LoopbackServer(scripted_reply) as peer_server:
        peer_reviews, peer_accuracy = run_evalscope(python, peer_server.base_url, tmp_path)
    with LoopbackServer(scripted_reply) as our_server:
        our_scores, our_accuracy = run_ours(our_server.base_url, tmp_path)

    peer_messages = messages_by_row(peer_server.requests)
    our_messages = messages_by_row(our_server.requests)
    rows = range(len(ROWS))
    assert sorted(peer_messages) == sorted(our_messages) == sorted(peer_reviews) == list(rows)
    same_prompt = [row for row in rows if peer_messages[row] == our_messages[row]]
    peer_letters = {row: peer_reviews[row]["sample_score"]["score"] for row in rows}
    same_verdict = [
        row
        for row in rows
        if (peer_letters[row]["extracted_prediction"] or None) == our_scores[row].answer
        and peer_letters[row]["value"]["accuracy"] == (1.0 if our_scores[row].value == "C" else 0.0)
    ]
    record(
        PeerResult(
            peer="evalscope `winogrande`",
            version=RELEASE,
            rows=len(ROWS),
            prompts_identical=len(same_prompt),
            verdicts_identical=len(same_verdict),
            compared=f"messages sent, parsed letter ({len(REPLY_FORMATS)} reply formats), accuracy",
            notes=f"accuracy {peer_accuracy:.4f} vs {our_accuracy:.4f}",
        )
    )
    assert [row for row in rows if row not in same_prompt] == []
    differing = [(row, peer_letters[row], our_scores[row]) for row in rows]
    assert [case for case in differing if case[0] not in same_verdict] == []
    # evalscope reports its accuracy to 4 decimals; the mean of its verdicts is exact
    peer_mean = sum(peer_letters[row]["value"]["accuracy"] for row in rows) / len(ROWS)
    assert our_accuracy == peer_mean
    assert round(our_accuracy, 4) == peer_accuracy
    # one user message, in the bytes evalscope sends (the first question in full)
    assert our_messages[0] == [("user", _expected_prompt(0))]
    # the generation settings each side sends: temperature 0 and nothing else
    for server in (peer_server, our_server):
        sent = {json.dumps(generation_settings(request)) for request in server.requests}
        assert sent == {'{"temperature": 0.0}'}

    # The reply table says what each parse reads: evalscope's column is its own reading...
    for row in rows:
        shape, text, letter = reply_for(row)
        expected = letter if shape.evalscope == "L" else None
        assert (peer_letters[row]["extracted_prediction"] or None) == expected, (shape, text)
        # ...and where our default parse differs, the table says why.
        default = parse_answer_marker(text, ["A", "B"]).letter
        assert default == (letter if shape.answer_marker == "L" else None), (shape, text)
        assert (default != expected) == bool(shape.why), (shape, text)


def _expected_prompt(row: int) -> str:
    sentence, option1, option2 = (ROWS[row][key] for key in ("sentence", "option1", "option2"))
    return (
        "Answer the following multiple choice question. The entire content of your response "
        "should be of the following format: 'ANSWER: [LETTER]' (without quotes) where [LETTER] "
        f"is one of A,B.\n\n{sentence}\n\nA) {option1}\nB) {option2}"
    )


PARSE_EVERY_RELEASE = """
import importlib.util, json, sys, types

sources, replies, option_counts = json.loads(sys.stdin.read())
answers = {}
for release, path in sources.items():
    spec = importlib.util.spec_from_file_location(f"multi_choices_{release}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    answers[release] = {
        str(count): [
            "".join(sorted(module.parse_answers(
                types.SimpleNamespace(choices=[None] * count), completion=reply
            )))
            for reply in replies
        ]
        for count in option_counts
    }
print(json.dumps(answers))
"""

TOKENS = (
    "ANSWER:|Answer:|answer: |ANSWER: |**|(|)|[|]|（|）|【|】|.|,|，|、|/| and | or | AND |$|$$|"
    "\\boxed{|\\text{|\\fbox {|\\(|\\)|}|A|B|C|D|a|b| |\n|Because|AB|BA|1|ſ|K|É"
).split("|")


def generated_replies(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(TOKENS) for _ in range(rng.randint(0, 12))) for _ in range(count)]


def test_parse_of_every_release_against_its_own_source(tmp_path: Path) -> None:
    python = peer_python("evalscope", [f"evalscope=={RELEASE}"])
    installed = subprocess.run(
        [str(python), "-c", "import evalscope.utils.multi_choices as m; print(m.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    )
    sources = {RELEASE: installed.stdout.strip()}
    for release in sorted(set(EVALSCOPE_RELEASES) - {RELEASE}):
        with zipfile.ZipFile(downloaded_wheel(f"evalscope=={release}")) as wheel:
            path = tmp_path / f"multi_choices_{release}.py"
            path.write_bytes(wheel.read("evalscope/utils/multi_choices.py"))
            sources[release] = str(path)
    assert sorted(sources) == sorted(EVALSCOPE_RELEASES)

    scripted = [reply_for(row)[1] for row in range(2 * len(REPLY_FORMATS))]
    replies = scripted + generated_replies(4000)
    option_counts = [2, 4]
    done = subprocess.run(
        [str(python), "-c", PARSE_EVERY_RELEASE],
        input=json.dumps([sources, replies, option_counts]),
        capture_output=True,
        text=True,
        check=True,
    )
    answers = json.loads(done.stdout)
    for release in EVALSCOPE_RELEASES:
        for count in option_counts:
            valid = [chr(ord("A") + i) for i in range(count)]
            ours = [parse_evalscope_answer(r, valid, release).letter or "" for r in replies]
            theirs = answers[release][str(count)]
            differing = [
                (reply, peer, mine)
                for reply, peer, mine in zip(replies, theirs, ours, strict=True)
                if peer != mine
            ]
            assert differing == [], (release, count)
