"""Malformed inputs for tests/test_bad_inputs.py: the kinds of the table, what a case must
give, and the writers that make bad files from good ones.

A benchmark's cases live in its own ``tests/<name>/conformance.py`` (``BAD_INPUTS``, a
list of ``Case``), built with these helpers from its fixtures; tests/test_bad_inputs.py
runs every benchmark's, with the generic ones (its bundled sample emptied and cut in half).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
from inspect_ai.dataset import Sample

FIXTURES = Path(__file__).parent / "fixtures"

# The table of malformed inputs ("truncated parquet" widened to any truncated file).
KINDS = (
    "missing column",
    "renamed column",
    "wrong type",
    "empty alias list",
    "empty choices",
    "answer index out of range",
    "empty file",
    "truncated file",
    "non-UTF-8 bytes",
    "corrupt image bytes",
    "1 MB field",
    "duplicate ids",
)

ONE_MEGABYTE = "x" * 1_000_000


@dataclass(frozen=True)
class Fails:
    """A ``DataError`` whose message starts with ``where`` and contains each of ``parts``."""

    where: str
    parts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Loads:
    """Every row a sample, ids in order; ``check`` looks at the samples."""

    ids: list[Any]
    check: Callable[[list[Sample]], None] | None = None


Expected = Fails | Loads


@dataclass(frozen=True)
class Case:
    benchmark: str
    kind: str
    name: str
    make: Callable[[Path], tuple[dict[str, Any], Expected]]


# ---------------------------------------------------------------------------
# Writing bad files from the good fixtures


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def write_rows_parquet(path: Path, rows: list[dict[str, Any]]) -> Path:
    datasets.Dataset.from_list(rows).to_parquet(str(path))
    return path


def write_text(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def truncated_copy(source: Path, path: Path) -> Path:
    data = source.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def empty_file(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def with_latin1_line(rows: list[dict[str, Any]], line: int, name: str, path: Path) -> Path:
    """JSON lines whose ``line`` (1-based) has a Latin-1 ``café`` at the end of field ``name``."""
    rows[line - 1][name] += " @@"
    text = "".join(json.dumps(row) + "\n" for row in rows).encode("ascii")
    path.write_bytes(text.replace(b"@@", "café".encode("latin-1")))
    return path


def renamed_parquet(source: Path, path: Path, old: str, new: str) -> Path:
    table = pq.read_table(source)
    names = [new if name == old else name for name in table.column_names]
    pq.write_table(table.rename_columns(names).replace_schema_metadata(None), path)
    return path


def replaced_column(source: Path, path: Path, name: str, values: pa.Array) -> Path:
    table = pq.read_table(source)
    table = table.set_column(table.column_names.index(name), name, values)
    pq.write_table(table.replace_schema_metadata(None), path)
    return path


def file_case(
    benchmark: str,
    kind: str,
    name: str,
    write: Callable[[Path], Path],
    expected: Callable[[Path], Expected],
    **task_args: Any,
) -> Case:
    """A case whose bad file is passed as ``data_files``, with ``task_args``."""

    def make(tmp: Path) -> tuple[dict[str, Any], Expected]:
        path = write(tmp)
        return {"data_files": str(path), **task_args}, expected(path)

    return Case(benchmark, kind, name, make)


def set_path(record: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    for parent in parents:
        record = record[parent]
    record[last] = value
