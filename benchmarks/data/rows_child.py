"""The child process that reads a split and writes its rows (see ``rows.py``).

``python -m benchmarks.data.rows_child`` reads a job (JSON) on standard input: a
``RowsRequest``, the rows file to write and a result file. It loads the split
with ``datasets``, turns every row into plain values in the request's shape
and writes the rows file; the result file gets the user error that stopped
it, if any, and the warnings it logged, for the eval process to raise and log
as its own. ``run_job`` does the same in the calling process.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import logging
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from benchmarks.data.image_cache import ImageCacheError, write_atomically
from benchmarks.data.records import field_problem
from benchmarks.data.rows_cache import shape_module
from benchmarks.data.rows_request import (
    ROW_ERROR,
    ROW_HASH,
    ROWS_VERSION,
    USER_ERRORS,
    RowsCacheError,
    RowsRequest,
)
from benchmarks.data.split_reader import LoadedSplit, load_split
from benchmarks.runtime.errors import UserInputError

if TYPE_CHECKING:
    import datasets


class Shape(Protocol):
    """How a split's rows become records (the ``shape`` of a request)."""

    @property
    def columns(self) -> Sequence[str]:  # the columns read for each record
        ...

    def record(self, row: int, values: dict[str, Any]) -> dict[str, Any]: ...

    def header(self) -> dict[str, Any]: ...


class PlainShape:
    """Each record holds the request's columns, as plain values."""

    def __init__(self, loaded: LoadedSplit, request: RowsRequest) -> None:
        self.columns: Sequence[str] = request.columns

    def record(self, row: int, values: dict[str, Any]) -> dict[str, Any]:
        return values

    def header(self) -> dict[str, Any]:
        return {}


def shape_for(loaded: LoadedSplit, request: RowsRequest) -> Shape:
    """The request's shape: plain, or the class its ``<module>:<class>`` names."""
    module = shape_module(request.shape)
    if module is None:
        return PlainShape(loaded, request)
    name = request.shape.partition(":")[2]
    shape: Shape = getattr(importlib.import_module(module), name)(loaded, request)
    return shape


def prepare_rows(request: RowsRequest, rows_file: Path) -> None:
    """Read the split, shape every row, write the rows file."""
    loaded = load_split(
        benchmark=request.benchmark,
        hub_path=request.hub_path,
        config=request.config,
        split=request.split,
        dataset_path=request.dataset_path,
        data_files=request.data_files,
        revision=request.revision,
        required_columns=request.columns,
        single_file_split=request.single_file_split,
    )
    shape = shape_for(loaded, request)
    rows = loaded.rows
    if rows._indices is not None:
        rows = rows.flatten_indices()
    hashes = whole_row_hashes(rows, request.split) if request.row_hash else None
    header = {
        "version": ROWS_VERSION,
        "where": loaded.where,
        "lines_of": loaded.places.file,
        "rows": len(rows),
    }
    records = (
        _shaped(shape, row, values, hashes)
        for row, values in enumerate(_records(rows, shape.columns))
    )
    if request.layout == "columns":
        lines = _column_lines(header | shape.header() | {"layout": "columns"}, list(records))
    else:
        lines = [json.dumps(header | shape.header())]
        lines += [json.dumps(record, ensure_ascii=False) for record in records]
    try:
        rows_file.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(rows_file, "\n".join(lines).encode("utf-8") + b"\n")
    except OSError as ex:
        raise RowsCacheError(
            f"cannot write the {request.benchmark} rows file {rows_file}: {ex}"
        ) from ex


def _column_lines(header: dict[str, Any], records: list[dict[str, Any]]) -> list[str]:
    """The ``columns`` layout: the header naming the fields, then one JSON array per field
    (None where a row lacks it), then the rows' errors by row. An array of strings
    parses several times faster than as many objects."""
    fields = list(dict.fromkeys(key for record in records for key in record))
    fields = [name for name in fields if name != ROW_ERROR]
    errors = {row: record[ROW_ERROR] for row, record in enumerate(records) if ROW_ERROR in record}
    return [
        json.dumps(header | {"fields": fields}),
        *(json.dumps([r.get(name) for r in records], ensure_ascii=False) for name in fields),
        json.dumps(errors, ensure_ascii=False),
    ]


def _shaped(
    shape: Shape, row: int, values: dict[str, Any] | ValueError, hashes: list[str] | None
) -> dict[str, Any]:
    """Row ``row``'s record, ready for JSON: the shape's, or the error that stops it."""
    try:
        if isinstance(values, Exception):
            raise values
        record = shape.record(row, values)
        json.dumps(record)  # a value JSON cannot hold (bytes, a date) is this row's error
    except (KeyError, TypeError, ValueError) as ex:
        record = {ROW_ERROR: _json_problem(values) or field_problem(ex)}
    if hashes is not None:
        record[ROW_HASH] = hashes[row]
    return record


def _json_problem(values: dict[str, Any] | ValueError) -> str | None:
    """Which field holds a value JSON cannot hold, if one does."""
    if isinstance(values, Exception):
        return None
    for name, value in values.items():
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            return f"field {name!r} holds {type(value).__name__} {value!r:.60}, not a JSON value"
    return None


def whole_row_hashes(rows: datasets.Dataset, split: str) -> list[str]:
    """A hash of every row's every column: rows equal as Python compares the dicts
    ``datasets`` gives (lm-evaluation-harness's ``!=``) have equal hashes.

    The hashed form follows Python's equality: ``True == 1 == 1.0`` and ``-0.0 == 0``
    hash alike; a row holding a NaN (never equal to another NaN) or that cannot be read
    gets a hash of its own (``split`` keeps those of two splits apart).
    """
    hashes: list[str] = []
    for row, record in enumerate(_records(rows, rows.column_names)):
        try:
            canonical = None if isinstance(record, Exception) else _equality_form(record)
        except _NeverEqual:
            canonical = None
        if canonical is None:
            hashes.append(f"unique {split} {row}")
            continue
        text = json.dumps(canonical, sort_keys=True, ensure_ascii=False, default=repr)
        hashes.append(hashlib.sha256(text.encode("utf-8")).hexdigest())
    return hashes


class _NeverEqual(Exception):
    """The row holds a value equal to nothing (NaN)."""


def _equality_form(value: Any) -> Any:
    """``value`` with numbers Python finds equal written alike."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise _NeverEqual
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {key: _equality_form(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_equality_form(item) for item in value]
    return value


def _records(
    rows: datasets.Dataset, columns: Sequence[str], chunk: int = 256
) -> Iterator[dict[str, Any] | ValueError]:
    """Each row's ``columns`` as plain values, or the error that reading it raised."""
    table = rows.data.table.select(list(columns))
    read = arrow_row_reader(rows, columns)
    for start in range(0, len(rows), chunk):
        try:
            yield from table.slice(start, chunk).to_pylist()
        except UnicodeDecodeError:  # name the row: read them one by one
            for row in range(start, min(start + chunk, len(rows))):
                try:
                    yield read(row)
                except ValueError as ex:
                    yield ex


def arrow_row_reader(
    rows: datasets.Dataset, columns: Sequence[str]
) -> Callable[[int], dict[str, Any]]:
    """Read row ``i`` of ``columns`` as plain Python values from the Arrow table."""
    if rows._indices is not None:  # a selected/filtered view: let datasets map the index
        selected = rows.select_columns(list(columns))
        return lambda row: dict(selected[row])
    arrays = {name: rows.data.table.column(name) for name in columns}

    def read(row: int) -> dict[str, Any]:
        record: dict[str, Any] = {}
        for name, array in arrays.items():
            try:
                record[name] = array[row].as_py()
            except UnicodeDecodeError as ex:  # pyarrow's JSON reader does not validate UTF-8
                raise ValueError(f"field {name!r} is not valid UTF-8: {ex.reason}") from ex
        return record

    return read


class _Warnings(logging.Handler):
    """The child's warnings, for the eval process to log under the same logger names."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[tuple[str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append((record.name, record.getMessage()))


def run_job(job: dict[str, Any]) -> None:
    """Prepare the rows of ``job``; write its result file (error and warnings)."""
    request = RowsRequest(**job["request"])
    warnings = _Warnings()
    logger = logging.getLogger("benchmarks")
    logger.addHandler(warnings)
    result: dict[str, Any]
    try:
        prepare_rows(request, Path(job["rows_file"]))
        result = {}
    except (UserInputError, ImageCacheError) as ex:
        kind = type(ex).__name__ if type(ex).__name__ in USER_ERRORS else "DataError"
        result = {"error": str(ex), "error_type": kind}
    finally:
        logger.removeHandler(warnings)
    result["warnings"] = warnings.messages
    write_atomically(Path(job["result_file"]), json.dumps(result).encode("utf-8"))


def main() -> None:
    import datasets

    datasets.disable_progress_bars()  # counts of rows read: noise; downloads still show
    run_job(json.loads(sys.stdin.read()))


if __name__ == "__main__":
    main()
