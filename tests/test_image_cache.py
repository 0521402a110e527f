"""ScienceQA images referenced from the verified on-disk cache (benchmarks/data/image_cache.py).

What the model receives and what the log shows must be byte for byte what the
inline data URI of ``image_data_uri`` gave before; a damaged cache entry must
be detected by its sha256 and rebuilt.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
from inspect_ai import eval
from inspect_ai._util.images import materialize_media
from inspect_ai.log import read_eval_log
from inspect_ai.model import ContentImage
from PIL import Image

from benchmarks.data import image_cache
from benchmarks.data import rows as prepared_rows
from benchmarks.data.image_cache import ImageCacheError, cached_image_file
from benchmarks.data.image_encoding import ImageFormat, encoded_image
from benchmarks.data.rows import read_rows_file
from benchmarks.data.rows_child import prepare_rows
from benchmarks.data.rows_request import RowsRequest
from benchmarks.data.scienceqa_shape import REQUIRED_COLUMNS, image_options
from benchmarks.data.source import DataSource
from benchmarks.scienceqa import DATASET, scienceqa
from tests.image_encoding_expected import image_data_uri
from tests.loopback_server import LoopbackServer

FIXTURE = Path(__file__).parent / "fixtures" / "scienceqa" / "test_rows.hf.parquet"


def scienceqa_request(data_files: Path, image_format: str = "png") -> RowsRequest:
    """The request ScienceQA makes for the test split of ``data_files``."""
    source = DataSource(
        "scienceqa",
        "ScienceQA",
        DATASET,
        dataset_path=None,
        data_files=str(data_files),
        bundled_sample=False,
        splits=["test"],
    )
    options = image_options(image_format, None)  # type: ignore[arg-type]
    return source.request(
        "test",
        columns=REQUIRED_COLUMNS,
        shape="benchmarks.data.scienceqa_shape:ScienceQAShape",
        options=options,
    )


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
    tmp_path: Path, image_format: ImageFormat, max_side: int | None
) -> None:
    for source in [*fixture_images().values(), rgba_png()]:
        path = cached_image_file(source, tmp_path, image_format=image_format, max_side=max_side)
        assert path.suffix == f".{image_format}"
        assert path.read_bytes() == encoded_image(
            source, image_format=image_format, max_side=max_side
        )
        assert materialized(path) == image_data_uri(
            source, image_format=image_format, max_side=max_side
        )


def test_an_rgb_png_is_cached_as_is(tmp_path: Path) -> None:
    source = fixture_images()[0]
    path = cached_image_file(source, tmp_path)
    assert path.read_bytes() == source
    sidecar = path.with_name(path.name + ".sha256")
    assert sidecar.read_text() == hashlib.sha256(source).hexdigest()


def test_same_source_and_options_share_an_entry(tmp_path: Path) -> None:
    source = fixture_images()[0]
    first = cached_image_file(source, tmp_path)
    assert cached_image_file(source, tmp_path) == first
    assert cached_image_file(source, tmp_path, max_side=50) != first
    assert cached_image_file(source, tmp_path, image_format="jpeg") != first
    entries = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert len(entries) == 6  # three entries, each with its .sha256
    assert not [name for name in entries if name.startswith(".")]  # no temporary files left


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (lambda path: path.write_bytes(path.read_bytes()[:-10]), "did not match its recorded"),
        (lambda path: path.write_bytes(b"x" + path.read_bytes()[1:]), "did not match its recorded"),
        (
            lambda path: path.with_name(path.name + ".sha256").write_text("0" * 64),
            "did not match its recorded",
        ),
        (lambda path: path.unlink(), None),
        (lambda path: path.with_name(path.name + ".sha256").unlink(), None),
    ],
    ids=["truncated", "changed byte", "wrong recorded sha256", "file missing", "sha256 missing"],
)
def test_a_damaged_entry_is_detected_and_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: object, problem: str | None
) -> None:
    source = rgba_png()
    path = cached_image_file(source, tmp_path)
    good = path.read_bytes()
    damage(path)  # type: ignore[operator]
    with caplog.at_level(logging.WARNING, logger="benchmarks.data.image_cache"):
        assert cached_image_file(source, tmp_path) == path
    assert path.read_bytes() == good
    warnings = [record.getMessage() for record in caplog.records]
    if problem is None:  # a missing part: built again quietly, as on first use
        assert warnings == []
    else:
        assert warnings == [
            f"image cache entry {path} {problem} sha256 (corrupted or changed); "
            "rebuilt it from the source image."
        ]


def test_a_cache_path_that_is_a_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "images").write_text("not a folder")
    with pytest.raises(ImageCacheError, match=r"cannot write the image cache .*images: "):
        cached_image_file(rgba_png(), tmp_path / "images")


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


def write_image_rows(path: Path, images: list[bytes]) -> Path:
    """ScienceQA rows (the fixture's first) with these images, parquet with the Image feature."""
    records = pq.read_table(FIXTURE).to_pylist()[: len(images)]
    for record, image in zip(records, images, strict=True):
        record["image"] = {"bytes": image, "path": None}
    features = datasets.load_dataset("parquet", data_files=str(FIXTURE), split="train").features
    datasets.Dataset.from_list(records, features=features).to_parquet(str(path))
    return path


def image_parts(task_dataset: object) -> list[str]:
    return [
        sample.input[0].content[0].image  # type: ignore[union-attr]
        for sample in task_dataset  # type: ignore[attr-defined]
    ]


def prepare_in_process(parquet: Path, rows_file: Path) -> list[str | None]:
    """What the child process does, run here: the rows file's image files, row by row."""
    request = scienceqa_request(parquet)
    prepare_rows(request, rows_file)
    return [record.get("image_file") for record in read_rows_file(rows_file).records]


def two_image_rows_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[int, bytes], Path, list[str]]:
    """A fresh cache, two fixture images as parquet rows, built once: images, file, image parts."""
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    images = fixture_images()
    parquet = write_image_rows(tmp_path / "rows.parquet", [images[0], images[3]])
    return images, parquet, image_parts(scienceqa(data_files=str(parquet)).dataset)


def test_a_cached_row_image_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Preparing rows again leaves a warm cache's image bytes in the table unread."""
    images, parquet, first = two_image_rows_built(tmp_path, monkeypatch)

    def no_read(*_: object) -> bytes:
        raise AssertionError("an image source was read on a cache hit")

    monkeypatch.setattr(image_cache, "image_bytes", no_read)
    assert prepare_in_process(parquet, tmp_path / "again.jsonl") == first
    assert [materialized(Path(p)) for p in first] == [
        image_data_uri(images[0]),
        image_data_uri(images[3]),
    ]


def test_a_current_rows_file_is_read_without_the_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    images, parquet, first = two_image_rows_built(tmp_path, monkeypatch)

    def no_child(*_: object) -> None:
        raise AssertionError("the child process was started for a current rows file")

    monkeypatch.setattr(prepared_rows, "_prepare", no_child)
    assert image_parts(scienceqa(data_files=str(parquet)).dataset) == first


def test_a_changed_image_file_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An image named by a path is checked when its sample is built, not only its data file."""
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    images = fixture_images()
    record = pq.read_table(FIXTURE).to_pylist()[0] | {"image": "pictures/a.png"}
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "a.png").write_bytes(images[0])
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(record) + "\n", encoding="utf-8")
    (before,) = image_parts(scienceqa(data_files=str(rows)).dataset)
    (tmp_path / "pictures" / "a.png").write_bytes(images[4])
    (after,) = image_parts(scienceqa(data_files=str(rows)).dataset)
    assert materialized(Path(before)) == image_data_uri(images[0])
    assert materialized(Path(after)) == image_data_uri(images[4])


def test_a_damaged_row_entry_is_rebuilt_from_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    images = fixture_images()
    parquet = write_image_rows(tmp_path / "rows.parquet", [images[0]])
    (path,) = image_parts(scienceqa(data_files=str(parquet)).dataset)
    Path(path).write_bytes(b"not the image")
    with caplog.at_level(logging.WARNING, logger="benchmarks.data.image_cache"):
        assert image_parts(scienceqa(data_files=str(parquet)).dataset) == [path]
    assert Path(path).read_bytes() == images[0]
    assert [r.getMessage() for r in caplog.records] == [
        f"image cache entry {path} did not match its recorded sha256 (corrupted or changed); "
        "rebuilt it from the source image."
    ]


def test_a_changed_data_file_gets_its_new_images(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Row-keyed entries belong to one Arrow cache file: new data, new entries."""
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    images = fixture_images()
    parquet = write_image_rows(tmp_path / "rows.parquet", [images[0]])
    (before,) = image_parts(scienceqa(data_files=str(parquet)).dataset)
    write_image_rows(parquet, [images[4]])
    (after,) = image_parts(scienceqa(data_files=str(parquet)).dataset)
    assert after != before
    assert materialized(Path(after)) == image_data_uri(images[4])
    assert materialized(Path(before)) == image_data_uri(images[0])


def test_an_empty_cache_is_filled_from_plain_file_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first preparation reads no image from the memory-mapped table: its pages stay out."""
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    images = fixture_images()
    parquet = write_image_rows(tmp_path / "rows.parquet", [images[0], images[3], images[4]])

    def no_read(*_: object) -> bytes:
        raise AssertionError("an image was read from the memory-mapped table")

    monkeypatch.setattr(image_cache, "image_bytes", no_read)
    paths = prepare_in_process(parquet, tmp_path / "rows.jsonl")
    assert [materialized(Path(p)) for p in paths if p is not None] == [
        image_data_uri(images[0]),
        image_data_uri(images[3]),
        image_data_uri(images[4]),
    ]
