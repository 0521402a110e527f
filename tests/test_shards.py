"""A run split into shards and merged is the unsharded run, for every benchmark.

Each spec's task runs whole and as three shards (``shard=i/3``) on its bundled sample,
in one ``eval()``, with the offline random model (and grader, so scores vary); the
shard logs are merged (``benchmarks.shards.merge``) and the merged log must hold the
unsharded run's samples (ids, messages, few-shot draws, replies, scores with their
explanations, metadata) and its results (every metric, breakdown and stderr), and its
header the unsharded task arguments and dataset. The quick suite checks Winogrande's
default profile (the run the refusals below start from) and the merged usage; the slow
tests run each spec under its default profile (with two demonstrations where it takes
``shots``) and every profile of every spec. Then the refusals: each names the log and
what to do, before any process starts where it can.
"""

from __future__ import annotations

import inspect as pyinspect
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log

from benchmarks.catalog import specs
from benchmarks.runtime.errors import TaskParameterError
from benchmarks.runtime.task_parameters import Shard
from benchmarks.shards import merged_output
from benchmarks.shards.__main__ import main
from benchmarks.shards.log_files import LogError
from benchmarks.shards.merge import merged_log, shard_runs

SHARDS = 3
RANDOM = "benchmarks/random"


def arguments(name: str, profile: str | None) -> dict[str, Any]:
    task = specs()[name].task
    shots = (
        {"shots": 2} if profile is None and "shots" in pyinspect.signature(task).parameters else {}
    )
    return {"bundled_sample": True, **shots, **({"profile": profile} if profile else {})}


def run_whole_and_shards(name: str, profile: str | None, log_dir: Path) -> tuple[EvalLog, Path]:
    """The unsharded run's log (read back from its file) and the folder of the shards'."""
    spec = specs()[name]
    args = arguments(name, profile)
    tasks = [spec.task(**args)] + [spec.task(**args, shard=f"{i}/{SHARDS}") for i in range(SHARDS)]
    roles = {"grader": RANDOM} if spec.judged else None
    logs = inspect_eval(
        tasks,
        model=RANDOM,
        model_roles=roles,
        log_dir=str(log_dir),
        display="none",  # type: ignore[arg-type]
    )
    assert [log.status for log in logs] == ["success"] * (SHARDS + 1)
    shards = log_dir / "shards"
    shards.mkdir()
    for log in logs[1:]:
        assert log.location
        shutil.move(log.location, shards / Path(log.location).name)
    assert logs[0].location
    return read_eval_log(logs[0].location), shards


def sample_view(log: EvalLog) -> list[Any]:
    return [
        (
            sample.id,
            sample.epoch,
            sample.target,
            [message.model_dump(exclude={"id"}) for message in sample.messages],
            sample.output.completion,
            {name: score.model_dump() for name, score in (sample.scores or {}).items()},
            sample.metadata,
        )
        for sample in log.samples or []
    ]


def assert_same_run(merged: EvalLog, whole: EvalLog) -> None:
    assert merged.status == "success"
    assert sample_view(merged) == sample_view(whole)
    assert merged.results is not None and whole.results is not None
    assert merged.results.model_dump() == whole.results.model_dump()
    assert merged.eval.task_args == whole.eval.task_args
    assert merged.eval.task_args_passed == whole.eval.task_args_passed
    assert merged.eval.dataset == whole.eval.dataset
    assert merged.eval.metadata == whole.eval.metadata
    assert merged.eval.shards is not None
    assert [entry.shard for entry in merged.eval.shards.ledger] == ["0", "1", "2"]


def merge_and_check(name: str, profile: str | None, tmp_path: Path) -> None:
    whole, shards = run_whole_and_shards(name, profile, tmp_path)
    [run], notes = shard_runs([str(shards)])
    assert notes == []
    merged = merged_log(run)
    location = tmp_path / "merged.eval"
    write_eval_log(merged, str(location))
    assert_same_run(read_eval_log(str(location)), whole)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(specs()))
def test_shards_merge_into_the_unsharded_run(name: str, tmp_path: Path) -> None:
    merge_and_check(name, None, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "profile"),
    [(name, profile) for name, spec in specs().items() for profile in spec.profiles],
)
def test_shards_merge_into_the_unsharded_run_under_every_profile(
    name: str, profile: str, tmp_path: Path
) -> None:
    merge_and_check(name, profile, tmp_path)


# ---------------------------------------------------------------------------
# The shard parameter


@pytest.mark.parametrize("name", list(specs()))
def test_a_shard_holds_every_nth_question_from_its_index(name: str) -> None:
    task = specs()[name].task
    whole = [sample.id for sample in task(bundled_sample=True).dataset]
    for index in range(SHARDS):
        shard = task(bundled_sample=True, shard=f"{index}/{SHARDS}")
        assert [sample.id for sample in shard.dataset] == whole[index::SHARDS]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("3/3", "shard must be i/n with 0 <= i < n (shards are counted from 0), got '3/3'."),
        ("0/0", "shard must be i/n with 0 <= i < n (shards are counted from 0), got '0/0'."),
        ("1-3", "shard must be written i/n (shard i of n, from 0), got '1-3'."),
        (2, "shard must be written i/n (shard i of n, from 0), got 2."),
    ],
)
def test_a_shard_written_wrong_is_refused(value: object, message: str) -> None:
    for name, spec in specs().items():
        with pytest.raises(TaskParameterError) as raised:
            spec.task(bundled_sample=True, shard=value)
        assert str(raised.value) == f"{name}: {message}"


def test_shard_sizes_differ_by_one_at_most() -> None:
    assert [Shard(index, 4).size(10) for index in range(4)] == [3, 3, 2, 2]


# ---------------------------------------------------------------------------
# Refusals


@pytest.fixture(scope="module")
def winogrande_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[EvalLog, Path]:
    """A Winogrande run's whole log, and the folder of its three shards' logs."""
    return run_whole_and_shards("winogrande", "default", tmp_path_factory.mktemp("w"))


@pytest.fixture(scope="module")
def winogrande_shards(winogrande_run: tuple[EvalLog, Path]) -> Path:
    return winogrande_run[1]


def test_the_merged_shards_are_the_unsharded_run(
    winogrande_run: tuple[EvalLog, Path], tmp_path: Path
) -> None:
    whole, shards = winogrande_run
    [run], notes = shard_runs([str(shards)])
    assert notes == []
    location = tmp_path / "merged.eval"
    write_eval_log(merged_log(run), str(location))
    assert_same_run(read_eval_log(str(location)), whole)


def test_the_merged_usage_is_the_sum_of_the_shards(winogrande_shards: Path) -> None:
    [run], _ = shard_runs([str(winogrande_shards)])
    usage = [read_eval_log(str(log.location)).stats.model_usage[RANDOM] for log in run]
    merged = merged_log(run).stats.model_usage[RANDOM]
    assert len({u.total_tokens for u in usage}) > 1  # shards that differ, so the sum shows
    for field in ("input_tokens", "output_tokens", "total_tokens"):
        assert getattr(merged, field) == sum(getattr(u, field) for u in usage)


def test_shards_of_two_models_are_refused_naming_the_model(
    winogrande_shards: Path, tmp_path: Path
) -> None:
    folder = copy_of(winogrande_shards, tmp_path, [0, 1])
    run_shard_2(folder, model="benchmarks/oracle")
    assert refusal([str(folder)]) == (
        "the logs hold shards of 2 runs, and benchmarks/winogrande (benchmarks/random) (shards "
        "0/3, 1/3) differs from benchmarks/winogrande (benchmarks/oracle) (shards 2/3) in model "
        "('benchmarks/random' against 'benchmarks/oracle'); pass the shards of one run (or all "
        "the shards of each)."
    )


def copy_of(shards: Path, tmp_path: Path, keep: list[int]) -> Path:
    folder = tmp_path / "some"
    folder.mkdir()
    for path in sorted(shards.glob("*.eval")):
        index = read_eval_log(str(path), header_only=True).eval.task_args["shard"]
        if int(index.split("/")[0]) in keep:
            shutil.copy(path, folder / path.name)
    return folder


def run_shard_2(
    folder: Path, profile: str = "default", model: str = RANDOM, **options: Any
) -> EvalLog:
    """Shard 2/3 of a Winogrande run on the bundled sample, its log written to ``folder``."""
    [log] = inspect_eval(
        specs()["winogrande"].task(bundled_sample=True, profile=profile, shard="2/3"),
        model=model,
        log_dir=str(folder),
        display="none",
        **options,
    )
    return log


def refusal(locations: list[str]) -> str:
    with pytest.raises(LogError) as raised:
        [merged_log(run) for run in shard_runs(locations)[0]]
    return str(raised.value)


def test_a_missing_shard_is_named(winogrande_shards: Path, tmp_path: Path) -> None:
    folder = copy_of(winogrande_shards, tmp_path, [0, 2])
    assert refusal([str(folder)]) == (
        "benchmarks/winogrande (benchmarks/random): no log of shard 1/3 among the logs given; "
        "run it (-T shard=1/3, the other arguments as the other shards') or pass the folder "
        "that holds its log."
    )


def test_an_unfinished_shard_is_named_with_the_retry(
    winogrande_shards: Path, tmp_path: Path
) -> None:
    folder = copy_of(winogrande_shards, tmp_path, [0, 1, 2])
    [path] = [
        p
        for p in folder.glob("*.eval")
        if "1/3" in str(read_eval_log(str(p), header_only=True).eval.task_args)
    ]
    log = read_eval_log(str(path))
    log.status = "error"
    write_eval_log(log, str(path))
    assert refusal([str(folder)]) == (
        f"{path}: shard 1/3 of benchmarks/winogrande (benchmarks/random) did not finish (status "
        f"error); finish it with `inspect eval-retry {path} --log-dir {folder}`, then merge "
        "again."
    )
    # one that may still run, on another machine, is not to be retried yet
    log.status = "started"
    write_eval_log(log, str(path))
    assert "(status started) (if it is still running, wait for it); finish it" in refusal(
        [str(folder)]
    )


def test_a_shard_cut_short_is_refused(winogrande_shards: Path, tmp_path: Path) -> None:
    folder = copy_of(winogrande_shards, tmp_path, [0, 1])
    log = run_shard_2(folder, limit=4)
    assert refusal([str(folder)]) == (
        f"{log.location}: shard 2/3 ran with --limit, 4 of its 13 questions; run every shard "
        "without it (to cut a run, give every shard the same -T num_examples)."
    )


def test_shards_of_another_run_are_not_mixed_in(winogrande_shards: Path, tmp_path: Path) -> None:
    folder = copy_of(winogrande_shards, tmp_path, [0, 1])
    run_shard_2(folder, profile="evalscope_1.14.1")
    # two runs: the default profile's lacks shard 2, the other's lacks 0 and 1
    assert refusal([str(folder)]) == (
        "the logs hold shards of 2 runs, and benchmarks/winogrande (benchmarks/random) (shards "
        "0/3, 1/3) differs from benchmarks/winogrande (benchmarks/random) (shards 2/3) in task "
        "arguments (profile: 'default' against 'evalscope_1.14.1'); pass the shards of one run "
        "(or all the shards of each)."
    )


def test_the_same_sample_in_two_shards_is_refused(winogrande_shards: Path, tmp_path: Path) -> None:
    folder = copy_of(winogrande_shards, tmp_path, [0, 1, 2])
    [path] = [
        p
        for p in folder.glob("*.eval")
        if "2/3" in str(read_eval_log(str(p), header_only=True).eval.task_args)
    ]
    log = read_eval_log(str(path))
    assert log.samples
    log.samples[0].id = "validation_0"  # shard 0's first question
    log.eval.dataset.sample_ids = [sample.id for sample in log.samples]  # type: ignore[misc]
    write_eval_log(log, str(path))
    message = refusal([str(folder)])
    assert re.fullmatch(
        r"sample validation_0 is in both \S+ \(shard 0/3\) and \S+ \(shard 2/3\): these are not "
        r"shards of one run; merge the logs of one run's shards only\.",
        message,
    ), message


def test_no_shard_logs_at_all_is_said(tmp_path: Path) -> None:
    [log] = inspect_eval(
        specs()["winogrande"].task(bundled_sample=True), model=RANDOM, log_dir=str(tmp_path),
        display="none",
    )  # fmt: skip
    assert refusal([str(tmp_path)]) == (
        f"{tmp_path}: no shard logs (runs with -T shard=i/n) to merge; pass the folders or files "
        "the shards wrote their logs to."
    )


# ---------------------------------------------------------------------------
# The command


def test_merge_writes_name_eval_beside_a_shards_folder(
    winogrande_shards: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layout = tmp_path / "run.shards"
    for index, path in enumerate(sorted(winogrande_shards.glob("*.eval"))):
        (layout / str(index)).mkdir(parents=True)
        shutil.copy(path, layout / str(index) / path.name)
    assert main(["merge", str(layout)]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(
        rf"benchmarks/winogrande \(benchmarks/random\): 3 shards, 40 samples, accuracy \S+ -> "
        rf"{re.escape(str(tmp_path / 'run.eval'))}\n",
        out,
    ), out
    assert read_eval_log(str(tmp_path / "run.eval"), header_only=True).status == "success"


def test_merge_refusals_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["merge", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'nowhere'}: no such file or directory.\n"


def test_the_merged_log_name_follows_inspects(winogrande_shards: Path) -> None:
    [run], _ = shard_runs([str(winogrande_shards)])
    log = merged_log(run)
    name = merged_output.log_name(log)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d\d-\d\d_winogrande_\w{22}\.eval", name)


def test_shards_of_several_whole_runs_merge_into_a_log_each(
    winogrande_shards: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = copy_of(winogrande_shards, tmp_path, [0, 1, 2])
    for index in range(2):  # a second run, of another profile, in two shards
        inspect_eval(
            specs()["winogrande"].task(
                bundled_sample=True, profile="evalscope_1.14.1", shard=f"{index}/2"
            ),
            model=RANDOM,
            log_dir=str(folder),
            display="none",
        )
    merged = tmp_path / "merged"
    assert main(["merge", str(folder), "--output", str(merged)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [re.sub(r"accuracy \S+ -> .*", "", line) for line in lines] == [
        "benchmarks/winogrande (benchmarks/random): 3 shards, 40 samples, ",
        "benchmarks/winogrande (benchmarks/random): 2 shards, 40 samples, ",
    ]
    profiles = sorted(
        read_eval_log(str(path), header_only=True).eval.task_args["profile"]
        for path in merged.glob("*.eval")
    )
    assert profiles == ["default", "evalscope_1.14.1"]


def test_a_shard_without_its_samples_is_refused(winogrande_shards: Path, tmp_path: Path) -> None:
    folder = copy_of(winogrande_shards, tmp_path, [0, 1])
    [log] = inspect_eval(
        specs()["winogrande"].task(bundled_sample=True, profile="default", shard="2/3"),
        model=RANDOM,
        log_samples=False,
        log_dir=str(folder),
        display="none",
    )
    assert refusal([str(folder)]) == (
        f"{log.location}: shard 2/3 ran with --no-log-samples: its log holds no samples to "
        "merge; rerun it without that option."
    )


def test_shards_run_with_other_limits_are_other_runs(
    winogrande_shards: Path, tmp_path: Path
) -> None:
    folder = copy_of(winogrande_shards, tmp_path, [0, 1])
    inspect_eval(
        specs()["winogrande"].task(bundled_sample=True, profile="default", shard="2/3"),
        model=RANDOM,
        token_limit=100_000,
        log_dir=str(folder),
        display="none",
    )
    assert "in limits (token_limit: None against 100000)" in refusal([str(folder)])


def test_the_merged_log_is_no_eval_sets_and_needs_output_in_an_eval_sets_folder(
    tmp_path: Path,
) -> None:
    from inspect_ai import eval_set

    folder = tmp_path / "set"
    tasks = [specs()["winogrande"].task(bundled_sample=True, shard=f"{i}/2") for i in range(2)]
    success, _ = eval_set(tasks, model=RANDOM, log_dir=str(folder), display="none")
    assert success
    with pytest.raises(LogError) as raised:
        merged_output.merge([str(folder)], None)
    assert str(raised.value) == (
        f"{folder}: the shards ran in an eval set, whose folder must hold its own logs only "
        "(inspect eval-set resumes from it); pass --output <another folder>."
    )
    merged_output.merge([str(folder)], str(tmp_path / "merged.eval"))
    header = read_eval_log(str(tmp_path / "merged.eval"), header_only=True)
    assert header.eval.eval_set_id is None and header.eval.shards is not None
    assert {entry.eval_set_id for entry in header.eval.shards.ledger} != {None}
    with pytest.raises(LogError) as raised:
        merged_output.merge([str(folder)], str(tmp_path / "merged.json"))
    assert str(raised.value) == (
        f"--output {tmp_path / 'merged.json'}: a merged log is an .eval file; name one, or a "
        "folder."
    )


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (["--limit", "3"], "--limit: a shard runs all of its questions; to cut the run give "
         "-T num_examples=N."),
        (["--limit=3"], "--limit: a shard runs all of its questions; to cut the run give "
         "-T num_examples=N."),
        (["--sample-id", "validation_0"], "--sample-id: a shard runs all of its questions; to "
         "cut the run give -T num_examples=N."),
        (["-T", "shard=0/2"], "-T shard: this command gives each process its shard."),
        (["-Tshard=0/2"], "-T shard: this command gives each process its shard."),
    ],
)  # fmt: skip
def test_shards_eval_refuses_bad_arguments_before_starting_any_process(
    given: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    started: list[object] = []
    monkeypatch.setattr("subprocess.Popen", lambda *args, **kwargs: started.append(args))
    arguments = ["eval", "benchmarks/winogrande", *given, "--model", RANDOM]
    assert main([*arguments, "--shards", "2", "--log-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"error: {message}\n"
    assert started == [] and list(tmp_path.iterdir()) == []
