"""Log-likelihood scoring (benchmarks/loglikelihood.py): the sum read from an echoed reply,
the replies that hold no usable log-probabilities, the providers refused before any
request, the choice and its explanation."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import Logprob, Logprobs, ModelOutput, ModelUsage

from benchmarks.loglikelihood import LoglikelihoodError, continuation_logprob
from benchmarks.winogrande import winogrande
from benchmarks.winogrande_loglikelihood import option_requests
from tests.scripted import scripted_model


def echoed(values: list[float], generated: int = 1) -> ModelOutput:
    output = ModelOutput.from_content(model="m", content="x")
    output.choices[0].logprobs = Logprobs(
        content=[Logprob(token=str(i), logprob=v) for i, v in enumerate(values)]
    )
    output.usage = ModelUsage(input_tokens=len(values), output_tokens=generated)
    return output


def test_the_continuation_is_counted_from_the_end_before_the_generated_token() -> None:
    # prompt tokens 2..6 echoed (the first has none), then one generated token
    assert continuation_logprob(echoed([-1.0, -2.0, -3.0, -4.0, -9.0]), 2) == -7.0


@pytest.mark.parametrize(
    "output",
    [echoed([-1.0, -2.0]), ModelOutput.from_content(model="m", content="x")],
    ids=["fewer than the continuation", "no logprobs"],
)
def test_a_reply_without_usable_logprobs_is_an_error(output: ModelOutput) -> None:
    with pytest.raises(LoglikelihoodError) as raised:
        continuation_logprob(output, 3)
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
