"""``benchmarks.compare`` on folders of logs: eval-set folders, stale and older logs, shards.

Real logs of the offline models (``benchmarks/oracle`` answers every question right,
``benchmarks/random`` is a seeded random baseline) on the bundled samples of Winogrande
and ScienceQA prove that a folder is read as one log per task and model, the newest
finished one, with a note naming every log left aside (a run that did not finish, an
older run of the same task and model, a log of a task the tool does not know, shards
whose merged log is there); that ``--baseline MODEL`` compares every other model of one
folder with that one, from Python and from the command line; and that every refusal
(several models where one log per task is needed, a wrong ``--baseline``, unmerged
shards, a shard file, nothing finished) says what to pass instead. A file is read as it
is, unfinished or not. The folder the shard refusal names is readable after the merge
command it gives, and judge agreement notes the logs it leaves aside in a folder too.
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai import eval_set
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from benchmarks.catalog import specs
from benchmarks.compare import CompareError, Settings, compare_logs, describe_logs, judge_agreement
from benchmarks.compare.__main__ import main as compare_main
from benchmarks.scienceqa import scienceqa
from benchmarks.shards.__main__ import main as shards_main
from benchmarks.simpleqa import simpleqa
from benchmarks.winogrande import winogrande

ORACLE = "benchmarks/oracle"
RANDOM = "benchmarks/random"
MODELS = [ORACLE, RANDOM]
QUESTIONS = {"winogrande": 40, "scienceqa": 20}  # in each bundled sample
FAST = Settings(resamples=200, seed=1)
WIDTH = 100  # the text report's width

# (task, model): a log's location
Logs = dict[tuple[str, str], str]


@dataclass(frozen=True)
class EvalSetFolder:
    """An eval set's folder (2 tasks x 2 models) with logs ``compare`` must leave aside."""

    folder: str
    newest: Logs  # the eval set's logs: the newest finished one of each task and model
    accuracy: dict[tuple[str, str], float]  # as Inspect computed it in the run
    stale_started: str  # winogrande, oracle: did not finish, and is newer than the finished
    older_named_first: str  # winogrande/random's log, created earlier, named to sort first
    older_named_last: str  # winogrande/oracle's log, created earlier, named to sort last
    other_task: str  # a log of a task the tool does not know

    def notes(self) -> list[str]:
        """The notes reading this folder gives, in no particular order."""
        return [
            f"{self.folder}: 1 log(s) of other tasks left aside.",
            f"{self.stale_started}: left aside, the run did not finish (status started).",
            f"{self.older_named_first}: left aside for the newer "
            f"{Path(self.newest['winogrande', RANDOM]).name} (same task and model).",
            f"{self.older_named_last}: left aside for the newer "
            f"{Path(self.newest['winogrande', ORACLE]).name} (same task and model).",
        ]


def task_name(log: EvalLog) -> str:
    return log.eval.task.rsplit("/", 1)[-1]


def rewritten(source: str, target: Path, change: Callable[[EvalLog], None]) -> str:
    """A copy of the log at ``source``, changed, written to ``target``."""
    log = read_eval_log(source)
    change(log)
    write_eval_log(log, str(target))
    return str(target)


def shifted(log: EvalLog, by: timedelta) -> str:
    return (datetime.fromisoformat(log.eval.created) + by).isoformat()


def unfinished(status: str, later: timedelta = timedelta(0)) -> Callable[[EvalLog], None]:
    """A change making a log one of a run that stopped with ``status``."""

    def change(log: EvalLog) -> None:
        log.status = status  # type: ignore[assignment]
        log.results = None
        log.eval.created = shifted(log, later)

    return change


def created_earlier(log: EvalLog) -> None:
    log.eval.created = shifted(log, -timedelta(days=30))


def of_another_task(log: EvalLog) -> None:
    log.eval.task = "benchmarks/not_a_benchmark"


@pytest.fixture(scope="module")
def eval_set_folder(tmp_path_factory: pytest.TempPathFactory) -> EvalSetFolder:
    folder = tmp_path_factory.mktemp("eval_set")
    success, logs = eval_set(
        [winogrande(bundled_sample=True), scienceqa(bundled_sample=True)],
        model=MODELS,
        log_dir=str(folder),
        display="none",
    )
    assert success and len(logs) == 4, [str(log.error) for log in logs]
    newest = {(task_name(log), log.eval.model): str(log.location) for log in logs}
    accuracy = {
        (task_name(log), log.eval.model): float(log.results.scores[0].metrics["accuracy"].value)
        for log in logs
        if log.results
    }
    return EvalSetFolder(
        folder=str(folder),
        newest=newest,
        accuracy=accuracy,
        stale_started=rewritten(
            newest["winogrande", ORACLE],
            folder / "winogrande_oracle_started.eval",
            unfinished("started", later=timedelta(hours=1)),
        ),
        older_named_first=rewritten(
            newest["winogrande", RANDOM],
            folder / "2000-01-01T00-00-00-00-00_winogrande_older.eval",
            created_earlier,
        ),
        older_named_last=rewritten(
            newest["winogrande", ORACLE],
            folder / "9999-12-31T23-59-59-00-00_winogrande_older.eval",
            created_earlier,
        ),
        other_task=rewritten(
            newest["winogrande", RANDOM], folder / "not_a_benchmark.eval", of_another_task
        ),
    )


@pytest.fixture(scope="module")
def oracle_only_folder(
    eval_set_folder: EvalSetFolder, tmp_path_factory: pytest.TempPathFactory
) -> str:
    """The oracle's logs of both tasks, alone in a folder."""
    folder = tmp_path_factory.mktemp("oracle_only")
    for (_, model), path in eval_set_folder.newest.items():
        if model == ORACLE:
            shutil.copy(path, folder)
    return str(folder)


@pytest.fixture(scope="module")
def winogrande_shards(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The logs of shards 0/2 and 1/2 of a Winogrande run of the oracle."""
    folder = tmp_path_factory.mktemp("shards")
    logs = inspect_eval(
        [winogrande(bundled_sample=True, shard=f"{index}/2") for index in range(2)],
        model=ORACLE,
        log_dir=str(folder),
        display="none",  # type: ignore[arg-type]
    )
    assert [log.status for log in logs] == ["success", "success"]
    return [str(log.location) for log in logs]


def refusal(call: Callable[[], object]) -> str:
    with pytest.raises(CompareError) as refused:
        call()
    return str(refused.value)


def overall_accuracy(frame) -> list[dict]:
    rows = frame[(frame["breakdown"] == "overall") & (frame["metric"] == "accuracy")]
    return rows.to_dict("records")


# ---------------------------------------------------------------------------
# An eval set's folder


def test_an_eval_set_folder_reads_the_newest_finished_log_of_each_task_and_model(
    eval_set_folder: EvalSetFolder,
) -> None:
    frame = describe_logs(eval_set_folder.folder, settings=FAST)
    rows = overall_accuracy(frame)
    read = {(row["task"], row["model"]): (row["log"], row["n"], row["value"]) for row in rows}
    assert read == {
        (task, model): (
            path,
            QUESTIONS[task],
            pytest.approx(eval_set_folder.accuracy[task, model]),
        )
        for (task, model), path in eval_set_folder.newest.items()
    }
    assert len(rows) == 4
    assert sorted(frame.attrs["notes"]) == sorted(eval_set_folder.notes())


def pairing_notes(eval_set_folder: EvalSetFolder) -> list[str]:
    newest = eval_set_folder.newest
    return [
        f"{task}: {QUESTIONS[task]} questions paired ({Path(newest[task, ORACLE]).name} vs "
        f"{Path(newest[task, RANDOM]).name})."
        for task in QUESTIONS
    ]


def test_baseline_model_compares_the_other_model_with_it_task_by_task(
    eval_set_folder: EvalSetFolder,
) -> None:
    for baseline, candidate in ((ORACLE, RANDOM), (RANDOM, ORACLE)):
        frame = compare_logs([eval_set_folder.folder], baseline_model=baseline, settings=FAST)
        assert set(zip(frame["task"], frame["baseline"], frame["candidate"], strict=True)) == {
            ("winogrande", baseline, candidate),
            ("scienceqa", baseline, candidate),
        }
        for task, questions in QUESTIONS.items():
            [row] = [row for row in overall_accuracy(frame) if row["task"] == task]
            accuracy = eval_set_folder.accuracy
            assert row["n"] == questions
            assert row["baseline_value"] == pytest.approx(accuracy[task, baseline])
            assert row["candidate_value"] == pytest.approx(accuracy[task, candidate])
            assert row["difference"] == pytest.approx(
                accuracy[task, candidate] - accuracy[task, baseline]
            )
    # the oracle as the baseline: random's accuracy - 1.0, and every note
    frame = compare_logs([eval_set_folder.folder], baseline_model=ORACLE, settings=FAST)
    [row] = [row for row in overall_accuracy(frame) if row["task"] == "winogrande"]
    assert row["baseline_value"] == 1.0
    assert row["difference"] == pytest.approx(eval_set_folder.accuracy["winogrande", RANDOM] - 1)
    assert sorted(frame.attrs["pairing"], key=lambda counts: counts["task"]) == [
        {
            "task": task,
            "baseline": ORACLE,
            "candidate": RANDOM,
            "paired": QUESTIONS[task],
            "baseline_only": 0,
            "candidate_only": 0,
            "unscored_baseline": 0,
            "unscored_candidate": 0,
        }
        for task in sorted(QUESTIONS)
    ]
    assert sorted(frame.attrs["notes"]) == sorted(
        eval_set_folder.notes() + pairing_notes(eval_set_folder)
    )


# ---------------------------------------------------------------------------
# The command line


def without_spaces(text: str) -> str:
    return "".join(text.split())


def test_the_command_compares_a_folder_s_models_with_the_baseline_and_prints_the_notes(
    eval_set_folder: EvalSetFolder, capsys: pytest.CaptureFixture[str]
) -> None:
    assert compare_main([eval_set_folder.folder, "--baseline", ORACLE, "--resamples", "200"]) == 0
    printed = capsys.readouterr()
    assert printed.err == ""
    lines = printed.out.splitlines()
    assert sorted(line for line in lines if line.startswith("== ")) == [
        f"== {task}: {RANDOM} vs {ORACLE} (baseline) ==" for task in sorted(QUESTIONS)
    ]
    # the notes first, each folded at spaces to the report's width (it may break a path)
    notes_block = printed.out.split("\n\n", 1)[0].splitlines()
    assert all(len(line) <= WIDTH for line in notes_block)
    notes = eval_set_folder.notes() + pairing_notes(eval_set_folder)
    starts = [line for line in notes_block if not line.startswith("  ")]
    assert len(starts) == len(notes)
    block = without_spaces("".join(notes_block))
    assert all(without_spaces(note) in block for note in notes)
    assert len(block) == sum(len(without_spaces(note)) for note in notes)
    # winogrande's accuracy, overall: 40 questions, oracle 1.000, random and the difference
    accuracy = eval_set_folder.accuracy["winogrande", RANDOM]
    section = printed.out.split(f"== winogrande: {RANDOM} vs {ORACLE} (baseline) ==")[1]
    overall = next(line for line in section.splitlines() if line.startswith("  all "))
    assert overall.split()[:5] == ["all", "40", "1.000", f"{accuracy:.3f}", f"{accuracy - 1:+.3f}"]


def test_the_command_refuses_a_folder_of_two_models_among_several_logs(
    eval_set_folder: EvalSetFolder, oracle_only_folder: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert compare_main([oracle_only_folder, eval_set_folder.folder, "--resamples", "200"]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    # which task and model the folder lists first is Inspect's listing order
    newest = eval_set_folder.newest
    assert printed.err in {
        f"error: {eval_set_folder.folder}: holds logs of task {task} from 2 models "
        f"({ORACLE}, {RANDOM}); compare them with each other (--baseline {first}), or pass "
        f"one model's log file ({newest[task, first]}).\n"
        for task in QUESTIONS
        for first in MODELS
    }


# ---------------------------------------------------------------------------
# --baseline refused


def test_baseline_is_refused_for_a_model_without_a_finished_log_two_folders_or_one_model(
    eval_set_folder: EvalSetFolder,
    oracle_only_folder: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = eval_set_folder.folder
    assert refusal(
        lambda: compare_logs([folder], baseline_model="benchmarks/nobody", settings=FAST)
    ) == (
        f"{folder}: holds no finished log of model benchmarks/nobody; pass one of "
        f"{ORACLE}, {RANDOM} to --baseline."
    )
    # a model whose only log did not finish is not one to compare with
    oracle_and_stopped_random = tmp_path / "stopped"
    shutil.copytree(oracle_only_folder, oracle_and_stopped_random)
    rewritten(
        eval_set_folder.newest["winogrande", RANDOM],
        oracle_and_stopped_random / "random_started.eval",
        unfinished("started"),
    )
    assert refusal(
        lambda: compare_logs([oracle_and_stopped_random], baseline_model=RANDOM, settings=FAST)
    ) == (
        f"{oracle_and_stopped_random}: holds no finished log of model {RANDOM}; pass one of "
        f"{ORACLE} to --baseline."
    )
    two_folders = f"--baseline {ORACLE} compares the models within one folder; pass that one "
    two_folders += "folder (given: 2 locations)."
    assert (
        refusal(
            lambda: compare_logs([folder, oracle_only_folder], baseline_model=ORACLE, settings=FAST)
        )
        == two_folders
    )
    assert compare_main([folder, oracle_only_folder, "--baseline", ORACLE]) == 2
    assert capsys.readouterr().err == f"error: {two_folders}\n"
    assert refusal(
        lambda: compare_logs([oracle_only_folder], baseline_model=ORACLE, settings=FAST)
    ) == (
        f"{oracle_only_folder}: holds logs of {ORACLE} only; pass a folder of several models' "
        "logs, or two logs to compare."
    )


# ---------------------------------------------------------------------------
# Shards


def shard_refusal(folder: Path) -> str:
    return (
        f"{folder}: holds shard logs of task winogrande ({ORACLE}) and no merged log of them; "
        f"merge them first (python -m benchmarks.shards merge {folder}), then pass the merged "
        "log or this folder."
    )


def test_shards_are_refused_until_merged_then_left_aside_and_a_shard_file_is_refused(
    eval_set_folder: EvalSetFolder, winogrande_shards: list[str], tmp_path: Path
) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    for path in winogrande_shards:
        shutil.copy(path, folder)
    # another model's whole run does not stand for the oracle's shards
    random_run = shutil.copy(eval_set_folder.newest["winogrande", RANDOM], folder)
    assert refusal(lambda: describe_logs(folder, settings=FAST)) == shard_refusal(folder)

    shard_file = str(folder / Path(winogrande_shards[0]).name)
    assert refusal(lambda: describe_logs(shard_file, settings=FAST)) == (
        f"{shard_file}: is shard 0/2 of a run; merge its shards (python -m benchmarks.shards "
        "merge <their logs or folder>) and pass the merged log."
    )

    merged = folder / "merged.eval"
    assert shards_main(["merge", str(folder), "--output", str(merged)]) == 0
    frame = describe_logs(folder, settings=FAST)
    assert {
        row["model"]: (row["log"], row["n"], row["value"]) for row in overall_accuracy(frame)
    } == {
        ORACLE: (str(merged), 40, 1.0),
        RANDOM: (
            str(random_run),
            40,
            pytest.approx(eval_set_folder.accuracy["winogrande", RANDOM]),
        ),
    }
    assert frame.attrs["notes"] == [
        f"{folder}: 2 shard log(s) left aside (their merged logs read)."
    ]


def test_another_models_merged_log_does_not_stand_for_unmerged_shards(
    winogrande_shards: list[str], tmp_path: Path
) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    for path in winogrande_shards:
        shutil.copy(path, folder)
    random_shards = tmp_path / "random.shards"
    inspect_eval(
        [winogrande(bundled_sample=True, shard=f"{index}/2") for index in range(2)],
        model=RANDOM,
        log_dir=str(random_shards),
        display="none",  # type: ignore[arg-type]
    )
    assert shards_main(["merge", str(random_shards), "--output", str(folder / "r.eval")]) == 0
    assert refusal(lambda: describe_logs(folder, settings=FAST)) == shard_refusal(folder)


def test_the_merge_the_shard_refusal_names_makes_the_folder_readable(
    winogrande_shards: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    for path in winogrande_shards:
        shutil.copy(path, folder)
    message = refusal(lambda: describe_logs(folder, settings=FAST))
    assert message == shard_refusal(folder)
    command = re.search(r"\(python -m benchmarks\.shards merge ([^)]+)\)", message)
    assert command is not None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("INSPECT_LOG_DIR", raising=False)
    assert shards_main(["merge", *shlex.split(command.group(1))]) == 0
    describe_logs(folder, settings=FAST)  # raises CompareError: the same refusal


# ---------------------------------------------------------------------------
# Unfinished runs


def test_a_folder_of_unfinished_logs_is_refused_and_an_unfinished_file_is_read_as_it_is(
    eval_set_folder: EvalSetFolder, tmp_path: Path
) -> None:
    folder = tmp_path / "stopped"
    folder.mkdir()
    newest = eval_set_folder.newest
    stopped = {
        status: rewritten(newest[key], folder / f"{status}.eval", unfinished(status))
        for status, key in (
            ("started", ("winogrande", ORACLE)),
            ("error", ("scienceqa", ORACLE)),
            ("cancelled", ("winogrande", RANDOM)),
        )
    }
    assert refusal(lambda: describe_logs(folder, settings=FAST)) == (
        f"{folder}: holds no finished log of {', '.join(specs())}; pass a log file to read an "
        "unfinished run."
    )

    frame = describe_logs(stopped["started"], settings=FAST)
    assert [
        (row["log"], row["model"], row["n"], row["value"]) for row in overall_accuracy(frame)
    ] == [(stopped["started"], ORACLE, 40, 1.0)]
    assert frame.attrs["notes"] == ["started.eval: the run did not finish (status started)."]

    finished = shutil.copy(newest["scienceqa", RANDOM], folder)
    frame = describe_logs(folder, settings=FAST)
    assert [(row["log"], row["model"]) for row in overall_accuracy(frame)] == [
        (str(finished), RANDOM)
    ]
    assert sorted(frame.attrs["notes"]) == sorted(
        f"{path}: left aside, the run did not finish (status {status})."
        for status, path in stopped.items()
    )


# ---------------------------------------------------------------------------
# Judge agreement reads folders too


def test_judge_agreement_notes_the_logs_it_leaves_aside_in_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "graded"
    [log] = inspect_eval(
        simpleqa(bundled_sample=True),
        model=RANDOM,
        model_roles={"grader": RANDOM},
        log_dir=str(folder),
        display="none",  # type: ignore[arg-type]
    )
    assert log.status == "success" and log.location
    stale = rewritten(
        log.location, folder / "simpleqa_started.eval", unfinished("started", timedelta(hours=1))
    )
    same_answers = shutil.copy(log.location, tmp_path / "same_answers.eval")
    agreement = judge_agreement([folder, same_answers], settings=FAST)
    assert agreement.summary["answers"].tolist() == [len(log.samples or [])]
    assert f"{stale}: left aside, the run did not finish (status started)." in agreement.notes


def test_shards_beside_an_older_whole_run_of_theirs_are_still_refused(
    eval_set_folder: EvalSetFolder, winogrande_shards: list[str], tmp_path: Path
) -> None:
    """Only the merged log that lists them (its ledger) covers shards: an unsharded run of
    the same task and model does not, or the folder would be read as that older run."""
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(eval_set_folder.newest["winogrande", ORACLE], folder)
    for path in winogrande_shards:
        shutil.copy(path, folder)
    assert refusal(lambda: describe_logs(folder, settings=FAST)) == shard_refusal(folder)
