"""ScienceQA's metrics: accuracy, parse failures and the paper's breakdowns of accuracy
(tools/evaluate_acc.py of lupantech/ScienceQA)."""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, accuracy, grouped, metric, stderr

from benchmarks.runtime.registry_names import namespaced
from benchmarks.scorers.letters import parse_failure_rate

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
        *(grouped_accuracy(key) for key in BREAKDOWNS),
        grouped_accuracy("has_hint", name_template="has_hint_{group_name}"),
    ]


@metric(name=namespaced("grouped_accuracy", __name__))
def grouped_accuracy(group_key: str, name_template: str = "{group_name}") -> Metric:
    """Inspect's ``grouped(accuracy(), group_key)``, its groups in name order (``grouped``
    lists them in the order the samples came, which changes from run to run)."""
    by_group = grouped(accuracy(), group_key, all=False, name_template=name_template)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values = by_group(scores)  # type: ignore[arg-type]  # grouped() takes SampleScores
        assert isinstance(values, dict)
        return {name: float(values[name]) for name in sorted(values)}  # type: ignore[arg-type]

    return compute
