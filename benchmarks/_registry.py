"""Tasks and offline models registered with Inspect (``inspect eval benchmarks/<name>``).

Inspect imports this module (the package's ``inspect_ai`` entry point) when it
looks up a ``benchmarks/...`` name. Its own message for a name that matches
nothing is "No inspect tasks were found at the specified paths", so a
``benchmarks/<name>`` on the command line that names no task gets a hint here.
"""

import difflib
import sys
from pathlib import Path

from benchmarks.catalog import specs
from benchmarks.models.offline import OfflineModel

# Importing each benchmark's module (through its spec) registers its task.
TASKS = {name: spec.task for name, spec in specs().items()}

__all__ = ["TASKS", "OfflineModel"]

TASK_NAMES = tuple(sorted(TASKS))
EVAL_COMMANDS = ("eval", "eval-set")


def unknown_task_hints(argv: list[str]) -> list[str]:
    """A hint for each task argument of ``inspect eval`` that names none of ours but means
    to: ``benchmarks/<name>`` with no such task, or a bare name close to one of ours that
    is no file here (Inspect would say only "No inspect tasks were found")."""
    if len(argv) < 2 or Path(argv[0]).name != "inspect" or argv[1] not in EVAL_COMMANDS:
        return []
    hints = []
    for previous, argument in zip(argv[1:], argv[2:], strict=False):
        if argument.startswith("-") or (previous.startswith("-") and "=" not in previous):
            continue  # an option, or an option's value (--model benchmarks/oracle)
        package, slash, name = argument.partition("/")
        if Path(argument).exists() or (package == "benchmarks" and name in TASK_NAMES):
            continue
        if package == "benchmarks" and name:
            close = difflib.get_close_matches(name.removesuffix(".py"), TASK_NAMES, n=1)
            problem = f"there is no task {name!r}"
        elif not slash:
            close = difflib.get_close_matches(package.removesuffix(".py"), TASK_NAMES, n=1)
            if not close:
                continue  # not meant for this package
            problem = (
                f"no task file {argument!r} here (this package's tasks are named benchmarks/<name>)"
            )
        else:
            continue  # another package's task
        suggestion = f"did you mean benchmarks/{close[0]}? " if close else ""
        hints.append(
            f"benchmarks: {problem}; {suggestion}The tasks are "
            f"{', '.join(TASK_NAMES)} (`python -m benchmarks` lists them)."
        )
    return hints


for hint in unknown_task_hints(sys.argv):
    print(hint, file=sys.stderr)
