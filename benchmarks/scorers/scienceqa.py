"""ScienceQA's metrics: accuracy, parse failures and the columns of the paper's table
(Lu et al. 2022; tools/evaluate_acc.py of lupantech/ScienceQA; the columns' rules are on
docs/scienceqa.md). TXT and IMG overlap, as in the paper. Each sample records the columns
it counts in (``benchmarks/data/scienceqa.py``), which the metric and ``benchmarks.compare``
read.
"""

from __future__ import annotations

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
            metadata = sample_score.sample_metadata or {}
            # the paper's columns the sample counts in, from its BREAKDOWNS fields
            for field, known in BREAKDOWNS.items():
                value = metadata.get(field)
                for column in value if isinstance(value, list) else [value]:
                    if column in known:
                        totals[column] += to_float(sample_score.score.value)
                        counts[column] += 1
        return {name: totals[name] / counts[name] for name in PAPER_COLUMNS if counts[name]}

    return compute
