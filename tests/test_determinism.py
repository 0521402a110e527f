"""Samples are the same in every process: ids, prompts, targets, choices and metadata.

Each benchmark's samples are built in two child processes with different
``PYTHONHASHSEED`` values and in this process, and compared. Prompts are
compared by a sha256 of their exact content (a ScienceQA image part names a
file of the image cache: its bytes are hashed in); message ids, random by
design, are left out.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.catalog import BENCHMARKS
from benchmarks.simpleqa import simpleqa
from tests.conformance_pins import pinned

REPO = Path(__file__).parent.parent

# Every benchmark of the catalog on its bundled sample; two few-shot examples where the task
# draws them, so that the draws are compared too.
BUILD_TASKS = """
import inspect

from benchmarks.catalog import specs

def arguments(task):
    shots = {"shots": 2} if "shots" in inspect.signature(task).parameters else {}
    return {"bundled_sample": True, **shots}

TASKS = {name: spec.task for name, spec in specs().items()}
"""

DESCRIBE = """
import hashlib, json

def image_bytes_sha256(part):
    if part.get("type") == "image":
        with open(part["image"], "rb") as file:
            part["image"] = hashlib.sha256(file.read()).hexdigest()
    return part

def describe(task, sample):
    from benchmarks.solvers.prompt_preview import prompt_text

    rendered = prompt_text(task, sample)
    if isinstance(rendered, str):
        prompt = rendered
    else:
        messages = [m.model_dump(exclude={"id"}) for m in rendered]
        for message in messages:
            if isinstance(message["content"], list):
                message["content"] = [image_bytes_sha256(part) for part in message["content"]]
        prompt = json.dumps(messages, sort_keys=True)
    return {
        "id": sample.id,
        "prompt_sha256": hashlib.sha256(prompt.encode("utf-8")).hexdigest(),
        "prompt_start": prompt[:120],
        "target": sample.target,
        "choices": sample.choices,
        "metadata": sample.metadata,
    }

described = {}
for name, make in TASKS.items():
    task = make(**arguments(make))
    described[name] = [describe(task, s) for s in task.dataset]
"""

CHILD = BUILD_TASKS + DESCRIBE + "print('SAMPLES ' + json.dumps(described))\n"

HASH_SEEDS = ("0", "4242")


@pytest.fixture(scope="module")
def samples_by_process() -> list[dict[str, list[dict[str, Any]]]]:
    """Described samples of every benchmark: one entry per child process, then this one."""
    described: list[dict[str, list[dict[str, Any]]]] = []
    for hash_seed in HASH_SEEDS:
        done = subprocess.run(
            [sys.executable, "-c", CHILD],
            cwd=REPO,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        (line,) = [line for line in done.stdout.splitlines() if line.startswith("SAMPLES ")]
        described.append(json.loads(line.removeprefix("SAMPLES ")))
    scope: dict[str, Any] = {}
    exec(BUILD_TASKS + DESCRIBE, scope)  # the same code, in this process
    described.append(json.loads(json.dumps(scope["described"])))
    return described


# Each benchmark's first sample: its id and how its prompt starts (a few-shot prompt with its
# first drawn example), pinned in its tests/<name>/conformance.py.
FIRST_SAMPLE = "FIRST_SAMPLE"
FIRST_SAMPLE_WHAT = "(the first bundled sample's id, how its prompt starts)"


@pytest.mark.parametrize("benchmark", BENCHMARKS)
def test_every_benchmark_has_its_first_sample_pinned(benchmark: str) -> None:
    first_id, prompt_start = pinned(benchmark, FIRST_SAMPLE, FIRST_SAMPLE_WHAT)
    assert isinstance(first_id, str | int) and isinstance(prompt_start, str) and prompt_start


@pytest.mark.parametrize("benchmark", BENCHMARKS)
@pytest.mark.slow
def test_samples_are_identical_across_processes_and_hash_seeds(
    samples_by_process: list[dict[str, list[dict[str, Any]]]], benchmark: str
) -> None:
    runs = [process[benchmark] for process in samples_by_process]
    assert runs[0] != []
    for other in runs[1:]:
        assert other == runs[0]
    first_id, prompt_start = pinned(benchmark, FIRST_SAMPLE, FIRST_SAMPLE_WHAT)
    assert runs[0][0]["id"] == first_id
    assert runs[0][0]["prompt_start"].startswith(prompt_start)
    assert len({sample["id"] for sample in runs[0]}) == len(runs[0])


def test_unreadable_simpleqa_metadata_is_described_without_a_memory_address(
    tmp_path: Path,
) -> None:
    path = tmp_path / "questions.csv"
    path.write_text("metadata,problem,answer\nsports,Who won?,Bo\n", encoding="utf-8")
    sample = simpleqa(dataset_path=str(path)).dataset[0]
    assert sample.metadata is not None
    error = sample.metadata["metadata_error"]
    assert error.startswith("is not a Python-dict literal (ValueError: ")
    assert not re.search(r"0x[0-9a-fA-F]{4,}", error), error
