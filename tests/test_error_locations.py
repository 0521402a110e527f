"""Every error about a row of a data file names the row the same way: the 1-based line of
the file (JSON Lines; CSV, whose header is line 1, and where a quoted field may span
lines), or, for a file without lines (parquet), ``row n`` counted from 1."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from benchmarks.data.rows import Rows, SplitRequest, read_split
from benchmarks.runtime.errors import DataError
from benchmarks.simpleqa import simpleqa
from benchmarks.winogrande import winogrande

ROWS = [
    {"sentence": "Ann beat Bo\nso _ won.", "option1": "Ann", "option2": "Bo", "answer": "1"},
    {"sentence": "Ann beat Bo so _ lost.", "option1": "", "option2": "Bo", "answer": "2"},
]
EMPTY_OPTION = "field 'option1' is empty"


def write_rows(path: Path, rows: list[dict[str, str]]) -> Path:
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    elif path.suffix == ".csv":
        with path.open("w", encoding="utf-8", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
    else:
        pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def winogrande_error(path: Path) -> str:
    with pytest.raises(DataError) as raised:
        list(winogrande(data_files=str(path)).dataset)
    return str(raised.value)


@pytest.mark.parametrize(
    ("name", "rows", "place"),
    [
        ("v.jsonl", ROWS, "line 2"),
        # the header is line 1, and the first row's quoted sentence spans lines 2 and 3
        ("v.csv", ROWS, "line 4"),
        (
            "v.csv",
            [{**row, "sentence": row["sentence"].replace("\n", " ")} for row in ROWS],
            "line 3",
        ),
        ("v.parquet", ROWS, "row 2"),  # no lines: the row, counted from 1
    ],
)
def test_a_bad_row_is_named_by_its_line(
    tmp_path: Path, name: str, rows: list[dict[str, str]], place: str
) -> None:
    path = write_rows(tmp_path / name, rows)
    assert winogrande_error(path) == f"{path} (validation split), {place}: {EMPTY_OPTION}"
    if place.startswith("line "):  # the line named is where the bad row starts
        line = path.read_text(encoding="utf-8").split("\n")[int(place.split()[1]) - 1]
        assert "lost" in line and "won" not in line


def test_blank_lines_are_counted_as_an_editor_counts_them(tmp_path: Path) -> None:
    path = tmp_path / "v.jsonl"
    path.write_text("\n" + json.dumps(ROWS[0]) + "\n\n" + json.dumps(ROWS[1]) + "\n")
    assert winogrande_error(path) == f"{path} (validation split), line 4: {EMPTY_OPTION}"


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_simpleqa_names_the_same_line_as_the_other_readers(tmp_path: Path, suffix: str) -> None:
    rows = [
        {"metadata": "{'topic': 'Art'}", "problem": "Q1\nstill Q1?", "answer": "A"},
        {"metadata": "{'topic': 'Art'}", "problem": "Q2\nstill Q2?", "answer": ""},
    ]
    path = write_rows(tmp_path / f"s{suffix}", rows)
    with pytest.raises(DataError) as raised:
        simpleqa(data_files=str(path))
    line = 4 if suffix == ".csv" else 2
    assert str(raised.value) == f"{path}, line {line}: field 'answer' is empty."
    assert rows_of(path).at(1) == f"{path} (validation split), line {line}"


def rows_of(path: Path) -> Rows:
    request = SplitRequest("t", "hub/t", None, None, "validation", None, str(path), ())
    return read_split(request)


def test_places_of_each_kind_of_source(tmp_path: Path) -> None:
    array = tmp_path / "a.json"
    array.write_text(json.dumps(ROWS))
    lines = write_rows(tmp_path / "l.jsonl", ROWS).rename(tmp_path / "l.json")
    table = write_rows(tmp_path / "t.parquet", ROWS)
    assert rows_of(array).at(0) == f"{array} (validation split), row 1"
    assert rows_of(lines).at(1) == f"{lines} (validation split), line 2"
    assert rows_of(table).at(1) == f"{table} (validation split), row 2"
