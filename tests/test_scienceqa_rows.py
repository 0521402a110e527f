"""ScienceQA rows prepared by a child process (benchmarks/scienceqa_rows.py): the rows file,
what brings the child back, and the child's errors as the eval process reports them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from inspect_ai.dataset import Dataset

from benchmarks.errors import DataUnavailableError
from benchmarks.loading import OFFLINE_HELP
from benchmarks.scienceqa import scienceqa
from benchmarks.scienceqa_rows import RowsSource

FIXTURE = Path(__file__).parent / "fixtures" / "scienceqa" / "test_rows.hf.parquet"


def rows_source(data_files: Path, image_format: str = "png") -> RowsSource:
    return RowsSource(
        split="test",
        dataset_path=None,
        data_files=str(data_files),
        image_format=image_format,  # type: ignore[arg-type]
        max_side=None,
    )


def sent(dataset: Dataset) -> list[str]:
    """Each sample's input as text: the image file and the prompt text."""
    return [
        sample.input
        if isinstance(sample.input, str)
        else " | ".join(str(part.model_dump()) for part in sample.input[0].content)  # type: ignore[union-attr]
        for sample in dataset
    ]


def test_the_rows_file_is_keyed_by_the_image_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path))
    png, jpeg = rows_source(FIXTURE).rows_file, rows_source(FIXTURE, "jpeg").rows_file
    assert png is not None and jpeg is not None and png != jpeg
    assert png.parent.parent == tmp_path / "scienceqa_rows"
    scienceqa(data_files=str(FIXTURE), image_format="jpeg")
    assert jpeg.exists() and not png.exists()


def test_a_damaged_rows_file_is_prepared_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path))
    rows_file = rows_source(FIXTURE).rows_file
    assert rows_file is not None
    first = sent(scienceqa(data_files=str(FIXTURE)).dataset)
    written = rows_file.read_bytes()
    rows_file.write_bytes(written[: len(written) // 2])
    assert sent(scienceqa(data_files=str(FIXTURE)).dataset) == first
    assert rows_file.read_bytes() == written


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
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
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
