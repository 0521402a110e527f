"""The bare task's inputs: our samples' prompt text, target and image, as JSON lines.

``python -m bench.common.bare_inputs --benchmark scienceqa --samples 2000 --out DIR``
builds the benchmark's first ``samples`` samples (through its task, from the
bench data) and writes ``DIR/inputs.jsonl`` (``id``, ``text``, ``target``,
``image``: a PNG/JPEG file under ``DIR/images`` holding exactly the bytes the
model receives, or null; ``choices`` and ``metadata``: the sample's own), and
for a judged benchmark ``DIR/judge_template.txt``: our judge prompt in the
placeholders of Inspect's ``model_graded_fact()``. The result names the
metadata keys of the task's grouped metrics (``group_by``).
Run in a child process so the benchmark's memory is not the bench's.
"""

from __future__ import annotations

import argparse
import base64
import json
from pathlib import Path
from typing import Any

from bench.common.case_tasks import input_text, make_task
from bench.generate_data import DATA_DIR
from bench.workloads import case, cases
from benchmarks.solvers.prompt_preview import prompt_messages

MIME_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpeg"}


def image_bytes(sample_input: Any) -> tuple[bytes, str] | None:
    """The bytes and extension of the image a sample sends (None: text only)."""
    if isinstance(sample_input, str):
        return None
    for message in sample_input:
        for content in message.content if isinstance(message.content, list) else []:
            if content.type != "image":
                continue
            image = content.image
            if image.startswith("data:"):
                header, _, payload = image.partition(",")
                mime = header.removeprefix("data:").split(";")[0]
                return base64.b64decode(payload), MIME_EXTENSIONS[mime]
            path = Path(image)
            return path.read_bytes(), path.suffix.removeprefix(".")
    return None


def judge_template() -> str:
    """Our SimpleQA judge prompt with ``model_graded_fact()``'s placeholder names."""
    from benchmarks.scorers.judge_prompt import GRADER_TEMPLATE

    return GRADER_TEMPLATE.replace("{target}", "{criterion}").replace(
        "{predicted_answer}", "{answer}"
    )


def grouped_keys(metrics: Any) -> list[list[str]]:
    """``[metadata key, name template]`` of each grouped metric in a list: this package's
    breakdowns (``GroupedStatistic``, Inspect's ``grouped`` with the groups in name order)."""
    from benchmarks.scorers.simpleqa import GroupedStatistic

    return [
        [metric.group_key, metric.name_template]
        for metric in (metrics if isinstance(metrics, list) else [])
        if isinstance(metric, GroupedStatistic)
    ]


def write_inputs(key: str, samples: int, out: Path, data_dir: Path) -> dict[str, Any]:
    spec = case(key)
    task = make_task(spec, data_dir)
    for _ in task.dataset:  # every sample once: ScienceQA's image cache is then warm
        pass
    images = out / "images"
    images.mkdir(parents=True, exist_ok=True)
    written = 0
    with (out / "inputs.jsonl").open("w", encoding="utf-8") as file:
        for sample in task.dataset[0:samples]:
            rendered = prompt_messages(task, sample)  # what our solvers send
            image = image_bytes(rendered)
            image_path = None
            if image is not None:
                data, extension = image
                image_path = images / f"{sample.id}.{extension}"
                image_path.write_bytes(data)
            record = {
                "id": sample.id,
                "text": input_text(rendered),
                "target": sample.target,
                "image": None if image_path is None else str(image_path),
                "choices": sample.choices,
                "metadata": sample.metadata,
            }
            file.write(json.dumps(record) + "\n")
            written += 1
    result: dict[str, Any] = {
        "samples": written,
        "inputs": str(out / "inputs.jsonl"),
        "group_by": grouped_keys(task.metrics),
        # the task's generation settings, for the bare task's requests to match ours
        "generate_config": task.config.model_dump(exclude_none=True),
    }
    if spec.grader_reply is not None:
        template = out / "judge_template.txt"
        template.write_text(judge_template(), encoding="utf-8")
        result["judge_template"] = str(template)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmark", required=True, choices=sorted(cases()))
    parser.add_argument("--samples", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=DATA_DIR)
    args = parser.parse_args()
    print(json.dumps(write_inputs(args.benchmark, args.samples, args.out, args.data)))


if __name__ == "__main__":
    main()
