"""What each benchmark's logs hold, for ``benchmarks.compare``: read from the benchmarks' specs.

Every metric is a function of per-question sums of the score value keys
(``components``), which is what lets one vectorized bootstrap serve all of
them. A metric that is the mean of one component is a proportion when that
component is 0 or 1 on every question (after averaging epochs), and then gets
the exact binary methods instead of the bootstrap. ``BenchmarkSpec`` in
``benchmarks/spec.py`` declares them; nothing here is benchmark-specific.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from benchmarks.catalog import specs
from benchmarks.scorers.simpleqa import GRADE_VALUE_KEYS
from benchmarks.spec import CompareMetric, FormerVersions

Metric = CompareMetric
# The value of a "C"/"I" score (option_letter_scorer) is read as this component.
CORRECT = "correct"
# Breakdown field -> per question, the categories it counts in: one, or several when its
# metadata value is a list (ScienceQA's paper_context: a question with a hint and an
# image counts in TXT and in IMG).
Categories = dict[str, list[tuple[str, ...]]]


@dataclass(frozen=True)
class TaskScores:
    """The scorer of a task, its value keys, its metrics and its breakdown fields.

    ``components``: the score value dict keys read per question; ``()`` for a
    single-valued score (``"C"``/``"I"`` and the like), read with Inspect's
    ``value_to_float`` as the component ``correct``. ``other_scorers``: those some
    profiles use instead of ``scorer`` (a log holds one or the other). ``category_metrics``:
    the metrics also reported per category of each field in ``breakdowns``
    (sample metadata keys; a list value puts the question in each of its categories).
    ``version``: the current task version; ``former_versions``: the earlier ones read as
    it (``BenchmarkSpec``).
    """

    scorer: str
    other_scorers: tuple[str, ...]
    components: tuple[str, ...]
    metrics: tuple[CompareMetric, ...]
    category_metrics: tuple[str, ...]
    breakdowns: tuple[str, ...]
    version: str
    former_versions: FormerVersions | None = None

    @property
    def columns(self) -> tuple[str, ...]:
        return self.components or (CORRECT,)


def _task_scores() -> dict[str, TaskScores]:
    return {
        name: TaskScores(
            scorer=spec.scorer,
            other_scorers=spec.other_scorers,
            components=spec.value_keys,
            metrics=spec.compare_metrics,
            category_metrics=spec.category_metrics,
            breakdowns=spec.breakdowns,
            version=spec.version,
            former_versions=spec.former_versions,
        )
        for name, spec in specs().items()
    }


TASKS: Mapping[str, TaskScores] = _task_scores()
# Tasks whose scores are SimpleQA judge grades (judge agreement applies).
GRADED_TASKS = tuple(name for name, spec in specs().items() if spec.judged)
# simpleqa_scorer's value key holding 1.0 -> the grade.
GRADE_OF_VALUE_KEY = {key: grade for grade, key in GRADE_VALUE_KEYS.items()}


def task_key(task_name: str) -> str:
    """``benchmarks/triviaqa`` and ``triviaqa`` are the same task (how it was launched differs)."""
    return task_name.rsplit("/", 1)[-1]
