"""docs/scaling.md, run as written: every command, in its order, against a real S3 endpoint.

The bucket is moto's S3 server on loopback (tests/s3_server.py); the model servers the page
exports (`<SERVICE>_BASE_URL`) are scripted servers on loopback: the chat models' a chat
server answering every question, the base model's a completions server with a tokenizer
and echoed log-probabilities (tests/completions_server.py). Each command runs as a user runs
it, the bundled sample standing in for the data (`-T bundled_sample=true` added where the
data would come from the Hub); the model servers' own commands (vLLM, SGLang) need GPUs
and are the one thing not run. The Kubernetes Job's command is checked to be the page's
by-hand command for each index. After each command the bucket holds what the page says.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.completions_server import CompletionsServer
from tests.inspect_cli import inspect_cli, serving_view
from tests.loopback_server import Fault, LoopbackServer, user_text
from tests.s3_server import S3Server
from tests.test_docs import CODE_BLOCK, TRAILING_COMMENT

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "scaling.md"
BUCKET = "team-evals"
CHAT_SERVICES = ("LLAMA70B", "QWEN7B")
BASE_SERVICE = "LLAMA8B"
# the model servers' own commands (GPUs), not run here
SERVERS = ("vllm serve", "python -m sglang")
# commands whose data would come from the Hub
EVALS = ("inspect eval ", "inspect eval-set ", "python -m benchmarks.shards eval ")


def page_commands() -> list[str]:
    """The shell commands of the page's code blocks, in order."""
    text = PAGE.read_text(encoding="utf-8")
    commands = []
    for block in CODE_BLOCK.findall(text):
        for line in re.sub(r"\\\n\s*", " ", block).splitlines():
            line = TRAILING_COMMENT.sub("", line).strip()
            if line and not line.startswith("#"):
                commands.append(line)
    return commands


def job_commands() -> list[str]:
    """The Kubernetes Job's command for each index it hands out."""
    [block] = re.findall(r"```yaml\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    job = yaml.safe_load(block)
    [container] = job["spec"]["template"]["spec"]["containers"]
    [script] = container["args"]
    return [
        " ".join(script.replace("$JOB_COMPLETION_INDEX", str(index)).split())
        for index in range(job["spec"]["completions"])
    ]


class Recipe:
    """The servers and the environment the page's commands run in."""

    def __init__(self, s3: S3Server, chat_url: str, base_url: str, tmp: Path):
        self.s3, self.chat_url, self.base_url = s3, chat_url, base_url
        self.scratch = tmp / "scratch"
        self.scratch.mkdir()
        self.env = {
            **os.environ,
            **s3.env,
            "INSPECT_LOG_DIR": str(tmp / "local-logs"),  # what lands locally is seen
            "OPENAI_BASE_URL": chat_url,
            "OPENAI_API_KEY": "unused",
        }
        self.env.pop("INSPECT_DISPLAY", None)

    def run(self, command: str, *extra: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
        words = shlex.split(command)
        if words[0] == "inspect":
            words[0] = inspect_cli()
        elif words[0] == "python":
            words[0] = sys.executable
        if command.startswith(EVALS) and "bundled_sample=true" not in command:
            extra = ("-T", "bundled_sample=true", *extra)
        done = subprocess.run(
            [*words, *extra], cwd=cwd, env=self.env, capture_output=True, text=True,
            timeout=900,
        )  # fmt: skip
        return done

    def ok(self, command: str, *extra: str, cwd: Path = ROOT) -> str:
        done = self.run(command, *extra, cwd=cwd)
        assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        return done.stdout + done.stderr

    def keys(self, prefix: str) -> list[str]:
        return list(self.s3.objects(BUCKET, prefix))

    def header(self, key: str) -> Any:
        """A log's header read from the bucket, in a child process (the s3 environment)."""
        done = subprocess.run(
            [sys.executable, "-c", "import sys; from inspect_ai.log import read_eval_log; "
             "print(read_eval_log(sys.argv[1], header_only=True).model_dump_json())",
             f"s3://{BUCKET}/{key}"],
            env=self.env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


def interrupted_log(recipe: Recipe, log_dir: str) -> str:
    """A Winogrande log of the set's first chat model, ended by a malformed reply: the kind
    of log `inspect eval-retry` finishes."""
    first = user_text_of_first_question()
    broken = LoopbackServer(
        lambda request: Fault("malformed_json") if first in user_text(request) else "ANSWER: A"
    )
    with broken:
        env = {**recipe.env, f"{CHAT_SERVICES[0]}_BASE_URL": broken.base_url}
        before = set(recipe.keys(log_dir.removeprefix(f"s3://{BUCKET}/")))
        subprocess.run(
            [inspect_cli(), "eval", "benchmarks/winogrande", "-T", "bundled_sample=true",
             "--model", "openai-api/llama70b/meta-llama/Llama-3.1-70B-Instruct",
             "--log-dir", log_dir, "--display", "none"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    [new] = set(recipe.keys(log_dir.removeprefix(f"s3://{BUCKET}/"))) - before
    assert recipe.header(new)["status"] == "error"
    return f"s3://{BUCKET}/{new}"


def user_text_of_first_question() -> str:
    from benchmarks.data.samples import bundled_data_files

    with open(bundled_data_files("winogrande")["validation"], encoding="utf-8") as rows:
        return str(json.loads(rows.readline())["sentence"])


def view_lists(recipe: Recipe, command: str) -> list[str]:
    """`inspect view` serving the bucket: the logs its API lists."""
    words = shlex.split(command)
    log_dir = words[words.index("--log-dir") + 1]
    with serving_view(log_dir, recipe.env) as (_, listing):
        return [str(entry.get("name")) for entry in listing.get("files", [])]


def test_the_scaling_page_runs_as_written(tmp_path: Path) -> None:
    commands = page_commands()
    by_hand = [c for c in commands if c.startswith("inspect eval benchmarks/winogrande")]
    # the Job's pods run exactly the page's by-hand commands
    assert job_commands() == [" ".join(c.split()) for c in by_hand]
    with (
        S3Server() as s3,
        LoopbackServer(lambda request: "ANSWER: A") as chat,
        CompletionsServer() as base,
    ):
        s3.make_bucket(BUCKET)
        recipe = Recipe(s3, chat.base_url, base.base_url, tmp_path)
        ran = []
        for command in commands:
            if command.startswith(SERVERS):
                continue
            ran.append(command)
            run_one(recipe, command)
        # (inspect score makes the folder, empty, wherever its log is)
        written = list((tmp_path / "local-logs").rglob("*.*"))
        assert written == [], f"a command wrote logs locally: {written}"
    assert len(ran) >= 12, ran


def run_one(recipe: Recipe, command: str) -> None:
    """Run a command of the page and check what it left."""
    if command.startswith("export "):
        names = sorted(word.split("=")[0] for word in shlex.split(command)[1:])
        service = names[0].removesuffix("_API_KEY").removesuffix("_BASE_URL")
        url = recipe.base_url if service == BASE_SERVICE else recipe.chat_url
        assert names == [f"{service}_API_KEY", f"{service}_BASE_URL"], command
        recipe.env.update({f"{service}_BASE_URL": url, f"{service}_API_KEY": "unused"})
        return
    if command.startswith("inspect eval-set "):
        recipe.ok(command)
        logs = [k for k in recipe.keys("2026-12/chat/") if k.endswith(".eval")]
        statuses = {recipe.header(k)["status"] for k in logs}
        assert len(logs) == 6 and statuses == {"success"}, (logs, statuses)
        # run again: resumed, nothing redone
        recipe.ok(command)
        assert [k for k in recipe.keys("2026-12/chat/") if k.endswith(".eval")] == logs
        return
    if command.startswith("inspect eval-retry "):
        log_dir = shlex.split(command)[shlex.split(command).index("--log-dir") + 1]
        interrupted = interrupted_log(recipe, log_dir)
        before = set(recipe.keys("2026-12/chat/"))
        recipe.ok(command.replace(f"{log_dir}/<log>.eval", interrupted))
        [retried] = set(recipe.keys("2026-12/chat/")) - before
        assert recipe.header(retried)["status"] == "success"
        return
    if command.startswith("inspect view "):
        listed = view_lists(recipe, command)
        assert len([name for name in listed if name.endswith(".eval")]) >= 6, listed
        return
    if command.startswith("inspect log list "):
        out = recipe.ok(command)
        assert out.count(".eval") >= 6, out
        return
    if command.startswith("python -m benchmarks.compare "):
        out = recipe.ok(command, "--resamples", "200")
        assert "95% CI" in out, out
        if "--baseline" in command:
            # the report wraps at 100 columns: the header is on two lines
            assert "== winogrande: openai-api/qwen7b/Qwen/Qwen2.5-7B-Instruct vs " in out, out
            assert "llama/Llama-3.1-70B-Instruct (baseline) ==" in out, out
            # the interrupted run's log, and the set's own left for the retried one
            flat = " ".join(out.split())
            assert "left aside, the run did not finish (status error)" in flat, out
            assert "left aside for the newer" in flat, out
        return
    if command.startswith("python -m benchmarks.shards eval "):
        out = recipe.ok(command)
        merged = [k for k in recipe.keys("2026-12/base/") if k.count("/") == 2]
        shards = [k for k in recipe.keys("2026-12/base/") if ".shards/" in k]
        assert len(merged) == 1 and merged[0].endswith(".eval") and len(shards) == 2, out
        assert recipe.header(merged[0])["eval"]["dataset"]["samples"] == 40
        return
    if command.startswith("python -m benchmarks.shards merge "):
        out = recipe.ok(command)
        target = f"s3://{BUCKET}/2026-12/winogrande-llama-8b.eval"
        assert out.strip().splitlines()[0].endswith(f"-> {target}"), out
        header = recipe.header("2026-12/winogrande-llama-8b.eval")
        assert header["status"] == "success" and header["eval"]["dataset"]["samples"] == 40
        assert [entry["shard"] for entry in header["eval"]["shards"]["ledger"]] == ["0", "1"]
        return
    if command.startswith("inspect score "):
        # from where the run started: Inspect finds the task file relative to it
        recipe.ok(command)
        assert recipe.header("2026-12/winogrande-llama-8b.eval")["status"] == "success"
        return
    if "--batch" in command:
        # accepted with a day's attempt timeout (no request: --limit 0), refused without;
        # its log goes to the log folder, a scratch one here
        local = recipe.env["INSPECT_LOG_DIR"]
        recipe.env["INSPECT_LOG_DIR"] = str(recipe.scratch)
        recipe.ok(command, "--limit", "0")
        refused = recipe.run(command.replace(" --attempt-timeout 86400", ""), "--limit", "0")
        recipe.env["INSPECT_LOG_DIR"] = local
        assert refused.returncode == 1 and "--attempt-timeout 86400" in refused.stdout, refused
        return
    if command.startswith("inspect eval "):
        recipe.ok(command)
        return
    raise AssertionError(f"a command of docs/scaling.md that this test does not run: {command}")


def test_the_merged_log_of_the_page_is_the_unsharded_run(tmp_path: Path) -> None:
    """The page's shards merged, against the same run unsharded: the same scores."""
    with S3Server() as s3, CompletionsServer() as base:
        s3.make_bucket(BUCKET)
        recipe = Recipe(s3, "http://127.0.0.1:9/v1", base.base_url, tmp_path)
        recipe.env.update(
            {f"{BASE_SERVICE}_BASE_URL": base.base_url, f"{BASE_SERVICE}_API_KEY": "x"}
        )
        by_hand = [c for c in page_commands() if c.startswith("inspect eval benchmarks/winogrande")]
        for command in by_hand:
            recipe.ok(command)
        [merge] = [c for c in page_commands() if c.startswith("python -m benchmarks.shards merge")]
        recipe.ok(merge)
        whole = re.sub(r" -T shard=\S+", "", by_hand[0]).replace(".shards/0", "-whole")
        recipe.ok(whole)
        [whole_key] = [k for k in recipe.keys("2026-12/winogrande-llama-8b-whole/")]
        merged = recipe.header("2026-12/winogrande-llama-8b.eval")
        unsharded = recipe.header(whole_key)
        assert merged["results"] == unsharded["results"]
        assert merged["eval"]["task_args"] == unsharded["eval"]["task_args"]
