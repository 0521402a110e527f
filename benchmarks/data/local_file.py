"""Read one local data file (``.jsonl``, ``.json``, ``.parquet`` or ``.csv``) into rows.

A file that cannot be one table fails with a ``DataError`` naming the file and, where it can,
the line or row and the field at fault (datasets' own errors name neither).
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.runtime.errors import DataError
from benchmarks.runtime.lazy_modules import LazyModule

if TYPE_CHECKING:
    import datasets
else:
    datasets = LazyModule("datasets")

FILE_BUILDERS = {".jsonl": "json", ".json": "json", ".parquet": "parquet", ".csv": "csv"}


def load_local_file(path: Path, *, split: str = "train") -> datasets.Dataset:
    """Read one local data file, choosing the reader by its extension."""
    builder = FILE_BUILDERS.get(path.suffix.lower())
    if builder is None:
        raise DataError(
            f"{path}: unsupported file type {path.suffix!r}; use one of {', '.join(FILE_BUILDERS)}."
        )
    if not path.is_file():
        raise DataError(f"{path}: no such file.")
    if path.stat().st_size == 0:
        raise DataError(f"{path}: the file is empty.")
    if builder in ("json", "csv"):
        check_utf8(path)
    options: dict[str, Any] = {}
    if builder == "json":
        # By default datasets re-encodes a column whose rows disagree in type as
        # JSON text, silently changing the good rows too; fail instead.
        options["on_mixed_types"] = None
    if builder == "csv":
        # CSV cells are text (answers "1"/"2" must not become numbers); empty stays "".
        options["features"] = datasets.Features(
            {name: datasets.Value("string") for name in _csv_header(path)}
        )
        options["na_filter"] = False
    try:
        with _quiet_datasets():
            loaded = datasets.load_dataset(
                builder, data_files={split: str(path)}, split=split, **options
            )
    except Exception as ex:  # noqa: BLE001 - rewrapped with the file name below
        if _has_no_rows(ex):
            raise DataError(f"{path}: the file holds no rows.") from ex
        problem = _json_problem(path) if builder == "json" else None
        raise DataError(
            f"{path}: could not be read as {builder}: {problem or _root_cause(ex)}"
        ) from ex
    assert isinstance(loaded, datasets.Dataset)
    if len(loaded) == 0:
        raise DataError(f"{path}: the file holds no rows.")
    return loaded


@contextlib.contextmanager
def _quiet_datasets() -> Iterator[None]:
    """No row-count progress bars for a local file, and no reader error logged (datasets
    logs it, in pyarrow's words, before raising it; the raised error becomes ours, naming
    the file and line, so it is said once)."""
    verbosity = datasets.logging.get_verbosity()  # imports datasets, which sets its level
    bars_were_on = not datasets.utils.are_progress_bars_disabled()
    datasets.logging.set_verbosity(logging.CRITICAL)
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        datasets.logging.set_verbosity(verbosity)
        if bars_were_on:
            datasets.enable_progress_bars()


def check_utf8(path: Path, chunk_bytes: int = 1 << 22) -> None:
    """Fail, naming the line, when a text file is not valid UTF-8.

    pyarrow's JSON reader accepts invalid bytes and fails later, when the row
    is read; checking up front reports it before any model call.
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1
    with path.open("rb") as file:
        while chunk := file.read(chunk_bytes):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as ex:
                row = line + chunk.count(b"\n", 0, ex.start)
                raise DataError(
                    f"{path}: line {row} is not valid UTF-8 ({ex.reason}); "
                    "re-encode the file as UTF-8."
                ) from None
            line += chunk.count(b"\n")
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError as ex:
            raise DataError(
                f"{path}: the file ends in a truncated UTF-8 sequence ({ex.reason})."
            ) from None


def _csv_header(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return next(csv.reader(handle), [])


def _has_no_rows(ex: BaseException) -> bool:
    # datasets' way of saying a file parsed to zero rows (blank lines, a bare header, [])
    cause: BaseException | None = ex
    while cause is not None:
        if "corresponds to no data" in str(cause):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def _json_kind(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _json_problem(path: Path) -> str | None:
    """Why a JSON (Lines) file cannot be one table: the first bad line, or the first
    row whose field has another type than in an earlier row. Only called on failure."""
    with path.open(encoding="utf-8-sig") as handle:
        text = handle.read()
    numbered: list[tuple[int, int | None, object]] = []
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as ex:
            return f"not valid JSON ({ex.msg}, line {ex.lineno})."
        if not isinstance(records, list):
            return None
        numbered += [(row, None, record) for row, record in enumerate(records)]
    else:
        # split on "\n" only: JSON strings may hold U+2028 and other line breaks
        for line_number, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as ex:
                return f"line {line_number} is not valid JSON ({ex.msg}, character {ex.pos})."
            numbered.append((len(numbered), line_number, record))
    # a row as every message names it (benchmarks.data.error_locations): its line, or 1-based
    first_seen: dict[str, tuple[str, str]] = {}
    for row, source_line, record in numbered:
        where = f"line {source_line}" if source_line else f"row {row + 1}"
        if not isinstance(record, dict):
            return f"{where} should be a JSON object, got {_json_kind(record)}."
        pending: list[tuple[str, object]] = list(record.items())
        while pending:
            name, value = pending.pop()
            if value is None:
                continue
            kind = _json_kind(value)
            seen = first_seen.setdefault(name, (kind, where))
            if seen[0] != kind:
                return (
                    f"{where}: field {name!r} is {kind} where {seen[1]} has {seen[0]}; "
                    "every row must hold the same type."
                )
            if isinstance(value, dict):
                pending += [(f"{name}.{key}", item) for key, item in value.items()]
            elif isinstance(value, list):
                pending += [(f"{name}[]", item) for item in value]
    return None


def _root_cause(ex: BaseException) -> str:
    while ex.__cause__ is not None or ex.__context__ is not None:
        nxt = ex.__cause__ or ex.__context__
        assert nxt is not None
        ex = nxt
    return first_line(ex)


def first_line(ex: BaseException) -> str:
    """The exception's type and the first line of its message."""
    lines = str(ex).strip().splitlines()
    return f"{type(ex).__name__}: {lines[0]}" if lines else type(ex).__name__
