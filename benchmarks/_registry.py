"""Tasks and offline models registered with Inspect (``inspect eval benchmarks/<name>``).

Inspect imports this module (the package's ``inspect_ai`` entry point) when it
looks up a ``benchmarks/...`` name. Its own message for a name that matches
nothing is "No inspect tasks were found at the specified paths", so a
``benchmarks/<name>`` on the command line that names no task gets a hint here.
"""

import difflib
import sys
from pathlib import Path

from benchmarks.catalog import BENCHMARKS, specs
from benchmarks.offline_models import OfflineModel

# Importing each benchmark's module (through its spec) registers its task.
TASKS = {name: spec.task for name, spec in specs().items()}

__all__ = ["TASKS", "OfflineModel"]

TASK_NAMES = tuple(sorted(BENCHMARKS))
EVAL_COMMANDS = ("eval", "eval-set")


def unknown_task_hints(argv: list[str]) -> list[str]:
    """A hint for each ``benchmarks/<name>`` argument of ``inspect eval`` naming no task."""
    if len(argv) < 2 or Path(argv[0]).name != "inspect" or argv[1] not in EVAL_COMMANDS:
        return []
    hints = []
    for previous, argument in zip(argv[1:], argv[2:], strict=False):
        if previous.startswith("-") and "=" not in previous:
            continue  # an option's value (--model benchmarks/oracle), not a task
        package, _, name = argument.partition("/")
        if package != "benchmarks" or not name or name in TASK_NAMES or Path(argument).exists():
            continue
        close = difflib.get_close_matches(name.removesuffix(".py"), TASK_NAMES, n=1)
        suggestion = f"did you mean benchmarks/{close[0]}? " if close else ""
        hints.append(
            f"benchmarks: there is no task {name!r}; {suggestion}The tasks are "
            f"{', '.join(TASK_NAMES)} (`inspect list tasks benchmarks` lists them)."
        )
    return hints


for hint in unknown_task_hints(sys.argv):
    print(hint, file=sys.stderr)
