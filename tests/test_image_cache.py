"""ScienceQA images referenced from the on-disk cache (benchmarks/data/image_cache.py).

What the model receives and what the log shows must be byte for byte what the inline data
URI of ``image_data_uri`` gives; an entry is named by its source bytes and the options.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from inspect_ai import eval
from inspect_ai._util.images import materialize_media
from inspect_ai.log import read_eval_log
from inspect_ai.model import ContentImage
from PIL import Image

from benchmarks.data.image_cache import ImageCacheError, cached_image_file
from benchmarks.data.image_encoding import ImageFormat, encoded_image
from benchmarks.scienceqa import scienceqa
from tests.image_encoding_expected import image_data_uri
from tests.loopback_server import LoopbackServer

FIXTURE = Path(__file__).parent / "fixtures" / "scienceqa" / "test_rows.hf.parquet"


def fixture_images() -> dict[int, bytes]:
    """Row -> source image bytes, for the fixture rows that have one."""
    column = pq.read_table(FIXTURE, columns=["image"]).column("image").to_pylist()
    return {row: value["bytes"] for row, value in enumerate(column) if value is not None}


def rgba_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGBA", (40, 30), (10, 200, 30, 128)).save(buffer, format="PNG")
    return buffer.getvalue()


def materialized(path: Path) -> str:
    """The data URI Inspect makes of an image file when a sample starts."""
    return asyncio.run(materialize_media(str(path)))


@pytest.mark.parametrize(
    ("image_format", "max_side"), [("png", None), ("png", 100), ("jpeg", None), ("jpeg", 64)]
)
def test_cached_file_sends_the_data_uri_of_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, image_format: ImageFormat, max_side: int | None
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path))
    for source in [*fixture_images().values(), rgba_png()]:
        path = cached_image_file(source, image_format=image_format, max_side=max_side)
        assert path.suffix == f".{image_format}"
        assert path.read_bytes() == encoded_image(
            source, image_format=image_format, max_side=max_side
        )
        assert materialized(path) == image_data_uri(
            source, image_format=image_format, max_side=max_side
        )


def test_an_rgb_png_is_cached_as_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path))
    source = fixture_images()[0]
    assert cached_image_file(source).read_bytes() == source


def test_same_source_and_options_share_an_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path))
    source = fixture_images()[0]
    first = cached_image_file(source)
    assert cached_image_file(source) == first
    assert cached_image_file(source, max_side=50) != first
    assert cached_image_file(source, image_format="jpeg") != first
    assert cached_image_file(rgba_png()) != first
    entries = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert len(entries) == 4
    assert not [name for name in entries if name.startswith(".")]  # no temporary files left


def test_a_cache_path_that_is_a_file_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cache").write_text("not a folder")
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    with pytest.raises(ImageCacheError, match=r"cannot write the image cache .*images: "):
        cached_image_file(rgba_png())


def test_scienceqa_samples_hold_paths_not_images(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path))
    samples = list(scienceqa(data_files=str(FIXTURE)).dataset)
    images = fixture_images()
    for row, sample in enumerate(samples):
        if row not in images:
            assert isinstance(sample.input, str)
            continue
        assert not isinstance(sample.input, str)
        part = sample.input[0].content[0]
        assert isinstance(part, ContentImage)
        assert Path(part.image).parent.parent == tmp_path / "images"
        assert materialized(Path(part.image)) == image_data_uri(images[row])


def test_model_and_log_get_the_data_uri_of_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through real HTTP: the request and the logged sample carry image_data_uri(source)."""
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    images = fixture_images()
    with LoopbackServer(lambda _request: "A") as server:
        monkeypatch.setenv("LOOPBACK_BASE_URL", server.base_url)
        monkeypatch.setenv("LOOPBACK_API_KEY", "x")
        (log,) = eval(
            scienceqa(data_files=str(FIXTURE), subset="image"),
            model="openai-api/loopback/scripted",
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
    assert log.status == "success"
    expected = {image_data_uri(source) for source in images.values()}
    sent = {
        part["image_url"]["url"]
        for request in server.requests
        for message in request["messages"]
        if isinstance(message["content"], list)
        for part in message["content"]
        if part["type"] == "image_url"
    }
    assert len(server.requests) == len(images)
    assert sent == expected
    logged = read_eval_log(str(log.location), resolve_attachments=True)
    assert logged.samples is not None and len(logged.samples) == len(images)
    logged_images = set()
    for sample in logged.samples:
        assert not isinstance(sample.input, str)
        part = sample.input[0].content[0]
        assert isinstance(part, ContentImage)
        logged_images.add(part.image)
        init = next(event for event in sample.events if event.event == "sample_init")
        init_part = init.sample.input[0].content[0]  # type: ignore[index,union-attr]
        assert init_part.image == part.image  # type: ignore[union-attr]
    assert logged_images == expected
