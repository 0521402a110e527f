"""Log-likelihood scoring (benchmarks/solvers/loglikelihood.py, the replies read in
benchmarks/models/echo_completions.py): the sum read from an echoed reply, the replies that
hold no usable log-probabilities, the providers refused before any request, the choice and
its explanation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval

from benchmarks.data.winogrande import option_requests
from benchmarks.models.echo_completions import (
    LoglikelihoodError,
    echoed_continuation,
    text_continuation,
)
from benchmarks.winogrande import winogrande
from tests.completions_server import CompletionsServer
from tests.scripted import scripted_model


def echoed(values: list[float | None]) -> dict[str, Any]:
    """A reply's choice echoing tokens "0", "1", ... with ``values``."""
    tokens = [str(i) for i in range(len(values))]
    return {"text": "x", "logprobs": {"tokens": tokens, "token_logprobs": values}}


def test_the_continuation_is_counted_from_the_end_before_the_generated_token() -> None:
    # prompt tokens 2..6 echoed (the first has none), then one generated token
    read = echoed_continuation(echoed([None, -1.0, -2.0, -3.0, -4.0, -9.0]), 2, generated=1)
    assert (read.loglikelihood, read.tokens) == (-7.0, ["3", "4"])


@pytest.mark.parametrize(
    "choice",
    [echoed([None, -1.0, -2.0]), {"text": "x"}],
    ids=["fewer than the continuation", "no logprobs"],
)
def test_a_reply_without_usable_logprobs_is_an_error(choice: dict[str, Any]) -> None:
    with pytest.raises(LoglikelihoodError) as raised:
        echoed_continuation(choice, 3, generated=1)
    assert str(raised.value).endswith(
        "fewer than the 3 continuation tokens and 1 generated; the server must echo the "
        "prompt's log-probabilities (echo: true, logprobs: 1)."
    )


def test_each_option_is_put_in_and_the_rest_is_the_continuation() -> None:
    row = {"sentence": "The cup fell off the _ 's edge. ", "option1": "table", "option2": "cup"}
    assert option_requests({**row, "answer": "1"}, "Demo.\n\n") == [
        ["Demo.\n\nThe cup fell off the table", " 's edge."],
        ["Demo.\n\nThe cup fell off the cup", " 's edge."],
    ]


def test_a_chat_model_is_refused_before_any_request(tmp_path: Path) -> None:
    calls: list[object] = []
    (log,) = eval(
        winogrande(profile="lm_eval_0.4.13", bundled_sample=True, num_examples=2),
        model=scripted_model(lambda messages: calls.append(messages) or "A"),
        log_dir=str(tmp_path),
        display="none",
    )
    assert calls == [] and log.status == "error" and log.error is not None
    assert "log-likelihood scoring needs a model served through the completions endpoint" in (
        log.error.message
    )
    assert "use vllm-completions/<model> or openai-api-completions/<service>/<model>." in (
        log.error.message
    )


@pytest.mark.slow
def test_the_offline_oracle_answers_by_loglikelihood_and_the_explanation_says_so(
    tmp_path: Path,
) -> None:
    (log,) = eval(
        winogrande(profile="lm_eval_0.4.13", bundled_sample=True, shots=2),
        model="benchmarks/oracle",
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.samples is not None and log.results is not None
    assert log.results.scores[0].metrics["accuracy"].value == 1.0
    score = log.samples[0].scores["loglikelihood_choice"]  # type: ignore[index]
    assert score.metadata is not None and len(score.metadata["loglikelihoods"]) == 2
    a, b = score.metadata["loglikelihoods"]
    assert score.explanation == (
        f"log-likelihoods A {a:.4f}, B {b:.4f}: chose {score.answer}, target "
        f"{log.samples[0].target}"
    )


def echoed_text(tokens: list[str], values: list[float], completion: str) -> dict[str, Any]:
    """A reply's choice echoing ``completion`` (``tokens`` after its first, which has no
    log-probability)."""
    logprobs = {"tokens": ["The", *tokens], "token_logprobs": [None, *values]}
    return {"text": completion, "logprobs": logprobs}


def test_a_text_request_is_split_where_the_continuation_text_begins() -> None:
    # prompt "The cup fell off the table 's edge." (context ends after "table"); the first
    # token ("The") has no log-probability, so it is not among the entries; " Paris" is
    # the generated token, left out as lm-evaluation-harness's gguf leaves out the last.
    prompt = "The cup fell off the table 's edge."
    tokens = [" cup", " fell", " off", " the", " table", " '", "s", " edge", ".", " Paris"]
    values = [-1.0, -2.0, -3.0, -4.0, -5.0, -0.25, -0.5, -1.5, -2.5, -9.0]
    output = echoed_text(tokens, values, prompt + " Paris")
    assert (
        text_continuation(output, prompt, len("The cup fell off the table")).loglikelihood == -4.75
    )


def test_without_an_entry_for_the_generated_token_the_last_prompt_token_is_left_out() -> None:
    # llama-cpp-python echoes the prompt's tokens only: the entries spell the prompt, and
    # lm-evaluation-harness's [idx:-1] then leaves out the continuation's last token
    prompt = "The cup fell off the table 's edge."
    tokens = [" cup", " fell", " off", " the", " table", " '", "s", " edge", "."]
    values = [-1.0, -2.0, -3.0, -4.0, -5.0, -0.25, -0.5, -1.5, -2.5]
    output = echoed_text(tokens, values, prompt + "\n")
    assert (
        text_continuation(output, prompt, len("The cup fell off the table")).loglikelihood == -2.25
    )


def test_a_token_across_the_boundary_belongs_to_the_context() -> None:
    prompt = "ab cd"  # context "ab c": the token " cd" starts before its end
    output = echoed_text(["b", " cd", "!"], [-1.0, -2.0, -9.0], prompt + "!")
    assert text_continuation(output, prompt, len("ab c")).loglikelihood == 0.0
    assert text_continuation(output, prompt, len("ab")).loglikelihood == -2.0


@pytest.mark.parametrize(
    ("tokens", "completion", "message"),
    [
        (["a", " b", "."], "a b.", "the reply does not begin with the prompt"),
        (["a", " c", "."], "xa b.", "the reply's 3 echoed tokens do not spell the prompt ('a c."),
        ([], "xa b.", "the reply's 0 echoed tokens do not spell the prompt ('' against"),
    ],
    ids=["not echoed", "tokens that do not spell it", "no logprobs"],
)
def test_a_text_reply_that_cannot_be_split_is_an_error(
    tokens: list[str], completion: str, message: str
) -> None:
    output = echoed_text(tokens, [-1.0] * len(tokens), completion)
    with pytest.raises(LoglikelihoodError) as raised:
        text_continuation(output, "xa b", 2)
    assert str(raised.value).startswith(message)


def run_through_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **task_args: Any) -> tuple:
    with CompletionsServer() as server:
        monkeypatch.setenv("LOOPBACK_BASE_URL", server.base_url)
        monkeypatch.setenv("LOOPBACK_API_KEY", "loopback")
        (log,) = eval(
            winogrande(profile="lm_eval_0.4.13", bundled_sample=True, **task_args),
            model="openai-api-completions/loopback/scripted",
            model_base_url=server.base_url,  # a model per server (Inspect reuses one by URL)
            log_dir=str(tmp_path / "_".join(map(str, task_args.values()))),
            display="none",
        )
        bodies = server.completions_bodies()
    assert log.status == "success" and log.samples is not None
    scores = [sample.scores["loglikelihood_choice"] for sample in log.samples]  # type: ignore[index]
    return [score.metadata["loglikelihoods"] for score in scores], bodies  # type: ignore[index]


@pytest.mark.slow
def test_prompt_logprobs_sends_the_same_ids_and_sums_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    echoed, echo_bodies = run_through_server(tmp_path, monkeypatch)
    read, bodies = run_through_server(
        tmp_path, monkeypatch, loglikelihood_request="prompt_logprobs"
    )
    assert read == echoed and len(read) == 40
    assert sorted(body["prompt"] for body in bodies) == sorted(b["prompt"] for b in echo_bodies)
    assert {key: bodies[0][key] for key in bodies[0] if key not in ("prompt", "model")} == {
        "max_tokens": 1,
        "temperature": 0.0,
        "seed": 1234,
        "prompt_logprobs": 1,
    }


@pytest.mark.slow
def test_vllm_completions_scores_as_openai_api_completions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Inspect's vLLM provider against a running server (model_base_url): its own /tokenize
    echoed, _ = run_through_server(tmp_path, monkeypatch)
    monkeypatch.setenv("VLLM_API_KEY", "loopback")
    with CompletionsServer() as server:
        (log,) = eval(
            winogrande(profile="lm_eval_0.4.13", bundled_sample=True),
            model="vllm-completions/scripted",
            model_base_url=server.base_url,
            log_dir=str(tmp_path / "vllm"),
            display="none",
        )
        tokenized = [body for path, body in server.requests if path == "/tokenize"]
    assert log.status == "success" and log.samples is not None, log.error
    scores = [sample.scores["loglikelihood_choice"] for sample in log.samples]  # type: ignore[index]
    assert [score.metadata["loglikelihoods"] for score in scores] == echoed  # type: ignore[index]
    # each distinct text once: the whole and the context of each option (twin sentences
    # share a context: 144 distinct texts of the 160)
    texts = [body["prompt"] for body in tokenized]
    assert sorted(texts) == sorted(set(texts)) and len(texts) == 144
    assert {body["add_special_tokens"] for body in tokenized} == {False}
