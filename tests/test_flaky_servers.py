"""Long runs survive a flaky OpenAI-compatible server with the documented options.

A loopback server fails the first attempt of 30 % of the questions (HTTP 500
and 429, malformed JSON, a reset connection, a stalled response, an empty
``choices``) and answers correctly afterwards. With Inspect's defaults the run
ends at the first malformed reply; with ``retry_on_error=3`` and
``attempt_timeout`` (``--retry-on-error=3 --attempt-timeout N``) it completes
with every score equal to a healthy run's. See docs/long-runs.md.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model

from benchmarks.models.offline import oracle_reply
from benchmarks.solvers.prompt_preview import prompt_text
from benchmarks.triviaqa import triviaqa
from tests.loopback_server import Fault, LoopbackServer, user_text

STALL_SECONDS = 4
ATTEMPT_TIMEOUT = 1
FAULTS = (
    Fault("status", status=500),
    Fault("status", status=429),
    Fault("malformed_json"),
    Fault("reset"),
    Fault("stall", stall_seconds=STALL_SECONDS),
    Fault("empty_choices"),
)


class FlakyReplies:
    """The oracle's reply, except a fault on the first attempt of ``faulty`` prompts,
    the kinds of fault taken in turn so that each occurs."""

    def __init__(
        self, prompts: list[str], fault_share: float, faults: tuple[Fault, ...] = FAULTS
    ) -> None:
        ordered = sorted(prompts, key=lambda text: hashlib.sha256(text.encode()).hexdigest())
        faulty = ordered[: round(len(prompts) * fault_share)]
        self.fault_for = {text: faults[i % len(faults)] for i, text in enumerate(faulty)}
        self.attempts: Counter[str] = Counter()
        self.injected: Counter[str] = Counter()
        self._lock = threading.Lock()
        self.base_url = ""

    def __call__(self, request: dict[str, Any]) -> str | Fault:
        text = user_text(request)
        with self._lock:
            first = self.attempts[text] == 0
            self.attempts[text] += 1
        fault = self.fault_for.get(text)
        if first and fault is not None:
            with self._lock:
                self.injected[fault.kind if fault.kind != "status" else str(fault.status)] += 1
            return fault
        return oracle_reply(text)


@contextmanager
def serve(fault_share: float, faults: tuple[Fault, ...] = FAULTS) -> Iterator[FlakyReplies]:
    task = triviaqa(bundled_sample=True)
    prompts = [str(prompt_text(task, sample)) for sample in task.dataset]
    replies = FlakyReplies(prompts, fault_share, faults)
    with LoopbackServer(replies) as server:
        replies.base_url = server.base_url
        yield replies


def run(replies: FlakyReplies, log_dir: Path, **options: Any) -> EvalLog:
    model = get_model(
        "openai-api/flaky/scripted", base_url=replies.base_url, api_key="test-key", memoize=False
    )
    [log] = eval(
        triviaqa(bundled_sample=True),
        model=model,
        log_dir=str(log_dir),
        max_connections=8,
        **options,
    )
    return log


def exact_matches(log: EvalLog) -> dict[str, float]:
    assert log.samples is not None
    return {
        str(sample.id): sample.scores["triviaqa_scorer"].value["exact_match"]  # type: ignore[index]
        for sample in log.samples
        if sample.scores
    }


@pytest.mark.slow
def test_defaults_end_the_run_at_the_first_malformed_reply(tmp_path: Path) -> None:
    with serve(fault_share=0.3, faults=(Fault("malformed_json"),)) as flaky:
        log = run(flaky, tmp_path)
    assert log.status == "error"
    assert log.error is not None and "JSONDecodeError" in log.error.message


@pytest.mark.slow
def test_retry_options_complete_the_run_with_the_healthy_scores(tmp_path: Path) -> None:
    with serve(fault_share=0.0) as healthy:
        healthy_log = run(healthy, tmp_path / "healthy")
    with serve(fault_share=0.3) as flaky:
        log = run(flaky, tmp_path / "flaky", retry_on_error=3, attempt_timeout=ATTEMPT_TIMEOUT)
    assert dict(flaky.injected) == {
        "500": 2,
        "429": 2,
        "malformed_json": 2,
        "reset": 1,
        "stall": 1,
        "empty_choices": 1,
    }
    assert healthy_log.status == log.status == "success"
    assert len(exact_matches(log)) == 30
    assert exact_matches(log) == exact_matches(healthy_log)
