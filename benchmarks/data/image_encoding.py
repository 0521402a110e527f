"""Images for multimodal prompts: the bytes sent, an RGB image in PNG (lossless, the
default) or JPEG, decoded with Pillow; docs/scienceqa.md ("Images") says what is sent when.

An opaque RGB source already in the requested format, with no resize asked for, is sent as
it is, byte for byte (no costly re-encode, logs no larger than its base64), once checked:
a PNG with Pillow's ``verify()`` (every chunk's CRC, to the end of the file), other formats
by decoding every pixel.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

ImageFormat = Literal["png", "jpeg"]
IMAGE_FORMATS: tuple[ImageFormat, ...] = ("png", "jpeg")
JPEG_QUALITY = 95


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
        image.format == image_format.upper()  # Pillow's names: PNG, JPEG
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
