"""A real model, this project against a reference harness, question by question.

``python -m bench.real_model <comparison> --server URL --peer-python PYTHON``
runs the reference and this project's configuration file on the same rows
against the same OpenAI-compatible server (a real model, e.g. a GGUF served by
``llama-cpp-python[server]``; docs/development.md), each through a recording
proxy on loopback, then compares them per question. Comparisons:

- ``triviaqa``: lm-evaluation-harness 0.4.13 ``triviaqa`` with
  ``local-chat-completions --apply_chat_template``, 5-shot, against
  ``configs/triviaqa_lm_eval.yaml``: request bodies, replies, exact_match.
- ``winogrande-evalscope``: evalscope 1.14.1 ``winogrande`` (``openai_api``)
  against ``configs/winogrande_evalscope.yaml``: request bodies, replies,
  parsed letters, verdicts.
- ``winogrande-gguf``: lm-evaluation-harness 0.4.13 ``winogrande`` through its
  ``gguf`` client against ``configs/winogrande_lm_eval_gguf.yaml``: request
  bodies, each option's log-likelihood, the chosen option.

``--peer-python`` is the python of a venv holding ``lm-eval[api]==0.4.13`` or
``evalscope==1.14.1``. ``--our-server`` lets this project's side run at the
same time against a second copy of the server. Rows come from the project's
fixtures (``--rows`` takes the first N). Prints the counts and writes
``bench/out/real_model_<comparison>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import yaml
from aiohttp import web
from inspect_ai.log import read_eval_log

from tests.peers.peer_env import lm_eval_task_yaml
from tests.threaded_server import ThreadedServer

REPO_DIR = Path(__file__).resolve().parents[1]
OUT_DIR = REPO_DIR / "bench" / "out"
WINOGRANDE_ROWS = REPO_DIR / "tests" / "fixtures" / "winogrande" / "validation_full.jsonl"
TRIVIAQA_DIR = REPO_DIR / "tests" / "fixtures" / "triviaqa"
MODEL = "smollm2"
RUN_EVALSCOPE = """
import sys
from evalscope import TaskConfig, run_task

api_url, data_dir, work_dir = sys.argv[1:4]
run_task(TaskConfig(
    model="{model}", api_url=api_url, api_key="none", eval_type="openai_api",
    datasets=["winogrande"], dataset_args={{"winogrande": {{"local_path": data_dir}}}},
    work_dir=work_dir, no_timestamp=True, eval_batch_size=1,
))
"""


class RecordingProxy(ThreadedServer):
    """Forwards every request to ``upstream`` and keeps each POST body, in order."""

    name = "recording-proxy"

    def __init__(self, upstream: str) -> None:
        super().__init__()
        self.upstream = upstream.rstrip("/")
        self.bodies: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    @property
    def root(self) -> str:
        return self.base_url.removesuffix("/v1")

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self.forward)
        return app

    async def forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        if request.method == "POST" and body:
            with self._lock:
                self.bodies.append(json.loads(body))
        headers = {"Content-Type": request.headers.get("Content-Type", "application/json")}
        timeout = aiohttp.ClientTimeout(total=3600)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            async with session.request(
                request.method, self.upstream + request.path_qs, data=body, headers=headers
            ) as reply:
                return web.Response(
                    status=reply.status, body=await reply.read(), content_type=reply.content_type
                )


def run(command: list[str], env: dict[str, str], log: Path) -> None:
    with log.open("w") as out:
        done = subprocess.run(command, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=REPO_DIR)
    if done.returncode != 0:
        tail = "\n".join(log.read_text().splitlines()[-20:])
        raise SystemExit(f"{command[0]} failed (exit {done.returncode}), {log}:\n{tail}")


def inspect_eval(config: str, model: str, server: str, work: Path, *task_args: str) -> Any:
    work.mkdir(parents=True)
    env = {**os.environ, "LLAMACPP_BASE_URL": f"{server}/v1", "LLAMACPP_API_KEY": "none"}
    command = [str(Path(sys.executable).with_name("inspect")), "eval", "--run-config", config]
    for argument in task_args:
        command += ["-T", argument]
    command += ["--model", model, "--max-connections", "1", "--log-dir", str(work / "inspect")]
    run([*command, "--display", "plain"], env, work / "inspect.txt")
    [log_file] = (work / "inspect").glob("*.eval")
    log = read_eval_log(str(log_file))
    if log.status != "success" or log.samples is None or log.results is None:
        raise SystemExit(f"our run ended {log.status}: {log_file}")
    return log


def lm_eval(python: str, task: str, server: str, work: Path, data: dict, *options: str) -> Path:
    original = lm_eval_task_yaml(Path(python), f"{task}/default.yaml")
    local = {
        "include": str(original),
        "task": f"{task}_local",
        "dataset_path": "json",
        "dataset_name": None,
        "dataset_kwargs": {"data_files": data},
    }
    tasks = work / "lm_eval_tasks"
    tasks.mkdir(parents=True)
    (tasks / f"{task}_local.yaml").write_text(yaml.safe_dump(local), encoding="utf-8")
    command = [python, "-m", "lm_eval", "--tasks", f"{task}_local", "--include_path", str(tasks)]
    command += [*options, "--log_samples", "--output_path", str(work / "lm_eval")]
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    run(command, {**env, "HF_DATASETS_CACHE": str(work / "hf")}, work / "lm_eval.txt")
    [samples] = (work / "lm_eval").glob(f"*/samples_{task}_local_*.jsonl")
    return samples


def first_rows(source: Path, count: int | None, target: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    rows = rows[:count] if count else rows
    target.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return rows


def in_parallel(*jobs: Any) -> list[Any]:
    results: list[Any] = [None] * len(jobs)
    errors: list[BaseException] = []

    def call(index: int, job: Any) -> None:
        try:
            results[index] = job()
        except BaseException as error:  # reported below, after every side has ended
            errors.append(error)

    threads = [threading.Thread(target=call, args=item) for item in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


def both_sides(
    args: argparse.Namespace,
    peer_side: Callable[[str], Any],
    our_side: Callable[[str], Any],
    *,
    our_model_named: bool = True,
) -> tuple[Any, Any, dict[str, Any]]:
    """Each side against its own copy of the server through a recording proxy, at once:
    the peer's result, our log, and whether the two sent the same request bodies.

    ``our_model_named=False``: the peer names no model (lm-eval's gguf client; the server
    ignores it) and Inspect always does, so ours are compared without it."""
    with RecordingProxy(args.server) as peer, RecordingProxy(args.our_server) as ours:
        peer_result, log = in_parallel(lambda: peer_side(peer.root), lambda: our_side(ours.root))
    our_bodies = ours.bodies
    if not our_model_named:
        our_bodies = [{k: v for k, v in body.items() if k != "model"} for body in our_bodies]
    requests = {
        "prompts_identical": bodies_match(peer.bodies, our_bodies),
        "requests": (len(peer.bodies), len(ours.bodies)),
    }
    return peer_result, log, requests


def row_of_sample(sample: Any) -> int:
    return int(str(sample.id).rsplit("_", 1)[1])


def winogrande_gguf(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    rows = first_rows(WINOGRANDE_ROWS, args.rows, work / "rows.jsonl")
    data = {"train": str(work / "rows.jsonl"), "validation": str(work / "rows.jsonl")}
    samples_file, log, requests = both_sides(
        args,
        lambda root: lm_eval(
            args.peer_python,
            "winogrande",
            root,
            work / "peer",
            data,
            "--model",
            "gguf",
            "--model_args",
            f"base_url={root}",
            "--num_fewshot",
            str(args.shots),
        ),
        lambda root: inspect_eval(
            "configs/winogrande_lm_eval_gguf.yaml",
            f"openai-api-completions/llamacpp/{MODEL}",
            root,
            work / "ours",
            f"data_files={json.dumps(data)}",
            f"shots={args.shots}",
        ),
        our_model_named=False,
    )
    theirs = {}
    for line in samples_file.read_text(encoding="utf-8").splitlines():
        sample = json.loads(line)
        theirs[sample["doc_id"]] = ([float(r[0]) for r in sample["filtered_resps"]], sample["acc"])
    mine = {}
    for sample in log.samples:
        score = sample.scores["loglikelihood_choice"]
        verdict = 1.0 if score.value == "C" else 0.0
        mine[row_of_sample(sample)] = (list(score.metadata["loglikelihoods"]), verdict)
    return compare_rows(len(rows), theirs, mine, **requests, what="log-likelihoods")


def winogrande_evalscope(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    (work / "data").mkdir()
    rows = first_rows(WINOGRANDE_ROWS, args.rows, work / "data" / "validation.jsonl")
    rows_file = str(work / "data" / "validation.jsonl")
    script = RUN_EVALSCOPE.format(model=MODEL)

    def peer_side(root: str) -> Path:
        (work / "peer").mkdir()
        env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
        command = [args.peer_python, "-c", script, f"{root}/v1", str(work / "data")]
        run([*command, str(work / "peer")], env, work / "evalscope.txt")
        [reviews] = (work / "peer" / "reviews").glob("*/winogrande_default.jsonl")
        return reviews

    reviews_file, log, requests = both_sides(
        args,
        peer_side,
        lambda root: inspect_eval(
            "configs/winogrande_evalscope.yaml",
            f"openai-api/llamacpp/{MODEL}",
            root,
            work / "ours",
            f"data_files={rows_file}",
        ),
    )
    theirs = {}
    for line in reviews_file.read_text(encoding="utf-8").splitlines():
        review = json.loads(line)
        score = review["sample_score"]["score"]
        reply = score["prediction"]
        theirs[review["index"]] = (
            reply,
            score["extracted_prediction"] or None,
            score["value"]["accuracy"],
        )
    mine = {}
    for sample in log.samples:
        score = sample.scores["option_letter_scorer"]
        verdict = 1.0 if score.value == "C" else 0.0
        mine[row_of_sample(sample)] = (sample.output.completion, score.answer, verdict)
    return compare_rows(len(rows), theirs, mine, **requests, what="replies, letters")


def triviaqa(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    rows = first_rows(
        TRIVIAQA_DIR / "lm_eval_validation.jsonl", args.rows, work / "validation.jsonl"
    )
    data = {
        "train": str(TRIVIAQA_DIR / "lm_eval_train.jsonl"),
        "validation": str(work / "validation.jsonl"),
    }
    samples_file, log, requests = both_sides(
        args,
        lambda root: lm_eval(
            args.peer_python,
            "triviaqa",
            root,
            work / "peer",
            data,
            "--model",
            "local-chat-completions",
            "--model_args",
            f"base_url={root}/v1/chat/completions,model={MODEL},num_concurrent=1",
            "--apply_chat_template",
            "--num_fewshot",
            "5",
        ),
        lambda root: inspect_eval(
            "configs/triviaqa_lm_eval.yaml",
            f"openai-api/llamacpp/{MODEL}",
            root,
            work / "ours",
            f"data_files={json.dumps(data)}",
        ),
    )
    theirs = {}
    for line in samples_file.read_text(encoding="utf-8").splitlines():
        sample = json.loads(line)
        theirs[sample["doc"]["question_id"]] = (sample["resps"][0][0], sample["exact_match"])
    mine = {}
    for sample in log.samples:
        verdict = sample.scores["triviaqa_scorer"].value["exact_match"]
        mine[str(sample.id)] = (sample.output.completion, verdict)
    return compare_rows(len(rows), theirs, mine, **requests, what="replies")


def bodies_match(peer: list[dict[str, Any]], ours: list[dict[str, Any]]) -> bool:
    """The same request bodies, in any order (the clients order their requests differently)."""

    def key(body: dict[str, Any]) -> str:
        return json.dumps(body, sort_keys=True)

    return sorted(map(key, peer)) == sorted(map(key, ours))


def compare_rows(
    count: int, theirs: dict, mine: dict, *, prompts_identical: bool, requests: tuple, what: str
) -> dict[str, Any]:
    """Per question: the first fields (what was read) identical, and the verdict (last)."""
    if sorted(theirs) != sorted(mine) or len(mine) != count:
        raise SystemExit(f"questions differ: peer {len(theirs)}, ours {len(mine)}, rows {count}")
    same_reading = [key for key in mine if tuple(mine[key][:-1]) == tuple(theirs[key][:-1])]
    same_verdict = [key for key in mine if mine[key][-1] == theirs[key][-1]]
    return {
        "questions": count,
        "requests (peer, ours)": list(requests),
        "request bodies identical": prompts_identical,
        f"{what} identical": len(same_reading),
        "verdicts identical": len(same_verdict),
        "accuracy (peer, ours)": [
            sum(value[-1] for value in theirs.values()) / count,
            sum(value[-1] for value in mine.values()) / count,
        ],
        "first differing": [
            {"question": key, "peer": theirs[key], "ours": mine[key]}
            for key in mine
            if key not in same_reading or key not in same_verdict
        ][:3],
    }


COMPARISONS = {
    "triviaqa": triviaqa,
    "winogrande-evalscope": winogrande_evalscope,
    "winogrande-gguf": winogrande_gguf,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("comparison", choices=sorted(COMPARISONS))
    parser.add_argument("--server", required=True, help="the model server's root URL")
    parser.add_argument("--our-server", help="a second copy of the server for our side")
    parser.add_argument("--peer-python", required=True)
    parser.add_argument("--rows", type=int, help="the first N questions (default: all)")
    parser.add_argument("--shots", type=int, default=0, help="winogrande-gguf only")
    parser.add_argument("--keep", help="a folder to keep both sides' outputs in")
    args = parser.parse_args()
    args.our_server = args.our_server or args.server
    work = Path(args.keep or tempfile.mkdtemp(prefix="real-model-"))
    work.mkdir(parents=True, exist_ok=True)
    result = {
        "comparison": args.comparison,
        "rows": args.rows,
        **COMPARISONS[args.comparison](args, work),
    }
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    out = OUT_DIR / f"real_model_{args.comparison}.json"
    out.write_text(json.dumps(result, indent=2, default=str), encoding="utf-8")
    print(json.dumps(result, indent=2, default=str))


if __name__ == "__main__":
    main()
