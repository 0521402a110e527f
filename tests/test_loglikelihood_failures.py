"""A log-likelihood reply that failed, or holds no usable log-probabilities, is an error of
its sample and never a value: the server answers every scoring request (not the endpoint
checks) with one kind of failure, and no sample of the run may get a score.

The kinds: an HTTP error other than those Inspect retries (400, 422), a 500 once the
retries are spent (``max_retries=0``), an error body with status 200, a reply without
``logprobs``, with fewer log-probabilities than the prompt has tokens, with a choice short
for the prompts sent, and a ``finish_reason`` of ``error``. Each is tried on every request
path (token ids, vLLM's prompt log-probabilities, text).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from inspect_ai import eval

from benchmarks.winogrande import winogrande
from tests.completions_server import CompletionsServer

Spoil = Callable[[dict[str, Any]], dict[str, Any] | web.Response]


def status(code: int) -> Spoil:
    return lambda reply: web.json_response({"error": {"message": f"status {code}"}}, status=code)


def each_choice(change: Callable[[dict[str, Any]], None]) -> Spoil:
    def spoil(reply: dict[str, Any]) -> dict[str, Any]:
        spoiled = copy.deepcopy(reply)
        for choice in spoiled["choices"]:
            change(choice)
        return spoiled

    return spoil


def no_logprobs(choice: dict[str, Any]) -> None:
    choice["logprobs"] = None
    choice.pop("prompt_logprobs", None)


def short_logprobs(choice: dict[str, Any]) -> None:
    if choice["logprobs"]:
        for key in ("tokens", "token_logprobs", "top_logprobs", "text_offset"):
            choice["logprobs"][key] = choice["logprobs"][key][-2:]
    if choice.get("prompt_logprobs"):
        choice["prompt_logprobs"] = choice["prompt_logprobs"][-1:]


def finish_error(choice: dict[str, Any]) -> None:
    choice["finish_reason"] = "error"


def one_choice_short(reply: dict[str, Any]) -> dict[str, Any]:
    return {**reply, "choices": reply["choices"][:-1]}


FAILURES: dict[str, Spoil] = {
    "http_400": status(400),
    "http_422": status(422),
    "http_500_retries_spent": status(500),
    "error_body_200": lambda reply: {"error": {"message": "the model crashed", "code": 500}},
    "no_logprobs": each_choice(no_logprobs),
    "short_logprobs": each_choice(short_logprobs),
    "choice_missing": one_choice_short,
    "finish_reason_error": each_choice(finish_error),
}
REQUESTS = {
    "token_ids": ("lm_eval_0.4.13", None),
    "prompt_logprobs": ("lm_eval_0.4.13", "prompt_logprobs"),
    "text": ("lm_eval_0.4.13_gguf", None),
}


# the text path sends one prompt a request: its reply has one choice, none to miss
CASES = [
    (failure, path)
    for failure in FAILURES
    for path in REQUESTS
    if (failure, path) != ("choice_missing", "text")
]


@pytest.mark.parametrize(("failure", "request_path"), CASES)
def test_a_failed_reply_is_an_error_of_its_sample_never_a_value(
    failure: str, request_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    profile, request = REQUESTS[request_path]
    args = {"loglikelihood_request": request} if request else {}
    monkeypatch.setenv("LOOPBACK_API_KEY", "loopback")
    with CompletionsServer(spoil=FAILURES[failure]) as server:
        (log,) = eval(
            winogrande(profile=profile, bundled_sample=True, num_examples=2, **args),
            model="openai-api-completions/loopback/scripted",
            model_base_url=server.base_url,
            log_dir=str(tmp_path),
            display="none",
            max_retries=0,
            fail_on_error=False,
        )
    assert log.samples is not None and len(log.samples) == 2
    read = {sample.id: (sample.scores or {}).get("loglikelihood_choice") for sample in log.samples}
    assert read == dict.fromkeys(read), f"{failure} was read as a value: {read}"
    assert all(sample.error is not None for sample in log.samples)
