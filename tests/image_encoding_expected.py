"""What the tests expect of an image: its data URI as sent, and its decoded pixels."""

from __future__ import annotations

import base64
import io

from PIL import Image

from benchmarks.data.image_encoding import ImageFormat, encoded_image

MIME_TYPES = {"png": "image/png", "jpeg": "image/jpeg"}


def image_data_uri(
    data: bytes, *, image_format: ImageFormat = "png", max_side: int | None = None
) -> str:
    """The base64 data URI of the RGB image in ``data``, as the model receives it."""
    encoded = encoded_image(data, image_format=image_format, max_side=max_side)
    return f"data:{MIME_TYPES[image_format]};base64,{base64.b64encode(encoded).decode('ascii')}"


def decode_image(data: bytes) -> Image.Image:
    """Every pixel of the image in ``data`` (a corrupt body fails here)."""
    image = Image.open(io.BytesIO(data))
    image.load()
    return image
