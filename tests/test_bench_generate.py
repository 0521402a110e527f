"""The harness's data generator writes the upstream schemas and sizes (bench/generate_data.py).

Run at a tiny scale with the built-in vocabulary (no ../shared/data). The
expected schemas are copied from the upstream sources: TriviaQA's from the HF
builder's ``dataset_infos.json`` (config ``rc.wikipedia.nocontext``, legacy
``Sequence`` form), ScienceQA's from the parquet of ``derek-thomas/ScienceQA``
(its ``huggingface`` schema metadata), the row shapes from real rows.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import datasets
import pandas
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from inspect_ai.model import ContentImage
from PIL import Image

from bench.common.case_tasks import make_task
from bench.common.data_files import count_rows
from bench.generate_data import generate, scaled_sizes
from bench.workloads import Workload, bundled_workload, cases, discovered, workloads
from bench.workloads.scienceqa import PARQUET as SCIENCEQA_PARQUET
from bench.workloads.simpleqa import CSV as SIMPLEQA_CSV
from bench.workloads.simpleqa_verified import CSV as VERIFIED_CSV
from bench.workloads.triviaqa import TRAIN as TRIVIAQA_TRAIN
from bench.workloads.triviaqa import VALIDATION as TRIVIAQA_VALIDATION
from bench.workloads.winogrande import JSONL as WINOGRANDE_JSONL
from benchmarks.catalog import specs

SCALE = 0.002
SIZES = scaled_sizes(SCALE)


def _string(kind: str = "string") -> dict[str, Any]:
    return {"dtype": kind, "id": None, "_type": "Value"}


def _sequence(fields: dict[str, Any]) -> dict[str, Any]:
    return {"feature": fields, "length": -1, "id": None, "_type": "Sequence"}


# dataset_infos.json of mandarjoshi/trivia_qa, config rc.wikipedia.nocontext.
UPSTREAM_TRIVIAQA_FEATURES = {
    "question": _string(),
    "question_id": _string(),
    "question_source": _string(),
    "entity_pages": _sequence(
        {
            "doc_source": _string(),
            "filename": _string(),
            "title": _string(),
            "wiki_context": _string(),
        }
    ),
    "search_results": _sequence(
        {
            "description": _string(),
            "filename": _string(),
            "rank": _string("int32"),
            "title": _string(),
            "url": _string(),
            "search_context": _string(),
        }
    ),
    "answer": {
        "aliases": _sequence(_string()),
        "normalized_aliases": _sequence(_string()),
        "matched_wiki_entity_name": _string(),
        "normalized_matched_wiki_entity_name": _string(),
        "normalized_value": _string(),
        "type": _string(),
        "value": _string(),
    },
}

# The "huggingface" schema metadata of derek-thomas/ScienceQA's parquet.
UPSTREAM_SCIENCEQA_FEATURES = {
    "image": {"_type": "Image"},
    "question": {"dtype": "string", "_type": "Value"},
    "choices": {"feature": {"dtype": "string", "_type": "Value"}, "_type": "List"},
    "answer": {"dtype": "int8", "_type": "Value"},
    **{
        name: {"dtype": "string", "_type": "Value"}
        for name in (
            "hint",
            "task",
            "grade",
            "subject",
            "topic",
            "category",
            "skill",
            "lecture",
            "solution",
        )
    },
}
SCIENCEQA_ARROW_SCHEMA = pa.schema(
    [
        ("image", pa.struct([("bytes", pa.binary()), ("path", pa.string())])),
        ("question", pa.string()),
        ("choices", pa.list_(pa.string())),
        ("answer", pa.int8()),
        *(
            (name, pa.string())
            for name in (
                "hint",
                "task",
                "grade",
                "subject",
                "topic",
                "category",
                "skill",
                "lecture",
                "solution",
            )
        ),
    ]
)

# The shape of a real row of rc.wikipedia.nocontext as the HF build has it.
TRIVIAQA_ROW_SHAPE = {
    "question": str,
    "question_id": str,
    "question_source": str,
    "entity_pages": {"doc_source": [], "filename": [], "title": [], "wiki_context": []},
    "search_results": {
        "description": [],
        "filename": [],
        "rank": [],
        "title": [],
        "url": [],
        "search_context": [],
    },
    "answer": {
        "aliases": list,
        "normalized_aliases": list,
        "matched_wiki_entity_name": "",
        "normalized_matched_wiki_entity_name": "",
        "normalized_value": str,
        "type": str,
        "value": str,
    },
}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bench_data")
    generate(out, scale=SCALE, seed_dir=None)
    return out


def _load(path: Path, builder: str, cache: Path) -> datasets.Dataset:
    loaded = datasets.load_dataset(
        builder, data_files={"test": str(path)}, split="test", cache_dir=str(cache)
    )
    assert isinstance(loaded, datasets.Dataset)
    return loaded


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _matches_shape(value: Any, shape: Any) -> bool:
    if isinstance(shape, type):
        return isinstance(value, shape)
    if isinstance(shape, dict):
        return (
            isinstance(value, dict)
            and value.keys() == shape.keys()
            and all(_matches_shape(value[key], shape[key]) for key in shape)
        )
    return bool(value == shape)


def test_sizes_are_declared_by_each_workload_and_scaled() -> None:
    # each workload module declares its upstream sizes once; a benchmark without one
    # generates nothing
    found = discovered()
    assert list(scaled_sizes(1.0)) == list(specs())
    for name in specs():
        own = dict(found[name].sizes) if name in found else {}
        assert scaled_sizes(1.0)[name] == own
        assert SIZES[name] == {part: max(1, round(rows * SCALE)) for part, rows in own.items()}
    with pytest.raises(ValueError, match=r"scale must be in \(0, 1\], got 0"):
        scaled_sizes(0)


def test_scaling_rounds_and_keeps_at_least_one_row() -> None:
    workload = bundled_workload("any")
    sized = Workload("any", {"train": 61_888, "eval": 3}, workload.files, workload.write, ())
    assert sized.scaled(1.0) == {"train": 61_888, "eval": 3}
    assert sized.scaled(SCALE) == {"train": 124, "eval": 1}
    assert sized.scaled(0.5) == {"train": 30_944, "eval": 2}
    for scale in (0, -0.1, 1.5):
        with pytest.raises(ValueError, match="scale must be in"):
            sized.scaled(scale)


def test_every_case_evaluates_a_part_of_its_workloads_sizes() -> None:
    for name, workload in discovered().items():
        assert workload.cases, name
        for case in workload.cases:
            assert case.benchmark == name and case.part in workload.sizes, case.key


def test_triviaqa_parquet_has_the_hub_features(generated: Path, tmp_path: Path) -> None:
    expected = datasets.Features.from_dict(UPSTREAM_TRIVIAQA_FEATURES)
    for stem, part in ((TRIVIAQA_TRAIN, "train"), (TRIVIAQA_VALIDATION, "validation")):
        rows = SIZES["triviaqa"][part]
        loaded = _load(generated / f"{stem}.parquet", "parquet", tmp_path)
        assert loaded.features == expected
        assert len(loaded) == rows


def test_triviaqa_rows_have_the_hf_row_shape(generated: Path) -> None:
    train = _read_jsonl(generated / f"{TRIVIAQA_TRAIN}.jsonl")
    validation = _read_jsonl(generated / f"{TRIVIAQA_VALIDATION}.jsonl")
    assert (len(train), len(validation)) == (
        SIZES["triviaqa"]["train"],
        SIZES["triviaqa"]["validation"],
    )
    for row in train + validation:
        assert _matches_shape(row, TRIVIAQA_ROW_SHAPE), row
        assert row["answer"]["aliases"] and row["answer"]["normalized_aliases"]
    ids = [row["question_id"] for row in train + validation]
    assert len(set(ids)) == len(ids)
    parquet_rows = pq.read_table(generated / f"{TRIVIAQA_VALIDATION}.parquet").to_pylist()
    assert parquet_rows == validation


def test_simpleqa_csv_is_in_the_simple_evals_format(generated: Path) -> None:
    path = generated / SIMPLEQA_CSV
    assert path.read_bytes().startswith(b"metadata,problem,answer\n")
    # Read as simple-evals reads it.
    frame = pandas.read_csv(path)
    assert list(frame.columns) == ["metadata", "problem", "answer"]
    assert len(frame) == SIZES["simpleqa"]["test"]
    for text in frame["metadata"]:
        metadata = ast.literal_eval(text)
        assert list(metadata) == ["topic", "answer_type", "urls"]
        assert isinstance(metadata["urls"], list)
        assert all(isinstance(url, str) for url in metadata["urls"])


def test_winogrande_rows_have_the_hf_fields(generated: Path) -> None:
    rows = _read_jsonl(generated / WINOGRANDE_JSONL)
    assert len(rows) == SIZES["winogrande"]["validation"]
    for row in rows:
        assert list(row) == ["sentence", "option1", "option2", "answer"]
        assert row["answer"] in ("1", "2")
        assert row["sentence"].count("_") == 1


def test_scienceqa_parquet_has_the_hub_schema_and_images(generated: Path, tmp_path: Path) -> None:
    schema = pq.read_schema(generated / SCIENCEQA_PARQUET)
    assert schema.remove_metadata() == SCIENCEQA_ARROW_SCHEMA
    hf_metadata = json.loads(schema.metadata[b"huggingface"])
    assert hf_metadata["info"]["features"] == UPSTREAM_SCIENCEQA_FEATURES
    loaded = _load(generated / SCIENCEQA_PARQUET, "parquet", tmp_path)
    assert len(loaded) == SIZES["scienceqa"]["test"]
    pictures = [row["image"] for row in loaded if row["image"] is not None]
    assert len(pictures) == SIZES["scienceqa"]["image"]
    for picture in pictures:
        assert isinstance(picture, Image.Image)
        assert picture.format == "PNG"
        assert all(200 <= side <= 700 for side in picture.size)
    for row in loaded:
        assert 0 <= row["answer"] < len(row["choices"])


def test_output_is_deterministic_and_not_regenerated(generated: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    generate(again, scale=SCALE, seed_dir=None)
    first = json.loads((generated / "manifest.json").read_text())["files"]
    second = json.loads((again / "manifest.json").read_text())["files"]
    assert {name: entry["sha256"] for name, entry in first.items()} == {
        name: entry["sha256"] for name, entry in second.items()
    }

    path = again / SCIENCEQA_PARQUET
    before = path.stat().st_mtime_ns
    generate(again, scale=SCALE, seed_dir=None)
    assert path.stat().st_mtime_ns == before
    # A file with the wrong number of rows is noticed and rewritten.
    (again / WINOGRANDE_JSONL).write_text('{"sentence": "_"}\n')
    generate(again, scale=SCALE, seed_dir=None)
    assert len(_read_jsonl(again / WINOGRANDE_JSONL)) == SIZES["winogrande"]["validation"]


def test_simpleqa_verified_csv_is_in_the_kaggle_columns(generated: Path) -> None:
    frame = pandas.read_csv(generated / VERIFIED_CSV)
    assert list(frame.columns) == [
        "original_index",
        "problem",
        "answer",
        "topic",
        "answer_type",
        "multi_step",
        "requires_reasoning",
        "urls",
    ]
    assert len(frame) == SIZES["simpleqa_verified"]["eval"]
    assert frame["original_index"].is_unique and frame["original_index"].is_monotonic_increasing
    assert set(frame["multi_step"]) <= {True, False}


def test_every_workload_module_writes_its_files(generated: Path) -> None:
    manifest = json.loads((generated / "manifest.json").read_text())
    written: set[str] = set()
    for name, workload in discovered().items():
        files = workload.files(SIZES[name])
        assert files, name
        for path, counts in files.items():
            assert count_rows(generated / path) == counts, path
            assert (manifest["files"][path]["rows"], manifest["files"][path]["image_rows"]) == (
                counts
            )
        written |= set(files)
    assert set(manifest["files"]) == written


def image_parts(sample: Any) -> list[ContentImage]:
    messages = [] if isinstance(sample.input, str) else sample.input
    return [
        part
        for message in messages
        if not isinstance(message.content, str)
        for part in message.content
        if isinstance(part, ContentImage)
    ]


@pytest.mark.parametrize("key", list(cases()))
def test_tasks_build_every_sample_from_the_generated_files(generated: Path, key: str) -> None:
    case = cases()[key]
    workload = workloads()[case.benchmark]
    samples = list(make_task(case, generated).dataset)
    if case.part is None:
        # no workload module: measured on its bundled sample, nothing generated for it
        assert case.benchmark not in discovered()
        assert case.task_args(generated) == {"bundled_sample": True}
        assert workload.files(SIZES[case.benchmark]) == {}
        assert len(samples) > 0
        return
    files = workload.files(SIZES[case.benchmark])
    assert len(samples) == SIZES[case.benchmark][case.part]
    with_image = [sample for sample in samples if image_parts(sample)]
    image_rows = sum(images or 0 for _, images in files.values())
    assert len(with_image) == (len(samples) if case.image_rows else image_rows)
    for sample in with_image:
        (image,) = image_parts(sample)
        # a file of the image cache: Inspect reads it when the sample starts
        assert image.image.endswith(".png") and Path(image.image).is_file()
