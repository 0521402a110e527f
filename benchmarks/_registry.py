"""Tasks and offline models registered with Inspect (``inspect eval benchmarks/<name>``).

Inspect imports this module (the package's ``inspect_ai`` entry point) when it looks up a
``benchmarks/...`` name, and when ``eval()`` starts, before it resolves the tasks: importing
each benchmark's module (through its spec) registers its task, and the offline models
register as the ``benchmarks`` model API. ``python -m benchmarks`` lists the tasks, their
profiles and the shipped configurations' paths.
"""

from benchmarks.catalog import specs
from benchmarks.models.offline import OfflineModel

TASKS = {name: spec.task for name, spec in specs().items()}

__all__ = ["TASKS", "OfflineModel"]
