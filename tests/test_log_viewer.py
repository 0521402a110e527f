"""The Inspect log viewer shows a TriviaQA log correctly in a real (headless) browser.

A log is produced offline (fixture rows, scripted model), ``inspect view`` serves
it on 127.0.0.1, and Debian's Chromium driven by Playwright checks that the task
name, the metric values and one sample's extracted answer are on the page.
Playwright cannot download browsers here, so it is pointed at the system
Chromium; without one (or without the playwright package) the browser tests are
skipped. Every benchmark of the catalog is shown: TriviaQA in detail, the others
one question each, and ScienceQA's metrics under the paper's column names.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from inspect_ai import eval

from benchmarks.catalog import specs
from benchmarks.triviaqa import triviaqa
from tests.conformance_pins import pinned
from tests.scripted import replies_by_prompt

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

FIXTURES = Path(__file__).parent / "fixtures" / "triviaqa"
CHROMIUM_PATHS = ("/usr/bin/chromium",)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]
SERVER_START_TIMEOUT_S = 60.0
SERVER_STOP_TIMEOUT_S = 10.0
PAGE_TIMEOUT_MS = 30_000
VIEWPORT = {"width": 1400, "height": 1000}

# Scripted replies: one exact match (tc_33) and one partial match (F1 0.8 against
# "new york yankees"), so exact-match accuracy (0.2) and mean F1 (0.36) differ.
SCRIPTED_REPLIES = {"Lloyd Webber": "Sunset Blvd.", "World Series": "New York"}
EXPECTED_ACCURACY = 0.2
EXPECTED_F1 = 0.36
# How the viewer's header shows those metrics (and exact match's stderr, 0.2 as well).
SHOWN_METRIC_NAMES = ["exact_match", "exact_match_stderr", "f1"]
SHOWN_METRIC_VALUES = ["0.2", "0.200", "0.36"]
TC_33_QUESTION = "Which Lloyd Webber musical premiered in the US on 10th December 1993?"


def _chromium() -> str | None:
    for path in CHROMIUM_PATHS:
        if os.access(path, os.X_OK):
            return path
    return shutil.which("chromium")


CHROMIUM = _chromium()
try:
    from playwright import sync_api
except ImportError:  # the browser tests are skipped
    sync_api = None  # type: ignore[assignment]
needs_browser = pytest.mark.skipif(
    CHROMIUM is None or sync_api is None,
    reason="no Chromium found (/usr/bin/chromium or `chromium` on PATH; install Debian's "
    "`chromium` package) or no playwright package (pip install -e '.[dev]'): "
    "the log-viewer browser tests need both",
)


def scripted_reply(prompt: str) -> str:
    # The question is the last block; demonstrations come before it.
    question = prompt.split("\n\n")[-1]
    for keyword, reply in SCRIPTED_REPLIES.items():
        if keyword in question:
            return reply
    return "I don't know"


@pytest.fixture
def log_dir(tmp_path: Path) -> Path:
    logs = tmp_path / "logs"
    task = triviaqa(
        data_files={
            "validation": str(FIXTURES / "validation.jsonl"),
            "train": str(FIXTURES / "train.jsonl"),
        }
    )
    [log] = eval(
        task,
        model=replies_by_prompt(scripted_reply),
        log_dir=str(logs),
        display="none",
    )
    assert log.status == "success", log.error
    assert log.results is not None
    metrics = {(s.name, m.name): m.value for s in log.results.scores for m in s.metrics.values()}
    assert metrics[("triviaqa_scorer", "exact_match")] == pytest.approx(EXPECTED_ACCURACY)
    assert metrics[("triviaqa_scorer", "f1")] == pytest.approx(EXPECTED_F1)
    return logs


def _inspect_executable() -> str:
    beside_python = Path(sys.executable).parent / "inspect"
    if beside_python.exists():
        return str(beside_python)
    found = shutil.which("inspect")
    if found is None:
        pytest.fail(f"no `inspect` executable next to {sys.executable} or on PATH")
    return found


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class ViewServer:
    url: str
    process: subprocess.Popen[bytes]
    stderr_path: Path

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=SERVER_STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=SERVER_STOP_TIMEOUT_S)


def _wait_until_serving(server: ViewServer) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(
                f"`inspect view` exited with code {server.process.returncode} before serving "
                f"{server.url}; its stderr:\n{server.stderr()}"
            )
        try:
            with urllib.request.urlopen(server.url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError) as ex:
            last_error = ex
        time.sleep(0.2)
    pytest.fail(
        f"`inspect view` did not answer on {server.url} within {SERVER_START_TIMEOUT_S:.0f} s "
        f"(last error: {last_error!r}); its stderr:\n{server.stderr()}"
    )


@pytest.fixture
def view_server(log_dir: Path, tmp_path: Path) -> Iterator[ViewServer]:
    with _serving(log_dir, tmp_path) as server:
        yield server


def _cut_off(shown: Locator, page: Page) -> bool:
    """Whether the element (or its parent) is cut by its box. The viewer may re-render the
    list between finding the element and measuring it: a detached element (no parent) is
    looked up again, never measured."""
    measure = (
        "e => (!e.isConnected || e.parentElement === null) ? null"
        " : [e, ...e.querySelectorAll('*')].some(x => x.scrollWidth > x.clientWidth)"
        " || (e.parentElement.scrollWidth > e.parentElement.clientWidth)"
    )
    for _ in range(50):
        cut = shown.evaluate(measure)
        if cut is not None:
            return bool(cut)
        page.wait_for_timeout(100)
    raise AssertionError("the element kept being replaced for 5 s: it could not be measured")


@contextlib.contextmanager
def _serving(log_dir: Path, tmp_path: Path) -> Iterator[ViewServer]:
    port = _free_port()
    stdout_path, stderr_path = tmp_path / "view.stdout", tmp_path / "view.stderr"
    # Output goes to files: a pipe nobody reads could fill up and block the server.
    with stdout_path.open("wb") as stdout, stderr_path.open("wb") as stderr:
        process = subprocess.Popen(
            [
                _inspect_executable(),
                "view",
                "start",
                "--log-dir",
                str(log_dir),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            stdout=stdout,
            stderr=stderr,
            stdin=subprocess.DEVNULL,
        )
    server = ViewServer(f"http://127.0.0.1:{port}/", process, stderr_path)
    try:
        _wait_until_serving(server)
        yield server
    finally:
        _stop(process)


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Page]:
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport=VIEWPORT,
        )
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.set_default_timeout(PAGE_TIMEOUT_MS)
            yield page
        finally:
            context.close()


@pytest.mark.slow
@needs_browser
def test_log_viewer_shows_task_metrics_and_extracted_answer(
    view_server: ViewServer, page: Page, tmp_path: Path
) -> None:
    expect = sync_api.expect
    try:
        # With a single log in the directory the viewer opens it directly.
        page.goto(view_server.url)
        expect(page.locator("#task-title")).to_have_text(
            "benchmarks/triviaqa", timeout=PAGE_TIMEOUT_MS
        )
        page.screenshot(path=tmp_path / "task.png")

        # The task's metrics, in the header.
        expect(page.locator(".vertical-metric-label")).to_have_text(
            SHOWN_METRIC_NAMES, timeout=PAGE_TIMEOUT_MS
        )
        expect(page.locator(".vertical-metric-value")).to_have_text(SHOWN_METRIC_VALUES)

        # The sample list shows the evaluated question (the demonstrations are added by
        # the solver, not held in the sample's input).
        listed = page.get_by_text(TC_33_QUESTION, exact=False).first
        expect(listed).to_be_visible(timeout=PAGE_TIMEOUT_MS)
        page.get_by_text("tc_33", exact=True).click()
        scoring_tab = page.get_by_role("tab", name="Scoring")
        scoring_tab.click()
        expect(scoring_tab).to_have_attribute("aria-selected", "true", timeout=PAGE_TIMEOUT_MS)
        scoring_panel_id = scoring_tab.get_attribute("aria-controls")
        assert scoring_panel_id, "the Scoring tab names no panel (aria-controls)"
        scoring = page.locator(f"#{scoring_panel_id}")
        # The answer is the cell right after the scorer's name; the raw reply was
        # "Sunset Blvd." and the extraction cut it at the period.
        scorer_cell = scoring.get_by_text("triviaqa_scorer", exact=True)
        answer_cell = scorer_cell.locator("xpath=following-sibling::*[1]")
        expect(answer_cell).to_have_text("Sunset Blvd", timeout=PAGE_TIMEOUT_MS)
        expect(
            scoring.get_by_text("normalized answer: 'sunset blvd'; matched alias 'sunset blvd'")
        ).to_be_visible(timeout=PAGE_TIMEOUT_MS)
        page.screenshot(path=tmp_path / "sample_scoring.png")
    except Exception:
        with contextlib.suppress(Exception):
            page.screenshot(path=tmp_path / "failure.png")
        raise


# One bundled question of every benchmark but TriviaQA (the test above), answered by the
# offline oracle (and graded by it): the sample list shows the question, the Scoring tab the
# explanation of the spec's scorer, which matches the EXPLANATION pattern pinned in the
# benchmark's tests/<name>/conformance.py.
EXPLANATION = "EXPLANATION"
EXPLANATION_WHAT = 'r"<the pattern the scorer\'s explanation of an oracle answer matches>"'
OTHER_BENCHMARKS = [name for name in specs() if name != "triviaqa"]


@pytest.mark.parametrize("name", list(specs()))
def test_every_benchmark_has_its_explanation_pattern(
    name: str, one_sample_log: OneSampleLog
) -> None:
    # the fixture matched the logged explanation against the pattern, without a browser
    assert re.fullmatch(pinned(name, EXPLANATION, EXPLANATION_WHAT), one_sample_log.explanation)


@dataclass
class OneSampleLog:
    name: str
    log_dir: Path
    question: str
    explanation: str
    sample_id: str


@pytest.fixture
def one_sample_log(name: str, tmp_path: Path) -> OneSampleLog:
    # Run before the browser starts: Playwright's sync API holds an event loop.
    spec = specs()[name]
    scorer, explanation = spec.scorer, pinned(name, EXPLANATION, EXPLANATION_WHAT)
    roles = {"grader": "benchmarks/oracle"} if spec.judged else None
    [log] = eval(
        spec.task(bundled_sample=True, num_examples=2),  # two: the viewer shows its list
        model="benchmarks/oracle",
        model_roles=roles,  # type: ignore[arg-type]
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success" and log.samples is not None
    sample = log.samples[0]
    assert sample.scores is not None
    logged = sample.scores[scorer].explanation or ""
    assert re.fullmatch(explanation, logged), logged
    question = sample.input if isinstance(sample.input, str) else sample.input[-1].text
    return OneSampleLog(name, tmp_path / "logs", question, logged, str(sample.id))


@pytest.mark.slow
@needs_browser
@pytest.mark.parametrize("name", OTHER_BENCHMARKS)
def test_log_viewer_shows_each_benchmarks_question_and_explanation(
    name: str, one_sample_log: OneSampleLog, page: Page, tmp_path: Path
) -> None:
    expect = sync_api.expect
    with _serving(one_sample_log.log_dir, tmp_path) as server:
        try:
            page.goto(server.url)
            expect(page.locator("#task-title")).to_have_text(f"benchmarks/{name}")
            # metric names without the package prefix: only the task and the model have it
            prefixed = set(re.findall(r"benchmarks/\w+", page.locator("body").inner_text().lower()))
            assert prefixed <= {f"benchmarks/{name}", "benchmarks/oracle"}
            # the sample list shows the evaluated question (not a demonstration or the
            # shared instruction): click it there
            listed = page.get_by_text(one_sample_log.question[:40], exact=False).first
            expect(listed).to_be_visible()
            page.screenshot(path=tmp_path / f"{name}_list.png")
            # and the sample's id in full (the list cuts a long one with an ellipsis)
            shown_id = page.get_by_text(one_sample_log.sample_id, exact=True).first
            expect(shown_id).to_be_visible()
            assert not _cut_off(shown_id, page), (
                f"the sample list cuts the id {one_sample_log.sample_id!r}"
            )
            listed.click()
            scoring_tab = page.get_by_role("tab", name="Scoring")
            scoring_tab.click()
            panel = page.locator(f"#{scoring_tab.get_attribute('aria-controls')}")
            first_line = one_sample_log.explanation.splitlines()[0]
            expect(panel.get_by_text(first_line[:60], exact=False).first).to_be_visible()
            page.screenshot(path=tmp_path / f"{name}.png")
        except Exception:
            with contextlib.suppress(Exception):
                page.screenshot(path=tmp_path / "failure.png")
            raise


# ScienceQA's columns as the paper names them, in its table's order, after the overall ones.
SCIENCEQA_METRIC_NAMES = [
    "accuracy",
    "stderr",
    "parse_failure_rate",
    "NAT",
    "SOC",
    "LAN",
    "TXT",
    "IMG",
    "NO",
    "G1-6",
    "G7-12",
]
# as the viewer shows them: accuracy 6/9, stderr, parse failures 1/9, NAT 4/6, SOC 0,
# LAN 2/2, TXT 3/5, IMG 3/4, NO 2/3, G1-6 3/5, G7-12 3/4
SCIENCEQA_METRIC_VALUES = [
    "0.667",
    "0.167",
    "0.111",
    "0.667",
    "0.0",
    "1.0",
    "0.6",
    "0.75",
    "0.667",
    "0.6",
    "0.75",
]


@pytest.fixture
def scienceqa_log_dir(tmp_path: Path) -> Path:
    """The scripted replies of tests/scienceqa on its nine fixture rows (values differ by
    column: NAT 4/6, TXT 3/5, IMG 3/4, ...)."""
    from benchmarks.scienceqa import scienceqa
    from tests.scienceqa.test_scienceqa import FIXTURE, scripted_reply
    from tests.scripted import scripted_model

    [log] = eval(
        scienceqa(data_files=str(FIXTURE)),
        model=scripted_model(scripted_reply),
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success" and log.results is not None
    assert list(log.results.scores[0].metrics) == SCIENCEQA_METRIC_NAMES
    return tmp_path / "logs"


@pytest.mark.slow
@needs_browser
def test_log_viewer_shows_scienceqas_columns_by_the_papers_names(
    scienceqa_log_dir: Path, page: Page, tmp_path: Path
) -> None:
    expect = sync_api.expect
    with _serving(scienceqa_log_dir, tmp_path) as server:
        try:
            page.goto(server.url)
            expect(page.locator("#task-title")).to_have_text("benchmarks/scienceqa")
            # the header shows the first five metrics ...
            expect(page.locator(".vertical-metric-label")).to_have_text(SCIENCEQA_METRIC_NAMES[:5])
            # ... and "All scoring..." every one, the paper's columns under their metric
            page.get_by_text("All scoring...").click()
            dialog = page.get_by_role("dialog")
            headers = dialog.locator("th")
            expect(headers).to_have_text(
                ["", "", "", "", "Accuracy by paper column", "Scorer", *SCIENCEQA_METRIC_NAMES]
            )
            expect(dialog.locator("td")).to_have_text(
                ["option_letter_scorer", *SCIENCEQA_METRIC_VALUES]
            )
            page.screenshot(path=tmp_path / "scienceqa.png")
        except Exception:
            with contextlib.suppress(Exception):
                page.screenshot(path=tmp_path / "failure.png")
            raise


def shown(value: object) -> str:
    """A value as the viewer's CONFIG header writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


@pytest.fixture
def settings_log(name: str, tmp_path: Path) -> tuple[Path, list[str]]:
    """A run of the benchmark under its default profile, and ``switch: value`` for the
    profile and each switch as the task applied them (its metadata)."""
    spec = specs()[name]
    roles = {"grader": "benchmarks/oracle"} if spec.judged else None
    [log] = eval(
        spec.task(bundled_sample=True, num_examples=1),
        model="benchmarks/oracle",
        model_roles=roles,  # type: ignore[arg-type]
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    applied = log.eval.metadata or {}
    names = ["profile", *spec.profiles["default"].switch_names()]
    return tmp_path / "logs", [f"{switch}: {shown(applied[switch])}" for switch in names]


@pytest.mark.slow
@needs_browser
@pytest.mark.parametrize("name", list(specs()))
def test_the_config_header_shows_each_setting_as_it_ran(
    name: str, settings_log: tuple[Path, list[str]], page: Page, tmp_path: Path
) -> None:
    log_dir, settings = settings_log
    with _serving(log_dir, tmp_path) as server:
        page.goto(server.url)
        sync_api.expect(page.locator("#task-title")).to_have_text(f"benchmarks/{name}")
        body = page.locator("body").inner_text()
        header = body.split("CONFIG", 1)[1].split("DURATION", 1)[0]
        parts = [part.strip() for part in header.strip().split(", ")]
        assert [part for part in settings if part not in parts] == [], header
        assert not [part for part in parts if part.endswith(": profile")], header
