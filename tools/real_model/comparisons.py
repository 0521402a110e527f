"""A real model, this project against a reference harness, question by question.

``python -m tools.real_model <comparison> --server URL --peer-python PYTHON``
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
``tools/out/real_model_<comparison>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tools.real_model.side_by_side import (
    REPO_DIR,
    both_sides,
    compare_rows,
    first_rows,
    inspect_eval,
    lm_eval,
    row_of_sample,
    run,
)

OUT_DIR = REPO_DIR / "tools" / "out"
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


COMPARISONS = {
    "triviaqa": triviaqa,
    "winogrande-evalscope": winogrande_evalscope,
    "winogrande-gguf": winogrande_gguf,
}


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.real_model", description=__doc__.splitlines()[0]
    )
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
