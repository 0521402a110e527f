"""TriviaQA: prompts, few-shot draws, extraction, normalization, scoring and errors."""

from __future__ import annotations

import json
import math
import os
import random
import string
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessage
from inspect_ai.scorer import SampleScore, Score

from benchmarks.runtime.errors import DataError
from benchmarks.scorers.answer_matching import (
    extract_short_answer,
    lm_eval_exact_match,
    max_token_f1,
    normalize_answer,
)
from benchmarks.scorers.triviaqa import triviaqa_metrics
from benchmarks.triviaqa import triviaqa
from tests.completions_server import Tokenizer
from tests.loopback_server import LoopbackServer
from tests.prompts import prompt, prompts_of
from tests.scripted import replies_by_prompt

FIXTURES = Path(__file__).parents[1] / "fixtures" / "triviaqa"
JSONL = {"validation": str(FIXTURES / "validation.jsonl"), "train": str(FIXTURES / "train.jsonl")}
PARQUET = {
    "validation": str(FIXTURES / "validation.parquet"),
    "train": str(FIXTURES / "train.parquet"),
}

QUESTION_0 = (
    "Question: Which Lloyd Webber musical premiered in the US on 10th December 1993?\nAnswer:"
)

PROMPT_0_SHOTS_5 = (
    "Question: In the Shakespeare play ‘The Tempest’, Prospero is the overthrown Duke of "
    "‘where’?\nAnswer: Milan\n\n"
    "Question: What type of animal is a dik-dik?\nAnswer: Antelope\n\n"
    "Question: Where in England was Dame Judi Dench born?\nAnswer: York\n\n"
    "Question: Who captained the England rugby union team 59 times between 1988 and 1996?"
    "\nAnswer: Will Carling\n\n"
    'Question: "What type of clothing is a ""sou-wester""?"\nAnswer: Hat\n\n' + QUESTION_0
)


def test_prompt_zero_shot_is_the_question_alone() -> None:
    task = triviaqa(shots=0, data_files=JSONL)
    assert prompt(task, 0) == QUESTION_0


def test_prompt_one_shot() -> None:
    task = triviaqa(shots=1, data_files=JSONL)
    assert prompt(task, 0) == (
        "Question: In the Shakespeare play ‘The Tempest’, Prospero is the overthrown Duke of "
        "‘where’?\nAnswer: Milan\n\n" + QUESTION_0
    )


def test_prompt_five_shots() -> None:
    task = triviaqa(data_files=JSONL)
    assert prompt(task, 0) == PROMPT_0_SHOTS_5


def test_parquet_and_jsonl_give_identical_samples() -> None:
    from_jsonl = triviaqa(data_files=JSONL).dataset
    from_parquet = triviaqa(data_files=PARQUET).dataset
    assert len(from_jsonl) == len(from_parquet) == 5
    for a, b in zip(from_jsonl, from_parquet, strict=True):
        assert (a.id, a.input, a.target, a.metadata) == (b.id, b.input, b.target, b.metadata)
    assert prompts_of(triviaqa(data_files=JSONL)) == prompts_of(triviaqa(data_files=PARQUET))


def test_default_draw_is_one_sample_of_shots_per_question() -> None:
    """One Random(seed) walks the questions in order: rng.sample(train_docs, shots) each."""
    train = [json.loads(line) for line in open(JSONL["train"], encoding="utf-8")]
    validation = [json.loads(line) for line in open(JSONL["validation"], encoding="utf-8")]
    rng = random.Random(1234)
    expected = []
    for doc in validation:
        demos = rng.sample(train, 5)
        blocks = [f"Question: {d['question']}\nAnswer: {d['answer']['value']}" for d in demos]
        expected.append("\n\n".join([*blocks, f"Question: {doc['question']}\nAnswer:"]))
    task = triviaqa(data_files=JSONL)
    # Build out of order: each question's draw depends on its position only.
    assert [prompt(task, i) for i in (4, 2, 0, 3, 1)] == [expected[i] for i in (4, 2, 0, 3, 1)]


def test_fewshot_seed_changes_the_draw() -> None:
    assert prompt(triviaqa(data_files=JSONL, fewshot_seed=7), 0) != PROMPT_0_SHOTS_5


@pytest.mark.slow
def test_prompts_identical_across_processes_and_hash_seeds() -> None:
    script = (
        "import json\n"
        "from benchmarks.solvers.prompt_preview import prompt_text\n"
        "from benchmarks.triviaqa import triviaqa\n"
        f"t = triviaqa(data_files={JSONL!r})\n"
        "print(json.dumps([[s.id, prompt_text(t, s)] for s in t.dataset]))\n"
    )
    outputs = []
    for seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        outputs.append(done.stdout.strip().splitlines()[-1])
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])[0] == ["tc_33", PROMPT_0_SHOTS_5]


def test_zero_shots_never_opens_the_fewshot_file(tmp_path: Path) -> None:
    files = {"validation": JSONL["validation"], "train": str(tmp_path / "absent.jsonl")}
    task = triviaqa(shots=0, data_files=files)
    assert prompt(task, 0) == QUESTION_0


def test_sample_id_target_and_metadata() -> None:
    sample = triviaqa(shots=0, data_files=JSONL).dataset[0]
    assert sample.id == "tc_33"
    assert sample.target == [
        "Sunset Blvd",
        "West Sunset Boulevard",
        "Sunset Boulevard",
        "Sunset Bulevard",
        "Sunset Blvd.",
    ]
    assert sample.metadata == {
        "normalized_aliases": [
            "sunset boulevard",
            "sunset bulevard",
            "west sunset boulevard",
            "sunset blvd",
        ],
        "answer_type": "WikipediaEntity",
    }


def test_num_examples_caps_the_rows_loaded() -> None:
    assert len(triviaqa(data_files=JSONL, num_examples=3).dataset) == 3


@pytest.mark.parametrize(
    ("reply", "stop_sequences", "first_line", "lm_eval"),
    [
        ("Paris", "Paris", "Paris", "Paris"),
        ("  Paris  ", "Paris", "Paris", "Paris"),
        ("\tParis \u3000", "Paris", "Paris", "Paris"),
        (" Paris", "Paris", "Paris", "Paris"),
        ("\nParis\nMore text", "Paris", "Paris", ""),
        ("U.S.", "U", "U.S.", "U"),
        ("1,000", "1", "1,000", "1"),
        ("St. Louis, Missouri.", "St", "St. Louis, Missouri.", "St"),
        ("", "", "", ""),
        ("   \n  ", "", "", ""),
        (
            "Zürich is the answer.",
            "Zürich is the answer",
            "Zürich is the answer.",
            "Zürich is the answer",
        ),
    ],
)
def test_answer_extraction(reply: str, stop_sequences: str, first_line: str, lm_eval: str) -> None:
    assert extract_short_answer(reply, "stop_sequences") == stop_sequences
    assert extract_short_answer(reply, "first_line") == first_line
    assert extract_short_answer(reply, "lm_eval") == lm_eval


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("The Beatles", "beatles"),
        ("Theatre of the absurd", "theatre of absurd"),  # "the" inside a word stays
        ("An Anthem, a Banana", "anthem banana"),
        ("‘Rock’ ´n´ `roll`", "rock n roll"),
        ("Sunset_Boulevard", "sunset boulevard"),
        ("U.S.A.", "u s"),  # "a" left alone after the dots is an article
        ("  many   spaces\there ", "many spaces here"),
        ("Ærø Straße", "ærø straße"),
        ("“Curly double”", "“curly double”"),  # not in the official punctuation set
        ("$85,000", "85 000"),
        ("", ""),
    ],
)
def test_official_normalization(text: str, normalized: str) -> None:
    assert normalize_answer(text) == normalized


def test_token_f1_is_the_official_formula() -> None:
    assert token_f1("Calvin Ripken", "Calvin Ripken, Jr.") == pytest.approx(0.8)
    assert token_f1("the", "the") == 0.0  # both normalize to nothing
    assert token_f1("York", "york") == 1.0


REPLIES = {
    "Lloyd Webber": " Sunset Blvd.\nmore",
    "Pearl Pickler": "onions, probably",
    "Lou Gehrig": "Calvin Ripken, Jr.",
    "World Series": "The N.Y. Yankees",
    "Boston Marathon": "\nI don't know",
}


def scripted_reply(prompt: str) -> str:
    last_question = prompt.rsplit("Question: ", 1)[-1]
    return next(reply for key, reply in REPLIES.items() if key in last_question)


def run(tmp_path: Path, **params: object) -> dict[str, float]:
    [log] = eval(
        triviaqa(data_files=JSONL, **params),  # type: ignore[arg-type]
        model=replies_by_prompt(scripted_reply),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.results is not None
    return {
        f"{score.name}/{name}": metric.value
        for score in log.results.scores
        for name, metric in score.metrics.items()
    }


def test_end_to_end_reference_scoring(tmp_path: Path) -> None:
    metrics = run(tmp_path)
    assert metrics["triviaqa_scorer/exact_match"] == pytest.approx(0.4)
    assert metrics["triviaqa_scorer/exact_match_stderr"] == pytest.approx(math.sqrt(0.3 / 5))
    assert metrics["triviaqa_scorer/f1"] == pytest.approx((1 + 1 + 0.8 + 0.5 + 0) / 5)


def test_metrics_are_inspects_statistics_of_each_value_key() -> None:
    values = [(1.0, 1.0), (0.0, 0.5), (0.0, 0.0), (1.0, 1.0)]
    scores = [
        SampleScore(score=Score(value={"exact_match": em, "f1": f1}), sample_id=i)
        for i, (em, f1) in enumerate(values)
    ]
    assert triviaqa_metrics()(scores) == {
        "exact_match": 0.5,
        "exact_match_stderr": pytest.approx(np.std([1, 0, 0, 1], ddof=1) / 2, rel=1e-15),
        "f1": 0.625,
    }
    scalar = [SampleScore(score=Score(value=1.0), sample_id=0)]
    with pytest.raises(ValueError) as raised:
        triviaqa_metrics()(scalar)
    assert str(raised.value) == (
        "TriviaQA metrics need triviaqa_scorer's value dict with 'exact_match', got 1.0"
    )


def test_end_to_end_first_line_extraction(tmp_path: Path) -> None:
    metrics = run(tmp_path, answer_extraction="first_line")
    assert metrics["triviaqa_scorer/exact_match"] == pytest.approx(0.6)
    assert metrics["triviaqa_scorer/f1"] == pytest.approx((1 + 2 / 3 + 1 + 1 + 0) / 5)


def test_lm_eval_harness_prompt_format() -> None:
    task = triviaqa(shots=1, prompt_format="lm_eval", data_files=JSONL)
    # "?" appended even after a "?"; the demonstration answers with the first alias.
    assert prompt(task, 0) == (
        "Question: In the Shakespeare play ‘The Tempest’, Prospero is the overthrown Duke of "
        "‘where’??\nAnswer: The weather in Milan\n\n"
        "Question: Which Lloyd Webber musical premiered in the US on 10th December 1993??\nAnswer:"
    )


LM_EVAL_ROWS = {
    "train": str(FIXTURES / "lm_eval_train.jsonl"),
    "validation": str(FIXTURES / "lm_eval_validation.jsonl"),
}
# Validation positions whose rows the fixture also holds in train (see its README).
COPY_DRAWN_IN_FIRST_FIVE = (1, 4, 9, 30)
COPY_DRAWN_SIXTH = 12
TWO_COPIES_DRAWN = 20
NEAR_COPY_DRAWN = 40


def read_rows(path: str) -> list[dict]:
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def lm_eval_demonstrations(count: int) -> list[list[dict]]:
    """lm-evaluation-harness 0.4.13's draw, restated: one Random(1234) walking the
    questions; 6 rows drawn, rows equal to the question's removed, the first 5 kept;
    fewer than 5 left: 5 drawn again from the rows unequal to it."""
    train, validation = read_rows(LM_EVAL_ROWS["train"]), read_rows(LM_EVAL_ROWS["validation"])
    rng = random.Random(1234)
    draws = []
    for doc in validation[:count]:
        kept = [row for row in rng.sample(train, 6) if row != doc][:5]
        if len(kept) < 5:
            kept = rng.sample([row for row in train if row != doc], 5)
        draws.append(kept)
    return draws


def lm_eval_question(row: dict) -> str:
    return f"Question: {row['question']}?\nAnswer:"


def roles_and_texts(messages: str | list[ChatMessage]) -> list[tuple[str, str]]:
    assert isinstance(messages, list)
    return [(message.role, message.text) for message in messages]


def test_lm_eval_draw_and_chat_layout() -> None:
    count = NEAR_COPY_DRAWN + 1
    validation = read_rows(LM_EVAL_ROWS["validation"])
    task = triviaqa(
        dataset_config="rc.nocontext",
        prompt_format="lm_eval",
        fewshot_as_multiturn=True,
        data_files=LM_EVAL_ROWS,
        num_examples=count,
    )
    for position, demonstrations in enumerate(lm_eval_demonstrations(count)):
        expected = []
        for row in demonstrations:
            expected += [
                ("user", lm_eval_question(row)),
                ("assistant", row["answer"]["aliases"][0]),
            ]
        expected.append(("user", lm_eval_question(validation[position])))
        assert roles_and_texts(prompt(task, position)) == expected, position


def test_lm_eval_draw_in_one_user_message() -> None:
    count = NEAR_COPY_DRAWN + 1
    validation = read_rows(LM_EVAL_ROWS["validation"])
    task = triviaqa(prompt_format="lm_eval", data_files=LM_EVAL_ROWS, num_examples=count)
    for position, demonstrations in enumerate(lm_eval_demonstrations(count)):
        blocks = [
            f"{lm_eval_question(row)} {row['answer']['aliases'][0]}" for row in demonstrations
        ]
        expected = "\n\n".join([*blocks, lm_eval_question(validation[position])])
        assert prompt(task, position) == expected, position


def test_lm_eval_draw_first_question_exactly() -> None:
    """Question 0 of the fixture, byte for byte (the first 5 of Random(1234).sample(train, 6))."""
    messages = prompt(
        triviaqa(prompt_format="lm_eval", fewshot_as_multiturn=True, data_files=LM_EVAL_ROWS),
        0,
    )
    assert roles_and_texts(messages) == [
        (
            "user",
            "Question: In which country are the 2019 Rugby Union World Cup finals to be "
            "held??\nAnswer:",
        ),
        ("assistant", "日本國"),
        ("user", "Question: Which competition was won by Nadiya Hussain in 2015??\nAnswer:"),
        ("assistant", "Edd Kimber"),
        (
            "user",
            "Question: Which disastrous amphibious landing in 1942 used British troops, "
            "Canadian troops and US Rangers??\nAnswer:",
        ),
        ("assistant", "Dieppe, France"),
        (
            "user",
            "Question: Canaletto is famous for his landscapes of Venice and which other "
            "city??\nAnswer:",
        ),
        ("assistant", "London (UK)"),
        (
            "user",
            "Question: Which coral atoll, the largest island in the Chagos Archipelago, was "
            "forcibly depopulated in 1971 to make way for a joint UK/USA military base??\nAnswer:",
        ),
        ("assistant", "Deigo garcia"),
        (
            "user",
            "Question: Some Americans claim to have seen a Sasquatch; by what name is it "
            "better known ??\nAnswer:",
        ),
    ]


def test_the_fixture_exercises_the_removal_of_the_evaluated_question() -> None:
    train, validation = read_rows(LM_EVAL_ROWS["train"]), read_rows(LM_EVAL_ROWS["validation"])
    rng = random.Random(1234)
    removed, redrawn, near_copies_kept = [], [], []
    for position, doc in enumerate(validation):
        drawn = rng.sample(train, 6)
        kept = [row for row in drawn if row != doc][:5]
        if doc in drawn:
            removed.append(position)
        if len(kept) < 5:
            redrawn.append(position)
            kept = rng.sample([row for row in train if row != doc], 5)
        if any(row["question_id"] == doc["question_id"] for row in kept):
            near_copies_kept.append(position)
    assert removed == sorted([*COPY_DRAWN_IN_FIRST_FIVE, COPY_DRAWN_SIXTH, TWO_COPIES_DRAWN])
    assert redrawn == [TWO_COPIES_DRAWN]
    assert near_copies_kept == [NEAR_COPY_DRAWN]


def test_lm_eval_draw_needs_one_row_more_than_shots() -> None:
    with pytest.raises(DataError) as raised:
        triviaqa(shots=10, prompt_format="lm_eval", data_files=JSONL)
    assert str(raised.value) == (
        f"triviaqa: {JSONL['train']} (train split) has 10 rows; lm-evaluation-harness's "
        "draw takes shots + 1 = 11 of them."
    )


def test_default_profile_as_chat_turns() -> None:
    task = triviaqa(shots=2, fewshot_as_multiturn=True, data_files=JSONL)
    assert roles_and_texts(prompt(task, 0)) == [
        (
            "user",
            "Question: In the Shakespeare play ‘The Tempest’, Prospero is the overthrown "
            "Duke of ‘where’?\nAnswer:",
        ),
        ("assistant", "Milan"),
        ("user", "Question: What type of animal is a dik-dik?\nAnswer:"),
        ("assistant", "Antelope"),
        ("user", QUESTION_0),
    ]


def test_end_to_end_lm_eval_harness_rules(tmp_path: Path) -> None:
    metrics = run(
        tmp_path,
        prompt_format="lm_eval",
        answer_extraction="lm_eval",
        metric="lm_eval_exact_match",
    )
    # Sunset Blvd and onions match; "Calvin Ripken" matches no alias once
    # lowercased with punctuation deleted; "The N" and "" (leading newline) miss.
    assert metrics["triviaqa_scorer/exact_match"] == pytest.approx(0.4)


def lm_eval_verdict(prediction: str, references: list[str]) -> bool:
    """lm-evaluation-harness 0.4.13's exact_match restated: numpy arrays, lower, delete."""
    table = str.maketrans("", "", string.punctuation)
    predictions = np.char.translate(
        np.char.lower(np.asarray([prediction] * len(references))), table
    )
    targets = np.char.translate(np.char.lower(np.asarray(references)), table)
    return bool(np.mean(predictions == targets) > 0.0)


ISTANBUL = ["Istanbul", "İstanbul", "Historic Areas of İstanbul"]


@pytest.mark.parametrize(
    ("prediction", "references", "matched"),
    [
        ("the ny yankees", ["NYY", "The N.Y. Yankees"], "The N.Y. Yankees"),  # deleted
        ("the n y yankees", ["The N.Y. Yankees"], None),  # not replaced by a space
        ("rock n roll", ["Rock ‘n’ Roll"], None),  # curly quotes are not ASCII punctuation
        ("an apple", ["Apple"], None),  # articles stay
        ("İstanbul", ["İstanbul"], "İstanbul"),  # both cut to the same width
        ("İstanbul", ISTANBUL, None),  # the reply alone is cut short: i̇stanbu
        ("i\u0307stanbul", ISTANBUL, "İstanbul"),  # already lowercase: nothing to cut
        ("STRASSE", ["Straße"], None),
        ("", ["Paris"], None),
    ],
)
def test_lm_eval_exact_match(prediction: str, references: list[str], matched: str | None) -> None:
    assert lm_eval_exact_match(prediction, references) == matched
    assert lm_eval_verdict(prediction, references) == (matched is not None)


@pytest.mark.parametrize(
    ("reply", "aliases", "default_hit", "lm_eval_hit"),
    [
        # articles: the official normalization removes them, lm-eval keeps them
        ("The Beatles", ["Beatles"], True, False),
        # hyphens and curly quotes: a space for the official rule; lm-eval deletes ASCII
        # punctuation only, and without a space
        ("Saint-Tropez", ["Saint Tropez"], True, False),
        ("rock n roll", ["Rock ‘n’ Roll"], True, False),
        # dots: the official rule spaces them out and then drops the article "a"
        ("USA", ["U.S.A."], False, True),
        # a server ignoring stop: the default strips before cutting, lm-eval after
        ("\nParis", ["Paris"], True, False),
        # numpy's fixed-width lowercase (lm-eval) cuts "i̇stanbul" to "i̇stanbu"
        ("İstanbul", ISTANBUL, True, False),
        # agreement, for contrast
        (" Sunset Blvd.\nmore", ["Sunset Blvd."], True, True),
    ],
)
def test_default_profile_differs_from_lm_eval_on_purpose(
    reply: str, aliases: list[str], default_hit: bool, lm_eval_hit: bool
) -> None:
    """Intended differences of the default scoring from lm-evaluation-harness 0.4.13's."""
    normalized_aliases = [normalize_answer(alias) for alias in aliases]
    default = extract_short_answer(reply, "stop_sequences")
    assert (normalize_answer(default) in normalized_aliases) == default_hit
    lm_eval = extract_short_answer(reply, "lm_eval")
    assert lm_eval_verdict(lm_eval, aliases) == lm_eval_hit
    assert (lm_eval_exact_match(lm_eval, aliases) is not None) == lm_eval_hit


def test_end_to_end_case_sensitive_alias_match(tmp_path: Path) -> None:
    metrics = run(tmp_path, metric="alias_exact_match")
    assert metrics["triviaqa_scorer/exact_match"] == pytest.approx(0.2)


def test_scores_record_extracted_normalized_and_matched(tmp_path: Path) -> None:
    [log] = eval(
        triviaqa(data_files=JSONL),
        model=replies_by_prompt(scripted_reply),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.samples is not None
    by_id = {sample.id: sample.scores["triviaqa_scorer"] for sample in log.samples}  # type: ignore[index]
    hit = by_id["tc_33"]
    assert hit.answer == "Sunset Blvd"
    assert hit.metadata is None  # the explanation says it all
    assert hit.explanation == "normalized answer: 'sunset blvd'; matched alias 'sunset blvd'"
    miss = by_id["sm_sub_0134"]
    assert miss.answer == "The N"
    assert miss.explanation == "normalized answer: 'n'; no alias matched"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"shots": -1},
            "triviaqa: shots must be a non-negative integer or null (the profile's), got -1.",
        ),
        (
            {"metric": "f1"},
            "triviaqa: unknown metric 'f1'; choose one of normalized_alias_exact_match, "
            "alias_exact_match, lm_eval_exact_match.",
        ),
        ({"dataset_config": "rc.wiki"}, "triviaqa: unknown dataset_config 'rc.wiki'"),
        (
            {"eval_split": "test"},
            "triviaqa: the test split has no answers (they are withheld); "
            "use eval_split='validation'.",
        ),
        (
            {"fewshot_split": "validation"},
            "triviaqa: fewshot_split and eval_split are both 'validation'",
        ),
        (
            {"num_examples": 0},
            "triviaqa: num_examples must be a positive integer or null (all rows)",
        ),
        ({"answer_extraction": "all"}, "triviaqa: unknown answer_extraction 'all'"),
        (
            {"fewshot_as_multiturn": "yes"},
            "triviaqa: fewshot_as_multiturn must be true, false or null (the profile's), "
            "got 'yes'.",
        ),
        (
            {"prompt_format": "helm"},
            "triviaqa: unknown prompt_format 'helm'; choose one of canonical, lm_eval.",
        ),
        (
            {"shots": True},
            "triviaqa: shots must be a non-negative integer or null (the profile's), got True.",
        ),
        (
            {"prompt_format": "lm_eval_harness"},
            "triviaqa: prompt_format 'lm_eval_harness' was renamed 'lm_eval'.",
        ),
        (
            {"prompt_format": "default"},
            "triviaqa: prompt_format 'default' was renamed 'canonical'.",
        ),
        (
            {"profile": "lm_eval"},
            "triviaqa: unknown profile 'lm_eval'; choose one of default, lm_eval_0.4.13, "
            "lm_eval_0.4.13_completions, lm_eval_0.4.13_completions_token_ids.",
        ),
        (
            {"fewshot_split": "test"},
            "triviaqa: the test split has no answers to demonstrate with; "
            "use fewshot_split='train'.",
        ),
        (
            {"evidence_max_chars": True},
            "triviaqa: evidence_max_chars must be a positive integer, got True.",
        ),
    ],
)
def test_bad_parameters_are_rejected(params: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        triviaqa(data_files=JSONL, **params)  # type: ignore[arg-type]
    assert str(raised.value).startswith(message)


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> str:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return str(path)


def fixture_rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in open(JSONL["validation"], encoding="utf-8")]


def test_a_bad_row_names_file_row_and_field(tmp_path: Path) -> None:
    rows = fixture_rows()
    rows[2]["answer"]["aliases"] = []  # type: ignore[index]
    path = write_jsonl(tmp_path / "bad.jsonl", rows)
    # the rows before it are unaffected: with num_examples it is never built
    assert triviaqa(shots=0, data_files=path, num_examples=2).dataset[1].id == "sm_sub_0000"
    with pytest.raises(DataError) as raised:
        triviaqa(shots=0, data_files=path)
    assert str(raised.value) == (
        f"{path} (validation split), line 3: field 'answer.aliases' is empty"
    )


def test_a_missing_column_names_the_file(tmp_path: Path) -> None:
    rows = fixture_rows()
    for row in rows:
        del row["question_id"]
    path = write_jsonl(tmp_path / "renamed.jsonl", rows)
    with pytest.raises(DataError) as raised:
        triviaqa(shots=0, data_files=path)
    assert str(raised.value).startswith(
        f"{path} (validation split): missing column(s) 'question_id'; found "
    )


def test_a_single_file_is_not_reused_as_the_fewshot_split() -> None:
    with pytest.raises(DataError) as raised:
        triviaqa(data_files=JSONL["validation"])
    assert str(raised.value) == (
        f"TriviaQA: the single data file {JSONL['validation']!r} is taken as the "
        "'validation' split; the 'train' split needs its own file: pass "
        "data_files={'validation': ..., 'train': ...}."
    )


@pytest.mark.slow
def test_offline_without_data_fails_with_one_clear_message(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "HF_HOME": str(tmp_path / "hf"),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
    }
    script = (
        "from benchmarks.triviaqa import triviaqa\n"
        "from benchmarks.runtime.errors import DataUnavailableError\n"
        "try:\n"
        "    triviaqa()\n"
        "except DataUnavailableError as ex:\n"
        "    print('MESSAGE', ex)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    message = done.stdout.split("MESSAGE ", 1)[1]
    assert message.startswith(
        "Could not load the TriviaQA dataset 'mandarjoshi/trivia_qa' "
        "(config 'rc.wikipedia.nocontext'), split 'validation': "
    )
    assert message.rstrip().endswith(
        "To run without the Hub:\n"
        "- warm the Hugging Face cache on a connected machine, then set HF_HUB_OFFLINE=1 "
        "and HF_DATASETS_OFFLINE=1;\n"
        "- or pass dataset_path=<folder holding a downloaded snapshot of the dataset "
        "repository>;\n"
        "- or pass data_files=<file, or {split: file}> (.jsonl, .json, .parquet or .csv in the "
        "upstream schema);\n"
        "- or try the task on the few rows shipped with the package: bundled_sample=true."
    )
    assert "Traceback" not in done.stderr


EVIDENCE = {
    "validation": str(FIXTURES / "evidence_validation.jsonl"),
    "train": str(FIXTURES / "evidence_train.jsonl"),
}


def test_evidence_precedes_every_demonstration_and_the_question() -> None:
    task = triviaqa(shots=1, include_evidence=True, evidence_max_chars=60, data_files=EVIDENCE)
    assert prompt(task, 0) == (
        "Evidence: Evidence text number 7 for training.\n"
        "Question: In the Shakespeare play ‘The Tempest’, Prospero is the overthrown Duke of "
        "‘where’?\nAnswer: Milan\n\n"
        # documents joined by a newline, then cut at evidence_max_chars
        "Evidence: Sunset Boulevard is a musical by Andrew Lloyd Webber.\nIt ope\n" + QUESTION_0
    )


def test_a_question_without_evidence_documents_has_no_evidence_line() -> None:
    task = triviaqa(shots=0, include_evidence=True, data_files=EVIDENCE)
    assert task.metadata is not None and task.metadata["dataset_config"] == "rc.wikipedia"
    assert prompt(task, 2) == (
        "Question: Who broke Lou Gehrig's record by playing in his 2131st consecutive "
        "professional baseball game on September 6, 1995?\nAnswer:"
    )


def test_evidence_needs_the_evidence_columns(tmp_path: Path) -> None:
    rows = fixture_rows()
    for row in rows:
        del row["entity_pages"], row["search_results"]
    path = write_jsonl(tmp_path / "bare.jsonl", rows)
    with pytest.raises(DataError) as raised:
        triviaqa(shots=0, include_evidence=True, data_files=path)
    assert str(raised.value).startswith(
        f"{path} (validation split): missing column(s) 'entity_pages', 'search_results'"
    )


def test_a_downloaded_snapshot_folder_loads_offline() -> None:
    task = triviaqa(shots=1, dataset_path=str(FIXTURES / "snapshot"))
    assert len(task.dataset) == 5
    assert prompt(task, 0) == prompt(triviaqa(shots=1, data_files=PARQUET), 0)


@pytest.mark.slow
def test_the_inspect_command_prints_the_offline_message_without_a_traceback(
    tmp_path: Path,
) -> None:
    env = {
        **os.environ,
        "HF_HOME": str(tmp_path / "hf"),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
    }
    env.pop("INSPECT_DISPLAY", None)  # the tests' "none" display prints nothing at all
    inspect = Path(sys.executable).with_name("inspect")
    done = subprocess.run(
        [str(inspect), "eval", "benchmarks/triviaqa", "--model", "mockllm/model"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = " ".join((done.stdout + done.stderr).split())  # undo the console's wrapping
    assert "Could not load the TriviaQA dataset 'mandarjoshi/trivia_qa'" in output
    assert "pass data_files=<file, or {split: file}>" in output
    assert "Traceback" not in output
    assert done.returncode != 0


def token_f1(prediction: str, truth: str) -> float:
    """The official F1 of one prediction against one answer."""
    return max_token_f1(prediction, [truth])


def test_the_completions_profile_sends_one_prompt_and_the_chat_layout_is_refused_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOOPBACK_API_KEY", "loopback")
    with LoopbackServer(lambda request: "Paris") as server:
        monkeypatch.setenv("LOOPBACK_BASE_URL", server.base_url)
        args = {"bundled_sample": True, "num_examples": 1}
        logs = [
            eval(
                triviaqa(profile=profile, **args),
                model="openai-api-completions/loopback/scripted",
                model_base_url=server.base_url,
                log_dir=str(tmp_path / profile),
                display="none",
                max_retries=1,
            )[0]
            for profile in ("lm_eval_0.4.13_completions", "lm_eval_0.4.13")
        ]
        sent = list(server.requests)
    completions, chat = logs
    assert completions.status == "success"
    assert len(sent) == 1 and sent[0]["prompt"].count("\nAnswer:") == 6  # 5 shots, then it
    assert chat.status == "error" and chat.error is not None
    assert chat.error.message == (
        "ValueError('fewshot_prompt: openai-api-completions/loopback/scripted sends one prompt to "
        "/v1/completions, and demonstrations as chat turns need a chat model: pass "
        "-T fewshot_as_multiturn=false (for TriviaQA, -T "
        "profile=lm_eval_0.4.13_completions), or use a chat provider.')"
    )


def test_token_ids_are_the_servers_left_truncated_with_the_end_of_text_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOOPBACK_API_KEY", "loopback")
    with LoopbackServer(lambda request: "Paris", tokenizer=True) as server:
        monkeypatch.setenv("LOOPBACK_BASE_URL", server.base_url)
        [log] = eval(
            triviaqa(profile="lm_eval_0.4.13_completions_token_ids", bundled_sample=True),
            model="openai-api-completions/loopback/scripted",
            model_base_url=server.base_url,
            log_dir=str(tmp_path),
            display="none",
            max_retries=1,
            max_tokens=2040,  # CONTEXT_LENGTH 2048 less these: the prompt keeps its last 8 tokens
            limit=2,
        )
        sent, tokenized = list(server.requests), list(server.tokenizer_requests)
    assert log.status == "success" and log.samples is not None
    texts = [body["prompt"] for path, body in tokenized if path == "/tokenize"]
    assert {body["add_special_tokens"] for path, body in tokenized if path == "/tokenize"} == {
        False
    }
    # the prompt text shown in the viewer is the text tokenized
    shown = [[m.text for m in sample.messages if m.role == "user"][0] for sample in log.samples]
    assert sorted(texts) == sorted(shown) and all(t.count("\nAnswer:") == 6 for t in texts)
    tokenizer = Tokenizer()
    expected = sorted(tokenizer.encode(text)[-8:] for text in texts)
    assert sorted(body["prompt"] for body in sent) == expected
    assert {tuple(body["stop"]) for body in sent} == {("\n", ".", ",", "<|endoftext|>")}
    assert {body["max_tokens"] for body in sent} == {2040}
