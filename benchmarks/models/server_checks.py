"""What a profile needs of the model server, checked before the first sample.

``require_server`` asks the server for each endpoint a profile needs (docs/winogrande.md,
docs/triviaqa.md), once, while the task is built for its model (``inspect eval`` builds
each task with its model active), so a missing one stops the run before any sample with
one line that names the endpoint and what to do: the ``inspect`` command prints it
without a traceback and exits 1. A task built before its model is known (``eval(task)``
in Python) is checked by ``check_server`` at its first request instead, where a failure
is that sample's error.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

import anyio
import anyio.to_thread
import httpx
from inspect_ai.model import Model

from benchmarks.models.completions_requests import CompletionsServer
from benchmarks.runtime.errors import UserInputError
from benchmarks.runtime.inspect_private import active_generate_config, active_model

Endpoint = Literal["tokenize", "tokenizer_info", "echo", "prompt_logprobs"]
# Inspect's providers that post one raw prompt to /v1/completions.
COMPLETIONS_PROVIDERS = frozenset({"openai-api-completions", "vllm-completions"})
SUPPORTED = "vllm-completions/<model> or openai-api-completions/<service>/<model>"
PROBE_TEXT = "The capital of France is Paris."
# Marks a check's requests (a server's logs, or a test's recording, can leave them out).
PROBE_HEADER = "X-Benchmarks-Endpoint-Check"
PROBE_TIMEOUT = 60.0
# Seconds to wait before asking again a server that did not answer or was busy (None: the
# last try): a server still loading, or many processes starting at once, gets a few seconds.
PROBE_WAITS: tuple[float | None, ...] = (1.0, 2.0, 4.0, None)


class ServerSetupError(UserInputError):
    """The model server lacks an endpoint the profile needs (said before any sample)."""


def sends_one_prompt(model: str) -> bool:
    """Whether ``model`` (``<provider>/<name>``) is served through the completions endpoint."""
    return model.split("/", 1)[0] in COMPLETIONS_PROVIDERS


def server_root(base_url: str) -> str:
    """The server's root URL (its ``/v1`` left out): ``/tokenize`` and ``/tokenizer_info``
    are served there."""
    return str(base_url).rstrip("/").removesuffix("/v1")


def server_key(base_url: str, api: Any) -> tuple[str, str]:
    """A served model: the server and the model's name there (one URL may route several)."""
    return server_root(base_url), str(api.service_model_name())


@dataclass(frozen=True)
class Probe:
    """One endpoint: the request that shows it works (the body's fields past the model and
    the prompt; None: no body), and what to do when it does not."""

    method: str
    path: str  # from the server's root
    body: dict[str, Any] | None
    fix: str


PROBES: dict[Endpoint, Probe] = {
    "tokenize": Probe(
        "POST",
        "/tokenize",
        {"add_special_tokens": False},
        "serve the model with vLLM or SGLang, which serve it",
    ),
    "tokenizer_info": Probe(
        "GET",
        "/tokenizer_info",
        None,
        "start vLLM with --enable-tokenizer-info-endpoint, or pass -T stop_at_eos=false "
        "(no end-of-text stop, as lm-evaluation-harness's concurrent client)",
    ),
    "echo": Probe(
        "POST",
        "/v1/completions",
        {"max_tokens": 1, "temperature": 0.0, "echo": True, "logprobs": 1},
        "serve the model with vLLM, SGLang or llama-cpp-python (--logits_all true), which "
        "echo the prompt's log-probabilities (echo: true, logprobs: 1)",
    ),
    "prompt_logprobs": Probe(
        "POST",
        "/v1/completions",
        {"max_tokens": 1, "temperature": 0.0, "prompt_logprobs": 1},
        "serve the model with vLLM or SGLang, or pass -T loglikelihood_request=token_ids",
    ),
}


@dataclass(frozen=True)
class Need:
    """What a profile needs of the server: ``endpoints``, for ``what`` (said in a refusal),
    and the switch that sends text instead, needing no tokenizer (if there is one)."""

    what: str
    endpoints: tuple[Endpoint, ...]
    text_instead: str | None = None
    # False: its requests are posted by this package (models/completions_client.py), which
    # no provider's batch API takes
    batched: bool = True


# The servers already found to serve each endpoint, this process.
_CHECKED: set[tuple[tuple[str, str], Endpoint]] = set()


def problem(endpoint: Endpoint, reply: Any) -> str | None:
    """What is wrong with a 200 reply (None: it serves what the profile needs)."""
    if not isinstance(reply, dict):
        return "answered with no JSON object"
    if endpoint == "tokenize":
        tokens = reply.get("tokens")
        ok = isinstance(tokens, list) and bool(tokens) and all(isinstance(t, int) for t in tokens)
        return None if ok else "gave no token ids"
    if endpoint == "tokenizer_info":
        return None if isinstance(reply.get("eos_token"), str) else "gave no eos_token"
    choices = reply.get("choices") or [{}]
    if endpoint == "echo":
        logprobs = (choices[0] or {}).get("logprobs") or {}
        values = logprobs.get("token_logprobs") or []
        echoed = str((choices[0] or {}).get("text", "")).startswith(PROBE_TEXT)
        return None if echoed and len(values) > 1 else "did not echo the prompt's log-probabilities"
    entries = (choices[0] or {}).get("prompt_logprobs")
    return None if isinstance(entries, list) and len(entries) > 1 else "gave no prompt_logprobs"


def refusal(endpoint: Endpoint, url: str, what: str, need: Need) -> ServerSetupError:
    probe = PROBES[endpoint]
    instead = (
        f", or pass {need.text_instead}" if need.text_instead and endpoint == "tokenize" else ""
    )
    return ServerSetupError(
        f"{probe.method} {url} {what}: {need.what} needs it; {probe.fix}{instead}."
    )


def auth_headers(api: Any) -> dict[str, str]:
    return {"Authorization": f"Bearer {api.api_key}"} if api.api_key else {}


def unchecked(served: tuple[str, str], needs: tuple[Endpoint, ...]) -> list[Endpoint]:
    return [endpoint for endpoint in needs if (served, endpoint) not in _CHECKED]


def require_server(need: Need) -> None:
    """Check, while a task is built for its model, that the server serves what ``need``
    names; no model known yet, or one Inspect starts itself (vllm-completions without a
    URL): checked at the first request instead (``check_server``)."""
    model = active_model()
    if model is None:
        return
    require_provider(model, need)
    if active_generate_config().batch and not need.batched:
        raise ServerSetupError(
            f"--batch: {need.what} posts its requests to the completions endpoint itself, "
            "which no batch API serves; run without --batch."
        )
    if sends_one_prompt(str(model)) and model.api.base_url is not None:
        probe_server(server_key(model.api.base_url, model.api), model.api, need)


async def check_server(model: Model, need: Need) -> None:
    """``require_server``'s check for a model known only at the first request."""
    require_provider(model, need)
    if not sends_one_prompt(str(model)):
        return
    # the provider's base URL, else the one given (vLLM's provider knows its own only from
    # its first request); with neither, vllm-completions launches the server at its first
    # request, and its public tokenize() is one
    base_url = model.api.base_url or model.explicit_base_url
    if base_url is None:
        await model.api.tokenize(PROBE_TEXT)
        base_url = model.api.base_url
    served = server_key(str(base_url), model.api)
    if unchecked(served, need.endpoints):
        # a cancel (time limit, Ctrl-C) stops the run at once, not after the probe's timeouts
        await anyio.to_thread.run_sync(
            probe_server, served, model.api, need, abandon_on_cancel=True
        )


def probe_server(served: tuple[str, str], api: Any, need: Need) -> None:
    """Ask the server ``served`` for each endpoint ``need`` names not found yet, a busy
    server again after a wait, and refuse one it lacks."""
    headers = {PROBE_HEADER: "1", **auth_headers(api)}
    with httpx.Client(timeout=PROBE_TIMEOUT) as client:
        for endpoint in unchecked(served, need.endpoints):
            probe, url = PROBES[endpoint], f"{served[0]}{PROBES[endpoint].path}"
            body = probe.body and {"model": served[1], "prompt": PROBE_TEXT, **probe.body}
            for wait in PROBE_WAITS:
                try:
                    answer: httpx.Response | httpx.HTTPError = client.request(
                        probe.method, url, json=body, headers=headers
                    )
                except httpx.HTTPError as ex:
                    answer = ex
                if wait is None or not busy(answer):
                    break
                time.sleep(wait)
            judge(endpoint, served, url, answer, need)


def busy(answer: httpx.Response | httpx.HTTPError) -> bool:
    """An answer that says nothing of the endpoint: no answer, or a server at capacity or
    still loading (408, 429, 5xx)."""
    if isinstance(answer, httpx.HTTPError):
        return True
    return answer.status_code in (408, 429) or answer.status_code >= 500


def judge(
    endpoint: Endpoint,
    served: tuple[str, str],
    url: str,
    answer: httpx.Response | httpx.HTTPError,
    need: Need,
) -> None:
    """Raise the refusal for an answer that shows the endpoint missing or the server not
    answering, else remember that it serves the endpoint."""
    method = PROBES[endpoint].method
    if busy(answer):
        said = (
            f"did not answer ({type(answer).__name__}: {answer})"
            if isinstance(answer, httpx.HTTPError)
            else f"answered {answer.status_code} {answer.reason_phrase}"
        )
        raise ServerSetupError(
            f"{method} {url} {said} {len(PROBE_WAITS)} times: is the server up, and done "
            f"loading? ({need.what} needs it)"
        )
    assert isinstance(answer, httpx.Response)
    if answer.status_code != 200:
        what = f"answered {answer.status_code} {answer.reason_phrase}"
        raise refusal(endpoint, url, what, need)
    try:
        reply = answer.json()
    except ValueError:
        reply = None
    wrong = problem(endpoint, reply)
    if wrong is not None:
        raise refusal(endpoint, url, wrong, need)
    _CHECKED.add((served, endpoint))


def require_provider(model: Model, need: Need) -> None:
    """Refuse a model that cannot serve the profile at all (a chat provider); the offline
    models (``benchmarks/oracle``, ``random``) act as a completions server."""
    if not (sends_one_prompt(str(model)) or isinstance(model.api, CompletionsServer)):
        raise ServerSetupError(
            f"{need.what} needs a model served through the completions endpoint "
            f"(/v1/completions); {model} is not: use {SUPPORTED}."
        )
