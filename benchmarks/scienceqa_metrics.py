"""ScienceQA's metrics: accuracy, parse failures and the paper's breakdowns of accuracy
(tools/evaluate_acc.py of lupantech/ScienceQA)."""

from __future__ import annotations

from inspect_ai.scorer import Metric, accuracy, grouped, stderr

from benchmarks.mcq import parse_failure_rate

# The paper's breakdowns: subject (NAT/SOC/LAN), context (TXT/IMG/NO), grades.
# ``context_type`` is exclusive (IMG, else TXT, else NO); the paper's TXT column
# counts every question with a hint, image or not, which is ``has_hint=True``.
BREAKDOWNS = ("subject", "context_type", "grade_band")


def scienceqa_metrics() -> list[Metric | dict[str, list[Metric]]]:
    """Accuracy, its stderr, parse failures, and the paper's breakdowns of accuracy."""
    return [
        accuracy(),
        stderr(),
        parse_failure_rate(),
        *(grouped(accuracy(), key, all=False) for key in BREAKDOWNS),
        grouped(accuracy(), "has_hint", all=False, name_template="has_hint_{group_name}"),
    ]
