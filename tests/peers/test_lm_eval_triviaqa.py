"""lm-evaluation-harness 0.4.13 ``triviaqa`` against ``configs/triviaqa_lm_eval.yaml`` (chat
models) and ``configs/triviaqa_lm_eval_completions.yaml`` (base models, completions endpoint).

Both run end to end against a scripted OpenAI-compatible server on loopback:
lm-evaluation-harness through its own command (its ``triviaqa`` task with only
the data source pointed at the fixture rows), this project by the
configuration file (parsed as ``inspect eval --run-config`` parses it):

- chat: ``local-chat-completions --apply_chat_template`` against Inspect's
  ``openai-api`` provider, for both of its chat layouts
  (``--fewshot_as_multiturn`` true, its default, and false);
- completions: ``local-completions`` with string prompts
  (``tokenizer_backend=none``, no chat template) against Inspect's
  ``openai-api-completions`` provider.

The reply depends only on the question. Per question: the request bodies
(the messages or the prompt, bytes, and every generation setting) are
compared whole, then lm-evaluation-harness's verdict (its ``--log_samples``
output) with ours, then the aggregate.

Rows: tests/fixtures/triviaqa/lm_eval_*.jsonl (300 train, 300 validation; a few
train rows are copies of validation rows, so that the removal of the evaluated
document from the draw happens).
"""

from __future__ import annotations

import json
import os
import subprocess
import unicodedata
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import eval
from inspect_ai._cli.eval import parse_run_config

from benchmarks.triviaqa import triviaqa
from tests.loopback_server import LoopbackServer, user_text
from tests.peers.peer_env import ROOT, PeerResult, lm_eval_task_yaml, peer_python, record

LM_EVAL = ["lm-eval[api]==0.4.13"]
VERSION = "0.4.13"
PEER = "lm-evaluation-harness `triviaqa`"
FIXTURES = ROOT / "tests" / "fixtures" / "triviaqa"
DATA_FILES = {
    "train": str(FIXTURES / "lm_eval_train.jsonl"),
    "validation": str(FIXTURES / "lm_eval_validation.jsonl"),
}
CONFIGS = {
    "chat": ROOT / "configs" / "triviaqa_lm_eval.yaml",
    "completions": ROOT / "configs" / "triviaqa_lm_eval_completions.yaml",
    "completions_token_ids": ROOT / "configs" / "triviaqa_lm_eval_completions_token_ids.yaml",
}
# layout -> (lm-eval's client and its arguments, this project's configuration, overrides)
LAYOUTS: dict[str, tuple[list[str], str, dict[str, Any]]] = {
    "multiturn": (
        ["local-chat-completions", "--apply_chat_template", "--fewshot_as_multiturn", "true"],
        "chat",
        {},
    ),
    "single_message": (
        ["local-chat-completions", "--apply_chat_template", "--fewshot_as_multiturn", "false"],
        "chat",
        {"fewshot_as_multiturn": False},
    ),
    "completions": (["local-completions"], "completions", {}),
    "completions_token_ids": (["local-completions"], "completions_token_ids", {}),
}
RUN_TIMEOUT_SECONDS = 600


def read_rows(split: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in open(DATA_FILES[split], encoding="utf-8")]


VALIDATION = read_rows("validation")


# ---------------------------------------------------------------------------
# Scripted replies: a function of the question alone


def grows_when_lowercased(text: str) -> bool:
    return any(len(char.lower()) > 1 for char in text)


REPLY_KINDS: list[Callable[[str], str]] = [
    lambda alias: alias,  # an alias as it is (some hold "." or ",", cut by the server)
    lambda alias: alias + ".\nThat is the answer.",  # needs the stop cut
    lambda alias: " " + alias,  # leading space
    lambda alias: "\n" + alias,  # leading newline: the server returns ""
    lambda alias: "Atlantis",  # wrong
    lambda alias: "",  # empty
    lambda alias: alias.upper(),  # case
    lambda alias: f'"{alias}"!',  # punctuation around it
    lambda alias: "U.S.A.",  # cut to "U"
    lambda alias: "  " + alias + " \t",  # whitespace on both sides
    lambda alias: alias + ", I think",  # comma cut
    lambda alias: "\t" + alias,  # leading tab
    lambda alias: unicodedata.normalize("NFD", alias.lower()),  # accents decomposed
]


def reply_for(row: dict[str, Any]) -> str:
    aliases: list[str] = row["answer"]["aliases"]
    growing = [alias for alias in aliases if grows_when_lowercased(alias)]
    if growing:  # "İstanbul": lm-evaluation-harness's numpy lowercase cuts it short
        return min(growing, key=len)
    digest = zlib.crc32(row["question"].encode("utf-8"))
    alias = aliases[digest % len(aliases)]
    return REPLY_KINDS[digest % len(REPLY_KINDS)](alias)


# The question's block in either prompt format -> its row
ROW_BY_PROMPT = {
    template.format(question=row["question"]): row
    for row in VALIDATION
    for template in ("Question: {question}?\nAnswer:", "Question: {question}\nAnswer:")
}


def asked(request: dict[str, Any]) -> str:
    """The question block a request ends with (after any demonstrations)."""
    return user_text(request).rsplit("\n\n", 1)[-1]


UNKNOWN = "<no question of the fixture ends this prompt>"


def scripted_reply(request: dict[str, Any]) -> str:
    """The question's reply; a prompt that ends with no fixture question gets a marked reply
    (not a server error, which would be retried), and the comparison shows it."""
    row = ROW_BY_PROMPT.get(asked(request))
    return UNKNOWN if row is None else reply_for(row)


def first_difference(ours: dict[str, Any], theirs: dict[str, Any]) -> str | None:
    """The first question (in the peer's order) whose request differs, with both bodies."""
    for key, body in theirs.items():
        if ours.get(key) != body:
            mine = ours.get(key) or counterpart(key, ours, theirs)
            return f"first differing request ({key!r}):\nlm-eval: {body}\nours:    {mine}"
    extra = [key for key in ours if key not in theirs]
    return f"requests only ours sent: {extra[:2]}" if extra else None


def counterpart(key: str, ours: dict[str, Any], theirs: dict[str, Any]) -> Any:
    """Our request for the peer's question when our question block reads otherwise (a
    changed format): the one of ours that holds the same question, else the first of ours
    the peer did not send."""
    unmatched = [k for k in ours if k not in theirs]
    row = ROW_BY_PROMPT.get(key)
    same_question = [k for k in unmatched if row is not None and row["question"] in k]
    candidates = same_question or unmatched
    return ours[candidates[0]] if candidates else "no request"


def by_question(requests: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Request bodies keyed by the question they end with; each question asked once. A
    batch of one token-id prompt (``[[ids]]``, what lm-evaluation-harness's synchronous
    client sends) is read as the one prompt (``[ids]``, Inspect's): the server treats
    them alike."""
    keyed = {asked(request): one_prompt(request) for request in requests}
    assert len(keyed) == len(requests), "a question asked twice"
    return keyed


def one_prompt(request: dict[str, Any]) -> dict[str, Any]:
    prompt = request.get("prompt")
    if isinstance(prompt, list) and len(prompt) == 1 and isinstance(prompt[0], list):
        return {**request, "prompt": prompt[0]}
    return request


# ---------------------------------------------------------------------------
# lm-evaluation-harness, through its own command


@pytest.fixture(scope="module")
def lm_eval_python() -> Path:
    return peer_python("lm-eval", LM_EVAL)


def local_task_dir(python: Path, folder: Path) -> Path:
    """lm-evaluation-harness's own triviaqa.yaml with only the data source changed."""
    original = lm_eval_task_yaml(python, "triviaqa/default.yaml")
    config = yaml.safe_load(original.read_text(encoding="utf-8"))
    assert (config["task"], config["dataset_path"], config["dataset_name"]) == (
        "triviaqa",
        "mandarjoshi/trivia_qa",
        "rc.nocontext",
    )
    local = {
        **{key: value for key, value in config.items() if key != "dataset_name"},
        "dataset_path": "json",
        "dataset_kwargs": {"data_files": DATA_FILES},
    }
    changed = {key for key in config.keys() | local.keys() if config.get(key) != local.get(key)}
    assert changed == {"dataset_path", "dataset_name", "dataset_kwargs"}
    folder.mkdir(parents=True)
    (folder / "triviaqa.yaml").write_text(yaml.safe_dump(local), encoding="utf-8")
    return folder


def run_lm_eval(
    python: Path, tmp: Path, layout: str
) -> tuple[dict[str, dict[str, Any]], dict[str, float], float]:
    """Its requests, per-question exact_match (by question id) and aggregate exact_match."""
    tasks = local_task_dir(python, tmp / "lm_eval_tasks")
    output = tmp / "lm_eval_output"
    client, *options = LAYOUTS[layout][0]
    token_ids = layout == "completions_token_ids"
    with LoopbackServer(scripted_reply, tokenizer=token_ids) as server:
        endpoint = "chat/completions" if client == "local-chat-completions" else "completions"
        # local-completions without a tokenizer sends the prompt as a string; with the
        # server's (its choice where /tokenizer_info answers), token ids
        tokenizer = {"local-completions": ",tokenizer_backend=none"}.get(client, "")
        if token_ids:
            tokenizer = ",tokenizer_backend=remote"
        command = [
            str(python.with_name("lm-eval")),
            "run",
            "--model",
            client,
            "--model_args",
            f"base_url={server.base_url}/{endpoint},model=scripted,"
            f"num_concurrent=1,max_retries=1{tokenizer}",
            "--tasks",
            "triviaqa",
            "--include_path",
            str(tasks),
            "--num_fewshot",
            "5",
            *options,
            "--log_samples",
            "--output_path",
            str(output),
        ]
        env = {
            **os.environ,
            "HF_HOME": str(tmp / "hf"),
            "HF_HUB_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1",
        }
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_SECONDS
        )
        assert done.returncode == 0, done.stderr[-4000:]
        requests = by_question(server.requests)
    [samples_file] = output.glob("*/samples_triviaqa_*.jsonl")
    [results_file] = output.glob("*/results_*.json")
    verdicts = {}
    for line in samples_file.read_text(encoding="utf-8").splitlines():
        sample = json.loads(line)
        verdicts[sample["doc"]["question_id"]] = sample["exact_match"]
    results = json.loads(results_file.read_text(encoding="utf-8"))["results"]["triviaqa"]
    return requests, verdicts, results["exact_match,remove_whitespace"]


# ---------------------------------------------------------------------------
# This project, by the configuration file


def run_configured(
    tmp: Path, monkeypatch: pytest.MonkeyPatch, config: str, **overrides: Any
) -> tuple[dict[str, dict[str, Any]], dict[str, float], float]:
    """Our requests, per-question exact_match (by question id) and accuracy.

    The file is parsed as ``inspect eval --run-config`` parses it; its task
    arguments, with ``overrides`` merged in as ``-T`` would, build the task its
    ``task`` names, and every other setting goes to ``eval()``.
    """
    params = parse_run_config(str(CONFIGS[config]))
    task_name, task_args = params.pop("tasks"), params.pop("task_args")
    assert task_name == "benchmarks/triviaqa"
    with LoopbackServer(scripted_reply, tokenizer=config == "completions_token_ids") as server:
        monkeypatch.setenv("LOOPBACK_BASE_URL", server.base_url)
        monkeypatch.setenv("LOOPBACK_API_KEY", "loopback")
        [log] = eval(
            triviaqa(**{**task_args, "data_files": DATA_FILES, **overrides}),
            model=f"{'openai-api' if config == 'chat' else 'openai-api-completions'}"
            "/loopback/scripted",
            # a model of its own per server (Inspect reuses a model by name and base URL)
            model_base_url=server.base_url,
            log_dir=str(tmp / "inspect_logs"),
            display="none",
            # fail, not retry for ever, should the server go away (client side only)
            max_retries=1,
            timeout=60,
            **params,
        )
        requests = by_question(server.requests)
    assert log.status == "success" and log.samples is not None and log.results is not None
    verdicts: dict[str, float] = {}
    for sample in log.samples:
        value = sample.scores["triviaqa_scorer"].value if sample.scores else None
        assert isinstance(value, dict), f"question {sample.id}: no triviaqa_scorer value"
        verdicts[str(sample.id)] = float(value["exact_match"])
    [accuracy] = [
        float(score.metrics["exact_match"].value)
        for score in log.results.scores
        if score.name == "triviaqa_scorer"
    ]
    return requests, verdicts, accuracy


# ---------------------------------------------------------------------------


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_requests_verdicts_and_metric_match_lm_eval(
    lm_eval_python: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str
) -> None:
    lm_requests, lm_verdicts, lm_accuracy = run_lm_eval(lm_eval_python, tmp_path, layout)
    # The configuration as it is for lm-eval's default layout; the other one overridden.
    _, config, overrides = LAYOUTS[layout]
    our_requests, our_verdicts, our_accuracy = run_configured(
        tmp_path, monkeypatch, config, **overrides
    )

    prompt = "prompt" if layout.startswith("completions") else "messages"
    difference = first_difference(our_requests, lm_requests)
    assert difference is None, difference
    assert len(lm_requests) == len(VALIDATION)
    assert lm_requests.keys() == our_requests.keys()
    prompts_identical = sum(
        lm_requests[key][prompt] == our_requests[key][prompt] for key in lm_requests
    )
    assert lm_verdicts.keys() == our_verdicts.keys()
    verdicts_identical = sum(lm_verdicts[key] == our_verdicts[key] for key in lm_verdicts)
    peer, sent = {
        "multiturn": ("chat, `--fewshot_as_multiturn` true", "messages, roles and bytes"),
        "single_message": ("chat, `--fewshot_as_multiturn` false", "messages, roles and bytes"),
        "completions": ("`local-completions`", "the prompt as one string"),
        "completions_token_ids": (
            "`local-completions` with the server's tokenizer",
            "the prompt as token ids, the end-of-text stop",
        ),
    }[layout]
    record(
        PeerResult(
            peer=f"{PEER}, {peer}",
            version=VERSION,
            rows=len(VALIDATION),
            prompts_identical=prompts_identical,
            verdicts_identical=verdicts_identical,
            compared=f"request bodies ({sent}, every generation setting), extracted answer, "
            "exact match",
        )
    )

    first = lm_requests[next(iter(lm_requests))]
    if layout == "completions":  # one text: five demonstrations, then the question
        assert isinstance(first["prompt"], str) and first["prompt"].count("\nAnswer:") == 6
    elif layout == "completions_token_ids":  # that text as token ids, and end-of-text stops
        assert user_text(first).count("\nAnswer:") == 6 and first["stop"][-1] == "<|endoftext|>"
    else:
        layout_roles = [message["role"] for message in first["messages"]]
        multiturn = layout == "multiturn"
        assert layout_roles == (["user", "assistant"] * 5 + ["user"] if multiturn else ["user"])
    differing = [key for key in lm_requests if lm_requests[key] != our_requests[key]]
    assert differing == [], (lm_requests[differing[0]], our_requests[differing[0]])
    assert prompts_identical == len(VALIDATION)
    disagreeing = {
        key: lm_verdicts[key] for key in lm_verdicts if lm_verdicts[key] != our_verdicts[key]
    }
    assert disagreeing == {}
    assert lm_accuracy == pytest.approx(our_accuracy, abs=1e-12)
    # The replies reach both outcomes, so agreement is not agreement on all-wrong.
    assert 0 < sum(lm_verdicts.values()) < len(VALIDATION)
