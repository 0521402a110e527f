"""lmms-eval's scienceqa against ours, request by request, on 50 real test rows and five of
their images in the other modes real ScienceQA images come in (palette, RGBA, LA,
grayscale, CMYK).

lmms-eval 0.7.3 runs end to end, as a user runs it: ``python -m lmms_eval eval --model
openai`` (its default chat client, ``models/chat/openai.py``), on a task file that
includes its own ``tasks/scienceqa/scienceqa.yaml`` and changes only the data source (a
local parquet file in the Hub schema, read by its loader through ``datasets``). So its
task config, its ``doc_to_text`` and ``doc_to_visual`` (``convert("RGB")``), its chat
message building (image first, then the text), its PNG encoding, its OpenAI client, its
``generation_kwargs``, its evaluator, ``sqa_process_results`` and the ``exact_match``
mean all run, against a scripted OpenAI-compatible server on loopback. This project runs
``inspect eval --run-config configs/scienceqa_lmms_eval.yaml`` with Inspect's
``openai-api`` provider against a second such server, with a fresh image cache. The two
fixtures are run separately (the five converted rows repeat the text of five of the 50).
Restated, not run: only lmms-eval's data source (``lmms-lab-encoder/ScienceQA``), which
the task file replaces. Its ``--force_simple`` client (``models/simple/openai.py``, the
text before the image) is not the path the profile reproduces, and is not run.

Each question gets the same reply on both sides, chosen by the prompt's text from
``REPLY_FORMATS`` (formats lmms-eval's rule reads and formats it misses, naming the
target or a wrong letter); a prompt the test does not know gets ``UNKNOWN`` (not a
server error, which would be retried). Compared per question: the request body (the
messages, their roles, the order of the parts, the text byte for byte, each image
decoded without conversion and compared pixel for pixel, mode and size, and every
generation setting), the reply each side read, the verdict; then the accuracy. Read as
the same message: a string content and a list of its one text part (lmms-eval sends the
list, Inspect the string), an image part's ``detail`` of ``auto`` (OpenAI's default,
which Inspect states and lmms-eval leaves out); a PNG colour key is set apart and
checked after the comparison (lmms-eval keeps a palette image's transparent colour
through ``convert("RGB")``, we drop it). A prompt text that differs fails the test as
soon as lmms-eval's first run ends, at the first differing question with both texts
shown; any other difference at the first differing request, both shown.

A second test runs ``sqa_process_results`` of the installed lmms-eval on every reply
format for every question, naming the target and a wrong letter, against our scorer.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import json
import os
import subprocess
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelName, ModelOutput
from inspect_ai.scorer import Scorer, Target
from inspect_ai.solver import TaskState
from PIL import Image

from benchmarks.scienceqa import scienceqa
from benchmarks.solvers.prompt_preview import prompt_messages
from tests.inspect_cli import config_log
from tests.loopback_server import LoopbackServer, user_text
from tests.peers.peer_env import ROOT, PeerResult, peer_python, record

VERSION = "0.7.3"
FIXTURE = ROOT / "tests" / "fixtures" / "scienceqa" / "test_slice.hf.parquet"
# Five of its image rows with the image in palette (one colour transparent), RGBA (half
# transparent), LA, grayscale and CMYK (JPEG) modes, as real ScienceQA has besides RGB.
IMAGE_MODES = ROOT / "tests" / "fixtures" / "scienceqa" / "image_modes.hf.parquet"
FIXTURES = {"slice": FIXTURE, "modes": IMAGE_MODES}
CONFIG = ROOT / "configs" / "scienceqa_lmms_eval.yaml"
TASK_ARGS = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))["task"]["args"]
# lmms-eval needs torch: the CPU wheel of torch first (PyPI's default pulls CUDA, GBs),
# lmms-eval without its dependencies (which name GPU packages), then what its CLI, its
# loader and its openai client import, torch kept; Pillow and datasets as ours.
TORCH = "torch==2.13.0"
THEN_INSTALL = [
    ["--no-deps", f"lmms-eval=={VERSION}"],
    [
        TORCH,
        "datasets==5.2.0",
        "pillow==13.0.0",
        "accelerate",
        "evaluate",
        "filelock<4",
        "loguru",
        "openai",
        "pytablewriter",
        "python-dotenv",
        "pytz",
        "pyyaml",
        "sacrebleu",
        "tenacity",
        "transformers",
    ],
]
RUN_TIMEOUT_SECONDS = 900
UNKNOWN = "<a prompt this test does not know>"


class ReplyFormat(NamedTuple):
    """A reply shape: ``{L}`` the letter it names, ``{l}`` that letter in lower case,
    ``{O}`` another option's letter, ``{choice}`` the named option's text.
    ``read`` says whether lmms-eval's rule reads the named letter (else it reads none)."""

    template: str
    read: bool


# read and missed formats alternate, so that every fixture meets both
REPLY_FORMATS = [
    ReplyFormat("{L}", True),
    ReplyFormat("{l}. {choice}", False),
    ReplyFormat(" {L}", True),
    ReplyFormat("({L})", False),
    ReplyFormat("{L}\n", True),
    ReplyFormat("{L})", False),
    ReplyFormat("{l}", True),
    ReplyFormat("The answer is {L}", False),
    ReplyFormat("{L}.", True),
    ReplyFormat("Answer: {L}", False),
    ReplyFormat("{L}. {choice}", True),
    ReplyFormat("**{L}**", False),
    ReplyFormat("\n\n{L}. {choice}\n", True),
    ReplyFormat("{L}{O}", False),
    ReplyFormat("{L}.{O}", True),
    ReplyFormat("{choice}", False),
    ReplyFormat("{L}. The answer is {O}", True),
    ReplyFormat("", False),
]


class Question(NamedTuple):
    """A question as our task holds it: its position over both fixtures and its sample."""

    number: int
    fixture: str
    row: int
    sample: Sample
    prompt: str


def questions() -> list[Question]:
    """Every question of both fixtures, with the prompt text our task builds for it."""
    found: list[Question] = []
    for fixture, rows in FIXTURES.items():
        task = scienceqa(**TASK_ARGS, data_files=str(rows))
        for row, sample in enumerate(task.dataset):
            [message] = prompt_messages(task, sample)
            found.append(Question(len(found), fixture, row, sample, message.text))
    return found


QUESTIONS = questions()


def wrong_letter(target: str) -> str:
    return "A" if target != "A" else "B"


def reply_text(shape: ReplyFormat, sample: Sample, letter: str) -> str:
    assert isinstance(sample.target, str) and sample.choices is not None
    other = wrong_letter(sample.target) if letter == sample.target else sample.target
    choice = sample.choices[ord(letter) - ord("A")]
    return shape.template.format(L=letter, l=letter.lower(), O=other, choice=choice)


def reply_for(question: Question) -> tuple[ReplyFormat, str, str]:
    """The reply format, reply text and named letter for a question.

    Formats cycle with the question; the named letter is the target on even cycles and
    a wrong one on odd ones, so every format is met right and wrong.
    """
    shape = REPLY_FORMATS[question.number % len(REPLY_FORMATS)]
    target = str(question.sample.target)
    even = (question.number // len(REPLY_FORMATS)) % 2 == 0
    letter = target if even else wrong_letter(target)
    return shape, reply_text(shape, question.sample, letter), letter


def scripted_reply(fixture: str) -> Any:
    """The reply to a request of ``fixture``'s run, by its prompt text; an unknown prompt
    gets ``UNKNOWN`` (the comparison then shows it)."""
    by_prompt = {q.prompt: reply_for(q)[1] for q in QUESTIONS if q.fixture == fixture}

    def reply(request: dict[str, Any]) -> str:
        return by_prompt.get(user_text(request), UNKNOWN)

    return reply


# ---------------------------------------------------------------------------
# What a request says, as the model would see it


def decoded_image(url: str) -> dict[str, Any]:
    """A data URL's image decoded as it is (no conversion: what is compared is what each
    side made of the source image)."""
    header, _, data = url.partition(",")
    assert header.startswith("data:") and header.endswith(";base64"), header[:60]
    image = Image.open(io.BytesIO(base64.b64decode(data)))
    image.load()
    key = image.info.get("transparency")
    return {
        "mime": header.removeprefix("data:").removesuffix(";base64"),
        "format": image.format,
        "mode": image.mode,
        "size": list(image.size),
        "pixels_sha256": hashlib.sha256(image.tobytes()).hexdigest(),
        # a PNG's colour key (tRNS): one colour to show as transparent, pixels unchanged
        "colour_key": list(key) if isinstance(key, tuple) else key,
    }


def without_colour_keys(view: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """A request's view with its images' colour keys set apart (lmms-eval keeps a palette
    image's transparent colour through ``convert("RGB")``; we drop it, by design)."""
    keys, messages = [], []
    for message in view["messages"]:
        parts = []
        for part in message["content"]:
            if part["type"] == "image":
                keys.append(part["colour_key"])
                part = {key: value for key, value in part.items() if key != "colour_key"}
            parts.append(part)
        messages.append({**message, "content": parts})
    return {**view, "messages": messages}, keys


def part_view(part: dict[str, Any]) -> dict[str, Any]:
    if part.get("type") == "image_url":
        image_url = dict(part["image_url"])
        url = image_url.pop("url")
        # Inspect states OpenAI's default detail ("auto"); lmms-eval leaves it out
        if image_url.get("detail") == "auto":
            image_url.pop("detail")
        return {"type": "image", **decoded_image(url), **image_url}
    return dict(part)


def request_view(body: dict[str, Any]) -> dict[str, Any]:
    """A request body with each image decoded; a string content is read as its one text
    part (the same message to an OpenAI-compatible server). The model name is left out
    (each side names the server's model as told)."""
    messages = []
    for message in body["messages"]:
        content = message["content"]
        parts = [{"type": "text", "text": content}] if isinstance(content, str) else content
        messages.append({**message, "content": [part_view(part) for part in parts]})
    settings = {key: value for key, value in body.items() if key not in ("messages", "model")}
    return {"messages": messages, **settings}


def by_prompt(requests: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    keyed = {user_text(request): request for request in requests}
    assert len(keyed) == len(requests), "a prompt was sent twice"
    return keyed


# ---------------------------------------------------------------------------
# lmms-eval, through its own command


@pytest.fixture(scope="module")
def lmms_eval_python() -> Path:
    return peer_python("lmms-eval", [TORCH], then_install=THEN_INSTALL)


class FunctionTag(yaml.SafeLoader):
    """Reads lmms-eval's task yaml: ``!function utils.name`` stays the string ``utils.name``."""


FunctionTag.add_constructor("!function", lambda loader, node: loader.construct_scalar(node))


def lmms_eval_tasks_folder(python: Path) -> Path:
    where = "import lmms_eval, pathlib; print(pathlib.Path(lmms_eval.__file__).parent)"
    done = subprocess.run([str(python), "-c", where], capture_output=True, text=True, check=True)
    return Path(done.stdout.strip()) / "tasks" / "scienceqa"


def local_task_file(python: Path, fixture: str, folder: Path) -> str:
    """A task file including lmms-eval's own scienceqa.yaml, only its data source changed
    (under a name of its own: a task of the stock name would lose to the stock one)."""
    stock = lmms_eval_tasks_folder(python) / "scienceqa.yaml"
    config = yaml.load(stock.read_text(encoding="utf-8"), Loader=FunctionTag)
    assert (config["task"], config["dataset_path"], config["dataset_name"]) == (
        "scienceqa",
        "lmms-lab-encoder/ScienceQA",
        "ScienceQA-FULL",
    )
    assert config["test_split"] == "test"
    name = f"scienceqa_peer_{fixture}"
    local = {
        "include": str(stock),
        "task": name,
        "dataset_path": "parquet",
        "dataset_name": None,
        "dataset_kwargs": {"data_files": {"test": str(FIXTURES[fixture])}},
    }
    folder.mkdir(parents=True)
    (folder / f"{name}.yaml").write_text(yaml.safe_dump(local), encoding="utf-8")
    return name


def run_lmms_eval(
    python: Path, fixture: str, tmp: Path
) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]], float]:
    """Its requests, its samples (by doc_id) and its exact_match."""
    tasks = tmp / "lmms_eval_tasks"
    name = local_task_file(python, fixture, tasks)
    output = tmp / "lmms_eval_output"
    with LoopbackServer(scripted_reply(fixture)) as server:
        command = [
            str(python),
            "-m",
            "lmms_eval",
            "eval",
            "--model",
            "openai",
            "--model_args",
            f"model=scripted,base_url={server.base_url},api_key=loopback,"
            "num_concurrent=1,max_retries=1",
            "--include_path",
            str(tasks),
            "--tasks",
            name,
            "--batch_size",
            "1",
            "--output_path",
            str(output),
            "--log_samples",
        ]
        env = {
            **os.environ,
            "HF_HOME": str(tmp / "hf"),
            "HF_HUB_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
        }
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_SECONDS
        )
    # lmms-eval exits 0 even when the task failed: its output files say whether it ran
    samples_files = sorted(output.glob(f"*/*_samples_{name}.jsonl"))
    results_files = sorted(output.glob("*/*_results.json"))
    assert done.returncode == 0 and len(samples_files) == len(results_files) == 1, (
        f"lmms-eval wrote no results (exit {done.returncode}):\n"
        f"{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    )
    samples = {}
    for line in samples_files[0].read_text(encoding="utf-8").splitlines():
        sample = json.loads(line)
        samples[sample["doc_id"]] = sample
    results = json.loads(results_files[0].read_text(encoding="utf-8"))["results"][name]
    return server.requests, samples, results["exact_match,none"]


# ---------------------------------------------------------------------------
# This project, by the configuration file


def run_ours(
    fixture: str, tmp: Path
) -> tuple[list[dict[str, Any]], dict[int, Any], dict[int, str], float]:
    """Our requests, scores and replies (by row) and accuracy, through the run config."""
    with LoopbackServer(scripted_reply(fixture)) as server:
        log = config_log(CONFIG, server.base_url, tmp, "-T", f"data_files={FIXTURES[fixture]}")
    assert log.status == "success" and log.samples is not None and log.results is not None
    assert log.eval.metadata is not None and log.eval.metadata["profile"] == "lmms_eval_0.7.3"
    scores, replies = {}, {}
    for sample in log.samples:
        assert sample.scores is not None
        row = int(str(sample.id).rsplit("_", 1)[1])
        scores[row] = sample.scores["option_letter_scorer"]
        replies[row] = sample.output.completion
    accuracy = log.results.scores[0].metrics["accuracy"].value
    return server.requests, scores, replies, accuracy


# ---------------------------------------------------------------------------


def test_scienceqa_against_lmms_eval_end_to_end(
    lmms_eval_python: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a fresh rows and image cache for our run: the images sent are made by the code as it
    # is now, not read from an earlier run's cache
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    theirs: dict[int, dict[str, Any]] = {}  # by question number
    ours: dict[int, dict[str, Any]] = {}
    accuracies: dict[str, tuple[float, float]] = {}
    for fixture in FIXTURES:
        fixture_questions = [q for q in QUESTIONS if q.fixture == fixture]
        requests, samples, exact_match = run_lmms_eval(
            lmms_eval_python, fixture, tmp_path / f"lmms_eval_{fixture}"
        )
        peer_requests = by_prompt(requests)
        assert sorted(samples) == [q.row for q in fixture_questions]
        # fail fast, before our run: the first question whose text differs, both shown
        for question in fixture_questions:
            assert samples[question.row]["input"] == question.prompt, (
                f"question {question.number} ({fixture} row {question.row}): the prompt "
                f"differs:\nlmms-eval: {samples[question.row]['input']!r}\n"
                f"ours:      {question.prompt!r}"
            )
        for question in fixture_questions:
            sample = samples[question.row]
            # the request of this document: the one whose text its samples file records
            request = peer_requests.get(sample["input"])
            theirs[question.number] = {"sample": sample, "request": request}
        our_requests, scores, replies, accuracy = run_ours(fixture, tmp_path / f"ours_{fixture}")
        our_by_prompt = by_prompt(our_requests)
        for question in fixture_questions:
            ours[question.number] = {
                "request": our_by_prompt.get(question.prompt),
                "score": scores[question.row],
                "reply": replies[question.row],
            }
        accuracies[fixture] = (exact_match, accuracy)
        assert len(requests) == len(our_requests) == len(fixture_questions)

    same_request, same_verdict, image_checks = [], [], []
    colour_keys: list[tuple[str, int, list[Any], list[Any]]] = []
    for question in QUESTIONS:
        peer, mine = theirs[question.number], ours[question.number]
        assert peer["request"] is not None, (
            f"question {question.number} ({question.fixture} row {question.row}): "
            f"lmms-eval's request not found for its prompt:\n{peer['sample']['input']!r}"
        )
        assert mine["request"] is not None, f"question {question.number}: our request not found"
        peer_view, peer_keys = without_colour_keys(request_view(peer["request"]))
        our_view, our_keys = without_colour_keys(request_view(mine["request"]))
        if peer_keys != our_keys:
            colour_keys.append((question.fixture, question.row, peer_keys, our_keys))
        # the first differing question fails here, both requests shown
        assert peer_view == our_view, (
            f"question {question.number} ({question.fixture} row {question.row}) differs:\n"
            f"lmms-eval: {json.dumps(peer_view, indent=1)}\n"
            f"ours:      {json.dumps(our_view, indent=1)}"
        )
        same_request.append(question.number)
        image_checks += [
            part["pixels_sha256"]
            for message in peer_view["messages"]
            for part in message["content"]
            if part["type"] == "image"
        ]
        _, reply, _ = reply_for(question)
        verdict = 1.0 if mine["score"].value == "C" else 0.0
        if (
            # the reply as received: its samples file keeps "resps" where it differs from
            # "filtered_resps" (the reply stripped)
            peer["sample"].get("resps", peer["sample"]["filtered_resps"]) == mine["reply"] == reply
            and peer["sample"]["target"] == question.sample.target
            and peer["sample"]["exact_match"] == verdict
        ):
            same_verdict.append(question.number)
    record(
        PeerResult(
            peer="lmms-eval `scienceqa`",
            version=VERSION,
            rows=len(QUESTIONS),
            prompts_identical=len(same_request),
            verdicts_identical=len(same_verdict),
            compared="its command, chat client and metric end to end: request bodies (text, "
            f"order of parts, every generation setting, {len(image_checks)} images pixel for "
            f"pixel, five non-RGB at source), verdict ({len(REPLY_FORMATS)} reply formats), "
            "exact_match",
            notes=f"{len(image_checks)} images pixel for pixel ({len(colour_keys)} with "
            "lmms-eval's colour key, which we drop); exact_match "
            + ", ".join(f"{name} {a:.4f} vs {b:.4f}" for name, (a, b) in accuracies.items()),
        )
    )
    differing = [
        (q.number, theirs[q.number]["sample"], ours[q.number]["score"])
        for q in QUESTIONS
        if q.number not in same_verdict
    ]
    assert differing == []
    for peer_accuracy, our_accuracy in accuracies.values():
        assert our_accuracy == pytest.approx(peer_accuracy, abs=1e-12)

    # Expectations, after the comparison: the one colour key, of the palette image, which
    # lmms-eval's PNG keeps (Pillow carries it through convert("RGB")) and ours drops...
    assert colour_keys == [("modes", 0, [[252, 230, 209]], [None])]
    # ...the image count of the fixtures...
    assert len(image_checks) == 29 == sum((q.sample.metadata or {})["has_image"] for q in QUESTIONS)
    # ...the image before the text, in one user turn, greedy with at most 16 tokens...
    for question in QUESTIONS:
        view = request_view(theirs[question.number]["request"])
        [message] = view["messages"]
        kinds = [part["type"] for part in message["content"]]
        has_image = (question.sample.metadata or {})["has_image"]
        assert kinds == (["image", "text"] if has_image else ["text"])
        assert {k: v for k, v in view.items() if k != "messages"} == {
            "max_tokens": 16,
            "temperature": 0.0,
        }
    # ...and lmms-eval reads each reply format as the table says.
    for question in QUESTIONS:
        shape, reply, letter = reply_for(question)
        expected = 1.0 if shape.read and letter == question.sample.target else 0.0
        assert theirs[question.number]["sample"]["exact_match"] == expected, (shape, reply)


def test_unknown_prompts_get_a_marked_reply() -> None:
    assert scripted_reply("slice")({"messages": [{"role": "user", "content": "what?"}]}) == UNKNOWN
    first = QUESTIONS[0]
    request = {"messages": [{"role": "user", "content": [{"type": "text", "text": first.prompt}]}]}
    assert scripted_reply("slice")(request) == reply_for(first)[1]


# ---------------------------------------------------------------------------
# lmms-eval's reply rule on every reply format, for every question

RUN_PROCESS_RESULTS = """
import importlib, json, sys
utils = importlib.import_module("lmms_eval.tasks.scienceqa.utils")
cases = json.loads(sys.stdin.read())
print(json.dumps([
    utils.sqa_process_results({"choices": choices, "answer": answer}, [reply])["exact_match"]
    for choices, answer, reply in cases
]))
"""


def our_verdict(task_scorer: Scorer, sample: Sample, reply: str) -> float:
    state = TaskState(
        model=ModelName("openai-api/loopback/scripted"),
        sample_id=str(sample.id),
        epoch=1,
        input=sample.input,
        messages=[],
        target=Target(sample.target),
        choices=sample.choices,
        output=ModelOutput.from_content("scripted", reply),
    )
    result = asyncio.run(task_scorer(state, Target(sample.target)))
    return 1.0 if result is not None and result.value == "C" else 0.0


def test_reply_rule_against_sqa_process_results(lmms_eval_python: Path) -> None:
    task = scienceqa(**TASK_ARGS, data_files=str(FIXTURE))
    [task_scorer] = task.scorer or []
    cases, verdicts = [], []
    for question in QUESTIONS:
        sample = question.sample
        assert isinstance(sample.target, str) and sample.choices is not None
        answer = ord(sample.target) - ord("A")
        for letter in (sample.target, wrong_letter(sample.target)):
            for shape in REPLY_FORMATS:
                reply = reply_text(shape, sample, letter)
                cases.append((sample.choices, answer, reply))
                verdicts.append(our_verdict(task_scorer, sample, reply))
    done = subprocess.run(
        [str(lmms_eval_python), "-c", RUN_PROCESS_RESULTS],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
    )
    theirs = json.loads(done.stdout)
    differing = [
        (case, peer, mine)
        for case, peer, mine in zip(cases, theirs, verdicts, strict=True)
        if peer != mine
    ]
    assert differing == []
    assert len(cases) == 2 * len(REPLY_FORMATS) * len(QUESTIONS)
