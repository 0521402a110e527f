"""Outputs that are not replies: errors a provider hands back as output, empty replies,
failed requests.

- A judge output with stop reason ``model_length`` or ``content_filter``, an
  ``error``, no choices or an empty text is a judge failure under every grade
  parse of every benchmark the SimpleQA judge grades, single judges and panels;
  never a grade.
- A judge request that fails after the retries is a sample error naming the
  judge, the sample and the server's message (``--retry-on-error`` retries it).
- A candidate output of that kind is noted in the score (``no_reply``) of every
  benchmark; its verdict is the reference rule's (for a benchmark scored by a
  rule, ``NO_REPLY_EXPLANATION`` of its ``tests/<name>/conformance.py``).
- Through Inspect's OpenAI-compatible provider: an HTTP 400
  ``context_length_exceeded`` from the judge is a judge failure, and a failed
  candidate request leaves the status and the server's message in the log.
- TriviaQA sends its stop sequences and ``max_tokens`` to the server.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, ModelOutput, get_model

from benchmarks.catalog import specs
from benchmarks.scienceqa import scienceqa
from benchmarks.scorers.judge import JUDGE_FAILURE
from benchmarks.simpleqa import simpleqa
from benchmarks.simpleqa_verified import simpleqa_verified
from benchmarks.triviaqa import triviaqa
from benchmarks.winogrande import winogrande
from tests.conformance_pins import pinned
from tests.loopback_server import Fault, LoopbackServer
from tests.scripted import scripted_model, scripted_outputs

LONG_RUNS = Path(__file__).resolve().parents[1] / "docs" / "long-runs.md"

# What Inspect's OpenAI-compatible provider makes of an HTTP 400 context_length_exceeded
# (the llama.cpp server's text for a 4,096-token model, as measured).
CONTEXT_ERROR = (
    "This model's maximum context length is 4096 tokens. However, you requested 5556 tokens "
    "(5300 in the messages, 256 in the completion). Please reduce the length of the "
    "messages or completion."
)
FILTERED = "Invalid prompt: your prompt was flagged as potentially violating our usage policy."


def no_reply_outputs(model: str) -> list[tuple[ModelOutput, str]]:
    """Each kind of output that is no reply, and the reason the scorer gives."""
    refused = ModelOutput.from_content(model, "", error="the request was refused")
    return [
        (
            ModelOutput.from_content(model, CONTEXT_ERROR, stop_reason="model_length"),
            "stop reason model_length: \"This model's maximum context length is 4096 tokens. "
            "However, you requested 5556 tokens (5300 in the messages, 256 in the completion). "
            'Please reduce the length of the messages or completion."',
        ),
        (
            ModelOutput.from_content(model, FILTERED, stop_reason="content_filter"),
            f"stop reason content_filter: {FILTERED!r}",
        ),
        (refused, "error 'the request was refused'"),
        (ModelOutput(model=model, choices=[]), "no choices in the response"),
        (ModelOutput.from_content(model, " \n "), "an empty reply"),
    ]


def question_number(messages: list[ChatMessage], questions: list[str]) -> int:
    text = messages[-1].text
    return next(i for i, question in enumerate(questions) if f"Question: {question}\n" in text)


def questions_of(task: Task) -> list[str]:
    return [str(sample.input) for sample in task.dataset]


def run(task: Task, candidate: Any, grader: Any, tmp_path: Path) -> EvalLog:
    (log,) = eval(
        task,
        model=candidate,
        model_roles={"grader": grader} if grader is not None else None,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    return log


def scores(log: EvalLog) -> list[Any]:
    assert log.samples is not None
    return [next(iter(sample.scores.values())) for sample in log.samples]  # type: ignore[union-attr]


def metric_values(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


# The benchmarks the SimpleQA judge grades, and the others (scored by a rule of their own).
JUDGED = [name for name, spec in specs().items() if spec.judged]
RULE_SCORED = [name for name, spec in specs().items() if not spec.judged]


def grade_parses(name: str) -> tuple[str, ...]:
    """The values the judged benchmark's ``grade_parse`` takes (its profiles' field type)."""
    profile = next(iter(specs()[name].profiles.values()))
    return typing.get_args(typing.get_type_hints(type(profile))["grade_parse"])


JUDGED_TASKS = [(name, parse) for name in JUDGED for parse in grade_parses(name)]


@pytest.mark.parametrize(("name", "grade_parse"), JUDGED_TASKS)
@pytest.mark.slow
def test_a_judge_output_that_is_no_reply_is_a_judge_failure_under_every_parse(
    name: str, grade_parse: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    built = specs()[name].task(bundled_sample=True, num_examples=5, grade_parse=grade_parse)
    questions = questions_of(built)
    kinds = no_reply_outputs("mockllm/judge")
    judge = scripted_outputs(lambda m: kinds[question_number(m, questions)][0], name="judge")
    candidate = scripted_model(lambda m: "an answer", name="candidate")
    with caplog.at_level(logging.WARNING):
        log = run(built, candidate, judge, tmp_path)
    for (_, reason), score, sample in zip(kinds, scores(log), log.samples or [], strict=True):
        assert score.value["judge_failure"] == 1.0
        assert score.metadata["grade"] == JUDGE_FAILURE
        (verdict,) = score.metadata["judges"]
        assert verdict["no_verdict"] == reason
        assert score.explanation == f"judge gave no verdict ({reason}): judge failure"
        assert (
            f"SimpleQA judge mockllm/judge, sample {sample.id}: no verdict ({reason}); "
            "counted as a judge failure."
        ) in caplog.text
    values = metric_values(log)
    assert (values["judge_failures"], values["not_attempted"], values["correct"]) == (5, 0, 0)


def test_a_panel_judge_without_a_reply_casts_no_vote(tmp_path: Path) -> None:
    built = simpleqa(bundled_sample=True, num_examples=2, grade_parse="official")
    over_length, reason = no_reply_outputs("mockllm/judge_b")[0]
    judges = [
        scripted_model(lambda m: "A", name="judge_a"),
        scripted_outputs(lambda m: over_length.model_copy(deep=True), name="judge_b"),
        scripted_model(lambda m: "A", name="judge_c"),
    ]
    log = run(built, scripted_model(lambda m: "an answer", name="c"), judges, tmp_path)
    for score in scores(log):
        assert score.metadata["grade"] == "CORRECT"
        assert score.metadata["panel_decision"] == "majority"
        assert [j["grade"] for j in score.metadata["judges"]] == [
            "CORRECT",
            JUDGE_FAILURE,
            "CORRECT",
        ]
        assert score.explanation == (
            "mockllm/judge_a: judge replied 'A': A = CORRECT; "
            f"mockllm/judge_b: judge gave no verdict ({reason}): judge failure; "
            "mockllm/judge_c: judge replied 'A': A = CORRECT. Panel of 3: majority, CORRECT."
        )
    values = metric_values(log)
    assert (values["correct"], values["judge_2_judge_failures"], values["judge_1_correct"]) == (
        1.0,
        2.0,
        1.0,
    )


@pytest.mark.parametrize("name", JUDGED)
def test_a_candidate_output_that_is_no_reply_is_noted_and_still_graded(
    name: str, tmp_path: Path
) -> None:
    kinds = no_reply_outputs("mockllm/candidate")
    filtered, reason = kinds[1]
    candidate = scripted_outputs(lambda m: filtered.model_copy(deep=True), name="candidate")
    judge = scripted_model(lambda m: "C")
    log = run(specs()[name].task(bundled_sample=True, num_examples=2), candidate, judge, tmp_path)
    for score in scores(log):
        assert score.metadata["no_reply"] == reason
        assert score.metadata["grade"] == "NOT_ATTEMPTED"
        assert score.explanation == (
            f"the model gave no reply ({reason}); judge replied 'C': C = NOT_ATTEMPTED"
        )


# tests/<name>/conformance.py pins what its scorer says of the over-length output after
# "the model gave no reply (...); ": the reference rule's verdict on the text it holds.
NO_REPLY_EXPLANATION = "NO_REPLY_EXPLANATION"
NO_REPLY_EXPLANATION_WHAT = (
    "r\"<the pattern the scorer's explanation of an over-length reply matches after "
    "'the model gave no reply (...); '>\""
)


@pytest.mark.parametrize("name", RULE_SCORED)
def test_every_scorer_notes_a_candidate_output_that_is_no_reply(name: str, tmp_path: Path) -> None:
    explanation_after = pinned(name, NO_REPLY_EXPLANATION, NO_REPLY_EXPLANATION_WHAT)
    over_length, reason = no_reply_outputs("mockllm/candidate")[0]
    candidate = scripted_outputs(lambda m: over_length.model_copy(deep=True), name="candidate")
    log = run(specs()[name].task(bundled_sample=True, num_examples=2), candidate, None, tmp_path)
    for score in scores(log):
        assert score.metadata["no_reply"] == reason
        expected = re.escape(f"the model gave no reply ({reason}); ") + explanation_after
        assert re.fullmatch(expected, score.explanation), score.explanation
    assert log.location is not None and log.samples is not None
    ids = [sample.id for sample in log.samples]
    assert run_docs_block("no_reply = [", log.location) == f"2 of 2 outputs were no reply: {ids}"


def test_replies_are_not_noted(tmp_path: Path) -> None:
    log = run(winogrande(bundled_sample=True, num_examples=2), "benchmarks/oracle", None, tmp_path)
    for score in scores(log):
        assert "no_reply" not in score.metadata
        assert re.fullmatch(r"read ([AB]) \(rule answer_marker\); target \1", score.explanation)


# ---------------------------------------------------------------------------
# Through Inspect's OpenAI-compatible provider, over HTTP


def loopback_model(server: LoopbackServer, name: str, **model_args: Any) -> Any:
    return get_model(
        f"openai-api/loopback/{name}",
        base_url=server.base_url,
        api_key="test-key",
        memoize=False,
        **model_args,
    )


def test_a_judge_prompt_over_the_judge_context_is_a_judge_failure_naming_the_sample(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    over_context = Fault(
        "status",
        status=400,
        message=CONTEXT_ERROR,
        error_type="invalid_request_error",
        code="context_length_exceeded",
    )
    with LoopbackServer(lambda request: over_context) as server, caplog.at_level(logging.WARNING):
        judge = loopback_model(server, "judge")
        log = run(
            simpleqa_verified(bundled_sample=True, num_examples=1, grade_parse="verified_starter"),
            scripted_model(lambda m: "a very long answer", name="candidate"),
            judge,
            tmp_path,
        )
    (score,) = scores(log)
    reason = (
        "stop reason model_length: \"This model's maximum context length is 4096 tokens. "
        "However, you requested 5556 tokens (5300 in the messages, 256 in the completion). "
        'Please reduce the length of the messages or completion."'
    )
    assert score.metadata["judges"][0]["no_verdict"] == reason
    assert metric_values(log)["judge_failures"] == 1.0
    assert metric_values(log)["not_attempted"] == 0.0
    assert "SimpleQA judge openai-api/loopback/judge, sample 0: no verdict" in caplog.text


@pytest.mark.slow
def test_a_failed_judge_request_is_a_sample_error_with_the_server_message(
    tmp_path: Path,
) -> None:
    down = Fault("status", status=503, message="the judge is overloaded")
    with LoopbackServer(lambda request: down) as server:
        judge = loopback_model(server, "judge", max_retries=0)  # no retries by the SDK
        (log,) = eval(
            simpleqa(bundled_sample=True, num_examples=1),
            model=scripted_model(lambda m: "an answer", name="candidate"),
            model_roles={"grader": judge},
            log_dir=str(tmp_path),
            display="none",
            max_retries=0,
        )
        requests = len(server.requests)
    assert requests == 1
    assert log.status == "error" and log.samples is not None
    (sample,) = log.samples
    assert sample.error is not None
    assert sample.error.message == (
        "SimpleQA judge openai-api/loopback/judge, sample simpleqa_0: the request failed "
        "after 1 attempt(s): Error code: 503 - the judge is overloaded"
    )


@pytest.mark.slow
def test_a_failed_candidate_request_keeps_the_status_and_the_server_message(
    tmp_path: Path,
) -> None:
    """docs/long-runs.md: ScienceQA's image rows against a text-only server."""
    text_only = Fault("status", status=500, message='can only concatenate str (not "list") to str')
    with LoopbackServer(lambda request: text_only) as server:
        (log,) = eval(
            scienceqa(bundled_sample=True, subset="image", num_examples=1),
            model=loopback_model(server, "text-only", max_retries=0),
            log_dir=str(tmp_path),
            display="none",
            max_retries=0,
        )
        requests = len(server.requests)
    assert requests == 1
    assert log.samples is not None
    (sample,) = log.samples
    assert sample.error is not None and "RetryError" in sample.error.message
    failed = [e for e in sample.events if e.event == "model" and e.error]
    assert [e.error for e in failed] == [  # type: ignore[union-attr]
        'Error code: 500 - can only concatenate str (not "list") to str'
    ]
    assert failed[0].call is not None  # type: ignore[union-attr]
    assert failed[0].call.response == {  # type: ignore[union-attr]
        "message": 'can only concatenate str (not "list") to str',
        "type": "server_error",
        "code": None,
    }
    assert 'Error code: 500 - can only concatenate str (not "list") to str' in (
        sample.error.traceback
    )
    assert log.location is not None
    assert run_docs_block("print(sample.id", log.location) == docs_output("print(sample.id")


def docs_block(marker: str) -> str:
    """The Python block of docs/long-runs.md holding ``marker``."""
    blocks = re.findall(r"```python\n(.*?)```", LONG_RUNS.read_text(encoding="utf-8"), re.DOTALL)
    (block,) = [b for b in blocks if marker in b]
    return block


def docs_output(marker: str) -> str:
    """What the block says it prints: its comment lines after the code."""
    return "\n".join(
        line.removeprefix("# ") for line in docs_block(marker).splitlines() if line.startswith("# ")
    )


def run_docs_block(marker: str, log: str) -> str:
    """What the block prints when run on ``log``."""
    code = docs_block(marker).replace("logs/<the run>.eval", log)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/long-runs.md", "exec"), {})
    return printed.getvalue().strip()


@pytest.mark.parametrize(
    ("answer_extraction", "stop"),
    [("stop_sequences", ["\n", ".", ","]), ("first_line", ["\n"]),
     ("lm_eval", ["\n", ".", ","])],
)  # fmt: skip
def test_triviaqa_sends_its_stop_sequences_and_a_token_limit(
    answer_extraction: str, stop: list[str], tmp_path: Path
) -> None:
    with LoopbackServer(lambda request: "Paris") as server:
        run(
            triviaqa(bundled_sample=True, num_examples=2, answer_extraction=answer_extraction),
            loopback_model(server, "m"),
            None,
            tmp_path,
        )
        requests = list(server.requests)
    assert [(r["stop"], r["max_tokens"]) for r in requests] == [(stop, 256)] * 2
