"""Peers (the reference harnesses) installed at pinned versions into throwaway venvs.

Each peer gets its own virtual environment under ``$PEER_ENV_DIR`` (default:
``<user cache>/inspect_benchmarks/peers``), keyed by its requirements, made
once and reused. A peer that cannot be installed is skipped with the reason
and the tail of pip's output, never silently. Results of each comparison are
recorded with ``record()`` and printed at the end of the run (``conftest.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import platformdirs
import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV_DIR = Path(
    os.environ.get("PEER_ENV_DIR")
    or Path(platformdirs.user_cache_dir("inspect_benchmarks")) / "peers"
)
# openai/simple-evals is not on PyPI: a checkout of it (or a copy of these files) at the
# pinned commit, named by SIMPLE_EVALS_DIR; each file the comparison runs is checked.
SIMPLE_EVALS_COMMIT = "ee3b0318d8d1d9d72755a4120879be65f7c07e9e"
SIMPLE_EVALS_FILES = {
    "simpleqa_eval.py": "d61a8f97132b29f6fe5d264dd9d619407ea14421525827fabd4cc21162e35c29",
    "common.py": "84616c52821a30ae3f55f153a763153fd833cb41b547b09f547b46e6337f8f35",
    "types.py": "8c7161765cd2a6bd426db2ce493c337da3eafe50d2efacc02a318b16afacfadb",
    "sampler/chat_completion_sampler.py": (
        "d9d7568ad5b04379342b7f269a6028c6945c518bc8baa56969aad035afc8d435"
    ),
}
INSTALL_TIMEOUT_SECONDS = 1800


def peer_python(
    name: str, requirements: list[str], *, then_install: list[list[str]] | None = None
) -> Path:
    """The Python of a venv holding ``requirements`` (made on first use).

    ``then_install``: further ``pip install`` argument lists, run in order after the
    first (a package with ``--no-deps``, then its dependencies beside a pinned one); they
    are part of the venv's key, so changing them makes a new venv.
    """
    more = then_install or []
    identity: list[object] = [sys.version, requirements] + ([more] if more else [])
    key = hashlib.sha256(json.dumps(identity).encode()).hexdigest()[:12]
    venv = ENV_DIR / f"{name}-{key}"
    python = venv / "bin" / "python"
    if (venv / "installed").exists():
        return python
    shutil.rmtree(venv, ignore_errors=True)
    pip = [str(python), "-m", "pip", "install", "-q"]
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [*pip, "--upgrade", "pip"],
        *([*pip, *arguments] for arguments in [requirements, *more]),
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_SECONDS)
        if done.returncode != 0:
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            pytest.skip(
                f"PEER NOT INSTALLED: {name} could not be installed (step "
                f"{' '.join(step[3:] if step[0] == str(python) else step)}); its comparison "
                f"did not run.\n{tail}"
            )
    (venv / "installed").write_text("\n".join(" ".join(step) for step in [requirements, *more]))
    return python


def lm_eval_task_yaml(python: Path, relative: str) -> Path:
    """A task file shipped with the lm-evaluation-harness installed in ``python``'s venv
    (``relative`` to its ``lm_eval/tasks`` folder)."""
    where = "import lm_eval, pathlib; print(pathlib.Path(lm_eval.__file__).parent)"
    done = subprocess.run(
        [str(python), "-c", where],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(done.stdout.strip()) / "tasks" / relative


def downloaded_wheel(requirement: str) -> Path:
    """A peer's wheel, downloaded without its dependencies (to run one file of it)."""
    folder = ENV_DIR / "wheels" / hashlib.sha256(requirement.encode()).hexdigest()[:12]
    wheels = sorted(folder.glob("*.whl"))
    if wheels:
        return wheels[0]
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "-d",
            str(folder),
            requirement,
        ],
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT_SECONDS,
    )
    wheels = sorted(folder.glob("*.whl"))
    if done.returncode != 0 or not wheels:
        pytest.skip(
            f"PEER NOT DOWNLOADED: {requirement} could not be downloaded; its comparison "
            f"did not run.\n{(done.stdout + done.stderr).strip()[-1500:]}"
        )
    return wheels[0]


def require_simple_evals() -> Path:
    """The folder of openai/simple-evals at the pinned commit (skips, saying why, without)."""
    folder = os.environ.get("SIMPLE_EVALS_DIR")
    if not folder:
        pytest.skip(
            "PEER NOT FOUND: set SIMPLE_EVALS_DIR to a checkout of openai/simple-evals at "
            f"commit {SIMPLE_EVALS_COMMIT} (it is not on PyPI); its comparison did not run."
        )
    root = Path(folder)
    for name, expected in SIMPLE_EVALS_FILES.items():
        path = root / name
        actual = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
        if actual != expected:
            pytest.skip(
                f"PEER NOT PINNED: {path} is {'missing' if actual is None else 'not'} the "
                f"file of openai/simple-evals at {SIMPLE_EVALS_COMMIT}; its comparison did "
                "not run."
            )
    return root


@dataclass
class PeerResult:
    """One peer comparison: how many rows, and how many agreed on each thing compared.

    ``peer`` and ``compared`` are the README's "reference" and "compared" columns;
    ``verdicts_note`` follows the verdict count there; ``notes`` (run details, such
    as timings) is printed, not kept in the results file.
    """

    peer: str
    version: str
    rows: int
    prompts_identical: int
    verdicts_identical: int
    compared: str = ""
    verdicts_note: str = ""
    notes: str = ""

    def line(self) -> str:
        return (
            f"{self.peer} {self.version}: rows {self.rows}, prompts identical "
            f"{self.prompts_identical}/{self.rows}, verdicts identical "
            f"{self.verdicts_identical}/{self.rows}" + (f" ({self.notes})" if self.notes else "")
        )

    def kept(self) -> dict[str, object]:
        return {key: value for key, value in asdict(self).items() if key != "notes"}


RESULTS: list[PeerResult] = []
# What the last run of the peer comparisons found, rewritten by every run; the README's
# "Verified against" table is made from it (python -m tests.peers.verified_table).
RESULTS_FILE = ROOT / "tests" / "peers" / "results.json"


def start_results() -> None:
    """Begin a run's results from nothing (the file of an earlier run is not kept)."""
    RESULTS.clear()
    RESULTS_FILE.write_text("[]\n", encoding="utf-8")


def record(result: PeerResult) -> None:
    """Keep a comparison's counts for the end-of-run summary and the results file."""
    RESULTS.append(result)
    rows = [kept.kept() for kept in RESULTS]
    RESULTS_FILE.write_text(json.dumps(rows, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
