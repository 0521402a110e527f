"""ScienceQA: prompts, images, data errors, reply parsing and an end-to-end run."""

from __future__ import annotations

import asyncio
import base64
import io
import json
from pathlib import Path
from typing import Any

import datasets
import pyarrow.parquet as pq
import pytest
from inspect_ai import eval
from inspect_ai._util.images import materialize_media
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ChatMessageUser, ContentImage, ContentText
from PIL import Image, ImageChops

from benchmarks.data.image_encoding import scaled_size
from benchmarks.data.scienceqa import grade_band, record_to_sample
from benchmarks.runtime.errors import DataError
from benchmarks.scienceqa import scienceqa
from benchmarks.scorers.letter_reading import parse_option_letter
from benchmarks.solvers.prompt_preview import prompt_messages, prompt_text
from tests.prompts import prompt
from tests.scripted import last_user_text, scripted_model

FIXTURE = Path(__file__).parents[1] / "fixtures" / "scienceqa" / "test_rows.hf.parquet"
WHERE = f"{FIXTURE} (test split)"

ROW0_TEXT = (
    "Context: This passage describes the fleece type trait in sheep:\n"
    "The fleece, or outer coat, of a sheep is often cut off and used to make yarn for fabrics "
    "and other textiles. Woolly fleeces, which have shorter hairs, are usually used for clothing "
    "and blankets. Hairy fleeces, which have longer hairs, are usually used for carpets.\n"
    "In a group of sheep, some individuals have a hairy fleece and others have a woolly fleece. "
    "In this group, the gene for the fleece type trait has two alleles. The allele for a hairy "
    "fleece (F) is dominant over the allele for a woolly fleece (f).\n"
    "This Punnett square shows a cross between two sheep.\n"
    "Question: What is the expected ratio of offspring with a woolly fleece to offspring with a "
    "hairy fleece? Choose the most likely ratio.\n"
    "Options:\n"
    "(A) 0:4\n"
    "(B) 4:0\n"
    "(C) 2:2\n"
    "(D) 1:3\n"
    "(E) 3:1\n"
    "Answer with the option letter from the given choices."
)
ROW1_TEXT = (
    "Context: Select the better estimate.\n"
    "Question: How long does it take to bake lasagna in the oven?\n"
    "Options:\n"
    "(A) 33 minutes\n"
    "(B) 33 hours\n"
    "Answer with the option letter from the given choices."
)
ROW2_TEXT = (
    "Question: Which figure of speech is used in this text?\n"
    "Sing, O goddess, the anger of Achilles son of Peleus, that brought countless ills upon "
    "the Achaeans.\n"
    "\u2014Homer, The Iliad\n"
    "Options:\n"
    "(A) chiasmus\n"
    "(B) apostrophe\n"
    "Answer with the option letter from the given choices."
)


def fixture_records() -> list[dict[str, Any]]:
    """The fixture rows with images as undecoded ``{"bytes", "path"}``."""
    return pq.read_table(FIXTURE).to_pylist()


def fixture_image(row: int) -> bytes:
    return fixture_records()[row]["image"]["bytes"]


def write_rows(path: Path, records: list[dict[str, Any]]) -> Path:
    """Rows as parquet with the Image feature, as the Hub copy stores them."""
    features = datasets.load_dataset("parquet", data_files=str(FIXTURE), split="train").features
    datasets.Dataset.from_list(records, features=features).to_parquet(str(path))
    return path


def sent_image_uri(sample: Sample) -> str:
    """The data URI Inspect makes of the sample's image part when the sample starts."""
    assert not isinstance(sample.input, str)
    content = sample.input[0].content
    assert isinstance(content, list) and isinstance(content[0], ContentImage)
    return asyncio.run(materialize_media(content[0].image))


def image_of(sample: Sample) -> tuple[str, bytes]:
    header, _, payload = sent_image_uri(sample).partition(",")
    return header, base64.b64decode(payload, validate=True)


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.mode == b.mode and ImageChops.difference(a, b).getbbox() is None


# --- messages -----------------------------------------------------------------


def test_row_with_image_and_hint_is_image_then_text() -> None:
    task = scienceqa(data_files=str(FIXTURE))
    sample = task.dataset[0]
    assert isinstance(sample.input, list)
    image = sample.input[0].content[0]
    assert isinstance(image, ContentImage)
    # the sample holds the image and the question; the solver lays out the prompt
    question = fixture_records()[0]["question"]
    assert sample.input == [
        ChatMessageUser(
            id=sample.input[0].id,
            content=[ContentImage(image=image.image), ContentText(text=question)],
        )
    ]
    [message] = prompt_messages(task, sample)
    assert message.role == "user" and not isinstance(message.content, str)
    assert message.content == [ContentImage(image=image.image), ContentText(text=ROW0_TEXT)]
    uri = "data:image/png;base64," + base64.b64encode(fixture_image(0)).decode("ascii")
    assert sent_image_uri(sample) == uri
    assert sample.id == "test_0"
    assert sample.target == "B"
    assert sample.choices == ["0:4", "4:0", "2:2", "1:3", "3:1"]
    assert sample.metadata == {
        "hint": fixture_records()[0]["hint"],
        "has_image": True,
        "has_hint": True,
        "subject": "natural science",
        "grade": "grade8",
        "topic": "biology",
        "category": "Genes to traits",
        "skill": "Use Punnett squares to calculate ratios of offspring types",
        "paper_subject": "NAT",
        "paper_context": ["TXT", "IMG"],
        "paper_grade": "G7-12",
    }


def test_row_with_hint_only_is_text() -> None:
    task = scienceqa(data_files=str(FIXTURE))
    sample = task.dataset[1]
    assert prompt(task, 1) == ROW1_TEXT
    assert sample.target == "A"
    assert sample.metadata is not None
    assert (sample.metadata["has_image"], sample.metadata["paper_context"]) == (False, ["TXT"])
    assert (sample.metadata["subject"], sample.metadata["paper_subject"]) == (
        "natural science",
        "NAT",
    )
    assert (sample.metadata["grade"], sample.metadata["paper_grade"]) == ("grade2", "G1-6")


def test_row_with_neither_is_text() -> None:
    task = scienceqa(data_files=str(FIXTURE))
    sample = task.dataset[2]
    assert prompt(task, 2) == ROW2_TEXT
    assert sample.target == "B"
    assert sample.metadata is not None
    assert (sample.metadata["has_hint"], sample.metadata["paper_context"]) == (False, ["NO"])
    assert (sample.metadata["subject"], sample.metadata["paper_subject"]) == (
        "language science",
        "LAN",
    )


def test_lmms_eval_prompt_format() -> None:
    task = scienceqa(data_files=str(FIXTURE), prompt_format="lmms_eval")
    assert prompt(task, 1) == (
        "Context: Select the better estimate.\n"
        "How long does it take to bake lasagna in the oven?\n"
        "A. 33 minutes\n"
        "B. 33 hours\n"
        "Answer with the option's letter from the given choices directly."
    )
    assert prompt(task, 2) == (
        "Which figure of speech is used in this text?\n"
        "Sing, O goddess, the anger of Achilles son of Peleus, that brought countless ills upon "
        "the Achaeans.\n\u2014Homer, The Iliad\n"
        "A. chiasmus\n"
        "B. apostrophe\n"
        "Answer with the option's letter from the given choices directly."
    )


def test_braces_in_text_are_kept() -> None:
    task = scienceqa(data_files=str(FIXTURE))
    sample = Sample(input="f({x})?", choices=["{a}", "b}"], metadata={"hint": "{hint}"})
    assert prompt_text(task, sample) == (
        "Context: {hint}\nQuestion: f({x})?\nOptions:\n(A) {a}\n(B) b}\n"
        "Answer with the option letter from the given choices."
    )


def test_image_only_row_has_no_context_line() -> None:
    task = scienceqa(data_files=str(FIXTURE))
    sample = task.dataset[4]
    [message] = prompt_messages(task, sample)
    content = message.content
    assert isinstance(content, list) and isinstance(content[1], ContentText)
    assert content[1].text == (
        "Question: Which material is this path made of?\nOptions:\n(A) plastic\n(B) brick\n"
        "Answer with the option letter from the given choices."
    )
    assert sample.metadata is not None
    assert (sample.metadata["has_hint"], sample.metadata["paper_context"]) == (False, ["IMG"])


# --- images -------------------------------------------------------------------


@pytest.mark.parametrize("row", [0, 3, 4, 8])
def test_image_part_is_the_source_png(row: int) -> None:
    sample = scienceqa(data_files=str(FIXTURE)).dataset[row]
    header, payload = image_of(sample)
    source = fixture_image(row)
    assert header == "data:image/png;base64"
    assert payload == source  # an RGB PNG is sent as is: no re-encoding
    assert same_pixels(
        Image.open(io.BytesIO(payload)), Image.open(io.BytesIO(source)).convert("RGB")
    )


def test_max_image_side_scales_down_keeping_aspect() -> None:
    sample = scienceqa(data_files=str(FIXTURE), max_image_side=100).dataset[0]
    header, payload = image_of(sample)
    source = Image.open(io.BytesIO(fixture_image(0))).convert("RGB")
    assert source.size == (236, 241)
    assert scaled_size(source.size, 100) == (98, 100)
    expected = source.resize((98, 100), Image.Resampling.LANCZOS)
    assert header == "data:image/png;base64"
    assert same_pixels(Image.open(io.BytesIO(payload)), expected)


def test_jpeg_image_format() -> None:
    sample = scienceqa(data_files=str(FIXTURE), image_format="jpeg").dataset[3]
    header, payload = image_of(sample)
    assert header == "data:image/jpeg;base64"
    decoded = Image.open(io.BytesIO(payload))
    assert (decoded.format, decoded.mode, decoded.size) == ("JPEG", "RGB", (575, 171))


def test_corrupt_image_is_an_error_naming_the_row(tmp_path: Path) -> None:
    records = fixture_records()
    records[3]["image"] = {"bytes": b"\x89PNG\r\n\x1a\n garbage", "path": None}
    path = write_rows(tmp_path / "corrupt.parquet", records)
    # the rows before it are unaffected: with num_examples it is never built
    assert scienceqa(data_files=str(path), num_examples=3).dataset[0].target == "B"
    with pytest.raises(DataError) as raised:
        scienceqa(data_files=str(path))
    assert str(raised.value) == (
        f"{path} (test split), row 4: field 'image': image bytes could not be decoded "
        "(OSError: Truncated File Read)"
    )


def test_truncated_image_is_an_error_naming_the_row(tmp_path: Path) -> None:
    records = fixture_records()
    records[4]["image"] = {"bytes": fixture_image(4)[:2000], "path": None}
    path = write_rows(tmp_path / "truncated.parquet", records)
    with pytest.raises(DataError) as raised:
        list(scienceqa(data_files=str(path)).dataset)
    assert str(raised.value) == (
        f"{path} (test split), row 5: field 'image': image bytes could not be decoded "
        "(OSError: Truncated File Read)"
    )


def test_corrupt_image_stops_the_run_before_any_model_call(tmp_path: Path) -> None:
    records = fixture_records()
    records[8]["image"] = {"bytes": b"not an image", "path": None}
    path = write_rows(tmp_path / "corrupt.parquet", records)
    calls: list[int] = []

    def reply(messages: list[ChatMessage]) -> str:
        calls.append(1)
        return "A"

    with pytest.raises(DataError) as raised:
        eval(
            scienceqa(data_files=str(path)),
            model=scripted_model(reply),
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
    assert str(raised.value) == (
        f"{path} (test split), row 9: field 'image': image bytes could not be decoded "
        "(not in an image format Pillow reads)"
    )
    assert calls == []


def test_image_paths_in_jsonl_are_relative_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "images" / "7").mkdir(parents=True)
    (tmp_path / "images" / "7" / "image.png").write_bytes(fixture_image(0))
    records = fixture_records()[:2]
    records[0]["image"] = "images/7/image.png"
    records[1]["image"] = None
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    dataset = scienceqa(data_files=str(path))
    assert image_of(dataset.dataset[0])[1] == fixture_image(0)
    assert prompt(dataset, 1) == ROW1_TEXT
    assert [s.id for s in scienceqa(data_files=str(path), subset="image").dataset] == ["test_0"]


def test_missing_image_file_is_an_error(tmp_path: Path) -> None:
    records = fixture_records()[:1]
    records[0]["image"] = "images/missing.png"
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(records[0]) + "\n", encoding="utf-8")
    with pytest.raises(
        DataError, match=r"line 1: field 'image': cannot read image file '.*missing"
    ):
        scienceqa(data_files=str(path)).dataset[0]


# --- subsets and laziness -------------------------------------------------------


@pytest.mark.parametrize(
    ("subset", "ids"),
    [("all", list(range(9))), ("image", [0, 3, 4, 8]), ("no_image", [1, 2, 5, 6, 7])],
)
def test_subsets(subset: str, ids: list[int]) -> None:
    task = scienceqa(data_files=str(FIXTURE), subset=subset)  # type: ignore[arg-type]
    assert [s.id for s in task.dataset] == [f"test_{row}" for row in ids]
    assert task.dataset.name == "scienceqa_test" + ("" if subset == "all" else f"_{subset}")
    assert all(s.metadata is not None for s in task.dataset)
    assert {s.metadata["has_image"] for s in task.dataset if s.metadata} == (
        {True, False} if subset == "all" else {subset == "image"}
    )


def test_empty_subset_is_an_error(tmp_path: Path) -> None:
    records = [r for r in fixture_records() if r["image"] is None]
    path = write_rows(tmp_path / "text_only.parquet", records)
    with pytest.raises(DataError, match=r"^.*text_only\.parquet \(test split\): no rows in subset"):
        scienceqa(data_files=str(path), subset="image")


# --- bad rows and parameters -----------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"answer": 5}, "field 'answer' is 5, not an index of the 5 choices (0 to 4)"),
        ({"answer": -1}, "field 'answer' is -1, not an index of the 5 choices (0 to 4)"),
        ({"answer": None}, "field 'answer' is missing"),
        ({"choices": []}, "field 'choices' is empty"),
        ({"choices": None}, "field 'choices' should be a list of strings, got None"),
        ({"question": None}, "field 'question' is missing"),
        ({"grade": "grade13"}, "field 'grade' should be 'grade1' to 'grade12', got 'grade13'"),
        ({"grade": "8"}, "field 'grade' should be 'grade1' to 'grade12', got '8'"),
        ({"subject": None}, "field 'subject' is missing"),
    ],
)
def test_bad_rows_name_row_and_field(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    records = fixture_records()
    records[0].update(change)
    path = write_rows(tmp_path / "bad.parquet", records)
    with pytest.raises(DataError) as raised:
        scienceqa(data_files=str(path)).dataset[0]
    assert str(raised.value) == f"{path} (test split), row 1: {message}"


def test_answer_as_string_is_a_type_error() -> None:
    record = fixture_records()[1] | {"answer": "0"}
    with pytest.raises(TypeError, match=r"^field 'answer' should be int, got str '0'$"):
        record_to_sample(record, "test_1")


def test_missing_column(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    record = fixture_records()[1]
    del record["hint"]
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"rows\.jsonl \(test split\): missing column\(s\) 'hint'"):
        scienceqa(data_files=str(path))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"eval_split": "dev"}, "unknown eval_split 'dev'; choose one of train, validation, test."),
        ({"split": "test"}, "split was renamed eval_split."),
        ({"prompt_format": "default"}, "prompt_format 'default' was renamed 'question_options'."),
        ({"subset": "img"}, "unknown subset 'img'; choose one of all, image, no_image."),
        (
            {"prompt_format": "llava"},
            "unknown prompt_format 'llava'; choose one of question_options, lmms_eval.",
        ),
        ({"image_format": "gif"}, "unknown image_format 'gif'; choose one of png, jpeg."),
        (
            {"max_image_side": 0},
            "max_image_side must be a positive integer or null (full size), got 0.",
        ),
        (
            {"max_image_side": "512"},
            "max_image_side must be a positive integer or null (full size), got '512'.",
        ),
        (
            {"answer_parse": "yes"},
            "unknown answer_parse 'yes'; choose one of option_letter, lmms_eval.",
        ),
        (
            {"strict_parse": True},
            "strict_parse was renamed answer_parse (strict_parse=true is answer_parse=lmms_eval).",
        ),
        (
            {"profile": "lmms_eval"},
            "unknown profile 'lmms_eval'; choose one of default, lmms_eval_0.7.3.",
        ),
        (
            {"num_exmaples": 5},
            "unknown parameter 'num_exmaples'; did you mean num_examples? the parameters are "
            "profile, prompt_format, answer_parse, eval_split, subset, num_examples, shard, "
            "image_format, max_image_side, dataset_path, data_files, bundled_sample.",
        ),
    ],
)
def test_invalid_parameters(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        scienceqa(data_files=str(FIXTURE), **arguments)
    assert str(raised.value) == f"scienceqa: {message}"


@pytest.mark.parametrize(
    ("grade", "band"),
    [("grade1", "G1-6"), ("grade6", "G1-6"), ("grade7", "G7-12"), ("grade12", "G7-12")],
)
def test_grade_band(grade: str, band: str) -> None:
    assert grade_band(grade) == band


# --- reply parsing ------------------------------------------------------------------

VALID = ["A", "B", "C"]

# reply, (letter, rule) by default, (letter, rule) with answer_parse=lmms_eval
REPLY_FORMATS = [
    ("B", ("B", "exact"), ("B", "exact")),
    ("  b \n", ("B", "exact"), ("B", "exact")),
    ("B.", ("B", "letter_period"), ("B", "letter_period")),
    ("B. 33 hours", ("B", "letter_period"), ("B", "letter_period")),
    ("D. none", (None, "none"), (None, "none")),
    ("b. 33 hours", (None, "none"), (None, "none")),
    ("(B)", ("B", "parenthesized"), (None, "none")),
    ("B)", ("B", "parenthesized"), (None, "none")),
    ("(B) 33 hours", ("B", "parenthesized"), (None, "none")),
    ("Answer: B", ("B", "answer_phrase"), (None, "none")),
    ("The answer is B.", ("B", "answer_phrase"), (None, "none")),
    ("The answer is (C).", ("C", "answer_phrase"), (None, "none")),
    ("Answer: A. The answer is B.", (None, "none"), (None, "none")),
    ("The answer is D.", (None, "none"), (None, "none")),
    ("D", (None, "none"), (None, "none")),
    ("33 hours", (None, "none"), (None, "none")),
    ("", (None, "none"), (None, "none")),
    ("Both A and B", (None, "none"), (None, "none")),
]


@pytest.mark.parametrize(("reply", "lenient", "strict"), REPLY_FORMATS)
def test_reply_formats(
    reply: str, lenient: tuple[str | None, str], strict: tuple[str | None, str]
) -> None:
    assert tuple(parse_option_letter(reply, VALID, strict=False)) == lenient
    assert tuple(parse_option_letter(reply, VALID, strict=True)) == strict


# --- end to end -----------------------------------------------------------------------

# Keyed by each fixture row's first option; comments: row, target, the paper's columns.
SCRIPTED_REPLIES = {
    "(A) 0:4": "B",  # 0, B, NAT TXT IMG G7-12: correct
    "(A) 33 minutes": "(A)",  # 1, A, NAT TXT G1-6: correct unless strict
    "(A) chiasmus": "The answer is B.",  # 2, B, LAN NO G7-12: correct unless strict
    "(A) The magnitude": "A. The magnitude is the same",  # 3, C, NAT TXT IMG G7-12: wrong
    "(A) plastic": "B. brick",  # 4, B, NAT IMG G1-6: correct
    "(A) acquired": "I am not sure.",  # 5, A, NAT TXT G1-6: no answer
    "(A) no": "a",  # 6, A, LAN NO G7-12: correct
    "(A) It would": "C",  # 7, D, SOC NO G1-6: wrong
    # 8, B, NAT TXT IMG G1-6: correct unless strict
    "(A) The magnetic force is stronger": "Answer: B",
}


def scripted_reply(messages: list[ChatMessage]) -> str:
    text = last_user_text(messages)
    [reply] = [reply for key, reply in SCRIPTED_REPLIES.items() if f"\n{key}" in text]
    return reply


def run(tmp_path: Path, **arguments: Any) -> dict[str, float]:
    [log] = eval(
        scienceqa(data_files=str(FIXTURE), **arguments),
        model=scripted_model(scripted_reply),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    assert log.results is not None
    [score] = log.results.scores
    return {name: metric.value for name, metric in score.metrics.items()}


# The paper's columns, in its table's order (tools/evaluate_acc.py of lupantech/ScienceQA).
PAPER_COLUMNS = ["NAT", "SOC", "LAN", "TXT", "IMG", "NO", "G1-6", "G7-12"]


def test_eval_end_to_end(tmp_path: Path) -> None:
    metrics = run(tmp_path)
    assert list(metrics) == ["accuracy", "stderr", "parse_failure_rate", *PAPER_COLUMNS]
    assert metrics == pytest.approx(
        {
            "accuracy": 6 / 9,
            "stderr": 1 / 6,
            "parse_failure_rate": 1 / 9,
            "NAT": 4 / 6,  # rows 0 1 3 4 5 8: 0 1 4 8 right
            "SOC": 0.0,  # row 7
            "LAN": 1.0,  # rows 2 6
            "TXT": 3 / 5,  # a hint, image or not: rows 0 1 3 5 8
            "IMG": 3 / 4,  # an image, hint or not: rows 0 3 4 8
            "NO": 2 / 3,  # rows 2 6 7
            "G1-6": 3 / 5,  # rows 1 4 5 7 8
            "G7-12": 3 / 4,  # rows 0 2 3 6
        }
    )


def test_eval_end_to_end_strict(tmp_path: Path) -> None:
    metrics = run(tmp_path, answer_parse="lmms_eval")
    assert metrics == pytest.approx(
        {
            "accuracy": 3 / 9,
            "stderr": 0.5 / 3,
            "parse_failure_rate": 4 / 9,
            "NAT": 2 / 6,
            "SOC": 0.0,
            "LAN": 1 / 2,
            "TXT": 1 / 5,
            "IMG": 2 / 4,
            "NO": 1 / 3,
            "G1-6": 1 / 5,
            "G7-12": 2 / 4,
        }
    )


def test_eval_scores_record_letter_and_rule(tmp_path: Path) -> None:
    [log] = eval(
        scienceqa(data_files=str(FIXTURE)),
        model=scripted_model(scripted_reply),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.samples is not None
    recorded = {
        sample.id: (score.answer, (score.metadata or {})["rule"], score.value)
        for sample in log.samples
        for score in (sample.scores or {}).values()
    }
    assert recorded == {
        "test_0": ("B", "exact", "C"),
        "test_1": ("A", "parenthesized", "C"),
        "test_2": ("B", "answer_phrase", "C"),
        "test_3": ("A", "letter_period", "I"),
        "test_4": ("B", "letter_period", "C"),
        "test_5": (None, "none", "I"),
        "test_6": ("A", "exact", "C"),
        "test_7": ("C", "exact", "I"),
        "test_8": ("B", "answer_phrase", "C"),
    }


def test_image_column_of_another_type_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    record = fixture_records()[1] | {"image": 7}
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    # in either subset (whether it has an image is what cannot be read)
    for subset in ("image", "no_image", "all"):
        with pytest.raises(DataError) as raised:
            scienceqa(data_files=str(path), subset=subset)  # type: ignore[arg-type]
        assert str(raised.value) == (
            f"{path} (test split), line 1: field 'image' should be an image (bytes and "
            "path), a path or null, got int 7"
        )


def test_paper_columns_in_the_papers_order_whatever_the_sample_order() -> None:
    """Each column counts the questions of its rule; TXT and IMG overlap; a column without
    questions (no NO question here, no G7-12) is left out rather than reported as 0."""
    from inspect_ai.scorer import SampleScore, Score

    from benchmarks.data.scienceqa import paper_columns
    from benchmarks.scorers.scienceqa import paper_column_accuracy

    rows = [  # subject, hint, image, grade, verdict
        ("social science", True, False, "grade3", "C"),
        ("language science", True, True, "grade1", "I"),
        ("natural science", False, True, "grade6", "C"),
        ("natural science", True, True, "grade2", "C"),
    ]
    scores = [
        SampleScore(
            score=Score(value=verdict),
            sample_id=i,
            sample_metadata=paper_columns(subject, hint, image, grade),
        )
        for i, (subject, hint, image, grade, verdict) in enumerate(rows)
    ]
    by_column = paper_column_accuracy()
    forward = by_column(scores)  # type: ignore[arg-type]
    backward = by_column(scores[::-1])  # type: ignore[arg-type]
    expected = [
        ("NAT", 1.0),
        ("SOC", 1.0),
        ("LAN", 0.0),
        ("TXT", 2 / 3),  # rows 0 1 3
        ("IMG", 2 / 3),  # rows 1 2 3
        ("G1-6", 3 / 4),
    ]
    assert list(forward.items()) == list(backward.items()) == expected  # type: ignore[union-attr]


def test_a_former_versions_metadata_gets_the_paper_columns() -> None:
    """Versions up to 1.2.0 recorded ``context_type`` (IMG, else TXT, else NO) and
    ``grade_band``; compare derives the paper's columns from the raw fields."""
    from benchmarks.data.scienceqa import paper_columns_of_former_metadata

    former = {
        "has_image": True,
        "has_hint": True,
        "context_type": "IMG",
        "subject": "social science",
        "grade": "grade12",
        "grade_band": "G7-12",
    }
    assert paper_columns_of_former_metadata(former) == {
        **former,
        "paper_subject": "SOC",
        "paper_context": ["TXT", "IMG"],
        "paper_grade": "G7-12",
    }
    no_context = former | {"has_image": False, "has_hint": False, "subject": "art"}
    assert paper_columns_of_former_metadata(no_context) == {
        **no_context,
        "paper_subject": None,
        "paper_context": ["NO"],
        "paper_grade": "G7-12",
    }
