"""Bad local data, benchmark by benchmark: a table of malformed inputs and what each must give.

Every case is generated in ``tmp_path`` from the good fixtures. A case either
loads with a documented handling (every row becomes a sample: nothing is
dropped) or fails with a ``DataError`` whose message names the file and,
where one row is at fault, the row (or line) and the field, before any model
call. Each benchmark's ``tests/<name>/conformance.py`` lists the cells of the
issue's table that its own tests already prove (``BAD_INPUTS_COVERED_ELSEWHERE``)
and the cells that cannot occur (``BAD_INPUTS_NOT_APPLICABLE``);
``test_the_table_covers_every_kind_for_every_benchmark`` keeps the three in step.
Every benchmark of the catalog is in the table: its bundled sample emptied and cut in
half are generic cases, and a benchmark's cells must each be answered.
"""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage

from benchmarks.catalog import specs
from benchmarks.data.samples import bundled_data_files
from benchmarks.data.split_reader import DataError
from tests.conformance_pins import conformance_file, pinned
from tests.scripted import scripted_model

FIXTURES = Path(__file__).parent / "fixtures"
TRIVIAQA_VALIDATION = FIXTURES / "triviaqa" / "validation.jsonl"
TRIVIAQA_TRAIN = FIXTURES / "triviaqa" / "train.jsonl"
TRIVIAQA_PARQUET = FIXTURES / "triviaqa" / "validation.parquet"
WINOGRANDE_VALIDATION = FIXTURES / "winogrande" / "validation.jsonl"
SCIENCEQA_PARQUET = FIXTURES / "scienceqa" / "test_rows.hf.parquet"
SCIENCEQA_IDS = [f"test_{row}" for row in range(10)]

TASKS: dict[str, Callable[..., Task]] = {name: spec.task for name, spec in specs().items()}

# The table of malformed inputs ("truncated parquet" widened to any truncated file).
KINDS = (
    "missing column",
    "renamed column",
    "wrong type",
    "empty alias list",
    "empty choices",
    "answer index out of range",
    "empty file",
    "truncated file",
    "non-UTF-8 bytes",
    "corrupt image bytes",
    "1 MB field",
    "duplicate ids",
)

ONE_MEGABYTE = "x" * 1_000_000


@dataclass(frozen=True)
class Fails:
    """A ``DataError`` whose message starts with ``where`` and contains each of ``parts``."""

    where: str
    parts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Loads:
    """Every row a sample, ids in order; ``check`` looks at the samples."""

    ids: list[Any]
    check: Callable[[list[Sample]], None] | None = None


Expected = Fails | Loads


@dataclass(frozen=True)
class Case:
    benchmark: str
    kind: str
    name: str
    make: Callable[[Path], tuple[dict[str, Any], Expected]]


# ---------------------------------------------------------------------------
# Writing bad files from the good fixtures


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def write_rows_parquet(path: Path, rows: list[dict[str, Any]]) -> Path:
    datasets.Dataset.from_list(rows).to_parquet(str(path))
    return path


def write_text(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def truncated_copy(source: Path, path: Path) -> Path:
    data = source.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def empty_file(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def with_latin1_line(rows: list[dict[str, Any]], line: int, name: str, path: Path) -> Path:
    """JSON lines whose ``line`` (1-based) has a Latin-1 ``café`` at the end of field ``name``."""
    rows[line - 1][name] += " @@"
    text = "".join(json.dumps(row) + "\n" for row in rows).encode("ascii")
    path.write_bytes(text.replace(b"@@", "café".encode("latin-1")))
    return path


def renamed_parquet(source: Path, path: Path, old: str, new: str) -> Path:
    table = pq.read_table(source)
    names = [new if name == old else name for name in table.column_names]
    pq.write_table(table.rename_columns(names).replace_schema_metadata(None), path)
    return path


def triviaqa_rows() -> list[dict[str, Any]]:
    return read_jsonl(TRIVIAQA_VALIDATION)


TRIVIAQA_IDS = [row["question_id"] for row in triviaqa_rows()]


def file_case(
    benchmark: str,
    kind: str,
    name: str,
    write: Callable[[Path], Path],
    expected: Callable[[Path], Expected],
    **task_args: Any,
) -> Case:
    """A case whose bad file is passed as ``data_files``, with ``task_args``."""

    def make(tmp: Path) -> tuple[dict[str, Any], Expected]:
        path = write(tmp)
        return {"data_files": str(path), **task_args}, expected(path)

    return Case(benchmark, kind, name, make)


triviaqa_case = partial(file_case, "triviaqa", shots=0)


def triviaqa_row_changed(name: str, row: int, change: Callable[[dict[str, Any]], None]) -> Any:
    def write(tmp: Path) -> Path:
        rows = triviaqa_rows()
        change(rows[row])
        return write_jsonl(tmp / name, rows)

    return write


def set_path(record: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    for parent in parents:
        record = record[parent]
    record[last] = value


def triviaqa_fewshot_case(
    kind: str,
    name: str,
    change_train: Callable[[list[dict[str, Any]]], list[dict[str, Any]]],
    expected: Callable[[Path], Expected],
) -> Case:
    def make(tmp: Path) -> tuple[dict[str, Any], Expected]:
        train = write_jsonl(tmp / "train.jsonl", change_train(read_jsonl(TRIVIAQA_TRAIN)))
        files = {"validation": str(TRIVIAQA_VALIDATION), "train": str(train)}
        return {"data_files": files}, expected(train)

    return Case("triviaqa", kind, name, make)


def without_answer_value(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for row in rows:
        del row["answer"]["value"]
    return rows


def check_triviaqa_big_question(samples: list[Sample]) -> None:
    assert samples[1].input == f"{ONE_MEGABYTE}?"  # the question, whole


TRIVIAQA_CASES = [
    triviaqa_case(
        "renamed column",
        "parquet column 'question' renamed 'query'",
        lambda tmp: renamed_parquet(TRIVIAQA_PARQUET, tmp / "v.parquet", "question", "query"),
        lambda path: Fails(f"{path} (validation split): missing column(s) 'question'; found "),
    ),
    triviaqa_fewshot_case(
        "missing column",
        "train rows without answer.value",
        without_answer_value,
        lambda path: Fails(f"{path} (train split)", ("'answer.value'",)),
    ),
    triviaqa_fewshot_case(
        "missing column",
        "train rows with a null answer.value",
        lambda rows: [{**row, "answer": {**row["answer"], "value": None}} for row in rows],
        lambda path: Fails(f"{path} (train split), line ", ("field 'answer.value' is missing",)),
    ),
    triviaqa_case(
        "wrong type",
        "aliases a string in every parquet row",
        lambda tmp: write_rows_parquet(
            tmp / "v.parquet",
            [
                {**row, "answer": {**row["answer"], "aliases": row["answer"]["aliases"][0]}}
                for row in triviaqa_rows()
            ],
        ),
        lambda path: Fails(
            f"{path} (validation split), row 1: field 'answer.aliases' should be a list of "
            "strings, got 'Sunset Blvd'"
        ),
    ),
    triviaqa_case(
        "wrong type",
        "aliases a string in jsonl row 1",
        triviaqa_row_changed("v.jsonl", 1, lambda r: set_path(r, "answer.aliases", "Onion")),
        lambda path: Fails(f"{path}", ("line 2", "'answer.aliases'")),
    ),
    triviaqa_case(
        "wrong type",
        "question_id a number in jsonl row 1",
        triviaqa_row_changed("v.jsonl", 1, lambda r: set_path(r, "question_id", 7)),
        lambda path: Fails(f"{path}", ("line 2", "'question_id'")),
    ),
    triviaqa_case(
        "empty file",
        "0-byte parquet",
        lambda tmp: empty_file(tmp / "v.parquet"),
        lambda path: Fails(f"{path}: the file is empty."),
    ),
    triviaqa_case(
        "empty file",
        "jsonl of blank lines",
        lambda tmp: write_text(tmp / "v.jsonl", "\n\n\n"),
        lambda path: Fails(f"{path}: the file holds no rows."),
    ),
    triviaqa_case(
        "truncated file",
        "parquet cut in half",
        lambda tmp: truncated_copy(TRIVIAQA_PARQUET, tmp / "v.parquet"),
        lambda path: Fails(
            f"{path}: could not be read as parquet: ArrowInvalid: Parquet magic bytes not "
            "found in footer."
        ),
    ),
    triviaqa_case(
        "truncated file",
        "jsonl whose last line is cut",
        lambda tmp: write_text(tmp / "v.jsonl", TRIVIAQA_VALIDATION.read_bytes()[:-100]),
        lambda path: Fails(f"{path}", ("line 5", "not valid JSON")),
    ),
    triviaqa_case(
        "non-UTF-8 bytes",
        "Latin-1 byte on line 3",
        lambda tmp: with_latin1_line(triviaqa_rows(), 3, "question", tmp / "v.jsonl"),
        lambda path: Fails(
            f"{path}: line 3 is not valid UTF-8 (invalid continuation byte); re-encode the "
            "file as UTF-8."
        ),
    ),
    triviaqa_case(
        "1 MB field",
        "1 MB question in row 1",
        triviaqa_row_changed("v.jsonl", 1, lambda r: set_path(r, "question", ONE_MEGABYTE + "?")),
        lambda path: Loads(TRIVIAQA_IDS, check_triviaqa_big_question),
    ),
    triviaqa_case(
        "duplicate ids",
        "row 1 repeats the question_id of row 0",
        triviaqa_row_changed("v.jsonl", 1, lambda r: set_path(r, "question_id", "tc_33")),
        lambda path: Fails(
            f"{path} (validation split), line 2:", ("'question_id'", "'tc_33'", "repeats line 1")
        ),
    ),
    triviaqa_fewshot_case(
        "few-shot pool too small",
        "3 train rows for 5 shots",
        lambda rows: rows[:3],
        lambda path: Fails("", (f"{path} (train split)", "3 rows", "shots=5")),
    ),
]


# --- Winogrande -------------------------------------------------------------------


def winogrande_rows() -> list[dict[str, Any]]:
    return read_jsonl(WINOGRANDE_VALIDATION)


winogrande_case = partial(file_case, "winogrande")


def winogrande_row_changed(row: int, name: str, value: Any) -> Callable[[Path], Path]:
    def write(tmp: Path) -> Path:
        rows = winogrande_rows()
        rows[row][name] = value
        return write_jsonl(tmp / "v.jsonl", rows)

    return write


def winogrande_ids(count: int) -> list[str]:
    return [f"validation_{row}" for row in range(count)]


def check_repeated_winogrande_row(samples: list[Sample]) -> None:
    assert (samples[5].input, samples[5].target) == (samples[0].input, samples[0].target)


def check_csv_targets(samples: list[Sample]) -> None:
    assert [s.target for s in samples] == ["A", "B"]


WINOGRANDE_CSV = (
    "sentence,option1,option2,answer\n"
    "Ann beat Bo so _ won.,Ann,Bo,1\n"
    "Ann beat Bo so _ lost.,Ann,Bo,2\n"
)

WINOGRANDE_CASES = [
    winogrande_case(
        "wrong type",
        "answer a number in jsonl row 1 only",
        winogrande_row_changed(1, "answer", 2),
        lambda path: Fails(f"{path}", ("line 2", "'answer'")),
    ),
    winogrande_case(
        "wrong type",
        "option1 a list in jsonl row 1",
        winogrande_row_changed(1, "option1", ["Sarah", "Maria"]),
        lambda path: Fails(f"{path}", ("line 2", "'option1'")),
    ),
    winogrande_case(
        "wrong type",
        "csv in the upstream schema (answers read as numbers)",
        lambda tmp: write_text(tmp / "v.csv", WINOGRANDE_CSV),
        lambda path: Loads(winogrande_ids(2), check_csv_targets),
    ),
    winogrande_case(
        "empty file",
        "csv with a header and no rows",
        lambda tmp: write_text(tmp / "v.csv", "sentence,option1,option2,answer\n"),
        lambda path: Fails(f"{path}: the file holds no rows."),
    ),
    winogrande_case(
        "truncated file",
        "parquet cut in half",
        lambda tmp: truncated_copy(
            write_rows_parquet(tmp / "good.parquet", winogrande_rows()), tmp / "v.parquet"
        ),
        lambda path: Fails(f"{path}: could not be read as parquet: ArrowInvalid: "),
    ),
    winogrande_case(
        "duplicate ids",
        "a repeated row is a sample of its own (ids are row positions)",
        lambda tmp: write_jsonl(tmp / "v.jsonl", [*winogrande_rows(), winogrande_rows()[0]]),
        lambda path: Loads(winogrande_ids(6), check_repeated_winogrande_row),
    ),
]


# --- ScienceQA --------------------------------------------------------------------


def scienceqa_records() -> list[dict[str, Any]]:
    return pq.read_table(SCIENCEQA_PARQUET).to_pylist()


def scienceqa_features() -> datasets.Features:
    return datasets.load_dataset(
        "parquet", data_files=str(SCIENCEQA_PARQUET), split="train"
    ).features


def write_scienceqa_parquet(path: Path, records: list[dict[str, Any]]) -> Path:
    datasets.Dataset.from_list(records, features=scienceqa_features()).to_parquet(str(path))
    return path


def scienceqa_text_rows() -> list[dict[str, Any]]:
    """The first three fixture rows as JSON-ready records without images."""
    return [{**record, "image": None} for record in scienceqa_records()[:3]]


def replaced_column(source: Path, path: Path, name: str, values: pa.Array) -> Path:
    table = pq.read_table(source)
    table = table.set_column(table.column_names.index(name), name, values)
    pq.write_table(table.replace_schema_metadata(None), path)
    return path


scienceqa_case = partial(file_case, "scienceqa")


def scienceqa_with(row: int, **changes: Any) -> Callable[[Path], Path]:
    def write(tmp: Path) -> Path:
        records = scienceqa_records()
        records[row].update(changes)
        return write_scienceqa_parquet(tmp / "t.parquet", records)

    return write


def check_scienceqa_big_question(samples: list[Sample]) -> None:
    assert samples[1].input == ONE_MEGABYTE  # the question, whole


def check_repeated_scienceqa_row(samples: list[Sample]) -> None:
    first, repeat = samples[0].input, samples[9].input
    assert not isinstance(first, str) and not isinstance(repeat, str)

    def sent(messages: list[ChatMessage]) -> list[dict[str, Any]]:
        # image parts name cache files (one per row): compare the bytes they hold
        dumped = [m.model_dump(exclude={"id"}) for m in messages]
        for message in dumped:
            for part in message["content"]:
                if part["type"] == "image":
                    part["image"] = Path(part["image"]).read_bytes()
        return dumped

    assert sent(repeat) == sent(first)
    assert repeat is not first and samples[9].target == samples[0].target


SCIENCEQA_CASES = [
    scienceqa_case(
        "renamed column",
        "parquet column 'answer' renamed 'label'",
        lambda tmp: renamed_parquet(SCIENCEQA_PARQUET, tmp / "t.parquet", "answer", "label"),
        lambda path: Fails(f"{path} (test split): missing column(s) 'answer'; found 'image', "),
    ),
    scienceqa_case(
        "wrong type",
        "answer a string column in parquet",
        lambda tmp: replaced_column(
            SCIENCEQA_PARQUET,
            tmp / "t.parquet",
            "answer",
            pa.array([str(r["answer"]) for r in scienceqa_records()]),
        ),
        lambda path: Fails(
            f"{path} (test split), row 1: field 'answer' should be int, got str '1'"
        ),
    ),
    scienceqa_case(
        "wrong type",
        "answer a string in jsonl row 1 only",
        lambda tmp: write_jsonl(
            tmp / "t.jsonl",
            [r if i != 1 else {**r, "answer": "0"} for i, r in enumerate(scienceqa_text_rows())],
        ),
        lambda path: Fails(f"{path}", ("line 2", "'answer'")),
    ),
    scienceqa_case(
        "wrong type",
        "image column of integers, subset=image",
        lambda tmp: replaced_column(
            SCIENCEQA_PARQUET, tmp / "t.parquet", "image", pa.array(range(9), pa.int64())
        ),
        lambda path: Fails(
            f"{path} (test split): column 'image' should hold images (bytes and path) or "
            "paths, got int64"
        ),
        subset="image",
    ),
    scienceqa_case(
        "empty file",
        "0-byte parquet",
        lambda tmp: empty_file(tmp / "t.parquet"),
        lambda path: Fails(f"{path}: the file is empty."),
    ),
    scienceqa_case(
        "truncated file",
        "parquet cut in half",
        lambda tmp: truncated_copy(SCIENCEQA_PARQUET, tmp / "t.parquet"),
        lambda path: Fails(
            f"{path}: could not be read as parquet: ArrowInvalid: Parquet magic bytes not "
            "found in footer."
        ),
    ),
    scienceqa_case(
        "non-UTF-8 bytes",
        "Latin-1 byte on line 2 of jsonl",
        lambda tmp: with_latin1_line(scienceqa_text_rows(), 2, "question", tmp / "t.jsonl"),
        lambda path: Fails(
            f"{path}: line 2 is not valid UTF-8 (invalid continuation byte); re-encode the "
            "file as UTF-8."
        ),
    ),
    scienceqa_case(
        "1 MB field",
        "1 MB question in row 1",
        scienceqa_with(1, question=ONE_MEGABYTE),
        lambda path: Loads(SCIENCEQA_IDS[:9], check_scienceqa_big_question),
    ),
    scienceqa_case(
        "duplicate ids",
        "a repeated row is a sample of its own (ids are row positions)",
        lambda tmp: write_scienceqa_parquet(
            tmp / "t.parquet", [*scienceqa_records(), scienceqa_records()[0]]
        ),
        lambda path: Loads(SCIENCEQA_IDS[:10], check_repeated_scienceqa_row),
    ),
]


# --- SimpleQA ---------------------------------------------------------------------


def simpleqa_case(
    kind: str,
    name: str,
    content: bytes,
    suffix: str,
    expected: Callable[[Path], Expected],
) -> Case:
    def make(tmp: Path) -> tuple[dict[str, Any], Expected]:
        path = tmp / f"questions{suffix}"
        path.write_bytes(content)
        return {"dataset_path": str(path)}, expected(path)

    return Case("simpleqa", kind, name, make)


def check_repeated_simpleqa_row(samples: list[Sample]) -> None:
    assert samples[0].input == samples[1].input == "Who won?"


SIMPLEQA_CASES = [
    simpleqa_case(
        "wrong type",
        "id a float",
        b'{"id": 1.5, "problem": "Q?", "answer": "A"}\n',
        ".jsonl",
        lambda path: Fails(
            f"{path}, line 1: field 'id' should be a string or an integer, got 1.5."
        ),
    ),
    simpleqa_case(
        "non-UTF-8 bytes",
        "Latin-1 byte on line 2 of jsonl",
        b'{"id": "q1", "problem": "Who won?", "answer": "A"}\n'
        b'{"id": "q2", "problem": "Qui a gagn\xe9?", "answer": "A"}\n',
        ".jsonl",
        lambda path: Fails(f"{path}, line 2: not UTF-8 text (invalid continuation byte)."),
    ),
    simpleqa_case(
        "duplicate ids",
        "ids 1 and '1' (the same id once logged)",
        b'{"id": 1, "problem": "Q1?", "answer": "A"}\n'
        b'{"id": "1", "problem": "Q2?", "answer": "B"}\n',
        ".jsonl",
        lambda path: Fails(f"{path}, line 2:", ("'id'",)),
    ),
    simpleqa_case(
        "duplicate ids",
        "a repeated csv row is a question of its own (ids are row positions)",
        b"metadata,problem,answer\n\"{'topic': 'Art'}\",Who won?,A\n"
        b"\"{'topic': 'Art'}\",Who won?,A\n",
        ".csv",
        lambda path: Loads(["simpleqa_0", "simpleqa_1"], check_repeated_simpleqa_row),
    ),
]

# --- SimpleQA Verified -------------------------------------------------------------

VERIFIED_HEADER = (
    "original_index,problem,answer,topic,answer_type,multi_step,requires_reasoning,urls"
)


def verified_case(
    kind: str, name: str, content: bytes, expected: Callable[[Path], Expected]
) -> Case:
    def make(tmp: Path) -> tuple[dict[str, Any], Expected]:
        path = write_text(tmp / "eval.csv", content)
        return {"data_files": {"eval": str(path)}}, expected(path)

    return Case("simpleqa_verified", kind, name, make)


def check_verified_big_problem(samples: list[Sample]) -> None:
    assert samples[0].input == f"{ONE_MEGABYTE}?"  # the question, whole


SIMPLEQA_VERIFIED_CASES = [
    verified_case(
        "renamed column",
        "'problem' renamed 'question'",
        (
            VERIFIED_HEADER.replace("problem", "question") + "\n0,Q?,A,Art,Person,True,False,u\n"
        ).encode(),
        lambda path: Fails(f"{path} (eval split): missing column(s) 'problem'"),
    ),
    verified_case(
        "non-UTF-8 bytes",
        "Latin-1 byte in row 1",
        (
            f"{VERIFIED_HEADER}\n0,Q?,A,Art,Person,True,False,u\n".encode()
            + "1,Qui a gagné?,A,Art,Person,True,False,u\n".encode("latin-1")
        ),
        lambda path: Fails(f"{path}", ("UTF-8",)),
    ),
    verified_case(
        "1 MB field",
        "1 MB problem in row 0",
        f"{VERIFIED_HEADER}\n0,{ONE_MEGABYTE}?,A,Art,Person,True,False,u\n".encode(),
        lambda path: Loads([0], check_verified_big_problem),
    ),
]


# --- Every benchmark: its bundled sample spoilt ---------------------------------------


def bundled_case(name: str, kind: str, label: str, spoil: Callable[[Path, Path], Path]) -> Case:
    """Every file of ``name``'s bundled sample spoilt by ``spoil(source, copy)``: a
    ``DataError`` naming one of the copies."""

    def make(tmp: Path) -> tuple[dict[str, Any], Expected]:
        files = {
            split: str(spoil(Path(source), tmp / Path(source).name))
            for split, source in bundled_data_files(name).items()
        }
        return {"data_files": files}, Fails(f"{tmp}{os.sep}")

    return Case(name, kind, f"bundled sample {label}", make)


BUNDLED_CASES = [
    case
    for name in specs()
    for case in (
        bundled_case(name, "empty file", "emptied", lambda source, path: empty_file(path)),
        bundled_case(name, "truncated file", "cut in half", truncated_copy),
    )
]

CASES = (
    TRIVIAQA_CASES
    + WINOGRANDE_CASES
    + SCIENCEQA_CASES
    + SIMPLEQA_CASES
    + SIMPLEQA_VERIFIED_CASES
    + BUNDLED_CASES
)

# Each benchmark's tests/<name>/conformance.py answers the cells this table does not test:
# kind -> the test of its folder that already proves it, and kind -> why it cannot occur.
COVERED_ELSEWHERE = "BAD_INPUTS_COVERED_ELSEWHERE"
COVERED_ELSEWHERE_WHAT = '{"<kind>": "test_<file>.py::<test that proves it>", ...} (or {})'
NOT_APPLICABLE = "BAD_INPUTS_NOT_APPLICABLE"
NOT_APPLICABLE_WHAT = '{"<kind>": "<why it cannot occur>", ...} (or {})'


def case_param(case: Case) -> Any:
    return pytest.param(case, id=f"{case.benchmark}: {case.kind}: {case.name}")


@pytest.mark.parametrize("case", [case_param(case) for case in CASES])
def test_bad_input(case: Case, tmp_path: Path) -> None:
    task_args, expected = case.make(tmp_path)
    build = TASKS[case.benchmark]
    if isinstance(expected, Fails):
        with pytest.raises(DataError) as raised:
            list(build(**task_args).dataset)
        message = str(raised.value)
        assert message.startswith(expected.where), message
        for part in expected.parts:
            assert part in message, message
        assert "Traceback" not in message
    else:
        samples = list(build(**task_args).dataset)
        assert [sample.id for sample in samples] == expected.ids
        if expected.check is not None:
            expected.check(samples)


@pytest.mark.parametrize("benchmark", list(TASKS))
def test_the_table_covers_every_kind_for_every_benchmark(benchmark: str) -> None:
    tested = {case.kind for case in CASES if case.benchmark == benchmark}
    covered = pinned(benchmark, COVERED_ELSEWHERE, COVERED_ELSEWHERE_WHAT)
    not_applicable = pinned(benchmark, NOT_APPLICABLE, NOT_APPLICABLE_WHAT)
    assert set(covered) | set(not_applicable) <= set(KINDS), "a kind not in KINDS"
    for kind in KINDS:
        answered = [kind in tested, kind in covered, kind in not_applicable]
        assert any(answered), (
            f"{(benchmark, kind)} is neither tested nor marked not applicable: answer it in "
            f"{conformance_file(benchmark)} ({COVERED_ELSEWHERE} or {NOT_APPLICABLE})"
        )
        assert not (answered[2] and (answered[0] or answered[1])), (benchmark, kind)
    tests_dir = Path(__file__).parent / benchmark
    for reference in covered.values():
        file_name, test_name = reference.split("::")
        tree = ast.parse((tests_dir / file_name).read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert test_name in defined, f"{benchmark}: {reference}"


# ---------------------------------------------------------------------------
# Invalid task parameters fail before any model call


@pytest.mark.parametrize(
    ("benchmark", "task_args", "message"),
    # every benchmark: a parameter that all tasks share; then parameters of one benchmark
    [
        (name, {"num_examples": 0}, f"{name}: num_examples must be a positive integer")
        for name in specs()
    ]
    + [
        (
            "triviaqa",
            {"shots": "5"},
            "triviaqa: shots must be a non-negative integer or null (the profile's), got '5'.",
        ),
        ("winogrande", {"dataset_config": "xl"}, "winogrande: unknown dataset_config 'xl'"),
        ("scienceqa", {"eval_split": "dev"}, "scienceqa: unknown eval_split 'dev'"),
        ("simpleqa", {"grade_parse": "loose"}, "simpleqa: unknown grade_parse 'loose'"),
        pytest.param(
            "triviaqa",
            {"fewshot_seed": "1234"},
            "triviaqa: fewshot_seed",
        ),
        pytest.param(
            "triviaqa",
            {"include_evidence": "false"},
            "triviaqa: include_evidence",
        ),
        pytest.param(
            "simpleqa",
            {"topic_breakdown": "false"},
            "simpleqa: topic_breakdown",
        ),
    ],
)
def test_invalid_task_args_fail_through_eval_before_any_model_call(
    tmp_path: Path, benchmark: str, task_args: dict[str, Any], message: str
) -> None:
    calls: list[int] = []

    def reply(messages: list[ChatMessage]) -> str:
        calls.append(1)
        return "A"

    log_dir = tmp_path / "logs"
    with pytest.raises(ValueError) as raised:
        # the @task function with task_args, as `inspect eval benchmarks/<name> -T ...` runs it
        eval(
            TASKS[benchmark],
            task_args={"bundled_sample": True, **task_args},
            model=scripted_model(reply),
            log_dir=str(log_dir),
            display="none",
        )
    assert str(raised.value).startswith(message)
    assert calls == []
    assert not log_dir.exists() or list(log_dir.iterdir()) == []
