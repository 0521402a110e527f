"""SimpleQA: data loading, the official grader prompt, grade parsing, metrics and errors."""

from __future__ import annotations

import hashlib
import logging
import random
import shutil
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, GenerateConfig
from inspect_ai.scorer import SampleScore, Score, stderr

import benchmarks.data.simpleqa as simpleqa_data
import benchmarks.scorers.judge as judge_module
from benchmarks.data.simpleqa import record_to_sample
from benchmarks.runtime.errors import DataError, DataUnavailableError
from benchmarks.scorers.judge_prompt import (
    GRADER_TEMPLATE,
    parse_grade_official,
    parse_grade_strict,
)
from benchmarks.scorers.simpleqa import (
    GRADE_VALUE_KEYS,
    RATIOS,
    grade_statistics,
    ratio_stderr,
)
from benchmarks.simpleqa import simpleqa
from tests.scripted import last_user_text, scripted_model

FIXTURES = Path(__file__).parents[1] / "fixtures" / "simpleqa"
CSV = FIXTURES / "simple_qa_test_set.sample.csv"
JSONL = FIXTURES / "simple_qa_test_set.sample.jsonl"
TEMPLATE_FILE = (
    Path(judge_module.__file__).parent / "judge_templates" / "simpleqa_grader_template.txt"
)
OFFICIAL_TEMPLATE_SHA256 = "063c04ea798f91c4706c050b66a721afc77a458b12d8f0d72286d4b0eee8a3ee"
OFFICIAL_CSV_SHA256 = "feee3f7e7db3617e94e8fcf1977b756ec420ef8568f4e0fcbbe0e92e9d5fc032"

# The fixture's questions in order, their topics, and scripted judge replies.
QUESTIONS = [
    "Who received the IEEE Frank Rosenblatt Award in 2010?",
    "Who was awarded the Oceanography Society's Jerlov Award in 2018?",
    "What's the name of the women's liberal arts college in Cambridge, Massachusetts?",
    "In whose honor was the Leipzig 1877 tournament organized?",
    "How much money, in euros, was the surgeon held responsible for Stella Obasanjo's "
    "death ordered to pay her son?",
    'What were the month and year when Obama told Christianity Today, "I am a Christian, '
    "and I am a devout Christian. I believe in the redemptive death and resurrection of "
    'Jesus Christ"?',
    "Who appointed the Chief Justice of India, Mirza Hameedullah Beg, in 1977?",
    "What is the name of the former Prime Minister of Iceland who worked as a cabin crew "
    "member until 1971?",
    "How many fouls did Inter commit in the Champions League final match between Bayern "
    "and Inter on May 23, 2010?",
    "What position was John Gilbert Layton appointed to in Quebec from 1969 until 1970?",
]
TOPICS = [
    "Science and technology",
    "Science and technology",
    "Geography",
    "Sports",
    "Politics",
    "unknown",  # fixture row 5: metadata cut short on purpose
    "Politics",
    "Politics",
    "Sports",
    "Politics",
]
JUDGE_REPLIES = ["A", "B", "C", "**A**", "B.", "A", "The answer is B", "CORRECT", "", "A"]
# strict: A B C A B A fail fail fail A      official: A B C A B A B C fail A
# (an empty judge reply is no verdict under every parse; simple-evals would read C)
STRICT_GRADES = ["CORRECT", "INCORRECT", "NOT_ATTEMPTED", "CORRECT", "INCORRECT", "CORRECT"]
STRICT_GRADES += ["JUDGE_FAILURE"] * 3 + ["CORRECT"]
OFFICIAL_GRADES = ["CORRECT", "INCORRECT", "NOT_ATTEMPTED", "CORRECT", "INCORRECT", "CORRECT"]
OFFICIAL_GRADES += ["INCORRECT", "NOT_ATTEMPTED", "JUDGE_FAILURE", "CORRECT"]

EXPECTED_METRICS = {
    "strict": {
        "correct": 4 / 10,
        "incorrect": 2 / 10,
        "not_attempted": 1 / 10,
        "accuracy": 4 / 10,
        "attempted_accuracy": 4 / 6,
        # Cochran's ratio linearization: residuals c - R (c + i), R = 4/6: 1/3 for the 4
        # correct, -2/3 for the 2 incorrect, 0 for the rest; sqrt(sum r^2 / (n (n-1))) / mean(c + i)
        "attempted_accuracy_stderr": ((4 / 9 + 2 * 4 / 9) / 90) ** 0.5 / 0.6,
        "abstention_rate": 1 / 10,
        "hallucination_rate": 2 / 10,
        "f_score": 0.5,  # 2 * 0.4 * (2/3) / (0.4 + 2/3)
        "judge_failures": 3.0,
        "accuracy[Topic=Science and technology]": 1 / 2,
        "accuracy[Topic=Geography]": 0.0,
        "accuracy[Topic=Sports]": 1 / 2,
        "accuracy[Topic=Politics]": 1 / 4,
        "accuracy[Topic=unknown]": 1.0,
        "attempted_accuracy[Topic=Science and technology]": 1 / 2,
        "attempted_accuracy[Topic=Geography]": 0.0,  # nothing attempted
        "attempted_accuracy[Topic=Sports]": 1.0,
        "attempted_accuracy[Topic=Politics]": 1 / 2,
        "attempted_accuracy[Topic=unknown]": 1.0,
        "abstention_rate[Topic=Science and technology]": 0.0,
        "abstention_rate[Topic=Geography]": 1.0,
        "abstention_rate[Topic=Sports]": 0.0,
        "abstention_rate[Topic=Politics]": 0.0,
        "abstention_rate[Topic=unknown]": 0.0,
    },
    "official": {
        "correct": 4 / 10,
        "incorrect": 3 / 10,
        "not_attempted": 2 / 10,
        "accuracy": 4 / 10,
        "attempted_accuracy": 4 / 7,
        "attempted_accuracy_stderr": ((4 * 9 / 49 + 3 * 16 / 49) / 90) ** 0.5 / 0.7,
        "abstention_rate": 2 / 10,
        "hallucination_rate": 3 / 10,
        "f_score": 2 * 0.4 * (4 / 7) / (0.4 + 4 / 7),
        "judge_failures": 1.0,
        "accuracy[Topic=Science and technology]": 1 / 2,
        "accuracy[Topic=Geography]": 0.0,
        "accuracy[Topic=Sports]": 1 / 2,
        "accuracy[Topic=Politics]": 1 / 4,
        "accuracy[Topic=unknown]": 1.0,
        "attempted_accuracy[Topic=Science and technology]": 1 / 2,
        "attempted_accuracy[Topic=Geography]": 0.0,
        "attempted_accuracy[Topic=Sports]": 1.0,
        "attempted_accuracy[Topic=Politics]": 1 / 3,
        "attempted_accuracy[Topic=unknown]": 1.0,
        "abstention_rate[Topic=Science and technology]": 0.0,
        "abstention_rate[Topic=Geography]": 1.0,
        "abstention_rate[Topic=Sports]": 0.0,
        "abstention_rate[Topic=Politics]": 1 / 4,
        "abstention_rate[Topic=unknown]": 0.0,
    },
}


def question_index(text: str) -> int:
    for index, question in enumerate(QUESTIONS):
        if f"\nQuestion: {question}\nGold target: " in text or text.endswith(question):
            return index
    raise AssertionError(f"unexpected prompt: {text[-200:]!r}")


def candidate_reply(index: int) -> str:
    return f"candidate answer {index}"


class ScriptedJudge:
    """Replies JUDGE_REPLIES by question; records every prompt; raises on chosen questions."""

    def __init__(self, raise_on: frozenset[int] = frozenset()) -> None:
        self.prompts: dict[int, list[ChatMessage]] = {}
        self.raise_on = raise_on

    def __call__(self, messages: list[ChatMessage]) -> str:
        index = question_index(last_user_text(messages))
        self.prompts[index] = list(messages)
        if index in self.raise_on:
            raise RuntimeError(f"judge unavailable for question {index}")
        return JUDGE_REPLIES[index]


def candidate() -> Any:
    return scripted_model(
        lambda messages: candidate_reply(question_index(last_user_text(messages))),
        name="candidate",
    )


def run(tmp_path: Path, judge: ScriptedJudge | None = None, **task_args: Any) -> EvalLog:
    task_args.setdefault("dataset_path", str(CSV))
    roles = {} if judge is None else {"grader": scripted_model(judge, name="grader")}
    (log,) = eval(
        simpleqa(**task_args),
        model=candidate(),
        model_roles=roles or None,
        log_dir=str(tmp_path),
        display="none",
    )
    return log


def metric_values(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    (score,) = log.results.scores
    return {name: metric.value for name, metric in score.metrics.items()}


# ---------------------------------------------------------------------------
# Grader template


def test_grader_template_is_the_official_file_byte_for_byte() -> None:
    data = TEMPLATE_FILE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == OFFICIAL_TEMPLATE_SHA256
    assert GRADER_TEMPLATE.encode("utf-8") == data
    # trailing spaces of the upstream template survive
    assert 'have?" with gold target "120k". \n' in GRADER_TEMPLATE
    assert GRADER_TEMPLATE.endswith(
        'Just return the letters "A", "B", or "C", with no text around it.'
    )


def test_grader_prompt_is_the_official_template_filled_in(tmp_path: Path) -> None:
    judge = ScriptedJudge()
    run(tmp_path, judge)
    template = TEMPLATE_FILE.read_bytes().decode("utf-8")
    (message,) = judge.prompts[9]
    assert message.role == "user"
    expected = (
        template.replace("{question}", QUESTIONS[9])
        .replace("{target}", " Quebec Youth Parliament prime minister")
        .replace("{predicted_answer}", "candidate answer 9")
    )
    assert message.text == expected
    assert message.text.endswith(
        "```\nQuestion: What position was John Gilbert Layton appointed to in Quebec from 1969 "
        "until 1970?\nGold target:  Quebec Youth Parliament prime minister\n"
        "Predicted answer: candidate answer 9\n```\n\n"
        "Grade the predicted answer of this new question as one of:\nA: CORRECT\n"
        "B: INCORRECT\nC: NOT_ATTEMPTED\n\n"
        'Just return the letters "A", "B", or "C", with no text around it.'
    )
    assert hashlib.sha256(message.text.encode("utf-8")).hexdigest() == (
        "c9ac39b75c737d806e0ca0d8460edaf86ed226982338e386a3f2d3b42feb1af8"
    )


# ---------------------------------------------------------------------------
# Data


def test_csv_rows_become_samples_with_parsed_metadata() -> None:
    dataset = simpleqa(dataset_path=str(CSV)).dataset
    assert len(dataset) == 10
    assert [sample.id for sample in dataset] == [f"simpleqa_{i}" for i in range(10)]
    assert [sample.input for sample in dataset] == QUESTIONS
    first = dataset[0]
    assert first.target == "Michio Sugeno"
    assert first.metadata == {
        "topic": "Science and technology",
        "answer_type": "Person",
        "urls": [
            "https://en.wikipedia.org/wiki/IEEE_Frank_Rosenblatt_Award",
            "https://ieeexplore.ieee.org/author/37271220500",
            "https://en.wikipedia.org/wiki/IEEE_Frank_Rosenblatt_Award",
            "https://www.nxtbook.com/nxtbooks/ieee/awards_2010/index.php?startid=21#/p/20",
        ],
    }
    # answers are taken verbatim, leading space included, as pandas reads them
    assert dataset[9].target == " Quebec Youth Parliament prime minister"
    assert dataset[7].target == "Jóhanna Sigurðardóttir"
    assert [(sample.metadata or {}).get("topic") for sample in dataset] == TOPICS


def test_unparsable_metadata_is_kept_and_reported(caplog: pytest.LogCaptureFixture) -> None:
    dataset = simpleqa(dataset_path=str(CSV)).dataset
    with caplog.at_level(logging.WARNING, logger="benchmarks.simpleqa"):
        sample = dataset[5]
    raw = "{'topic': 'Politics', 'answer_type': 'Date', 'urls': ['https"
    assert sample.metadata is not None
    assert sample.metadata["raw_metadata"] == raw
    assert sample.metadata["topic"] == "unknown"
    assert sample.metadata["answer_type"] is None
    assert sample.metadata["urls"] == []
    assert sample.metadata["metadata_error"].startswith(
        "is not a Python-dict literal (SyntaxError: unterminated string literal"
    )
    (record,) = caplog.records
    assert record.getMessage().startswith(f"SimpleQA {CSV}, line 7: field 'metadata' is not a")
    assert "the question counts under topic 'unknown'." in record.getMessage()
    assert sample.target == "January 2008"  # the question itself is intact


def test_metadata_is_parsed_as_a_literal_never_evaluated(tmp_path: Path) -> None:
    path = tmp_path / "evil.csv"
    path.write_text(
        "metadata,problem,answer\n\"__import__('os').system('echo hacked')\",Q?,A\n",
        encoding="utf-8",
    )
    sample = simpleqa(dataset_path=str(path)).dataset[0]
    assert sample.metadata is not None
    assert sample.metadata["metadata_error"].startswith("is not a Python-dict literal")
    assert sample.metadata["topic"] == "unknown"


def test_jsonl_rows_match_the_csv_rows() -> None:
    from_jsonl = list(simpleqa(dataset_path=str(JSONL)).dataset)
    from_csv = list(simpleqa(dataset_path=str(CSV)).dataset)
    assert [s.id for s in from_jsonl] == [f"simpleqa_{i}" for i in (0, 1, 2, 3, 5, 6, 7, 8, 10, 19)]
    for jsonl_sample, csv_sample in zip(from_jsonl, from_csv, strict=True):
        assert (jsonl_sample.input, jsonl_sample.target) == (csv_sample.input, csv_sample.target)
    assert [s.metadata["topic"] for s in from_jsonl if s.metadata] == [
        topic if topic != "unknown" else "Politics" for topic in TOPICS
    ]
    # simpleqa_6 carries the original literal string: parsed, urls kept, no error
    sixth = from_jsonl[5].metadata
    assert sixth is not None and "metadata_error" not in sixth
    assert sixth["answer_type"] == "Date"
    assert len(sixth["urls"]) == 4
    assert from_jsonl[0].metadata == from_csv[0].metadata


# ---------------------------------------------------------------------------
# Scoring


def test_metric_names_survive_the_terminals_markup() -> None:
    """The terminal prints metric names as rich markup, where a bracket followed by a lowercase
    letter is a style tag and vanishes: the breakdowns read ``<statistic>[Topic=<topic>]``,
    even for a lowercase topic (``unknown``)."""
    from rich.markup import render

    names = [*EXPECTED_METRICS["strict"], *EXPECTED_METRICS["official"]]
    assert [render(name).plain for name in names] == names
    assert "accuracy[Topic=unknown]" in names
    assert render("accuracy[unknown]").plain == "accuracy"  # the former style, eaten


@pytest.mark.parametrize("grade_parse", ["strict", "official"])
def test_metrics_on_scripted_judge_replies(tmp_path: Path, grade_parse: str) -> None:
    log = run(tmp_path, ScriptedJudge(), grade_parse=grade_parse)
    assert log.status == "success"
    values = metric_values(log)
    expected = EXPECTED_METRICS[grade_parse]
    assert set(values) == set(expected)
    for name, value in expected.items():
        assert values[name] == pytest.approx(value, rel=1e-12, abs=0), name

    assert log.samples is not None
    grades = STRICT_GRADES if grade_parse == "strict" else OFFICIAL_GRADES
    for sample in log.samples:
        index = QUESTIONS.index(str(sample.input))
        assert sample.scores is not None
        score = sample.scores["simpleqa_scorer"]
        assert score.metadata is not None
        assert score.metadata["grade"] == grades[index]
        assert score.metadata["judge_reply"] == JUDGE_REPLIES[index]
        assert score.metadata["grader"] == "mockllm/grader"
        assert score.answer == candidate_reply(index)
        assert isinstance(score.value, dict)
        assert sum(score.value.values()) == 1.0


def test_score_records_the_raw_judge_reply_and_the_grade(tmp_path: Path) -> None:
    log = run(tmp_path, ScriptedJudge())
    assert log.samples is not None
    by_index = {QUESTIONS.index(str(s.input)): s for s in log.samples}
    correct = by_index[3].scores["simpleqa_scorer"]  # type: ignore[index]
    assert correct.value == {
        "correct": 1.0,
        "incorrect": 0.0,
        "not_attempted": 0.0,
        "judge_failure": 0.0,
    }
    assert correct.explanation == "judge replied '**A**': A = CORRECT"
    failure = by_index[7].scores["simpleqa_scorer"]  # type: ignore[index]
    assert failure.value == {
        "correct": 0.0,
        "incorrect": 0.0,
        "not_attempted": 0.0,
        "judge_failure": 1.0,
    }
    assert failure.explanation == "judge reply 'CORRECT' is not A, B or C: judge failure"


def graded(grades: list[str]) -> list[SampleScore]:
    return [
        SampleScore(
            score=Score(
                value={k: float(GRADE_VALUE_KEYS[g] == k) for k in GRADE_VALUE_KEYS.values()}
            ),
            sample_id=index,
        )
        for index, g in enumerate(grades)
    ]


@pytest.mark.parametrize("grades", [STRICT_GRADES, OFFICIAL_GRADES, ["CORRECT", "INCORRECT"] * 7])
def test_the_stderr_of_a_fraction_is_inspects_stderr(grades: list[str]) -> None:
    """A fraction of all questions (and, when every question was attempted, the accuracy on
    the attempted ones) has Inspect's stderr() of its 0/1 values as its standard error."""
    scores = graded(grades)
    fractions = {"accuracy": "correct", "abstention_rate": "not_attempted"}
    fractions |= {"hallucination_rate": "incorrect"}
    if all(g in ("CORRECT", "INCORRECT") for g in grades):
        fractions["attempted_accuracy"] = "correct"
    for statistic, key in fractions.items():
        zero_one = [
            SampleScore(score=Score(value=s.score.value[key]), sample_id=s.sample_id)
            for s in scores
        ]  # type: ignore[index]
        assert ratio_stderr(scores, statistic) == pytest.approx(stderr()(zero_one), rel=1e-12)
    assert ratio_stderr(scores[:1], "f_score") == 0.0  # one question: no spread to measure


@pytest.mark.parametrize("grades", [STRICT_GRADES, OFFICIAL_GRADES])
def test_each_ratio_is_its_statistic(grades: list[str]) -> None:
    """RATIOS writes each statistic as sum(x) / sum(y) for its standard error: the ratio
    must be the statistic the metrics report."""
    scores = graded(grades)
    statistics = grade_statistics(scores)
    for statistic, ratio in RATIOS.items():
        x = sum(sum(w * s.score.value[k] for k, w in ratio.numerator.items()) for s in scores)  # type: ignore[index]
        y = sum(
            sum(w * s.score.value[k] for k, w in ratio.denominator.items()) + ratio.per_question  # type: ignore[index]
            for s in scores
        )
        assert x / y == pytest.approx(statistics[statistic], rel=1e-12), statistic


def test_the_stderr_is_the_same_whatever_the_order_of_the_samples() -> None:
    """A run and its shards merged list the samples in different orders: the standard
    errors must agree to the bit (a plain float sum does not)."""
    rng = random.Random(7)
    grades = rng.choices(list(GRADE_VALUE_KEYS), weights=[5, 3, 2, 1], k=301)
    scores = graded(grades)
    for statistic in ("attempted_accuracy", "f_score", "accuracy"):
        first = ratio_stderr(scores, statistic)
        for _ in range(20):
            rng.shuffle(scores)
            assert ratio_stderr(scores, statistic) == first, statistic


def test_breakdowns_can_be_turned_off(tmp_path: Path) -> None:
    values = metric_values(run(tmp_path, ScriptedJudge(), breakdowns=False))
    assert set(values) == {
        "correct",
        "incorrect",
        "not_attempted",
        "accuracy",
        "attempted_accuracy",
        "attempted_accuracy_stderr",
        "abstention_rate",
        "hallucination_rate",
        "f_score",
        "judge_failures",
    }


def test_judge_exception_is_a_sample_error_not_a_grade(tmp_path: Path) -> None:
    judge = ScriptedJudge(raise_on=frozenset({2}))
    (log,) = eval(
        simpleqa(dataset_path=str(CSV)),
        model=candidate(),
        model_roles={"grader": scripted_model(judge, name="grader")},
        fail_on_error=False,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.samples is not None
    errored = [s for s in log.samples if s.error is not None]
    assert [str(s.input) for s in errored] == [QUESTIONS[2]]
    assert "judge unavailable for question 2" in errored[0].error.message  # type: ignore[union-attr]
    assert not errored[0].scores
    values = metric_values(log)
    # the nine graded questions only: the errored one is neither NOT_ATTEMPTED nor a failure
    assert values["not_attempted"] == 0.0
    assert values["judge_failures"] == 3.0
    assert values["correct"] == pytest.approx(4 / 9, rel=1e-12)


def test_sampling_defaults_and_overrides(tmp_path: Path) -> None:
    def configs(log: EvalLog) -> dict[str, tuple[float | None, int | None]]:
        assert log.samples is not None
        events = [e for e in log.samples[0].events if e.event == "model"]
        return {e.model: (e.config.temperature, e.config.max_tokens) for e in events}  # type: ignore[union-attr]

    defaults = run(tmp_path / "defaults", ScriptedJudge())
    assert configs(defaults) == {"mockllm/candidate": (0.5, 2048), "mockllm/grader": (0.5, 1024)}

    (overridden,) = eval(
        simpleqa(dataset_path=str(CSV), grader_temperature=None, grader_max_tokens=None),
        model=candidate(),
        model_roles={"grader": scripted_model(ScriptedJudge(), name="grader")},
        temperature=0.0,
        max_tokens=64,
        log_dir=str(tmp_path / "overridden"),
        display="none",
    )
    assert configs(overridden) == {"mockllm/candidate": (0.0, 64), "mockllm/grader": (None, None)}


def test_the_newer_simple_evals_grader_setting_is_reachable(tmp_path: Path) -> None:
    """simple-evals' gpt-4.1 runner: system message "You are a helpful assistant.", 2048 tokens."""
    judge = ScriptedJudge()
    grader = scripted_model(judge, name="grader")
    grader.config = GenerateConfig(system_message="You are a helpful assistant.")
    (log,) = eval(
        simpleqa(dataset_path=str(CSV), grader_max_tokens=2048),
        model=candidate(),
        model_roles={"grader": grader},
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    system, user = judge.prompts[0]
    assert (system.role, system.text) == ("system", "You are a helpful assistant.")
    assert user.text.startswith("Your job is to look at a question, a gold target")
    assert log.samples is not None
    (grader_event,) = [
        e for e in log.samples[0].events if e.event == "model" and e.model == "mockllm/grader"
    ]
    assert grader_event.config.max_tokens == 2048
    assert grader_event.config.temperature == 0.5


def test_answer_prompt_wraps_the_question_and_the_judge_sees_the_bare_question(
    tmp_path: Path,
) -> None:
    seen: list[str] = []

    def reply(messages: list[ChatMessage]) -> str:
        seen.append(last_user_text(messages))
        return "Paris"

    judge = ScriptedJudge()
    (log,) = eval(
        simpleqa(dataset_path=str(CSV), answer_prompt="Answer briefly.\n\n{question}"),
        model=scripted_model(reply, name="candidate"),
        model_roles={"grader": scripted_model(judge, name="grader")},
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    assert seen == [f"Answer briefly.\n\n{QUESTIONS[0]}"]
    assert f"```\nQuestion: {QUESTIONS[0]}\nGold target: Michio Sugeno\n" in (
        judge.prompts[0][0].text
    )


def test_without_a_grader_the_model_under_test_grades_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(judge_module, "_fallback_warned", set())
    judge = ScriptedJudge()

    def reply(messages: list[ChatMessage]) -> str:
        text = last_user_text(messages)
        return judge(messages) if "Gold target:" in text else "Paris"

    with caplog.at_level(logging.WARNING, logger="benchmarks.scorers.judge"):
        (log,) = eval(
            simpleqa(dataset_path=str(CSV)),
            model=scripted_model(reply, name="self_judge"),
            limit=3,
            log_dir=str(tmp_path),
            display="none",
        )
    assert log.status == "success"
    # Inspect prefixes records logged inside a sample with "sample=<id>\n"
    messages = [r.getMessage().splitlines()[-1] for r in caplog.records]
    assert [m for m in messages if m.startswith("SimpleQA judge: ")] == [
        "SimpleQA judge: no model is bound to the role 'grader', so the model under test "
        "(mockllm/self_judge) grades its own answers. The references grade with gpt-4o "
        "(SimpleQA paper) or gpt-4.1-2025-04-14 (simple-evals today, SimpleQA Verified); "
        "bind a judge with --model-role grader=<provider/model> "
        "(eval(..., model_roles={'grader': ...}))."
    ]
    assert log.samples is not None
    assert {s.scores["simpleqa_scorer"].metadata["grader"] for s in log.samples} == {  # type: ignore[index]
        "mockllm/self_judge"
    }


@pytest.mark.parametrize(
    ("reply", "strict", "official"),
    [
        ("A", "A", "A"),
        ("  B\n", "B", "B"),
        ("C.", "C", "C"),
        ("**A**", "A", "A"),
        ("*B*", "B", "B"),
        ("__C__", "C", "C"),
        ("`A`", "A", "A"),
        ("**A.**", "A", "A"),
        ("**A**.", "A", "A"),
        ("B!", "B", "B"),
        ("a", None, "C"),
        ("**A", None, "A"),
        ('"A"', None, "A"),
        ("A: CORRECT", None, "A"),
        ("CORRECT", None, "C"),
        ("INCORRECT", None, "C"),
        ("NOT_ATTEMPTED", None, "A"),
        ("The grade is B", None, "B"),
        ("", None, "C"),
        ("I cannot grade this.", None, "C"),
        ("AB", None, "A"),
        ("A.A", None, "A"),
    ],
)
def test_grade_parsers(reply: str, strict: str | None, official: str) -> None:
    assert parse_grade_strict(reply) == strict
    assert parse_grade_official(reply) == official


@given(st.text())
def test_grade_parsers_return_only_grades_and_agree_when_strict_accepts(reply: str) -> None:
    strict = parse_grade_strict(reply)
    official = parse_grade_official(reply)
    assert official in ("A", "B", "C")
    assert strict is None or strict == official


@given(st.one_of(st.text(), st.none(), st.integers(), st.lists(st.text())))
def test_any_metadata_value_gives_a_sample_with_a_topic(raw: object) -> None:
    sample = record_to_sample({"id": "q", "problem": "Q?", "answer": "A", "metadata": raw})
    assert sample.metadata is not None
    assert isinstance(sample.metadata["topic"], str)
    if "metadata_error" in sample.metadata:
        assert sample.metadata["topic"] == "unknown"
        assert sample.metadata["raw_metadata"] == raw


# ---------------------------------------------------------------------------
# Parameters


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"grade_parse": "lenient"},
            "simpleqa: unknown grade_parse 'lenient'; choose one of strict, official, "
            "inspect_evals_strict.",
        ),
        (
            {"grade_prompt": "Question: {question}\nGold target: {target}\nGrade:"},
            "simpleqa: grade_prompt was renamed grade_prompt_file (a UTF-8 file holding the "
            "judge prompt).",
        ),
        (
            {"answer_prompt": "Answer the question."},
            "simpleqa: answer_prompt lacks the placeholder(s) {question}.",
        ),
        (
            {"grader_max_tokens": 0},
            "simpleqa: grader_max_tokens must be a positive integer, null "
            "(the grader's own) or 'profile', got 0.",
        ),
        (
            {"grader_temperature": -1.0},
            "simpleqa: grader_temperature must be a number >= 0, null "
            "(the grader's own) or 'profile', got -1.0.",
        ),
        (
            {"dataset_path": str(CSV), "data_files": str(CSV)},
            "simpleqa: pass either dataset_path or data_files, not both.",
        ),
        (
            {"data_files": {"validation": str(CSV)}},
            "simpleqa: SimpleQA has one split, 'test': data_files must be a file or "
            "{'test': file}, got the key(s) 'validation'.",
        ),
    ],
)
def test_invalid_parameters_fail_before_any_model_call(
    arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError) as raised:
        simpleqa(**arguments)
    assert str(raised.value) == message


def test_data_files_is_an_alias_for_a_local_file() -> None:
    assert len(simpleqa(data_files={"test": str(JSONL)}).dataset) == 10
    assert len(simpleqa(data_files=str(CSV)).dataset) == 10


# ---------------------------------------------------------------------------
# Bad local files


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (
            "renamed.csv",
            "meta,problem,answer\nx,Q?,A\n",
            "{path}: missing column(s) 'metadata'; found 'meta', 'problem', 'answer'.",
        ),
        (
            "empty_answer.csv",
            "metadata,problem,answer\n\"{{'topic': 'Art'}}\",Q?,\n",
            "{path}, line 2: field 'answer' is empty.",
        ),
        (
            "short_row.csv",
            "metadata,problem,answer\n\"{{'topic': 'Art'}}\",Q?\n",
            "{path}, line 2: field 'answer' is missing (too few fields).",
        ),
        (
            "long_row.csv",
            "metadata,problem,answer\nm,Q?,A,extra\n",
            "{path}, line 2: more fields than the 3 columns.",
        ),
        ("header_only.csv", "metadata,problem,answer\n", "{path}: the file holds no rows."),
        ("empty.csv", "", "{path}: the file is empty."),
        (
            "number_answer.jsonl",
            '{{"id": "q1", "problem": "Q?", "answer": 1995}}\n',
            "{path}, line 1: field 'answer' should be str, got int 1995.",
        ),
        (
            "no_problem.jsonl",
            '{{"id": "q1", "answer": "A"}}\n',
            "{path}, line 1: field 'problem' is missing.",
        ),
        (
            "broken.jsonl",
            '{{"id": "q1", "problem": "Q?", "answer": "A"}}\n{{"id": \n',
            "{path}: could not be read as json: line 2 is not valid JSON (Expecting value, "
            "character 7).",
        ),
        (
            "duplicate_ids.jsonl",
            '{{"id": "q1", "problem": "Q?", "answer": "A"}}\n'
            '{{"id": "q1", "problem": "Q2?", "answer": "B"}}\n',
            "{path}, line 2: field 'id' 'q1' repeats the id of line 1.",
        ),
        ("data.parquet", "x", "{path}: unsupported file type '.parquet'; use .csv or .jsonl."),
    ],
)
def test_bad_files_are_named_with_row_and_field(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content.format(), encoding="utf-8")
    with pytest.raises(DataError) as raised:
        simpleqa(dataset_path=str(path))
    assert str(raised.value) == message.format(path=path)


def test_non_utf8_bytes_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "latin1.csv"
    path.write_bytes("metadata,problem,answer\nm,Qui a gagné?,A\n".encode("latin-1"))
    with pytest.raises(DataError) as raised:
        simpleqa(dataset_path=str(path))
    assert str(raised.value) == (
        f"{path}: line 2 is not valid UTF-8 (invalid continuation byte); re-encode the file "
        "as UTF-8."
    )


def test_missing_local_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.csv"
    with pytest.raises(DataError) as raised:
        simpleqa(dataset_path=str(path))
    assert str(raised.value) == f"{path}: no such file."


def test_a_one_megabyte_field_loads(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    shutil.copy(CSV, path)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(f"\"{{'topic': 'Art'}}\",{'x' * 1_000_000}?,A\n")
    dataset = simpleqa(dataset_path=str(path)).dataset
    assert len(str(dataset[10].input)) == 1_000_001


# ---------------------------------------------------------------------------
# Download cache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory, the fixture CSV as the "upstream" file, no network."""
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(simpleqa_data, "DATASET_URL", CSV.resolve().as_uri())
    monkeypatch.setattr(
        simpleqa_data, "DATASET_SHA256", hashlib.sha256(CSV.read_bytes()).hexdigest()
    )
    return tmp_path / "cache" / "simpleqa"


def forbid_downloads(monkeypatch: pytest.MonkeyPatch) -> None:
    def offline(*_: Any, **__: Any) -> Any:
        raise urllib.error.URLError("[Errno -3] Temporary failure in name resolution")

    monkeypatch.setattr(urllib.request, "urlopen", offline)


def test_default_source_is_the_pinned_upstream_csv() -> None:
    assert simpleqa_data.DATASET_URL == (
        "https://openaipublic.blob.core.windows.net/simple-evals/simple_qa_test_set.csv"
    )
    assert simpleqa_data.DATASET_SHA256 == OFFICIAL_CSV_SHA256


def test_download_dir_follows_the_environment_override(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_BENCHMARKS_CACHE", str(tmp_path))
    assert simpleqa_data.download_dir() == tmp_path / "simpleqa"


def test_download_is_verified_then_cached(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    task = simpleqa()
    cached = cache / "simple_qa_test_set.csv"
    assert cached.read_bytes() == CSV.read_bytes()
    assert [p.name for p in cache.iterdir()] == ["simple_qa_test_set.csv"]
    assert len(task.dataset) == 10
    assert task.metadata is not None
    assert task.metadata["dataset_sha256"] == hashlib.sha256(CSV.read_bytes()).hexdigest()

    forbid_downloads(monkeypatch)  # a second task reads the cache
    assert len(simpleqa().dataset) == 10


def test_a_pre_placed_file_is_used_without_download(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forbid_downloads(monkeypatch)
    cache.mkdir(parents=True)
    shutil.copy(CSV, cache / "simple_qa_test_set.csv")
    assert [s.input for s in simpleqa().dataset] == QUESTIONS


def test_a_download_with_the_wrong_sha256_is_an_error_and_not_cached(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(simpleqa_data, "DATASET_SHA256", OFFICIAL_CSV_SHA256)
    actual = hashlib.sha256(CSV.read_bytes()).hexdigest()
    with pytest.raises(DataError) as raised:
        simpleqa()
    assert str(raised.value) == (
        f"{CSV.resolve().as_uri()}: the downloaded file has sha256 {actual}, expected "
        f"{OFFICIAL_CSV_SHA256}; it was discarded and nothing was cached. The upstream file "
        "may have changed: pass dataset_path=<a verified copy> to run."
    )
    assert list(cache.iterdir()) == []


def test_a_cached_file_with_the_wrong_sha256_is_an_error(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forbid_downloads(monkeypatch)
    cache.mkdir(parents=True)
    cached = cache / "simple_qa_test_set.csv"
    cached.write_bytes(CSV.read_bytes().replace(b"Michio Sugeno", b"Someone Else"))
    actual = hashlib.sha256(cached.read_bytes()).hexdigest()
    expected = simpleqa_data.DATASET_SHA256
    with pytest.raises(DataError) as raised:
        simpleqa()
    assert str(raised.value) == (
        f"{cached}: sha256 {actual} does not match the official SimpleQA file ({expected}). "
        "Delete it to download the file again, or pass dataset_path=<your file> to use a "
        "modified copy on purpose."
    )


def test_offline_without_a_cached_copy_says_how_to_supply_the_file(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forbid_downloads(monkeypatch)
    with pytest.raises(DataUnavailableError) as raised:
        simpleqa()
    url = CSV.resolve().as_uri()
    sha = simpleqa_data.DATASET_SHA256
    assert str(raised.value) == (
        f"Could not download the SimpleQA dataset from {url}: [Errno -3] Temporary failure "
        "in name resolution\nTo run without network access, download simple_qa_test_set.csv "
        f"on a connected machine (sha256 {sha}) and pass dataset_path=<that file>, or put it "
        f"at {cache / 'simple_qa_test_set.csv'} (the cache directory, set with "
        "INSPECT_BENCHMARKS_CACHE); or try the task on the few rows shipped with the package: "
        "bundled_sample=true."
    )
    assert list(cache.iterdir()) == []


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("Question: {question}\nGold target: {target}\nGrade:", "lacks the placeholder(s) "
         "{predicted_answer}."),
        ("{question} {target} {predicted_answer} {topic}", "has unknown placeholder(s) {topic}; "
         "it may use only {predicted_answer}, {question}, {target} (write literal braces as "
         "{{ and }})."),
        ("{question} {target} {predicted_answer} }", "is not a valid format string (Single '}' "
         "encountered in format string); write literal braces as {{ and }}."),
    ],
)  # fmt: skip
def test_a_bad_grade_prompt_file_fails_before_any_model_call(
    template: str, problem: str, tmp_path: Path
) -> None:
    path = tmp_path / "grader.txt"
    path.write_text(template, encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        simpleqa(grade_prompt_file=str(path))
    assert str(raised.value) == f"simpleqa: grade_prompt_file {path} {problem}"


def test_a_grade_prompt_file_is_what_the_judge_gets(tmp_path: Path) -> None:
    path = tmp_path / "grader.txt"
    path.write_text("Q: {question}\nGold: {target}\nA: {predicted_answer}\nGrade:", "utf-8")
    prompts: list[str] = []

    def judge(messages: list[ChatMessage]) -> str:
        prompts.append(last_user_text(messages))
        return "A"

    (log,) = eval(
        simpleqa(dataset_path=str(CSV), grade_prompt_file=str(path), num_examples=1),
        model=candidate(),
        model_roles={"grader": scripted_model(judge, name="grader")},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    assert prompts == [f"Q: {QUESTIONS[0]}\nGold: Michio Sugeno\nA: {candidate_reply(0)}\nGrade:"]


def test_topic_breakdowns_are_listed_in_name_order_whatever_the_sample_order() -> None:
    from inspect_ai.scorer import SampleScore, Score

    from benchmarks.scorers.simpleqa import breakdown_metrics

    def graded(sample_id: int, topic: str, grade: str) -> SampleScore:
        value = dict.fromkeys(("correct", "incorrect", "not_attempted", "judge_failure"), 0.0)
        value[grade] = 1.0
        return SampleScore(
            score=Score(value=value), sample_id=sample_id, sample_metadata={"topic": topic}
        )

    scores = [
        graded(0, "Sports", "correct"),
        graded(1, "Art", "incorrect"),
        graded(2, "Music", "correct"),
        graded(3, "Art", "correct"),
    ]
    [by_topic] = breakdown_metrics("topic", ["accuracy"])
    forward = by_topic(scores)  # type: ignore[arg-type]
    backward = by_topic(scores[::-1])  # type: ignore[arg-type]
    assert (
        list(forward.items())
        == list(backward.items())
        == [  # type: ignore[union-attr]
            ("accuracy[Topic=Art]", 0.5),
            ("accuracy[Topic=Music]", 1.0),
            ("accuracy[Topic=Sports]", 1.0),
        ]
    )
