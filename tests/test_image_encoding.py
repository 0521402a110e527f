"""Image decoding and data-URI encoding (benchmarks/data/image_encoding.py)."""

from __future__ import annotations

import base64
import io
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from PIL import Image, ImageChops

from benchmarks.data.image_encoding import (
    JPEG_QUALITY,
    ImageDecodeError,
    scaled_size,
)
from tests.image_encoding_expected import image_data_uri

FIXTURE = Path(__file__).parent / "fixtures" / "scienceqa" / "test_rows.hf.parquet"


def fixture_png() -> bytes:
    """The real ScienceQA PNG of fixture row 0 (RGB, 236x241)."""
    value = pq.read_table(FIXTURE, columns=["image"]).column("image")[0].as_py()
    return value["bytes"]


def encode(image: Image.Image, fmt: str = "PNG") -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return buffer.getvalue()


def split_uri(uri: str) -> tuple[str, bytes]:
    header, _, payload = uri.partition(",")
    return header, base64.b64decode(payload, validate=True)


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.mode == b.mode and ImageChops.difference(a, b).getbbox() is None


def gradient(size: tuple[int, int], mode: str = "RGB") -> Image.Image:
    width, height = size
    image = Image.new("RGB", size)
    image.putdata(
        [
            ((x * 7) % 256, (y * 13) % 256, (x + y) % 256)
            for y in range(height)
            for x in range(width)
        ]
    )
    return image.convert(mode)


def test_rgb_png_is_embedded_unchanged() -> None:
    source = fixture_png()
    header, payload = split_uri(image_data_uri(source))
    assert header == "data:image/png;base64"
    assert payload == source
    with Image.open(io.BytesIO(source)) as original:
        assert same_pixels(Image.open(io.BytesIO(payload)), original.convert("RGB"))


@pytest.mark.parametrize("mode", ["RGBA", "P", "L", "LA", "CMYK"])
def test_other_modes_are_converted_to_rgb_without_changing_pixels(mode: str) -> None:
    source_image = gradient((31, 17), mode)
    source = encode(source_image, "TIFF" if mode == "CMYK" else "PNG")
    header, payload = split_uri(image_data_uri(source))
    assert header == "data:image/png;base64"
    decoded = Image.open(io.BytesIO(payload))
    assert decoded.format == "PNG"
    assert same_pixels(decoded, source_image.convert("RGB"))


def test_rgb_png_with_transparency_is_reencoded_as_plain_rgb() -> None:
    source_image = gradient((8, 8))
    buffer = io.BytesIO()
    source_image.save(buffer, format="PNG", transparency=(0, 0, 0))
    source = buffer.getvalue()
    _, payload = split_uri(image_data_uri(source))
    assert payload != source
    decoded = Image.open(io.BytesIO(payload))
    assert "transparency" not in decoded.info
    assert same_pixels(decoded, source_image)


def test_palette_png_with_transparency_becomes_opaque_rgb() -> None:
    source_image = gradient((8, 8)).convert("P")
    buffer = io.BytesIO()
    source_image.save(buffer, format="PNG", transparency=0)
    _, payload = split_uri(image_data_uri(buffer.getvalue()))
    decoded = Image.open(io.BytesIO(payload))
    assert decoded.mode == "RGB" and "transparency" not in decoded.info
    assert same_pixels(decoded, source_image.convert("RGB"))


def test_jpeg_output() -> None:
    source = fixture_png()
    header, payload = split_uri(image_data_uri(source, image_format="jpeg"))
    assert header == "data:image/jpeg;base64"
    decoded = Image.open(io.BytesIO(payload))
    assert decoded.format == "JPEG" and decoded.mode == "RGB" and decoded.size == (236, 241)
    buffer = io.BytesIO()
    Image.open(io.BytesIO(source)).convert("RGB").save(buffer, format="JPEG", quality=JPEG_QUALITY)
    assert payload == buffer.getvalue()


def test_rgb_jpeg_source_is_embedded_unchanged_as_jpeg() -> None:
    source = encode(gradient((20, 10)), "JPEG")
    _, payload = split_uri(image_data_uri(source, image_format="jpeg"))
    assert payload == source


@pytest.mark.parametrize(
    ("size", "max_side", "expected"),
    [
        ((400, 100), None, (400, 100)),
        ((400, 100), 400, (400, 100)),
        ((400, 100), 1000, (400, 100)),
        ((400, 100), 200, (200, 50)),
        ((100, 400), 200, (50, 200)),
        ((101, 33), 50, (50, 16)),
        ((236, 241), 100, (98, 100)),
        ((1000, 1), 10, (10, 1)),
    ],
)
def test_scaled_size(
    size: tuple[int, int], max_side: int | None, expected: tuple[int, int]
) -> None:
    assert scaled_size(size, max_side) == expected


def test_resize_caps_the_longest_side_with_lanczos() -> None:
    source = fixture_png()
    _, payload = split_uri(image_data_uri(source, max_side=100))
    decoded = Image.open(io.BytesIO(payload))
    expected = (
        Image.open(io.BytesIO(source)).convert("RGB").resize((98, 100), Image.Resampling.LANCZOS)
    )
    assert same_pixels(decoded, expected)


def test_no_resize_when_the_image_fits() -> None:
    source = fixture_png()
    assert split_uri(image_data_uri(source, max_side=241))[1] == source


def flip_bit(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]


TRUNCATED = "image bytes could not be decoded (OSError: Truncated File Read)"
BAD_CHECKSUM = (
    "image bytes could not be decoded "
    "(SyntaxError: broken PNG file (bad header checksum in b'IDAT'))"
)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "image bytes are empty"),
        (b"not an image", "image bytes could not be decoded (not in an image format Pillow reads)"),
        (fixture_png()[:1000], TRUNCATED),
        (fixture_png()[:-20], TRUNCATED),
        (flip_bit(fixture_png(), 200), BAD_CHECKSUM),
        (fixture_png()[:60] + bytes(20) + fixture_png()[80:], BAD_CHECKSUM),
    ],
)
def test_undecodable_bytes_sent_as_is(data: bytes, message: str) -> None:
    with pytest.raises(ImageDecodeError) as raised:
        image_data_uri(data)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "image bytes are empty"),
        (b"not an image", "image bytes could not be decoded (not in an image format Pillow reads)"),
        (
            fixture_png()[:1000],
            "image bytes could not be decoded (OSError: image file is truncated)",
        ),
        (
            fixture_png()[:60] + bytes(20) + fixture_png()[80:],
            "image bytes could not be decoded "
            "(OSError: broken data stream when reading image file)",
        ),
    ],
)
def test_undecodable_bytes_when_decoded(data: bytes, message: str) -> None:
    with pytest.raises(ImageDecodeError) as raised:
        image_data_uri(data, max_side=10)
    assert str(raised.value) == message


def test_invalid_arguments() -> None:
    source = fixture_png()
    with pytest.raises(ValueError, match=r"^unknown image_format 'gif'; choose one of png, jpeg$"):
        image_data_uri(source, image_format="gif")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^max_side must be a positive integer or None, got 0$"):
        image_data_uri(source, max_side=0)
