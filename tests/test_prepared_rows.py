"""The rows files: whole-row hashes that follow Python's equality, values JSON cannot hold,
the compact few-shot pools, released records, and a real child process."""

from __future__ import annotations

import datetime
import itertools
import json
import math
from pathlib import Path
from typing import Any

import datasets
import pytest
from inspect_ai.dataset import Sample

from benchmarks.data import rows_cache
from benchmarks.data.records import field
from benchmarks.data.rows import (
    PREPARE_ENV,
    RELEASED,
    PreparedColumns,
    PreparedRows,
    prepared_columns,
    prepared_rows,
)
from benchmarks.data.rows_cache import WRITER_MODULES, rows_file_for
from benchmarks.data.rows_child import shape_for, whole_row_hashes
from benchmarks.data.rows_request import ROW_ERROR, ROW_HASH, RowsRequest
from benchmarks.data.source import rows_dataset
from benchmarks.runtime.errors import DataError
from benchmarks.winogrande import winogrande

FIXTURES = Path(__file__).parent / "fixtures"
WINOGRANDE_ROW = {"sentence": "The cup fell off the _.", "option1": "table", "option2": "cup"}


def hashes(rows: list[dict[str, Any]], split: str) -> list[str]:
    return whole_row_hashes(datasets.Dataset.from_list(rows), split)


def test_whole_row_hashes_are_equal_exactly_when_python_finds_the_rows_equal() -> None:
    # Each split's column has one type (as in a parquet file); the types differ between them.
    ints = [{"q": "a", "n": n} for n in (1, 0, 2, 3)]
    floats = [{"q": "a", "n": x} for x in (1.0, -0.0, 2.5, math.nan)]
    bools = [{"q": "a", "n": b} for b in (True, False)]
    splits = {"ints": ints, "floats": floats, "bools": bools}
    hashed = {name: hashes(rows, name) for name, rows in splits.items()}
    for (one, rows_one), (two, rows_two) in itertools.combinations(splits.items(), 2):
        for (i, a), (j, b) in itertools.product(enumerate(rows_one), enumerate(rows_two)):
            # datasets gives each row as new objects: a NaN is never the same object
            equal = a == b and not any(isinstance(v, float) and math.isnan(v) for v in a.values())
            assert (hashed[one][i] == hashed[two][j]) == equal, (one, a, two, b)
    assert hashed["ints"][0] == hashed["floats"][0] == hashed["bools"][0]  # 1 == 1.0 == True
    assert hashed["ints"][1] == hashed["floats"][1] == hashed["bools"][1]  # 0 == -0.0 == False
    assert hashed["floats"][3] == "unique floats 3"


def test_a_value_json_cannot_hold_is_that_rows_error(tmp_path: Path) -> None:
    path = tmp_path / "wg.parquet"
    rows = [WINOGRANDE_ROW | {"answer": datetime.date(2020, 1, day)} for day in (1, 2)]
    datasets.Dataset.from_list(rows).to_parquet(str(path))
    with pytest.raises(DataError) as raised:
        winogrande(data_files=str(path), shots=0).dataset[0]
    assert str(raised.value) == (
        f"{path} (validation split), row 1: field 'answer' holds date "
        "datetime.date(2020, 1, 1), not a JSON value"
    )

    bytes_path = tmp_path / "wg_bytes.parquet"
    datasets.Dataset.from_list([{**WINOGRANDE_ROW, "option1": b"table", "answer": "1"}]).to_parquet(
        str(bytes_path)
    )
    with pytest.raises(DataError) as raised:
        winogrande(data_files=str(bytes_path), shots=0).dataset[0]
    assert str(raised.value) == (
        f"{bytes_path} (validation split), row 1: field 'option1' holds bytes b'table', "
        "not a JSON value"
    )


def request_for(path: Path, **fields: Any) -> RowsRequest:
    return RowsRequest.make(
        **{
            "benchmark": "Winogrande",
            "hub_path": "allenai/winogrande",
            "revision": None,
            "config": None,
            "split": "validation",
            "dataset_path": None,
            "data_files": str(path),
            "columns": ("sentence", "option1", "option2", "answer"),
            "single_file_split": "validation",
            **fields,
        }
    )


def test_a_pool_keeps_only_the_fields_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "wg.jsonl"
    good = {**WINOGRANDE_ROW, "answer": "2"}
    path.write_text(
        json.dumps(good) + "\n" + json.dumps({**good, "answer": "1"}) + "\n", encoding="utf-8"
    )
    pool = prepared_columns(request_for(path), ("sentence", "answer"))
    assert isinstance(pool, PreparedColumns)
    assert pool.columns == {"sentence": [good["sentence"]] * 2, "answer": ["2", "1"]}
    assert pool.record(1) == {"sentence": good["sentence"], "answer": "1"}
    assert len(pool) == 2


def test_a_pool_is_written_as_a_json_array_per_field_with_its_bad_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "wg.parquet"
    dates = [datetime.date(2020, 1, 1), datetime.date(2020, 1, 2)]
    datasets.Dataset.from_list(
        [WINOGRANDE_ROW | {"answer": "1", "when": day} for day in dates]
    ).to_parquet(str(path))
    request = request_for(path, columns=("sentence", "answer", "when"))
    pool = prepared_columns(request, ("sentence", "when", "absent"))
    assert pool.size == 2 and pool.columns["absent"] == [None, None]
    assert pool.errors == {
        0: "field 'when' holds date datetime.date(2020, 1, 1), not a JSON value",
        1: "field 'when' holds date datetime.date(2020, 1, 2), not a JSON value",
    }
    (rows_file,) = (tmp_path / "cache").glob("rows/*/*.jsonl")
    lines = rows_file.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["fields"] == []  # every row an error: no field written
    assert len(lines) == 2


def test_a_pool_row_the_child_could_not_read_raises_when_read() -> None:
    pool = PreparedColumns("f (train split)", {"q": ["a", None]}, {1: "field 'q' is bad"}, 2)
    assert pool.record(0) == {"q": "a"}
    with pytest.raises(DataError) as raised:
        pool.record(1)
    assert str(raised.value) == "f (train split), row 2: field 'q' is bad"


def test_a_released_record_is_never_read_as_data() -> None:
    rows = PreparedRows("f", [{"q": "a"}, {ROW_ERROR: "bad", ROW_HASH: "h"}], {})
    rows.release(0)
    with pytest.raises(RuntimeError) as raised:
        rows.record(0)
    assert str(raised.value) == "f, row 1: read after it was released"
    assert not rows.failed(0) and rows.failed(1)


def test_a_dataset_releases_each_record_once_its_sample_is_built() -> None:
    rows = PreparedRows("f", [{"q": "a"}, {"q": 1}, {"q": "c"}], {})

    def build(row: int, record: dict[str, Any]) -> Sample:
        return Sample(id=row, input=field(record, "q", str))

    dataset = rows_dataset(rows, build, name="f", num_examples=None, release=rows.release)
    first = dataset[0]
    assert rows.records[0] is RELEASED and dataset[0] is first  # kept: not built again
    for _ in range(2):  # a row that failed keeps its record, and fails the same way again
        with pytest.raises(DataError) as raised:
            dataset[1]
        assert str(raised.value) == "f, row 2: field 'q' should be str, got int 1"
    assert dataset[2].input == "c" and rows.records[2] is RELEASED


@pytest.mark.slow
def test_the_child_process_prepares_the_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(PREPARE_ENV)
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "wg.jsonl"
    path.write_text(json.dumps({**WINOGRANDE_ROW, "answer": "1"}) + "\n", encoding="utf-8")
    rows = prepared_rows(request_for(path))
    assert rows.records == [{**WINOGRANDE_ROW, "answer": "1"}]
    assert not rows.from_earlier_run
    assert prepared_rows(request_for(path)).from_earlier_run
    assert len(list((tmp_path / "cache" / "rows").glob("*/*.jsonl"))) == 1


def test_the_rows_file_key_holds_the_code_that_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "wg.jsonl"
    path.write_text(json.dumps({**WINOGRANDE_ROW, "answer": "1"}) + "\n", encoding="utf-8")
    request = request_for(path)
    first = rows_file_for(request, path)
    assert first is not None and rows_file_for(request, path) == first
    rows_cache.code_version.cache_clear()
    # as if a module that writes rows had been edited
    monkeypatch.setattr(
        rows_cache, "WRITER_MODULES", (*WRITER_MODULES, "benchmarks.runtime.errors")
    )
    try:
        assert rows_file_for(request, path) not in (None, first)
    finally:
        rows_cache.code_version.cache_clear()


def test_a_snapshot_folders_rows_are_kept_while_its_files_are_unchanged(tmp_path: Path) -> None:
    folder = tmp_path / "snapshot"
    (folder / "data").mkdir(parents=True)
    rows_file = folder / "data" / "validation.jsonl"
    rows_file.write_text(json.dumps({**WINOGRANDE_ROW, "answer": "1"}) + "\n", encoding="utf-8")
    request = RowsRequest.make(
        benchmark="Winogrande", hub_path="allenai/winogrande", revision=None, config=None,
        split="validation", dataset_path=str(folder), data_files=None,
        columns=("sentence", "option1", "option2", "answer"),
    )  # fmt: skip
    first = rows_file_for(request, None)
    assert first is not None and rows_file_for(request, None) == first
    (folder / "data" / "train.jsonl").write_text("", encoding="utf-8")
    assert rows_file_for(request, None) not in (None, first)  # a file added: another source


def test_a_shape_is_named_by_its_module_and_class_and_its_module_is_in_the_key() -> None:
    """No table of benchmarks: a request names its shape ``<module>:<class>``; the rows file's
    key hashes that module's code."""
    from benchmarks.data.triviaqa import QUESTION_SHAPE

    assert QUESTION_SHAPE == "benchmarks.data.triviaqa:QuestionShape"
    plain = rows_cache.code_version("plain")
    assert rows_cache.code_version(QUESTION_SHAPE) != plain
    with pytest.raises(ValueError, match="no module 'benchmarks.data.nothing'"):
        rows_cache.code_version("benchmarks.data.nothing:Shape")
    assert callable(shape_for)
