"""Images for multimodal prompts: decode with Pillow, convert to RGB, embed as a data URI.

The encoded form is a ``data:image/png;base64,...`` (or ``image/jpeg``) URI,
which Inspect's ``ContentImage`` accepts and every vision provider can take.
ScienceQA samples name a cache file holding these bytes instead
(``benchmarks/data/image_cache.py``): Inspect makes the same data URI of it.

PNG is the default: it is lossless, so the model sees exactly the source
pixels. When the source already is an opaque RGB image in the requested
format and no resize is asked for, its bytes are embedded unchanged, which
avoids a costly re-encode and keeps logs no larger than the base64 of the
source; they are checked first (a PNG with Pillow's ``verify()``, which
checks every chunk's CRC to the end of the file, so truncated or corrupted
bytes fail; other formats by decoding every pixel). Otherwise the image is
decoded, converted to RGB (Pillow's
``convert("RGB")``, as lmms-eval does), optionally scaled down so its longest
side is at most ``max_side`` (aspect ratio kept, each side rounded to the
nearest pixel and at least 1, Lanczos resampling; never scaled up), and
encoded.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

ImageFormat = Literal["png", "jpeg"]
IMAGE_FORMATS: tuple[ImageFormat, ...] = ("png", "jpeg")
JPEG_QUALITY = 95

_PIL_FORMATS: dict[ImageFormat, str] = {"png": "PNG", "jpeg": "JPEG"}
_MIME_TYPES: dict[ImageFormat, str] = {"png": "image/png", "jpeg": "image/jpeg"}


class ImageDecodeError(ValueError):
    """Image bytes that Pillow cannot decode."""


@contextmanager
def _decoding(data: bytes) -> Iterator[None]:
    from PIL import Image  # with a ScienceQA task, not with every inspect command

    if not isinstance(data, (bytes, bytearray)) or len(data) == 0:
        raise ImageDecodeError("image bytes are empty")
    try:
        yield
    except Image.UnidentifiedImageError as ex:
        raise ImageDecodeError(
            "image bytes could not be decoded (not in an image format Pillow reads)"
        ) from ex
    except Exception as ex:  # noqa: BLE001 - Pillow raises many types for bad data
        raise ImageDecodeError(
            f"image bytes could not be decoded ({type(ex).__name__}: {ex})"
        ) from ex


def scaled_size(size: tuple[int, int], max_side: int | None) -> tuple[int, int]:
    """``size`` scaled down so its longest side is ``max_side`` (unchanged if it fits)."""
    width, height = size
    if max_side is None or max(width, height) <= max_side:
        return size
    scale = max_side / max(width, height)
    return max(1, round(width * scale)), max(1, round(height * scale))


def encoded_image(
    data: bytes, *, image_format: ImageFormat = "png", max_side: int | None = None
) -> bytes:
    """The bytes of the RGB image in ``data`` as sent to the model: ``image_format``
    (``png`` lossless, ``jpeg`` at quality ``JPEG_QUALITY``), scaled down so the longest
    side is at most ``max_side`` (None: no resize)."""
    if image_format not in IMAGE_FORMATS:
        raise ValueError(
            f"unknown image_format {image_format!r}; choose one of {', '.join(IMAGE_FORMATS)}"
        )
    if max_side is not None and (not isinstance(max_side, int) or max_side < 1):
        raise ValueError(f"max_side must be a positive integer or None, got {max_side!r}")
    from PIL import Image  # with a ScienceQA task, not with every inspect command

    with _decoding(data):
        image = Image.open(io.BytesIO(data))
    size = scaled_size(image.size, max_side)
    unchanged = (
        image.format == _PIL_FORMATS[image_format]
        and image.mode == "RGB"
        and "transparency" not in image.info
        and size == image.size
    )
    if unchanged and image.format == "PNG":
        # verify() checks the CRC of every chunk to the end (truncation and
        # corruption both fail it) without inflating the pixels: ~50x cheaper.
        with _decoding(data):
            image.verify()
        return bytes(data)
    with _decoding(data):
        image.load()
    if unchanged:
        return bytes(data)
    converted = image.convert("RGB")
    # Pillow keeps a transparent colour key through convert() and would
    # write it back; the model should get plain opaque RGB.
    converted.info.pop("transparency", None)
    if size != converted.size:
        converted = converted.resize(size, Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    if image_format == "jpeg":
        converted.save(buffer, format="JPEG", quality=JPEG_QUALITY)
    else:
        converted.save(buffer, format="PNG")
    return buffer.getvalue()
