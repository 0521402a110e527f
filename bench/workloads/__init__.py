"""What the harness does for each benchmark: the data it generates and how it drives the task.

A module ``bench/workloads/<name>.py`` for a benchmark of ``benchmarks.catalog``,
ending with ``WORKLOAD = Workload(...)``, generates its data at the upstream sizes. A
benchmark without one is measured on its bundled sample (``bundled_workload``: no files
generated, ``bundled_sample=true``), so a new benchmark is in the bench from the start;
its own module makes the measurement full-size. ``case()`` reads these modules alone,
without importing any benchmark: ``bench.construction.fresh_process`` times the import of
the benchmark module itself.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
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
    ``construct_modes``: the task-construction measurements ``bench.construction`` makes;
    ``part``: the part of its workload's ``sizes`` whose rows it evaluates, one sample a
    row (None: the bundled sample).
    """

    key: str
    benchmark: str
    task_args: Callable[[Path], dict[str, Any]]
    reply: str
    grader_reply: str | None = None
    image_rows: bool = False
    construct_modes: tuple[str, ...] = FULL_CONSTRUCTION
    part: str | None = None

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
    """A workload module names no benchmark of the catalog."""


def discovered() -> dict[str, Workload]:
    """The workload modules of this package, by benchmark name (no benchmark imported)."""
    found = {}
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda module: module.name):
        workload = importlib.import_module(f"{__name__}.{module.name}").WORKLOAD
        assert isinstance(workload, Workload) and workload.benchmark == module.name, module
        found[module.name] = workload
    return found


def bundled_task_args(data: Path) -> dict[str, Any]:
    return {"bundled_sample": True}


def bundled_workload(benchmark: str, judged: bool | None = None) -> Workload:
    """A benchmark without a workload module: its bundled sample, nothing generated. The
    scripted judge replies when the benchmark is judged (None: not known here, without
    importing the benchmark; a judge role is then bound, and unused by one that is not)."""
    grader = GRADER_REPLY if judged is None or judged else None
    return Workload(
        benchmark=benchmark,
        sizes={},
        files=lambda sizes: {},
        write=lambda out_dir, sizes, rng, seed_dir, seed: "the bundled sample",
        cases=(Case(benchmark, benchmark, bundled_task_args, reply="", grader_reply=grader),),
    )


@functools.cache
def workloads() -> dict[str, Workload]:
    """Every benchmark's workload, in the catalog's order (its bundled sample where it has
    no module); a module for no benchmark is an error naming it."""
    from benchmarks.catalog import specs

    found = discovered()
    extra = [name for name in found if name not in specs()]
    if extra:
        raise MissingWorkload(f"bench workloads for no benchmark: {', '.join(extra)}")
    return {
        name: found.get(name) or bundled_workload(name, spec.judged)
        for name, spec in specs().items()
    }


@functools.cache
def cases() -> dict[str, Case]:
    """Every case of every workload, by key, in the catalog's order."""
    return {case.key: case for workload in workloads().values() for case in workload.cases}


def chosen_cases(only: str) -> list[str]:
    """The case keys of ``--only`` (comma-separated), in the catalog's order; every case
    when empty. An unknown key is an error naming the cases there are."""
    asked = [key for key in only.split(",") if key]
    unknown = [key for key in asked if key not in cases()]
    if unknown:
        raise ValueError(f"no bench case {', '.join(unknown)}; the cases: {', '.join(cases())}")
    return [key for key in cases() if not asked or key in asked]


@functools.cache
def case(key: str) -> Case:
    """The case ``key``, read without importing any benchmark (for the measuring child)."""
    for workload in discovered().values():
        for found in workload.cases:
            if found.key == key:
                return found
    if importlib.util.find_spec(f"benchmarks.{key}") is not None:
        return bundled_workload(key).cases[0]
    raise KeyError(f"no bench case {key!r}")
