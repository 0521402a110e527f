"""Python API: ``describe_logs`` (one log) and ``compare_logs`` (paired, against a baseline),
each a pandas DataFrame (docs/compare.md, "Python")."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from benchmarks.compare import analysis
from benchmarks.compare.analysis import Settings
from benchmarks.compare.comparability import check_comparable, check_same_questions
from benchmarks.compare.logs import CompareError, LogsAt, TaskLog, logs_at
from benchmarks.compare.score_tables import Categories, ScoreTable, load_table
from benchmarks.spec import FloatArray

if TYPE_CHECKING:
    import pandas as pd


def pandas() -> Any:
    """pandas, or an error saying how to install it."""
    try:
        import pandas as pd
    except ImportError:
        raise CompareError('benchmarks.compare needs pandas: pip install -e ".[compare]"') from None
    return pd


def paired_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Rows of paired comparisons; the discordant counts integers, missing for a bootstrap."""
    return pandas().DataFrame(rows).astype({"baseline_only": "Int64", "candidate_only": "Int64"})


def describe_logs(
    path: str | Path, *, scorer: str | None = None, settings: Settings | None = None
) -> pd.DataFrame:
    """Every metric and every category's metrics of one log (or of each task and model's
    newest finished log in a folder), with intervals."""
    settings = settings or Settings()
    rows: list[dict[str, Any]] = []
    found = logs_at(str(path))
    notes: list[str] = list(found.notes)
    for (task, _), log in found.logs.items():
        table = load_table(log, scorer)
        if not table.ids:
            raise CompareError(f"{log.name}: no sample has a score.")
        notes.extend(table_notes(log, table))
        who = {"task": task, "log": log.name, "model": log.model}
        for row in analysis.describe(log.spec, table.values, table.categories, settings):
            rows.append({**who, **row})
    frame = pandas().DataFrame(rows)
    frame.attrs.update(notes=notes, pairing=[])
    return frame


def compare_logs(
    paths: Sequence[str | Path],
    *,
    scorer: str | None = None,
    settings: Settings | None = None,
    baseline_model: str | None = None,
) -> pd.DataFrame:
    """Each log (or folder of logs) after the first against the first, task by task, paired;
    with ``baseline_model``, the models of one folder (an eval set's) against that one."""
    settings = settings or Settings()
    if baseline_model is not None:
        if len(paths) != 1:
            raise CompareError(
                f"--baseline {baseline_model} compares the models within one folder; pass that one "
                f"folder (given: {len(paths)} locations)."
            )
        found = logs_at(str(paths[0]))
        arguments, runs = models_as_runs(found, baseline_model)
        notes: list[str] = list(found.notes)
    else:
        if len(paths) < 2:
            raise CompareError(
                "compare_logs needs a baseline and at least one other log; to compare the "
                "models within one folder, name the baseline model (--baseline MODEL)."
            )
        arguments = [str(path) for path in paths]
        found_at = [logs_at(argument) for argument in arguments]
        runs = [found.by_task() for found in found_at]
        notes = [note for found in found_at for note in found.notes]
    baseline_logs = runs[0]
    labels = log_labels(runs)
    tables: dict[str, ScoreTable] = {}
    rows: list[dict[str, Any]] = []
    pairing: list[dict[str, Any]] = []
    for argument, candidate_logs in zip(arguments[1:], runs[1:], strict=True):
        shared = [task for task in baseline_logs if task in candidate_logs]
        if not shared:
            only_a, only_b = next(iter(baseline_logs.values())), next(iter(candidate_logs.values()))
            check_comparable(only_a, only_b)  # raises: the tasks differ
        for task in sorted(candidate_logs.keys() - baseline_logs.keys()):
            notes.append(f"{argument}: no baseline log of task {task}; not compared.")
        for task in sorted(baseline_logs.keys() - candidate_logs.keys()):
            notes.append(f"{argument}: no log of task {task} to compare with the baseline's.")
        for task in shared:
            baseline, candidate = baseline_logs[task], candidate_logs[task]
            # under another scorer (a re-grading) the judges are those of that scorer
            check_comparable(baseline, candidate, same_judges=scorer is None)
            if baseline.location not in tables:
                tables[baseline.location] = load_table(baseline, scorer)
                notes.extend(table_notes(baseline, tables[baseline.location]))
            a, b = tables[baseline.location], load_table(candidate, scorer)
            notes.extend(table_notes(candidate, b))
            check_same_questions(baseline, a, candidate, b)
            counts, paired = pair(a, b)
            who = {
                "task": task,
                "baseline": labels[baseline.location],
                "candidate": labels[candidate.location],
            }
            pairing.append({**who, **counts})
            notes.append(pairing_note(task, baseline, candidate, counts))
            if counts["paired"] == 0:
                raise CompareError(
                    f"cannot compare {baseline.name} with {candidate.name}: no question is "
                    "scored in both."
                )
            for row in analysis.compare(baseline.spec, *paired, settings):
                rows.append({**who, **row})
    frame = paired_frame(rows)
    frame.attrs.update(notes=notes, pairing=pairing)
    return frame


def models_as_runs(found: LogsAt, baseline: str) -> tuple[list[str], list[dict[str, TaskLog]]]:
    """A folder's logs as one run per model, ``baseline``'s first (each a label and its
    logs by task)."""
    models = sorted({model for (_, model) in found.logs})
    if baseline not in models:
        raise CompareError(
            f"{found.argument}: holds no finished log of model {baseline}; pass one of "
            f"{', '.join(models)} to --baseline."
        )
    if len(models) < 2:
        raise CompareError(
            f"{found.argument}: holds logs of {baseline} only; pass a folder of several "
            "models' logs, or two logs to compare."
        )
    ordered = [baseline, *(model for model in models if model != baseline)]
    runs = [
        {task: log for (task, model), log in found.logs.items() if model == one} for one in ordered
    ]
    return [f"{found.argument} [{model}]" for model in ordered], runs


def pair(
    a: ScoreTable, b: ScoreTable
) -> tuple[dict[str, int], tuple[FloatArray, FloatArray, Categories]]:
    """Question counts, and the values in a and in b and the categories of the questions
    scored in both, row by row."""
    in_a, in_b = a.targets.keys(), b.targets.keys()
    shared = in_a & in_b
    unscored_a, unscored_b = shared & set(a.unscored), shared & set(b.unscored)
    row_of = {sample_id: row for row, sample_id in enumerate(b.ids)}
    paired = [(row, row_of[i]) for row, i in enumerate(a.ids) if i in row_of]
    counts = {
        "paired": len(paired),
        "baseline_only": len(in_a - in_b),
        "candidate_only": len(in_b - in_a),
        "unscored_baseline": len(unscored_a),
        "unscored_candidate": len(unscored_b),
    }
    rows_a, rows_b = np.array(paired, dtype=np.intp).reshape(-1, 2).T
    categories = {k: [v[r] for r in rows_a] for k, v in a.categories.items()}
    return counts, (a.values[rows_a], b.values[rows_b], categories)


def pairing_note(task: str, baseline: TaskLog, candidate: TaskLog, counts: dict[str, int]) -> str:
    a, b = baseline.file_name, candidate.file_name
    note = f"{task}: {counts['paired']} questions paired ({a} vs {b})"
    left_out = [
        f"{counts['baseline_only']} only in {a}" if counts["baseline_only"] else "",
        f"{counts['candidate_only']} only in {b}" if counts["candidate_only"] else "",
        f"{counts['unscored_baseline']} unscored in {a}" if counts["unscored_baseline"] else "",
        f"{counts['unscored_candidate']} unscored in {b}" if counts["unscored_candidate"] else "",
    ]
    left_out = [part for part in left_out if part]
    if left_out:
        note += "; left out of every number: " + ", ".join(left_out)
    return note + "."


def table_notes(log: TaskLog, table: ScoreTable) -> list[str]:
    name = log.file_name
    notes = []
    if table.unscored:
        shown = ", ".join(table.unscored[:5]) + (", ..." if len(table.unscored) > 5 else "")
        notes.append(
            f"{name}: {len(table.unscored)} question(s) with an error or without a score "
            f"in some epoch, left out: {shown}."
        )
    if table.judge_failures:
        notes.append(
            f"{name}: {table.judge_failures} judge failure(s): counted as questions, "
            "neither correct nor attempted."
        )
    if table.epochs > 1:
        notes.append(
            f"{name}: {table.epochs} epochs; each question scores the mean of its epochs "
            "(a proportion uses the exact binary methods only where every mean is 0 or 1)."
        )
    if log.header.status != "success":
        notes.append(f"{name}: the run did not finish (status {log.header.status}).")
    return notes


def log_labels(runs: list[dict[str, TaskLog]]) -> dict[str, str]:
    """A label per log: its model, or model and file name when two logs of a task share a model."""
    locations_of: dict[tuple[str, str], set[str]] = {}
    logs = [log for run in runs for log in run.values()]
    for log in logs:
        locations_of.setdefault((log.task, log.model), set()).add(log.location)
    return {
        log.location: log.model
        if len(locations_of[(log.task, log.model)]) == 1
        else f"{log.model} [{log.file_name}]"
        for log in logs
    }
