"""inspect_evals 0.28.0's winogrande against ours, question by question, on the 1,267 validation
rows.

inspect_evals' own task (``inspect_evals.winogrande.winogrande``, 0.28.0's module run from a
0.26.0 install, checked file by file by ``inspect_evals_python()``) runs end to end through
inspect_ai's ``eval()`` in its own venv, with only its data source changed: the module's
``hf_dataset`` is pointed at the local rows, every other argument passed on unchanged to
inspect_ai's ``hf_dataset`` (so the train split is shuffled by Hugging Face ``datasets``
itself, seed 42, and cut to 5). The rows: ``validation_full.jsonl`` (the validation split) and
``train.jsonl`` (12 rows standing in for the train split). This project runs
``configs/winogrande_inspect_evals.yaml`` through the ``inspect`` command. Both use Inspect's
``openai-api`` provider against one scripted OpenAI-compatible server on loopback, whose reply
depends on the question only (``REPLY_FORMATS``; a request it does not know gets
``UNKNOWN``, never an error). Compared per question: the messages (roles and bytes), every
other field of the request body, the letter read and the verdict; then the accuracy.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from tests.inspect_cli import config_log, loopback_env
from tests.loopback_server import LoopbackServer, user_text
from tests.peers.inspect_evals_env import INSPECT_EVALS_VERSION, inspect_evals_python
from tests.peers.peer_env import ROOT, PeerResult, record

FIXTURES = ROOT / "tests" / "fixtures" / "winogrande"
VALIDATION = FIXTURES / "validation_full.jsonl"
TRAIN = FIXTURES / "train.jsonl"
CONFIG = ROOT / "configs" / "winogrande_inspect_evals.yaml"
MODEL = "openai-api/loopback/scripted"
ROWS = [json.loads(line) for line in VALIDATION.read_text(encoding="utf-8").splitlines()]
TARGETS = ["A" if row["answer"] == "1" else "B" for row in ROWS]
RUN_TIMEOUT_SECONDS = 900
UNKNOWN = "<a question this test does not know>"

# Replies in many shapes; {L} is the letter named, {O} the other one, {l} {L} lower-cased.
# Inspect's reading (0.3.285): the last "ANSWER: X" line, else the last "ANSWER: X" anywhere,
# $X$ **X** (X) unwrapped, one letter only.
REPLY_FORMATS = [
    "ANSWER: {L}",
    "answer: {l}",
    "ANSWER:{L}",
    "ANSWER: {L}.",
    "ANSWER: ({L})",
    "ANSWER: [{L}]",
    "ANSWER: **{L}**",
    "**ANSWER: {L}**",
    "ANSWER: ${L}$",
    "ANSWER: $\\boxed{{{L}}}$",
    "ANSWER: {L},",
    "ANSWER: {L}, {O}",
    "ANSWER: {L} and {O}",
    "ANSWER: {L}{O}",
    "ANSWER: {L}\n\nThe other option, {O}, does not fit.",
    "The blank is {O}? No.\nANSWER: {L}",
    "ANSWER: {O}\nOn reflection, no.\nANSWER: {L}",
    "I think ANSWER: {L} is right",
    "Final ANSWER: {L}",
    "ANSWER: Because {L} fits",
    "The answer is {L}",
    "{L}",
    "({L})",
    "ANSWER: 1",
    "ANSWER: C",
    "<think>{O} looks wrong.</think>\nANSWER: {L}",
    "ANSWER: {L} )",
    "  ANSWER :  {L}  ",
    "ANSWER: {L}\nANSWER: [LETTER]",
    "",
]


def key_of(user_message: str) -> str:
    """What identifies a question in a user message: the text after the instruction."""
    return user_message.split("\n\n", 1)[-1]


def question_key(row: dict[str, Any]) -> str:
    """The key of a row, as inspect_evals' source puts it in its template."""
    sentence = row["sentence"].replace("_", "[BLANK]")
    return f"Sentence: {sentence}\nA) {row['option1']}\nB) {row['option2']}\n"


ROW_OF_KEY = {question_key(row): position for position, row in enumerate(ROWS)}
ROW_PARTS = [
    [*(part for part in row["sentence"].split("_") if part.strip()), row["option1"], row["option2"]]
    for row in ROWS
]
assert len(ROW_OF_KEY) == len(ROWS), "two validation rows ask the same question"


def reply_for(row: int) -> str:
    """Formats cycle with the row; the named letter is the target on even cycles and the
    other letter on odd ones, so every format is met right and wrong."""
    template = REPLY_FORMATS[row % len(REPLY_FORMATS)]
    target = TARGETS[row]
    other = "B" if target == "A" else "A"
    letter = target if (row // len(REPLY_FORMATS)) % 2 == 0 else other
    unnamed = other if letter == target else target
    return template.format(L=letter, O=unnamed, l=letter.lower())


def row_of(request: dict[str, Any]) -> int | None:
    """The question a request asks: by its key, else (a prompt rendered otherwise) the row
    whose sentence parts and options all appear in it, the most text matched."""
    text = user_text(request)
    row = ROW_OF_KEY.get(key_of(text))
    if row is not None:
        return row
    found = [
        (sum(len(part) for part in parts), position)
        for position, parts in enumerate(ROW_PARTS)
        if all(part in text for part in parts)
    ]
    return max(found)[1] if found else None


def scripted_reply(request: dict[str, Any]) -> str:
    row = row_of(request)
    return UNKNOWN if row is None else reply_for(row)


RUN_INSPECT_EVALS = """
import importlib
import sys

from inspect_ai import eval
from inspect_ai.dataset import hf_dataset

# the module (its package's `winogrande` attribute is the task function)
module = importlib.import_module("inspect_evals.winogrande.winogrande")

validation, train, log_dir, model = sys.argv[1:5]
FILES = {"validation": validation, "train": train}


def local_hf_dataset(*, path, name, split, revision, **kwargs):
    # the dataset it names, read from the local rows; every other argument (shuffle, seed,
    # limit, sample_fields) goes to inspect_ai's hf_dataset unchanged
    assert path == module.DATASET_PATH and name == "winogrande_xl", (path, name)
    assert revision == module.WINOGRANDE_DATASET_REVISION, revision
    return hf_dataset(path="json", split=split, data_files=FILES, cached=False, **kwargs)


module.hf_dataset = local_hf_dataset
[log] = eval(module.winogrande(), model=model, log_dir=log_dir, display="none")
assert log.status == "success", log.error
print(log.location)
"""


def run_inspect_evals(base_url: str, tmp_path: Path) -> EvalLog:
    python = inspect_evals_python()
    env = {
        **loopback_env(base_url),
        # its hf_dataset keeps a copy of what it reads; here in the test's folder, offline
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "HF_HOME": str(tmp_path / "hf"),
        "HF_DATASETS_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1",
    }
    done = subprocess.run(
        [
            str(python),
            "-c",
            RUN_INSPECT_EVALS,
            str(VALIDATION),
            str(TRAIN),
            str(tmp_path / "inspect_evals_logs"),
            MODEL,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    return read_eval_log(done.stdout.strip().splitlines()[-1])


def run_ours(base_url: str, tmp_path: Path) -> EvalLog:
    data_files = json.dumps({"validation": str(VALIDATION), "train": str(TRAIN)})
    return config_log(
        CONFIG,
        base_url,
        tmp_path,
        "-T",
        f"data_files={data_files}",
        model=MODEL,
        env={"INSPECT_BENCHMARKS_CACHE": str(tmp_path / "ours")},
    )


def by_row(
    requests: list[dict[str, Any]], side: str, expected: list[dict[str, Any]] | None = None
) -> dict[int, dict[str, Any]]:
    """Each request by the row it asks; a request for no known question fails here, showing
    its messages (and a request of the other side, ``expected``, for comparison)."""
    rows: dict[int, dict[str, Any]] = {}
    for request in requests:
        row = row_of(request)
        assert row is not None, (
            f"{side} asked a question this test does not know:\n{messages(request)}\n"
            f"inspect_evals asked, for instance:\n{messages(expected[0]) if expected else None}"
        )
        assert row not in rows, f"{side} asked question {row} twice"
        rows[row] = request
    return rows


def messages(request: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(message["role"], message["content"]) for message in request["messages"]]


def settings(request: dict[str, Any]) -> dict[str, Any]:
    """Every field of the body but the messages."""
    return {key: value for key, value in request.items() if key != "messages"}


def letters_and_verdicts(log: EvalLog, row_of_sample: Any) -> dict[int, tuple[str | None, bool]]:
    """(letter read, correct) of each question, by row."""
    assert log.status == "success" and log.samples is not None
    read = {}
    for sample in log.samples:
        assert sample.scores is not None
        [score] = sample.scores.values()
        # Inspect's choice() scores an empty reply N (no answer), counted 0 as I is
        read[row_of_sample(sample)] = (score.answer or None, score.value == "C")
    return read


def test_winogrande_against_inspect_evals_end_to_end(tmp_path: Path) -> None:
    started = time.monotonic()
    with LoopbackServer(scripted_reply) as server:
        their_log = run_inspect_evals(server.base_url, tmp_path)
        their_requests = list(server.requests)
        server.requests.clear()
        our_log = run_ours(server.base_url, tmp_path)
        our_requests = list(server.requests)
    seconds = time.monotonic() - started
    rows = range(len(ROWS))

    theirs = by_row(their_requests, "inspect_evals")
    ours = by_row(our_requests, "ours", their_requests)
    assert sorted(theirs) == sorted(ours) == list(rows)
    # the whole request body: the messages and every other field
    same_prompt = [row for row in rows if theirs[row] == ours[row]]

    their_read = letters_and_verdicts(their_log, _their_row)
    our_read = letters_and_verdicts(our_log, lambda s: int(str(s.id).rsplit("_", 1)[1]))
    assert sorted(their_read) == sorted(our_read) == list(rows)
    same_verdict = [row for row in rows if their_read[row] == our_read[row]]

    [their_scores] = their_log.results.scores if their_log.results else []
    [our_scores] = our_log.results.scores if our_log.results else []
    their_accuracy = their_scores.metrics["accuracy"].value
    our_accuracy = our_scores.metrics["accuracy"].value
    record(
        PeerResult(
            peer="inspect_evals `winogrande`",
            version=INSPECT_EVALS_VERSION,
            rows=len(ROWS),
            prompts_identical=len(same_prompt),
            verdicts_identical=len(same_verdict),
            compared=(
                "request bodies (system and user messages, roles and bytes, every generation "
                f"setting), letter read ({len(REPLY_FORMATS)} reply formats), verdict, accuracy"
            ),
            notes=f"accuracy {their_accuracy:.4f} vs {our_accuracy:.4f}; {seconds:.0f} s",
        )
    )
    # the first question that differs, with both sides' messages
    for row in rows:
        assert messages(ours[row]) == messages(theirs[row]), (
            f"question {row}: inspect_evals sent\n{messages(theirs[row])}\nours sent\n"
            f"{messages(ours[row])}"
        )
        assert settings(ours[row]) == settings(theirs[row]), (row, theirs[row], ours[row])
        assert our_read[row] == their_read[row], (
            row,
            reply_for(row),
            their_read[row],
            our_read[row],
        )
    assert our_accuracy == their_accuracy
    # what was sent: a system message of five demonstrations, the question, max_tokens 64
    assert {json.dumps(settings(request)) for request in our_requests} == {
        json.dumps({"model": "scripted", "max_tokens": 64})
    }
    assert [role for role, _ in messages(ours[0])] == ["system", "user"]
    assert messages(ours[0])[0][1].count("\nANSWER: ") == 5
    # every reply format met, right and wrong
    assert len(ROWS) >= 2 * len(REPLY_FORMATS)


def _their_row(sample: Any) -> int:
    """A sample of inspect_evals' log by its question (its ids are hashes of the sentence)."""
    choices = sample.choices or []
    key = f"{sample.input}\nA) {choices[0]}\nB) {choices[1]}\n"
    return ROW_OF_KEY[key]


def test_an_unknown_question_gets_a_marked_reply() -> None:
    # not a server error, which the client would retry: the comparison shows the request
    assert scripted_reply({"messages": [{"role": "user", "content": "what?"}]}) == UNKNOWN
