"""A split's rows, read once by a child process and kept as JSON lines between runs.

Reading a split takes ``datasets`` and pyarrow, about 140 MB that a process
keeps to its end once they are imported. So a child process reads it
(``python -m benchmarks.data.rows_child``): it loads the split from the Hub (at a
pinned revision), a snapshot folder or a local file, checks its columns,
turns each row into plain values (a benchmark may shape them: ScienceQA puts
its images into the verified image cache) and writes the rows as JSON lines
to ``$INSPECT_BENCHMARKS_CACHE/rows``. The eval process reads that file alone:
it never imports a data library, and holds what a task reading ready rows
from JSON lines would hold.

A rows file is reused while its source is the same: a local file's resolved
path, size, inode and modification time; a snapshot folder's path and every
file's name, size and modification time; a Hub dataset's id, config and
pinned revision (the Hugging Face cache is keyed by it too); never for
another Hub id (read as it is now). The key also holds the request (split,
columns, options), the file layout's version and a hash of the code that
writes the rows. A row the child could not read is written as
``{"__row_error__": ...}``, raised naming the row when its sample is built,
before any model call. When the cache folder cannot be written, the rows are
read into a temporary file (with a warning) and read again on the next run.
User errors of the child (a missing file, a missing column, no network) are
raised unchanged here.
"""

from __future__ import annotations

import codecs
import itertools
import json
import logging
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from benchmarks.data.error_locations import RowPlaces
from benchmarks.data.rows_cache import rows_file_for, writable_rows_file
from benchmarks.data.rows_request import (
    ROW_ERROR,
    ROWS_VERSION,
    USER_ERRORS,
    RowsRequest,
)
from benchmarks.runtime.errors import DataError, UserInputError

# Set to "inprocess" to prepare rows in this process (same code, no child): faster
# when many small files are read, as in the test suite; "child" (or unset) otherwise.
PREPARE_ENV = "INSPECT_BENCHMARKS_PREPARE"

logger = logging.getLogger(__name__)


# A record given up by ``PreparedRows.release`` (its sample is built).
RELEASED: dict[str, Any] = {ROW_ERROR: "released after its sample was built"}


@dataclass
class PreparedRows:
    """The rows of one split as the child wrote them.

    ``records``: each row's values (or ``{ROW_ERROR: ...}``); ``header``: what
    the shape adds about the whole split (ScienceQA: the rows with an image).
    """

    where: str
    records: list[dict[str, Any]]
    header: dict[str, Any]
    from_earlier_run: bool = False
    places: RowPlaces = RowPlaces()

    def __len__(self) -> int:
        return len(self.records)

    def at(self, row: int) -> str:
        """Where row ``row`` (0-based) is, for an error: ``<source>, line n`` or ``row n``."""
        return f"{self.where}, {self.places.place(row)}"

    def record(self, row: int) -> dict[str, Any]:
        """Row ``row``'s values; a row the child could not read raises its error."""
        record = self.records[row]
        if ROW_ERROR in record:
            if record is RELEASED:
                raise RuntimeError(f"{self.at(row)}: read after it was released")
            raise DataError(f"{self.at(row)}: {record[ROW_ERROR]}")
        return record

    def failed(self, row: int) -> bool:
        """Whether the child could not read row ``row``."""
        return ROW_ERROR in self.records[row] and self.records[row] is not RELEASED

    def release(self, row: int) -> None:
        """Give up row ``row``'s record (its sample holds what it needs)."""
        self.records[row] = RELEASED


@dataclass
class PreparedColumns:
    """Some columns of a split's rows, a list each (a list of values takes a fraction of
    the memory of as many dicts): for large pools read by index, such as few-shot splits.
    """

    where: str
    columns: dict[str, list[Any]]
    errors: dict[int, str]
    size: int
    places: RowPlaces = RowPlaces()

    def __len__(self) -> int:
        return self.size

    def at(self, row: int) -> str:
        """Where row ``row`` (0-based) is, for an error: ``<source>, line n`` or ``row n``."""
        return f"{self.where}, {self.places.place(row)}"

    def record(self, row: int) -> dict[str, Any]:
        """Row ``row``'s values; a row the child could not read raises its error."""
        if row in self.errors:
            raise DataError(f"{self.at(row)}: {self.errors[row]}")
        return {name: values[row] for name, values in self.columns.items()}

    def drop(self, name: str) -> list[Any]:
        """Column ``name``, no longer kept."""
        return self.columns.pop(name)


def prepared_rows(request: RowsRequest, *, again: bool = False) -> PreparedRows:
    """The split's rows: from the rows file of an earlier run when its source is unchanged
    (unless ``again``), else prepared now."""
    rows = _read_prepared(request, again, None)
    assert isinstance(rows, PreparedRows)
    return rows


def prepared_columns(request: RowsRequest, columns: Sequence[str]) -> PreparedColumns:
    """The split's rows as ``columns``, each a list (see ``prepared_rows``; ``request`` in
    the ``columns`` layout)."""
    rows = _read_prepared(replace(request, layout="columns"), False, columns)
    assert isinstance(rows, PreparedColumns)
    return rows


def _read_prepared(
    request: RowsRequest, again: bool, columns: Sequence[str] | None
) -> PreparedRows | PreparedColumns:
    local = request.local_file()
    # as load_split names a local file (the rows file may be another spelling's)
    where = None if local is None else f"{local} ({request.split} split)"
    rows_file = writable_rows_file(request, rows_file_for(request, local))
    if rows_file is not None and not again:
        try:
            return read_rows_file(rows_file, where, from_earlier_run=True, columns=columns)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # missing, damaged, or not written by this version: prepared below
    with tempfile.TemporaryDirectory(prefix="benchmark-rows-") as work:
        target = rows_file or Path(work) / "rows.jsonl"
        _prepare(request, target, Path(work) / "result.json")
        return read_rows_file(target, where, columns=columns)


def _prepare(request: RowsRequest, rows_file: Path, result_file: Path) -> None:
    """Prepare the rows (in a child unless told otherwise); re-raise its user errors and
    log its warnings under their own logger names."""
    job = {"request": asdict(request), "rows_file": str(rows_file), "result_file": str(result_file)}
    in_process = _prepare_in_process()
    if in_process:
        from benchmarks.data.rows_child import run_job

        run_job(job)  # its warnings are logged as they happen
        returncode, stderr = 0, ""
    else:
        returncode, stderr = _run_child(job)
    try:
        result = json.loads(result_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        tail = "\n".join(stderr.strip().splitlines()[-20:])
        raise RuntimeError(
            f"Reading the {request.benchmark} rows failed (exit code {returncode}):\n{tail}"
        ) from None
    for name, warning in [] if in_process else result.get("warnings", []):
        logging.getLogger(name).warning(warning)
    if "error" in result:
        raise USER_ERRORS[result["error_type"]](result["error"])


def _prepare_in_process() -> bool:
    mode = os.environ.get(PREPARE_ENV, "")
    if mode not in ("", "child", "inprocess"):
        raise UserInputError(f"{PREPARE_ENV}={mode!r}: set it to 'inprocess' or 'child'.")
    return mode == "inprocess"


def _run_child(job: dict[str, Any]) -> tuple[int, str]:
    """Run the child on ``job``; its standard error is shown as it comes, and returned."""
    package_root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ}
    # after the user's own entries (and the interpreter's, which come first anyway): the
    # root only makes a source tree's package importable, never shadows another module
    env["PYTHONPATH"] = os.pathsep.join(p for p in (env.get("PYTHONPATH"), package_root) if p)
    # -P: the working directory is not put on sys.path, so a folder named
    # "benchmarks" (or Inspect having changed into ours) cannot shadow a module.
    command = [sys.executable, "-P", "-m", "benchmarks.data.rows_child"]
    try:
        child = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
        )
    except OSError as ex:
        raise RuntimeError(
            f"Reading the rows needs a child process ({' '.join(command)}), which could not "
            f"be started: {ex}"
        ) from ex
    assert child.stdin is not None and child.stderr is not None
    with child:
        try:
            child.stdin.write(json.dumps(job).encode("utf-8"))
            child.stdin.close()
        except BrokenPipeError:
            pass  # the child ended without reading its job: its exit code and stderr say why
        shown: list[str] = []
        # a character split between two reads is decoded whole
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        # datasets' download messages (a Hub download can take minutes), as they come
        while chunk := os.read(child.stderr.fileno(), 65536):
            shown.append(decoder.decode(chunk))
            sys.stderr.write(shown[-1])
            sys.stderr.flush()
        shown.append(decoder.decode(b"", final=True))
    return child.returncode, "".join(shown)


def read_rows_file(
    path: Path,
    where: str | None = None,
    *,
    from_earlier_run: bool = False,
    columns: Sequence[str] | None = None,
) -> PreparedRows | PreparedColumns:
    """The rows of a rows file; ``where`` (default: the writer's) names their source.
    With ``columns``, only those fields, as a list each."""
    with path.open(encoding="utf-8") as file:
        header = json.loads(file.readline())
        if not isinstance(header, dict) or header.get("version") != ROWS_VERSION:
            raise ValueError(f"{path}: not a rows file of this version")
        where = where or header["where"]
        if header.get("layout") == "columns":
            if columns is None:
                raise ValueError(f"{path}: a columns file read as records")
            return _read_columns(path, file, header, where, columns)
        if columns is not None:
            raise ValueError(f"{path}: a records file read as columns")
        records: list[dict[str, Any]] = []
        for batch in _record_batches(file):
            if not all(isinstance(record, dict) for record in batch):
                raise ValueError(f"{path}: a row is not a JSON object")
            records += batch
    if len(records) != header["rows"]:
        raise ValueError(f"{path}: {len(records)} rows, the header says {header['rows']}")
    return PreparedRows(
        where=where,
        records=records,
        header=header,
        from_earlier_run=from_earlier_run,
        places=RowPlaces(header.get("lines_of")),
    )


def _read_columns(
    path: Path, file: Iterator[str], header: dict[str, Any], where: str, columns: Sequence[str]
) -> PreparedColumns:
    """The fields ``columns`` of a file in the ``columns`` layout (see ``prepare_rows``)."""
    wanted = set(columns)
    kept: dict[str, list[Any]] = {}
    for name in header["fields"]:
        line = next(file)
        if name in wanted:
            kept[name] = json.loads(line)
    errors = {int(row): message for row, message in json.loads(next(file)).items()}
    size = header["rows"]
    if any(not isinstance(values, list) or len(values) != size for values in kept.values()):
        raise ValueError(f"{path}: a column does not hold {size} rows")
    none = [None] * size  # a field no row has (every row an error, or none asked for it)
    return PreparedColumns(
        where=where,
        columns={name: kept.get(name, none) for name in columns},
        errors=errors,
        size=size,
        places=RowPlaces(header.get("lines_of")),
    )


def _record_batches(lines: Iterator[str], size: int = 2048) -> Iterator[list[Any]]:
    """The records of JSON lines, ``size`` lines parsed at once as one JSON array (several
    times faster than a parse a line, and never the whole file's text at once). JSON
    text holds no raw newline, so the line breaks are the separators."""
    while batch := list(itertools.islice(lines, size)):
        yield json.loads("[" + ",".join(batch) + "]")
