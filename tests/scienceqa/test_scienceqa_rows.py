"""ScienceQA rows read in process (benchmarks/data/scienceqa.py): each image put into the
image cache as the split is read, a changed image read again, a row's image error, the Hub
unavailable, and the location named as the run names the file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
from inspect_ai.dataset import Dataset

from benchmarks.data.hub import OFFLINE_HELP
from benchmarks.data.image_cache import ImageCacheError
from benchmarks.runtime.errors import DataError, DataUnavailableError
from benchmarks.scienceqa import scienceqa

FIXTURE = Path(__file__).parents[1] / "fixtures" / "scienceqa" / "test_rows.hf.parquet"


def image_files(dataset: Dataset) -> list[Path]:
    return [
        Path(sample.input[0].content[0].image)  # type: ignore[union-attr,index]
        for sample in dataset
    ]


def test_the_image_cache_entry_is_named_by_the_bytes_and_the_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    png = image_files(scienceqa(data_files=str(FIXTURE), subset="image").dataset)
    again = image_files(scienceqa(data_files=str(FIXTURE), subset="image").dataset)
    jpeg = image_files(
        scienceqa(data_files=str(FIXTURE), subset="image", image_format="jpeg").dataset
    )
    assert again == png and all(path.parents[1] == tmp_path / "cache" / "images" for path in png)
    assert {path.suffix for path in png} == {".png"} and {path.suffix for path in jpeg} == {".jpeg"}
    assert not set(png) & set(jpeg)


def test_a_changed_image_file_named_in_parquet_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A parquet Image column may name files instead of embedding bytes: those are read on
    every run, so a changed file is another image."""
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    records = pq.read_table(FIXTURE).to_pylist()
    first, other = records[0]["image"]["bytes"], records[4]["image"]["bytes"]
    (tmp_path / "pictures").mkdir()
    picture = tmp_path / "pictures" / "a.png"
    picture.write_bytes(first)
    row = records[0] | {"image": {"bytes": None, "path": str(picture)}}
    features = datasets.load_dataset("parquet", data_files=str(FIXTURE), split="train").features
    parquet = tmp_path / "rows.parquet"
    datasets.Dataset.from_list([row], features=features).to_parquet(str(parquet))
    (before,) = image_files(scienceqa(data_files=str(parquet)).dataset)
    picture.write_bytes(other)
    (after,) = image_files(scienceqa(data_files=str(parquet)).dataset)
    assert before.read_bytes() == first
    assert after.read_bytes() == other


def test_a_row_error_is_not_kept_once_the_image_is_fixed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    record = pq.read_table(FIXTURE).to_pylist()[0] | {"image": "pictures/a.png"}
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(
        DataError, match=r"\(test split\), line 1: field 'image': cannot read image file"
    ):
        scienceqa(data_files=str(rows)).dataset[0]
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "a.png").write_bytes(
        pq.read_table(FIXTURE)["image"][0]["bytes"].as_py()
    )
    assert scienceqa(data_files=str(rows)).dataset[0].target == "B"


def test_the_hub_unavailable_offline_says_how_to_run_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The tests run with HF_HUB_OFFLINE=1 and an empty Hugging Face cache.
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    with pytest.raises(DataUnavailableError) as raised:
        scienceqa()
    message = str(raised.value)
    assert message.startswith(
        "Could not load the ScienceQA dataset 'derek-thomas/ScienceQA', split 'test': "
    )
    assert message.endswith(f".\n{OFFLINE_HELP}")


def test_the_location_is_named_as_this_run_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    shutil.copy(FIXTURE, tmp_path / "rows.parquet")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PWD", str(tmp_path))
    assert scienceqa(data_files="rows.parquet").dataset.location == "rows.parquet (test split)"
    absolute = tmp_path / "rows.parquet"
    assert scienceqa(data_files=str(absolute)).dataset.location == f"{absolute} (test split)"


def test_an_unwritable_image_cache_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a_file").write_text("not a folder")
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "a_file" / "cache"))
    with pytest.raises(ImageCacheError) as raised:
        scienceqa(data_files=str(FIXTURE))
    assert str(raised.value).startswith(
        f"cannot write the image cache {tmp_path / 'a_file' / 'cache' / 'images'}: "
    )
    assert str(raised.value).endswith("Set INSPECT_BENCHMARKS_CACHE to a writable folder.")
