"""The completions client of log-likelihood requests (benchmarks/models/echo_completions.py):
the body Inspect's own provider sends, the same sums read from the reply's JSON, each request
a model event, a failed request retried."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from inspect_ai import eval
from inspect_ai.model import ChatMessageUser, GenerateConfig, get_model

from benchmarks.models.echo_completions import generate_echo, read_reply
from benchmarks.solvers.loglikelihood import (
    ECHO_CONFIG,
    PROMPT_LOGPROBS_CONFIG,
    TEXT_ECHO_CONFIG,
    continuation_logprob,
    prompt_logprobs,
    text_continuation_logprob,
)
from benchmarks.winogrande import winogrande
from tests.completions_server import CompletionsServer, is_check

REPLY = {
    "id": "cmpl-1",
    "model": "m",
    "choices": [
        {
            "index": 0,
            "text": "a b!",
            "finish_reason": "length",
            "logprobs": {
                "tokens": ["a", " b", "!"],
                "token_logprobs": [None, 0.0, -2.5],
                "top_logprobs": [None, {" b": 0.0}, {"!": -2.5}],
                "text_offset": [0, 1, 3],
            },
            "prompt_logprobs": [None, {"7": {"logprob": -1.5, "rank": 1}, "8": {"logprob": -1}}],
        }
    ],
    "usage": {"prompt_tokens": 2, "completion_tokens": 1, "total_tokens": 3},
}


def test_the_reply_is_read_as_inspect_reads_it() -> None:
    output = read_reply(REPLY)
    assert output.completion == "a b!" and output.stop_reason == "max_tokens"
    assert output.usage is not None and output.usage.output_tokens == 1
    # the first token has no log-probability and is left out; 0.0 is a log-probability
    assert output.metadata == {
        "echoed_logprobs": [0.0, -2.5],
        "echoed_tokens": [" b", "!"],
        "prompt_logprobs": [-1.5],
    }
    assert read_reply(REPLY, with_tokens=False).metadata == {
        "echoed_logprobs": [0.0, -2.5],
        "prompt_logprobs": [-1.5],
    }
    assert read_reply({"model": "m", "choices": []}).metadata is None


@pytest.mark.parametrize(
    "config", [ECHO_CONFIG, PROMPT_LOGPROBS_CONFIG, TEXT_ECHO_CONFIG], ids=["echo", "vllm", "text"]
)
def test_the_body_and_the_sums_are_those_of_inspects_provider(config: GenerateConfig) -> None:
    text = "The cup fell off the table 's edge."
    with CompletionsServer() as server:
        model = get_model(
            "openai-api-completions/loopback/scripted", base_url=server.base_url, api_key="x"
        )
        ids = server.tokenizer.encode(text)
        metadata = None if config is TEXT_ECHO_CONFIG else {"prompt_token_ids": ids}
        message = ChatMessageUser(content=text if metadata is None else "", metadata=metadata)

        async def both() -> tuple[Any, Any]:
            return (
                await model.generate([message], config=config),
                await generate_echo(model, message, config),
            )

        inspects, ours = asyncio.run(both())
        first, second = server.completions_bodies()
    assert first == second and first["model"] == "scripted"
    if config is TEXT_ECHO_CONFIG:
        read = [
            text_continuation_logprob(o, text, len("The cup fell off the table"))
            for o in (inspects, ours)
        ]
    elif config is PROMPT_LOGPROBS_CONFIG:
        read = [sum(prompt_logprobs(o)[-3:]) for o in (inspects, ours)]
    else:
        read = [continuation_logprob(o, 3) for o in (inspects, ours)]
    assert read[0] == read[1] and read[0] < 0


class FailsFirst(CompletionsServer):
    """Answers the first completions request of a sample with 503 (the endpoint check's
    aside), then as the scripted server."""

    failed = False

    async def _completions(self, request: web.Request) -> web.Response:
        if not self.failed and not is_check(request):
            self.failed = True
            await request.read()
            return web.json_response({"error": {"message": "busy"}}, status=503)
        return await super()._completions(request)


@pytest.mark.slow
def test_each_request_is_a_model_event_and_a_failed_one_is_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOOPBACK_API_KEY", "loopback")
    with FailsFirst() as server:
        (log,) = eval(
            winogrande(profile="lm_eval_0.4.13", bundled_sample=True, num_examples=3),
            model="openai-api-completions/loopback/scripted",
            model_base_url=server.base_url,
            log_dir=str(tmp_path),
            display="none",
        )
        bodies = server.completions_bodies()
    assert log.status == "success" and log.samples is not None, log.error
    events = [event for sample in log.samples for event in sample.events if event.event == "model"]
    # one request a question, its two options' prompts in it; the 503 (not kept among the
    # bodies) retried
    assert len(events) == 3 and len(bodies) == 3 and server.failed
    assert all(len(body["prompt"]) == 2 for body in bodies)
    assert {event.model for event in events} == {"openai-api-completions/loopback/scripted"}
    assert sum(event.retries or 0 for event in events) == 1
    for event in events:
        assert event.call is not None and event.call.response is not None
        request = {k: v for k, v in event.call.request.items() if k != "extra_headers"}
        assert request == {
            "model": "scripted",
            "prompt": request["prompt"],
            "max_tokens": 1,
            "temperature": 0.0,
            "seed": 1234,
            "logprobs": 1,
            "extra_body": {"echo": True},
        }
        assert event.call.response["choices"][0]["logprobs"]["tokens"]
    assert log.stats.model_usage["openai-api-completions/loopback/scripted"].input_tokens > 0
