"""The project's commands on logs in object storage (``s3://``), against a real S3 server.

Users keep logs in buckets: ``--log-dir s3://...`` for ``inspect eval``,
``eval-set``, ``eval-retry`` and ``score``, ``inspect view`` on a bucket,
``python -m benchmarks.compare`` and ``python -m benchmarks.shards`` on bucket
folders. Each command runs here as a user runs it, in a process of its own, with
the endpoint of a moto server on 127.0.0.1 (``tests/s3_server.py``) in its
environment: s3fs reads its settings when a client is made and keeps the
filesystem it made, so one process per command is what a user's shell does.
What each wrote is then checked in the bucket itself (boto3: keys and ETags)
and read back by Inspect in another process.

The models are the offline ``benchmarks/oracle`` and ``benchmarks/random`` on each
benchmark's bundled sample, and, for the interrupted run, a scripted server on
127.0.0.1 (``tests/loopback_server.py``); nothing leaves the machine.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from benchmarks.catalog import specs
from benchmarks.data.samples import bundled_data_files
from tests.inspect_cli import inspect_cli, serving_view
from tests.loopback_server import Fault, LoopbackServer, user_text
from tests.s3_server import S3Server

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
ORACLE = "benchmarks/oracle"
RANDOM = "benchmarks/random"
TIMEOUT = 600

# Reads logs back in a process of its own (as the commands do), one summary per location.
READ_LOGS = """
import json, sys
from inspect_ai.log import read_eval_log

def summary(location):
    log = read_eval_log(location)
    scores = log.results.scores if log.results else []
    return {
        "status": log.status,
        "task": log.eval.task,
        "model": log.eval.model,
        "roles": {role: config.model for role, config in (log.eval.model_roles or {}).items()},
        "task_args": log.eval.task_args,
        "samples": len(log.samples or []),
        "metrics": {f"{s.name}/{m.name}": m.value for s in scores for m in s.metrics.values()},
    }

print(json.dumps({location: summary(location) for location in sys.argv[1:]}))
"""


# --- running commands --------------------------------------------------------------------


def command_env(s3: S3Server, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a user whose AWS settings point at the test server."""
    # The developer's own AWS settings (a profile, an S3-only endpoint, a session token) or
    # log folder must not send a command elsewhere than the test server and the folders given.
    inherited = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("AWS_") and name != "INSPECT_LOG_DIR"
    }
    return {
        **inherited,
        **s3.env,
        "AWS_CONFIG_FILE": os.devnull,
        "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
        **(extra or {}),
    }


def run(
    s3: S3Server,
    command: Sequence[str],
    *,
    cwd: Path = ROOT,
    extra_env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    # stdin closed: a command that stops to ask a question fails instead of hanging
    return subprocess.run(
        list(command),
        cwd=cwd,
        env=command_env(s3, extra_env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def run_together(
    s3: S3Server, commands: Sequence[Sequence[str]]
) -> list[subprocess.CompletedProcess[str]]:
    """Independent commands at once (each mostly waits on its own start-up and the server)."""
    with ThreadPoolExecutor(max_workers=len(commands)) as pool:
        return list(pool.map(lambda command: run(s3, command), commands))


def told(done: subprocess.CompletedProcess[str]) -> str:
    """The command, its exit status and the end of what it printed: for assertion messages."""
    command = shlex.join(str(word) for word in done.args)
    return (
        f"$ {command}\nexit status {done.returncode}\n"
        f"--- stdout (end):\n{done.stdout[-2000:]}\n--- stderr (end):\n{done.stderr[-4000:]}"
    )


def succeeded(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert done.returncode == 0, told(done)
    return done


def inspect(*arguments: str) -> list[str]:
    return [inspect_cli(), *arguments]


def python_m(module: str, *arguments: str) -> list[str]:
    return [sys.executable, "-m", module, *arguments]


def offline_eval(tasks: Sequence[str], model: str, log_dir: str, *options: str) -> list[str]:
    return inspect(
        "eval",
        *tasks,
        "-T",
        "bundled_sample=true",
        "--model",
        model,
        *options,
        "--log-dir",
        log_dir,
        "--display",
        "none",
    )


# --- reading what is in the bucket -------------------------------------------------------


def read_logs(s3: S3Server, locations: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Each log's status, task, model, roles, task arguments, sample count and metrics."""
    done = succeeded(run(s3, [sys.executable, "-c", READ_LOGS, *locations]))
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def eval_files(s3: S3Server, bucket: str, prefix: str) -> dict[str, str]:
    """The ``.eval`` logs under ``s3://<bucket>/<prefix>``: location -> ETag."""
    return {
        f"s3://{bucket}/{key}": etag
        for key, etag in s3.objects(bucket, prefix).items()
        if key.endswith(".eval")
    }


def task_name(summary: dict[str, Any]) -> str:
    return str(summary["task"]).rsplit("/", 1)[-1]


def accuracy(summary: dict[str, Any]) -> float:
    [value] = [v for k, v in summary["metrics"].items() if k.endswith("/accuracy")]
    return float(value)


def winogrande_questions() -> list[str]:
    path = bundled_data_files("winogrande")["validation"]
    return [json.loads(line)["sentence"] for line in open(path, encoding="utf-8")]


def judged_split() -> tuple[list[str], list[str]]:
    """The benchmarks' names: (judged, the others), in the catalog's order."""
    judged = [name for name, spec in specs().items() if spec.judged]
    return judged, [name for name in specs() if name not in judged]


# --- fixtures: one S3 server, and the logs several tests read -------------------------------


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with S3Server() as server:
        yield server


@dataclass
class OracleLogs:
    """Every benchmark run once by the oracle into ``folder``."""

    bucket: str
    folder: str
    by_name: dict[str, str]  # benchmark -> its log's location
    summaries: dict[str, dict[str, Any]]  # location -> read_logs summary


@pytest.fixture(scope="module")
def oracle_logs(s3: S3Server) -> OracleLogs:
    bucket = "benchmark-logs"
    s3.make_bucket(bucket)
    folder = f"s3://{bucket}/logs"
    judged, others = judged_split()
    # only the judged benchmarks get a grader: the others' logs then record no role they
    # never used (so re-scoring one needs none)
    commands = []
    if others:
        commands.append(offline_eval([f"benchmarks/{n}" for n in others], ORACLE, folder))
    if judged:
        grader = ("--model-role", f"grader={ORACLE}")
        commands.append(offline_eval([f"benchmarks/{n}" for n in judged], ORACLE, folder, *grader))
    for done in run_together(s3, commands):
        succeeded(done)
    summaries = read_logs(s3, list(eval_files(s3, bucket, "logs/")))
    by_name = {task_name(summary): location for location, summary in summaries.items()}
    assert len(by_name) == len(summaries), f"two logs of one benchmark: {sorted(summaries)}"
    return OracleLogs(bucket, folder, by_name, summaries)


@dataclass
class EvalSetLogs:
    bucket: str
    folder: str
    tasks: list[str]
    command: list[str]


@pytest.fixture(scope="module")
def eval_set_logs(s3: S3Server) -> EvalSetLogs:
    """Two benchmarks by two models, as one eval set, finished (its first run)."""
    bucket = "eval-set-logs"
    s3.make_bucket(bucket)
    folder = f"s3://{bucket}/set"
    _, others = judged_split()
    tasks = [f"benchmarks/{name}" for name in others[:2]]
    assert len(tasks) == 2, f"two benchmarks without a judge needed, found {others}"
    command = inspect(
        "eval-set",
        *tasks,
        "-T",
        "bundled_sample=true",
        "--model",
        f"{ORACLE},{RANDOM}",
        "--log-dir",
        folder,
        "--display",
        "none",
    )
    succeeded(run(s3, command))
    return EvalSetLogs(bucket, folder, tasks, command)


# --- (a) inspect eval, inspect log ---------------------------------------------------------


def test_eval_writes_one_log_per_benchmark_to_the_bucket(
    s3: S3Server, oracle_logs: OracleLogs
) -> None:
    bucket, folder = oracle_logs.bucket, oracle_logs.folder
    keys = list(s3.objects(bucket, "logs/"))
    assert len(keys) == len(specs()) and all(key.endswith(".eval") for key in keys), keys
    assert sorted(oracle_logs.by_name) == sorted(specs())

    listed = succeeded(run(s3, inspect("log", "list", "--log-dir", folder, "--json")))
    listing = json.loads(listed.stdout)
    assert sorted(entry["name"] for entry in listing) == sorted(oracle_logs.summaries), told(listed)
    only_success = succeeded(
        run(s3, inspect("log", "list", "--log-dir", folder, "--status", "success", "--json"))
    )
    assert sorted(entry["name"] for entry in json.loads(only_success.stdout)) == sorted(
        oracle_logs.summaries
    ), f"not every log listed as a success:\n{told(only_success)}"

    for name, location in oracle_logs.by_name.items():
        summary = oracle_logs.summaries[location]
        assert summary["status"] == "success", (name, summary)
        assert summary["model"] == ORACLE, (name, summary)
        assert summary["samples"] > 0, (name, summary)
        expected_roles = {"grader": ORACLE} if specs()[name].judged else {}
        assert summary["roles"] == expected_roles, (name, summary)

    name, location = next(iter(oracle_logs.by_name.items()))
    dumped = succeeded(run(s3, inspect("log", "dump", "--header-only", location)))
    header = json.loads(dumped.stdout)
    assert header["status"] == "success", told(dumped)
    assert header["eval"]["task"] == f"benchmarks/{name}"
    assert header["eval"]["model"] == ORACLE
    assert header.get("samples") is None, "--header-only printed samples"
    results = header["results"]
    assert results["total_samples"] == results["completed_samples"]
    assert results["completed_samples"] == oracle_logs.summaries[location]["samples"]


# --- (b) inspect eval-set: resuming in a bucket ----------------------------------------------


def test_eval_set_in_a_bucket_redoes_nothing_then_only_a_lost_log(
    s3: S3Server, eval_set_logs: EvalSetLogs
) -> None:
    bucket, folder = eval_set_logs.bucket, eval_set_logs.folder
    first = eval_files(s3, bucket, "set/")
    summaries = read_logs(s3, list(first))
    runs = sorted((summary["task"], summary["model"]) for summary in summaries.values())
    assert runs == sorted(
        (task, model) for task in eval_set_logs.tasks for model in (ORACLE, RANDOM)
    ), summaries
    assert {summary["status"] for summary in summaries.values()} == {"success"}, summaries

    rerun = succeeded(run(s3, eval_set_logs.command))
    assert eval_files(s3, bucket, "set/") == first, (
        f"a rerun of a finished eval set rewrote or added logs:\n{told(rerun)}"
    )

    # an interrupted run, as the bucket shows it: one task's log never written
    lost = next(
        location
        for location, summary in sorted(summaries.items())
        if summary["task"] == eval_set_logs.tasks[-1] and summary["model"] == RANDOM
    )
    s3.client().delete_object(Bucket=bucket, Key=lost.removeprefix(f"s3://{bucket}/"))
    resumed = succeeded(run(s3, eval_set_logs.command))
    now = eval_files(s3, bucket, "set/")
    kept = {location: etag for location, etag in first.items() if location != lost}
    assert {location: now[location] for location in kept if location in now} == kept, (
        f"the logs that were there changed:\n{told(resumed)}"
    )
    new = sorted(set(now) - set(first))
    assert len(new) == 1 and len(now) == len(first), (
        f"expected one new log in {folder}, found {new}\n{told(resumed)}"
    )
    [again] = read_logs(s3, new).values()
    assert (again["task"], again["model"], again["status"]) == (
        summaries[lost]["task"],
        RANDOM,
        "success",
    ), again
    assert again["samples"] == summaries[lost]["samples"]


# --- (c) inspect score on a log in a bucket --------------------------------------------------


def test_score_rescores_a_log_in_the_bucket_in_place(
    s3: S3Server, oracle_logs: OracleLogs, tmp_path: Path
) -> None:
    _, others = judged_split()
    name = others[0]  # no judge: re-scoring needs no model role
    original = oracle_logs.by_name[name]
    bucket = oracle_logs.bucket
    key = f"score/{original.rsplit('/', 1)[-1]}"
    # a copy of its own, so the shared logs other tests read stay as the eval wrote them
    s3.client().copy_object(
        Bucket=bucket, Key=key, CopySource={"Bucket": bucket, "Key": original.split("/", 3)[3]}
    )
    location = f"s3://{bucket}/{key}"
    before = s3.objects(bucket, "score/")

    # --overwrite alone still asks "overwrite or append?" (stdin closed: exit 1); --action
    # answers it. Run from a folder of its own: inspect score makes its --log-dir (./logs)
    # even when the log is elsewhere, and the checkout should not get one.
    command = inspect(
        "score", location, "--action", "overwrite", "--overwrite", "--display", "none"
    )
    done = succeeded(run(s3, command, cwd=tmp_path))
    after = s3.objects(bucket, "score/")
    assert list(after) == [key], f"inspect score wrote elsewhere than the log:\n{told(done)}"
    assert after[key] != before[key], f"the log in the bucket was not rewritten:\n{told(done)}"
    written = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert written == [], f"inspect score wrote local files {written}:\n{told(done)}"
    [rescored] = read_logs(s3, [location]).values()
    scored = oracle_logs.summaries[original]
    assert rescored["status"] == "success", rescored
    assert rescored["samples"] == scored["samples"], (rescored, scored)
    assert rescored["metrics"] == scored["metrics"], "the oracle's answers scored differently"


# --- (d) inspect eval-retry from and to a bucket ---------------------------------------------


def test_eval_retry_of_a_log_in_a_bucket_writes_where_log_dir_says(
    s3: S3Server, tmp_path: Path
) -> None:
    """An interrupted run's log in a bucket: ``eval-retry --log-dir s3://...`` finishes it
    there; without ``--log-dir`` the retried log goes to the local ./logs (Inspect's
    default log folder), not beside the log it retries."""
    bucket = "retry-logs"
    s3.make_bucket(bucket)
    first_question = winogrande_questions()[0]
    broken = {"on": True}

    def reply(request: dict[str, Any]) -> str | Fault:
        if broken["on"] and first_question in user_text(request):
            return Fault("malformed_json")
        return "ANSWER: A"

    # A folder of its own as the working directory: its ./logs is Inspect's default log
    # folder, observable without touching the checkout; and run from here the task is the
    # package's registered benchmarks/winogrande, which eval-retry finds from any folder
    # (from the checkout Inspect records the file path benchmarks/winogrande.py instead).
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    model = "openai-api/loopback/scripted"
    with LoopbackServer(reply) as server:
        env = {"LOOPBACK_BASE_URL": server.base_url, "LOOPBACK_API_KEY": "loopback"}
        interrupted_run = run(
            s3,
            offline_eval(["benchmarks/winogrande"], model, f"s3://{bucket}/interrupted"),
            cwd=cwd,
            extra_env=env,
        )
        written = list(eval_files(s3, bucket, "interrupted/"))
        assert len(written) == 1, (
            f"expected one log in the bucket: {written}\n{told(interrupted_run)}"
        )
        [interrupted] = written
        assert read_logs(s3, [interrupted])[interrupted]["status"] == "error", told(interrupted_run)
        in_bucket = s3.objects(bucket)

        broken["on"] = False
        retry = [*inspect("eval-retry", interrupted), "--display", "none"]
        to_bucket = run(s3, [*retry, "--log-dir", f"s3://{bucket}/retried"], cwd=cwd, extra_env=env)
        succeeded(to_bucket)
        assert list(cwd.iterdir()) == [], (
            f"eval-retry --log-dir s3://... wrote locally:\n{told(to_bucket)}"
        )
        retried = list(eval_files(s3, bucket, "retried/"))
        assert len(retried) == 1, f"expected one log under retried/: {retried}\n{told(to_bucket)}"
        after_retry = s3.objects(bucket)
        untouched = {k: v for k, v in after_retry.items() if not k.startswith("retried/")}
        assert untouched == in_bucket, (
            f"eval-retry changed the bucket outside retried/:\n{told(to_bucket)}"
        )

        to_default = succeeded(run(s3, retry, cwd=cwd, extra_env=env))

    finished = read_logs(s3, retried)[retried[0]]
    assert (finished["status"], finished["samples"]) == ("success", len(winogrande_questions()))
    # the limit: without --log-dir the retried log is local, in ./logs of the working folder
    local = sorted((cwd / "logs").glob("*.eval"))
    assert len(local) == 1, f"expected one log in {cwd / 'logs'}: {local}\n{told(to_default)}"
    assert s3.objects(bucket) == after_retry, (
        f"eval-retry without --log-dir wrote to the bucket:\n{told(to_default)}"
    )
    assert read_logs(s3, [str(local[0])])[str(local[0])]["status"] == "success"


# --- (e) inspect view on a bucket -------------------------------------------------------------


def test_inspect_view_serves_the_logs_of_a_bucket(s3: S3Server, oracle_logs: OracleLogs) -> None:
    with serving_view(oracle_logs.folder, command_env(s3)) as (api, listing):
        name, location = next(iter(oracle_logs.by_name.items()))
        quoted = urllib.parse.quote(location, safe="")
        with urllib.request.urlopen(f"{api}/logs/{quoted}", timeout=30) as response:
            log = json.loads(response.read())
    assert listing["log_dir"] == oracle_logs.folder, listing
    assert sorted(entry["name"] for entry in listing["files"]) == sorted(oracle_logs.summaries)
    assert (log["status"], log["eval"]["task"]) == ("success", f"benchmarks/{name}")
    assert len(log["samples"]) == oracle_logs.summaries[location]["samples"]


# --- (f) python -m benchmarks.compare on bucket folders ----------------------------------------


def sections(report: str) -> dict[str, str]:
    """The text report's sections by their heading's first line (``== <task>: <models>``)."""
    parts = re.split(r"^== ", report, flags=re.MULTILINE)[1:]
    return {part.splitlines()[0].split(" (s3://")[0].rstrip(" ="): part for part in parts}


def test_compare_describes_every_log_in_a_bucket_folder(
    s3: S3Server, oracle_logs: OracleLogs
) -> None:
    done = succeeded(run(s3, python_m("benchmarks.compare", oracle_logs.folder)))
    found = sections(done.stdout)
    assert sorted(found) == sorted(f"{name}: {ORACLE}" for name in specs()), told(done)
    for heading, text in found.items():
        assert "95% CI" in text, f"{heading}: no interval table\n{text}"


def test_compare_against_a_baseline_within_an_eval_set_in_a_bucket(
    s3: S3Server, eval_set_logs: EvalSetLogs
) -> None:
    done = succeeded(
        run(s3, python_m("benchmarks.compare", eval_set_logs.folder, "--baseline", ORACLE))
    )
    found = sections(done.stdout)
    expected = [
        f"{task.rsplit('/', 1)[-1]}: {RANDOM} vs {ORACLE} (baseline)"
        for task in eval_set_logs.tasks
    ]
    assert sorted(found) == sorted(expected), told(done)
    for heading, text in found.items():
        assert "95% CI" in text, f"{heading}: no interval table\n{text}"


# --- (g) shards on S3 ---------------------------------------------------------------------------


def test_shards_in_a_bucket_merge_into_the_whole_runs_log(s3: S3Server) -> None:
    bucket = "shard-logs"
    s3.make_bucket(bucket)
    runs = f"s3://{bucket}/runs"
    task = ["benchmarks/winogrande"]
    shards = [
        offline_eval(task, RANDOM, f"{runs}/wg.shards/{index}", "-T", f"shard={index}/2")
        for index in range(2)
    ]
    whole_run = offline_eval(task, RANDOM, f"s3://{bucket}/whole")
    for done in run_together(s3, [*shards, whole_run]):
        succeeded(done)

    merge = succeeded(run(s3, python_m("benchmarks.shards", "merge", f"{runs}/wg.shards")))
    lines = merge.stdout.splitlines()
    assert len(lines) == 1 and lines[0].endswith(f"-> {runs}/wg.eval"), told(merge)
    keys = list(s3.objects(bucket, "runs/"))
    assert "runs/wg.eval" in keys, keys
    assert sorted(re.sub(r"/[^/]+\.eval$", "/", key) for key in keys if key != "runs/wg.eval") == [
        "runs/wg.shards/0/",
        "runs/wg.shards/1/",
    ], keys

    [whole] = eval_files(s3, bucket, "whole/")
    merged_location = f"{runs}/wg.eval"
    read = read_logs(s3, [merged_location, whole])
    merged = read[merged_location]
    questions = len(winogrande_questions())
    assert (merged["status"], merged["samples"]) == ("success", questions), merged
    assert merged["task_args"].get("shard") is None, merged["task_args"]
    assert accuracy(merged) == accuracy(read[whole]), (merged["metrics"], read[whole]["metrics"])

    compared = succeeded(run(s3, python_m("benchmarks.compare", runs)))
    # compare's notes open its report (stdout), before the tables
    assert f"{runs}: 2 shard log(s) left aside" in compared.stdout, told(compared)
    assert list(sections(compared.stdout)) == [f"winogrande: {RANDOM}"], told(compared)
    assert f"({merged_location})" in compared.stdout, told(compared)


def test_shards_eval_fans_out_into_a_bucket(s3: S3Server) -> None:
    bucket = "fanout-logs"
    s3.make_bucket(bucket)
    folder = f"s3://{bucket}/fanout"
    done = succeeded(
        run(
            s3,
            python_m(
                "benchmarks.shards",
                "eval",
                "--shards",
                "2",
                "--log-dir",
                folder,
                "benchmarks/winogrande",
                "-T",
                "bundled_sample=true",
                "--model",
                RANDOM,
                "--display",
                "none",
            ),
        )
    )
    keys = list(s3.objects(bucket))
    merged = [key for key in keys if re.fullmatch(r"fanout/[^/]+\.eval", key)]
    assert len(merged) == 1, f"expected one merged log directly under fanout/: {keys}"
    name = merged[0].removeprefix("fanout/").removesuffix(".eval")
    shard_folders = sorted(re.sub(r"/[^/]+\.eval$", "/", key) for key in keys if key not in merged)
    assert shard_folders == [f"fanout/{name}.shards/0/", f"fanout/{name}.shards/1/"], keys
    assert done.stdout.strip().endswith(f"-> {folder}/{name}.eval"), told(done)
    [summary] = read_logs(s3, [f"{folder}/{name}.eval"]).values()
    assert (summary["status"], summary["samples"]) == ("success", len(winogrande_questions()))
