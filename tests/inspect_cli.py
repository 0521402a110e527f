"""Running the ``inspect`` command line in a subprocess, as a user runs a reference config."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def inspect_cli() -> str:
    sibling = Path(sys.executable).with_name("inspect")
    return str(sibling) if sibling.exists() else (shutil.which("inspect") or "inspect")


def registry_namespace_shim(folder: Path) -> Path:
    """A folder that, on ``PYTHONPATH``, makes ``benchmarks/<task>`` resolve in an editable install.

    Inspect namespaces a task by the installed distribution named like the task's
    top-level package (``benchmarks``). An editable install of this project is
    named ``inspect-reference-benchmarks``, so there the registry names resolve to
    nothing (tests/test_registry.py fails the same way; an installed wheel is not
    affected). A ``benchmarks`` dist-info marking this checkout as editable stands
    in until the packaging names the distribution so that Inspect finds it.
    """
    dist_info = folder / "benchmarks-0.0.0.dist-info"
    dist_info.mkdir(parents=True, exist_ok=True)
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: benchmarks\nVersion: 0.0.0\n")
    (dist_info / "direct_url.json").write_text(
        json.dumps({"url": ROOT.as_uri(), "dir_info": {"editable": True}})
    )
    return folder


def loopback_env(base_url: str, shim_folder: Path) -> dict[str, str]:
    """Environment for ``--model openai-api/loopback/<model>`` against a loopback server."""
    env = {**os.environ, "LOOPBACK_BASE_URL": base_url, "LOOPBACK_API_KEY": "loopback"}
    shim = str(registry_namespace_shim(shim_folder))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [shim, env.get("PYTHONPATH")]))
    return env


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
        env=loopback_env(base_url, tmp_path / "namespace"),
        capture_output=True,
        text=True,
        timeout=1800,
    )
