"""Running the ``inspect`` command line in a subprocess, as a user runs a reference config."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

ROOT = Path(__file__).resolve().parents[1]


def inspect_cli() -> str:
    sibling = Path(sys.executable).with_name("inspect")
    return str(sibling) if sibling.exists() else (shutil.which("inspect") or "inspect")


def loopback_env(base_url: str) -> dict[str, str]:
    """Environment for ``--model openai-api/loopback/<model>`` against a loopback server."""
    return {**os.environ, "LOOPBACK_BASE_URL": base_url, "LOOPBACK_API_KEY": "loopback"}


def run_config(
    config: Path,
    base_url: str,
    tmp_path: Path,
    *extra: str,
    model: str = "openai-api/loopback/scripted",
    log_dir: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``inspect eval --run-config <config>`` against the loopback server, from the
    repository root; logs in ``log_dir`` (tmp_path/logs), ``env`` added to the loopback's."""
    return subprocess.run(
        [
            inspect_cli(),
            "eval",
            "--run-config",
            str(config),
            "--model",
            model,
            *extra,
            "--log-dir",
            str(log_dir or tmp_path / "logs"),
            "--display",
            "none",
        ],
        cwd=ROOT,
        env={**loopback_env(base_url), **(env or {})},
        capture_output=True,
        text=True,
        timeout=1800,
    )


def config_log(
    config: Path,
    base_url: str,
    tmp_path: Path,
    *extra: str,
    model: str = "openai-api/loopback/scripted",
    log_dir: Path | None = None,
    env: dict[str, str] | None = None,
) -> EvalLog:
    """The one log of a :func:`run_config` run that must exit 0 (else its output's end)."""
    log_dir = log_dir or tmp_path / "logs"
    done = run_config(config, base_url, tmp_path, *extra, model=model, log_dir=log_dir, env=env)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    [log_file] = log_dir.glob("*.eval")
    return read_eval_log(str(log_file))


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


@contextlib.contextmanager
def serving_view(
    log_dir: str, env: dict[str, str], cwd: Path = ROOT, timeout: float = 120
) -> Iterator[tuple[str, dict[str, Any]]]:
    """``inspect view --log-dir <log_dir>`` on a free port, as long as the ``with`` lasts:
    its API's URL and the listing ``/api/logs`` gave once it answered."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    viewer = subprocess.Popen(
        [inspect_cli(), "view", "--log-dir", log_dir, "--port", str(port)],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    api = f"http://127.0.0.1:{port}/api"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{api}/logs", timeout=30) as response:
                    listing = json.loads(response.read())
                break
            except OSError:
                assert viewer.poll() is None, f"inspect view exited ({viewer.returncode})"
                assert time.monotonic() < deadline, "inspect view did not answer"
                time.sleep(0.5)
        yield api, listing
    finally:
        viewer.terminate()
        viewer.wait(timeout=30)
