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

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ChatMessageUser, ContentImage, ContentText
from inspect_ai.scorer import Metric, accuracy, grouped, stderr
from inspect_ai.solver import Solver, generate

from benchmarks.errors import DataError
from benchmarks.image_cache import ImageFiles
from benchmarks.images import IMAGE_FORMATS, ImageDecodeError, ImageFormat
from benchmarks.lazy_dataset import LazyDataset, announce_cut
from benchmarks.loading import DataFiles
from benchmarks.mcq import option_letter_scorer, parse_failure_rate
from benchmarks.mcq_prompt import mcq_prompt, option_letters
from benchmarks.parameters import ParameterCheck
from benchmarks.registry_names import namespaced
from benchmarks.sample_data import data_files_for
from benchmarks.scienceqa_rows import (
    DATASET_PATH,
    REQUIRED_COLUMNS,
    PreparedDataset,
    RowsSource,
    checked_fields,
    grade_band,
)

__all__ = ["DATASET_PATH", "REQUIRED_COLUMNS", "grade_band", "record_to_sample", "scienceqa"]
SPLITS = ("train", "validation", "test")
SUBSETS = ("all", "image", "no_image")
PROMPT_STYLES = ("default", "lmms_eval")

CONTEXT_TEMPLATE = "Context: {hint}\n"

# prompt_format -> (template, option line) of mcq_prompt, after the optional context line.
PROMPT_TEMPLATES = {
    # Context: ...\nQuestion: ...\nOptions:\n(A) ...\n(B) ...\nAnswer with the option letter ...
    "default": (
        "{context}Question: {question}\nOptions:\n{options}\n"
        "Answer with the option letter from the given choices.",
        "({letter}) {choice}",
    ),
    # lmms-eval's sqa_doc_to_text with the default post_prompt of scienceqa.yaml.
    "lmms_eval": (
        "{context}{question}\n{options}\n"
        "Answer with the option's letter from the given choices directly.",
        "{letter}. {choice}",
    ),
}

# The paper's breakdowns: subject (NAT/SOC/LAN), context (TXT/IMG/NO), grades.
# ``context_type`` is exclusive (IMG, else TXT, else NO); the paper's TXT column
# counts every question with a hint, image or not, which is ``has_hint=True``.
BREAKDOWNS = ("subject", "context_type", "grade_band")

Subset = Literal["all", "image", "no_image"]
PromptFormatName = Literal["default", "lmms_eval"]


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
    rows = PreparedDataset(
        RowsSource(
            split=split,
            dataset_path=dataset_path,
            data_files=data_files,
            image_format=image_format,
            max_side=max_image_side,
        )
    )
    return Task(
        name="benchmarks/scienceqa",
        dataset=scienceqa_dataset(
            rows,
            split=split,
            subset=subset,
            num_examples=num_examples,
        ),
        solver=[scienceqa_prompt(prompt_format), generate()],
        scorer=option_letter_scorer("option_letter_strict" if strict_parse else "option_letter"),
        metrics=scienceqa_metrics(),
        version="1.1.0",
    )


def scienceqa_prompt(prompt_format: PromptFormatName = "default") -> Solver:
    """The ScienceQA question of ``prompt_format``, the image (if any) before the text."""
    template, option_line = PROMPT_TEMPLATES[prompt_format]
    return mcq_prompt(template, option_line, context_template=CONTEXT_TEMPLATE, image_first=True)


def record_to_sample(
    record: dict[str, Any],
    sample_id: str,
    *,
    image_format: ImageFormat = "png",
    max_image_side: int | None = None,
    image_folder: Path | None = None,
    image_file: Callable[[], Path | None] | None = None,
) -> Sample:
    """One ScienceQA row as a sample; ``record["image"]`` holds undecoded bytes or a path.

    The input is the question, after the image when the row has one; the
    options are the choices and the hint is kept in the metadata, for
    ``scienceqa_prompt`` to lay out. The image part names a file of the
    verified image cache holding the exact bytes sent: Inspect reads it into
    the same data URI when the sample starts, so the model and the log see
    what an inline data URI gave, while the dataset holds a path (see
    ``image_cache.cached_source_image``). ``image_file`` gives that file
    (default: from ``record["image"]``).
    """
    fields = checked_fields(record)
    choices, hint = fields["choices"], fields["hint"]
    if image_file is None:
        image_file = ImageFiles(None, image_folder, image_format, max_image_side).record_file(
            record
        )
    try:
        image = image_file()
    except ImageDecodeError as ex:
        raise ImageDecodeError(f"field 'image': {ex}") from ex
    question = fields["question"]
    sample_input: str | list[ChatMessage] = question
    if image is not None:
        sample_input = [
            ChatMessageUser(content=[ContentImage(image=str(image)), ContentText(text=question)])
        ]
    context_type = "IMG" if image is not None else "TXT" if hint else "NO"
    return Sample(
        id=sample_id,
        input=sample_input,
        choices=choices,
        target=option_letters(len(choices))[fields["answer"]],
        metadata={
            "hint": hint,
            "has_image": image is not None,
            "has_hint": bool(hint),
            "context_type": context_type,
            "subject": fields["subject"],
            "grade": fields["grade"],
            "grade_band": grade_band(fields["grade"]),
            "topic": fields["topic"],
            "category": fields["category"],
            "skill": fields["skill"],
        },
    )


def scienceqa_dataset(
    rows: PreparedDataset,
    *,
    split: str,
    subset: Subset,
    num_examples: int | None,
) -> LazyDataset:
    """The subset's first ``num_examples`` rows, each built into a sample when first read."""
    indices = _subset_indices(rows, subset)
    size = len(rows.prepared.records)
    announce_cut(num_examples, size if indices is None else len(indices), rows.where)
    if indices is not None and num_examples is not None:
        indices = indices[:num_examples]

    def build(row: int) -> Sample:
        try:
            return record_to_sample(
                rows.record(row), f"scienceqa_{split}_{row}", image_file=rows.image_file(row)
            )
        except (KeyError, TypeError, ValueError) as ex:
            if isinstance(ex, DataError):
                raise
            raise DataError(f"{rows.where}, row {row}: {ex}") from ex

    return LazyDataset(
        build,
        size if num_examples is None else min(num_examples, size),
        name=f"scienceqa_{split}" + ("" if subset == "all" else f"_{subset}"),
        location=rows.where,
        indices=indices,
    )


def scienceqa_metrics() -> list[Metric | dict[str, list[Metric]]]:
    """Accuracy, its stderr, parse failures, and the paper's breakdowns of accuracy."""
    return [
        accuracy(),
        stderr(),
        parse_failure_rate(),
        *(grouped(accuracy(), key, all=False) for key in BREAKDOWNS),
        grouped(accuracy(), "has_hint", all=False, name_template="has_hint_{group_name}"),
    ]


def _subset_indices(rows: PreparedDataset, subset: str) -> list[int] | None:
    """Row numbers of the subset (None: every row)."""
    if subset == "all":
        return None
    prepared = rows.prepared
    if prepared.image_rows is None:
        raise DataError(f"{rows.where}: {prepared.image_column_error or 'no image column'}")
    if subset == "image":
        indices = prepared.image_rows
    else:
        with_image = set(prepared.image_rows)
        indices = [row for row in range(len(prepared.records)) if row not in with_image]
    if not indices:
        raise DataError(f"{rows.where}: no rows in subset {subset!r}.")
    return indices


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
