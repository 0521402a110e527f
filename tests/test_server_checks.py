"""What a profile needs of a stock server is checked before the first sample.

Against the scripted completions server (tests/completions_server.py) started without one
endpoint at a time: the task built by ``eval("benchmarks/<name>")`` (as ``inspect eval``
builds it, its model active) stops with one line naming the endpoint and what enables it,
before any request of a sample; a task built before its model is known stops at its first
request with the same line. The server's tokenizer is asked through the model's connection
pool (``--max-connections``) and retry rules, each distinct text once. ``--batch`` with an
attempt timeout shorter than a batch takes is refused for every benchmark, and log-likelihood
scoring (whose requests no batch API takes) refuses ``--batch``.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model

from benchmarks.catalog import specs
from benchmarks.models.server_checks import ServerSetupError, check_server
from benchmarks.runtime.errors import TaskParameterError
from benchmarks.solvers.loglikelihood import NEEDS
from benchmarks.winogrande import winogrande
from tests.completions_server import CompletionsServer, is_check

MODEL = "openai-api-completions/loopback/scripted"
ALL_TOKENIZER_ROUTES = frozenset({"/tokenize", "/detokenize", "/tokenizer_info"})
TOKEN_IDS = {"profile": "lm_eval_0.4.13_completions_token_ids", "bundled_sample": True}
LOGLIKELIHOOD = {"profile": "lm_eval_0.4.13", "bundled_sample": True}


@pytest.fixture(autouse=True)
def loopback_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOOPBACK_API_KEY", "loopback")


def build_and_run(
    server: CompletionsServer,
    task: str,
    task_args: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    **options: Any,
) -> Any:
    """``eval("benchmarks/<task>")``: the task is built with its model active."""
    monkeypatch.setenv("LOOPBACK_BASE_URL", server.base_url)
    [log] = inspect_eval(
        f"benchmarks/{task}",
        task_args=task_args,
        model=MODEL,
        model_base_url=server.base_url,
        log_dir=str(tmp_path),
        display="none",
        **options,
    )
    return log


def refusal(server: CompletionsServer, task: str, task_args: dict[str, Any], tmp_path: Path,
            monkeypatch: pytest.MonkeyPatch, **options: Any) -> str:  # fmt: skip
    with pytest.raises(ServerSetupError) as raised:
        build_and_run(server, task, task_args, tmp_path, monkeypatch, **options)
    assert server.requests == [], "a request of a sample was sent before the refusal"
    assert list(tmp_path.glob("*.eval")) == [], "a log was written: the run started"
    return str(raised.value)


def test_a_server_without_tokenizer_info_is_named_with_the_vllm_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with CompletionsServer(served=frozenset({"/tokenize"})) as server:
        message = refusal(server, "triviaqa", TOKEN_IDS, tmp_path, monkeypatch)
        root = server.base_url.removesuffix("/v1")
    assert message == (
        f"GET {root}/tokenizer_info answered 404 Not Found: the end-of-text stop sequence "
        "(-T stop_at_eos=true) needs it; start vLLM with --enable-tokenizer-info-endpoint, or "
        "pass -T stop_at_eos=false (no end-of-text stop, as lm-evaluation-harness's concurrent "
        "client)."
    )


def test_without_the_end_of_text_stop_tokenizer_info_is_not_needed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with CompletionsServer(served=frozenset({"/tokenize"})) as server:
        log = build_and_run(
            server, "triviaqa", {**TOKEN_IDS, "stop_at_eos": False, "num_examples": 2},
            tmp_path, monkeypatch,
        )  # fmt: skip
    assert log.status == "success", log.error


def test_a_server_without_tokenize_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with CompletionsServer(served=frozenset()) as server:
        trivia = refusal(server, "triviaqa", TOKEN_IDS, tmp_path / "t", monkeypatch)
        wino = refusal(server, "winogrande", LOGLIKELIHOOD, tmp_path / "w", monkeypatch)
        root = server.base_url.removesuffix("/v1")
    assert trivia == (
        f"POST {root}/tokenize answered 404 Not Found: a prompt sent as the server's token ids "
        "needs it; serve the model with vLLM or SGLang, which serve it, or pass "
        "-T completions_prompt=text."
    )
    assert wino == (
        f"POST {root}/tokenize answered 404 Not Found: log-likelihood scoring needs it; serve "
        "the model with vLLM or SGLang, which serve it, or pass -T loglikelihood_request=text "
        "(lm-evaluation-harness's gguf client)."
    )


def test_a_server_that_does_not_echo_log_probabilities_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with CompletionsServer(echoes=False) as server:
        for request in ("token_ids", "text"):
            message = refusal(
                server, "winogrande", {**LOGLIKELIHOOD, "loglikelihood_request": request},
                tmp_path / request, monkeypatch,
            )  # fmt: skip
            assert message == (
                f"POST {server.base_url}/completions did not echo the prompt's "
                "log-probabilities: log-likelihood scoring needs it; serve the model with "
                "vLLM, SGLang or llama-cpp-python (--logits_all true), which echo the prompt's "
                "log-probabilities (echo: true, logprobs: 1)."
            ), request


def test_a_server_without_prompt_logprobs_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with CompletionsServer(prompt_logprobs=False) as server:
        message = refusal(
            server, "winogrande", {**LOGLIKELIHOOD, "loglikelihood_request": "prompt_logprobs"},
            tmp_path, monkeypatch,
        )  # fmt: skip
    assert message == (
        f"POST {server.base_url}/completions gave no prompt_logprobs: log-likelihood scoring "
        "needs it; serve the model with vLLM or SGLang, or pass "
        "-T loglikelihood_request=token_ids."
    )


@pytest.mark.slow  # asked four times over 7 s
def test_a_server_that_does_not_answer_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with CompletionsServer() as server:
        url = server.base_url
    # the server is gone: nothing listens at its port any more
    monkeypatch.setenv("LOOPBACK_BASE_URL", url)
    with pytest.raises(ServerSetupError) as raised:
        inspect_eval(
            "benchmarks/winogrande", task_args=LOGLIKELIHOOD, model=MODEL, model_base_url=url,
            log_dir=str(tmp_path), display="none",
        )  # fmt: skip
    assert re.fullmatch(
        rf"POST {re.escape(url.removesuffix('/v1'))}/tokenize did not answer \(ConnectError: "
        r".*\) 4 times: is the server up, and done loading\? \(log-likelihood scoring needs it\)",
        str(raised.value),
    ), str(raised.value)


@pytest.mark.slow  # waits 1 s, then 2 s
def test_a_busy_server_is_asked_again_not_taken_for_one_without_the_endpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # two 503s to the checks (a server still loading), then it answers
    with CompletionsServer(failures={"check:/tokenize": 2}) as server:
        log = build_and_run(
            server, "winogrande", {**LOGLIKELIHOOD, "num_examples": 2}, tmp_path, monkeypatch
        )
        failed = list(server.failed)
    assert log.status == "success", log.error
    assert failed == ["check:/tokenize"] * 2


def test_a_chat_model_is_refused_when_the_task_is_built(tmp_path: Path) -> None:
    with pytest.raises(ServerSetupError) as raised:
        inspect_eval(
            "benchmarks/winogrande", task_args=LOGLIKELIHOOD, model="mockllm/model",
            log_dir=str(tmp_path), display="none",
        )  # fmt: skip
    assert str(raised.value) == (
        "log-likelihood scoring needs a model served through the completions endpoint "
        "(/v1/completions); mockllm/model is not: use vllm-completions/<model> or "
        "openai-api-completions/<service>/<model>."
    )


def test_a_task_built_before_its_model_is_checked_at_its_first_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with CompletionsServer(served=frozenset()) as server:
        monkeypatch.setenv("LOOPBACK_BASE_URL", server.base_url)
        task = winogrande(**LOGLIKELIHOOD, num_examples=2)  # no model active yet
        [log] = inspect_eval(
            task, model=MODEL, model_base_url=server.base_url, log_dir=str(tmp_path),
            display="none",
        )  # fmt: skip
        sent = list(server.requests)
    assert log.status == "error" and log.error is not None
    assert "/tokenize answered 404 Not Found: log-likelihood scoring needs it" in (
        log.error.message
    )
    assert sent == []


class RecordsChecks(CompletionsServer):
    """Keeps each endpoint check's path and the model it names."""

    def __init__(self) -> None:
        super().__init__()
        self.checks: list[tuple[str, str]] = []

    @web.middleware
    async def _pacing(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if is_check(request):
            self.checks.append((request.path, (await request.json())["model"]))
        return await super()._pacing(request, handler)


def test_each_served_model_is_checked_on_a_server_already_checked() -> None:
    # one URL may route several models (a router, vLLM's LoRA adapters): each is asked
    with RecordsChecks() as server:

        async def check(name: str) -> None:
            model = get_model(
                f"{MODEL.rsplit('/', 1)[0]}/{name}", base_url=server.base_url, api_key="x"
            )
            await check_server(model, NEEDS["token_ids"])

        for name in ("scripted", "scripted", "other"):
            asyncio.run(check(name))
        checks = list(server.checks)
    endpoints = ("/tokenize", "/v1/completions")
    assert checks == [(path, name) for name in ("scripted", "other") for path in endpoints]


# ---------------------------------------------------------------------------
# The tokenizer's requests: the connection pool, the retries, each text once


def tokenize_requests(server: CompletionsServer) -> list[str]:
    return [body["prompt"] for path, body in server.requests if path == "/tokenize"]


@pytest.mark.slow
@pytest.mark.parametrize(("connections", "most"), [(1, 1), (4, 4)])
def test_tokenizer_requests_hold_a_connection_of_the_pool(
    connections: int, most: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 8 samples at once, each asking the tokenizer: at most --max-connections requests
    # (tokenizer and completions alike) are in flight
    with CompletionsServer(delay=0.02) as server:
        log = build_and_run(
            server, "winogrande", {**LOGLIKELIHOOD, "num_examples": 12}, tmp_path, monkeypatch,
            max_connections=connections, max_samples=8,
        )  # fmt: skip
        assert log.status == "success", log.error
        assert server.most_in_flight == most


@pytest.mark.slow
def test_tokenizer_requests_are_retried_by_the_models_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a 503 (a server at capacity) is asked again after Inspect's backoff (3 s and more)
    with CompletionsServer(failures={"/tokenize": 2}) as server:
        log = build_and_run(
            server, "winogrande", {**LOGLIKELIHOOD, "num_examples": 2}, tmp_path, monkeypatch,
            max_connections=1,
        )  # fmt: skip
        texts, failed = tokenize_requests(server), list(server.failed)
    assert log.status == "success", log.error
    assert failed == ["/tokenize"] * 2
    assert sorted(texts) == sorted(set(texts))  # each distinct text answered once


@pytest.mark.slow
def test_without_retries_a_failing_tokenizer_fails_the_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with CompletionsServer(failures={"/tokenize": 1}) as server:
        log = build_and_run(
            server, "winogrande", {**LOGLIKELIHOOD, "num_examples": 1}, tmp_path, monkeypatch,
            max_retries=0,
        )  # fmt: skip
        sent = [path for path, _ in server.requests if path.endswith("/completions")]
    assert log.status == "error" and log.error is not None
    assert "503" in log.error.message and sent == []


# ---------------------------------------------------------------------------
# --batch


@pytest.mark.parametrize("name", list(specs()))
def test_batch_with_a_short_attempt_timeout_is_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(TaskParameterError) as raised:
        inspect_eval(
            f"benchmarks/{name}", task_args={"bundled_sample": True}, model="benchmarks/oracle",
            batch=True, attempt_timeout=300, log_dir=str(tmp_path), display="none",
        )  # fmt: skip
    assert str(raised.value) == (
        f"{name}: --batch with an attempt timeout of 300 s (--attempt-timeout, or a "
        "configuration's generate_config): a batched request waits for its whole batch, often "
        "hours, and would be cancelled and sent again every 300 s; pass --attempt-timeout 86400 "
        "(a day) or more with --batch."
    )


def test_loglikelihood_scoring_refuses_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with CompletionsServer() as server:
        message = refusal(server, "winogrande", LOGLIKELIHOOD, tmp_path, monkeypatch, batch=True)
    assert message == (
        "--batch: log-likelihood scoring posts its requests to the completions endpoint itself, "
        "which no batch API serves; run without --batch."
    )
