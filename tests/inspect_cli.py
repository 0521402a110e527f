"""Running the ``inspect`` command line in a subprocess, as a user runs a reference config."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def inspect_cli() -> str:
    sibling = Path(sys.executable).with_name("inspect")
    return str(sibling) if sibling.exists() else (shutil.which("inspect") or "inspect")


def loopback_env(base_url: str) -> dict[str, str]:
    """Environment for ``--model openai-api/loopback/<model>`` against a loopback server."""
    return {**os.environ, "LOOPBACK_BASE_URL": base_url, "LOOPBACK_API_KEY": "loopback"}


def run_config(
    config: Path, base_url: str, tmp_path: Path, *extra: str
) -> subprocess.CompletedProcess[str]:
    """``inspect eval --run-config <config>`` against the loopback server; logs in tmp_path/logs."""
    return subprocess.run(
        [
            inspect_cli(),
            "eval",
            "--run-config",
            str(config),
            "--model",
            "openai-api/loopback/scripted",
            "--log-dir",
            str(tmp_path / "logs"),
            "--display",
            "none",
            *extra,
        ],
        env=loopback_env(base_url),
        capture_output=True,
        text=True,
        timeout=1800,
    )


def offline_eval(*args: str, log_dir: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    """``inspect eval <args> --model benchmarks/oracle`` from the repository root, no display."""
    return subprocess.run(
        [
            inspect_cli(),
            "eval",
            *args,
            "--model",
            "benchmarks/oracle",
            "--log-dir",
            str(log_dir),
            "--display",
            "none",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
