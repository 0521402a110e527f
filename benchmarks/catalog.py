"""The benchmarks of this package, found: every module's ``SPEC``, in listing order.

A benchmark is a top-level module ``benchmarks/<name>.py`` (not ``_``-prefixed, not this
one nor ``spec``) that defines ``SPEC = BenchmarkSpec(...)``; nothing lists them by hand
(adding one: docs/development.md, "Adding a benchmark").
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import Any

from benchmarks.spec import BenchmarkSpec

NOT_BENCHMARKS = ("catalog", "spec")


def task_modules() -> list[str]:
    """The top-level modules of the package that may declare a benchmark."""
    import benchmarks

    return sorted(
        module.name
        for module in pkgutil.iter_modules(benchmarks.__path__)
        if not module.ispkg
        and not module.name.startswith("_")
        and module.name not in NOT_BENCHMARKS
    )


@functools.cache
def specs() -> dict[str, BenchmarkSpec]:
    """Every benchmark's spec, by task name, in the specs' ``order``."""
    found = []
    for name in task_modules():
        spec = getattr(importlib.import_module(f"benchmarks.{name}"), "SPEC", None)
        if spec is None:
            continue
        assert isinstance(spec, BenchmarkSpec) and spec.name == name, name
        found.append(spec)
    found.sort(key=lambda spec: spec.order)
    orders = [spec.order for spec in found]
    assert len(set(orders)) == len(orders), f"two benchmarks share an order: {orders}"
    return {spec.name: spec for spec in found}


def spec(name: str) -> BenchmarkSpec:
    """The spec of task ``name`` (``triviaqa`` or ``benchmarks/triviaqa``)."""
    return specs()[name.rsplit("/", 1)[-1]]


def __getattr__(name: str) -> Any:
    # BENCHMARKS, the task names in listing order: found when first asked for (importing
    # the task modules while this module loads could meet one that imports it)
    if name == "BENCHMARKS":
        return tuple(specs())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
