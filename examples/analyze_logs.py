"""Plots of benchmark results read from Inspect logs.

Reads a log directory with ``inspect_ai.analysis`` (``evals_df`` for the runs,
``samples_df`` for their samples) and writes PNG files:

- ``<name>_outcomes.png`` for each judged benchmark (``simpleqa_outcomes.png``,
  ``simpleqa_verified_outcomes.png``): the outcome mix (correct / incorrect / not
  attempted, and judge failures if any) per topic, one panel per model;
- ``scienceqa_breakdowns.png``: ScienceQA accuracy in the paper's columns
  (subject NAT/SOC/LAN, context TXT/IMG/NO, grade G1-6/G7-12), one bar per model;
- ``triviaqa_em_f1.png``: TriviaQA exact match next to token F1, per model.

Every benchmark's runs are read (``load_samples``: the benchmarks are the specs');
the benchmarks above have a plot of their own. Only the latest successful run of each
(benchmark, model) is used, so re-running a model replaces its earlier numbers. A plot
whose benchmark has no run in the logs is skipped with a note.

Needs the ``plots`` extra (``pip install -e ".[plots]"``):

    python examples/analyze_logs.py logs plots

The functions are importable (the quickstart notebook uses them):
``load_samples(log_dir)`` gives one row per sample with the columns
``benchmark`` and ``model``; each ``*_table`` function gives the numbers
behind a plot, and each ``plot_*`` function writes one PNG (or returns None).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from inspect_ai.analysis import evals_df, samples_df
from inspect_ai.scorer import value_to_float
from matplotlib.figure import Figure

from benchmarks.catalog import specs
from benchmarks.data.scienceqa import BREAKDOWNS as SCIENCEQA_COLUMNS
from benchmarks.data.scienceqa import paper_columns

# Every benchmark of the package, in listing order; the scorer of each from its spec.
BENCHMARKS = tuple(specs())
# Benchmarks graded by the SimpleQA judge: one outcome plot each.
JUDGED = tuple(name for name, spec in specs().items() if spec.judged)

SCIENCEQA_FILE = "scienceqa_breakdowns.png"
TRIVIAQA_FILE = "triviaqa_em_f1.png"

# Score value keys of the judged benchmarks' scorers, in stacking order, with their colours
# (a judged benchmark whose spec has another value key stops the outcome table).
SIMPLEQA_OUTCOMES = {
    "correct": ("correct", "#2e7d32"),
    "incorrect": ("incorrect", "#c62828"),
    "not_attempted": ("not attempted", "#9e9e9e"),
    "judge_failure": ("judge failure", "#6a1b9a"),
}

# The ScienceQA task's breakdown fields -> panel titles (the paper table's headers); their
# groups are the paper's columns, in its order (benchmarks.data.scienceqa.BREAKDOWNS).
SCIENCEQA_BREAKDOWNS = {
    "paper_subject": "Subject",
    "paper_context": "Context modality",
    "paper_grade": "Grade",
}
SCIENCEQA_GROUP_LABELS = {
    "NAT": "NAT\n(natural)",
    "SOC": "SOC\n(social)",
    "LAN": "LAN\n(language)",
    "TXT": "TXT\n(hint)",
    "IMG": "IMG\n(image)",
    "NO": "NO\n(neither)",
}

DPI = 120
_to_float = value_to_float()


# ---------------------------------------------------------------------------
# Reading the logs


def latest_runs(evals: pd.DataFrame) -> pd.DataFrame:
    """The latest successful run of each (benchmark, model), with a ``benchmark`` column.

    ``benchmark`` is the task name without a package prefix (``inspect eval
    benchmarks/triviaqa`` logs the task as ``benchmarks/triviaqa``).
    """
    columns = ["eval_id", "log", "benchmark", "model", "created"]
    if evals.empty:
        return pd.DataFrame(columns=columns)
    runs = evals.assign(benchmark=evals["task_name"].astype(str).str.rsplit("/", n=1).str[-1])
    runs = runs[runs["benchmark"].isin(BENCHMARKS)]
    unfinished = runs[runs["status"] != "success"]
    if len(unfinished):
        print(
            f"Ignoring {len(unfinished)} run(s) that did not finish successfully "
            f"(status {', '.join(sorted(unfinished['status'].astype(str).unique()))})."
        )
    runs = runs[runs["status"] == "success"].sort_values("created")
    latest = runs.drop_duplicates(["benchmark", "model"], keep="last")
    if len(latest) < len(runs):
        print(f"Using the latest of several runs for {len(runs) - len(latest)} older run(s).")
    return latest[columns].reset_index(drop=True)


def load_samples(logs: str | Path | Sequence[str | Path]) -> pd.DataFrame:
    """One row per sample of the latest successful run of each (benchmark, model).

    Columns are those of ``samples_df`` (``score_<scorer>``, ``metadata_<key>``,
    ...) plus ``benchmark`` and ``model``.
    """
    paths = [str(logs)] if isinstance(logs, (str, Path)) else [str(log) for log in logs]
    runs = latest_runs(evals_df(paths, quiet=True))
    if runs.empty:
        return pd.DataFrame(columns=["eval_id", "benchmark", "model"])
    samples = samples_df(runs["log"].tolist(), quiet=True)
    return samples.merge(runs[["eval_id", "benchmark", "model"]], on="eval_id", how="inner")


def benchmark_samples(samples: pd.DataFrame, benchmark: str, score_column: str) -> pd.DataFrame:
    """The scored samples of one benchmark; unscored samples are counted and reported."""
    rows = samples[samples["benchmark"] == benchmark]
    if rows.empty:
        return rows
    if score_column not in rows.columns:
        raise ValueError(
            f"The {benchmark} samples have no column {score_column!r} "
            f"(columns: {', '.join(rows.columns)})."
        )
    unscored = rows[score_column].isna()
    if unscored.any():
        print(f"{benchmark}: {int(unscored.sum())} sample(s) without a score are left out.")
    return rows[~unscored]


def score_column(benchmark: str) -> str:
    """The ``samples_df`` column of the benchmark's scorer."""
    return f"score_{specs()[benchmark].scorer}"


def _score_dict(value: Any) -> dict[str, float]:
    # samples_df stores dict-valued scores as JSON text.
    return value if isinstance(value, dict) else json.loads(value)


# ---------------------------------------------------------------------------
# Tables


def simpleqa_outcome_table(samples: pd.DataFrame, benchmark: str = "simpleqa") -> pd.DataFrame:
    """Share of each outcome of a judged benchmark (SimpleQA's by default) per (model,
    topic), and the sample count ``n``."""
    unknown = set(specs()[benchmark].value_keys) - set(SIMPLEQA_OUTCOMES)
    if unknown:
        raise ValueError(f"{benchmark}: no colour for the outcome(s) {', '.join(sorted(unknown))}")
    column = score_column(benchmark)
    rows = benchmark_samples(samples, benchmark, column)
    if rows.empty:
        return pd.DataFrame(columns=["model", "topic", *SIMPLEQA_OUTCOMES, "n"])
    outcomes = pd.DataFrame([_score_dict(value) for value in rows[column]], index=rows.index)[
        list(SIMPLEQA_OUTCOMES)
    ].astype(float)
    outcomes["model"] = rows["model"].astype(str)
    outcomes["topic"] = rows["metadata_topic"].astype(str)
    grouped = outcomes.groupby(["model", "topic"], sort=True)
    table = grouped[list(SIMPLEQA_OUTCOMES)].mean()
    table["n"] = grouped.size()
    return table.reset_index()


def scienceqa_accuracy_table(samples: pd.DataFrame) -> pd.DataFrame:
    """ScienceQA accuracy per (model, breakdown, group) and the sample count ``n``.

    ``breakdown`` is ``paper_subject``, ``paper_context`` or ``paper_grade``, ``group``
    one of the paper's columns (``NAT`` ... ``G7-12``), in the paper's order; a
    question with a hint and an image counts in TXT and in IMG. The columns are
    derived from the sample's ``subject``, ``has_hint``, ``has_image`` and ``grade``,
    which every task version records.
    """
    columns = ["model", "breakdown", "group", "accuracy", "n"]
    column = score_column("scienceqa")
    rows = benchmark_samples(samples, "scienceqa", column)
    if rows.empty:
        return pd.DataFrame(columns=columns)
    correct = rows[column].map(_to_float).astype(float)
    of_row = [
        paper_columns(str(subject), _is_true(hint), _is_true(image), str(grade))
        for subject, hint, image, grade in zip(
            rows["metadata_subject"],
            rows["metadata_has_hint"],
            rows["metadata_has_image"],
            rows["metadata_grade"],
            strict=True,
        )
    ]
    records = []
    for breakdown in SCIENCEQA_BREAKDOWNS:
        for model in sorted(rows["model"].astype(str).unique()):
            of_model = (rows["model"] == model).tolist()
            for group in SCIENCEQA_COLUMNS[breakdown]:
                selected = [
                    value
                    for value, in_model, paper in zip(correct, of_model, of_row, strict=True)
                    if in_model and _counts_in(paper[breakdown], group)
                ]
                if selected:
                    records.append(
                        (model, breakdown, group, sum(selected) / len(selected), len(selected))
                    )
    return pd.DataFrame(records, columns=columns)


def _is_true(value: Any) -> bool:
    # samples_df may give a metadata boolean as a bool or as its text
    return value is True or str(value).lower() == "true"


def _counts_in(value: Any, group: str) -> bool:
    return group in value if isinstance(value, list) else value == group


def triviaqa_match_table(samples: pd.DataFrame) -> pd.DataFrame:
    """TriviaQA mean exact match and mean token F1 per model, and the sample count ``n``."""
    column = score_column("triviaqa")
    rows = benchmark_samples(samples, "triviaqa", column)
    if rows.empty:
        return pd.DataFrame(columns=["model", "exact_match", "f1", "n"])
    values = pd.DataFrame([_score_dict(value) for value in rows[column]], index=rows.index)[
        ["exact_match", "f1"]
    ].astype(float)
    values["model"] = rows["model"].astype(str)
    grouped = values.groupby("model", sort=True)
    table = grouped[["exact_match", "f1"]].mean()
    table["n"] = grouped.size()
    return table.reset_index()


# ---------------------------------------------------------------------------
# Plots


def plot_simpleqa_outcomes(
    samples: pd.DataFrame, out_dir: str | Path, benchmark: str = "simpleqa"
) -> Path | None:
    """Stacked bars of a judged benchmark's outcome mix per topic, one panel per model."""
    table = simpleqa_outcome_table(samples, benchmark)
    title, file_name = specs()[benchmark].title, f"{benchmark}_outcomes.png"
    if table.empty:
        _note_skipped(title, file_name)
        return None
    models = sorted(table["model"].unique())
    topics = sorted(table["topic"].unique(), reverse=True)  # top-to-bottom alphabetical
    shown = [key for key in SIMPLEQA_OUTCOMES if key != "judge_failure" or table[key].any()]
    figure = Figure(
        figsize=(2.5 + 4.0 * len(models), 2.0 + 0.42 * len(topics)), layout="constrained"
    )
    axes = figure.subplots(1, len(models), sharey=True, squeeze=False)[0]
    for ax, model in zip(axes, models, strict=True):
        of_model = table[table["model"] == model].set_index("topic").reindex(topics)
        left = pd.Series(0.0, index=topics)
        for key in shown:
            label, colour = SIMPLEQA_OUTCOMES[key]
            share = of_model[key].fillna(0.0)
            bars = ax.barh(topics, share, left=left, color=colour, label=label, height=0.7)
            ax.bar_label(
                bars,
                labels=[f"{value:.0%}" if value >= 0.08 else "" for value in share],
                label_type="center",
                color="white",
                fontsize=8,
            )
            left += share
        counts = of_model["n"].fillna(0).astype(int)
        ax.set_yticks(range(len(topics)), [f"{t} (n={counts[t]})" for t in topics])
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of questions")
        ax.set_title(model, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    figure.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=len(shown))
    figure.suptitle(f"{title} outcomes per topic")
    return _save(figure, out_dir, file_name)


def plot_scienceqa_breakdowns(samples: pd.DataFrame, out_dir: str | Path) -> Path | None:
    """Bars of ScienceQA accuracy in the paper's columns, one per model."""
    table = scienceqa_accuracy_table(samples)
    if table.empty:
        _note_skipped("ScienceQA", SCIENCEQA_FILE)
        return None
    overall = _overall_accuracy(samples)
    models = sorted(table["model"].unique())
    width = 0.8 / len(models)
    figure = Figure(figsize=(12, 4.8), layout="constrained")
    axes = figure.subplots(1, len(SCIENCEQA_BREAKDOWNS), sharey=True)
    colours = _model_colours(len(models))
    for ax, (breakdown, title) in zip(axes, SCIENCEQA_BREAKDOWNS.items(), strict=True):
        part = table[table["breakdown"] == breakdown]
        groups = list(dict.fromkeys(part["group"]))
        for index, model in enumerate(models):
            of_model = part[part["model"] == model].set_index("group").reindex(groups)
            positions = [g + (index - (len(models) - 1) / 2) * width for g in range(len(groups))]
            bars = ax.bar(
                positions,
                of_model["accuracy"].fillna(0.0),
                width=width,
                color=colours[index],
                label=f"{model} (overall {overall[model]:.2f})" if model in overall else model,
            )
            ax.bar_label(
                bars,
                labels=["" if pd.isna(v) else f"{v:.2f}" for v in of_model["accuracy"]],
                fontsize=8,
                padding=2,
            )
        counts = part.groupby("group")["n"].max()
        ax.set_xticks(
            range(len(groups)),
            [f"{SCIENCEQA_GROUP_LABELS.get(g, g)}\nn={counts[g]}" for g in groups],
            fontsize=9,
        )
        ax.set_ylim(0, 1.1)
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("accuracy")
    figure.legend(
        *axes[0].get_legend_handles_labels(),
        loc="outside lower center",
        ncol=min(len(models), 3),
    )
    figure.suptitle(
        "ScienceQA accuracy in the paper's columns (a question with a hint and an "
        "image counts in TXT and IMG)"
    )
    return _save(figure, out_dir, SCIENCEQA_FILE)


def plot_triviaqa_em_f1(samples: pd.DataFrame, out_dir: str | Path) -> Path | None:
    """Exact match next to token F1 for each model (the gap is partial credit)."""
    table = triviaqa_match_table(samples)
    if table.empty:
        _note_skipped("TriviaQA", TRIVIAQA_FILE)
        return None
    figure = Figure(figsize=(max(5.0, 1.6 + 1.8 * len(table)), 4.6), layout="constrained")
    ax = figure.subplots()
    positions = range(len(table))
    for offset, key, label, colour in (
        (-0.2, "exact_match", "exact match", "#1565c0"),
        (0.2, "f1", "token F1", "#ef6c00"),
    ):
        bars = ax.bar([p + offset for p in positions], table[key], 0.4, label=label, color=colour)
        ax.bar_label(bars, fmt="%.2f", fontsize=9, padding=2)
    ax.set_xticks(
        list(positions),
        [f"{model}\nn={n}" for model, n in zip(table["model"], table["n"], strict=True)],
        fontsize=9,
    )
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("mean over questions")
    ax.grid(axis="y", alpha=0.3)
    figure.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=2)
    ax.set_title("TriviaQA: exact match vs token F1")
    return _save(figure, out_dir, TRIVIAQA_FILE)


def plot_all(samples: pd.DataFrame, out_dir: str | Path) -> list[Path]:
    """Every plot the samples allow; returns the files written."""
    written = [plot_simpleqa_outcomes(samples, out_dir, benchmark) for benchmark in JUDGED]
    written += [plot(samples, out_dir) for plot in (plot_scienceqa_breakdowns, plot_triviaqa_em_f1)]
    return [path for path in written if path is not None]


def _overall_accuracy(samples: pd.DataFrame) -> dict[str, float]:
    column = score_column("scienceqa")
    rows = benchmark_samples(samples, "scienceqa", column)
    correct = rows[column].map(_to_float).astype(float)
    return correct.groupby(rows["model"].astype(str)).mean().to_dict()


def _model_colours(count: int) -> list[str]:
    palette = ["#1565c0", "#ef6c00", "#2e7d32", "#c62828", "#6a1b9a", "#00838f", "#5d4037"]
    return [palette[i % len(palette)] for i in range(count)]


def _note_skipped(benchmark: str, file_name: str) -> None:
    print(f"No {benchmark} run in the logs: {file_name} not written.")


def _save(figure: Figure, out_dir: str | Path, file_name: str) -> Path:
    path = Path(out_dir) / file_name
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=DPI, bbox_inches="tight")
    print(f"Wrote {path}")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("log_dir", help="folder of Inspect logs (or a log file)")
    parser.add_argument("out_dir", help="folder the PNG files are written to")
    args = parser.parse_args(argv)
    if "://" not in args.log_dir and not Path(args.log_dir).exists():
        print(f"{args.log_dir}: no such file or directory.", file=sys.stderr)
        return 2
    samples = load_samples(args.log_dir)
    if samples.empty:
        print(
            f"{args.log_dir}: no successful run of {', '.join(BENCHMARKS)} found.",
            file=sys.stderr,
        )
        return 1
    plot_all(samples, args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
