"""Heavy libraries imported when first used, not when Inspect loads our entry point.

Inspect imports the ``inspect_ai`` entry point of every installed package
(``benchmarks._registry``, which imports every task module) before any
``inspect eval``, including runs of other packages' tasks. Importing
``datasets``, ``pyarrow``, ``pandas``, Pillow and numpy there cost every such
command 0.75 s (more with a cold disk cache) and 110 MB, so task modules bind them with
``LazyModule`` and the import happens at the first attribute read, when a
task is built. Type checkers see the real modules::

    if TYPE_CHECKING:
        import datasets
    else:
        datasets = LazyModule("datasets")
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

# Imported by ``import benchmarks._registry`` only when something else imported them.
HEAVY_MODULES = ("datasets", "pyarrow", "pandas", "PIL", "numpy")


class LazyModule:
    """Stands for module ``name``; the first attribute read imports it."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attribute)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}>"
