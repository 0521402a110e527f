"""Winogrande as inspect_evals 0.28.0 asks it: prompt bytes, the demonstration draw, the reading.

tests/peers/test_inspect_evals_winogrande.py runs inspect_evals' own task against this profile
on all 1,267 validation rows; these pin what it found on the fixture rows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessage

from benchmarks.data.fewshot_draws import ShuffledHeadDraws
from benchmarks.scorers.letter_reading import parse_inspect_choice
from benchmarks.winogrande import winogrande
from tests.prompts import prompt
from tests.scripted import scripted_model

FIXTURES = Path(__file__).parents[1] / "fixtures" / "winogrande"
VALIDATION = FIXTURES / "validation.jsonl"
TRAIN = FIXTURES / "train.jsonl"
BOTH_SPLITS = {"validation": str(VALIDATION), "train": str(TRAIN)}
PROFILE = "inspect_evals_0.28.0"

# numpy.random.default_rng(42).permutation(12)[:5]: train rows 0, 7, 6, 9, 11, in that order.
SYSTEM = (
    "The following are multiple choice questions, with answers on the best logical completion "
    "to replace [BLANK] by A or B.\n\n"
    "Sentence: The game of chess was easy to play for Angela but not Rebecca because [BLANK] "
    "had a analytical mind.\nA) Angela\nB) Rebecca\nANSWER: A\n\n"
    "Sentence: Throughout the practice Rachel pushed the limits of Megan to get ready for the "
    "game because [BLANK] was the athlete.\nA) Rachel\nB) Megan\nANSWER: B\n\n"
    "Sentence: Throughout the practice Rachel pushed the limits of Megan to get ready for the "
    "game because [BLANK] was the coach.\nA) Rachel\nB) Megan\nANSWER: A\n\n"
    "Sentence: Brett was browsing the internet while he found the information unlike Randy, "
    "[BLANK] prefers using books.\nA) Brett\nB) Randy\nANSWER: B\n\n"
    "Sentence: Betty drank chocolate shakes while Elena drank carrot juice, and [BLANK] had a "
    "very healthy diet.\nA) Betty\nB) Elena\nANSWER: B\n"
)
INSTRUCTION = (
    "Answer the following multiple choice question by choosing the best logical option to "
    "replace the [BLANK]. The entire content of your response should be of the following "
    "format: 'ANSWER: $LETTER' (without quotes) where LETTER is one of A,B."
)
USER_0 = (
    INSTRUCTION + "\n\nSentence: Sarah was a much better surgeon than Maria so [BLANK] always "
    "got the easier cases.\nA) Sarah\nB) Maria\n"
)
# the last fixture row keeps its upstream double space
USER_4 = (
    INSTRUCTION + "\n\nSentence: They brought the cornhole supplies to the camp site so they "
    "could play while adults cooked dinner.  The boys really enjoyed the [BLANK] after the "
    "game.\nA) cornhole\nB) dinner\n"
)


def as_pairs(messages: str | list[ChatMessage]) -> list[tuple[str, str]]:
    assert isinstance(messages, list)
    return [(message.role, message.text) for message in messages]


def test_prompt_bytes_system_then_user() -> None:
    task = winogrande(profile=PROFILE, data_files=BOTH_SPLITS)
    assert as_pairs(prompt(task, 0)) == [("system", SYSTEM), ("user", USER_0)]
    assert as_pairs(prompt(task, 4)) == [("system", SYSTEM), ("user", USER_4)]


def test_the_same_five_demonstrations_for_every_question() -> None:
    dataset = winogrande(profile=PROFILE, data_files=BOTH_SPLITS).dataset
    assert [sample.metadata for sample in dataset] == [{"fewshot": [0, 7, 6, 9, 11]}] * 5
    # the sample holds the question as the data holds it; the prompt solver adds "Sentence:"
    assert dataset[0].input.startswith("Sarah was a much better surgeon than Maria so _ ")


def test_shuffled_head_draw_is_numpys_permutation_for_every_question() -> None:
    draws = ShuffledHeadDraws(12, 5, 42)
    assert draws.for_question(0) == [0, 7, 6, 9, 11]
    assert draws.for_question(40_000) == [0, 7, 6, 9, 11]
    # the winogrande_xl train split's 40,398 rows: the positions inspect_evals' draw reads
    assert ShuffledHeadDraws(40_398, 5, 42).for_question(3) == [17943, 11104, 22085, 38651, 10973]


@pytest.mark.parametrize("size", [5, 12, 160, 640, 2558, 9248, 10234, 40398])
def test_shuffled_head_draw_is_hugging_face_datasets_shuffle(size: int) -> None:
    import datasets

    shuffled = datasets.Dataset.from_dict({"row": list(range(size))}).shuffle(seed=42)
    assert ShuffledHeadDraws(size, 5, 42).for_question(0) == shuffled["row"][:5]


def test_profile_switches_and_generation_settings() -> None:
    task = winogrande(profile=PROFILE, data_files=BOTH_SPLITS)
    assert task.config.max_tokens == 64
    assert task.config.temperature is None
    assert task.metadata is not None
    switches = {key: task.metadata[key] for key in ("shots", "fewshot_seed", "answer_parse")}
    assert switches == {"shots": 5, "fewshot_seed": 42, "answer_parse": "inspect_choice"}
    assert (task.metadata["prompt_format"], task.metadata["fewshot_draw"]) == (
        "inspect_evals",
        "hf_shuffle",
    )


def test_zero_shots_sends_no_system_message() -> None:
    # inspect_evals' fewshot=0 adds no system_message() step
    task = winogrande(profile=PROFILE, shots=0, data_files=str(VALIDATION))
    assert prompt(task, 0) == USER_0


def test_braces_in_a_demonstration_are_read_as_inspects_system_message_reads_them(
    tmp_path: Path,
) -> None:
    # inspect_evals formats its system text, then Inspect's system_message() formats it again
    rows = [
        {"sentence": "A {{b}} and {c} _ here.", "option1": "x", "option2": "y", "answer": "1"}
    ] * 5
    train = tmp_path / "train.jsonl"
    train.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    task = winogrande(
        profile=PROFILE, data_files={"validation": str(VALIDATION), "train": str(train)}
    )
    system = as_pairs(prompt(task, 0))[0][1]
    assert "Sentence: A {b} and {c} [BLANK] here.\nA) x\nB) y\nANSWER: A" in system


@pytest.mark.parametrize(
    ("reply", "letter"),
    [
        ("ANSWER: B", "B"),
        ("answer: b", "B"),
        ("ANSWER: $B$", "B"),
        ("ANSWER: **B**", "B"),
        ("ANSWER: (A).", "A"),
        ("ANSWER: A\nANSWER: B", "B"),
        ("ANSWER: B,", "B"),
        ("ANSWER: [B]", None),
        ("ANSWER: A, B", None),
        ("ANSWER: Because B fits", None),
        ("I think ANSWER: A is right", None),
        ("The answer is B", None),
        ("B", None),
        ("ANSWER: C", None),
        ("", None),
    ],
)
def test_inspect_choice_reading(reply: str, letter: str | None) -> None:
    parsed = parse_inspect_choice(reply, ["A", "B"])
    assert parsed == (letter, "inspect_choice" if letter else "none")


def test_scores_explain_the_reading(tmp_path: Path) -> None:
    # the first three fixture questions (targets B, A, B): right, unread, wrong
    def reply(messages: list[ChatMessage]) -> str:
        question = messages[-1].text
        if "easier cases" in question:
            return "ANSWER: B"
        return "ANSWER: [A]" if "harder cases" in question else "ANSWER: A"

    [log] = eval(
        winogrande(profile=PROFILE, data_files=BOTH_SPLITS),
        model=scripted_model(reply),
        limit=3,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.samples is not None
    explained: list[tuple[Any, ...]] = []
    for sample in log.samples:
        assert sample.scores is not None
        score = sample.scores["option_letter_scorer"]
        explained.append((score.value, score.explanation, score.metadata))
    assert explained == [
        ("C", "read B (rule inspect_choice); target B", {"rule": "inspect_choice"}),
        ("I", "no answer parsed; target A", {"rule": "none"}),
        ("I", "read A (rule inspect_choice); target B", {"rule": "inspect_choice"}),
    ]
