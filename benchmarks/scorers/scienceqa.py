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
sample records the columns it counts in (``paper_columns`` of
``benchmarks/data/scienceqa.py``), which both the metric and ``benchmarks.compare`` read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    ValueToFloat,
    accuracy,
    stderr,
    value_to_float,
)

from benchmarks.data.scienceqa import BREAKDOWNS, PAPER_COLUMNS
from benchmarks.runtime.registry_names import metric_named
from benchmarks.scorers.mcq_scorer import parse_failure_rate


def scienceqa_metrics() -> list[Metric | dict[str, list[Metric]]]:
    """Accuracy, its stderr, parse failures, and accuracy in each of the paper's columns."""
    return [accuracy(), stderr(), parse_failure_rate(), paper_column_accuracy()]


@metric_named("Accuracy by paper column", "paper_column_accuracy", __name__)
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
