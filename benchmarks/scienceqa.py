"""
Learn to Explain: Multimodal Reasoning via Thought Chains for Science Question Answering

Pan Lu, Swaroop Mishra, Tony Xia, Liang Qiu, Kai-Wei Chang, Song-Chun Zhu,
Oyvind Tafjord, Peter Clark, Ashwin Kalyan
https://arxiv.org/abs/2209.09513

Zero-shot multiple choice on ScienceQA (``derek-thomas/ScienceQA``): the
question, its options lettered A, B, C, ... and, when the row has them, a
text context (``hint``) and an image (sent before the text). The reply is
scored with the rule of lmms-eval 0.7.3's ScienceQA task (EvolvingLMMs-Lab/lmms-eval
``lmms_eval/tasks/scienceqa/utils.py``, after LLaVA): the reply is the
letter, or starts with ``X.``; rule-based, no LLM judge. By default the
formats that rule misses but that name one option unambiguously are read too
(``(B)``, ``B)``, ``Answer: B``, ``The answer is B.``); ``strict_parse=True``
keeps the reference rule alone. Accuracy is also
broken down as in the paper (tools/evaluate_acc.py of lupantech/ScienceQA):
by subject, context type and grade band.

# all 4,241 test questions
inspect eval benchmarks/scienceqa.py --model openai/gpt-4o-mini

# lmms-eval 0.7.3's scienceqa: its prompt, reply rule and generation settings
inspect eval --run-config configs/scienceqa_lmms_eval.yaml --model openai/gpt-4o-mini

# ... its scienceqa_img: the 2,017 test questions with an image
inspect eval --run-config configs/scienceqa_lmms_eval.yaml --model openai/gpt-4o-mini \
    -T subset=image
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ChatMessageUser, ContentImage, ContentText
from inspect_ai.scorer import Metric, accuracy, grouped, stderr
from inspect_ai.solver import generate

from benchmarks.image_cache import ImageFiles
from benchmarks.images import IMAGE_FORMATS, ImageDecodeError, ImageFormat
from benchmarks.lazy_dataset import dataset_from_rows
from benchmarks.lazy_modules import LazyModule
from benchmarks.loading import DataError, DataFiles, LoadedSplit, load_split, local_path
from benchmarks.mcq import option_letter_scorer, option_letters, parse_failure_rate, render_options
from benchmarks.parameters import ParameterCheck
from benchmarks.records import field, string_list
from benchmarks.registry_names import namespaced
from benchmarks.sample_data import data_files_for

if TYPE_CHECKING:
    import datasets
    import pyarrow as pa
    import pyarrow.compute as pc
else:
    datasets = LazyModule("datasets")
    pa = LazyModule("pyarrow")
    pc = LazyModule("pyarrow.compute")

DATASET_PATH = "derek-thomas/ScienceQA"
SPLITS = ("train", "validation", "test")
SUBSETS = ("all", "image", "no_image")
PROMPT_STYLES = ("default", "lmms_eval")

CONTEXT_TEMPLATE = "Context: {hint}\n"


class PromptStyle(NamedTuple):
    """How the text part of a question is laid out after the optional context line."""

    question_template: str
    option_line: str
    instruction: str


PROMPT_TEMPLATES = {
    # Context: ...\nQuestion: ...\nOptions:\n(A) ...\n(B) ...\nAnswer with the option letter ...
    "default": PromptStyle(
        question_template="Question: {question}\nOptions:\n{options}\n{instruction}",
        option_line="({letter}) {choice}",
        instruction="Answer with the option letter from the given choices.",
    ),
    # lmms-eval's sqa_doc_to_text with the default post_prompt of scienceqa.yaml.
    "lmms_eval": PromptStyle(
        question_template="{question}\n{options}\n{instruction}",
        option_line="{letter}. {choice}",
        instruction="Answer with the option's letter from the given choices directly.",
    ),
}

REQUIRED_COLUMNS = (
    "image",
    "question",
    "choices",
    "answer",
    "hint",
    "grade",
    "subject",
    "topic",
    "category",
    "skill",
)

# The paper's breakdowns: subject (NAT/SOC/LAN), context (TXT/IMG/NO), grades.
# ``context_type`` is exclusive (IMG, else TXT, else NO); the paper's TXT column
# counts every question with a hint, image or not, which is ``has_hint=True``.
BREAKDOWNS = ("subject", "context_type", "grade_band")

Subset = Literal["all", "image", "no_image"]
PromptFormatName = Literal["default", "lmms_eval"]

_GRADE = re.compile(r"grade(\d{1,2})")


@task(
    name=namespaced("scienceqa", __name__),
    description="ScienceQA multiple choice with optional image: "
    "option-letter accuracy by subject, context and grade",
)
def scienceqa(
    split: str = "test",
    subset: Subset = "all",
    num_examples: int | None = None,
    strict_parse: bool = False,
    prompt_format: PromptFormatName = "default",
    image_format: ImageFormat = "png",
    max_image_side: int | None = None,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    bundled_sample: bool = False,
) -> Task:
    """ScienceQA multiple choice, with the image (if any) before the text.

    Args:
        split: ``test`` (4,241 rows), ``validation`` (4,241) or ``train`` (12,726).
        subset: ``all``, ``image`` (rows with an image: 2,017 in test) or
            ``no_image``.
        num_examples: Evaluate only the first this many rows of the subset
            (None: all). Unlike ``--limit``, rows past it are never built.
        strict_parse: Score with the reference rule only (the reply is the
            letter, or starts with ``X.``); by default ``(B)``, ``B)``,
            ``Answer: B`` and ``The answer is B.`` are read too.
        prompt_format: ``default`` (``Question:``/``Options:`` with ``(A)``
            options) or ``lmms_eval`` (lmms-eval 0.7.3's ``A.`` options and
            "Answer with the option's letter from the given choices directly.").
        image_format: ``png`` (lossless; an RGB PNG source is sent as is) or
            ``jpeg`` (quality 95).
        max_image_side: Scale images down so the longest side is at most this
            many pixels (None: send them at full size).
        dataset_path: Hub id, local snapshot folder or local data file.
        data_files: Local file for ``split``, or mapping split -> file
            (parquet with the Image feature, or jsonl/json/csv whose ``image``
            is a path relative to the file).
        bundled_sample: Read the 20 real test rows (9 with an image) shipped
            with the package instead of the Hub or a file (a try-out, offline;
            not a measurement).
    """
    num_examples, max_image_side = _check_parameters(
        split=split,
        subset=subset,
        strict_parse=strict_parse,
        prompt_format=prompt_format,
        image_format=image_format,
        max_image_side=max_image_side,
        num_examples=num_examples,
    )
    data_files = data_files_for(
        "scienceqa", bundled_sample, dataset_path, data_files, splits=[split]
    )
    loaded = load_split(
        benchmark="ScienceQA",
        hub_path=DATASET_PATH,
        config=None,
        split=split,
        dataset_path=dataset_path,
        data_files=data_files,
        required_columns=REQUIRED_COLUMNS,
    )
    rows, where = _undecoded_images(loaded.rows), loaded.where
    image_folder = _image_folder(split, dataset_path, data_files)
    images = ImageFiles(
        rows,
        image_folder,
        image_format=image_format,
        max_side=max_image_side,
        record_columns=REQUIRED_COLUMNS,
    )
    indices = _subset_indices(rows, subset, where)
    if indices is not None and len(indices) == 0:
        raise DataError(f"{where}: no rows in subset {subset!r}.")

    name = f"scienceqa_{split}" + ("" if subset == "all" else f"_{subset}")
    return Task(
        name="benchmarks/scienceqa",
        dataset=dataset_from_rows(
            LoadedSplit(rows, where),
            lambda row, record: record_to_sample(
                record,
                f"scienceqa_{split}_{row}",
                prompt_format=prompt_format,
                image_file=lambda: images.file(row, record),
            ),
            name=name,
            columns=images.record_columns,
            size=num_examples,
            indices=indices,
        ),
        solver=[generate()],
        scorer=option_letter_scorer("option_letter_strict" if strict_parse else "option_letter"),
        metrics=scienceqa_metrics(),
        version="1.0.0",
    )


def record_to_sample(
    record: dict[str, Any],
    sample_id: str,
    *,
    prompt_format: PromptFormatName = "default",
    image_format: ImageFormat = "png",
    max_image_side: int | None = None,
    image_folder: Path | None = None,
    image_file: Callable[[], Path | None] | None = None,
) -> Sample:
    """One ScienceQA row as a sample; ``record["image"]`` holds undecoded bytes or a path.

    The image part names a file of the verified image cache holding the exact
    bytes sent: Inspect reads it into the same data URI when the sample
    starts, so the model and the log see what an inline data URI gave, while
    the dataset holds a path (see ``image_cache.cached_source_image``).
    ``image_file`` gives that file (default: from ``record["image"]``).
    """
    question = field(record, "question", str)
    choices = string_list(record, "choices")
    if len(choices) > 26:
        raise ValueError(f"field 'choices' has {len(choices)} options; at most 26 can be lettered")
    letters = option_letters(len(choices))
    answer = field(record, "answer", int)
    if not 0 <= answer < len(choices):
        raise ValueError(
            f"field 'answer' is {answer}, not an index of the {len(choices)} choices "
            f"(0 to {len(choices) - 1})"
        )
    hint = record.get("hint")
    hint = "" if hint is None else hint
    if not isinstance(hint, str):
        raise TypeError(f"field 'hint' should be str, got {type(hint).__name__} {hint!r:.60}")
    grade = field(record, "grade", str)
    metadata = {
        "subject": field(record, "subject", str),
        "grade": grade,
        "grade_band": grade_band(grade),
        "topic": field(record, "topic", str),
        "category": field(record, "category", str),
        "skill": field(record, "skill", str),
    }
    text = prompt_text(question, choices, hint, prompt_format)
    if image_file is None:
        image_file = ImageFiles(None, image_folder, image_format, max_image_side).record_file(
            record
        )
    try:
        image = image_file()
    except ImageDecodeError as ex:
        raise ImageDecodeError(f"field 'image': {ex}") from ex
    if image is None:
        sample_input: str | list[ChatMessage] = text
    else:
        sample_input = [
            ChatMessageUser(content=[ContentImage(image=str(image)), ContentText(text=text)])
        ]
    context_type = "IMG" if image is not None else "TXT" if hint else "NO"
    return Sample(
        id=sample_id,
        input=sample_input,
        choices=choices,
        target=letters[answer],
        metadata={
            "has_image": image is not None,
            "has_hint": bool(hint),
            "context_type": context_type,
            **metadata,
        },
    )


def prompt_text(
    question: str, choices: Sequence[str], hint: str, prompt_format: PromptFormatName = "default"
) -> str:
    """The text part of the prompt: optional context line, question, options, instruction."""
    style = PROMPT_TEMPLATES[prompt_format]
    context = CONTEXT_TEMPLATE.format(hint=hint) if hint else ""
    return context + style.question_template.format(
        question=question,
        options=render_options(choices, style.option_line),
        instruction=style.instruction,
    )


def grade_band(grade: str) -> str:
    """``G1-6`` or ``G7-12``, the paper's grade columns, for ``grade1`` ... ``grade12``."""
    matched = _GRADE.fullmatch(grade)
    number = int(matched.group(1)) if matched else 0
    if not 1 <= number <= 12:
        raise ValueError(f"field 'grade' should be 'grade1' to 'grade12', got {grade!r:.60}")
    return "G1-6" if number <= 6 else "G7-12"


def scienceqa_metrics() -> list[Metric | dict[str, list[Metric]]]:
    """Accuracy, its stderr, parse failures, and the paper's breakdowns of accuracy."""
    return [
        accuracy(),
        stderr(),
        parse_failure_rate(),
        *(grouped(accuracy(), key, all=False) for key in BREAKDOWNS),
        grouped(accuracy(), "has_hint", all=False, name_template="has_hint_{group_name}"),
    ]


def _undecoded_images(rows: datasets.Dataset) -> datasets.Dataset:
    # Rows then hold the encoded bytes: nothing is decoded until a sample is built.
    feature = rows.features.get("image")
    if isinstance(feature, datasets.Image) and feature.decode:
        return rows.cast_column("image", datasets.Image(decode=False))
    return rows


def _subset_indices(rows: datasets.Dataset, subset: str, where: str) -> list[int] | None:
    """Row numbers of the subset, read from the Arrow column without decoding images."""
    if subset == "all":
        return None
    column = rows.data.table.column("image")
    if pa.types.is_struct(column.type):
        has_bytes = pc.is_valid(pc.struct_field(column, "bytes"))
        path = pc.struct_field(column, "path")
        has_path = pc.and_(pc.is_valid(path), pc.not_equal(pc.utf8_length(path), 0))
        has_image = pc.or_(has_bytes, pc.fill_null(has_path, False))
    elif pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        has_image = pc.fill_null(pc.not_equal(pc.utf8_length(column), 0), False)
    elif pa.types.is_null(column.type):
        has_image = pa.chunked_array([pa.repeat(False, len(column))])
    else:
        raise DataError(
            f"{where}: column 'image' should hold images (bytes and path) or paths, "
            f"got {column.type}"
        )
    wanted = has_image if subset == "image" else pc.invert(has_image)
    return [row for row, keep in enumerate(wanted.to_pylist()) if keep]


def _image_folder(
    split: str, dataset_path: str | None, data_files: DataFiles | None
) -> Path | None:
    """Folder that relative image paths of local data files are relative to."""
    if data_files is not None:
        if isinstance(data_files, (str, os.PathLike)):
            return local_path(data_files).parent
        return local_path(data_files[split]).parent if split in data_files else None
    if dataset_path is not None and local_path(dataset_path).exists():
        path = local_path(dataset_path)
        return path.parent if path.is_file() else path
    return None


def _check_parameters(
    *,
    split: str,
    subset: str,
    strict_parse: bool,
    prompt_format: str,
    image_format: str,
    max_image_side: int | None,
    num_examples: int | None,
) -> tuple[int | None, int | None]:
    """Fail on the first bad parameter; return ``num_examples`` and ``max_image_side``."""
    check = ParameterCheck("scienceqa")
    check.choice("split", split, SPLITS)
    check.choice("subset", subset, SUBSETS)
    check.boolean("strict_parse", strict_parse)
    check.choice("prompt_format", prompt_format, PROMPT_STYLES)
    check.choice("image_format", image_format, IMAGE_FORMATS)
    return (
        check.optional_integer("num_examples", num_examples, minimum=1, none_means="all rows"),
        check.optional_integer("max_image_side", max_image_side, minimum=1, none_means="full size"),
    )
