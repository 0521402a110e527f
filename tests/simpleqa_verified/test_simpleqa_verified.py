"""SimpleQA Verified: data in the published schema, the starter code's parse, metrics, errors."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage

from benchmarks.runtime.errors import DataError, TaskParameterError
from benchmarks.scorers.judge_prompt import (
    GRADER_TEMPLATE,
    VERIFIED_GRADER_PROMPTS,
    parse_grade_verified_starter,
)
from benchmarks.simpleqa_verified import simpleqa_verified
from tests.scripted import last_user_text, scripted_model

VERIFIED_PAPER_GRADER_TEMPLATE = VERIFIED_GRADER_PROMPTS["paper"]

ROOT = Path(__file__).parents[2]
FIXTURES = Path(__file__).parents[1] / "fixtures" / "simpleqa_verified"
CSV = FIXTURES / "simpleqa_verified.sample.csv"
JSONL = FIXTURES / "simpleqa_verified.sample.jsonl"
IDS = [0, 1, 2, 3, 5, 7, 10, 19, 25, 42, 100, 250]
HEADER = "original_index,problem,answer,topic,answer_type,multi_step,requires_reasoning,urls\n"

# Judge replies by original_index, and what each parse makes of them.
REPLIES = {
    0: "A",
    1: "B",
    2: "C",
    3: "incorrect",  # starter: A (the quirk); strict: failure
    5: "correct",
    7: "not_attempted",
    10: "**A**",
    19: "The answer is B",
    25: "",  # no verdict under every parse: a judge failure
    42: "A",
    100: "B",
    250: "C",
}


def question_id(text: str) -> int:
    dataset = simpleqa_verified(dataset_path=str(CSV)).dataset
    for sample in dataset:
        if f"\nQuestion: {sample.input}\nGold target: " in text:
            assert isinstance(sample.id, int)
            return sample.id
    raise AssertionError(text[-200:])


def run(tmp_path: Path, **task_args: Any) -> EvalLog:
    task_args.setdefault("dataset_path", str(CSV))
    questions = {str(s.input): s.id for s in simpleqa_verified(dataset_path=str(CSV)).dataset}

    def judge(messages: list[ChatMessage]) -> str:
        text = last_user_text(messages)
        question = text.rsplit("\nQuestion: ", 1)[1].split("\nGold target: ", 1)[0]
        return REPLIES[int(questions[question])]  # type: ignore[arg-type]

    (log,) = eval(
        simpleqa_verified(**task_args),
        model=scripted_model(lambda messages: "an answer", name="candidate"),
        model_roles={"grader": scripted_model(judge, name="grader")},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    return log


def metric_values(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    (score,) = log.results.scores
    return {name: metric.value for name, metric in score.metrics.items()}


def test_rows_become_samples_identified_by_original_index() -> None:
    from_csv = list(simpleqa_verified(dataset_path=str(CSV)).dataset)
    from_jsonl = list(simpleqa_verified(data_files={"eval": str(JSONL)}).dataset)
    assert [s.id for s in from_csv] == IDS
    for csv_sample, jsonl_sample in zip(from_csv, from_jsonl, strict=True):
        assert (csv_sample.id, csv_sample.input, csv_sample.target, csv_sample.metadata) == (
            jsonl_sample.id,
            jsonl_sample.input,
            jsonl_sample.target,
            jsonl_sample.metadata,
        )
    first = from_csv[0]
    assert first.input == "Who received the IEEE Frank Rosenblatt Award in 2010?"
    assert first.target == "Michio Sugeno"
    assert first.metadata is not None
    assert first.metadata["original_index"] == 0
    assert first.metadata["topic"] == "Science and technology"
    assert first.metadata["answer_type"] == "Person"
    assert (first.metadata["multi_step"], first.metadata["requires_reasoning"]) == (False, False)
    assert first.metadata["urls"].startswith("https://en.wikipedia.org/wiki/IEEE_Frank_Rosenblatt")
    assert from_csv[7].target == " Quebec Youth Parliament prime minister"  # verbatim


def test_the_bundled_sample_runs_offline() -> None:
    dataset = simpleqa_verified(bundled_sample=True).dataset
    assert len(dataset) == 20
    assert [s.id for s in dataset][:3] == [0, 200, 400]


def test_the_judge_gets_the_simple_evals_template_with_no_system_message(tmp_path: Path) -> None:
    seen: list[list[ChatMessage]] = []

    def judge(messages: list[ChatMessage]) -> str:
        seen.append(list(messages))
        return "A"

    (log,) = eval(
        simpleqa_verified(dataset_path=str(CSV), num_examples=1),
        model=scripted_model(lambda messages: "Michio Sugeno", name="candidate"),
        model_roles={"grader": scripted_model(judge, name="grader")},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    ((message,),) = seen
    assert message.role == "user"
    assert message.text == GRADER_TEMPLATE.format(
        question="Who received the IEEE Frank Rosenblatt Award in 2010?",
        target="Michio Sugeno",
        predicted_answer="Michio Sugeno",
    )


def test_the_paper_grader_prompt_is_sent(tmp_path: Path) -> None:
    seen: list[str] = []

    def judge(messages: list[ChatMessage]) -> str:
        seen.append(last_user_text(messages))
        return "A"

    (log,) = eval(
        simpleqa_verified(dataset_path=str(CSV), num_examples=1, grader_prompt="paper"),
        model=scripted_model(lambda messages: "Michio Sugeno", name="candidate"),
        model_roles={"grader": scripted_model(judge, name="grader")},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    assert seen == [
        VERIFIED_PAPER_GRADER_TEMPLATE.format(
            question="Who received the IEEE Frank Rosenblatt Award in 2010?",
            target="Michio Sugeno",
            predicted_answer="Michio Sugeno",
        )
    ]


def test_the_paper_grader_prompt_is_the_simple_evals_template_with_the_papers_changes() -> None:
    """Appendix A of arXiv 2509.07968 prints the simple-evals template with its changes
    highlighted; the shipped text is that template with those changes, and nothing else."""
    changed = list(
        difflib.ndiff(GRADER_TEMPLATE.splitlines(), VERIFIED_PAPER_GRADER_TEMPLATE.splitlines())
    )
    removed = [line[2:] for line in changed if line.startswith("- ")]
    assert removed == [
        "    - Hedging and guessing are permissible, provided that the gold target is fully "
        "included and the response contains no incorrect information or contradictions.",
        "Predicted answer 4: I think it's either Malia and Sasha. Or it could be Malia and "
        "Jackie. Or it could be Joey and Malia.",
        "Predicted answer 5: It's possible you may mean Betsy and Olivia. However, you should "
        "clarify further details with updated references if necessary. Is that the correct "
        "answer?",
        "    - A factual statement in the answer contradicts the gold target. Incorrect "
        'statements that have some hedging (e.g., "it is possible that", "although i\'m not '
        'sure, i think") are also considered incorrect.',
        "- For grading questions where the gold target is a number, the predicted answer needs "
        "to be correct to the last significant figure in the gold answer. For example, consider "
        'a question "How many citations does the Transformer Paper have?" with gold target '
        '"120k". ',
        '    - Predicted answers "120k", "124k", and 115k" are all CORRECT. ',
        '    - Predicted answers "100k" and "113k" are INCORRECT. ',
        '    - For the question "What is the height of Jason Wei in meters?", the gold target '
        'is "1.73 m". The predicted answer "1.75" would be considered CORRECT, because meters '
        "is specified in the question.",
        '    - For the question "What is the name of Barack Obama\'s wife?", the gold target is '
        '"Michelle Obama". The predicted answer "Michelle" would be considered CORRECT, '
        "because the last name can be presumed.",
        '    - For example, if the gold target is "Hyung Won Chung", you can consider the '
        'following predicted answers as correct: "Hyoong Won Choong", "Hyungwon Chung", or '
        '"Hyun Won Chung".',
    ]
    added = [line[2:] for line in changed if line.startswith("+ ")]
    assert len(added) == 16
    assert (
        "    - Hedging and mentioning multiple candidate answers are permissible, provided "
        "that the response eventually commits to a single candidate answer, and that answer "
        "is correct." in added
    )
    assert VERIFIED_PAPER_GRADER_TEMPLATE.count("```") == GRADER_TEMPLATE.count("```") == 8


@pytest.mark.parametrize(
    ("reply", "letter"),
    [
        ("A", "A"),
        ("B", "B"),
        ("C", "C"),
        ("The grade is B", "B"),
        ("CORRECT", "C"),  # the C of CORRECT is the first capital letter
        ("INCORRECT", "C"),
        ("correct", "A"),
        ("incorrect", "A"),  # "CORRECT" in "INCORRECT": A, as the starter code reads it
        ("not_attempted", "C"),
        ("Not_Attempted", "A"),  # its A is a capital
        ("not attempted", "C"),
        ("b", "C"),
        ("", "C"),
    ],
)
def test_the_starter_parse(reply: str, letter: str) -> None:
    assert parse_grade_verified_starter(reply) == letter


def test_metrics_with_the_starter_parse_and_breakdowns(tmp_path: Path) -> None:
    values = metric_values(run(tmp_path, grade_parse="verified_starter"))
    # grades: A B C A A C A B fail A B C -> 5 correct, 3 incorrect, 3 not attempted
    # (the empty reply to row 25 is no verdict; the starter code would read C)
    assert values["correct"] == 5 / 12
    assert values["incorrect"] == 3 / 12
    assert values["not_attempted"] == 3 / 12
    assert values["attempted_accuracy"] == pytest.approx(5 / 8, rel=1e-12)
    assert values["f1"] == pytest.approx(2 * (5 / 12) * (5 / 8) / (5 / 12 + 5 / 8), rel=1e-12)
    assert "f_score" not in values
    assert values["judge_failures"] == 1.0
    # multi_step is True for rows 1, 3, 7, 19, 42, 250: grades B A C B A C
    assert values["accuracy[Multi-step=True]"] == 2 / 6
    assert values["f1[Multi-step=True]"] == pytest.approx(
        2 * (2 / 4) * (2 / 6) / (2 / 4 + 2 / 6), rel=1e-12
    )
    # topic Politics: rows 5, 7, 19, 25: grades A C B fail
    assert values["accuracy[Topic=Politics]"] == 1 / 4
    assert values["abstention_rate[Topic=Politics]"] == 1 / 4
    assert values["attempted_accuracy[Answer type=Number]"] == 1.0  # rows 5 (A), 10 (A)
    assert values["accuracy[Requires reasoning=False]"] == 3 / 6  # rows 0,1,5,7,25,42
    groups = {name.split("[", 1)[1].split("=", 1)[0] for name in values if "[" in name}
    assert groups == {"Topic", "Answer type", "Multi-step", "Requires reasoning"}
    # the style of SimpleQA's topics, which the terminal's markup leaves whole
    from rich.markup import render

    assert [render(name).plain for name in values] == list(values)


def test_strict_is_the_default_and_counts_judge_failures(tmp_path: Path) -> None:
    values = metric_values(run(tmp_path, breakdowns=False))
    # strict: A B C fail fail fail A fail fail A B C
    assert values["judge_failures"] == 5.0
    assert values["correct"] == 3 / 12
    assert values["f1"] == pytest.approx(2 * 3 / (12 + 3 + 2), rel=1e-12)  # 2c / (n + c + i)
    # Cochran's ratio linearization of 2c / (1 + c + i): residuals 2c - R (1 + c + i),
    # R = 6/17: 22/17 for the 3 correct, -12/17 for the 2 incorrect, -6/17 for the other 7
    residuals = (3 * 22**2 + 2 * 12**2 + 7 * 6**2) / 17**2
    assert values["f1_stderr"] == pytest.approx((residuals / (12 * 11)) ** 0.5 / (17 / 12))
    assert set(values) == {
        "correct",
        "incorrect",
        "not_attempted",
        "accuracy",
        "attempted_accuracy",
        "abstention_rate",
        "hallucination_rate",
        "f1",
        "f1_stderr",
        "judge_failures",
    }


def test_a_grade_prompt_file_is_sent_verbatim(tmp_path: Path) -> None:
    prompt = tmp_path / "autorater.txt"
    prompt.write_text(
        "Q: {question}\nGold: {target}\nAnswer: {predicted_answer}\nReply A, B or C.",
        encoding="utf-8",
    )
    seen: list[str] = []

    def judge(messages: list[ChatMessage]) -> str:
        seen.append(last_user_text(messages))
        return "A"

    eval(
        simpleqa_verified(dataset_path=str(CSV), grade_prompt_file=str(prompt), num_examples=1),
        model=scripted_model(lambda messages: "Sugeno", name="candidate"),
        model_roles={"grader": scripted_model(judge, name="grader")},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert seen == [
        "Q: Who received the IEEE Frank Rosenblatt Award in 2010?\nGold: Michio Sugeno\n"
        "Answer: Sugeno\nReply A, B or C."
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"grade_parse": "starter"},
            "simpleqa_verified: unknown grade_parse 'starter'; choose one of strict, official, "
            "verified_starter, inspect_evals_strict.",
        ),
        (
            {"data_files": {"test": "x.csv"}},
            "simpleqa_verified: SimpleQA Verified has one split, 'eval': data_files must be a "
            "file or {'eval': file}, got the key(s) 'test'.",
        ),
        (
            {"judge_cache": "yes"},
            "simpleqa_verified: judge_cache must be true or false, got 'yes'.",
        ),
    ],
)
def test_bad_parameters_are_refused(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(TaskParameterError) as raised:
        simpleqa_verified(dataset_path=str(CSV), **arguments)
    assert str(raised.value) == message


def test_a_bad_grade_prompt_file_is_refused_before_any_call(tmp_path: Path) -> None:
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("Q: {question}\nGold: {target}\n", encoding="utf-8")
    with pytest.raises(TaskParameterError) as raised:
        simpleqa_verified(dataset_path=str(CSV), grade_prompt_file=str(prompt))
    assert str(raised.value) == (
        f"simpleqa_verified: grade_prompt_file {prompt} lacks the placeholder(s) "
        "{predicted_answer}."
    )
    missing = tmp_path / "nowhere.txt"
    with pytest.raises(TaskParameterError) as raised:
        simpleqa_verified(dataset_path=str(CSV), grade_prompt_file=str(missing))
    assert str(raised.value) == f"simpleqa_verified: grade_prompt_file {missing}: no such file."


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (
            "0,Q?,A,Art,Person,maybe,False,u\n",
            "line 2: field 'multi_step' should be true or false, got 'maybe'",
        ),
        (
            "x1,Q?,A,Art,Person,True,False,u\n",
            "line 2: field 'original_index' should be a non-negative integer, got 'x1'",
        ),
        ("0,Q?,,Art,Person,True,False,u\n", "line 2: field 'answer' is empty"),
    ],
)
def test_bad_rows_are_named(tmp_path: Path, row: str, message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(HEADER + row, encoding="utf-8")
    with pytest.raises(DataError) as raised:
        list(simpleqa_verified(dataset_path=str(path)).dataset)
    assert str(raised.value) == f"{path} (eval split), {message}"


def test_a_repeated_original_index_names_both_rows(tmp_path: Path) -> None:
    path = tmp_path / "repeat.csv"
    shutil.copy(CSV, path)
    with path.open("a", encoding="utf-8") as handle:  # line 15: a quoted field spans two
        handle.write("7,Another?,B,Art,Person,True,False,u\n")
    with pytest.raises(DataError) as raised:
        simpleqa_verified(dataset_path=str(path))
    assert str(raised.value) == (
        f"{path} (eval split), line 15: field 'original_index' '7' repeats line 7 "
        "(sample ids must be unique)."
    )


def test_a_missing_column_is_named(tmp_path: Path) -> None:
    path = tmp_path / "old.csv"
    path.write_text("original_index,problem,answer\n0,Q?,A\n", encoding="utf-8")
    with pytest.raises(DataError) as raised:
        simpleqa_verified(dataset_path=str(path))
    assert str(raised.value).startswith(
        f"{path} (eval split): missing column(s) 'topic', 'answer_type', 'multi_step', "
    )


def test_the_starter_configuration(tmp_path: Path) -> None:
    config = yaml.safe_load((ROOT / "configs" / "simpleqa_verified_starter.yaml").read_text())
    assert config["task"] == {
        "task": "benchmarks/simpleqa_verified",
        "args": {"profile": "kaggle_starter"},
    }
    # the judge is bound on the command line, as the file's header says: a model named in
    # the file would be built (and need its key) even when --model-role replaces it
    assert "model_roles" not in config
    header = (ROOT / "configs" / "simpleqa_verified_starter.yaml").read_text().split("\ntask:")[0]
    assert "--model-role grader=openai/gpt-4.1-2025-04-14" in header
    # the starter code sets no judge temperature or token limit: none is sent
    log = run(tmp_path, profile="kaggle_starter", num_examples=1)
    assert log.eval.metadata is not None and log.eval.metadata["grade_parse"] == "verified_starter"
    assert log.samples is not None
    (judge_event,) = [
        e for e in log.samples[0].events if e.event == "model" and e.model == "mockllm/grader"
    ]
    assert judge_event.config.temperature is None
    assert judge_event.config.system_message is None
