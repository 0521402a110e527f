"""What the harness does for each benchmark: the data it generates and how it drives the task.

One module ``bench/workloads/<name>.py`` per benchmark of ``benchmarks.catalog``,
ending with ``WORKLOAD = Workload(...)``. A benchmark without one stops the
harness (``workloads()``) with a message naming the missing module, and
tests/test_bench_workloads.py fails, so a new benchmark cannot be left out of
the bench unnoticed. ``cases()`` reads these modules alone, without importing
any benchmark: ``bench.measure`` times the import of the benchmark module itself.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FULL_CONSTRUCTION = ("full", "limit10", "eval10")
# The scripted grader's reply: the SimpleQA judge's letter for "correct".
GRADER_REPLY = "A"


@dataclass(frozen=True)
class Case:
    """One task the harness builds and drives: a benchmark under given task arguments.

    ``key`` names the case in results (the benchmark's name for its main case);
    ``reply`` is the scripted model's answer, ``grader_reply`` the scripted
    judge's (judged benchmarks only); ``image_rows``: the case evaluates image rows;
    ``construct_modes``: the task-construction measurements ``bench.run`` makes.
    """

    key: str
    benchmark: str
    task_args: Callable[[Path], dict[str, Any]]
    reply: str
    grader_reply: str | None = None
    image_rows: bool = False
    construct_modes: tuple[str, ...] = FULL_CONSTRUCTION

    @property
    def module(self) -> str:
        """The benchmark's module (its name is the task function's)."""
        return f"benchmarks.{self.benchmark}"

    @property
    def function(self) -> str:
        return self.benchmark


# Writes the benchmark's files under the output folder at the given sizes; returns where
# the text came from. Arguments: out_dir, sizes, rng, seed_dir (real rows or None), seed.
Writer = Callable[[Path, Mapping[str, int], random.Random, "Path | None", int], str]


@dataclass(frozen=True)
class Workload:
    """A benchmark's generated data and its cases.

    ``sizes``: the upstream row counts by part (scaled for tests); ``files``: each file
    (relative to the data folder) at given sizes, with its expected (rows, image rows);
    ``write``: writes them; ``cases``: the tasks the harness runs on them.
    """

    benchmark: str
    sizes: Mapping[str, int]
    files: Callable[[Mapping[str, int]], dict[str, tuple[int, int | None]]]
    write: Writer
    cases: tuple[Case, ...]

    def scaled(self, scale: float) -> dict[str, int]:
        """``sizes`` times ``scale``, at least one row each."""
        if not 0 < scale <= 1:
            raise ValueError(f"scale must be in (0, 1], got {scale!r}")
        return {part: max(1, round(rows * scale)) for part, rows in self.sizes.items()}


class MissingWorkload(LookupError):
    """A benchmark of the catalog has no ``bench/workloads/<name>.py``."""


def discovered() -> dict[str, Workload]:
    """The workload modules of this package, by benchmark name (no benchmark imported)."""
    found = {}
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda module: module.name):
        workload = importlib.import_module(f"{__name__}.{module.name}").WORKLOAD
        assert isinstance(workload, Workload) and workload.benchmark == module.name, module
        found[module.name] = workload
    return found


@functools.cache
def workloads() -> dict[str, Workload]:
    """Every benchmark's workload, in the catalog's order; a benchmark without one (or a
    workload without its benchmark) is an error naming it."""
    from benchmarks.catalog import specs

    found = discovered()
    missing = [name for name in specs() if name not in found]
    if missing:
        raise MissingWorkload(
            f"no bench workload for the benchmark(s) {', '.join(missing)}: add "
            + ", ".join(f"bench/workloads/{name}.py" for name in missing)
            + " (the generated data and the cases; see bench/workloads/__init__.py)"
        )
    extra = [name for name in found if name not in specs()]
    if extra:
        raise MissingWorkload(f"bench workloads for no benchmark: {', '.join(extra)}")
    return {name: found[name] for name in specs()}


@functools.cache
def cases() -> dict[str, Case]:
    """Every case of every workload, by key, in the catalog's order."""
    return {case.key: case for workload in workloads().values() for case in workload.cases}


@functools.cache
def case(key: str) -> Case:
    """The case ``key``, read without importing any benchmark (for the measuring child)."""
    for workload in discovered().values():
        for found in workload.cases:
            if found.key == key:
                return found
    raise KeyError(f"no bench case {key!r}")
