"""The bare Inspect task the overhead bench compares each benchmark with.

``inspect eval bench/common/bare_task.py -T inputs=<file>.jsonl [-T judge_template=<file>]``:
one sample per line of ``inputs`` (written by ``bench.common.bare_inputs``
from the benchmark's own samples), with the same prompt text, target and
image, then ``generate()`` and ``match()``; with ``judge_template``, Inspect's
``model_graded_fact()`` (role ``grader``) with that prompt instead, so the
judge receives what our SimpleQA judge receives. An image is referenced by
its file path, as Inspect's own multimodal evals do: Inspect reads it into a
data URI when the sample starts.

``-T generate_config=<dict>`` gives it the benchmark task's generation settings
(``max_tokens``, stop sequences, ...), so that both send the same request bodies.

``-T sample_metadata=true`` also gives each sample the benchmark's own
metadata and choices, and ``group_by`` (a list of ``[metadata key, name
template]`` pairs, from the benchmark's grouped metrics) adds Inspect's
``grouped(accuracy(), key)`` for each: what Inspect itself costs a sample
for the breakdowns a benchmark reports, without any of our code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    ContentImage,
    ContentText,
    GenerateConfig,
)
from inspect_ai.scorer import Metric, accuracy, grouped, match, model_graded_fact, stderr
from inspect_ai.solver import generate

# Our judge replies with the letter alone: A (correct), B, C.
JUDGE_GRADE_PATTERN = r"^\s*([ABC])"


def sample_from_line(line: str, sample_metadata: bool = False) -> Sample:
    record = json.loads(line)
    image = record.get("image")
    text = record["text"]
    sample_input: str | list[ChatMessage] = (
        text
        if image is None
        else [ChatMessageUser(content=[ContentImage(image=image), ContentText(text=text)])]
    )
    own: dict[str, Any] = (
        {"choices": record.get("choices"), "metadata": record.get("metadata")}
        if sample_metadata
        else {}
    )
    return Sample(id=record["id"], input=sample_input, target=record["target"], **own)


def breakdown_metrics(group_by: list[Any]) -> list[Metric | dict[str, list[Metric]]]:
    """Accuracy, its stderr and Inspect's grouped accuracy over each ``[key, template]``."""
    return [
        accuracy(),
        stderr(),
        *(
            grouped(accuracy(), key, all=False, name_template=template)
            for key, template in group_by
        ),
    ]


@task
def bare(
    inputs: str,
    judge_template: str | None = None,
    sample_metadata: bool = False,
    group_by: list[Any] | None = None,
    generate_config: dict[str, Any] | None = None,
) -> Task:
    lines = Path(inputs).read_text(encoding="utf-8").splitlines()
    scorer = (
        model_graded_fact(
            template=Path(judge_template).read_text(encoding="utf-8"),
            grade_pattern=JUDGE_GRADE_PATTERN,
            model_role="grader",
        )
        if judge_template
        else match()
    )
    return Task(
        dataset=MemoryDataset([sample_from_line(line, sample_metadata) for line in lines if line]),
        solver=generate(),
        scorer=scorer,
        metrics=breakdown_metrics(group_by) if group_by else None,
        config=GenerateConfig(**(generate_config or {})),
    )
