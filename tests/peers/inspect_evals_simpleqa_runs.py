"""Running both sides of ``test_inspect_evals_simpleqa.py``: inspect_evals' own SimpleQA tasks in
the peer venv (through inspect_ai's ``eval()``, with or without their paper config), this
project's configs through the ``inspect`` command, the rows each reads, and the grades each
log holds."""

from __future__ import annotations

import ast
import csv
import json
import subprocess
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from tests.inspect_cli import config_log, loopback_env
from tests.peers.inspect_evals_env import inspect_evals_python
from tests.peers.peer_env import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "simpleqa" / "simple_qa_test_set.first400.csv"
CANDIDATE_MODEL = "candidate-model"
PLAIN_ROWS = 5
RUN_TIMEOUT_SECONDS = 900
LETTERS = {"CORRECT": "A", "INCORRECT": "B", "NOT_ATTEMPTED": "C", "JUDGE_FAILURE": "-"}

RUN_INSPECT_EVALS = r"""
import importlib
import json
import sys
from pathlib import Path

import yaml
from inspect_ai import eval
from inspect_ai.dataset import json_dataset
from inspect_ai.model import GenerateConfig, get_model

# the task module (its package's `simpleqa` attribute is the task function)
module = importlib.import_module("inspect_evals.simpleqa.simpleqa")
data = importlib.import_module("inspect_evals.simpleqa.dataset")
task_name, grade_parse, rows, log_dir, candidate, judge, with_paper_config = sys.argv[1:8]


def local_simpleqa_dataset():
    # the loader and sample_fields simpleqa_dataset() passes, on the local file
    return data.load_csv_dataset(
        file_path=rows,
        eval_name="simpleqa",
        cache_tag="simple_qa_test_set",
        sample_fields=data.simpleqa_record_to_sample,
    )


def local_simpleqa_verified_dataset():
    # the FieldSpec simpleqa_verified_dataset() passes, on local rows in the Hub schema
    return json_dataset(rows, sample_fields=data.SIMPLEQA_VERIFIED_FIELDS)


module.simpleqa_dataset = local_simpleqa_dataset
module.simpleqa_verified_dataset = local_simpleqa_verified_dataset

generate_config, grader_config, paper_judge = {}, {}, None
if with_paper_config == "yes":
    config_file = Path(module.__file__).parent / "paper_config" / f"{task_name}.yaml"
    config = yaml.safe_load(config_file.read_text())
    assert set(config) == {"generate_config", "model_roles"}, config
    assert set(config["model_roles"]) == {"grader"}, config
    generate_config = config["generate_config"]
    grader_config = config["model_roles"]["grader"]["config"]
    paper_judge = config["model_roles"]["grader"]["model"]

task = getattr(module, task_name)(scorer="original", grade_parse=grade_parse)
grader = get_model(judge, config=GenerateConfig(**grader_config))
[log] = eval(
    task,
    model=candidate,
    model_roles={"grader": grader},
    log_dir=log_dir,
    display="none",
    **generate_config,
)
assert log.status == "success", log.error
print(json.dumps({
    "log": log.location,
    "generate_config": generate_config,
    "grader_config": grader_config,
    "paper_judge": paper_judge,
}))
"""


def verified_rows(path: Path) -> list[dict[str, Any]]:
    """The fixture's rows as stand-ins in SimpleQA Verified's schema (google/simpleqa-verified,
    as codelion/SimpleQA-Verified holds it): ``original_index`` the row, ``problem`` and
    ``answer`` verbatim, ``topic``/``answer_type`` from the metadata literal, ``urls`` its
    URLs joined with ``,``, and made-up ``multi_step`` (``bool(k & 1)``) and
    ``requires_reasoning`` (``bool(k & 2)``). Written as JSON lines to ``path``."""
    with FIXTURE.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    table = []
    for index, row in enumerate(rows):
        metadata = ast.literal_eval(row["metadata"])
        table.append(
            {
                "original_index": index,
                "problem": row["problem"],
                "answer": row["answer"],
                "topic": metadata["topic"],
                "answer_type": metadata["answer_type"],
                "multi_step": bool(index & 1),
                "requires_reasoning": bool(index & 2),
                "urls": ",".join(metadata["urls"]),
            }
        )
    path.write_text("".join(json.dumps(row) + "\n" for row in table), encoding="utf-8")
    return table


def write_head(tmp_path: Path) -> Path:
    """The fixture's header and first ``PLAIN_ROWS`` rows (whole records), for the plain run."""
    with FIXTURE.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        records = [next(reader) for _ in range(PLAIN_ROWS + 1)]
    head = tmp_path / "head.csv"
    with head.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(records)
    return head


def run_inspect_evals(
    base_url: str,
    tmp_path: Path,
    name: str,
    task: str,
    grade_parse: str,
    rows: Path,
    judge: str,
    *,
    paper_config: bool = True,
) -> tuple[EvalLog, dict[str, Any]]:
    python = inspect_evals_python()
    done = subprocess.run(
        [
            str(python),
            "-c",
            RUN_INSPECT_EVALS,
            task,
            grade_parse,
            str(rows),
            str(tmp_path / f"{name}_inspect_evals_logs"),
            f"openai-api/loopback/{CANDIDATE_MODEL}",
            f"openai-api/loopback/{judge}",
            "yes" if paper_config else "no",
        ],
        env={**loopback_env(base_url), "XDG_CACHE_HOME": str(tmp_path / "cache")},
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return read_eval_log(report["log"]), report


def run_ours(
    base_url: str, tmp_path: Path, name: str, config: Path, judge: str, *task_args: str
) -> EvalLog:
    arguments = [arg for value in task_args for arg in ("-T", value)]
    return config_log(
        config,
        base_url,
        tmp_path,
        "--model-role",
        f"grader=openai-api/loopback/{judge}",
        *arguments,
        model=f"openai-api/loopback/{CANDIDATE_MODEL}",
        log_dir=tmp_path / f"{name}_logs",
        env={"INSPECT_BENCHMARKS_CACHE": str(tmp_path / "ours")},
    )


def their_grades(log: EvalLog) -> dict[str, tuple[str, str]]:
    """(letter, judge reply) of each question in inspect_evals' log."""
    assert log.status == "success" and log.samples is not None
    grades = {}
    for sample in log.samples:
        assert sample.scores is not None
        [score] = sample.scores.values()
        value = score.value
        assert isinstance(value, dict)
        [letter] = [
            letter
            for key, letter in (("correct", "A"), ("incorrect", "B"), ("not_attempted", "C"))
            if value[key] == 1.0
        ]
        assert score.metadata is not None
        grades[str(sample.input)] = (letter, score.metadata["grader_response"])
    return grades


def our_grades(log: EvalLog) -> dict[str, tuple[str, str]]:
    """(letter, or - for a judge failure, and the judge reply) of each question in our log."""
    assert log.status == "success" and log.samples is not None
    grades = {}
    for sample in log.samples:
        assert sample.scores is not None
        [score] = sample.scores.values()
        assert score.metadata is not None
        grades[str(sample.input)] = (
            LETTERS[score.metadata["grade"]],
            score.metadata["judge_reply"],
        )
    return grades
