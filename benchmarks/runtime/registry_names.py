"""Registry names: ``benchmarks/<name>`` however the package is installed.

Inspect prefixes a registered name with its package only when it recognizes the package as
installed; an editable install of this distribution (``inspect-reference-benchmarks``, import
package ``benchmarks``) is not recognized, so each object names itself ``benchmarks/<name>``
exactly when Inspect would not add the prefix. A task file loaded by path keeps the bare
name, which is what Inspect looks up in that file.
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
    """Register a scorer under its short name too (a decorator): logs record a scorer by it
    (``simpleqa_scorer``), which ``inspect score LOG`` looks up, while Inspect finds an object
    of a package only by its full name (``benchmarks/simpleqa_scorer``)."""
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
