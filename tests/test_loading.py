"""The shared reader of a split's rows: local files, path resolution and error messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.data.rows import Rows, SplitRequest, local_path, local_records, read_split
from benchmarks.runtime.errors import DataError

FIXTURE = Path(__file__).parent / "fixtures" / "triviaqa" / "validation.jsonl"


def load(dataset_path: str | None = None, data_files: object = None) -> Rows:
    request = SplitRequest(
        benchmark="TriviaQA",
        hub_path="mandarjoshi/trivia_qa",
        revision=None,
        config="rc.wikipedia.nocontext",
        split="validation",
        dataset_path=dataset_path,
        data_files=data_files,  # type: ignore[arg-type]
        columns=(),
    )
    return read_split(request)


def test_a_relative_path_is_also_found_from_the_launch_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `inspect eval benchmarks/x.py` builds the task from inside benchmarks/.
    monkeypatch.setenv("PWD", str(FIXTURE.parents[2]))
    monkeypatch.chdir(tmp_path)
    relative = "fixtures/triviaqa/validation.jsonl"
    assert local_path(relative) == FIXTURE.parents[2] / relative
    assert len(load(data_files=relative)) == 5


def test_a_path_found_from_the_current_directory_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "x.jsonl").write_text("{}\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PWD", "/nonexistent")
    assert local_path("x.jsonl") == Path("x.jsonl")


def test_dataset_path_may_name_a_local_file() -> None:
    assert load(dataset_path=str(FIXTURE)).where == f"{FIXTURE} (validation split)"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (
            "rows.txt",
            b"x",
            "unsupported file type '.txt'; use one of .jsonl, .json, .parquet, .csv.",
        ),
        ("rows.jsonl", b"", "the file is empty."),
        ("rows.parquet", b"PAR1 truncated", "could not be read as parquet: "),
        ("rows.jsonl", b'{"question": "a"}\n{"question": ', "could not be read as json: "),
    ],
)
def test_unreadable_files_are_named(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DataError) as raised:
        load(data_files=str(path))
    assert str(raised.value).startswith(f"{path}: {message}")


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataError) as raised:
        load(data_files=str(tmp_path / "absent.jsonl"))
    assert str(raised.value) == f"{tmp_path / 'absent.jsonl'}: no such file."


def test_a_mapping_without_the_split_says_which_it_has() -> None:
    with pytest.raises(DataError) as raised:
        load(data_files={"train": str(FIXTURE)})
    assert str(raised.value) == (
        "TriviaQA: data_files has no entry for the 'validation' split (it has 'train')."
    )


def test_dataset_path_and_data_files_together_are_refused() -> None:
    with pytest.raises(DataError) as raised:
        load(dataset_path=str(FIXTURE), data_files=str(FIXTURE))
    assert str(raised.value) == "TriviaQA: pass either dataset_path or data_files, not both."


def parquet_file(tmp_path: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "validation.parquet"
    table = {"question": ["Q1", "Q2"], "answer": ["A1", "A2"], "notes": ["n1", "n2"]}
    pq.write_table(pa.table(table), path)
    return path


def read_columns(path: Path, columns: tuple[str, ...], shape: object = None) -> Rows:
    request = SplitRequest(
        "t", "hub/t", None, None, "validation", None, str(path), columns, shape=shape
    )  # type: ignore[arg-type]
    return read_split(request)


def test_a_parquet_file_is_read_for_the_columns_asked_and_names_all_when_one_is_missing(
    tmp_path: Path,
) -> None:
    path = parquet_file(tmp_path)
    assert list(local_records(path, ("answer", "question"))) == [
        (None, {"answer": "A1", "question": "Q1"}),
        (None, {"answer": "A2", "question": "Q2"}),
    ]
    _, first = next(local_records(path, ("question", "topic")))
    assert first == {"question": "Q1", "answer": "A1", "notes": "n1"}
    with pytest.raises(DataError) as raised:
        read_columns(path, ("question", "topic"))
    assert str(raised.value) == (
        f"{path} (validation split): missing column(s) 'topic'; "
        "found 'question', 'answer', 'notes'."
    )


def test_the_garbage_collector_is_paused_while_rows_are_read_and_resumed_after(
    tmp_path: Path,
) -> None:
    import gc

    path = parquet_file(tmp_path)
    during: list[bool] = []
    read_columns(path, ("question",), shape=lambda values: during.append(gc.isenabled()) or values)
    assert during == [False, False] and gc.isenabled()
    with pytest.raises(DataError):
        read_columns(path, ("topic",))
    assert gc.isenabled()
