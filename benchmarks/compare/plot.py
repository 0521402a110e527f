"""Forest plot of a comparison's differences (or a description's values) with their intervals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchmarks.compare.logs import CompareError
from benchmarks.compare.report import group_label

if TYPE_CHECKING:
    import pandas as pd

DPI = 120
ROW_INCHES = 0.28
CONFIDENT_COLOUR = "#1565c0"
TOO_SMALL_COLOUR = "#9e9e9e"


def forest_plot(frame: pd.DataFrame, path: str, *, kind: str) -> None:
    """One row per (comparison, metric, group): the estimate (``kind`` ``compare``: candidate -
    baseline, around a line at 0; ``describe``: the value) and its 95% interval; grey if too
    small."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CompareError('the forest plot needs matplotlib: pip install -e ".[plots]"') from None
    if frame.empty:
        raise CompareError("nothing to plot: the result has no rows.")
    estimate = "difference" if kind == "compare" else "value"
    who = ["baseline", "candidate"] if kind == "compare" else ["model"]
    rows = frame.to_dict("records")
    several_runs = len(frame[["task", *who]].drop_duplicates()) > 1
    labels = [
        f"{r['task']} {' vs '.join(str(r[w]) for w in reversed(who))}: "
        f"{r['metric']} {group_label(r)}"
        if several_runs
        else f"{r['metric']}  {group_label(r)}"
        for r in rows
    ]
    figure = Figure(figsize=(9.0, 1.2 + ROW_INCHES * len(rows)), layout="constrained")
    ax = figure.subplots()
    positions = list(range(len(rows)))[::-1]  # first row on top
    for y, row in zip(positions, rows, strict=True):
        colour = TOO_SMALL_COLOUR if row["warning"] else CONFIDENT_COLOUR
        ax.plot([row["ci_low"], row["ci_high"]], [y, y], color=colour, linewidth=2)
        ax.plot([row[estimate]], [y], "o", color=colour, markersize=5)
    if kind == "compare":
        ax.axvline(0.0, color="black", linewidth=0.8)
        first = rows[0]
        ax.set_xlabel(f"difference, {first['candidate']} - {first['baseline']} (95% CI)")
    else:
        ax.set_xlabel("value (95% CI)")
    ax.set_yticks(positions, labels, fontsize=8)
    ax.set_ylim(-0.8, len(rows) - 0.2)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("grey: too few questions or discordant pairs to tell", fontsize=9)
    figure.savefig(path, dpi=DPI)
