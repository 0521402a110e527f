"""ScienceQA rows prepared once, in a child process: checked fields and image cache files.

Reading the split takes ``datasets`` and pyarrow, about 140 MB that a process
keeps to its end once they are imported. So a child process reads it
(``python -m benchmarks.scienceqa_prepare``): it checks every row's fields, puts
every image into the verified image cache (``image_cache.py``) and writes the
rows as JSON lines, without the images, to
``$INSPECT_BENCHMARKS_CACHE/scienceqa_rows``. The eval process reads that
file alone: it never imports a data library, and holds what a task reading
ready prompts from JSON lines would hold.

A local data file's rows are written once and reused while the file keeps
its path, size, inode and modification time (and the image options and
Pillow version stay the same); the Hub or a snapshot folder are read by the
child every time (the Hugging Face cache decides what is current there). An
image file named by a path is checked by its size and modification time, and
each cache entry by its sha256, when its sample is built: a change or damage
sends the rows back to the child, which rebuilds what it must.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from benchmarks import download
from benchmarks.errors import DataError, DataUnavailableError
from benchmarks.image_cache import IMAGE_CACHE_VERSION, ImageCacheError, entry_problem
from benchmarks.images import ImageFormat
from benchmarks.loading import DataFiles, local_data_file
from benchmarks.records import field, string_list

DATASET_PATH = "derek-thomas/ScienceQA"

# Bumped when what a rows file holds changes; part of every file's key.
ROWS_VERSION = 1

REQUIRED_COLUMNS = (
    "image",
    "question",
    "choices",
    "answer",
    "hint",
    "grade",
    "subject",
    "topic",
    "category",
    "skill",
)

# Exceptions of the child that are the user's to fix, re-raised as they are.
USER_ERRORS: dict[str, type[Exception]] = {
    "DataError": DataError,
    "DataUnavailableError": DataUnavailableError,
    "ImageCacheError": ImageCacheError,
}

_GRADE = re.compile(r"grade(\d{1,2})")

logger = logging.getLogger(__name__)


@dataclass
class PreparedRows:
    """The rows of one split as the child wrote them."""

    where: str
    records: list[dict[str, Any]]
    image_rows: list[int] | None
    image_column_error: str | None


def checked_fields(record: dict[str, Any]) -> dict[str, Any]:
    """The fields a sample is built from, checked; errors name the field."""
    question = field(record, "question", str)
    choices = string_list(record, "choices")
    if len(choices) > 26:
        raise ValueError(f"field 'choices' has {len(choices)} options; at most 26 can be lettered")
    answer = field(record, "answer", int)
    if not 0 <= answer < len(choices):
        raise ValueError(
            f"field 'answer' is {answer}, not an index of the {len(choices)} choices "
            f"(0 to {len(choices) - 1})"
        )
    hint = record.get("hint")
    hint = "" if hint is None else hint
    if not isinstance(hint, str):
        raise TypeError(f"field 'hint' should be str, got {type(hint).__name__} {hint!r:.60}")
    grade = field(record, "grade", str)
    subject = field(record, "subject", str)
    grade_band(grade)
    return {
        "question": question,
        "choices": choices,
        "answer": answer,
        "hint": hint,
        "grade": grade,
        "subject": subject,
        **{name: field(record, name, str) for name in ("topic", "category", "skill")},
    }


def grade_band(grade: str) -> str:
    """``G1-6`` or ``G7-12``, the paper's grade columns, for ``grade1`` ... ``grade12``."""
    matched = _GRADE.fullmatch(grade)
    number = int(matched.group(1)) if matched else 0
    if not 1 <= number <= 12:
        raise ValueError(f"field 'grade' should be 'grade1' to 'grade12', got {grade!r:.60}")
    return "G1-6" if number <= 6 else "G7-12"


class RowsSource:
    """Where a split's rows come from, and the child process that prepares them."""

    def __init__(
        self,
        *,
        split: str,
        dataset_path: str | None,
        data_files: DataFiles | None,
        image_format: ImageFormat,
        max_side: int | None,
    ) -> None:
        self.request: dict[str, Any] = {
            "split": split,
            "dataset_path": dataset_path,
            "data_files": _json_data_files(data_files),
            "image_format": image_format,
            "max_side": max_side,
        }
        local = local_data_file("ScienceQA", split, dataset_path, data_files)
        self.rows_file = None if local is None else _rows_file(local, self.request)
        # as load_split names a local file (the rows file may be another spelling's)
        self.where = None if local is None else f"{local} ({split} split)"

    def rows(self) -> tuple[PreparedRows, bool]:
        """The prepared rows, and whether they were read from a rows file of an earlier run."""
        if self.rows_file is not None:
            try:
                return read_rows(self.rows_file, self.where), True
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                pass  # missing, damaged, or not written by this version: prepared again below
        return self.prepare(), False

    def prepare(self) -> PreparedRows:
        """Run the child; re-raise its user errors, log its warnings, read its rows."""
        with tempfile.TemporaryDirectory(prefix="scienceqa-rows-") as work:
            result_file = Path(work) / "result.json"
            request = {**self.request, "rows_file": str(self.rows_file or Path(work) / "rows")}
            request["result_file"] = str(result_file)
            returncode, stderr = _run_child(request)
            try:
                result = json.loads(result_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                tail = "\n".join(stderr.strip().splitlines()[-20:])
                raise RuntimeError(
                    f"Reading the ScienceQA rows failed (exit code {returncode}):\n{tail}"
                ) from None
            for name, warning in result.get("warnings", []):
                logging.getLogger(name).warning(warning)
            if "error" in result:
                raise USER_ERRORS[result["error_type"]](result["error"])
            return read_rows(Path(request["rows_file"]), self.where)


def _run_child(request: dict[str, Any]) -> tuple[int, str]:
    """Run the child on ``request``; its standard error is shown as it comes, and returned."""
    package_root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    # -P: the working directory is not put on sys.path, so a folder named
    # "benchmarks" (or Inspect having changed into ours) cannot shadow a module.
    command = [sys.executable, "-P", "-m", "benchmarks.scienceqa_prepare"]
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
            f"Reading the ScienceQA rows needs a child process ({' '.join(command)}), "
            f"which could not be started: {ex}"
        ) from ex
    assert child.stdin is not None and child.stderr is not None
    with child:
        child.stdin.write(json.dumps(request).encode("utf-8"))
        child.stdin.close()
        shown: list[bytes] = []
        # datasets' download and progress messages, as when it ran in this process
        while chunk := os.read(child.stderr.fileno(), 65536):
            shown.append(chunk)
            sys.stderr.write(chunk.decode("utf-8", errors="replace"))
            sys.stderr.flush()
    return child.returncode, b"".join(shown).decode("utf-8", errors="replace")


def read_rows(path: Path, where: str | None = None) -> PreparedRows:
    """The rows of a rows file; ``where`` (default: the writer's) names their source."""
    with path.open(encoding="utf-8") as file:
        header = json.loads(file.readline())
        if not isinstance(header, dict) or header.get("version") != ROWS_VERSION:
            raise ValueError(f"{path}: not a rows file of this version")
        records = [json.loads(line) for line in file]
    if len(records) != header["rows"] or not all(isinstance(r, dict) for r in records):
        raise ValueError(f"{path}: {len(records)} rows, the header says {header['rows']}")
    return PreparedRows(
        where=where or header["where"],
        records=records,
        image_rows=header["image_rows"],
        image_column_error=header["image_column_error"],
    )


class PreparedDataset:
    """Rows of one split for sample building: checked fields and verified image files."""

    def __init__(self, source: RowsSource) -> None:
        self.source = source
        self.prepared, self.from_earlier_run = source.rows()

    @property
    def where(self) -> str:
        return self.prepared.where

    def record(self, row: int) -> dict[str, Any]:
        """Row ``row``'s checked fields; a row the child found bad raises its error."""
        record = self.prepared.records[row]
        if "error" in record and self.from_earlier_run:
            # an image file may have been fixed since: the child reads the rows again
            self.prepared, self.from_earlier_run = self.source.prepare(), False
            record = self.prepared.records[row]
        if "error" in record:
            raise DataError(f"{self.where}, row {row}: {record['error']}")
        return record

    def image_file(self, row: int) -> Callable[[], Path | None]:
        """The row's image cache file, checked (its source and its content) when called."""

        def file() -> Path | None:
            record = self.record(row)
            if record["image_file"] is None:
                return None
            problem = _image_problem(record)
            if problem is not None:
                logger.info(f"{self.where}, row {row}: {problem}; preparing the rows again.")
                self.prepared, self.from_earlier_run = self.source.prepare(), False
                record = self.record(row)
                problem = _image_problem(record)
                if problem is not None:
                    raise ImageCacheError(f"{self.where}, row {row}: {problem}")
            return Path(record["image_file"])

        return file


def _image_problem(record: dict[str, Any]) -> str | None:
    source = record.get("image_source")
    if source is not None:
        path, size, mtime_ns = source
        try:
            stat = os.stat(path)
        except OSError as ex:
            return f"image file {path!r} cannot be read ({ex.strerror or ex})"
        if (stat.st_size, stat.st_mtime_ns) != (size, mtime_ns):
            return f"image file {path!r} changed"
    entry = Path(record["image_file"])
    problem = entry_problem(entry, entry.with_name(entry.name + ".sha256"))
    return None if problem is None else f"image cache entry {entry} {problem}"


def _rows_file(local: Path, request: dict[str, Any]) -> Path | None:
    try:
        stat = local.resolve().stat()
    except OSError:
        return None  # no such file: the child names the problem
    identity = json.dumps(
        [
            ROWS_VERSION,
            str(local.resolve()),
            stat.st_size,
            stat.st_mtime_ns,
            stat.st_ino,
            request["split"],
            request["image_format"],
            request["max_side"],
            version("pillow"),
            IMAGE_CACHE_VERSION,
            _package_version(),
        ]
    )
    key = hashlib.sha256(identity.encode()).hexdigest()
    return download.cache_dir("scienceqa_rows") / key[:2] / f"{key}.jsonl"


def _package_version() -> str:
    try:
        return version("inspect-reference-benchmarks")
    except PackageNotFoundError:  # run from a source tree
        return "unknown"


def _json_data_files(data_files: DataFiles | None) -> str | dict[str, str] | None:
    if data_files is None:
        return None
    if isinstance(data_files, (str, os.PathLike)):
        return os.fspath(data_files)
    return {split: os.fspath(path) for split, path in data_files.items()}
