"""inspect_evals as a peer: 0.28.0's task code, run in a venv of inspect-evals 0.26.0.

inspect-evals 0.28.0 cannot be installed from PyPI: it requires
``inspect-evals-utils==0.2.0``, which is not published there. Its benchmark
folders used here (``simpleqa/`` and ``winogrande/``) are byte for byte those
of 0.26.0, which installs with the same ``inspect-ai`` (0.3.285). So the peer
venv holds 0.26.0, and ``inspect_evals_python()`` checks, file by file, that
each module of those folders is the one in the 0.28.0 wheel (downloaded
without its dependencies) before a comparison runs. What is not 0.28.0's: the
helpers those modules import (``inspect_evals.utils``, ``constants``,
``metadata``), which 0.28.0 takes from inspect-evals-utils; the comparisons
replace the dataset helpers with the local rows and do not use the others'
results (sample ids are not compared).
"""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

from tests.peers.peer_env import downloaded_wheel, peer_python

INSPECT_EVALS_VERSION = "0.28.0"
INSTALLED_VERSION = "0.26.0"
REQUIREMENTS = [
    f"inspect-evals=={INSTALLED_VERSION}",
    "inspect-ai==0.3.285",
    "openai==3.57.0",
]
# The benchmark folders the comparisons run, checked against the 0.28.0 wheel.
TASK_FOLDERS = ("inspect_evals/simpleqa/", "inspect_evals/winogrande/")


def inspect_evals_python() -> Path:
    """The Python of the peer venv, after checking its task code is 0.28.0's."""
    python = peer_python("inspect-evals", REQUIREMENTS)
    site = _site_packages(python)
    wheel = downloaded_wheel(f"inspect-evals=={INSPECT_EVALS_VERSION}")
    differing = _differing_files(wheel, site)
    assert not differing, (
        f"inspect-evals {INSTALLED_VERSION}'s files differ from {INSPECT_EVALS_VERSION}'s "
        f"({wheel.name}): {differing}; the comparison would not run "
        f"{INSPECT_EVALS_VERSION}'s task code"
    )
    return python


def _site_packages(python: Path) -> Path:
    where = "import inspect_evals, pathlib; print(pathlib.Path(inspect_evals.__file__).parents[1])"
    done = subprocess.run([str(python), "-c", where], capture_output=True, text=True, check=True)
    return Path(done.stdout.strip())


def _differing_files(wheel: Path, site: Path) -> list[str]:
    """The files of ``TASK_FOLDERS`` that differ between ``wheel`` and ``site``."""
    differing = []
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.startswith(TASK_FOLDERS)]
        assert names, f"{wheel.name} has none of {TASK_FOLDERS}"
        for name in names:
            installed = site / name
            if not installed.is_file() or installed.read_bytes() != archive.read(name):
                differing.append(name)
    for folder in TASK_FOLDERS:
        for extra in sorted((site / folder).rglob("*.py")):
            name = extra.relative_to(site).as_posix()
            if name not in names:
                differing.append(f"{name} (not in the wheel)")
    return differing
