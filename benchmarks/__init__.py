"""Reference-exact LLM benchmarks for Inspect AI.

``benchmarks.config(name)`` applies a reference configuration (``configs/<name>.yaml``)
in Python, e.g. for ``eval_set``, which takes no run config.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benchmarks.configs import ReferenceConfig


def config(name: str, **task_args: Any) -> ReferenceConfig:
    """The reference configuration ``name`` (``benchmarks/configs/<name>.yaml``): its task,
    with the file's generation settings, and its eval options."""
    from benchmarks.configs import config as load

    return load(name, **task_args)
