"""lmms-eval's scienceqa against ours, question by question, on 50 real test rows and five
of their images in the other modes real ScienceQA images come in (palette, RGBA, LA,
grayscale, CMYK).

lmms-eval 0.7.3 needs torch, so it is not installed: its wheel is downloaded and its
task folder (``lmms_eval/tasks/scienceqa/utils.py``, ``scienceqa.yaml``) is run as is in
a small venv holding what that code touches (``datasets`` to read the rows the way
lmms-eval's loader hands them over, as PIL images; ``utils.py`` imports nothing).
Ours is the task built from the arguments of ``configs/scienceqa_lmms_eval.yaml``.
Compared per question: the prompt text (``sqa_doc_to_text`` with the yaml's default
``lmms_eval_specific_kwargs``), the image pixels (``sqa_doc_to_visual``'s RGB image
against the image we send, decoded without conversion, so that our conversion is what
is compared), and for each reply of ``replies_for`` the verdict
(``sqa_process_results`` against the task's own scorer). The config's generation
settings are checked against the yaml's ``generation_kwargs``.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import yaml
from inspect_ai import Task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText, ModelName, ModelOutput
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState
from PIL import Image

from benchmarks.prompt_preview import prompt_messages
from benchmarks.scienceqa import scienceqa
from tests.peers.peer_env import ROOT, PeerResult, downloaded_wheel, peer_python, record

VERSION = "0.7.3"
FIXTURE = ROOT / "tests" / "fixtures" / "scienceqa" / "test_slice.hf.parquet"
# Five of its image rows with the image in palette (one colour transparent), RGBA (half
# transparent), LA, grayscale and CMYK (JPEG) modes, as real ScienceQA has besides RGB.
IMAGE_MODES = ROOT / "tests" / "fixtures" / "scienceqa" / "image_modes.hf.parquet"
CONFIG = ROOT / "configs" / "scienceqa_lmms_eval.yaml"
TASK_FILES = ("utils.py", "scienceqa.yaml", "scienceqa_img.yaml")
# What lmms_eval/tasks/scienceqa/utils.py needs: rows decoded as lmms-eval's loader
# (datasets) decodes them, images as PIL images.
PEER_REQUIREMENTS = ["datasets==5.2.0", "pillow==13.0.0"]


def replies_for(target: str, wrong: str, choice: str) -> list[str]:
    """Replies naming the target in the shapes models use, and a few that do not."""
    return [
        target,
        f" {target}",
        f"{target}\n",
        target.lower(),
        f"{target}.",
        f"{target}. {choice}",
        f"{target.lower()}. {choice}",
        f"({target})",
        f"{target})",
        f"The answer is {target}",
        f"Answer: {target}",
        f"**{target}**",
        "",
        wrong,
        f"{wrong}. {choice}",
        f"{target}{wrong}",
    ]


class FunctionTag(yaml.SafeLoader):
    """Reads lmms-eval's task yaml: ``!function utils.name`` stays the string ``utils.name``."""


FunctionTag.add_constructor("!function", lambda loader, node: loader.construct_scalar(node))


def lmms_eval_task_folder(tmp_path: Path) -> Path:
    wheel = downloaded_wheel(f"lmms-eval=={VERSION}")
    folder = tmp_path / "scienceqa"
    folder.mkdir()
    with zipfile.ZipFile(wheel) as archive:
        for name in TASK_FILES:
            (folder / name).write_bytes(archive.read(f"lmms_eval/tasks/scienceqa/{name}"))
    return folder


RUN_LMMS_EVAL = """
import importlib.util, json, sys
import datasets

utils_path, rows_path, out_dir, request = sys.argv[1], sys.argv[2], sys.argv[3], sys.stdin.read()
kwargs, replies = json.loads(request)
spec = importlib.util.spec_from_file_location("sqa_utils", utils_path)
utils = importlib.util.module_from_spec(spec)
spec.loader.exec_module(utils)
docs = datasets.load_dataset("parquet", data_files=rows_path, split="train")
results = []
for position, doc in enumerate(docs):
    images = []
    for number, image in enumerate(utils.sqa_doc_to_visual(doc)):
        path = f"{out_dir}/{position}_{number}.rgb"
        with open(path, "wb") as file:
            file.write(image.tobytes())
        images.append({"mode": image.mode, "size": list(image.size), "pixels": path})
    results.append({
        "text": utils.sqa_doc_to_text(doc, kwargs),
        "target": utils.sqa_doc_to_target(doc),
        "images": images,
        "verdicts": [
            utils.sqa_process_results(doc, [reply])["exact_match"] for reply in replies[position]
        ],
    })
print(json.dumps(results))
"""


def run_lmms_eval(
    folder: Path, kwargs: dict[str, Any], replies: list[list[str]], rows: Path, out_dir: Path
) -> list[dict[str, Any]]:
    python = peer_python("lmms-eval-scienceqa", PEER_REQUIREMENTS)
    out_dir.mkdir()
    done = subprocess.run(
        [str(python), "-c", RUN_LMMS_EVAL, str(folder / "utils.py"), str(rows), str(out_dir)],
        input=json.dumps([kwargs, replies]),
        capture_output=True,
        text=True,
        timeout=1800,
        env={
            **os.environ,
            "HF_DATASETS_OFFLINE": "1",
            "HF_HUB_OFFLINE": "1",
            "HF_DATASETS_CACHE": str(out_dir / "datasets_cache"),
        },
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results: list[dict[str, Any]] = json.loads(done.stdout)
    return results


def split_input(task: Task, sample: Sample) -> tuple[str, list[ContentImage]]:
    """The prompt text and the images (in message order) our solvers send for a sample."""
    [message] = prompt_messages(task, sample)
    if isinstance(message.content, str):
        return message.content, []
    assert isinstance(message, ChatMessageUser)
    parts = message.content
    # lmms-eval puts the visuals first, then the text, in one user turn
    assert isinstance(parts[-1], ContentText)
    assert all(isinstance(part, ContentImage) for part in parts[:-1])
    return parts[-1].text, [part for part in parts[:-1] if isinstance(part, ContentImage)]


def decoded(image: ContentImage) -> Image.Image:
    """An image we send (a data URI or a file), decoded as it is: no conversion here, so
    what is compared is the conversion our task made."""
    source = image.image
    if source.startswith("data:"):
        data = base64.b64decode(source.split(",", 1)[1])
    else:
        data = Path(source.removeprefix("file://")).read_bytes()
    return Image.open(io.BytesIO(data))


def same_pixels(ours: list[ContentImage], theirs: list[dict[str, Any]]) -> list[bool]:
    """Per image, whether ours decodes to lmms-eval's RGB pixels (False where one is missing)."""
    checks = []
    for index in range(max(len(ours), len(theirs))):
        if index >= len(ours) or index >= len(theirs):
            checks.append(False)
            continue
        image, their = decoded(ours[index]), theirs[index]
        checks.append(
            image.mode == their["mode"] == "RGB"
            and list(image.size) == their["size"]
            and image.tobytes() == Path(their["pixels"]).read_bytes()
        )
    return checks


def our_verdicts(task_scorer: Any, sample: Sample, replies: list[str]) -> list[float]:
    """The task's own scorer on each reply, as 1.0 (correct) or 0.0."""

    async def score(reply: str) -> float:
        state = TaskState(
            model=ModelName("openai-api/loopback/scripted"),
            sample_id=str(sample.id),
            epoch=1,
            input=sample.input,
            messages=[],
            target=Target(sample.target),
            choices=sample.choices,
            output=ModelOutput.from_content("scripted", reply),
        )
        result = await task_scorer(state, Target(sample.target))
        return 1.0 if result.value == "C" else 0.0

    async def all_replies() -> list[float]:
        return [await score(reply) for reply in replies]

    return asyncio.run(all_replies())


def test_config_generation_settings_are_lmms_evals(tmp_path: Path) -> None:
    reference = yaml.load(
        (lmms_eval_task_folder(tmp_path) / "scienceqa.yaml").read_text(), Loader=FunctionTag
    )
    config = yaml.safe_load(CONFIG.read_text())
    generation = reference["generation_kwargs"]
    assert generation == {"max_new_tokens": 16, "temperature": 0, "do_sample": False}
    assert config["task"]["args"] == {"profile": "lmms_eval_0.7.3"}
    # the profile's generation settings are the task's
    ours = scienceqa(**config["task"]["args"], data_files=str(FIXTURE)).config
    assert ours.max_tokens == generation["max_new_tokens"]
    assert ours.temperature == generation["temperature"]
    # lmms-eval adds until=["\n\n"] (its default few-shot delimiter), which its API
    # model (models/chat/openai.py) does not send; the config sends no stop sequence.
    assert ours.stop_seqs is None and "stop_seqs" not in config["generate_config"]
    assert reference["dataset_path"] == "lmms-lab-encoder/ScienceQA"
    assert reference["dataset_name"] == "ScienceQA-FULL"


def test_scienceqa_against_lmms_eval(tmp_path: Path) -> None:
    folder = lmms_eval_task_folder(tmp_path)
    reference = yaml.load((folder / "scienceqa.yaml").read_text(), Loader=FunctionTag)
    kwargs = reference["lmms_eval_specific_kwargs"]["default"]
    task_args = yaml.safe_load(CONFIG.read_text())["task"]["args"]
    tasks, samples, replies, theirs = [], [], [], []
    for number, rows in enumerate((FIXTURE, IMAGE_MODES)):
        task = scienceqa(**task_args, data_files=str(rows))
        rows_samples = list(task.dataset)
        rows_replies = []
        for sample in rows_samples:
            assert isinstance(sample.target, str) and sample.choices is not None
            wrong = "A" if sample.target != "A" else "B"
            choice = sample.choices[ord(sample.target) - ord("A")]
            rows_replies.append(replies_for(sample.target, wrong, choice))
        theirs += run_lmms_eval(folder, kwargs, rows_replies, rows, tmp_path / f"pixels{number}")
        tasks += [task] * len(rows_samples)
        samples += rows_samples
        replies += rows_replies
    assert len(theirs) == len(samples) == 55

    same_prompt, same_verdicts, pixel_checks, verdict_checks = [], [], [], []
    differences: list[Any] = []
    for position, (task, sample, peer) in enumerate(zip(tasks, samples, theirs, strict=True)):
        [task_scorer] = task.scorer or []
        text, our_images = split_input(task, sample)
        pixels = same_pixels(our_images, peer["images"])
        pixel_checks.extend(pixels)
        if text == peer["text"] and all(pixels) and sample.target == peer["target"]:
            same_prompt.append(position)
        else:
            differences.append((position, text, peer["text"], pixels))
        ours = our_verdicts(task_scorer, sample, replies[position])
        verdict_checks.extend(a == b for a, b in zip(ours, peer["verdicts"], strict=True))
        if ours == peer["verdicts"]:
            same_verdicts.append(position)
        else:
            differences.append((position, replies[position], ours, peer["verdicts"]))
    record(
        PeerResult(
            peer="lmms-eval `scienceqa`",
            compared="its task functions, no request: prompt text, image pixels (five images "
            f"in non-RGB modes), verdict ({len(replies[0])} replies a question)",
            version=VERSION,
            rows=len(samples),
            prompts_identical=len(same_prompt),
            verdicts_identical=len(same_verdicts),
            notes=f"images {sum(pixel_checks)}/{len(pixel_checks)} same pixels; verdicts "
            f"{sum(verdict_checks)}/{len(verdict_checks)} over {len(replies[0])} replies each",
        )
    )
    assert differences == []
    assert len(pixel_checks) == 29 == sum((s.metadata or {})["has_image"] for s in samples)
    # the replies are not all read alike: lmms-eval strips and ignores case, nothing more
    assert theirs[0]["verdicts"] == [1.0] * 6 + [0.0] * 10
