"""Rendering results: an aligned plain-text table (fits 100 columns), markdown, JSON or CSV."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from benchmarks.compare.analysis import ALL, NEWCOMBE_MCNEMAR, OVERALL
from benchmarks.compare.api import pandas

if TYPE_CHECKING:
    import pandas as pd

    from benchmarks.compare.judges import JudgeAgreement

FORMATS = ("text", "markdown", "json", "csv")
WIDTH = 100
GROUP_WIDTH = 32
FLAG = "!"
LEGEND = (
    f"{FLAG} too few to tell: fewer than 30 questions, or fewer than 10 discordant pairs "
    "(the warning column of --format csv/json says which)."
)
METHOD_NOTES = {
    "compare": "diff = candidate - baseline. Proportions: Newcombe (1998) hybrid score 95% CI, "
    "McNemar exact p, discordant pairs as baseline-only/candidate-only correct; other "
    "metrics: paired bootstrap percentile CI and p. p Holm: adjusted across the categories "
    "of one breakdown.",
    "describe": "Proportions: Wilson (1927) 95% CI; other metrics: bootstrap percentile 95% CI.",
}


def missing(value: Any) -> bool:
    """None, NaN or pandas.NA."""
    return bool(pandas().isna(value))


def number(value: Any, sign: bool = False) -> str:
    if missing(value):
        return "-"
    return f"{value:+.3f}" if sign else f"{value:.3f}"


def interval_text(low: Any, high: Any, sign: bool = False) -> str:
    if missing(low) or missing(high):
        return "-"
    return f"[{number(low, sign=sign)}, {number(high, sign=sign)}]"


def p_text(value: Any) -> str:
    if missing(value):
        return "-"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def group_label(row: dict[str, Any]) -> str:
    label = ALL if row["breakdown"] == OVERALL else f"{row['breakdown']}={row['category']}"
    return label if len(label) <= GROUP_WIDTH else label[: GROUP_WIDTH - 3] + "..."


def aligned(headers: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    """Columns padded to their widest cell; the first ``left`` columns left-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(width) if i < left else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(headers), *(line(r) for r in rows)]


COMPARISON_HEADERS = ("n", "base", "cand", "diff", "95% CI", "p", "p Holm", "b/c")
DESCRIPTION_HEADERS = ("n", "value", "95% CI")


def tables_text(frame: pd.DataFrame, kind: str) -> list[str]:
    """A section per run, a table per metric, a row per group."""
    compare = kind == "compare"
    lines: list[str] = []
    runs = ["task", "baseline", "candidate"] if compare else ["task", "log", "model"]
    for (task, first, second), part in frame.groupby(runs, sort=False):
        title = f"{second} vs {first} (baseline)" if compare else f"{second} ({first})"
        lines += ["", f"== {task}: {title} =="]
        for (metric,), rows in part.groupby(["metric"], sort=False):
            records = rows.to_dict("records")
            method = str(records[0]["method"])
            if compare:
                method = "proportion" if method == NEWCOMBE_MCNEMAR else "bootstrap"
            lines += ["", f"{metric} ({method})"]
            table = [
                ["  " + group_label(r), *cells(r, compare), FLAG if r["warning"] else ""]
                for r in records
            ]
            headers = COMPARISON_HEADERS if compare else DESCRIPTION_HEADERS
            lines += aligned(["  group", *headers, ""], table)
    return lines


def cells(row: dict[str, Any], compare: bool) -> list[str]:
    if not compare:
        return [str(row["n"]), number(row["value"]), interval_text(row["ci_low"], row["ci_high"])]
    a, b = row["baseline_only"], row["candidate_only"]
    return [
        str(row["n"]),
        number(row["baseline_value"]),
        number(row["candidate_value"]),
        number(row["difference"], sign=True),
        interval_text(row["ci_low"], row["ci_high"], sign=True),
        p_text(row["p_value"]),
        p_text(row["p_holm"]),
        "-" if missing(a) or missing(b) else f"{int(a)}/{int(b)}",
    ]


def render(frame: pd.DataFrame, kind: str, fmt: str) -> str:
    """A comparison (kind ``compare``) or a description (``describe``) in format ``fmt``."""
    notes: list[str] = list(frame.attrs.get("notes", []))
    if fmt == "json":
        return json_text(
            {"rows": records(frame), "notes": notes, "pairing": frame.attrs.get("pairing", [])}
        )
    if fmt == "csv":
        return str(frame.to_csv(index=False))
    if fmt == "markdown":
        parts = [markdown_table(frame), *(f"- {note}" for note in notes), METHOD_NOTES[kind]]
        return "\n\n".join(parts) + "\n"
    prose = [*notes, *tables_text(frame, kind), "", METHOD_NOTES[kind]]
    if frame["warning"].astype(bool).any():
        prose.append(LEGEND)
    return text(prose)


def text(lines: list[str]) -> str:
    """The lines, those longer than ``WIDTH`` (notes naming long log files) folded at spaces."""
    folded: list[str] = []
    for line in lines:
        folded += (
            textwrap.wrap(line, WIDTH, subsequent_indent="  ") if len(line) > WIDTH else [line]
        )
    return "\n".join(folded).lstrip("\n") + "\n"


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as JSON-ready dicts (NaN and pandas.NA become None)."""
    return [
        {key: None if missing(value) else value for key, value in row.items()}
        for row in frame.astype(object).to_dict("records")
    ]


def json_text(data: Any) -> str:
    # numpy scalars (int64, float64, bool_), as older pandas leave them in the records
    return json.dumps(data, indent=2, default=lambda value: value.item()) + "\n"


def markdown_table(frame: pd.DataFrame) -> str:
    if frame.empty:
        return "(no rows)"
    rows = records(frame)
    headers = list(frame.columns)

    def cell(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, float):
            return f"{value:.4g}"
        return str(value).replace("|", "\\|")

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(r[h]) for h in headers) + " |" for r in rows]
    return "\n".join(lines)


def judges_render(result: JudgeAgreement, fmt: str) -> str:
    """Judge agreement: summary, confusion of grades, metric moves, disagreeing answers."""
    if fmt == "json":
        return json_text(
            {
                "summary": records(result.summary),
                "confusion": {k: v.to_dict("index") for k, v in result.confusion.items()},
                "metrics": records(result.metrics),
                "disagreements": records(result.disagreements),
                "fleiss_kappa": result.fleiss_kappa,
                "notes": result.notes,
            }
        )
    if fmt == "csv":
        return str(result.disagreements.to_csv(index=False))
    if fmt == "markdown":
        parts = ["## Agreement", markdown_table(result.summary)]
        for key, table in result.confusion.items():
            parts += [
                f"## Grades: {key} (rows: first, columns: second)",
                markdown_table(table.reset_index(names="first")),
            ]
        parts += [
            "## How the metrics move",
            markdown_table(result.metrics),
            "## Disagreements",
            markdown_table(result.disagreements),
        ]
        parts += [f"- {note}" for note in result.notes]
        return "\n\n".join(parts) + "\n"
    lines = [*result.notes]
    for row in records(result.summary):
        lines += [
            "",
            f"== judges: {row['first']} vs {row['second']} ==",
            f"{row['answers']} answers graded by both; agreement {row['agreement']:.1%}, "
            f"Cohen's kappa {number(row['kappa'])}, {row['disagreements']} disagreement(s).",
        ]
    if result.fleiss_kappa is not None:
        lines.append(f"Fleiss' kappa over all gradings: {number(result.fleiss_kappa)}")
    for key, table in result.confusion.items():
        lines += ["", f"grades, {key} (rows: first, columns: second)"]
        cells = [[grade, *(str(v) for v in table.loc[grade])] for grade in table.index]
        lines += aligned(["", *table.columns], cells)
    lines += ["", "How the metrics move (first grading = baseline):"]
    lines += tables_text(result.metrics, "compare")
    if not result.disagreements.empty:
        lines += ["", "Answers graded differently:"]
        rows = [
            [
                str(r["id"]),
                str(r["epoch"]),
                f"{r['first_grade']} -> {r['second_grade']}",
                _short(r["answer"], 30),
                _short(r["target"], 24),
            ]
            for r in records(result.disagreements)
        ]
        lines += aligned(["id", "epoch", "grades", "answer", "target"], rows, left=5)
    lines += ["", METHOD_NOTES["compare"]]
    return text(lines)


def _short(text: Any, width: int) -> str:
    value = " ".join(str(text).split()) if text is not None else ""
    return value if len(value) <= width else value[: width - 3] + "..."
