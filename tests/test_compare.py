"""benchmarks.compare on logs of real Inspect runs with scripted models on the fixtures.

Two scripted models of tests/test_examples.py answer the benchmarks whose fixture rows
they know (``FIXTURE_TASKS``): the "careful" one (right on 2 of 5 TriviaQA questions, 4 of
10 SimpleQA, all text-only ScienceQA rows) and the "guesser" (a fixed answer). The numbers
below follow from their replies; the statistics themselves are checked against oracles in
test_statistics.py. Every benchmark of the catalog is compared too, from folders of the
offline models' runs on its bundled sample: the tool's numbers are the ones Inspect
computed in the run.
"""

from __future__ import annotations

import functools
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import ChatMessage

from benchmarks.catalog import BENCHMARKS, specs
from benchmarks.compare import CompareError, Settings, compare_logs, describe_logs
from benchmarks.compare.statistics import newcombe_paired_interval, wilson_interval
from benchmarks.scienceqa import scienceqa
from benchmarks.simpleqa import simpleqa
from benchmarks.triviaqa import triviaqa
from benchmarks.winogrande import winogrande
from tests.scripted import last_user_text, scripted_model
from tests.test_examples import (
    SCIENCEQA_FILE,
    SIMPLEQA_CSV,
    TRIVIAQA_FILES,
    WINOGRANDE_FILE,
    assert_is_a_real_plot,
    careful_reply,
    guesser_reply,
    judge_reply,
)

REPO = Path(__file__).resolve().parent.parent
FAST = Settings(resamples=2000)
COMPARE_COLUMNS = [
    "task",
    "baseline",
    "candidate",
    "breakdown",
    "category",
    "metric",
    "n",
    "baseline_value",
    "candidate_value",
    "difference",
    "ci_low",
    "ci_high",
    "p_value",
    "p_holm",
    "method",
    "baseline_only",
    "candidate_only",
    "warning",
]


def fixture_tasks() -> list[Task]:
    """The tasks on the fixture rows the scripted models know (the numbers below are theirs)."""
    return [
        triviaqa(data_files=TRIVIAQA_FILES),
        simpleqa(dataset_path=SIMPLEQA_CSV),
        winogrande(data_files=WINOGRANDE_FILE),
        scienceqa(data_files=SCIENCEQA_FILE),
    ]


FIXTURE_TASKS = ("triviaqa", "simpleqa", "winogrande", "scienceqa")


def run(tasks: Task | list[Task], reply, name: str, log_dir: Path, **kwargs) -> list[EvalLog]:
    logs = eval(
        tasks,
        model=scripted_model(reply, name=name),
        model_roles={"grader": scripted_model(judge_reply, name="grader")},
        log_dir=str(log_dir),
        display="none",
        **kwargs,
    )
    assert all(log.status == "success" for log in logs), [str(log.error) for log in logs]
    return logs


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Folders of logs: each of ``FIXTURE_TASKS`` for each model."""
    root = tmp_path_factory.mktemp("compare")
    for name, reply in (("careful", careful_reply), ("guesser", guesser_reply)):
        logs = run(fixture_tasks(), reply, name, root / name)
        assert [log.eval.task.split("/")[-1] for log in logs] == list(FIXTURE_TASKS)
    return {"careful": root / "careful", "guesser": root / "guesser", "root": root}


def log_of(folder: Path, task: str) -> str:
    [path] = folder.glob(f"*_{task}_*.eval")
    return str(path)


def rows(frame, **where) -> list[dict]:
    selected = frame
    for key, value in where.items():
        selected = selected[selected[key] == value]
    return selected.to_dict("records")


def only_row(frame, **where) -> dict:
    [row] = rows(frame, **where)
    return row


@pytest.mark.slow
def test_triviaqa_paired_comparison(runs: dict[str, Path]) -> None:
    frame = compare_logs(
        [log_of(runs["careful"], "triviaqa"), log_of(runs["guesser"], "triviaqa")], settings=FAST
    )
    assert list(frame.columns) == COMPARE_COLUMNS
    exact = only_row(frame, metric="exact_match", breakdown="overall")
    # careful matches 2 of 5 questions, the guesser none: 2 discordant pairs, both the baseline's.
    assert (exact["baseline_value"], exact["candidate_value"]) == (0.4, 0.0)
    assert exact["difference"] == pytest.approx(-0.4)
    assert (exact["baseline_only"], exact["candidate_only"]) == (2, 0)
    assert exact["p_value"] == 0.5  # 2 x P(Binomial(2, 1/2) = 0)
    interval = newcombe_paired_interval(0, 0, 2, 3)
    assert (exact["ci_low"], exact["ci_high"]) == (interval.low, interval.high)
    assert (round(exact["ci_low"], 4), round(exact["ci_high"], 4)) == (-0.7693, 0.1182)
    assert exact["method"] == "newcombe+mcnemar_exact"
    assert exact["warning"] == "only 5 questions; only 2 discordant pairs (too few to tell)"
    f1 = only_row(frame, metric="f1", breakdown="overall")
    assert (f1["baseline_value"], f1["candidate_value"]) == pytest.approx((0.56, 0.16))
    assert f1["method"] == "bootstrap" and pd_isna(f1["baseline_only"])
    assert f1["ci_high"] <= 0.0 < 0.4 <= -f1["ci_low"]  # the two per-question -1s drive it
    # p ~ 2 P(neither -1 drawn) = 2 (3/5)^5 = 0.156; 0.035 is 3 standard errors at 2,000 draws
    assert abs(f1["p_value"] - 2 * (3 / 5) ** 5) < 0.035
    assert [r["category"] for r in rows(frame, breakdown="answer_type")] == ["WikipediaEntity"] * 2
    assert frame.attrs["pairing"] == [
        {
            "task": "triviaqa",
            "baseline": "mockllm/careful",
            "candidate": "mockllm/guesser",
            "paired": 5,
            "baseline_only": 0,
            "candidate_only": 0,
            "unscored_baseline": 0,
            "unscored_candidate": 0,
        }
    ]


def pd_isna(value) -> bool:
    import pandas as pd

    return bool(pd.isna(value))


def test_bootstrap_numbers_repeat_with_the_seed_and_move_with_another(runs) -> None:
    paths = [log_of(runs["careful"], "triviaqa"), log_of(runs["guesser"], "triviaqa")]
    first = compare_logs(paths, settings=FAST)
    again = compare_logs(paths, settings=FAST)
    other = compare_logs(paths, settings=Settings(resamples=2000, seed=1))
    assert first.equals(again)
    f1 = [only_row(f, metric="f1", breakdown="overall")["p_value"] for f in (first, other)]
    assert f1[0] != f1[1]


def test_simpleqa_ratios_and_categories(runs: dict[str, Path]) -> None:
    frame = compare_logs(
        [log_of(runs["careful"], "simpleqa"), log_of(runs["guesser"], "simpleqa")], settings=FAST
    )
    overall = {r["metric"]: r for r in rows(frame, breakdown="overall")}
    assert list(overall) == [
        "correct",
        "incorrect",
        "not_attempted",
        "attempted_accuracy",
        "f_score",
    ]
    # careful: 4 correct, 3 not attempted, 3 wrong of 10; the guesser: 10 wrong.
    assert overall["correct"]["p_value"] == 0.125  # b = 4, c = 0
    assert (overall["not_attempted"]["baseline_only"], overall["not_attempted"]["p_value"]) == (
        3,
        0.25,
    )
    assert overall["attempted_accuracy"]["baseline_value"] == pytest.approx(4 / 7)
    assert overall["attempted_accuracy"]["candidate_value"] == 0.0
    assert overall["f_score"]["baseline_value"] == pytest.approx(2 * 0.4 * (4 / 7) / (0.4 + 4 / 7))
    assert overall["attempted_accuracy"]["method"] == "bootstrap"
    topics = rows(frame, breakdown="topic", metric="correct")
    assert [(r["category"], r["n"], r["baseline_only"]) for r in topics] == [
        ("Geography", 1, 0),
        ("Politics", 4, 2),
        ("Science and technology", 2, 1),
        ("Sports", 2, 1),
        ("unknown", 1, 0),
    ]
    # Holm over the five topics: raw 1, 0.5, 1, 1, 1 -> 5 x 0.5 capped at 1.
    assert [r["p_value"] for r in topics] == [1.0, 0.5, 1.0, 1.0, 1.0]
    assert [r["p_holm"] for r in topics] == [1.0] * 5
    assert math.isnan(overall["correct"]["p_holm"])
    assert {r["metric"] for r in rows(frame, breakdown="answer_type")} == {
        "correct",
        "attempted_accuracy",
    }


def test_scienceqa_breakdowns(runs: dict[str, Path]) -> None:
    frame = compare_logs(
        [log_of(runs["careful"], "scienceqa"), log_of(runs["guesser"], "scienceqa")],
        settings=FAST,
    )
    table = {
        (r["breakdown"], r["category"]): (r["n"], r["baseline_value"], r["candidate_value"])
        for r in rows(frame)
    }
    assert table == {
        ("overall", "all"): (9, 5 / 9, 3 / 9),
        **SCIENCEQA_COLUMNS,
    }


# The paper's columns: (breakdown, column) -> (n, careful, guesser). Careful is right on the
# text-only rows 1 2 5 6 7, the guesser on rows 1 5 6; a question with a hint and an image
# (rows 0 3 8) counts in TXT and in IMG.
SCIENCEQA_COLUMNS = {
    ("paper_subject", "LAN"): (2, 1.0, 0.5),
    ("paper_subject", "NAT"): (6, 2 / 6, 2 / 6),
    ("paper_subject", "SOC"): (1, 1.0, 0.0),
    ("paper_context", "IMG"): (4, 0.0, 0.0),
    ("paper_context", "NO"): (3, 1.0, 1 / 3),
    ("paper_context", "TXT"): (5, 2 / 5, 2 / 5),
    ("paper_grade", "G1-6"): (5, 0.6, 0.4),
    ("paper_grade", "G7-12"): (4, 0.5, 0.25),
}


def test_one_log_gets_every_metric_with_its_interval(runs: dict[str, Path]) -> None:
    frame = describe_logs(log_of(runs["careful"], "simpleqa"), settings=FAST)
    correct = only_row(frame, metric="correct", breakdown="overall")
    wilson = wilson_interval(4, 10)
    assert (correct["value"], correct["ci_low"], correct["ci_high"]) == (
        0.4,
        wilson.low,
        wilson.high,
    )
    assert correct["method"] == "wilson"
    ratio = only_row(frame, metric="attempted_accuracy", breakdown="overall")
    assert ratio["method"] == "bootstrap" and ratio["ci_low"] <= 4 / 7 <= ratio["ci_high"]
    politics = only_row(frame, metric="correct", category="Politics")
    assert (politics["n"], politics["value"]) == (4, 0.5)
    assert politics["warning"] == "only 4 questions (too few to tell)"


def test_f1_is_bootstrapped_even_when_every_value_is_0_or_1(tmp_path: Path) -> None:
    """TriviaQA F1 is a mean of token F1s, not a proportion: its method does not depend on
    the data (the oracle's F1s are all 1.0)."""
    [log] = eval(triviaqa(bundled_sample=True), model="benchmarks/oracle", log_dir=str(tmp_path))
    assert log.location
    frame = describe_logs(log.location, settings=FAST)
    methods = {r["metric"]: r["method"] for r in rows(frame, breakdown="overall")}
    assert methods == {"exact_match": "wilson", "f1": "bootstrap"}


def test_folders_compare_task_by_task_and_more_logs_against_the_first(runs) -> None:
    frame = compare_logs([runs["careful"], runs["guesser"], runs["careful"]], settings=FAST)
    assert sorted(set(frame["task"])) == sorted(FIXTURE_TASKS)
    assert sorted(set(zip(frame["baseline"], frame["candidate"], strict=True))) == [
        ("mockllm/careful", "mockllm/careful"),
        ("mockllm/careful", "mockllm/guesser"),
    ]
    itself = rows(frame, candidate="mockllm/careful", breakdown="overall", metric="accuracy")
    assert [(r["task"], r["difference"], r["p_value"]) for r in itself] == [
        ("winogrande", 0.0, 1.0),
        ("scienceqa", 0.0, 1.0),
    ]


@pytest.fixture(scope="module")
def offline_folders(tmp_path_factory: pytest.TempPathFactory):
    """``folders(name)``: the folders of benchmark ``name``'s runs on its bundled sample by
    the oracle and the random model (the oracle grading), made on first use."""
    root = tmp_path_factory.mktemp("offline")

    @functools.cache
    def folders(name: str) -> tuple[Path, Path]:
        spec = specs()[name]
        made = []
        for model in ("benchmarks/oracle", "benchmarks/random"):
            folder = root / name / model.split("/")[1]
            [log] = eval(
                spec.task(bundled_sample=True),
                model=model,
                model_roles={"grader": "benchmarks/oracle"} if spec.judged else None,
                log_dir=str(folder),
                display="none",
            )
            assert log.status == "success", log.error
            made.append(folder)
        return made[0], made[1]

    return folders


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_benchmark_compares_from_folders_as_inspect_scored_it(
    name: str, offline_folders
) -> None:
    spec = specs()[name]
    oracle, random = offline_folders(name)
    frame = compare_logs([oracle, random], settings=FAST)
    assert set(frame["task"]) == {name}
    overall = rows(frame, breakdown="overall")
    assert sorted(r["metric"] for r in overall) == sorted(m.name for m in spec.compare_metrics)
    questions = len(spec.task(bundled_sample=True).dataset)
    assert {r["n"] for r in overall} == {questions}
    # each metric Inspect computed in the run too has the same value here, for both models
    for folder, column in ((oracle, "baseline_value"), (random, "candidate_value")):
        [path] = folder.glob("*.eval")
        results = read_eval_log(str(path), header_only=True).results
        assert results is not None
        computed = results.scores[0].metrics
        shared = [r for r in overall if r["metric"] in computed]
        assert shared, (name, sorted(computed))
        for r in shared:
            assert r[column] == pytest.approx(computed[r["metric"]].value), (column, r["metric"])


def test_epochs_average_per_question(tmp_path: Path, runs: dict[str, Path]) -> None:
    calls: dict[str, int] = {}

    def flip_flop(messages: list[ChatMessage]) -> str:
        text = last_user_text(messages)
        calls[text] = calls.get(text, 0) + 1
        return "ANSWER: A" if calls[text] % 2 else "ANSWER: B"

    [log] = run(winogrande(data_files=WINOGRANDE_FILE), flip_flop, "flipflop", tmp_path, epochs=2)
    frame = compare_logs([log_of(runs["careful"], "winogrande"), log.location], settings=FAST)
    accuracy = only_row(frame, metric="accuracy")
    # every question right in one epoch of two: mean 0.5, not binary, so bootstrapped
    assert (accuracy["baseline_value"], accuracy["candidate_value"]) == (1.0, 0.5)
    assert accuracy["method"] == "bootstrap"
    assert (accuracy["ci_low"], accuracy["ci_high"]) == (-0.5, -0.5)
    assert accuracy["p_value"] == pytest.approx(2 / 2001)
    assert any("2 epochs; each question scores the mean" in note for note in frame.attrs["notes"])


def test_errored_and_missing_questions_are_counted_not_dropped(tmp_path: Path, runs) -> None:
    def fails_on_one(messages: list[ChatMessage]) -> str:
        if "Boston Marathon" in last_user_text(messages).rsplit("Question: ", 1)[-1]:
            raise RuntimeError("scripted failure")
        return careful_reply(messages)

    [failed] = run(
        triviaqa(data_files=TRIVIAQA_FILES), fails_on_one, "flaky", tmp_path, fail_on_error=False
    )
    [short] = run(triviaqa(data_files=TRIVIAQA_FILES), guesser_reply, "short", tmp_path, limit=3)
    frame = compare_logs([failed.location, short.location], settings=FAST)
    assert only_row(frame, metric="exact_match", breakdown="overall")["n"] == 3
    [pairing] = frame.attrs["pairing"]
    assert pairing == {
        "task": "triviaqa",
        "baseline": "mockllm/flaky",
        "candidate": "mockllm/short",
        "paired": 3,
        "baseline_only": 2,
        "candidate_only": 0,
        "unscored_baseline": 0,
        "unscored_candidate": 0,
    }
    failed_name, short_name = Path(failed.location).name, Path(short.location).name
    assert (
        f"triviaqa: 3 questions paired ({failed_name} vs {short_name}); left out of every "
        f"number: 2 only in {failed_name}." in frame.attrs["notes"]
    )
    errored = [i for i, s in enumerate(failed.samples or []) if s.error]
    assert len(errored) == 1
    assert (
        f"{failed_name}: 1 question(s) with an error or without a score in some epoch, "
        f"left out: {failed.samples[errored[0]].id}." in frame.attrs["notes"]
    )


def test_same_data_spelled_differently_compares(tmp_path: Path, runs) -> None:
    [spelled] = run(
        winogrande(data_files={"validation": WINOGRANDE_FILE}), guesser_reply, "g", tmp_path
    )
    frame = compare_logs([log_of(runs["careful"], "winogrande"), spelled.location], settings=FAST)
    assert only_row(frame, metric="accuracy")["n"] == 5


def refusal(paths: list[str]) -> str:
    with pytest.raises(CompareError) as caught:
        compare_logs(paths, settings=FAST)
    return str(caught.value)


def test_refuses_different_scoring_or_prompt_parameters(tmp_path: Path, runs) -> None:
    [zero_shot] = run(triviaqa(data_files=TRIVIAQA_FILES, shots=0), guesser_reply, "g", tmp_path)
    careful = log_of(runs["careful"], "triviaqa")
    assert refusal([careful, zero_shot.location]) == (
        f"cannot compare {careful} with {zero_shot.location}: task argument 'shots' differs "
        f"(5 in {Path(careful).name}, 0 in {Path(zero_shot.location).name}); a different "
        f"shots asks or scores otherwise: rerun {Path(zero_shot.location).name}'s model with "
        "-T shots=5, or compare each log with one of its own shots."
    )
    [parse] = run(
        winogrande(data_files=WINOGRANDE_FILE, answer_parse="evalscope"),
        guesser_reply,
        "g",
        tmp_path,
    )
    assert "task argument 'answer_parse' differs ('answer_marker' in" in refusal(
        [log_of(runs["careful"], "winogrande"), parse.location]
    )


def test_refuses_another_task_and_another_dataset(tmp_path: Path, runs) -> None:
    careful = log_of(runs["careful"], "triviaqa")
    winogrande_log = log_of(runs["guesser"], "winogrande")
    assert refusal([careful, winogrande_log]).startswith(
        f"cannot compare {careful} with {winogrande_log}: the task differs "
        "('benchmarks/triviaqa' in"
    )
    # Same file name and ids, answers flipped: another dataset.
    flipped = tmp_path / "validation.jsonl"
    lines = Path(WINOGRANDE_FILE).read_text().splitlines()
    records = [json.loads(line) for line in lines]
    for record in records:
        record["answer"] = "2" if record["answer"] == "1" else "1"
    flipped.write_text("".join(json.dumps(r) + "\n" for r in records))
    [other] = run(winogrande(data_files=str(flipped)), guesser_reply, "g", tmp_path)
    message = refusal([log_of(runs["careful"], "winogrande"), other.location])
    assert message.endswith(
        "5 shared sample id(s) have different targets (first: "
        "validation_0: 'B' vs 'A'); not the same dataset: pass logs run on the same data."
    )


def test_refuses_bad_input(tmp_path: Path, runs) -> None:
    missing = str(tmp_path / "nowhere.eval")
    assert refusal([missing, missing]) == f"{missing}: no such file or directory."
    empty_folder = tmp_path / "empty"
    empty_folder.mkdir()
    assert refusal([str(empty_folder), missing]) == (
        f"{empty_folder}: the folder holds no Inspect log (.eval or .json)."
    )
    not_a_log = tmp_path / "notes.json"
    not_a_log.write_text("{}")
    assert refusal([str(not_a_log), missing]).startswith(f"{not_a_log}: not a readable Inspect log")
    # A log with no samples.
    log = read_eval_log(log_of(runs["careful"], "winogrande"))
    log.samples = []
    hollow = tmp_path / "hollow.eval"
    write_eval_log(log, str(hollow))
    assert refusal([str(hollow), log_of(runs["guesser"], "winogrande")]) == (
        f"{hollow}: the log holds no samples."
    )
    # A log of a task the table does not know.
    log.eval.task = "mystery"
    stranger = tmp_path / "stranger.eval"
    write_eval_log(log, str(stranger))
    assert refusal([str(stranger), str(stranger)]).startswith(
        f"{stranger}: task 'mystery' is not one this tool knows ({', '.join(specs())})"
    )
    with pytest.raises(CompareError, match="no score named 'nope'"):
        describe_logs(log_of(runs["careful"], "winogrande"), scorer="nope")
    # A score value without the task's keys.
    trivia = read_eval_log(log_of(runs["careful"], "triviaqa"))
    first = (trivia.samples or [])[0]
    (first.scores or {})["triviaqa_scorer"].value = {"exact_match": 1.0}
    truncated = tmp_path / "truncated.eval"
    write_eval_log(trivia, str(truncated))
    with pytest.raises(CompareError) as caught:
        describe_logs(truncated)
    assert str(caught.value) == (
        f"{truncated}, sample {first.id} (epoch 1): score value {{'exact_match': 1.0}} lacks "
        "the keys exact_match, f1 of triviaqa_scorer."
    )


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.compare", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_cli_prints_a_table_and_other_formats(runs: dict[str, Path], tmp_path: Path) -> None:
    paths = [log_of(runs["careful"], "triviaqa"), log_of(runs["guesser"], "triviaqa")]
    text = cli(*paths, "--resamples", "500")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert "== triviaqa: mockllm/guesser vs mockllm/careful (baseline) ==" in lines
    assert max(len(line) for line in lines) <= 100
    row = next(line for line in lines if line.strip().startswith("all"))
    assert row.split()[:6] == ["all", "5", "0.400", "0.000", "-0.400", "[-0.769,"]
    assert row.split()[7:10] == ["0.500", "-", "2/0"]

    as_json = json.loads(cli(*paths, "--format", "json", "--resamples", "500").stdout)
    assert as_json["pairing"][0]["paired"] == 5
    assert as_json["rows"][0]["p_holm"] is None and as_json["rows"][0]["baseline_only"] == 2
    csv_text = cli(*paths, "--format", "csv", "--resamples", "500").stdout
    assert csv_text.splitlines()[0] == ",".join(COMPARE_COLUMNS)
    markdown = cli(*paths, "--format", "markdown", "--resamples", "500").stdout
    assert markdown.startswith("| " + " | ".join(COMPARE_COLUMNS) + " |")

    plot = tmp_path / "forest.png"
    drawn = cli(*paths, "--resamples", "500", "--plot", str(plot))
    assert drawn.returncode == 0 and f"Wrote {plot}" in drawn.stderr
    assert_is_a_real_plot(plot)


@pytest.mark.slow
def test_cli_errors_are_one_line_without_traceback(runs: dict[str, Path], tmp_path) -> None:
    result = cli(str(tmp_path / "missing.eval"), log_of(runs["careful"], "triviaqa"))
    assert result.returncode == 2
    assert result.stderr == f"error: {tmp_path / 'missing.eval'}: no such file or directory.\n"
    assert result.stdout == ""
    bad = cli(log_of(runs["careful"], "triviaqa"), "--resamples", "0")
    assert bad.returncode == 2 and "must be a positive integer, got '0'" in bad.stderr


def test_missing_optional_packages_name_their_extra(monkeypatch: pytest.MonkeyPatch, runs) -> None:
    from benchmarks.compare.api import pandas
    from benchmarks.compare.plot import forest_plot

    frame = describe_logs(log_of(runs["careful"], "winogrande"), settings=FAST)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(CompareError) as plot_error:
        forest_plot(frame, "unused.png", kind="describe")
    assert str(plot_error.value) == 'the forest plot needs matplotlib: pip install -e ".[plots]"'
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(CompareError) as pandas_error:
        pandas()
    assert str(pandas_error.value) == 'benchmarks.compare needs pandas: pip install -e ".[compare]"'


def test_numbers_do_not_depend_on_the_order_or_format_of_the_log(tmp_path: Path, runs) -> None:
    careful = log_of(runs["careful"], "triviaqa")
    reordered = read_eval_log(careful)
    reordered.samples = list(reversed(reordered.samples or []))
    as_json = tmp_path / "careful.json"
    write_eval_log(reordered, str(as_json))
    guesser = log_of(runs["guesser"], "triviaqa")
    original = compare_logs([careful, guesser], settings=FAST)
    assert original.equals(compare_logs([str(as_json), guesser], settings=FAST))


def verified_oracle_and_random(tmp_path: Path) -> tuple[str, str]:
    """Logs of SimpleQA Verified's bundled rows answered by the oracle and by the random
    baseline, both graded by the oracle."""
    from benchmarks.simpleqa_verified import simpleqa_verified

    locations = []
    for model in ("oracle", "random"):
        [log] = eval(
            simpleqa_verified(bundled_sample=True),
            model=f"benchmarks/{model}",
            model_roles={"grader": "benchmarks/oracle"},
            log_dir=str(tmp_path / model),
            display="none",
        )
        assert log.location
        locations.append(log.location)
    return locations[0], locations[1]


def test_simpleqa_verified_breaks_down_by_its_four_fields(tmp_path: Path) -> None:
    """The oracle (every bundled answer right) against the random baseline (1 of 20 right
    by chance: a bundled answer that happens to fit), both graded by the oracle."""
    frame = compare_logs(list(verified_oracle_and_random(tmp_path)), settings=FAST)
    overall = only_row(frame, breakdown="overall", metric="correct")
    assert (overall["n"], overall["baseline_value"]) == (20, 1.0)
    assert overall["baseline_only"] == 20 - round(overall["candidate_value"] * 20)
    breakdowns = set(frame["breakdown"]) - {"overall"}
    assert breakdowns == {"topic", "answer_type", "multi_step", "requires_reasoning"}
    assert [
        (r["category"], r["n"]) for r in rows(frame, breakdown="multi_step", metric="correct")
    ] == [
        ("False", 10),
        ("True", 10),
    ]


def _simpleqa_log(tmp_path: Path, name: str, grader: str, **task_args: object) -> str:
    [log] = eval(
        simpleqa(bundled_sample=True, **task_args),  # type: ignore[arg-type]
        model="benchmarks/oracle",
        model_roles={"grader": grader},
        log_dir=str(tmp_path / name),
        display="none",
    )
    assert log.location
    return log.location


@pytest.mark.slow
def test_refuses_logs_graded_by_different_judges(tmp_path: Path) -> None:
    """The same answers graded by two judges differ by the judges, not the models."""
    oracle_judged = _simpleqa_log(tmp_path, "a", "benchmarks/oracle")
    random_judged = _simpleqa_log(tmp_path, "b", "benchmarks/random")
    with pytest.raises(CompareError) as raised:
        compare_logs([oracle_judged, random_judged], settings=FAST)
    assert "they were graded by different judges (benchmarks/oracle in " in str(raised.value)
    assert "measure the judges with --judges." in str(raised.value)


def test_reporting_switches_do_not_make_logs_incomparable(tmp_path: Path) -> None:
    with_topics = _simpleqa_log(tmp_path, "a", "benchmarks/oracle", breakdowns=True)
    without = _simpleqa_log(tmp_path, "b", "benchmarks/oracle", breakdowns=False, judge_cache=False)
    frame = compare_logs([with_topics, without], settings=FAST)
    assert only_row(frame, breakdown="overall", metric="correct")["n"] == 30


def test_a_task_missing_from_the_candidate_is_noted(runs: dict[str, Path], tmp_path: Path) -> None:
    only_winogrande = tmp_path / "only"
    only_winogrande.mkdir()
    source = Path(log_of(runs["guesser"], "winogrande"))
    (only_winogrande / source.name).write_bytes(source.read_bytes())
    frame = compare_logs([runs["careful"], only_winogrande], settings=FAST)
    assert set(frame["task"]) == {"winogrande"}
    missing = sorted(n for n in frame.attrs["notes"] if "to compare with the baseline" in n)
    assert missing == [
        f"{only_winogrande}: no log of task {task} to compare with the baseline's."
        for task in sorted(set(FIXTURE_TASKS) - {"winogrande"})
    ]


@pytest.mark.parametrize(
    ("plot", "message"),
    [
        ("out.xyz", "argument --plot: must be a .png file, got 'out.xyz'"),
        ("missing-folder/out.png", "argument --plot: 'missing-folder' is not an existing folder"),
    ],
)
def test_a_bad_plot_path_is_refused_before_reading(runs, tmp_path: Path, plot, message) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.compare", str(runs["careful"]), "--plot", plot],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip().endswith(message)
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_loglikelihood_logs_compare_on_their_own_scorer(tmp_path: Path) -> None:
    logs = []
    for model in ("benchmarks/oracle", "benchmarks/random"):
        [log] = eval(
            winogrande(profile="lm_eval_0.4.13", bundled_sample=True),
            model=model,
            log_dir=str(tmp_path / model.split("/")[1]),
            display="none",
        )
        assert log.status == "success"
        logs.append(log.location)
    frame = compare_logs(logs, settings=FAST)
    row = only_row(frame, metric="accuracy", breakdown="overall")
    samples = read_eval_log(logs[1]).samples or []
    wrong = sum(sample.scores["loglikelihood_choice"].value != "C" for sample in samples)  # type: ignore[index]
    assert 0 < wrong < 40
    assert (row["baseline_value"], row["n"]) == (1.0, 40)
    assert row["candidate_value"] == pytest.approx(1 - wrong / 40)
    assert (row["baseline_only"], row["candidate_only"]) == (wrong, 0)


def as_former_version(
    path: str,
    version: str,
    tmp_path: Path,
    old_id=str,
    dropped: tuple[str, ...] = (),
    old_args: dict[str, object] | None = None,
) -> str:
    """The log at ``path`` as an earlier task version wrote it: its version, its ids, without
    the task arguments ``dropped`` (added since) and with ``old_args`` recorded as it
    recorded them (none of these in the task's metadata)."""
    log = read_eval_log(path)
    log.eval.task_version = version
    for name in dropped:
        del log.eval.task_args[name]
    log.eval.task_args.update(old_args or {})
    for name in (*dropped, *(old_args or {})):
        (log.eval.metadata or {}).pop(name, None)
    for sample in log.samples or []:
        sample.id = old_id(sample.id)
    for summary in log.reductions or []:
        for reduced in summary.samples:
            reduced.sample_id = old_id(reduced.sample_id)
    written = tmp_path / f"former-{version}-{Path(path).name}"
    write_eval_log(log, str(written))
    return str(written)


def two_logs(task: str, runs: dict[str, Path], tmp_path: Path) -> tuple[str, str]:
    if task != "simpleqa_verified":
        return log_of(runs["careful"], task), log_of(runs["guesser"], task)
    return verified_oracle_and_random(tmp_path)


@pytest.mark.parametrize(
    ("task", "version", "old_id", "dropped", "old_args"),
    [
        (
            "winogrande",
            "1.2.0",
            lambda i: f"winogrande_xl_{i}",
            ("prompt_format", "fewshot_draw"),
            {},
        ),
        ("scienceqa", "1.1.0", lambda i: f"scienceqa_{i}", (), {}),
        ("simpleqa", "1.2.0", str, ("grader_prompt",), {}),
        # values renamed since: read under their new names
        ("simpleqa", "1.4.0", str, (), {"profile": "paper"}),
        # topic metrics named accuracy[Art] (compare recomputes them from the samples)
        ("simpleqa", "1.3.0", str, (), {"profile": "paper"}),
        ("triviaqa", "1.5.0", str, (), {"prompt_format": "default"}),
        ("scienceqa", "1.3.0", str, (), {"prompt_format": "default"}),
        (
            "simpleqa_verified",
            "1.2.0",
            str,
            (),
            {
                "grader_prompt": "simple_evals",
                "grader_temperature": None,
                "grader_max_tokens": None,
            },
        ),
    ],
)
def test_logs_of_the_versions_before_pair_with_new_ones(
    task: str, version: str, old_id, dropped, old_args, tmp_path: Path, runs
) -> None:
    """A former version's log (its ids, its recorded arguments) compares with a new one."""
    baseline, candidate = two_logs(task, runs, tmp_path)
    former = as_former_version(candidate, version, tmp_path, old_id, dropped, old_args)
    now = compare_logs([baseline, candidate], settings=FAST)
    across = compare_logs([baseline, former], settings=FAST)
    assert across.attrs["pairing"][0]["paired"] == now.attrs["pairing"][0]["paired"] > 0
    assert across.drop(columns=["candidate"], errors="ignore").equals(
        now.drop(columns=["candidate"], errors="ignore")
    )
    # a version that changed more than that is still refused
    older = as_former_version(candidate, "1.0.0", tmp_path, old_id, dropped, old_args)
    message = refusal([baseline, older])
    assert "the task version differs (" in message and f"'1.0.0' in {Path(older).name})" in message


def as_scienceqa_before_paper_columns(path: str, version: str, tmp_path: Path, old_id=str) -> str:
    """A ScienceQA log as 1.2.0 and earlier wrote it: the exclusive ``context_type`` (IMG,
    else TXT, else NO) and ``grade_band`` in the sample metadata, no paper columns."""
    log = read_eval_log(as_former_version(path, version, tmp_path, old_id))
    for sample in log.samples or []:
        metadata = {k: v for k, v in sample.metadata.items() if not k.startswith("paper_")}
        has_image, has_hint = metadata["has_image"], metadata["has_hint"]
        metadata["context_type"] = "IMG" if has_image else "TXT" if has_hint else "NO"
        metadata["grade_band"] = "G1-6" if int(metadata["grade"][5:]) <= 6 else "G7-12"
        sample.metadata = metadata
    written = tmp_path / f"old-metadata-{version}-{Path(path).name}"
    write_eval_log(log, str(written))
    return str(written)


@pytest.mark.parametrize(
    ("version", "old_id"), [("1.2.0", str), ("1.1.0", lambda i: f"scienceqa_{i}")]
)
def test_scienceqa_logs_before_the_paper_columns_read_under_them(
    version: str, old_id, tmp_path: Path, runs: dict[str, Path]
) -> None:
    careful = as_scienceqa_before_paper_columns(
        log_of(runs["careful"], "scienceqa"), version, tmp_path, old_id
    )
    guesser = log_of(runs["guesser"], "scienceqa")
    old_sample = read_eval_log(careful).samples[0]  # type: ignore[index]
    assert "paper_context" not in old_sample.metadata and "context_type" in old_sample.metadata
    frame = compare_logs([careful, guesser], settings=FAST)
    table = {
        (r["breakdown"], r["category"]): (r["n"], r["baseline_value"], r["candidate_value"])
        for r in rows(frame)
        if r["breakdown"] != "overall"
    }
    assert table == SCIENCEQA_COLUMNS
    now = compare_logs([log_of(runs["careful"], "scienceqa"), guesser], settings=FAST)
    assert frame.drop(columns=["baseline"]).equals(now.drop(columns=["baseline"]))
    # both logs of the former version: read the same
    both = compare_logs(
        [careful, as_scienceqa_before_paper_columns(guesser, version, tmp_path, old_id)],
        settings=FAST,
    )
    assert both.drop(columns=["baseline", "candidate"]).equals(
        now.drop(columns=["baseline", "candidate"])
    )


def test_former_ids_lead_to_the_version_every_profile_runs() -> None:
    for spec in specs().values():
        if spec.former_versions is not None:
            versions = {spec.task(profile=p, bundled_sample=True).version for p in spec.profiles}
            assert versions == {spec.version}, spec.name


def test_the_command_line_help_reads_as_written() -> None:
    from benchmarks.compare.__main__ import parser

    text = parser().format_help()
    assert "paired differences with 95% intervals" in " ".join(text.split())
    assert "%%" not in text


@pytest.mark.parametrize("task", ["triviaqa", "winogrande", "scienceqa"])
def test_logs_from_before_the_shard_argument_pair_with_new_ones(
    task: str, tmp_path: Path, runs
) -> None:
    """A log written before tasks took ``shard`` (the same task version, no ``shard`` among
    its arguments) compares with a new one, which records ``shard: None``."""
    baseline, candidate = two_logs(task, runs, tmp_path)
    version = str(read_eval_log(candidate, header_only=True).eval.task_version)
    before = as_former_version(candidate, version, tmp_path, dropped=("shard",))
    now = compare_logs([baseline, candidate], settings=FAST)
    across = compare_logs([baseline, before], settings=FAST)
    assert across.drop(columns=["candidate"], errors="ignore").equals(
        now.drop(columns=["candidate"], errors="ignore")
    )


def test_logs_of_two_profiles_are_refused_naming_the_profile_to_rerun_with(
    tmp_path: Path,
) -> None:
    logs = {}
    for profile in ("default", "evalscope_1.14.1"):
        (log,) = eval(
            winogrande(profile=profile, bundled_sample=True, num_examples=4),
            model="benchmarks/oracle",
            log_dir=str(tmp_path / profile),
            display="none",
        )
        logs[profile] = log.location
    with pytest.raises(CompareError) as raised:
        compare_logs([logs["default"], logs["evalscope_1.14.1"]], settings=Settings(resamples=10))
    first, second = (Path(logs[p]).name for p in ("default", "evalscope_1.14.1"))
    assert str(raised.value).endswith(
        f": task argument 'profile' differs ('default' in {first}, 'evalscope_1.14.1' in "
        f"{second}); a different profile asks or scores otherwise: rerun {second}'s model with "
        "-T profile=default, or compare each log with one of its own profile."
    ), str(raised.value)
