"""Faults: model and judge errors are logged and retried; a killed run is finished by eval-retry.

``eval_retry`` rebuilds the model (and the ``grader`` role) from the names and
arguments recorded in the log, so a ``mockllm`` model with ``custom_outputs``
cannot be retried. The scripted model here is a registered provider,
``faultscript/<name>``: ``eval_retry`` re-creates it by name, and each test
swaps the script behind the name between the faulty run and the retry.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai import Task, eval, eval_retry
from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from benchmarks.catalog import specs
from benchmarks.scorers.simpleqa import JUDGE_FAILURE
from benchmarks.solvers.prompt_preview import prompt_messages, prompt_text
from benchmarks.triviaqa import triviaqa
from tests.scripted import last_user_text

FIXTURES = Path(__file__).parent / "fixtures"
TRIVIAQA_FILES = {
    "validation": str(FIXTURES / "triviaqa" / "validation.jsonl"),
    "train": str(FIXTURES / "triviaqa" / "train.jsonl"),
}
REPO = Path(__file__).parent.parent

Script = Callable[[list[ChatMessage]], str]

# model name -> reply function (may raise); without one the model names its process.
SCRIPTS: dict[str, Script] = {}
# model name -> text of the last user message of every call made in this process.
CALLS: dict[str, list[str]] = {}

DEFAULT_CONFIG = GenerateConfig()


@modelapi(name="faultscript")
class FaultScriptAPI(ModelAPI):
    """Replies ``SCRIPTS[model_name](messages)``; ``delay`` (seconds) slows every call."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = DEFAULT_CONFIG,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        self.delay = float(model_args.get("delay", 0.0))

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        if self.delay:
            await anyio.sleep(self.delay)
        CALLS.setdefault(self.model_name, []).append(last_user_text(input))
        script = SCRIPTS.get(self.model_name)
        reply = script(input) if script is not None else f"process {os.getpid()}"
        output = ModelOutput.from_content(f"faultscript/{self.model_name}", reply)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


@pytest.fixture(autouse=True)
def fresh_scripts() -> Iterator[None]:
    SCRIPTS.clear()
    CALLS.clear()
    yield
    SCRIPTS.clear()
    CALLS.clear()


def run(task: Task, model: str, log_dir: Path, **options: Any) -> EvalLog:
    """One eval that records sample errors instead of stopping, and never retries a sample."""
    (log,) = eval(
        task,
        model=get_model(f"faultscript/{model}"),
        log_dir=str(log_dir),
        display="none",
        fail_on_error=False,
        retry_on_error=0,
        **options,
    )
    assert log.location
    return read_eval_log(log.location)


def retry(log: EvalLog, log_dir: Path) -> EvalLog:
    assert log.location
    (retried,) = eval_retry(log.location, log_dir=str(log_dir), display="none")
    assert retried.location and retried.location != log.location
    return read_eval_log(retried.location)


def by_id(log: EvalLog) -> dict[int | str, EvalSample]:
    assert log.samples is not None
    counts = Counter(sample.id for sample in log.samples)
    assert [id for id, count in counts.items() if count > 1] == []
    return {sample.id: sample for sample in log.samples}


def comparable(input: str | list[ChatMessage]) -> str | list[dict[str, Any]]:
    # message ids are random per run; role and content are what the model saw
    if isinstance(input, str):
        return input
    return [message.model_dump(exclude={"id"}) for message in input]


def conversation(sample: EvalSample) -> list[dict[str, Any]]:
    return [message.model_dump(exclude={"id", "model"}) for message in sample.messages]


def assert_same_samples(final: EvalLog, uninterrupted: EvalLog) -> None:
    """Every sample exactly once, with the uninterrupted run's prompt, reply and score."""
    done, reference = by_id(final), by_id(uninterrupted)
    assert sorted(map(str, done)) == sorted(map(str, reference))
    for sample_id, sample in done.items():
        expected = reference[sample_id]
        assert sample.error is None, sample_id
        assert comparable(sample.input) == comparable(expected.input), sample_id
        assert comparable(sample.messages[:-1]) == comparable(expected.messages[:-1]), sample_id
        assert conversation(sample) == conversation(expected), sample_id
        assert sample.scores is not None and expected.scores is not None
        assert {k: v.value for k, v in sample.scores.items()} == {
            k: v.value for k, v in expected.scores.items()
        }, sample_id


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {
        f"{score.name}/{name}": metric.value
        for score in log.results.scores
        for name, metric in score.metrics.items()
    }


# ---------------------------------------------------------------------------
# TriviaQA, 5-shot: the model fails on two questions, eval-retry redoes exactly those


def triviaqa_rows() -> list[dict[str, Any]]:
    with open(TRIVIAQA_FILES["validation"], encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


TRIVIAQA_QUESTIONS = [row["question"] for row in triviaqa_rows()]
TRIVIAQA_FAILING = (1, 3)


def triviaqa_position(prompt: str) -> int:
    """Position of the question a 5-shot prompt ends with (demonstrations come before)."""
    question_block = prompt.rsplit("\n\n", 1)[-1]
    return TRIVIAQA_QUESTIONS.index(question_block.removeprefix("Question: ").split("\nAnswer:")[0])


def triviaqa_reply(messages: list[ChatMessage]) -> str:
    position = triviaqa_position(last_user_text(messages))
    # right (first alias) on even positions, wrong on odd ones: the scores differ by sample
    answer = triviaqa_rows()[position]["answer"]["aliases"][0]
    return f"{answer}." if position % 2 == 0 else "Paris."


def triviaqa_flaky_reply(messages: list[ChatMessage]) -> str:
    position = triviaqa_position(last_user_text(messages))
    if position in TRIVIAQA_FAILING:
        raise RuntimeError(f"provider unavailable for question {position}")
    return triviaqa_reply(messages)


@pytest.mark.slow
def test_triviaqa_errors_are_logged_and_eval_retry_completes_exactly_the_missing_samples(
    tmp_path: Path,
) -> None:
    SCRIPTS["triviaqa-steady"] = triviaqa_reply
    uninterrupted = run(triviaqa(data_files=TRIVIAQA_FILES), "triviaqa-steady", tmp_path / "a")

    SCRIPTS["triviaqa-flaky"] = triviaqa_flaky_reply
    faulty = run(triviaqa(data_files=TRIVIAQA_FILES), "triviaqa-flaky", tmp_path / "b")
    samples = by_id(faulty)
    failing_ids = {triviaqa_rows()[position]["question_id"] for position in TRIVIAQA_FAILING}
    assert {id for id, s in samples.items() if s.error is not None} == failing_ids
    for position in TRIVIAQA_FAILING:
        sample = samples[triviaqa_rows()[position]["question_id"]]
        assert sample.error is not None
        assert f"provider unavailable for question {position}" in sample.error.message
        assert not sample.scores
    assert all(s.scores for id, s in samples.items() if id not in failing_ids)

    # The provider recovers; eval-retry rebuilds task and model from the log.
    SCRIPTS["triviaqa-flaky"] = triviaqa_reply
    CALLS.clear()
    final = retry(faulty, tmp_path / "b")
    retried_prompts = CALLS["triviaqa-flaky"]
    assert sorted(map(triviaqa_position, retried_prompts)) == list(TRIVIAQA_FAILING)
    reference = by_id(uninterrupted)
    for prompt in retried_prompts:  # the few-shot draw of each question survives the retry
        question_id = triviaqa_rows()[triviaqa_position(prompt)]["question_id"]
        assert prompt == reference[question_id].messages[0].text
    assert final.status == "success"
    assert_same_samples(final, uninterrupted)
    assert metrics(final) == metrics(uninterrupted)
    # positions 0, 2 and 4 answered with their first alias; one of those has a comma
    assert metrics(final)["triviaqa_scorer/exact_match"] == pytest.approx(2 / 5)


# ---------------------------------------------------------------------------
# Every judged benchmark (SimpleQA, SimpleQA Verified): the candidate and the judge raise
# (sample errors, retried); a garbled judge reply is a judge failure (a score, not an error,
# and not retried)


JUDGED = [name for name, spec in specs().items() if spec.judged]
JUDGED_QUESTIONS = 10
CANDIDATE_FAILS_ON = 1
JUDGE_FAILS_ON = 4
JUDGE_GARBLES = 7
GARBLED = "I would need to look this up before grading."


def judged_task(name: str) -> Task:
    return specs()[name].task(bundled_sample=True, num_examples=JUDGED_QUESTIONS)


def question_index(questions: list[str], prompt: str) -> int:
    """The question a candidate prompt (the question itself) or a judge prompt is about."""
    if prompt in questions:
        return questions.index(prompt)
    (index,) = [i for i, q in enumerate(questions) if f"\nQuestion: {q}\nGold target: " in prompt]
    return index


def candidate_reply(questions: list[str], messages: list[ChatMessage]) -> str:
    return f"candidate answer {question_index(questions, last_user_text(messages))}"


def flaky_candidate_reply(questions: list[str], messages: list[ChatMessage]) -> str:
    if question_index(questions, last_user_text(messages)) == CANDIDATE_FAILS_ON:
        raise RuntimeError("candidate unavailable")
    return candidate_reply(questions, messages)


def judge_reply(questions: list[str], messages: list[ChatMessage]) -> str:
    index = question_index(questions, last_user_text(messages))
    return GARBLED if index == JUDGE_GARBLES else "ABC"[index % 3]


def flaky_judge_reply(questions: list[str], messages: list[ChatMessage]) -> str:
    if question_index(questions, last_user_text(messages)) == JUDGE_FAILS_ON:
        raise RuntimeError("judge unavailable")
    return judge_reply(questions, messages)


def run_judged(name: str, candidate: str, judge: str, log_dir: Path) -> EvalLog:
    return run(
        judged_task(name),
        candidate,
        log_dir,
        model_roles={"grader": get_model(f"faultscript/{judge}")},
    )


@pytest.mark.parametrize("name", JUDGED)
@pytest.mark.slow
def test_judge_exception_is_retried_and_a_garbled_judge_reply_is_a_judge_failure(
    tmp_path: Path, name: str
) -> None:
    dataset = judged_task(name).dataset
    questions = [sample.input for sample in dataset if isinstance(sample.input, str)]
    ids = [sample.id for sample in dataset if sample.id is not None]
    assert len(set(questions)) == len(set(ids)) == len(dataset) == JUDGED_QUESTIONS
    index = partial(question_index, questions)
    scorer = specs()[name].scorer
    SCRIPTS["candidate-steady"] = partial(candidate_reply, questions)
    SCRIPTS["judge-steady"] = partial(judge_reply, questions)
    uninterrupted = run_judged(name, "candidate-steady", "judge-steady", tmp_path / "a")
    judge_prompts = {index(p): p for p in CALLS["judge-steady"]}
    assert sorted(judge_prompts) == list(range(JUDGED_QUESTIONS))

    SCRIPTS["candidate-flaky"] = partial(flaky_candidate_reply, questions)
    SCRIPTS["judge-flaky"] = partial(flaky_judge_reply, questions)
    faulty = run_judged(name, "candidate-flaky", "judge-flaky", tmp_path / "b")
    samples = by_id(faulty)
    errors = {id: s.error.message for id, s in samples.items() if s.error is not None}
    assert set(errors) == {ids[CANDIDATE_FAILS_ON], ids[JUDGE_FAILS_ON]}
    assert "candidate unavailable" in errors[ids[CANDIDATE_FAILS_ON]]
    assert "judge unavailable" in errors[ids[JUDGE_FAILS_ON]]
    # the garbled judge reply is a graded sample: no error, a judge-failure score
    garbled = samples[ids[JUDGE_GARBLES]]
    assert garbled.error is None and garbled.scores is not None
    (score,) = garbled.scores.values()
    assert score.value == {
        "correct": 0.0,
        "incorrect": 0.0,
        "not_attempted": 0.0,
        "judge_failure": 1.0,
    }
    assert score.metadata is not None
    assert (score.metadata["grade"], score.metadata["judge_reply"]) == (JUDGE_FAILURE, GARBLED)

    # Both providers recover; the judge still garbles question 7, which is not retried.
    SCRIPTS["candidate-flaky"] = SCRIPTS["candidate-steady"]
    SCRIPTS["judge-flaky"] = SCRIPTS["judge-steady"]
    CALLS.clear()
    final = retry(faulty, tmp_path / "b")
    retried = [CANDIDATE_FAILS_ON, JUDGE_FAILS_ON]
    assert sorted(map(index, CALLS["candidate-flaky"])) == retried
    assert sorted(map(index, CALLS["judge-flaky"])) == retried
    for prompt in CALLS["judge-flaky"]:
        assert prompt == judge_prompts[index(prompt)]
    assert final.status == "success"
    assert_same_samples(final, uninterrupted)
    final_scores = by_id(final)[ids[JUDGE_GARBLES]].scores
    assert final_scores is not None
    assert [s.metadata["grade"] for s in final_scores.values() if s.metadata] == [JUDGE_FAILURE]
    assert metrics(final) == metrics(uninterrupted)
    assert metrics(final)[f"{scorer}/judge_failures"] == 1.0


# ---------------------------------------------------------------------------
# Every benchmark's log can be retried (the task must be found by its registry name)


@pytest.mark.parametrize("name", list(specs()))
@pytest.mark.slow
def test_a_failed_sample_of_any_benchmark_can_be_retried(tmp_path: Path, name: str) -> None:
    spec = specs()[name]
    # judged: the offline oracle grades, re-created by name on the retry
    roles = {"model_roles": {"grader": "benchmarks/oracle"}} if spec.judged else {}
    task = spec.task(bundled_sample=True)
    first_prompt = last_user_text(prompt_messages(task, task.dataset[0]))

    def first_sample_fails(messages: list[ChatMessage]) -> str:
        if last_user_text(messages) == first_prompt:
            raise RuntimeError("provider unavailable")
        return "ANSWER: A"

    SCRIPTS["any-steady"] = lambda messages: "ANSWER: A"
    uninterrupted = run(spec.task(bundled_sample=True), "any-steady", tmp_path, **roles)
    SCRIPTS["any-flaky"] = first_sample_fails
    faulty = run(spec.task(bundled_sample=True), "any-flaky", tmp_path, **roles)
    assert [s.id for s in faulty.samples or [] if s.error is not None] == [task.dataset[0].id]
    SCRIPTS["any-flaky"] = SCRIPTS["any-steady"]
    CALLS.clear()
    final = retry(faulty, tmp_path)
    assert CALLS["any-flaky"] == [first_prompt]
    assert_same_samples(final, uninterrupted)


# ---------------------------------------------------------------------------
# A run killed mid-way (SIGKILL) is finished by eval-retry


KILLED_RUN_SIZE = 36
KILL_AFTER_SAMPLES = 4
SECONDS_PER_CALL = 0.15

CHILD = """
import json, sys
import tests.test_faults  # registers the faultscript provider
from inspect_ai import eval
from inspect_ai.model import get_model
from benchmarks.triviaqa import triviaqa

files, log_dir, delay = json.loads(sys.argv[1]), sys.argv[2], float(sys.argv[3])
eval(
    triviaqa(data_files=files),
    model=get_model("faultscript/slow", delay=delay),
    log_dir=log_dir,
    display="none",
    max_connections=2,
    log_buffer=2,
)
print("FINISHED")
"""


def many_questions(path: Path, count: int) -> Path:
    """``count`` distinct questions made from the fixture rows."""
    rows = triviaqa_rows()
    lines = []
    for index in range(count):
        row = json.loads(json.dumps(rows[index % len(rows)]))
        row["question_id"] = f"q{index:02d}"
        row["question"] = f"{row['question']} (variant {index})"
        lines.append(json.dumps(row) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def flushed_samples(log_dir: Path) -> tuple[Path | None, int]:
    """The run's ``.eval`` file and how many samples have been written into it."""
    logs = list(log_dir.glob("*.eval"))
    if not logs:
        return None, 0
    try:
        with zipfile.ZipFile(logs[0]) as archive:
            return logs[0], sum(name.startswith("samples/") for name in archive.namelist())
    except (zipfile.BadZipFile, OSError):  # caught mid-write
        return logs[0], 0


@pytest.mark.slow
def test_a_killed_run_leaves_a_log_that_eval_retry_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Inspect keeps its sample buffer (used to recover unflushed samples) in the
    # user data directory: one private to this test, shared by both processes.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    files = {
        "validation": str(many_questions(tmp_path / "validation.jsonl", KILLED_RUN_SIZE)),
        "train": TRIVIAQA_FILES["train"],
    }
    log_dir = tmp_path / "logs"
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, json.dumps(files), str(log_dir), str(SECONDS_PER_CALL)],
        cwd=REPO,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        log_file, flushed = None, 0
        while flushed < KILL_AFTER_SAMPLES:
            assert child.poll() is None, child.communicate()
            assert time.monotonic() - started < 40, "the child made no progress"
            time.sleep(0.05)
            log_file, flushed = flushed_samples(log_dir)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        if child.poll() is None:
            child.kill()
        stdout, _ = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    assert b"FINISHED" not in stdout
    assert log_file is not None

    crashed = read_eval_log(str(log_file))
    assert crashed.status == "started"
    assert KILL_AFTER_SAMPLES <= len(crashed.samples or []) < KILLED_RUN_SIZE

    final = retry(crashed, log_dir)
    assert final.status == "success"
    samples = by_id(final)
    assert sorted(map(str, samples)) == [f"q{index:02d}" for index in range(KILLED_RUN_SIZE)]
    assert all(sample.error is None and sample.scores for sample in samples.values())
    # Samples finished before the kill keep the child's reply; the retry ran each
    # of the others exactly once, in this process.
    answered_by = Counter(sample.output.completion for sample in samples.values())
    retried_here = answered_by.pop(f"process {os.getpid()}")
    assert list(answered_by) == [f"process {child.pid}"]
    assert answered_by[f"process {child.pid}"] >= KILL_AFTER_SAMPLES
    assert len(CALLS["slow"]) == retried_here == len(set(CALLS["slow"]))
    # Prompts (5-shot draws included) are those of an uninterrupted run.
    expected = {sample.id: sample.input for sample in triviaqa(data_files=files).dataset}
    assert {id: sample.input for id, sample in samples.items()} == expected
    reference = triviaqa(data_files=files)
    prompts = {sample.id: prompt_text(reference, sample) for sample in reference.dataset}
    assert {id: sample.messages[0].text for id, sample in samples.items()} == prompts
    assert time.monotonic() - started < 60
