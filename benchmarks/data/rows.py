"""A split's rows, read in this process by the readers docs/development.md describes ("How
a benchmark is put together"). A ``shape`` makes each row what the benchmark keeps of it as
it is read, so a 61,888-row pool never sits in memory whole; a row it cannot read keeps its
error, raised naming the row when a sample is built from it (as an editor shows it):
``line n`` of a JSON Lines or CSV file (where the row starts), else ``row n`` (1-based).
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from benchmarks.data.hub import BATCH_ROWS, first_line, hub_records, load_hub_split
from benchmarks.data.records import ROW_HASH, field_problem, gc_paused, whole_row_hash
from benchmarks.runtime.errors import DataError, UserInputError

DataFiles = str | os.PathLike[str] | Mapping[str, str | os.PathLike[str]]
# What a shape makes of a row's values (a KeyError, TypeError or ValueError: the row's error).
Shape = Callable[[dict[str, Any]], dict[str, Any]]

T = TypeVar("T")

# The key a reader adds to a record that could not be read (no dataset column is named so).
ROW_ERROR = "__row_error__"
LOCAL_SUFFIXES = (".jsonl", ".json", ".parquet", ".csv")
LONE_CR = re.compile(r"(?<=\r)(?!\n)")


@dataclass
class Rows:
    """One split's rows: where they come from, each row's values (or its error) and, for a
    JSON Lines or CSV file, the line each starts on."""

    where: str
    records: list[dict[str, Any]]
    lines: list[int] | None = None

    def __len__(self) -> int:
        return len(self.records)

    def at(self, row: int) -> str:
        """Row ``row`` (0-based) as an error names it: ``<source>, line n`` or ``row n``."""
        place = f"line {self.lines[row]}" if self.lines else f"row {row + 1}"
        return f"{self.where}, {place}"

    def built(self, row: int, make: Callable[[dict[str, Any]], T]) -> T:
        """``make`` of row ``row``'s values; its ``KeyError``, ``TypeError`` or ``ValueError``
        (naming the field), or the error of a row that could not be read, becomes a
        ``DataError`` naming the source and the row."""
        record = self.records[row]
        if ROW_ERROR in record:
            raise DataError(f"{self.at(row)}: {record[ROW_ERROR]}")
        try:
            return make(record)
        except (KeyError, TypeError, ValueError) as ex:
            if isinstance(ex, DataError):
                raise
            raise DataError(f"{self.at(row)}: {field_problem(ex)}") from ex


@dataclass(frozen=True)
class SplitRequest:
    """One split to read and how: what ``DataSource.rows`` is asked for, with the source's
    Hub dataset and local data as the task was given them."""

    benchmark: str
    hub_path: str
    revision: str | None
    config: str | None
    split: str
    dataset_path: str | None
    data_files: DataFiles | None
    columns: Sequence[str]
    single_file_split: str | None = None
    shape: Shape | None = None
    row_hash: bool = False


@gc_paused()
def read_split(request: SplitRequest) -> Rows:
    """The split's rows (see the module docstring)."""
    path = local_data_file(
        request.benchmark,
        request.split,
        request.dataset_path,
        request.data_files,
        request.single_file_split,
    )
    if path is not None:
        where = f"{path} ({request.split} split)"
        return collect(where, local_records(path, projected(request)), request)
    source = request.dataset_path or request.hub_path
    if request.dataset_path is not None and local_path(request.dataset_path).exists():
        source = str(local_path(request.dataset_path))
    config = f" config {request.config!r}" if request.config else ""
    where = f"{source}{config} split {request.split!r}"
    loaded = load_hub_split(
        request.benchmark, source, request.config, request.split, request.revision
    )
    found = loaded.column_names
    wanted = projected(request)
    if wanted is not None and set(wanted) <= set(found):
        loaded = loaded.select_columns(list(wanted))
    return collect(where, hub_records(loaded), request, found)


def projected(request: SplitRequest) -> Sequence[str] | None:
    """The columns a columnar reader converts (None: all, for the whole-row hash): turning
    TriviaQA's 61,888 train rows into Python took 0.67 s whole, 0.40 s cut to the two
    columns asked for."""
    return None if request.row_hash else request.columns


def collect(
    where: str,
    numbered: Iterable[tuple[int | None, dict[str, Any]]],
    request: SplitRequest,
    found: Sequence[str] | None = None,
) -> Rows:
    """The rows of ``numbered`` ((line or None, values) each), checked for the columns,
    each kept as ``request`` says."""
    records: list[dict[str, Any]] = []
    lines: list[int] = []
    seen: dict[str, None] = dict.fromkeys(found or ())
    for line, values in numbered:
        if found is None:
            seen.update(dict.fromkeys(values))
        if line is not None:
            lines.append(line)
        # what is kept of a row: its columns (shaped), or the error that stops it
        record = {name: values.get(name) for name in request.columns}
        if request.shape is not None:
            try:
                record = request.shape(record)
            except (KeyError, TypeError, ValueError) as ex:
                if isinstance(ex, UserInputError):
                    raise  # not the row's: the cache or the setup (it names what to do)
                record = {ROW_ERROR: field_problem(ex)}
        if request.row_hash:
            record[ROW_HASH] = whole_row_hash(values, f"{request.split} {len(records)}")
        records.append(record)
    if not records:
        source = where.removesuffix(f" ({request.split} split)")
        raise DataError(f"{source}: the file holds no rows.")
    missing = [column for column in request.columns if column not in seen]
    if missing:
        raise DataError(
            f"{where}: missing column(s) {', '.join(map(repr, missing))}; "
            f"found {', '.join(map(repr, seen))}."
        )
    return Rows(where, records, lines or None)


# ---------------------------------------------------------------------------
# Local files


def local_records(
    path: Path, columns: Sequence[str] | None = None
) -> Iterator[tuple[int | None, dict[str, Any]]]:
    """(line or None, values) of each row of a local data file (of a parquet file, only
    ``columns`` when it has them all)."""
    suffix = path.suffix.lower()
    if suffix not in LOCAL_SUFFIXES:
        suffixes = ", ".join(LOCAL_SUFFIXES)
        raise DataError(f"{path}: unsupported file type {path.suffix!r}; use one of {suffixes}.")
    if not path.is_file():
        raise DataError(f"{path}: no such file.")
    if path.stat().st_size == 0:
        raise DataError(f"{path}: the file is empty.")
    if suffix == ".parquet":
        return parquet_records(path, columns)
    if suffix == ".csv":
        return csv_records(path)
    if suffix == ".json" and json_array(path):
        return ((None, record) for record in json_array_records(path))
    return json_lines(path)


def json_lines(path: Path) -> Iterator[tuple[int | None, dict[str, Any]]]:
    for number, text in enumerate(text_lines(path), start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text.rstrip("\r\n"))  # a position within the line
        except json.JSONDecodeError as ex:
            raise DataError(
                f"{path}: could not be read as json: line {number} is not valid JSON "
                f"({ex.msg}, character {ex.pos})."
            ) from None
        if not isinstance(record, dict):
            raise DataError(
                f"{path}: line {number} should be a JSON object, got {json_kind(record)}."
            )
        yield number, record


def text_lines(path: Path) -> Iterator[str]:
    """The file's lines, split on "\\n" alone (a JSON string may hold other line breaks),
    each decoded on its own, so that an error names the line that is not UTF-8."""
    with path.open("rb") as file:
        for number, raw in enumerate(file, start=1):
            try:
                yield raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as ex:
                raise DataError(
                    f"{path}: line {number} is not valid UTF-8 ({ex.reason}); re-encode the "
                    "file as UTF-8."
                ) from None


def json_array(path: Path) -> bool:
    with path.open("rb") as file:
        return file.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"[")


def json_array_records(path: Path) -> list[dict[str, Any]]:
    try:
        records = json.loads(path.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError as ex:
        raise DataError(f"{path}: not UTF-8 text ({ex.reason}); re-encode it as UTF-8.") from None
    except json.JSONDecodeError as ex:
        raise DataError(
            f"{path}: could not be read as json: not valid JSON ({ex.msg}, line {ex.lineno})."
        ) from None
    for row, record in enumerate(records):
        if not isinstance(record, dict):
            raise DataError(
                f"{path}: row {row + 1} should be a JSON object, got {json_kind(record)}."
            )
    return list(records)


def csv_records(path: Path) -> Iterator[tuple[int | None, dict[str, Any]]]:
    """Each row's cells as text (an empty cell stays ""), with the line it starts on."""
    limit = csv.field_size_limit(2**31 - 1)  # pandas, the references' reader, has no limit
    # a lone "\r" ends a line too, as in a file opened with newline=""
    lines = (part for line in text_lines(path) for part in LONE_CR.split(line) if part)
    reader = csv.DictReader(lines)
    start = 2
    try:
        for record in reader:
            if None in record:
                raise DataError(
                    f"{path}, line {start}: more fields than the "
                    f"{len(reader.fieldnames or [])} columns."
                )
            yield start, record
            start = reader.line_num + 1
    except csv.Error as ex:
        raise DataError(f"{path}, line {reader.line_num}: {ex}.") from None
    finally:
        csv.field_size_limit(limit)


def parquet_records(
    path: Path, columns: Sequence[str] | None = None
) -> Iterator[tuple[int | None, dict[str, Any]]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
        # a column missing: every column, for the error that lists those found
        if columns is not None and not set(columns) <= set(parquet.schema_arrow.names):
            columns = None
        for batch in parquet.iter_batches(batch_size=BATCH_ROWS, columns=columns):
            yield from ((None, record) for record in batch.to_pylist())
    except (pa.ArrowException, OSError) as ex:
        raise DataError(f"{path}: could not be read as parquet: {first_line(ex)}") from None


def json_kind(value: object) -> str:
    kinds = {bool: "a boolean", int: "a number", float: "a number", str: "a string"}
    return kinds.get(type(value), "a list" if isinstance(value, list) else "an object")


# ---------------------------------------------------------------------------
# Which file the task's arguments name


def local_data_file(
    benchmark: str,
    split: str,
    dataset_path: str | None,
    data_files: DataFiles | None,
    single_file_split: str | None = None,
) -> Path | None:
    """The local file to read for ``split`` (None: the Hub or a snapshot folder).

    A lone file (``data_files`` as one path, or ``dataset_path`` naming a file) stands for
    ``single_file_split`` (default ``split``); other splits then need a mapping."""
    if dataset_path is not None and data_files is not None:
        raise DataError(f"{benchmark}: pass either dataset_path or data_files, not both.")
    if dataset_path is not None and local_path(dataset_path).is_file():
        data_files = str(local_path(dataset_path))
    if data_files is None:
        return None
    if isinstance(data_files, Mapping):
        if split not in data_files:
            raise DataError(
                f"{benchmark}: data_files has no entry for the {split!r} split "
                f"(it has {', '.join(repr(k) for k in data_files)})."
            )
        return local_path(data_files[split])
    lone = single_file_split or split
    if split != lone:
        raise DataError(
            f"{benchmark}: the single data file {str(data_files)!r} is taken as the "
            f"{lone!r} split; the {split!r} split needs its own file: pass "
            f"data_files={{{lone!r}: ..., {split!r}: ...}}."
        )
    return local_path(data_files)


def local_path(path: str | os.PathLike[str]) -> Path:
    """A user-given local path, relative ones taken from where the command was started.

    ``inspect eval benchmarks/<name>.py`` builds the task from inside ``benchmarks/``; a
    relative path not found there is looked up from the directory the command was started
    in (``$PWD``, which ``chdir`` leaves)."""
    candidate = Path(path).expanduser()
    if candidate.is_absolute() or candidate.exists():
        return candidate
    launch_dir = os.environ.get("PWD")
    if launch_dir and (Path(launch_dir) / candidate).exists():
        return Path(launch_dir) / candidate
    return candidate
