"""What the log keeps of a log-likelihood sample (docs/winogrande.md, "What the log
keeps"): per option, the request once (the model call's body), the continuation's tokens and
log-probabilities and their sum; not the whole prompt's log-probabilities, not a second copy
of the token ids, not the server's whole reply, unless ``INSPECT_BENCHMARKS_WHOLE_REPLIES=1``.

Read from the ``.eval`` file as written (each sample's JSON entry in the zip)."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval

from benchmarks.models.completions_requests import WHOLE_REPLIES
from benchmarks.winogrande import winogrande
from tests.completions_server import CompletionsServer


def written_samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Two 2-shot questions scored through the scripted server, as the log file holds them."""
    monkeypatch.setenv("LOOPBACK_API_KEY", "loopback")
    with CompletionsServer() as server:
        (log,) = eval(
            winogrande(profile="lm_eval_0.4.13", bundled_sample=True, shots=2, num_examples=2),
            model="openai-api-completions/loopback/scripted",
            model_base_url=server.base_url,
            log_dir=str(tmp_path),
            display="none",
        )
    assert log.status == "success", log.error
    with zipfile.ZipFile(log.location) as written:
        names = [name for name in written.namelist() if name.startswith("samples/")]
        return [json.loads(written.read(name)) for name in names]


def walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def token_id_lists(value: Any) -> list[list[int]]:
    """Every list of token ids (here, a list of more than four integers) in ``value``."""
    return [
        item
        for item in walk(value)
        if isinstance(item, list) and len(item) > 4 and all(type(i) is int for i in item)
    ]


def logprob_values(value: Any) -> int:
    """How many log-probabilities ``value`` holds, in any of the shapes a reply or an output
    gives them."""
    count = 0
    for item in walk(value):
        if isinstance(item, dict):
            count += "logprob" in item
            count += len(item.get("token_logprobs") or [])
    return count


def test_the_sample_log_keeps_the_request_once_and_of_the_reply_what_was_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    samples = written_samples(tmp_path, monkeypatch)
    assert len(samples) == 2
    for sample in samples:
        [event] = [event for event in sample["events"] if event["event"] == "model"]
        request, response = event["call"]["request"], event["call"]["response"]
        # the token ids once: the request's two prompts, and nowhere else
        assert token_id_lists(sample) == request["prompt"] and len(request["prompt"]) == 2
        # of the reply: no choice's text or log-probabilities
        assert [sorted(choice) for choice in response["choices"]] == [
            ["finish_reason", "index"]
        ] * 2
        # the output: per option the continuation's tokens and log-probabilities, their sum
        sums = sample["metadata"]["option_loglikelihoods"]
        assert event["output"]["metadata"] == {"loglikelihoods": sums}
        scored = [choice["logprobs"]["content"] for choice in event["output"]["choices"]]
        assert [sum(entry["logprob"] for entry in entries) for entries in scored] == sums
        continuation = sample["metadata"]["loglikelihood_requests"][0][1]
        for entries in scored:
            assert "".join(entry["token"] for entry in entries) == continuation
        # and no other log-probability: not the whole prompt's
        assert logprob_values(sample) == sum(len(entries) for entries in scored)


def test_the_whole_reply_is_kept_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WHOLE_REPLIES, "1")
    for sample in written_samples(tmp_path, monkeypatch):
        [event] = [event for event in sample["events"] if event["event"] == "model"]
        choices = event["call"]["response"]["choices"]
        prompts = event["call"]["request"]["prompt"]
        # every prompt token echoed with its log-probability, and the generated one
        assert [len(choice["logprobs"]["tokens"]) for choice in choices] == [
            len(prompt) + 1 for prompt in prompts
        ]
