"""The child process that prepares ScienceQA rows (see ``scienceqa_rows.py``).

``python -m benchmarks.scienceqa_prepare`` reads a request (JSON) on standard
input: the split and where it comes from, the image options, the rows file to
write and a result file. It loads the split with ``datasets``, checks every
row, puts every image into the verified image cache and writes the rows file;
the result file gets the user error that stopped it, if any, and the warnings
it logged, for the eval process to raise and log as its own.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.errors import UserInputError
from benchmarks.image_cache import ImageCacheError, ImageFiles, write_atomically
from benchmarks.images import ImageDecodeError
from benchmarks.lazy_dataset import arrow_row_reader
from benchmarks.lazy_modules import LazyModule
from benchmarks.loading import load_split, local_path
from benchmarks.scienceqa_rows import (
    DATASET_PATH,
    REQUIRED_COLUMNS,
    ROWS_VERSION,
    USER_ERRORS,
    checked_fields,
)

if TYPE_CHECKING:
    import datasets
    import pyarrow as pa
    import pyarrow.compute as pc
else:
    datasets = LazyModule("datasets")
    pa = LazyModule("pyarrow")
    pc = LazyModule("pyarrow.compute")


def prepare_rows(request: dict[str, Any]) -> Path:
    """Read the split, check every row, fill the image cache, write the rows file."""
    loaded = load_split(
        benchmark="ScienceQA",
        hub_path=DATASET_PATH,
        config=None,
        split=request["split"],
        dataset_path=request["dataset_path"],
        data_files=request["data_files"],
        required_columns=REQUIRED_COLUMNS,
    )
    rows, where = undecoded_images(loaded.rows), loaded.where
    images = ImageFiles(
        rows,
        _image_folder(request),
        image_format=request["image_format"],
        max_side=request["max_side"],
        record_columns=REQUIRED_COLUMNS,
    )
    try:
        image_rows: list[int] | None = rows_with_image(rows)
        image_column_error = None
    except ValueError as ex:
        image_rows, image_column_error = None, str(ex)
    lines = [
        json.dumps(
            {
                "version": ROWS_VERSION,
                "where": where,
                "rows": len(rows),
                "image_rows": image_rows,
                "image_column_error": image_column_error,
            }
        )
    ]
    columns = images.record_columns or list(rows.column_names)
    for row, record in enumerate(_records(rows, columns)):
        lines.append(json.dumps(_prepared_record(row, record, images), ensure_ascii=False))
    rows_file = Path(request["rows_file"])
    try:
        rows_file.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(rows_file, "\n".join(lines).encode("utf-8") + b"\n")
    except OSError as ex:
        raise ImageCacheError(
            f"cannot write the ScienceQA rows cache {rows_file.parent}: {ex}. "
            "Set INSPECT_BENCHMARKS_CACHE to a writable folder."
        ) from ex
    return rows_file


def _prepared_record(
    row: int, record: dict[str, Any] | ValueError, images: ImageFiles
) -> dict[str, Any]:
    try:
        if isinstance(record, Exception):
            raise record
        fields = checked_fields(record)
        try:
            image = images.file(row, record)
        except ImageDecodeError as ex:
            raise ImageDecodeError(f"field 'image': {ex}") from ex
    except (KeyError, TypeError, ValueError) as ex:
        message = ex.args[0] if isinstance(ex, KeyError) and ex.args else ex
        return {"error": str(message)}
    fields["image_file"] = None if image is None else str(image)
    source = None if image is None else images.source_file(row, record)
    if source is not None:
        # an image named by path: its sample checks that the file is still the one read
        stat = source.stat()
        fields["image_source"] = [str(source.resolve()), stat.st_size, stat.st_mtime_ns]
    return fields


def _records(
    rows: datasets.Dataset, columns: Sequence[str], chunk: int = 256
) -> Iterator[dict[str, Any] | ValueError]:
    """Each row's ``columns`` as plain values, or the error that reading it raised."""
    if rows._indices is not None:
        rows = rows.flatten_indices()
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


def undecoded_images(rows: datasets.Dataset) -> datasets.Dataset:
    # Rows then hold the encoded bytes: nothing is decoded until a sample is built.
    feature = rows.features.get("image")
    if isinstance(feature, datasets.Image) and feature.decode:
        return rows.cast_column("image", datasets.Image(decode=False))
    return rows


def rows_with_image(rows: datasets.Dataset) -> list[int]:
    """Row numbers of the rows with an image, read from the Arrow column without decoding."""
    column = rows.data.table.column("image")
    if pa.types.is_struct(column.type):
        has_bytes = pc.is_valid(pc.struct_field(column, "bytes"))
        path = pc.struct_field(column, "path")
        has_path = pc.and_(pc.is_valid(path), pc.not_equal(pc.utf8_length(path), 0))
        has_image = pc.or_(has_bytes, pc.fill_null(has_path, False))
    elif pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        has_image = pc.fill_null(pc.not_equal(pc.utf8_length(column), 0), False)
    elif pa.types.is_null(column.type):
        has_image = pa.chunked_array([pa.repeat(False, len(column))])
    else:
        raise ValueError(
            f"column 'image' should hold images (bytes and path) or paths, got {column.type}"
        )
    return [row for row, keep in enumerate(has_image.to_pylist()) if keep]


def _image_folder(request: dict[str, Any]) -> Path | None:
    """Folder that relative image paths of local data files are relative to."""
    data_files, dataset_path = request["data_files"], request["dataset_path"]
    if data_files is not None:
        if isinstance(data_files, str):
            return local_path(data_files).parent
        split = request["split"]
        return local_path(data_files[split]).parent if split in data_files else None
    if dataset_path is not None and local_path(dataset_path).exists():
        path = local_path(dataset_path)
        return path.parent if path.is_file() else path
    return None


class _Warnings(logging.Handler):
    """The child's warnings, for the eval process to log under the same logger names."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[tuple[str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append((record.name, record.getMessage()))


def main() -> None:
    request = json.loads(sys.stdin.read())
    warnings = _Warnings()
    logging.getLogger("benchmarks").addHandler(warnings)
    result: dict[str, Any]
    try:
        prepare_rows(request)
        result = {}
    except (UserInputError, ImageCacheError) as ex:
        kind = type(ex).__name__ if type(ex).__name__ in USER_ERRORS else "DataError"
        result = {"error": str(ex), "error_type": kind}
    result["warnings"] = warnings.messages
    write_atomically(Path(request["result_file"]), json.dumps(result).encode("utf-8"))


if __name__ == "__main__":
    main()
