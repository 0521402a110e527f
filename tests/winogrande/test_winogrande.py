"""Winogrande: prompt bytes, few-shot layout and draws, reply parsing, scoring and errors."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessage

from benchmarks.runtime.errors import DataError, DataUnavailableError
from benchmarks.scorers.letter_reading import parse_answer_marker
from benchmarks.winogrande import winogrande
from tests.prompts import prompt, prompts_of
from tests.scripted import last_user_text, replies_by_prompt, scripted_model

FIXTURES = Path(__file__).parents[1] / "fixtures" / "winogrande"
VALIDATION = FIXTURES / "validation.jsonl"
TRAIN = FIXTURES / "train.jsonl"
BOTH_SPLITS = {"validation": str(VALIDATION), "train": str(TRAIN)}

INSTRUCTION = (
    "Answer the following multiple choice question. The entire content of your response "
    "should be of the following format: 'ANSWER: [LETTER]' (without quotes) where [LETTER] "
    "is one of A,B."
)

# The first and last fixture rows, as evalscope renders them (the last keeps its double space).
PROMPT_0 = (
    INSTRUCTION + "\n\n"
    "Sarah was a much better surgeon than Maria so _ always got the easier cases.\n\n"
    "A) Sarah\n"
    "B) Maria"
)
PROMPT_4 = (
    INSTRUCTION + "\n\n"
    "They brought the cornhole supplies to the camp site so they could play while adults "
    "cooked dinner.  The boys really enjoyed the _ after the game.\n\n"
    "A) cornhole\n"
    "B) dinner"
)

# shots=2, fewshot_seed=1234: Random(1234).sample(range(12), 2) == [7, 1] for question 0.
PROMPT_0_SHOTS_2 = (
    "Here are some examples of how to answer similar questions:\n\n"
    "Throughout the practice Rachel pushed the limits of Megan to get ready for the game "
    "because _ was the athlete.\n"
    "A) Rachel\n"
    "B) Megan\n"
    "ANSWER: B\n\n"
    "The game of chess was easy to play for Angela but not Rebecca because  _ did not have "
    "an analytical mind.\n"
    "A) Angela\n"
    "B) Rebecca\n"
    "ANSWER: B\n\n" + PROMPT_0
)


def read_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_rows(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


# --- prompts and samples -------------------------------------------------------------


def test_prompt_bytes_for_real_rows() -> None:
    task = winogrande(data_files=str(VALIDATION))
    assert len(task.dataset) == 5
    assert task.dataset[0].input == read_rows(VALIDATION)[0]["sentence"]  # the question alone
    assert prompt(task, 0) == PROMPT_0
    assert prompt(task, 4) == PROMPT_4


def test_every_prompt_is_the_template_filled_with_its_row() -> None:
    task = winogrande(data_files=str(VALIDATION))
    for text, row in zip(prompts_of(task), read_rows(VALIDATION), strict=True):
        assert text == (
            f"{INSTRUCTION}\n\n{row['sentence']}\n\nA) {row['option1']}\nB) {row['option2']}"
        )


def test_sample_fields() -> None:
    dataset = winogrande(data_files=str(VALIDATION)).dataset
    sample = dataset[2]
    assert sample.id == "validation_2"
    assert sample.target == "B"
    assert sample.choices == ["blanket", "bed"]
    assert sample.input == (
        "They were worried the wine would ruin the bed and the blanket, but the _ was't ruined."
    )
    assert sample.metadata == {}
    assert [s.target for s in dataset] == ["B", "A", "B", "A", "B"]
    assert [s.id for s in dataset] == [f"validation_{i}" for i in range(5)]


def test_sample_ids_name_the_split_and_the_dataset_the_config() -> None:
    # short ids: the viewer's sample list shows about 18 characters of an id
    dataset = winogrande(dataset_config="winogrande_debiased", data_files=str(VALIDATION)).dataset
    assert dataset[0].id == "validation_0"
    assert dataset.name == "winogrande_debiased_validation"


def test_braces_in_data_are_kept_verbatim(tmp_path: Path) -> None:
    row = {"sentence": "The {x} beat _ at {0}.", "option1": "{a}", "option2": "b}", "answer": "1"}
    task = winogrande(data_files=str(write_rows(tmp_path / "v.jsonl", [row])))
    assert prompt(task, 0) == f"{INSTRUCTION}\n\nThe {{x}} beat _ at {{0}}.\n\nA) {{a}}\nB) b}}"


def test_original_release_format_loads_the_same(tmp_path: Path) -> None:
    """The upstream dev.jsonl has an extra qID column; it is ignored."""
    rows = [{"qID": f"q-{i}", **row} for i, row in enumerate(read_rows(VALIDATION))]
    upstream = winogrande(data_files=str(write_rows(tmp_path / "dev.jsonl", rows))).dataset
    hf = winogrande(data_files=str(VALIDATION)).dataset
    assert [(s.id, s.input, s.target) for s in upstream] == [(s.id, s.input, s.target) for s in hf]


# --- few-shot ------------------------------------------------------------------------


def test_zero_shots_does_not_load_the_train_split() -> None:
    # No 'train' entry and a train file that does not exist: neither is touched.
    assert prompt(winogrande(data_files={"validation": str(VALIDATION)}), 0) == PROMPT_0
    missing = {"validation": str(VALIDATION), "train": "/nonexistent/train.jsonl"}
    assert prompt(winogrande(data_files=missing), 0) == PROMPT_0


def test_shots_need_the_train_split() -> None:
    with pytest.raises(DataError, match="data_files has no entry for the 'train' split"):
        winogrande(shots=1, data_files={"validation": str(VALIDATION)})


def test_few_shot_prompt_exact_text() -> None:
    assert prompt(winogrande(shots=2, data_files=BOTH_SPLITS), 0) == PROMPT_0_SHOTS_2


def test_few_shot_draws_follow_the_seeded_rng() -> None:
    """One Random(fewshot_seed) walks the questions in order, sampling `shots` train rows each."""
    train = read_rows(TRAIN)
    validation = read_rows(VALIDATION)
    for seed in (1234, 7):
        rng = random.Random(seed)
        expected = []
        for row in validation:
            demos = [train[i] for i in rng.sample(range(len(train)), 3)]
            blocks = [
                f"{d['sentence']}\nA) {d['option1']}\nB) {d['option2']}\n"
                f"ANSWER: {'A' if d['answer'] == '1' else 'B'}"
                for d in demos
            ]
            question = (
                f"{INSTRUCTION}\n\n{row['sentence']}\n\nA) {row['option1']}\nB) {row['option2']}"
            )
            expected.append(
                "Here are some examples of how to answer similar questions:\n\n"
                + "\n\n".join(blocks)
                + "\n\n"
                + question
            )
        task = winogrande(shots=3, fewshot_seed=seed, data_files=BOTH_SPLITS)
        assert prompts_of(task) == expected


def test_few_shot_prompts_do_not_depend_on_build_order() -> None:
    in_order = prompts_of(winogrande(shots=2, data_files=BOTH_SPLITS))
    backwards = winogrande(shots=2, data_files=BOTH_SPLITS)
    assert [prompt(backwards, i) for i in reversed(range(5))] == in_order[::-1]
    other_seed = prompts_of(winogrande(shots=2, fewshot_seed=1, data_files=BOTH_SPLITS))
    assert other_seed != in_order


@pytest.mark.slow
def test_prompts_identical_across_processes_and_hash_seeds() -> None:
    code = (
        "import json, sys\n"
        "from benchmarks.solvers.prompt_preview import prompt_text\n"
        "from benchmarks.winogrande import winogrande\n"
        f"t = winogrande(shots=2, data_files={BOTH_SPLITS!r})\n"
        "print(json.dumps([[s.id, prompt_text(t, s)] for s in t.dataset]))\n"
    )
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        result = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(json.loads(result.stdout.strip().splitlines()[-1]))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == ["validation_0", PROMPT_0_SHOTS_2]


# --- reply parsing and scoring -------------------------------------------------------

REPLY_TABLE = [
    # reply, parsed letter (None: "no answer parsed")
    ("ANSWER: B", "B"),
    ("answer: b", "B"),
    ("ANSWER: (A)", "A"),
    ("ANSWER: A\nANSWER: B", "B"),
    ("The answer is B", None),
    ("", None),
    ("ANSWER: C", None),
    ("ANSWER: [B]", "B"),
    ("ANSWER: **A**", "A"),
    ("Let me think. ANSWER: A.", "A"),
    ("ANSWER: Because the trophy is big", None),
    ("B", None),
]


@pytest.mark.parametrize(("reply", "letter"), REPLY_TABLE)
def test_parse_answer_marker_table(reply: str, letter: str | None) -> None:
    parsed = parse_answer_marker(reply, ["A", "B"])
    assert parsed.letter == letter
    assert parsed.rule == ("answer_marker" if letter else "none")


# The reply table run end-to-end: (reply, parsed letter, correct?) per row of
# the 8-row file built from the fixtures (targets B A B A B A B A).
END_TO_END = [
    ("ANSWER: B", "B", True),
    ("ANSWER: (A)", "A", True),
    ("answer: b", "B", True),
    ("ANSWER: A\nANSWER: B", "B", False),
    ("The answer is B", None, False),
    ("", None, False),
    ("ANSWER: C", None, False),
    ("ANSWER: **A**", "A", True),
]


def eight_rows(tmp_path: Path) -> Path:
    rows = read_rows(VALIDATION) + read_rows(TRAIN)[:3]
    return write_rows(tmp_path / "validation.jsonl", rows)


def test_end_to_end_accuracy_and_parse_failure_rate(tmp_path: Path) -> None:
    path = eight_rows(tmp_path)
    sentences = [row["sentence"] for row in read_rows(path)]
    assert [s.target for s in winogrande(data_files=str(path)).dataset] == list("BABABABA")
    reply_for = {
        sentence: reply for sentence, (reply, _, _) in zip(sentences, END_TO_END, strict=True)
    }

    def reply(prompt: str) -> str:
        (sentence,) = [s for s in reply_for if f"\n\n{s}\n\n" in prompt]
        return reply_for[sentence]

    [log] = eval(
        winogrande(data_files=str(path)),
        model=replies_by_prompt(reply),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success" and log.results is not None and log.samples is not None
    metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    assert metrics["accuracy"] == pytest.approx(4 / 8)
    assert metrics["parse_failure_rate"] == pytest.approx(3 / 8)
    assert metrics["stderr"] == pytest.approx(math.sqrt(0.25 * 8 / 7 / 8))
    assert len(log.samples) == 8
    for sample in log.samples:
        row = int(str(sample.id).rsplit("_", 1)[1])
        _, letter, correct = END_TO_END[row]
        assert sample.scores is not None
        score = sample.scores["option_letter_scorer"]
        assert score.answer == letter
        assert score.value == ("C" if correct else "I")
        target = sample.target
        assert score.explanation == (
            f"read {letter} (rule answer_marker); target {target}"
            if letter
            else f"no answer parsed; target {target}"
        )
        assert score.metadata == {"rule": "answer_marker" if letter else "none"}


def test_one_user_message_and_temperature_zero(tmp_path: Path) -> None:
    seen: list[list[ChatMessage]] = []

    def reply(messages: list[ChatMessage]) -> str:
        seen.append(messages)
        return "ANSWER: B"

    task = winogrande(data_files=str(VALIDATION))
    assert task.config.temperature == 0.0
    [log] = eval(
        task,
        model=scripted_model(reply),
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    [messages] = seen
    assert [m.role for m in messages] == ["user"]
    assert last_user_text(messages) == PROMPT_0
    assert log.eval.model_generate_config.temperature is None
    assert log.plan.config.temperature == 0.0


# --- parameters ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"shots": -1},
            "winogrande: shots must be a non-negative integer or null (the profile's), got -1.",
        ),
        (
            {"shots": "5"},
            "winogrande: shots must be a non-negative integer or null (the profile's), got '5'.",
        ),
        (
            {"answer_parse": "lenient"},
            "winogrande: unknown answer_parse 'lenient'; choose one of answer_marker, evalscope, "
            "evalscope_1.14.0, evalscope_1.13.0, evalscope_1.12.0, evalscope_1.11.1, "
            "evalscope_1.11.0, inspect_choice.",
        ),
        (
            {"answer_parse": "evalscope_1.14.1"},
            "winogrande: answer_parse 'evalscope_1.14.1' was renamed 'evalscope'.",
        ),
        (
            {"dataset_config": "xl"},
            "winogrande: unknown dataset_config 'xl'; choose one of winogrande_xs, "
            "winogrande_s, winogrande_m, winogrande_l, winogrande_xl, winogrande_debiased.",
        ),
        (
            {"eval_split": "test"},
            "winogrande: the test split's answers are empty (the labels are withheld for "
            "the leaderboard); use eval_split='validation'.",
        ),
        (
            {"eval_split": "dev"},
            "winogrande: unknown eval_split 'dev'; choose one of validation, train.",
        ),
        (
            {"shots": 1, "eval_split": "train"},
            "winogrande: shots > 0 draws demonstrations from the train split, which is also "
            "eval_split: demonstrations would leak answers; use eval_split='validation'.",
        ),
        (
            {"fewshot_seed": 1.5},
            "winogrande: fewshot_seed must be an integer or null (the profile's), got 1.5.",
        ),
    ],
)
def test_invalid_parameters_fail_before_loading(params: dict[str, Any], message: str) -> None:
    # The data file does not exist: the parameter check must come first.
    with pytest.raises(ValueError) as raised:
        winogrande(data_files="/nonexistent/validation.jsonl", **params)
    assert not isinstance(raised.value, DataError)
    assert str(raised.value) == message


def test_more_shots_than_train_rows() -> None:
    with pytest.raises(DataError) as raised:
        winogrande(shots=13, data_files=BOTH_SPLITS)
    assert str(raised.value) == (
        f"winogrande: {TRAIN} (train split) has 12 rows, fewer than shots=13."
    )


def test_train_split_is_a_valid_eval_split_at_zero_shots() -> None:
    dataset = winogrande(eval_split="train", data_files={"train": str(TRAIN)}).dataset
    assert len(dataset) == 12
    assert dataset[0].id == "train_0"


def test_hub_unavailable_offline_names_dataset_and_config() -> None:
    with pytest.raises(DataUnavailableError) as raised:
        winogrande(dataset_config="winogrande_debiased")
    message = str(raised.value)
    assert "Could not load the Winogrande dataset 'allenai/winogrande' (config " in message
    assert "'winogrande_debiased'), split 'validation'" in message
    assert "data_files=" in message


# --- bad data ------------------------------------------------------------------------

GOOD = {"sentence": "Sarah beat Maria because _ was fast.", "option1": "Sarah", "option2": "Maria"}


@pytest.mark.parametrize(
    ("bad_row", "message"),
    [
        (
            {**GOOD, "answer": ""},
            "field 'answer' should be '1' or '2', got '' (answers are empty in the test split)",
        ),
        ({**GOOD, "answer": "3"}, "field 'answer' should be '1' or '2', got '3'"),
        ({**GOOD, "answer": None}, "field 'answer' should be '1' or '2', got None"),
        ({**GOOD, "option1": "", "answer": "1"}, "field 'option1' is empty"),
        ({**GOOD, "option2": "  ", "answer": "1"}, "field 'option2' is empty"),
        ({**GOOD, "sentence": None, "answer": "1"}, "field 'sentence' is missing"),
    ],
)
def test_bad_row_names_file_row_and_field(
    tmp_path: Path, bad_row: dict[str, Any], message: str
) -> None:
    path = write_rows(tmp_path / "v.jsonl", [{**GOOD, "answer": "1"}, bad_row])
    # the row before it is unaffected: with num_examples the bad one is never built
    assert winogrande(data_files=str(path), num_examples=1).dataset[0].target == "A"
    with pytest.raises(DataError) as raised:
        winogrande(data_files=str(path))
    assert str(raised.value) == f"{path} (validation split), line 2: {message}"


def test_integer_answers_are_refused(tmp_path: Path) -> None:
    path = write_rows(tmp_path / "v.jsonl", [{**GOOD, "answer": 2}])
    with pytest.raises(DataError) as raised:
        list(winogrande(data_files=str(path)).dataset)
    assert str(raised.value) == (
        f"{path} (validation split), line 1: field 'answer' should be '1' or '2', got 2"
    )


def test_bad_demonstration_row_names_train_file_row_and_field(tmp_path: Path) -> None:
    train = read_rows(TRAIN)
    train[7]["answer"] = "0"  # row 7 is question 0's first demonstration
    path = write_rows(tmp_path / "train.jsonl", train)
    with pytest.raises(DataError) as raised:
        winogrande(shots=2, data_files={"validation": str(VALIDATION), "train": str(path)})
    assert str(raised.value) == (
        f"{path} (train split), line 8: field 'answer' should be '1' or '2', got '0'"
    )


def test_missing_and_renamed_columns(tmp_path: Path) -> None:
    rows = [
        {
            "sentence": r["sentence"],
            "opt1": r["option1"],
            "option2": r["option2"],
            "label": r["answer"],
        }
        for r in read_rows(VALIDATION)
    ]
    path = write_rows(tmp_path / "v.jsonl", rows)
    with pytest.raises(DataError) as raised:
        winogrande(data_files=str(path))
    assert str(raised.value) == (
        f"{path} (validation split): missing column(s) 'option1', 'answer'; "
        "found 'sentence', 'opt1', 'option2', 'label'."
    )


def test_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(DataError) as raised:
        winogrande(data_files=str(empty))
    assert str(raised.value) == f"{empty}: the file is empty."


def test_undecodable_bytes_name_file_and_line(tmp_path: Path) -> None:
    latin1 = tmp_path / "latin1.jsonl"
    good = '{"sentence": "Zoe beat _.", "option1": "a", "option2": "b", "answer": "1"}\n'
    bad = '{"sentence": "Zoë beat _.", "option1": "a", "option2": "b", "answer": "1"}\n'
    latin1.write_bytes(good.encode() + bad.encode("latin-1"))
    with pytest.raises(DataError) as raised:
        winogrande(data_files=str(latin1))
    assert str(raised.value) == (
        f"{latin1}: line 2 is not valid UTF-8 (invalid continuation byte); "
        "re-encode the file as UTF-8."
    )


def test_a_one_megabyte_sentence_is_kept_whole(tmp_path: Path) -> None:
    sentence = "word " * 200_000 + "_ ends it."
    path = write_rows(tmp_path / "v.jsonl", [{**GOOD, "sentence": sentence, "answer": "2"}])
    task = winogrande(data_files=str(path))
    assert prompt(task, 0) == f"{INSTRUCTION}\n\n{sentence}\n\nA) Sarah\nB) Maria"


def test_bad_row_stops_the_run_before_any_model_call(tmp_path: Path) -> None:
    path = write_rows(tmp_path / "v.jsonl", [{**GOOD, "answer": "1"}, {**GOOD, "answer": ""}])
    calls: list[str] = []

    def reply(messages: list[ChatMessage]) -> str:
        calls.append(last_user_text(messages))
        return "ANSWER: A"

    with pytest.raises(DataError) as raised:
        eval(
            winogrande(data_files=str(path)),
            model=scripted_model(reply),
            log_dir=str(tmp_path / "logs"),
            display="none",
        )
    assert calls == []
    assert str(raised.value).startswith(f"{path} (validation split), line 2: field 'answer'")
