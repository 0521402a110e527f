"""This package's completions client (benchmarks/models/completions_client.py, its requests
in completions_requests.py, the replies read in echo_completions.py): the body Inspect's own
provider sends, the same sums read from the reply's JSON as from Inspect's reading of it,
each request a model event named as the user's model, a failed request retried."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from inspect_ai import eval
from inspect_ai.model import ChatMessageUser, ModelOutput, get_model

from benchmarks.models.completions_client import client_model
from benchmarks.models.completions_requests import loglikelihood_messages
from benchmarks.models.echo_completions import (
    echoed_continuation,
    echoed_entries,
    prompt_continuation,
    prompt_entries,
    text_continuation,
)
from benchmarks.solvers.loglikelihood import CONFIGS
from benchmarks.winogrande import winogrande
from tests.completions_server import CompletionsServer, is_check

MODEL = "openai-api-completions/loopback/scripted"
CHOICE = {
    "index": 0,
    "text": "a b!",
    "finish_reason": "length",
    "logprobs": {
        "tokens": ["a", " b", "!"],
        "token_logprobs": [None, 0.0, -2.5],
        "top_logprobs": [None, {" b": 0.0}, {"!": -2.5}],
        "text_offset": [0, 1, 3],
    },
    "prompt_logprobs": [
        None,
        {"7": {"logprob": -1.5, "rank": 1}, "8": {"logprob": -1}},
        {"9": {"logprob": -0.5, "rank": 1, "decoded_token": "!"}},
    ],
}


def test_a_choice_is_read_as_inspect_reads_it() -> None:
    # the first token has no log-probability and is left out; 0.0 is a log-probability
    assert echoed_entries(CHOICE) == ([" b", "!"], [0.0, -2.5])
    # vLLM's: each position's first entry, its decoded token (else its id)
    assert prompt_entries(CHOICE) == (["7", "!"], [-1.5, -0.5])
    assert echoed_entries({"index": 0}) == ([], [])


def inspects_choice(output: ModelOutput) -> dict[str, Any]:
    """Inspect's reading of a reply's first choice, as the JSON our reading takes."""
    choice = output.choices[0]
    echoed = choice.logprobs.content if choice.logprobs is not None else []
    prompt = choice.prompt_logprobs.content if choice.prompt_logprobs is not None else []
    return {
        "text": output.completion,
        "logprobs": {
            "tokens": [e.token for e in echoed],
            "token_logprobs": [e.logprob for e in echoed],
        },
        "prompt_logprobs": [None] + [{e.token: {"logprob": e.logprob}} for e in prompt],
    }


@pytest.mark.parametrize("request_path", ["token_ids", "prompt_logprobs", "text"])
def test_the_body_and_the_sums_are_those_of_inspects_provider(request_path: str) -> None:
    context, continuation = "The cup fell off the table", " 's edge."
    text = context + continuation
    request, config = request_path, CONFIGS[request_path]  # type: ignore[index]
    with CompletionsServer() as server:
        model = get_model(MODEL, base_url=server.base_url, api_key="x", memoize=False)
        ids = server.tokenizer.encode(text)
        metadata = None if request == "text" else {"prompt_token_ids": ids}
        inspects_message = ChatMessageUser(
            content=text if metadata is None else "", metadata=metadata
        )
        [ours_message] = loglikelihood_messages(request, [[context, continuation]])

        async def both() -> tuple[Any, Any]:
            return (
                await model.generate([inspects_message], config=config),
                await client_model(model).generate([ours_message], config=config),
            )

        inspects, ours = asyncio.run(both())
        first, second = server.completions_bodies()
    # ours sends a list of prompts (a choice an option; here one), Inspect's the prompt
    assert second == {**first, "prompt": first["prompt"] if request == "text" else [ids]}
    assert first["model"] == "scripted"
    wanted = len(ids) - len(server.tokenizer.encode(context))
    choice = inspects_choice(inspects)
    if request == "text":
        read = text_continuation(choice, text, len(context))
    elif request == "prompt_logprobs":
        read = prompt_continuation(choice, wanted)
    else:
        read = echoed_continuation(choice, wanted, generated=1)
    assert ours.metadata == {"loglikelihoods": [read.loglikelihood]}
    assert read.loglikelihood < 0 and len(read.tokens) == wanted
    # the output holds what was scored: the continuation's tokens and log-probabilities
    scored = ours.choices[0].logprobs or ours.choices[0].prompt_logprobs
    assert scored is not None
    assert [(e.token, e.logprob) for e in scored.content] == list(
        zip(read.tokens, read.logprobs, strict=True)
    )


def model_events(log: Any) -> list[list[Any]]:
    assert log.status == "success" and log.samples is not None, log.error
    return [[e for e in sample.events if e.event == "model"] for sample in log.samples]


@pytest.mark.parametrize("request_path", ["token_ids", "prompt_logprobs", "text"])
def test_each_request_is_a_model_event_named_as_the_users_model(
    request_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOOPBACK_API_KEY", "loopback")
    profile = "lm_eval_0.4.13_gguf" if request_path == "text" else "lm_eval_0.4.13"
    args = {} if request_path == "text" else {"loglikelihood_request": request_path}
    with CompletionsServer() as server:
        (log,) = eval(
            winogrande(profile=profile, bundled_sample=True, num_examples=2, **args),
            model=MODEL,
            model_base_url=server.base_url,
            log_dir=str(tmp_path),
            display="none",
        )
        bodies = server.completions_bodies()
    events = model_events(log)
    # token ids: one request a question, both options' prompts in it; text: one an option
    assert [len(each) for each in events] == [1 if request_path != "text" else 2] * 2
    sent = [event.call.request for each in events for event in each]
    assert sorted(map(str, sent)) == sorted(map(str, bodies))
    assert {event.model for each in events for event in each} == {MODEL}
    assert log.stats.model_usage[MODEL].input_tokens > 0


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
            model=MODEL,
            model_base_url=server.base_url,
            log_dir=str(tmp_path),
            display="none",
        )
        bodies = server.completions_bodies()
    events = [event for each in model_events(log) for event in each]
    # one request a question, its two options' prompts in it; the 503 (not kept among the
    # bodies) retried by Inspect, each attempt a model event of its own
    failed = [event for event in events if event.error is not None]
    succeeded = [event for event in events if event.error is None]
    assert len(failed) == 1 and "503 Service Unavailable" in failed[0].error
    assert len(succeeded) == 3 and len(bodies) == 3 and server.failed
    assert all(len(body["prompt"]) == 2 for body in bodies)
    for event in succeeded:
        assert event.call is not None and event.call.response is not None
        # the body as sent
        assert event.call.request == {
            "model": "scripted",
            "prompt": event.call.request["prompt"],
            "max_tokens": 1,
            "temperature": 0.0,
            "seed": 1234,
            "logprobs": 1,
            "echo": True,
        }
        assert event.call.request in bodies
        assert [choice["index"] for choice in event.call.response["choices"]] == [0, 1]
        assert len(event.output.metadata["loglikelihoods"]) == 2
