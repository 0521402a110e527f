"""The examples run offline: the log analysis draws its plots, the quickstart notebook executes.

Every benchmark of the catalog is run on its bundled sample with the offline models
(benchmarks/oracle, benchmarks/random): the analysis reads each run, draws the plot it
has for the benchmark (if any) and shows the oracle's full marks and the random model's
pinned score (``RANDOM_RIGHT`` of ``tests/<name>/conformance.py``). Scripted models on
the fixture rows give the tables of TriviaQA, SimpleQA, SimpleQA Verified and ScienceQA
exact numbers; the PNGs are opened with Pillow. The notebook runs in a fresh kernel of
this interpreter with its parameters cell replaced (scripted models, fixture files,
temporary folders).
"""

from __future__ import annotations

import csv
import functools
import importlib.util
import json
import re
import subprocess
import sys
import textwrap
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest
from inspect_ai import eval
from inspect_ai.model import ChatMessage, ContentImage
from PIL import Image

from benchmarks.catalog import BENCHMARKS, specs
from benchmarks.scienceqa import scienceqa
from benchmarks.simpleqa import simpleqa
from benchmarks.simpleqa_verified import simpleqa_verified
from benchmarks.triviaqa import triviaqa
from tests.conformance_pins import pinned
from tests.scripted import last_user_text, scripted_model

pytestmark = pytest.mark.slow  # every test runs the examples end to end

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
TRIVIAQA_FILES = {
    "validation": str(FIXTURES / "triviaqa" / "validation.jsonl"),
    "train": str(FIXTURES / "triviaqa" / "train.jsonl"),
}
SIMPLEQA_CSV = str(FIXTURES / "simpleqa" / "simple_qa_test_set.sample.csv")
SIMPLEQA_VERIFIED_CSV = str(FIXTURES / "simpleqa_verified" / "simpleqa_verified.sample.csv")
WINOGRANDE_FILE = str(FIXTURES / "winogrande" / "validation.jsonl")
SCIENCEQA_FILE = str(FIXTURES / "scienceqa" / "test_rows.hf.parquet")

# TriviaQA (last question of the prompt -> reply): two exact matches, one partial
# match ("New York" against "new york yankees": F1 0.8), two misses.
TRIVIAQA_CAREFUL = {
    "Lloyd Webber": "Sunset Blvd.",
    "Lou Gehrig": "Cal Ripken",
    "World Series": "New York",
    "Pearl Pickler": "Potato",
    "Boston Marathon": "I don't know",
}
NOT_ATTEMPTED_REPLY = "I don't know"
WRONG_REPLY = "Paris"
OFFLINE_MODELS = ("benchmarks/oracle", "benchmarks/random")


def load_analysis() -> ModuleType:
    spec = importlib.util.spec_from_file_location("analyze_logs", EXAMPLES / "analyze_logs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


analysis = load_analysis()


# --- what the analysis makes of each benchmark ------------------------------------

# A table the analysis computes for one benchmark, the column that counts a question as
# right, and the rows whose ``n`` add up to the questions (each question in one of them).
PerQuestion = tuple[Callable[[pd.DataFrame], pd.DataFrame], str, Callable[[pd.DataFrame], Any]]


def every_row(table: pd.DataFrame) -> pd.Series:
    return pd.Series(True, index=table.index)


def analysis_plot(name: str) -> str | None:
    """The plot the analysis draws of benchmark ``name`` (None: it has none)."""
    if specs()[name].judged:
        return f"{name}_outcomes.png"
    return {"scienceqa": analysis.SCIENCEQA_FILE, "triviaqa": analysis.TRIVIAQA_FILE}.get(name)


def analysis_table(name: str) -> PerQuestion | None:
    """The table behind that plot (None: no plot)."""
    if specs()[name].judged:
        return (
            functools.partial(analysis.simpleqa_outcome_table, benchmark=name),
            "correct",
            every_row,
        )
    return {
        "triviaqa": (analysis.triviaqa_match_table, "exact_match", every_row),
        "scienceqa": (  # every question has one subject
            analysis.scienceqa_accuracy_table,
            "accuracy",
            lambda table: table["breakdown"] == "paper_subject",
        ),
    }.get(name)


PLOTS = {name: plot for name in BENCHMARKS if (plot := analysis_plot(name)) is not None}


@pytest.fixture(scope="module")
def offline_logs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``logs(name)``: the folder of benchmark ``name``'s runs on its bundled sample by the
    oracle and the random model (the oracle grading), made on first use, under one root."""
    root = tmp_path_factory.mktemp("offline")

    @functools.cache
    def logs(name: str) -> Path:
        spec = specs()[name]
        logs = eval(
            spec.task(bundled_sample=True),
            model=list(OFFLINE_MODELS),
            model_roles={"grader": "benchmarks/oracle"} if spec.judged else None,
            log_dir=str(root / name),
            display="none",
        )
        assert [log.status for log in logs] == ["success"] * 2, [str(log.error) for log in logs]
        return root / name

    return logs


@pytest.mark.parametrize("name", BENCHMARKS)
def test_the_analysis_reads_every_benchmark(
    name: str,
    offline_logs: Callable[[str], Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    samples = analysis.load_samples(offline_logs(name))
    questions = len(specs()[name].task(bundled_sample=True).dataset)
    assert samples.groupby(["benchmark", "model"]).size().to_dict() == {
        (name, model): questions for model in OFFLINE_MODELS
    }
    assert samples[analysis.score_column(name)].notna().all()

    written = analysis.plot_all(samples, tmp_path)
    assert [path.name for path in written] == ([PLOTS[name]] if name in PLOTS else [])
    for path in written:
        assert_is_a_real_plot(path)
    out = capsys.readouterr().out
    for other, plot in PLOTS.items():
        if other != name:
            assert f"No {specs()[other].title} run in the logs: {plot} not written." in out

    per_question = analysis_table(name)
    if per_question is None:
        return
    table_of, right_column, rows_of_questions = per_question
    right, pinned_questions = pinned(
        name, "RANDOM_RIGHT", "(questions benchmarks/random gets right at seed 0, questions)"
    )
    table = table_of(samples)
    table = table[rows_of_questions(table)]
    for model, share in (("benchmarks/oracle", 1.0), ("benchmarks/random", right / questions)):
        of_model = table[table["model"] == model]
        assert of_model["n"].sum() == questions == pinned_questions, (model, of_model)
        right_share = (of_model[right_column] * of_model["n"]).sum() / questions
        assert right_share == pytest.approx(share), (model, of_model)


def test_the_analysis_script_draws_every_plot(
    offline_logs: Callable[[str], Path], tmp_path: Path
) -> None:
    root = {offline_logs(name).parent for name in BENCHMARKS}.pop()
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / "analyze_logs.py"), str(root), str(tmp_path / "plots")],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in (tmp_path / "plots").iterdir()) == sorted(PLOTS.values())
    for plot in PLOTS.values():
        assert f"Wrote {tmp_path / 'plots' / plot}" in result.stdout
        assert_is_a_real_plot(tmp_path / "plots" / plot)
    assert "No " not in result.stdout and "older run" not in result.stdout, result.stdout


# --- exact numbers from scripted models -----------------------------------------


@functools.cache
def open_questions(path: str) -> tuple[tuple[str, str], ...]:
    """(problem, answer) of each row of a SimpleQA-style CSV fixture."""
    with open(path, encoding="utf-8", newline="") as handle:
        return tuple((row["problem"], row["answer"]) for row in csv.DictReader(handle))


@functools.cache
def scienceqa_text_answers() -> dict[str, str]:
    """Question -> answer letter, for the fixture rows without an image."""
    rows = pq.read_table(SCIENCEQA_FILE, columns=["question", "answer", "image"]).to_pylist()
    return {row["question"]: "ABCDE"[row["answer"]] for row in rows if row["image"] is None}


def has_image(messages: list[ChatMessage]) -> bool:
    return any(
        isinstance(part, ContentImage)
        for message in messages
        if not isinstance(message.content, str)
        for part in message.content
    )


def careful_reply(
    messages: list[ChatMessage], questions: tuple[tuple[str, str], ...] | None = None
) -> str:
    """A text-only 'model': right on text-only ScienceQA rows, 'A' on image rows; row i of
    the open questions (SimpleQA's fixture unless ``questions`` given) answered right
    (i % 3 == 0), not attempted (1) or wrong (2). tests/test_compare.py runs it on every
    benchmark of its logs, Winogrande too."""
    text = last_user_text(messages)
    if "'ANSWER: [LETTER]'" in text:  # Winogrande
        return "ANSWER: " + "AB"[zlib.crc32(text.encode()) % 2]
    if "Answer with the option letter" in text:  # ScienceQA
        if has_image(messages):
            return "A"
        return next(letter for q, letter in scienceqa_text_answers().items() if q in text)
    if text.endswith("Answer:"):  # TriviaQA: only the last question counts
        question = text.rsplit("Question: ", 1)[-1]
        return next(reply for key, reply in TRIVIAQA_CAREFUL.items() if key in question)
    for index, (problem, answer) in enumerate(questions or open_questions(SIMPLEQA_CSV)):
        if text == problem:
            return (answer, NOT_ATTEMPTED_REPLY, WRONG_REPLY)[index % 3]
    raise AssertionError(f"unexpected prompt: {text[:200]!r}")


def guesser_reply(messages: list[ChatMessage]) -> str:
    text = last_user_text(messages)
    if "'ANSWER: [LETTER]'" in text:
        return "ANSWER: A"
    if "Answer with the option letter" in text:
        return "A"
    if text.endswith("Answer:"):
        return "New York"
    return WRONG_REPLY


def judge_reply(messages: list[ChatMessage]) -> str:
    """Grades the last 'Gold target' / 'Predicted answer' pair of the grader prompt."""
    gold, predicted = re.findall(
        r"Gold target: (.*)\nPredicted answer: (.*)\n", last_user_text(messages)
    )[-1]
    if predicted == NOT_ATTEMPTED_REPLY:
        return "C"
    return "A" if predicted.strip() == gold.strip() else "B"


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("logs")
    # An older TriviaQA run of the same model, which the analysis must ignore.
    [stale] = eval(
        triviaqa(data_files=TRIVIAQA_FILES),
        model=scripted_model(lambda _: "Potato", name="careful"),
        log_dir=str(directory),
        display="none",
    )
    assert stale.status == "success"
    time.sleep(1.1)  # log creation times have whole seconds
    grader = {"grader": scripted_model(judge_reply, name="grader")}
    logs = []
    # each file of open questions with the careful model that knows its row numbers
    for tasks, questions in (
        ([triviaqa(data_files=TRIVIAQA_FILES), scienceqa(data_files=SCIENCEQA_FILE)], ()),
        ([simpleqa(dataset_path=SIMPLEQA_CSV)], open_questions(SIMPLEQA_CSV)),
        (
            [simpleqa_verified(dataset_path=SIMPLEQA_VERIFIED_CSV)],
            open_questions(SIMPLEQA_VERIFIED_CSV),
        ),
    ):
        logs += eval(
            tasks,
            model=[
                scripted_model(
                    functools.partial(careful_reply, questions=questions), name="careful"
                ),
                scripted_model(guesser_reply, name="guesser"),
            ],
            model_roles=grader,
            log_dir=str(directory),
            display="none",
        )
    assert [log.status for log in logs] == ["success"] * 8, [str(log.error) for log in logs]
    return directory


def records(frame) -> list[dict]:
    return [
        {key: round(value, 6) if isinstance(value, float) else value for key, value in row.items()}
        for row in frame.to_dict("records")
    ]


def outcome_records(rows: tuple[tuple[str, float, float, float, int], ...]) -> list[dict]:
    """(topic, correct, incorrect, not attempted, n) rows as the outcome table's records."""
    return [
        {
            "topic": t,
            "correct": c,
            "incorrect": i,
            "not_attempted": na,
            "judge_failure": 0.0,
            "n": n,
        }
        for t, c, i, na, n in rows
    ]


def test_analysis_tables_hold_the_scripted_numbers(
    log_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    samples = analysis.load_samples(log_dir)
    assert "Using the latest of several runs for 1 older run(s)." in capsys.readouterr().out
    assert sorted(set(zip(samples["benchmark"], samples["model"], strict=True))) == [
        (benchmark, f"mockllm/{model}")
        for benchmark in ("scienceqa", "simpleqa", "simpleqa_verified", "triviaqa")
        for model in ("careful", "guesser")
    ]

    assert records(analysis.triviaqa_match_table(samples)) == [
        {"model": "mockllm/careful", "exact_match": 0.4, "f1": 0.56, "n": 5},
        {"model": "mockllm/guesser", "exact_match": 0.0, "f1": 0.16, "n": 5},
    ]

    outcomes = analysis.simpleqa_outcome_table(samples)
    careful = outcomes[outcomes["model"] == "mockllm/careful"].drop(columns="model")
    # Fixture topics by row: Sci, Sci, Geo, Sports, Pol, unknown (cut metadata), Pol, Pol,
    # Sports, Pol; row i is right / not attempted / wrong for i % 3 = 0 / 1 / 2.
    assert records(careful) == outcome_records(
        (
            ("Geography", 0.0, 1.0, 0.0, 1),
            ("Politics", 0.5, 0.0, 0.5, 4),
            ("Science and technology", 0.5, 0.0, 0.5, 2),
            ("Sports", 0.5, 0.5, 0.0, 2),
            ("unknown", 0.0, 1.0, 0.0, 1),
        )
    )
    guesser = outcomes[outcomes["model"] == "mockllm/guesser"]
    assert guesser["incorrect"].tolist() == [1.0] * 5 and guesser["n"].sum() == 10

    outcomes = analysis.simpleqa_outcome_table(samples, "simpleqa_verified")
    careful = outcomes[outcomes["model"] == "mockllm/careful"].drop(columns="model")
    # Fixture topics by row: Sci, Sci, Geo, Sports, Pol, Pol, Sports, Pol, Pol, TV shows,
    # Art, Geo; the same rule by row.
    assert records(careful) == outcome_records(
        (
            ("Art", 0.0, 0.0, 1.0, 1),
            ("Geography", 0.0, 1.0, 0.0, 2),
            ("Politics", 0.0, 0.5, 0.5, 4),
            ("Science and technology", 0.5, 0.0, 0.5, 2),
            ("Sports", 1.0, 0.0, 0.0, 2),
            ("TV shows", 1.0, 0.0, 0.0, 1),
        )
    )
    guesser = outcomes[outcomes["model"] == "mockllm/guesser"]
    assert guesser["incorrect"].tolist() == [1.0] * 6 and guesser["n"].sum() == 12

    accuracy = analysis.scienceqa_accuracy_table(samples)
    assert records(accuracy[accuracy["model"] == "mockllm/careful"].drop(columns="model")) == [
        {"breakdown": b, "group": g, "accuracy": round(a, 6), "n": n}
        for b, g, a, n in (
            ("paper_subject", "NAT", 2 / 6, 6),  # rows 0 1 3 4 5 8; text-only 1 5 right
            ("paper_subject", "SOC", 1.0, 1),
            ("paper_subject", "LAN", 1.0, 2),
            ("paper_context", "TXT", 2 / 5, 5),  # a hint, image or not: 0 1 3 5 8
            ("paper_context", "IMG", 0.0, 4),  # 0 3 4 8 (two with a hint too)
            ("paper_context", "NO", 1.0, 3),
            ("paper_grade", "G1-6", 3 / 5, 5),
            ("paper_grade", "G7-12", 2 / 4, 4),
        )
    ]
    guesser_accuracy = accuracy[accuracy["model"] == "mockllm/guesser"]
    assert records(guesser_accuracy[["group", "accuracy"]]) == [
        {"group": g, "accuracy": round(a, 6)}
        for g, a in (  # "A" everywhere: right on rows 1 5 6
            ("NAT", 2 / 6),
            ("SOC", 0.0),
            ("LAN", 0.5),
            ("TXT", 2 / 5),
            ("IMG", 0.0),
            ("NO", 1 / 3),
            ("G1-6", 0.4),
            ("G7-12", 0.25),
        )
    ]


def assert_is_a_real_plot(path: Path) -> None:
    assert path.is_file(), path
    with Image.open(path) as image:
        assert image.format == "PNG"
        width, height = image.size
        assert width > 400 and height > 250, (path.name, image.size)
        colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
        assert colours is not None and len(colours) > 50, (path.name, len(colours or []))
        # Not mostly blank: at least 3% of the pixels are not the background.
        background = max(count for count, _ in colours)
        assert background < 0.97 * width * height, path.name


def test_analysis_script_refuses_a_missing_log_dir(tmp_path: Path) -> None:
    assert analysis.main([str(tmp_path / "nowhere"), str(tmp_path / "plots")]) == 2
    assert analysis.main([str(tmp_path), str(tmp_path / "plots")]) == 1
    assert not (tmp_path / "plots").exists()


# --- the notebook ---------------------------------------------------------------

NOTEBOOK = EXAMPLES / "quickstart.ipynb"
# The notebook runs TriviaQA, SimpleQA, Winogrande and ScienceQA, and plots what it ran.
NOTEBOOK_PLOTS = ("simpleqa_outcomes.png", analysis.SCIENCEQA_FILE, analysis.TRIVIAQA_FILE)


def notebook_parameters(log_dir: Path, plot_dir: Path) -> str:
    """The parameters cell the test runs with: scripted models, fixtures, temp folders."""
    return textwrap.dedent(
        f"""
        import sys

        # The kernel must be the interpreter running the tests.
        assert sys.executable == {sys.executable!r}, sys.executable
        sys.path.insert(0, {str(REPO)!r})
        from tests.scripted import last_user_text, scripted_model


        def candidate(messages):
            text = last_user_text(messages)
            if "'ANSWER: [LETTER]'" in text:
                return "ANSWER: B"
            if "Answer with the option letter" in text:
                return "A"
            if text.endswith("Answer:"):
                return "Sunset Blvd."
            return "Michio Sugeno"


        def candidate_b(messages):
            question = last_user_text(messages).rsplit("Question: ", 1)[-1]
            return next(
                (reply for key, reply in {TRIVIAQA_CAREFUL!r}.items() if key in question), "?"
            )


        MODEL = scripted_model(candidate, name="candidate")
        MODEL_B = scripted_model(candidate_b, name="candidate-b")
        GRADER = scripted_model(lambda messages: "A", name="grader")
        LIMIT = 4
        LOG_DIR = {str(log_dir)!r}
        PLOT_DIR = {str(plot_dir)!r}
        TRIVIAQA_DATA_FILES = {TRIVIAQA_FILES!r}
        SIMPLEQA_DATASET_PATH = {SIMPLEQA_CSV!r}
        WINOGRANDE_DATA_FILES = {WINOGRANDE_FILE!r}
        SCIENCEQA_DATA_FILES = {SCIENCEQA_FILE!r}
        """
    )


def test_notebook_is_committed_clean() -> None:
    import nbformat

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code_cells)
    parameters = [cell for cell in code_cells if "parameters" in cell.metadata.get("tags", [])]
    assert parameters == [code_cells[0]]
    assert 'MODEL = "openai/gpt-4o-mini"' in parameters[0].source
    assert 'GRADER = "openai/gpt-4o"' in parameters[0].source
    assert 'MODEL_B = "anthropic/claude-sonnet-4-0"' in parameters[0].source


def execute_notebook(notebook: Any, tmp_path: Path) -> None:
    """Run ``notebook`` in a fresh kernel of this interpreter, from ``examples/``."""
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("ipywidgets", reason="inspect_ai needs ipywidgets in notebooks")
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    # A kernelspec naming this interpreter, so no other Python on the machine is picked up.
    kernels = tmp_path / "kernels"
    (kernels / "benchmarks-test").mkdir(parents=True)
    (kernels / "benchmarks-test" / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "benchmarks tests",
                "language": "python",
            }
        )
    )
    manager = KernelManager(
        kernel_name="benchmarks-test",
        kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]),
    )
    client = nbclient.NotebookClient(
        notebook, km=manager, timeout=120, resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute()


def test_notebook_runs_offline_out_of_the_box(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nbformat = pytest.importorskip("nbformat")
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    log_dir, plot_dir = tmp_path / "logs", tmp_path / "plots"
    [parameters] = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
    # only the output folders change: the notebook as committed, with no key set
    parameters.source = parameters.source.replace(
        'LOG_DIR = "logs"', f"LOG_DIR = {str(log_dir)!r}"
    ).replace('PLOT_DIR = "plots"', f"PLOT_DIR = {str(plot_dir)!r}")
    assert str(log_dir) in parameters.source and str(plot_dir) in parameters.source
    execute_notebook(notebook, tmp_path)

    outputs = [output for cell in notebook.cells for output in cell.get("outputs", [])]
    assert not [output for output in outputs if output.output_type == "error"]
    printed = "".join(output.get("text", "") for output in outputs)
    assert (
        "No ANTHROPIC_API_KEY / OPENAI_API_KEY set: running offline on the bundled rows with "
        "benchmarks/oracle (MODEL, GRADER) and benchmarks/random (MODEL_B)." in printed
    )
    triviaqa_cell = next(c for c in notebook.cells if "triviaqa_log = run(" in c.source)
    table = triviaqa_cell.outputs[-1]["data"]["text/plain"]
    assert re.search(r"triviaqa_scorer\s+exact_match\s+1\.0\b", table), table  # the oracle
    assert sorted(path.name for path in plot_dir.iterdir()) == sorted(NOTEBOOK_PLOTS)
    assert len(list(log_dir.glob("*.eval"))) == 5


def test_notebook_runs_top_to_bottom(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    index = next(
        i for i, cell in enumerate(notebook.cells) if "parameters" in cell.metadata.get("tags", [])
    )
    log_dir, plot_dir = tmp_path / "logs", tmp_path / "plots"
    notebook.cells[index] = nbformat.v4.new_code_cell(notebook_parameters(log_dir, plot_dir))
    execute_notebook(notebook, tmp_path)

    outputs = [output for cell in notebook.cells for output in cell.get("outputs", [])]
    assert not [output for output in outputs if output.output_type == "error"]
    assert sorted(path.name for path in plot_dir.iterdir()) == sorted(NOTEBOOK_PLOTS)
    # The three plots are shown in the last cell.
    images = [o for o in notebook.cells[-1].outputs if "image/png" in o.get("data", {})]
    assert len(images) == 3
    # The metrics tables were read back: TriviaQA's first 4 questions, one exact match.
    triviaqa_cell = next(c for c in notebook.cells if "triviaqa_log = run(" in c.source)
    table = triviaqa_cell.outputs[-1]["data"]["text/plain"]
    assert re.search(r"triviaqa_scorer\s+exact_match\s+0\.25\b", table), table
    # The comparison: on the first 4 questions MODEL matches 1 (the first), MODEL_B 2 (the
    # first and the third) and gets F1 0.8 on the fourth: exact match +0.25 (0/1 discordant,
    # McNemar p = 1), F1 0.25 -> 0.70.
    compare_cell = next(c for c in notebook.cells if "compare_logs(" in c.source)
    printed = "".join(o.get("text", "") for o in compare_cell.outputs)
    assert "== triviaqa: mockllm/candidate-b vs mockllm/candidate (baseline) ==" in printed
    exact, f1 = (line.split() for line in printed.splitlines() if line.strip().startswith("all"))
    assert exact[:5] + exact[7:10] == ["all", "4", "0.250", "0.500", "+0.250", "1.000", "-", "0/1"]
    assert f1[:5] == ["all", "4", "0.250", "0.700", "+0.450"]
    frame_cell = notebook.cells[notebook.cells.index(compare_cell) + 1]
    assert "candidate_value" in frame_cell.outputs[-1]["data"]["text/plain"]
    # SimpleQA's topic metrics, read off their names (<statistic>[Topic=<topic>]) into a table
    topics_cell = next(c for c in notebook.cells if "str.extract(" in c.source)
    topics = topics_cell.outputs[-1]["data"]["text/plain"]
    assert re.search(r"statistic\s+abstention_rate\s+accuracy\s+attempted_accuracy\n", topics)
    assert "\nSports " in topics and "Topic=" not in topics, topics
    # ScienceQA's columns by the paper's names, in its order (its first 4 questions: no SOC)
    scienceqa_cell = next(c for c in notebook.cells if "scienceqa_log = run(" in c.source)
    shown = scienceqa_cell.outputs[-1]["data"]["text/plain"]
    found = re.findall(r"option_letter_scorer\s+(\S+)\s", shown)
    assert found[3:] == ["NAT", "LAN", "TXT", "IMG", "NO", "G1-6", "G7-12"], shown
    assert len(list(log_dir.glob("*.eval"))) == 5
