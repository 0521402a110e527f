"""Where a row is, as an error names it: the line of its file, or its position.

Every message about a row of a data file names it the same way:

- a JSON Lines file (``.jsonl``, or a ``.json`` file of lines): ``line n``, the
  1-based line of the file that holds the row (blank lines are skipped by the
  reader and counted here, so ``n`` is what an editor shows);
- a CSV file: ``line n``, the 1-based line where the row starts; the header is
  line 1, so the first data row is line 2, and a quoted field that spans lines
  moves the later rows down (counted as Python's ``csv`` reads the file);
- a file or split without lines (parquet, a JSON array, a Hub dataset, a
  snapshot folder): ``row n``, 1-based, the header of a parquet file not counted.

A row's line is read from the file only when an error names it.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

# ``row`` is the position the data reader gives (0-based); ``line`` its file's line.
LINE_SUFFIXES = (".jsonl", ".json", ".csv")


@dataclass(frozen=True)
class RowPlaces:
    """How the errors about one split's rows name a row: by the lines of ``file`` (a JSON
    Lines or CSV file), by ``lines`` (each row's line, known when the file was read),
    or by 1-based position."""

    file: str | None = None
    lines: tuple[int, ...] = ()

    def place(self, row: int) -> str:
        """``line n`` of the file holding row ``row`` (0-based), else ``row n`` (1-based)."""
        if row < len(self.lines):
            return f"line {self.lines[row]}"
        if self.file is not None:
            line = line_of_row(Path(self.file), row)
            if line is not None:
                return f"line {line}"
        return f"row {row + 1}"


def places_for(path: Path | None) -> RowPlaces:
    """The numbering of a local data file's rows (None: a Hub or snapshot split)."""
    if path is None or path.suffix.lower() not in LINE_SUFFIXES:
        return RowPlaces()
    if path.suffix.lower() == ".json" and _is_json_array(path):
        return RowPlaces()
    return RowPlaces(str(path))


def line_of_row(path: Path, row: int) -> int | None:
    """The 1-based line where row ``row`` (0-based) of a JSON Lines or CSV file starts;
    None when the file no longer holds that row."""
    try:
        if path.suffix.lower() == ".csv":
            return _csv_line(path, row)
        return _jsonl_line(path, row)
    except (OSError, UnicodeDecodeError, csv.Error):
        return None


def _jsonl_line(path: Path, row: int) -> int | None:
    seen = -1
    with path.open("rb") as file:
        # JSON Lines are split on "\n" alone (a string may hold other line breaks)
        for number, line in enumerate(file, start=1):
            if line.strip():
                seen += 1
                if seen == row:
                    return number
    return None


def _csv_line(path: Path, row: int) -> int | None:
    limit = csv.field_size_limit(2**31 - 1)  # the readers here take fields of any size
    try:
        return _csv_start_line(path, row)
    finally:
        csv.field_size_limit(limit)


def _csv_start_line(path: Path, row: int) -> int | None:
    with path.open(encoding="utf-8-sig", newline="") as file:
        reader = csv.reader(file)
        if next(reader, None) is None:  # the header
            return None
        seen = -1
        start = reader.line_num + 1
        for record in reader:
            if record:  # a blank line is no row
                seen += 1
                if seen == row:
                    return start
            start = reader.line_num + 1
    return None


def _is_json_array(path: Path) -> bool:
    with path.open("rb") as file:
        head = file.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"[")
