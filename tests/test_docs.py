"""Every link and every command of the README and the docs pages works.

Links: each relative link names an existing file (and, within the README, an
existing heading). Commands: each shell command in a code block, and each
``inspect ...`` command quoted inline, is run offline: the model becomes
``benchmarks/oracle`` (the judge too), the data the bundled sample, the log
folder a temporary one; every log written must end in success. Commands that
need the network or are the test suite itself are listed in
``NOT_RUN_HERE`` with the reason, so a new command cannot go unchecked.
The Python blocks of the README run as written, on local copies of the data
at the paths they name.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

import tests.test_registry as registry_tests
from benchmarks.catalog import BENCHMARKS, specs
from benchmarks.data.samples import bundled_data_files
from tests.inspect_cli import inspect_cli
from tests.loopback_server import Fault, LoopbackServer, user_text

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINKED_PAGES = [
    *PAGES,
    ROOT / "examples" / "README.md",
    ROOT / "bench" / "README.md",
    ROOT / "benchmarks" / "data" / "samples" / "README.md",
]
ORACLE = "benchmarks/oracle"
DATA_OPTIONS = ("data_files", "dataset_path")

# command prefix -> why the test does not run it
NOT_RUN_HERE = {
    "pip install": "installs packages (needs the package index; .ci/run installs the project)",
    "export ": "sets a provider key",
    "pytest": "runs this test suite",
    "ruff check": "the linter, run by .ci/run",
    "python -m bench.": "the benchmark harness (minutes; see bench/README.md)",
    "python -m tools.": "the correctness tools (a real model, every profile's snapshot)",
    "python examples/analyze_logs.py": "run by tests/test_examples.py",
    "jupyter ": "run by tests/test_examples.py (the notebook)",
    "python -m llama_cpp.server": "serves a GGUF model (llama-cpp-python, a real model)",
    "~/llama/bin/python -m tools.": "serves a GGUF model (llama-cpp-python, a real model)",
    "python -m venv": "makes a virtual environment (then installs into it from the index)",
    "lm-eval ": "lm-evaluation-harness itself (tests/peers runs it against scripted servers)",
    "inspect eval inspect_evals/": "inspect_evals' own tasks (tests/peers runs them against "
    "scripted servers)",
    "git worktree add": "makes a second checkout (the snapshot comparison of a refactoring)",
    "PYTHONPATH=../before python -m tools.": "the snapshot on another checkout",
    "cmp ": "compares the two snapshots",
    "vllm serve": "starts a GPU inference server (tests/test_scaling_recipe.py runs the rest of "
    "docs/scaling.md against scripted servers)",
    "python -m sglang": "starts a GPU inference server (as vllm serve)",
}

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE_BLOCK = re.compile(r"```(?:bash|sh)\n(.*?)```", re.DOTALL)
INLINE_COMMAND = re.compile(r"`((?:inspect |python -m benchmarks|hf |huggingface-cli )[^`]*)`")
TRAILING_COMMENT = re.compile(r"\s{2,}#.*$")


def github_anchor(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_every_relative_link_resolves() -> None:
    broken = []
    for page in LINKED_PAGES:
        text = page.read_text(encoding="utf-8")
        anchors = {github_anchor(h) for h in re.findall(r"^#+ (.*)$", text, re.MULTILINE)}
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # http(s) and mailto: not checked (no network in tests)
            path, _, anchor = target.partition("#")
            if path and not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            if not path and anchor not in anchors:
                broken.append(f"{page.relative_to(ROOT)}: #{anchor} (no such heading)")
    assert broken == []


def documented_commands() -> list[tuple[str, str]]:
    """(page, command) for every shell command in a code block or quoted inline."""
    commands = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in CODE_BLOCK.findall(text):
            joined = re.sub(r"\\\n\s*", " ", block)
            for line in joined.splitlines():
                line = TRAILING_COMMENT.sub("", line).strip()
                if line and not line.startswith("#"):
                    commands.append((page.name, line))
        outside_blocks = CODE_BLOCK.sub("", text)
        for inline in INLINE_COMMAND.findall(outside_blocks.replace("\n", " ")):
            commands.append((page.name, " ".join(inline.split())))
    return commands


def offline_variant(command: str, log_dir: Path) -> list[str]:
    """The command with the oracle as every model, the bundled sample as the data and
    a temporary log folder."""
    words = shlex.split(command)
    result: list[str] = []
    has_data = False
    index = 0
    while index < len(words):
        word = words[index]
        value = words[index + 1] if index + 1 < len(words) else ""
        if word == "--model":  # several models: the oracle and the random baseline
            models = [ORACLE, "benchmarks/random"][: len(value.split(","))]
            result += [word, ",".join(models)]
            index += 2
        elif word == "--model-role":
            role = value.split("=", 1)[0]
            result += [word, f"{role}={ORACLE}"]
            index += 2
        elif word == "-T" and value.split("=", 1)[0] in DATA_OPTIONS:
            index += 2  # the bundled sample instead
        elif word == "--log-dir":
            index += 2
        else:
            has_data |= word == "-T" and value.startswith("bundled_sample=")
            result.append(word)
            index += 1
    if not has_data and result[:2] != ["inspect", "eval-retry"]:
        result += ["-T", "bundled_sample=true"]
    return [inspect_cli(), *result[1:], "--log-dir", str(log_dir)]


def user_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "INSPECT_DISPLAY"}


def run_eval_command(command: str, log_dir: Path) -> str | None:
    """None if the command ran and every log it wrote succeeded, else what went wrong."""
    done = subprocess.run(
        offline_variant(command, log_dir),
        cwd=ROOT,
        env=user_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    logs = list_eval_logs(str(log_dir))
    statuses = [read_eval_log(log, header_only=True).status for log in logs]
    if done.returncode != 0 or not logs or set(statuses) != {"success"}:
        return f"{command}\n  exit {done.returncode}, logs {statuses}\n{done.stdout[-2000:]}"
    return None


@pytest.mark.slow
def test_every_documented_command_runs_offline(tmp_path: Path) -> None:
    commands = documented_commands()
    evals = [
        c
        for _, c in commands
        if re.match(r"inspect eval(-set)? ", c) and not c.startswith(tuple(NOT_RUN_HERE))
    ]
    import tests.test_scaling_recipe as scaling_recipe  # (it reads this module's patterns)

    # "`inspect eval` exits with ..." names a command, it does not give one
    names = {"inspect eval", "inspect eval-set", "inspect score"}
    handled = {
        "inspect eval-retry": test_eval_retry_finishes_an_interrupted_run,
        "inspect view": test_inspect_view_serves_the_logs,
        "inspect list tasks": test_inspect_list_tasks,
        "inspect cache": test_inspect_cache_commands,
        "inspect score": test_the_compare_page_commands_run_on_real_logs,
        "python -m benchmarks.compare": test_the_compare_page_commands_run_on_real_logs,
        "hf ": test_hub_commands_exist_with_their_options,
        "python -m benchmarks.shards": scaling_recipe.test_the_scaling_page_runs_as_written,
        "inspect log list": scaling_recipe.test_the_scaling_page_runs_as_written,
        "python -m benchmarks": registry_tests.test_python_m_benchmarks_lists_the_tasks_anywhere,
    }
    unhandled = [
        f"{page}: {command}"
        for page, command in commands
        if command not in evals
        and command not in names
        and not any(command.startswith(prefix) for prefix in (*NOT_RUN_HERE, *handled))
    ]
    assert unhandled == [], "documented commands that no test runs"
    assert len(evals) >= 10
    distinct = {tuple(offline_variant(c, Path("."))): c for c in evals}  # same run once
    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = pool.map(
            lambda item: run_eval_command(item[1], tmp_path / f"run{item[0]}"),
            enumerate(sorted(distinct.values())),
        )
    assert [failure for failure in failures if failure] == []


@pytest.mark.slow
def test_hub_commands_exist_with_their_options() -> None:
    """Hub downloads need the network; the installed ``hf`` (huggingface-hub's CLI, which
    replaced ``huggingface-cli``) must know each documented subcommand and option."""
    hub_commands = [
        (page, command)
        for page, command in documented_commands()
        if command.startswith(("hf ", "huggingface"))
    ]
    assert hub_commands, "no hf command in the docs"
    hf = Path(sys.executable).with_name("hf")
    problems = []
    for page, command in hub_commands:
        words = shlex.split(command)
        if words[0] != "hf":
            problems.append(f"{page}: {command} (use hf, not {words[0]})")
            continue
        done = subprocess.run(
            [str(hf), words[1], "--help"], capture_output=True, text=True, timeout=60
        )
        options = [word.split("=")[0] for word in words[2:] if word.startswith("--")]
        known = set(re.findall(r"--[\w-]+", done.stdout))
        unknown = [option for option in options if option not in known]
        if done.returncode != 0 or unknown:
            problems.append(f"{page}: {command} (unknown: {unknown or words[1]})")
    assert problems == []


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_benchmarks_page_gives_a_command_that_runs_it(name: str) -> None:
    # test_every_documented_command_runs_offline runs it (offline: the oracle, the bundled
    # sample), so every benchmark is run as its page says
    page = Path(specs()[name].docs_page).name
    runs = [
        command
        for on_page, command in documented_commands()
        if on_page == page and re.match(rf"inspect eval benchmarks/{name}(?!\w)", command)
    ]
    assert runs != [], f"{specs()[name].docs_page} gives no `inspect eval benchmarks/{name}`"


@pytest.mark.slow
def test_inspect_list_tasks() -> None:
    done = subprocess.run(
        [inspect_cli(), "list", "tasks", "benchmarks"],
        cwd=ROOT,
        env=user_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0
    for name in BENCHMARKS:
        assert f"benchmarks/{name}.py@{name}" in done.stdout


@pytest.mark.slow
def test_inspect_cache_commands(tmp_path: Path) -> None:
    """docs/judges.md's `inspect cache list` / `inspect cache clear`, on a cache of its own."""
    env = {**user_env(), "INSPECT_CACHE_DIR": str(tmp_path / "cache")}
    commands = {c for _, c in documented_commands() if c.startswith("inspect cache")}
    assert commands == {"inspect cache list", "inspect cache clear --all"}
    for command in sorted(commands):
        done = subprocess.run(
            [inspect_cli(), *command.split()[1:]],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            input="y\n",
        )
        assert done.returncode == 0, done.stdout + done.stderr


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow
def test_inspect_view_serves_the_logs(tmp_path: Path) -> None:
    assert (
        run_eval_command(f"inspect eval benchmarks/winogrande --model {ORACLE}", tmp_path) is None
    )
    port = _free_port()
    view = subprocess.Popen(
        [inspect_cli(), "view", "--log-dir", str(tmp_path), "--port", str(port)],
        env=user_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/logs") as response:
                    listing = json.loads(response.read())
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
    finally:
        view.terminate()
        view.wait(timeout=30)
    assert "winogrande" in json.dumps(listing)


@pytest.mark.slow
def test_eval_retry_finishes_an_interrupted_run(tmp_path: Path) -> None:
    """The README's eval-retry line, on a run ended by a malformed server reply."""
    first_question = next(iter(bundled_questions()))
    broken = {"on": True}

    def reply(request: dict[str, object]) -> str | Fault:
        text = user_text(request)  # type: ignore[arg-type]
        if broken["on"] and first_question in text:
            return Fault("malformed_json")
        return "ANSWER: A"

    with LoopbackServer(reply) as server:
        env = {**user_env(), "DOCS_BASE_URL": server.base_url, "DOCS_API_KEY": "key"}
        cli = [inspect_cli(), "eval", "benchmarks/winogrande", "-T", "bundled_sample=true"]
        subprocess.run(
            [*cli, "--model", "openai-api/docs/scripted", "--log-dir", str(tmp_path)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        [interrupted] = list_eval_logs(str(tmp_path))
        assert read_eval_log(interrupted, header_only=True).status == "error"
        broken["on"] = False
        retries = {c for _, c in documented_commands() if c.startswith("inspect eval-retry")}
        # every documented form is "inspect eval-retry <a log>" (then "--log-dir <a folder>",
        # which docs/scaling.md's test runs), run here on a real one
        assert {tuple(shlex.split(c)[3:4]) for c in retries} <= {(), ("--log-dir",)}
        assert {len(shlex.split(c)) for c in retries} <= {3, 5}
        done = subprocess.run(
            [inspect_cli(), "eval-retry", interrupted.name, "--log-dir", str(tmp_path / "retried")],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stdout
    [retried] = list_eval_logs(str(tmp_path / "retried"))
    assert read_eval_log(retried, header_only=True).status == "success"


def bundled_questions() -> list[str]:
    path = bundled_data_files("winogrande")["validation"]
    return [json.loads(line)["sentence"] for line in open(path, encoding="utf-8")]


def python_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.DOTALL)


@pytest.mark.slow
def test_the_readme_python_example_prints_what_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    [block] = [
        b
        for b in python_blocks()
        if "from benchmarks.triviaqa import" in b and "(" in b and "eval_set" not in b
    ]
    expected = re.search(r"^# (\{.*\})$", block, re.MULTILINE)
    assert expected is not None
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, "README.md", "exec"), {})
    *before, last = printed.getvalue().strip().splitlines()
    assert last == expected.group(1)
    # before it, once a process, Inspect's banner naming the run-end hook (as the README says)
    assert not before or (before[0].startswith("inspect_ai v") and "hooks enabled" in before[1])


@pytest.mark.slow
def test_the_readme_eval_set_recipe_runs_with_per_task_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datasets

    [block] = [b for b in python_blocks() if "eval_set(" in b]
    bundled = {task: bundled_data_files(task) for task in specs()}
    source_of = {  # a word of the README's path -> the bundled file standing in for it
        "trivia/validation": bundled["triviaqa"]["validation"],
        "trivia/train": bundled["triviaqa"]["train"],
        "simple_qa": bundled["simpleqa"]["test"],
        "winogrande": bundled["winogrande"]["validation"],
        "scienceqa": bundled["scienceqa"]["test"],
    }
    paths = re.findall(r'"([^"]+\.(?:parquet|jsonl|csv))"', block)
    assert len(paths) == 5
    for target in paths:
        [source] = [file for word, file in source_of.items() if word in target]
        destination = tmp_path / target
        destination.parent.mkdir(parents=True, exist_ok=True)
        if target.endswith(".parquet") and not source.endswith(".parquet"):
            datasets.Dataset.from_json(source).to_parquet(str(destination))
        else:
            shutil.copy(source, destination)
    monkeypatch.chdir(tmp_path)
    offline = re.sub(r'"(openai|anthropic)/[^"]+"', f'"{ORACLE}"', block)
    scope: dict[str, object] = {}
    exec(compile(offline, "README.md", "exec"), scope)
    success, logs = scope["success"], scope["logs"]
    assert success is True
    assert sorted(log.eval.task for log in logs) == [  # type: ignore[attr-defined]
        "benchmarks/scienceqa",
        "benchmarks/simpleqa",
        "benchmarks/triviaqa",
        "benchmarks/winogrande",
    ]


def _eval_to(task: object, model: str, path: Path, **kwargs: object) -> None:
    """One offline eval whose log is written to ``path``."""
    from inspect_ai import eval as inspect_eval

    [log] = inspect_eval(task, model=model, log_dir=str(path.parent / "_runs"), **kwargs)
    assert log.status == "success" and log.location
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(log.location, path)


@pytest.mark.slow
def test_the_compare_page_commands_run_on_real_logs(tmp_path: Path) -> None:
    """Each command of docs/compare.md, in its order, on offline logs at the paths it names
    (LOG_A, LOG_B, ... stand for the oracle's and the random baseline's TriviaQA logs; with
    --judges, for a SimpleQA log and a copy re-graded by another judge)."""
    from benchmarks.simpleqa import simpleqa
    from benchmarks.triviaqa import triviaqa
    from benchmarks.winogrande import winogrande

    logs = tmp_path / "logs"
    judged = {"grader": ORACLE}
    _eval_to(triviaqa(bundled_sample=True), ORACLE, logs / "a.eval")
    _eval_to(triviaqa(bundled_sample=True), "benchmarks/random", logs / "b.eval")
    _eval_to(simpleqa(bundled_sample=True), ORACLE, logs / "simpleqa.eval", model_roles=judged)
    for folder, model in (("gpt-4o", ORACLE), ("claude", "benchmarks/random")):
        _eval_to(triviaqa(bundled_sample=True), model, logs / folder / "triviaqa.eval")
        _eval_to(winogrande(bundled_sample=True), model, logs / folder / "winogrande.eval")
    env = user_env()

    def run(words: list[str]) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            words, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, f"{' '.join(words)}\n{done.stdout}\n{done.stderr}"
        return done

    # a copy of the SimpleQA log graded by a second judge, for "--judges LOG_A LOG_B"
    shutil.copy(logs / "simpleqa.eval", logs / "judged_a.eval")
    run(
        [
            inspect_cli(),
            "score",
            "logs/simpleqa.eval",
            "--model-role",
            "grader=benchmarks/random",
            "--action",
            "overwrite",
            "--overwrite",
            "--output-file",
            "logs/judged_b.eval",
        ]
    )
    run(
        [
            inspect_cli(),
            "score",
            "logs/simpleqa.eval",
            "--model-role",
            "grader=benchmarks/random",
            "--action",
            "append",
            "--overwrite",
        ]
    )

    placeholders = {
        "LOG": "logs/a.eval",
        "LOG_A": "logs/a.eval",
        "LOG_B": "logs/b.eval",
        "LOG_C": "logs/b.eval",
        # a folder of two models' logs of each task (and more): the oracle's and the random's
        "FOLDER": "logs",
        "MODEL": ORACLE,
    }
    judge_placeholders = {
        "LOG": "logs/simpleqa.eval",
        "LOG_A": "logs/judged_a.eval",
        "LOG_B": "logs/judged_b.eval",
    }
    page = [c for p, c in documented_commands() if p == "compare.md"]
    commands = [c for c in page if c.startswith(("python -m benchmarks.compare", "inspect score "))]
    assert len(commands) >= 6
    for command in commands:
        words = shlex.split(re.sub(r"\[[^\]]*\]", "", command))  # optional parts
        table = judge_placeholders if "--judges" in words else placeholders
        words = [table.get(word, word) for word in words]
        if words[0] == "python":
            words[0] = sys.executable
        else:  # inspect score: the judge is an offline model
            words[0] = inspect_cli()
            words = [f"grader={ORACLE}" if w.startswith("grader=") else w for w in words]
        done = run(words)
        if words[1:3] == ["-m", "benchmarks.compare"]:
            assert "95% CI" in done.stdout or "agreement" in done.stdout, done.stdout


@pytest.mark.slow
def test_the_readme_comparison_is_what_the_tool_prints(tmp_path: Path) -> None:
    """The README's example output, line by line, from the offline oracle and random runs."""
    from benchmarks.scienceqa import scienceqa

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    [shown] = re.findall(
        r"```\n\$ python -m benchmarks\.compare oracle random\n(.*?)```", text, re.DOTALL
    )
    for folder, model in (("oracle", ORACLE), ("random", "benchmarks/random")):
        _eval_to(scienceqa(bundled_sample=True), model, tmp_path / folder / "scienceqa.eval")
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.compare", "oracle", "random"],
        cwd=tmp_path,
        env=user_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    printed = done.stdout.splitlines()
    lines = [line for line in shown.splitlines() if line.strip() != "..."]
    assert len(lines) >= 8
    assert [line for line in lines if line not in printed] == []


# A block a generator writes (tests/docs_tables.py, tests/parameter_tables.py,
# tests/peers/verified_table.py), from its start marker to its end marker.
GENERATED_BLOCK = re.compile(r"^<!-- (\S+): made by [^\n]*-->\n.*?^<!-- /\1 -->\n", re.M | re.S)


def written_by_hand(page: str) -> str:
    """``page`` without its generated blocks."""
    return GENERATED_BLOCK.sub("", page)


def test_the_readmes_contents_line_links_every_section_in_order() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (contents,) = re.findall(r"^Contents: (.*)$", readme, re.M)
    sections = re.findall(r"^## (.*)$", readme, re.M)
    anchors = [re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-") for title in sections]
    assert contents == " · ".join(
        f"[{title}](#{anchor})" for title, anchor in zip(sections, anchors, strict=True)
    )


def test_the_readme_is_short_with_the_quick_start_first() -> None:
    """Details go to the pages: the README's own text under 210 lines (its generated tables
    grow by a row or so a benchmark, and each holds what its generator makes), the quick
    start the first section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    own = written_by_hand(readme)
    assert len(own.splitlines()) < 210
    assert len(GENERATED_BLOCK.findall(readme)) >= 5  # the blocks are recognised
    assert re.findall(r"^## (.*)$", readme, re.M)[0] == "Quick start"
