"""Heavy libraries imported when first used, not when Inspect loads our entry point.

Inspect imports the ``inspect_ai`` entry point of every installed package
(``benchmarks._registry``, which imports every task module) before any
``inspect eval``, including runs of other packages' tasks. Importing
``datasets``, ``pyarrow``, ``pandas`` and Pillow there would cost every such
command about 1-2 s and 110 MB, so task modules bind them with
``lazy_module`` and the import happens at the first attribute read, when a
task is built. Type checkers see the real modules::

    if TYPE_CHECKING:
        import datasets
    else:
        datasets = lazy_module("datasets")
"""

from __future__ import annotations

import importlib
from typing import Any

# Imported by ``import benchmarks._registry`` only when something else imported them.
HEAVY_MODULES = ("datasets", "pyarrow", "pandas", "PIL", "numpy")


class LazyModule:
    """Stands for module ``name``; reading an attribute imports the module."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        return getattr(importlib.import_module(self._name), attribute)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"


def lazy_module(name: str) -> Any:
    """A stand-in for ``import name`` that imports it at the first attribute read."""
    return LazyModule(name)
