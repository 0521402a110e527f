"""lm-evaluation-harness 0.4.13 ``winogrande`` (log-likelihood) against profiles
``lm_eval_0.4.13`` (its ``local-completions`` client) and ``lm_eval_0.4.13_gguf`` (its
``gguf`` client), question by question, at 0 and 5 shots.

The 1,267 validation rows of tests/fixtures/winogrande/validation_full.jsonl are
split into a validation file (the even rows) and a train file (the odd rows,
plus copies of three validation rows that its draw meets, so that
lm-evaluation-harness's removal of the evaluated document happens). lm-evaluation-harness runs
its own command (``local-completions`` with ``tokenizer_backend=remote``, or
``gguf``; its ``winogrande`` task with only the data source changed) and this
project runs ``configs/winogrande_lm_eval.yaml`` or
``configs/winogrande_lm_eval_gguf.yaml`` through Inspect's
``openai-api-completions`` provider, each against a scripted completions server
with a tokenizer (tests/completions_server.py; its ``text_offset`` is counted
as llama-cpp-python counts it, the length of the text of the tokens before,
and for ``gguf`` its echo, as llama-cpp-python's, has no entry for the
generated token).
Per question: each option's request (the token ids, or for ``gguf`` the
string and every setting of the body), each option's log-likelihood, the
option chosen; then the accuracy. The same, 0-shot, on rows built to reach the edges no
real row reaches (tests/peers/loglikelihood_edges.py: trailing whitespace, a one-character
last context token, exact ties, left truncation, one- and many-token continuations).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import eval
from inspect_ai._cli.eval import parse_run_config

from benchmarks.winogrande import winogrande
from tests.completions_server import CompletionsServer
from tests.peers.loglikelihood_edges import EDGE_ROWS, KINDS, MAX_LENGTH, describe, edge_kinds
from tests.peers.peer_env import ROOT, PeerResult, lm_eval_task_yaml, peer_python, record

LM_EVAL = ["lm-eval[api]==0.4.13"]
VERSION = "0.4.13"
FIXTURE = ROOT / "tests" / "fixtures" / "winogrande" / "validation_full.jsonl"
CLIENTS = {
    "local-completions": ROOT / "configs" / "winogrande_lm_eval.yaml",
    "gguf": ROOT / "configs" / "winogrande_lm_eval_gguf.yaml",
}
ROWS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
VALIDATION = ROWS[0::2]
# Copies of validation rows that lm-evaluation-harness's 5-shot draw (shots + 1 rows from
# Random(1234), walking the questions) draws for their own question: among the first five
# (removed, the sixth kept instead) for questions 69 and 123, as the sixth for 236.
COPIED = (69, 236, 123)
TRAIN = ROWS[1::2] + [VALIDATION[q] for q in COPIED]
RUN_TIMEOUT_SECONDS = 1200
COMPARED = {
    "local-completions": "token ids of every prompt (also read from vLLM's `prompt_logprobs`; "
    "ours sends a question's two prompts in one request)",
    "gguf": "every request's string and settings (split by offsets)",
}


@pytest.fixture(scope="module")
def lm_eval_python() -> Path:
    return peer_python("lm-eval", LM_EVAL)


def write_data(folder: Path, validation: list[dict[str, str]] = VALIDATION) -> dict[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for split, rows in (("train", TRAIN), ("validation", validation)):
        path = folder / f"{split}.jsonl"
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
        files[split] = str(path)
    return files


def local_task(python: Path, folder: Path, files: dict[str, str]) -> Path:
    """lm-evaluation-harness's own winogrande yaml, only the data source changed."""
    original = lm_eval_task_yaml(python, "winogrande/default.yaml")
    local = {
        "include": str(original),
        "task": "winogrande_local",
        "dataset_path": "json",
        "dataset_name": None,
        "dataset_kwargs": {"data_files": files},
    }
    folder.mkdir(parents=True)
    (folder / "winogrande_local.yaml").write_text(
        yaml.safe_dump(local, sort_keys=False), encoding="utf-8"
    )
    return folder


def sent_requests(server: CompletionsServer) -> dict[str, Any]:
    """What each log-likelihood prompt sent, keyed by its text: the token ids, or (a string
    prompt) the body but the model's name, which lm-evaluation-harness's gguf leaves out. A
    request may carry a list of prompts (lm-evaluation-harness: a batch of one; this
    project: a question's options): each prompt counts on its own."""
    sent: dict[str, Any] = {}
    for body in server.completions_bodies():
        prompt = body["prompt"]
        if isinstance(prompt, str):
            sent[prompt] = {key: value for key, value in body.items() if key != "model"}
            continue
        for ids in prompt if prompt and isinstance(prompt[0], list) else [prompt]:
            sent[server.tokenizer.decode(ids)] = ids
    return sent


def lm_eval_model(client: str, server: CompletionsServer) -> list[str]:
    if client == "gguf":
        return ["gguf", "--model_args", f"base_url={server.base_url.removesuffix('/v1')}"]
    return [
        "local-completions",
        "--model_args",
        f"model=scripted,base_url={server.base_url}/completions,"
        "tokenizer_backend=remote,num_concurrent=1,max_retries=1",
    ]


def run_lm_eval(
    python: Path, tmp: Path, files: dict[str, str], shots: int, client: str
) -> tuple[dict[str, Any], list[list[float]], list[float], float]:
    """Its requests (ids by text), each question's option log-likelihoods and accuracy
    (in validation order), and the aggregate accuracy."""
    tasks = local_task(python, tmp / "lm_eval_tasks", files)
    output = tmp / "lm_eval_output"
    # the gguf client's server is llama-cpp-python's: no echoed entry for the generated token
    with CompletionsServer(echo_generated=client != "gguf") as server:
        command = [
            str(python.with_name("lm-eval")),
            "run",
            "--model",
            *lm_eval_model(client, server),
            "--tasks",
            "winogrande_local",
            "--include_path",
            str(tasks),
            "--num_fewshot",
            str(shots),
            "--log_samples",
            "--output_path",
            str(output),
        ]
        env = {**os.environ, "HF_HOME": str(tmp / "hf"), "HF_DATASETS_OFFLINE": "1"}
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_SECONDS
        )
        assert done.returncode == 0, done.stderr[-4000:]
        requests = sent_requests(server)
    [samples_file] = output.glob("*/samples_winogrande_local_*.jsonl")
    [results_file] = output.glob("*/results_*.json")
    samples = sorted(
        (json.loads(line) for line in samples_file.read_text(encoding="utf-8").splitlines()),
        key=lambda sample: sample["doc_id"],
    )
    # --log_samples writes each (log-likelihood, is_greedy) as strings
    lls = [[float(response[0]) for response in sample["filtered_resps"]] for sample in samples]
    accs = [sample["acc"] for sample in samples]
    results = json.loads(results_file.read_text(encoding="utf-8"))["results"]
    return requests, lls, accs, results["winogrande_local"]["acc,none"]


def run_ours(
    tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, str],
    shots: int,
    client: str,
    **overrides: Any,
) -> tuple[dict[str, Any], list[list[float]], list[float], float]:
    params = parse_run_config(str(CLIENTS[client]))
    task_args = params.pop("task_args")
    assert params.pop("tasks") == "benchmarks/winogrande"
    with CompletionsServer(echo_generated=client != "gguf") as server:
        monkeypatch.setenv("LOOPBACK_BASE_URL", server.base_url)
        monkeypatch.setenv("LOOPBACK_API_KEY", "loopback")
        [log] = eval(
            winogrande(**{**task_args, "data_files": files, "shots": shots, **overrides}),
            model="openai-api-completions/loopback/scripted",
            model_base_url=server.base_url,
            log_dir=str(tmp / "inspect_logs" / "_".join(map(str, overrides.values()))),
            display="none",
            max_retries=1,
            timeout=60,
            **params,
        )
        requests = sent_requests(server)
    assert log.status == "success" and log.samples is not None and log.results is not None
    samples = sorted(log.samples, key=lambda sample: int(str(sample.id).rsplit("_", 1)[1]))
    scores = [sample.scores["loglikelihood_choice"] for sample in samples]  # type: ignore[index]
    lls = [list(score.metadata["loglikelihoods"]) for score in scores]  # type: ignore[index]
    accs = [1.0 if score.value == "C" else 0.0 for score in scores]
    accuracy = log.results.scores[0].metrics["accuracy"].value
    return requests, lls, accs, accuracy


@pytest.mark.parametrize("client", list(CLIENTS))
@pytest.mark.parametrize("shots", [0, 5])
def test_requests_loglikelihoods_and_accuracy_match_lm_eval(
    lm_eval_python: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shots: int, client: str
) -> None:
    files = write_data(tmp_path / "data")
    lm_requests, lm_lls, lm_accs, lm_accuracy = run_lm_eval(
        lm_eval_python, tmp_path, files, shots, client
    )
    our_requests, our_lls, our_accs, our_accuracy = run_ours(
        tmp_path, monkeypatch, files, shots, client
    )

    assert len(lm_requests) == len(our_requests)  # two a question (fewer where texts repeat)
    same_requests = lm_requests == our_requests
    identical = [
        lm_lls[q] == pytest.approx(our_lls[q], abs=1e-9) and lm_accs[q] == our_accs[q]
        for q in range(len(VALIDATION))
    ]
    record(
        PeerResult(
            peer=f"lm-evaluation-harness `winogrande`, `{client}` (log-likelihood), {shots}-shot",
            version=VERSION,
            rows=len(VALIDATION),
            prompts_identical=len(VALIDATION) if same_requests else 0,
            verdicts_identical=sum(identical),
            compared=COMPARED[client]
            + ", each option's log-likelihood, the choice, accuracy (the 1,267 rows split into "
            "634 validation and 636 train)",
        )
    )
    differing = [text for text in lm_requests if lm_requests[text] != our_requests.get(text)]
    assert differing == [], differing[:2]
    assert same_requests
    assert all(identical), [q for q, same in enumerate(identical) if not same][:5]
    assert lm_accuracy == pytest.approx(our_accuracy, abs=1e-12)
    # both outcomes occur, so agreement is not agreement on all-wrong
    assert 0 < sum(lm_accs) < len(VALIDATION)

    if client == "local-completions":
        # vLLM's prompt_logprobs instead of the echo: the same token ids, the same sums
        ids, lls, accs, accuracy = run_ours(
            tmp_path, monkeypatch, files, shots, client, loglikelihood_request="prompt_logprobs"
        )
        assert ids == lm_requests
        assert all(lm_lls[q] == pytest.approx(lls[q], abs=1e-9) for q in range(len(VALIDATION)))
        assert (accs, accuracy) == (lm_accs, pytest.approx(lm_accuracy, abs=1e-12))


@pytest.mark.parametrize("client", list(CLIENTS))
def test_edge_rows_match_lm_eval(
    lm_eval_python: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, client: str
) -> None:
    """Rows built to reach the edges no real row reaches (tests/peers/loglikelihood_edges.py),
    through lm-evaluation-harness's own winogrande task and ours, 0-shot."""
    files = write_data(tmp_path / "data", EDGE_ROWS)
    lm_requests, lm_lls, lm_accs, lm_accuracy = run_lm_eval(
        lm_eval_python, tmp_path, files, 0, client
    )
    our_requests, our_lls, our_accs, our_accuracy = run_ours(
        tmp_path, monkeypatch, files, 0, client
    )
    kinds = edge_kinds(EDGE_ROWS, lm_lls)
    identical = [
        lm_lls[q] == pytest.approx(our_lls[q], abs=1e-9) and lm_accs[q] == our_accs[q]
        for q in range(len(EDGE_ROWS))
    ]
    record(
        PeerResult(
            peer=f"lm-evaluation-harness `winogrande`, `{client}` (log-likelihood), edge rows",
            version=VERSION,
            rows=len(EDGE_ROWS),
            prompts_identical=len(EDGE_ROWS) if lm_requests == our_requests else 0,
            verdicts_identical=sum(identical),
            compared=COMPARED[client] + ", each option's log-likelihood, the choice, accuracy, "
            "0-shot, on rows built for the edges: " + describe(kinds),
        )
    )
    differing = [text for text in lm_requests if lm_requests[text] != our_requests.get(text)]
    assert differing == [], [f"...{text[-80:]}" for text in differing[:2]]
    assert lm_requests == our_requests
    assert all(identical), [q for q, same in enumerate(identical) if not same]
    assert lm_accuracy == pytest.approx(our_accuracy, abs=1e-12)
    # every edge is reached, by at least two rows
    assert {kind: kinds[kind] for kind in KINDS if kinds[kind] < 2} == {}, describe(kinds)
    if client == "local-completions":
        # the two long rows' four requests were left-truncated, on both sides
        lengths = [len(ids) for ids in lm_requests.values()]
        assert lengths.count(MAX_LENGTH) == 4 and max(lengths) == MAX_LENGTH, lengths
        ids, lls, accs, accuracy = run_ours(
            tmp_path, monkeypatch, files, 0, client, loglikelihood_request="prompt_logprobs"
        )
        assert ids == lm_requests
        assert all(lm_lls[q] == pytest.approx(lls[q], abs=1e-9) for q in range(len(EDGE_ROWS)))
        assert (accs, accuracy) == (lm_accs, pytest.approx(lm_accuracy, abs=1e-12))


def test_the_fixture_exercises_the_removal_of_the_evaluated_question() -> None:
    rng = random.Random(1234)
    met = {}
    for position, row in enumerate(VALIDATION):
        drawn = rng.sample(TRAIN, 6)
        if row in drawn:
            met[position] = drawn.index(row)
        assert sum(r == row for r in drawn) < 2  # no redraw: the draw stays in step
    assert met == {69: 2, 123: 0, 236: 5}
