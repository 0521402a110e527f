"""ScienceQA's rows: checked fields and verified image files, prepared in the child.

The split is read by the rows child (``rows.py``) in this module's shape
(``ScienceQAShape``): it checks every row's fields, puts
every image into the verified image cache (``image_cache.py``) and writes the
rows without their images. The rows are reused as that module says, keyed
also by the image options, Pillow's version and the image cache's. An image
file named by a path is checked by its size and modification time, and each
cache entry by its sha256, when its sample is built: a change or damage sends
the rows back to the child, which rebuilds what it must.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.data.error_locations import RowPlaces
from benchmarks.data.image_cache import (
    IMAGE_CACHE_VERSION,
    ImageCacheError,
    ImageFiles,
    entry_problem,
)
from benchmarks.data.image_encoding import ImageDecodeError, ImageFormat
from benchmarks.data.records import field, string_list
from benchmarks.data.rows import prepared_rows
from benchmarks.data.rows_request import RowsRequest
from benchmarks.data.split_reader import LoadedSplit, local_path
from benchmarks.runtime.errors import DataError
from benchmarks.runtime.lazy_modules import LazyModule

if TYPE_CHECKING:
    import datasets
    import pyarrow as pa
    import pyarrow.compute as pc
else:
    datasets = LazyModule("datasets")
    pa = LazyModule("pyarrow")
    pc = LazyModule("pyarrow.compute")

DATASET_PATH = "derek-thomas/ScienceQA"
# The Hub commit read by default: the parquet layout (apple/embedding-atlas pins it
# and checks its train file's sha256).
DATASET_REVISION = "f18b0a70359ebfb41f658fd564208d0355b013f4"

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

_GRADE = re.compile(r"grade(\d{1,2})")

logger = logging.getLogger(__name__)


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


class PreparedDataset:
    """Rows of one split for sample building: checked fields and verified image files."""

    def __init__(self, request: RowsRequest) -> None:
        self.request = request
        self.prepared = prepared_rows(request)

    @property
    def where(self) -> str:
        return self.prepared.where

    @property
    def records(self) -> list[dict[str, Any]]:
        return self.prepared.records

    @property
    def places(self) -> RowPlaces:
        return self.prepared.places

    def at(self, row: int) -> str:
        return self.prepared.at(row)

    def record(self, row: int) -> dict[str, Any]:
        """Row ``row``'s checked fields; a row the child found bad raises its error."""
        if self.prepared.failed(row) and self.prepared.from_earlier_run:
            # an image file may have been fixed since: the child reads the rows again
            self.prepared = prepared_rows(self.request, again=True)
        return self.prepared.record(row)

    def image_file(self, row: int) -> Callable[[], Path | None]:
        """The row's image cache file, checked (its source and its content) when called."""

        def file() -> Path | None:
            record = self.record(row)
            if record["image_file"] is None:
                return None
            problem = _image_problem(record)
            if problem is not None:
                logger.info(f"{self.at(row)}: {problem}; preparing the rows again.")
                self.prepared = prepared_rows(self.request, again=True)
                record = self.record(row)
                problem = _image_problem(record)
                if problem is not None:
                    raise ImageCacheError(f"{self.at(row)}: {problem}")
            return Path(record["image_file"])

        return file


# the rows request's shape: this module's ScienceQAShape, in the rows child
SCIENCEQA_SHAPE = f"{__name__}:ScienceQAShape"


class ScienceQAShape:
    """In the child: each row's checked fields, its image put into the verified cache
    (``image_file``, and ``image_source`` for an image named by path), and the rows with
    an image (the header's ``image_rows``)."""

    def __init__(self, loaded: LoadedSplit, request: RowsRequest) -> None:
        self.rows = undecoded_images(loaded.rows)
        self.images = ImageFiles(
            self.rows,
            _image_folder(request),
            image_format=request.options["image_format"],
            max_side=request.options["max_side"],
            record_columns=REQUIRED_COLUMNS,
        )
        self.columns = self.images.record_columns or list(REQUIRED_COLUMNS)

    def header(self) -> dict[str, Any]:
        try:
            return {"image_rows": rows_with_image(self.rows), "image_column_error": None}
        except ValueError as ex:
            return {"image_rows": None, "image_column_error": str(ex)}

    def record(self, row: int, values: dict[str, Any]) -> dict[str, Any]:
        fields = checked_fields(values)
        try:
            image = self.images.file(row, values)
        except ImageDecodeError as ex:
            raise ImageDecodeError(f"field 'image': {ex}") from ex
        fields["image_file"] = None if image is None else str(image)
        source = None if image is None else self.images.source_file(row, values)
        if source is not None:
            # an image named by path: its sample checks that the file is still the one read
            stat = source.stat()
            fields["image_source"] = [str(source.resolve()), stat.st_size, stat.st_mtime_ns]
        return fields


def image_options(image_format: ImageFormat, max_side: int | None) -> dict[str, Any]:
    """The ``scienceqa`` shape's options: what each image cache entry depends on."""
    return {
        "image_format": image_format,
        "max_side": max_side,
        "pillow": version("pillow"),
        "image_cache": IMAGE_CACHE_VERSION,
    }


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


def _image_folder(request: RowsRequest) -> Path | None:
    """Folder that relative image paths of local data files are relative to."""
    data_files, dataset_path = request.data_files, request.dataset_path
    if data_files is not None:
        if isinstance(data_files, str):
            return local_path(data_files).parent
        split = request.split
        return local_path(data_files[split]).parent if split in data_files else None
    if dataset_path is not None and local_path(dataset_path).exists():
        path = local_path(dataset_path)
        return path.parent if path.is_file() else path
    return None


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


def subset_rows(rows: PreparedDataset, subset: str) -> list[int] | None:
    """Row numbers of the subset (None: every row)."""
    if subset == "all":
        return None
    prepared = rows.prepared
    image_rows = prepared.header["image_rows"]
    if image_rows is None:
        error = prepared.header["image_column_error"] or "no image column"
        raise DataError(f"{rows.where}: {error}")
    if subset == "image":
        indices = image_rows
    else:
        with_image = set(image_rows)
        indices = [row for row in range(len(prepared.records)) if row not in with_image]
    if not indices:
        raise DataError(f"{rows.where}: no rows in subset {subset!r}.")
    return indices
