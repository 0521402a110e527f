"""ScienceQA rows prepared by a child process (benchmarks/data/scienceqa_shape.py): the rows file,
what brings the child back, and the child's errors as the eval process reports them."""

from __future__ import annotations

import json
import logging
import shutil
import sys
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
from inspect_ai.dataset import Dataset

from benchmarks.data import rows as prepared_rows
from benchmarks.data import rows_cache
from benchmarks.data.rows_request import RowsRequest
from benchmarks.data.scienceqa_shape import REQUIRED_COLUMNS, image_options
from benchmarks.data.source import DataSource
from benchmarks.data.split_reader import OFFLINE_HELP
from benchmarks.runtime.errors import DataError, DataUnavailableError
from benchmarks.scienceqa import DATASET, scienceqa

FIXTURE = Path(__file__).parents[1] / "fixtures" / "scienceqa" / "test_rows.hf.parquet"


@pytest.fixture(autouse=True)
def real_child_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about the child process: they run it (the suite otherwise prepares
    rows in process)."""
    monkeypatch.delenv("INSPECT_BENCHMARKS_PREPARE", raising=False)


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


def rows_file(data_files: Path, image_format: str = "png") -> Path | None:
    """Where the rows of this file are kept between runs."""
    request = scienceqa_request(data_files, image_format)
    return rows_cache.rows_file_for(request, request.local_file())


def sent(dataset: Dataset) -> list[str]:
    """Each sample's input as text: the image file and the prompt text."""
    return [
        sample.input
        if isinstance(sample.input, str)
        else " | ".join(str(part.model_dump()) for part in sample.input[0].content)  # type: ignore[union-attr]
        for sample in dataset
    ]


def image_files(dataset: Dataset) -> list[Path]:
    return [
        Path(sample.input[0].content[0].image)  # type: ignore[union-attr,index]
        for sample in dataset
    ]


@pytest.mark.slow
def test_the_rows_file_is_keyed_by_the_image_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path))
    png, jpeg = rows_file(FIXTURE), rows_file(FIXTURE, "jpeg")
    assert png is not None and jpeg is not None and png != jpeg
    assert png.parent.parent == tmp_path / "rows"
    scienceqa(data_files=str(FIXTURE), image_format="jpeg")
    assert jpeg.exists() and not png.exists()


@pytest.mark.slow
def test_a_damaged_rows_file_is_prepared_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path))
    kept = rows_file(FIXTURE)
    assert kept is not None
    first = sent(scienceqa(data_files=str(FIXTURE)).dataset)
    written = kept.read_bytes()
    kept.write_bytes(written[: len(written) // 2])
    assert sent(scienceqa(data_files=str(FIXTURE)).dataset) == first
    assert kept.read_bytes() == written


@pytest.mark.slow
def test_the_childs_user_error_is_raised_unchanged(
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


def test_a_child_that_dies_is_reported_with_its_last_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    dying = tmp_path / "python"
    dying.write_text("#!/bin/sh\necho 'first words' >&2\necho 'last words' >&2\nexit 3\n")
    dying.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(dying))
    with pytest.raises(RuntimeError) as raised:
        scienceqa(data_files=str(FIXTURE))
    assert str(raised.value) == (
        "Reading the ScienceQA rows failed (exit code 3):\nfirst words\nlast words"
    )
    assert capsys.readouterr().err == "first words\nlast words\n"  # shown as they came


@pytest.mark.slow
def test_a_changed_image_file_named_in_parquet_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A parquet Image column may name files instead of embedding bytes: those are checked too."""
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_the_location_is_named_as_this_run_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    shutil.copy(FIXTURE, tmp_path / "rows.parquet")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PWD", str(tmp_path))
    assert scienceqa(data_files="rows.parquet").dataset.location == "rows.parquet (test split)"

    def no_child(*_: object) -> None:
        raise AssertionError("the rows file of the same file was not reused")

    monkeypatch.setattr(prepared_rows, "_prepare", no_child)
    absolute = tmp_path / "rows.parquet"
    assert scienceqa(data_files=str(absolute)).dataset.location == f"{absolute} (test split)"


@pytest.mark.slow
def test_a_folder_named_benchmarks_in_the_working_directory_is_not_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "__init__.py").write_text("raise ImportError('the wrong one')\n")
    monkeypatch.chdir(tmp_path)
    assert len(scienceqa(bundled_sample=True).dataset) == 20


@pytest.mark.slow
def test_an_unwritable_cache_reads_the_rows_anew_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "a_file").write_text("not a folder")
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "a_file" / "cache"))
    record = pq.read_table(FIXTURE).to_pylist()[1] | {"image": None}
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="benchmarks"):
        assert len(scienceqa(data_files=str(rows)).dataset) == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    cache = tmp_path / "a_file" / "cache" / "rows"
    assert len(warnings) == 1
    assert warnings[0].startswith(f"cannot write the rows cache {cache}/")
    assert warnings[0].endswith(
        "(Not a directory): the ScienceQA test rows are read again on every run. Set "
        "INSPECT_BENCHMARKS_CACHE to a writable folder to keep them."
    )
