"""The log viewer heads the metrics that return several values with readable names, and a
log written before the renaming is re-scored as before.

Inspect records such a metric's registered name as the group of its values
(``EvalMetric.group``), which the viewer's "All scoring..." dialog shows over them. The
metrics were registered as ``simpleqa_metrics``, ``grouped_statistic``,
``judge_panel_metrics``, ``paper_column_accuracy`` and ``triviaqa_metrics``; logs of that
time record those names, and ``inspect score`` (Inspect's ``score()``) re-creates a log's
task metrics by the recorded names.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval, score
from inspect_ai.log import EvalLog

from benchmarks.scorers.judge import simpleqa_scorer
from benchmarks.simpleqa import simpleqa
from tests.scripted import scripted_model
from tests.test_examples import SIMPLEQA_CSV, careful_reply, judge_reply

# The registered names of the metrics before the renaming, by their names now.
FORMER_NAMES = {
    "benchmarks/SimpleQA statistics": "benchmarks/simpleqa_metrics",
    "benchmarks/Topic breakdown": "benchmarks/grouped_statistic",
    "benchmarks/Judge panel": "benchmarks/judge_panel_metrics",
    "benchmarks/Accuracy by paper column": "benchmarks/paper_column_accuracy",
    "benchmarks/TriviaQA statistics": "benchmarks/triviaqa_metrics",
}


def simpleqa_run(log_dir: Path) -> EvalLog:
    [log] = eval(
        simpleqa(dataset_path=SIMPLEQA_CSV),
        model=scripted_model(careful_reply, name="careful"),
        model_roles={"grader": scripted_model(judge_reply, name="fair")},
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success" and log.results is not None
    return log


def values(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    [scores] = log.results.scores
    return {name: metric.value for name, metric in scores.metrics.items()}


def as_written_before(log: EvalLog) -> EvalLog:
    """``log`` with the metric names a log of the former names records."""
    former = log.model_copy(deep=True)

    def renamed(definition: Any) -> Any:
        return definition.model_copy(update={"name": FORMER_NAMES[definition.name]})

    assert isinstance(former.eval.metrics, list)
    former.eval.metrics = [renamed(m) for m in former.eval.metrics]  # type: ignore[arg-type]
    for scorer in former.eval.scorers or []:
        assert isinstance(scorer.metrics, list)
        scorer.metrics = [renamed(m) for m in scorer.metrics]  # type: ignore[arg-type]
    assert former.results is not None
    for eval_score in former.results.scores:
        for metric in eval_score.metrics.values():
            if metric.group is not None:
                metric.group = FORMER_NAMES[f"benchmarks/{metric.group}"].split("/")[1]
    return former


@pytest.fixture(scope="module")
def simpleqa_log(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    return simpleqa_run(tmp_path_factory.mktemp("names"))


def test_the_viewer_heads_simpleqas_values_with_readable_names(simpleqa_log: EvalLog) -> None:
    assert simpleqa_log.results is not None
    [scores] = simpleqa_log.results.scores
    groups = {name: metric.group for name, metric in scores.metrics.items()}
    assert groups["attempted_accuracy"] == "SimpleQA statistics"
    assert groups["accuracy[Topic=Politics]"] == "Topic breakdown"
    assert groups["abstention_rate[Topic=Sports]"] == "Topic breakdown"
    assert groups["judge_failures"] == "SimpleQA statistics"
    assert {metric.name for metric in simpleqa_log.eval.metrics or []} == {  # type: ignore[union-attr]
        "benchmarks/SimpleQA statistics",
        "benchmarks/Topic breakdown",
        "benchmarks/Judge panel",
    }


def test_a_log_with_the_former_names_is_rescored_to_the_same_values(
    simpleqa_log: EvalLog,
) -> None:
    before = as_written_before(simpleqa_log)
    assert {m.name for m in before.eval.metrics or []} == {  # type: ignore[union-attr]
        "benchmarks/simpleqa_metrics",
        "benchmarks/grouped_statistic",
        "benchmarks/judge_panel_metrics",
    }
    rescored = score(
        before,
        simpleqa_scorer(),
        model_roles={"grader": scripted_model(judge_reply, name="fair")},
        action="overwrite",
        display="none",
    )
    assert rescored.status == "success"
    assert values(rescored) == values(simpleqa_log)
    assert "attempted_accuracy[Topic=Politics]" in values(rescored)


@pytest.mark.parametrize("name", sorted(FORMER_NAMES))
def test_each_former_name_is_registered_to_the_same_function(name: str) -> None:
    # the same factory under both names: a metric re-created by the former name computes
    # what the metric under the new one does
    from inspect_ai._util.registry import registry_lookup

    now, former = (registry_lookup("metric", n) for n in (name, FORMER_NAMES[name]))
    assert now is not former
    assert factory(now) is factory(former)


def factory(registered: Any) -> Any:
    """The function ``@metric`` registered (its wrapper calls it)."""
    return inspect.getclosurevars(registered).nonlocals["metric_type"]
