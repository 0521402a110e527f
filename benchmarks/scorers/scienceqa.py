"""ScienceQA's metrics: accuracy, parse failures and the columns of the paper's table
(Lu et al. 2022, Table; computed by tools/evaluate_acc.py of lupantech/ScienceQA).

The paper's columns, by its names and rules:

- ``NAT``, ``SOC``, ``LAN``: subject ``natural science``, ``social science``,
  ``language science``;
- ``TXT``: a non-empty hint (``has_text``), with or without an image;
- ``IMG``: an image (``has_image``), with or without a hint;
- ``NO``: neither a hint nor an image (``no_context``);
- ``G1-6``, ``G7-12``: grades 1 to 6, 7 to 12.

TXT and IMG overlap (a question with both counts in each), as in the paper. Each
sample records the columns it counts in (``paper_columns``), which both the metric
and ``benchmarks.compare`` read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    ValueToFloat,
    accuracy,
    metric,
    stderr,
    value_to_float,
)

from benchmarks.data.scienceqa_shape import grade_band
from benchmarks.runtime.registry_names import namespaced
from benchmarks.scorers.mcq_scorer import parse_failure_rate

# The dataset's subject -> the paper's column.
SUBJECT_COLUMNS = {"natural science": "NAT", "social science": "SOC", "language science": "LAN"}
# Sample metadata field -> the paper's columns it holds, in the paper's order. A field
# holds one column, or for the context the list of those the question counts in.
BREAKDOWNS = {
    "paper_subject": ("NAT", "SOC", "LAN"),
    "paper_context": ("TXT", "IMG", "NO"),
    "paper_grade": ("G1-6", "G7-12"),
}
PAPER_COLUMNS = tuple(column for columns in BREAKDOWNS.values() for column in columns)


def paper_columns(
    subject: str, has_hint: bool, has_image: bool, grade: str
) -> dict[str, str | list[str] | None]:
    """The sample metadata naming the paper's columns a question counts in (its
    ``BREAKDOWNS`` fields): ``paper_subject`` (None for a subject outside the three),
    ``paper_context`` (``["TXT", "IMG"]`` with a hint and an image), ``paper_grade``."""
    context = [name for name, has in (("TXT", has_hint), ("IMG", has_image)) if has]
    return {
        "paper_subject": SUBJECT_COLUMNS.get(subject),
        "paper_context": context or ["NO"],
        "paper_grade": grade_band(grade),
    }


def paper_columns_of_former_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The metadata of a sample of task version 1.2.0 or earlier, which held ``subject``,
    ``has_hint``, ``has_image`` and ``grade`` but not the paper's columns, with them added."""
    return {
        **metadata,
        **paper_columns(
            str(metadata.get("subject")),
            bool(metadata.get("has_hint")),
            bool(metadata.get("has_image")),
            str(metadata.get("grade")),
        ),
    }


def scienceqa_metrics() -> list[Metric | dict[str, list[Metric]]]:
    """Accuracy, its stderr, parse failures, and accuracy in each of the paper's columns."""
    return [accuracy(), stderr(), parse_failure_rate(), paper_column_accuracy()]


@metric(name=namespaced("paper_column_accuracy", __name__))
def paper_column_accuracy() -> Metric:
    """Accuracy over the questions of each of the paper's columns, named and ordered as
    the paper's table (``NAT`` ... ``G7-12``); a column without questions is left out."""
    to_float: ValueToFloat = value_to_float()

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        totals = dict.fromkeys(PAPER_COLUMNS, 0.0)
        counts = dict.fromkeys(PAPER_COLUMNS, 0)
        for sample_score in scores:
            for column in columns_of(sample_score.sample_metadata or {}):
                totals[column] += to_float(sample_score.score.value)
                counts[column] += 1
        return {name: totals[name] / counts[name] for name in PAPER_COLUMNS if counts[name]}

    return compute


def columns_of(metadata: Mapping[str, Any]) -> list[str]:
    """The paper's columns a sample counts in, from its ``BREAKDOWNS`` fields."""
    columns: list[str] = []
    for field, known in BREAKDOWNS.items():
        value = metadata.get(field)
        columns += [v for v in (value if isinstance(value, list) else [value]) if v in known]
    return columns
