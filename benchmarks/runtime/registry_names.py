"""Registry names: ``benchmarks/<name>`` however the package is installed.

Inspect prefixes the name of a task, scorer, metric or solver with its package only when
it recognizes the package as installed: in site-packages, or as an editable install whose
distribution is named like the import package. This distribution is
``inspect-reference-benchmarks`` and the import package ``benchmarks``, so an editable
install (``pip install -e .``) is not recognized, and each registered object names itself
``benchmarks/<name>`` exactly when Inspect would not add the prefix (``inspect eval
benchmarks/triviaqa`` then works in both kinds of install). A task file loaded by path
(``inspect eval benchmarks/triviaqa.py``) keeps the bare name, which is what Inspect looks
up in that file. (Log task names are ``benchmarks/<name>`` in every case: each ``Task``
sets it.)
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from inspect_ai.scorer import Metric, metric
from inspect_ai.util import RegistryInfo, registry_info

from benchmarks.runtime.inspect_private import get_installed_package_name, registry_add

PACKAGE = "benchmarks"

T = TypeVar("T")
P = ParamSpec("P")


def namespaced(name: str, module_name: str) -> str:
    """The name for ``@task(name=...)`` (``@scorer``, ``@metric``, ``@solver``) of the
    object ``name`` defined in the module ``module_name``."""
    if not module_name.startswith(f"{PACKAGE}."):
        return name  # a file loaded by path
    if get_installed_package_name(sys.modules[module_name]) == PACKAGE:
        return name  # Inspect adds the "benchmarks/" itself
    return f"{PACKAGE}/{name}"


def also_by_short_name(registered: T) -> T:
    """Register a scorer under its short name too (a decorator).

    Logs record a scorer by its short name (``simpleqa_scorer``), and that is what
    ``inspect score LOG`` looks up to rebuild it with the logged options; Inspect finds an
    object of a package only by its full name (``benchmarks/simpleqa_scorer``). The short
    name is a second registered factory that makes the same scorer.
    """
    info = registry_info(registered)
    short = info.name.rsplit("/", 1)[-1]
    if short != info.name:
        factory: Callable[..., Any] = registered  # type: ignore[assignment]

        @functools.wraps(factory)
        def by_short_name(*args: Any, **kwargs: Any) -> Any:
            return factory(*args, **kwargs)

        registry_add(
            by_short_name, RegistryInfo(type=info.type, name=short, metadata=info.metadata)
        )
    return registered


def metric_named(
    heading: str, former: str, module_name: str
) -> Callable[[Callable[P, Metric]], Callable[P, Metric]]:
    """``@metric`` under ``heading``, a readable name, and under ``former`` as well.

    The log viewer heads the values of a metric that returns a dict with the metric's
    registered name ("All scoring...", ``EvalMetric.group``), so a name meant to be read
    there names it. The values keep their own names, which is what the log's readers use.
    Logs written before the rename record the metric under ``former``, and ``inspect
    score`` re-creates a log's task metrics by their recorded names: that name stays
    registered, to the same function (a re-scored old log keeps its old heading).
    """

    def register(factory: Callable[P, Metric]) -> Callable[P, Metric]:
        metric(name=namespaced(former, module_name))(factory)
        return metric(name=namespaced(heading, module_name))(factory)

    return register
