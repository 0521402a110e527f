"""The child process that reads a split and writes its rows (see ``prepared_rows.py``).

``python -m benchmarks.prepare_rows`` reads a job (JSON) on standard input: a
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
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from benchmarks.errors import UserInputError
from benchmarks.image_cache import ImageCacheError, write_atomically
from benchmarks.lazy_dataset import arrow_row_reader
from benchmarks.loading import LoadedSplit, load_split
from benchmarks.prepared_rows import ROWS_VERSION, USER_ERRORS, RowsRequest

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


# shape name -> (module, class); imported in the child only when used.
SHAPES = {
    "scienceqa": ("benchmarks.scienceqa_rows", "ScienceQAShape"),
    "triviaqa_questions": ("benchmarks.triviaqa_prompts", "QuestionShape"),
    "triviaqa_demonstrations": ("benchmarks.triviaqa_prompts", "DemonstrationShape"),
}


def shape_for(loaded: LoadedSplit, request: RowsRequest) -> Shape:
    if request.shape == "plain":
        return PlainShape(loaded, request)
    module, name = SHAPES[request.shape]
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
    hashes: list[str] | None = whole_row_hashes(rows) if request.row_hash else None
    lines = [
        json.dumps(
            {"version": ROWS_VERSION, "where": loaded.where, "rows": len(rows), **shape.header()}
        )
    ]
    for row, values in enumerate(_records(rows, shape.columns)):
        try:
            if isinstance(values, Exception):
                raise values
            record = shape.record(row, values)
        except (KeyError, TypeError, ValueError) as ex:
            message = ex.args[0] if isinstance(ex, KeyError) and ex.args else ex
            record = {"error": str(message)}
        if hashes is not None:
            record["row_hash"] = hashes[row]
        lines.append(json.dumps(record, ensure_ascii=False))
    try:
        rows_file.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(rows_file, "\n".join(lines).encode("utf-8") + b"\n")
    except OSError as ex:
        raise ImageCacheError(
            f"cannot write the {request.benchmark} rows cache {rows_file.parent}: {ex}. "
            "Set INSPECT_BENCHMARKS_CACHE to a writable folder."
        ) from ex


def whole_row_hashes(rows: datasets.Dataset) -> list[str]:
    """A hash of every row's every column: equal rows (as ``!=`` on the dicts ``datasets``
    gives compares them) have equal hashes."""
    hashes: list[str] = []
    for record in _records(rows, rows.column_names):
        if isinstance(record, Exception):
            hashes.append(f"unreadable {len(hashes)}")
            continue
        canonical = json.dumps(record, sort_keys=True, ensure_ascii=False, default=repr)
        hashes.append(hashlib.sha256(canonical.encode("utf-8")).hexdigest())
    return hashes


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
