"""ScienceQA images as files of a verified on-disk cache, not inline data URIs.

A sample's image part names a cache file holding exactly the bytes sent
(``image_encoding.encoded_image``). Inspect's ``eval()`` reads such a path into
a data URI when the sample starts (``materialize_sample_input``: base64 of the
file bytes, MIME type from the ``.png``/``.jpeg`` suffix), so the request and
the log carry the very data URI of those bytes, while a dataset holds a path
instead of ~140 KB of base64 per image: building every sample
(as Inspect 0.3.285 does before applying ``--limit``) no longer holds every
image. The cache lives in ``$INSPECT_BENCHMARKS_CACHE/images``, else the
platform's user cache (``~/.cache/inspect_benchmarks/images``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.data import download
from benchmarks.data.image_encoding import (
    IMAGE_FORMATS,
    ImageDecodeError,
    ImageFormat,
    encoded_image,
)
from benchmarks.runtime.lazy_modules import LazyModule

if TYPE_CHECKING:
    import datasets
    import PIL
    import pyarrow as pa
    import pyarrow.compute as pc
else:
    datasets = LazyModule("datasets")
    PIL = LazyModule("PIL")
    pa = LazyModule("pyarrow")
    pc = LazyModule("pyarrow.compute")

# Bumped when what a cache entry holds changes; part of every entry's key.
IMAGE_CACHE_VERSION = 1

logger = logging.getLogger(__name__)


class ImageCacheError(OSError):
    """The image cache cannot be written."""


def cached_image_file(
    data: bytes,
    cache: Path,
    *,
    image_format: ImageFormat = "png",
    max_side: int | None = None,
) -> Path:
    """A file under ``cache`` holding exactly ``encoded_image(data, ...)``.

    Inspect reads a ``ContentImage`` file path into a data URI when the
    sample starts (``materialize_sample_input``: base64 of the file bytes,
    MIME type from the ``.png``/``.jpeg`` suffix), so a sample that names this
    file sends and logs the very data URI ``image_data_uri`` gives, while a
    dataset holds a path instead of ~140 KB of base64 per image. The entry
    is keyed by the sha256 of ``data`` (see ``cached_source_image``).
    """
    if not isinstance(data, (bytes, bytearray)) or len(data) == 0:
        raise ImageDecodeError("image bytes are empty")
    source = f"source sha256 {hashlib.sha256(data).hexdigest()}"
    return cached_source_image(
        source, lambda: data, cache, image_format=image_format, max_side=max_side
    )


def cached_source_image(
    source: str,
    read: Callable[[], bytes],
    cache: Path,
    *,
    image_format: ImageFormat = "png",
    max_side: int | None = None,
) -> Path:
    """The cache file of the image that ``source`` names; ``read()`` gives its bytes.

    ``source`` must change whenever the bytes would (their sha256, or the
    identity of an immutable file and the row in it): ``read`` is called only
    when the entry is missing or damaged, so a cached image's source is never
    read. Entries are keyed by ``source``, the encoding options, the Pillow
    version and ``IMAGE_CACHE_VERSION``, and stored beside the sha256 of
    their content (``<entry>.sha256``): an entry whose content does not match
    is rebuilt, with a warning. Writes go through a temporary file and an
    atomic rename, so concurrent runs and interrupted writes never leave a
    partial entry under the final name.
    """
    if image_format not in IMAGE_FORMATS:
        raise ValueError(
            f"unknown image_format {image_format!r}; choose one of {', '.join(IMAGE_FORMATS)}"
        )
    options = f"v{IMAGE_CACHE_VERSION}|{image_format}|{max_side}|pillow {PIL.__version__}"
    key = hashlib.sha256(f"{options}|{source}".encode()).hexdigest()
    entry = cache / key[:2] / f"{key}.{image_format}"
    recorded = entry.with_name(entry.name + ".sha256")
    problem = entry_problem(entry, recorded)
    if problem is None:
        return entry
    encoded = encoded_image(read(), image_format=image_format, max_side=max_side)
    if problem != "missing":
        logger.warning(f"image cache entry {entry} {problem}; rebuilt it from the source image.")
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(entry, encoded)
        write_atomically(recorded, hashlib.sha256(encoded).hexdigest().encode("ascii"))
    except OSError as ex:
        raise ImageCacheError(
            f"cannot write the image cache {cache}: {ex}. Set INSPECT_BENCHMARKS_CACHE "
            "to a writable folder."
        ) from ex
    return entry


def entry_problem(entry: Path, recorded: Path) -> str | None:
    """Why a cache entry cannot be used as it is (None: it can)."""
    try:
        content = entry.read_bytes()
        expected = recorded.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return "missing"
    except (OSError, UnicodeDecodeError) as ex:
        return f"could not be read ({ex})"
    if hashlib.sha256(content).hexdigest() != expected:
        return "did not match its recorded sha256 (corrupted or changed)"
    return None


def write_atomically(path: Path, content: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(content)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def image_bytes(value: Any, image_folder: Path | None) -> bytes | None:
    """The encoded image of a row (None when it has none).

    ``value`` is the undecoded Image feature (``{"bytes", "path"}``) or a path
    string; a relative path is taken relative to ``image_folder``.
    """
    if value is None:
        return None
    if isinstance(value, dict):
        if value.get("bytes") is not None:
            data = value["bytes"]
            if not isinstance(data, bytes):
                raise TypeError(f"field 'image.bytes' should be bytes, got {type(data).__name__}")
            return data
        value = value.get("path")
        if value is None:
            return None
    if not isinstance(value, str):
        raise TypeError(
            "field 'image' should be an image (bytes and path), a path or null, "
            f"got {type(value).__name__} {value!r:.60}"
        )
    if value == "":
        return None
    path = Path(value)
    if not path.is_absolute() and image_folder is not None:
        path = image_folder / path
    try:
        return path.read_bytes()
    except OSError as ex:
        raise ValueError(f"field 'image': cannot read image file {str(path)!r}: {ex}") from ex


class _Filled(Exception):
    """The cache was filled for every row: look the entry up again."""


class ImageFiles:
    """The image cache file of each row (``cached_source_image``).

    Where ``rows`` is a memory-mapped Arrow cache file of ``datasets`` (never
    rewritten: a changed source gets a new file), an embedded image is keyed
    by that file and the row, and its bytes are read from the table only to
    build a missing entry: building every sample (as Inspect does before
    ``--limit``) then leaves the ~200 MB of image pages of the ScienceQA test
    split unread. Otherwise (an in-memory table, image paths) it is keyed by
    the sha256 of its bytes. ``record_columns``: the columns a sample needs,
    read without the image (``record_columns`` is None when records must be
    read whole, image included).
    """

    def __init__(
        self,
        rows: datasets.Dataset | None,
        image_folder: Path | None,
        image_format: ImageFormat = "png",
        max_side: int | None = None,
        record_columns: Sequence[str] = (),
    ) -> None:
        self.image_folder = image_folder
        self.options: dict[str, Any] = {"image_format": image_format, "max_side": max_side}
        self.cache = download.cache_dir("images")
        self.record_columns: list[str] | None = None
        self.table_identity: str | None = None
        if rows is None or rows._indices is not None or not rows.cache_files:
            return
        column = rows.data.table.column("image")
        if not pa.types.is_struct(column.type) or column.type.get_field_index("bytes") < 0:
            return
        self.cache_files = [file["filename"] for file in rows.cache_files]
        self.filled = False
        stats = [os.stat(file) for file in self.cache_files]
        self.table_identity = json.dumps(
            [
                rows._fingerprint,
                [
                    [f["filename"], s.st_size, s.st_mtime_ns]
                    for f, s in zip(rows.cache_files, stats, strict=True)
                ],
            ]
        )
        self.column = column
        self.embedded_lengths = pc.binary_length(pc.struct_field(column, "bytes"))
        # records without the image: a row's bytes are read only on a cache miss
        self.record_columns = [name for name in record_columns if name != "image"]

    def file(self, row: int, record: dict[str, Any]) -> Path | None:
        if self.table_identity is None:
            return self.record_file(record)()
        length = self.embedded_lengths[row].as_py()
        if length is None:  # no embedded bytes: a path, or no image
            return self.record_file({"image": self.column[row].as_py()})()

        def read() -> bytes:
            # The first miss fills the cache for every row from a plain file
            # read; only a later miss (an entry damaged meanwhile) reads the map.
            if not self.filled:
                self.filled = True
                self.fill_from_files()
                raise _Filled
            return image_bytes(self.column[row].as_py(), None) or b""

        try:
            return self.cached_row(row, length, read)
        except _Filled:
            return self.cached_row(row, length, read)

    def cached_row(self, row: int, length: int, read: Callable[[], bytes]) -> Path:
        source = f"arrow {self.table_identity} row {row} length {length}"
        return cached_source_image(source, read, self.cache, **self.options)

    def fill_from_files(self) -> None:
        """Every row's entry, reading the Arrow files batch by batch with read().

        Reading a missing image from the memory-mapped table would keep its
        pages in the process's memory for the rest of the run: a first
        (cold) run, which builds every sample, would hold all ~200 MB of them.
        """
        offset = 0
        try:
            for file in self.cache_files:
                with pa.OSFile(file) as source, pa.ipc.open_stream(source) as batches:
                    for batch in batches:
                        embedded = batch.column("image").field("bytes")
                        for index in range(batch.num_rows):
                            value = embedded[index]
                            if not value.is_valid:
                                continue
                            data: bytes = value.as_py()
                            try:
                                self.cached_row(offset + index, len(data), _returning(data))
                            except ImageDecodeError:
                                pass  # reported, naming its row, when that sample is built
                        offset += batch.num_rows
        except (pa.ArrowException, OSError, KeyError) as ex:
            # not the stream layout expected: rows are read from the table instead
            logger.debug(f"image cache: could not stream {self.cache_files}: {ex}")

    def source_file(self, row: int, record: dict[str, Any]) -> Path | None:
        """The image file a row names by path (None: embedded bytes, or no image)."""
        if self.table_identity is not None and "image" not in record:
            if self.embedded_lengths[row].as_py() is not None:
                return None
            value = self.column[row].as_py()
        else:
            value = record.get("image")
        if isinstance(value, dict):
            if value.get("bytes") is not None:
                return None
            value = value.get("path")
        if not isinstance(value, str) or value == "":
            return None
        path = Path(value)
        if not path.is_absolute() and self.image_folder is not None:
            path = self.image_folder / path
        return path

    def record_file(self, record: dict[str, Any]) -> Callable[[], Path | None]:
        def file() -> Path | None:
            data = image_bytes(record.get("image"), self.image_folder)
            return None if data is None else cached_image_file(data, self.cache, **self.options)

        return file


def _returning(data: bytes) -> Callable[[], bytes]:
    return lambda: data
