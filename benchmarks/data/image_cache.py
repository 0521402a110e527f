"""ScienceQA images as files of an on-disk cache, not inline data URIs: Inspect reads a
sample's image path into the data URI of its bytes when the sample starts, while the
dataset holds a path instead of ~140 KB of base64 per image (Inspect builds every sample
before it applies ``--limit``: 2,017 data URIs would hold ~280 MB). Where the cache lives,
how an entry is named and written: docs/scienceqa.md and docs/performance.md.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.data import download
from benchmarks.data.image_encoding import ImageFormat, encoded_image
from benchmarks.runtime.errors import UserInputError

# Bumped when what a cache entry holds changes; part of every entry's name.
IMAGE_CACHE_VERSION = 2


class ImageCacheError(UserInputError):
    """The image cache cannot be written."""


def cached_image_file(
    data: bytes, *, image_format: ImageFormat = "png", max_side: int | None = None
) -> Path:
    """A file of the cache holding exactly ``encoded_image(data, ...)``."""
    import PIL

    options = f"v{IMAGE_CACHE_VERSION}|{image_format}|{max_side}|pillow {PIL.__version__}|"
    key = hashlib.sha256(options.encode() + data).hexdigest()
    cache = download.cache_dir("images")
    entry = cache / key[:2] / f"{key}.{image_format}"
    if entry.is_file():
        return entry
    encoded = encoded_image(data, image_format=image_format, max_side=max_side)
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(entry, encoded)
    except OSError as ex:
        raise ImageCacheError(
            f"cannot write the image cache {cache}: {ex}. Set {download.CACHE_DIR_ENV} to a "
            "writable folder."
        ) from ex
    return entry


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

    ``value`` is the undecoded Image feature (``{"bytes", "path"}``) or a path string; a
    relative path is taken relative to ``image_folder``.
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
