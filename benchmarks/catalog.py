"""The benchmarks of this package: each module's ``SPEC``, in one list.

Adding a benchmark: a module ``benchmarks/<name>.py`` ending with its
``SPEC = BenchmarkSpec(...)``, its name below, its bundled sample, its docs
page and its tests (docs/development.md, "Adding a benchmark";
tests/test_catalog.py says what is missing).
"""

from __future__ import annotations

import functools
import importlib

from benchmarks.spec import BenchmarkSpec

BENCHMARKS = ("triviaqa", "simpleqa", "simpleqa_verified", "winogrande", "scienceqa")


@functools.cache
def specs() -> dict[str, BenchmarkSpec]:
    """Every benchmark's spec, by task name."""
    found = {}
    for name in BENCHMARKS:
        spec = importlib.import_module(f"benchmarks.{name}").SPEC
        assert isinstance(spec, BenchmarkSpec) and spec.name == name, name
        found[name] = spec
    return found


def spec(name: str) -> BenchmarkSpec:
    """The spec of task ``name`` (``triviaqa`` or ``benchmarks/triviaqa``)."""
    return specs()[name.rsplit("/", 1)[-1]]
