"""Tasks and offline models registered with Inspect (``inspect eval benchmarks/<name>``).

Inspect imports this module (the package's ``inspect_ai`` entry point) when it
looks up a ``benchmarks/...`` name, and when ``eval()`` starts, before it resolves
the tasks. Its own message for a name that matches nothing is "No inspect tasks were
found at the specified paths", so a ``benchmarks/<name>`` on the command line that
names no task gets a hint here; an absolute path to one of our task files, which
Inspect 0.3.285 cannot glob on Python 3.11, ends the command with the name to type.
(``--run-config`` is read before any package loads: nothing here can answer a
missing file; ``python -m benchmarks`` prints the shipped configurations' paths.)
"""

import difflib
import sys
from pathlib import Path

from benchmarks.catalog import specs
from benchmarks.models.offline import OfflineModel
from benchmarks.runtime.registry_names import EVAL_COMMANDS

# Importing each benchmark's module (through its spec) registers its task.
TASKS = {name: spec.task for name, spec in specs().items()}

__all__ = ["TASKS", "OfflineModel"]

TASK_NAMES = tuple(sorted(TASKS))


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


def command_line_tasks(argv: list[str]) -> list[str]:
    """The task arguments of an ``inspect eval`` (or ``eval-set``) command line."""
    if len(argv) < 2 or Path(argv[0]).name != "inspect" or argv[1] not in EVAL_COMMANDS:
        return []
    return [
        argument
        for previous, argument in zip(argv[1:], argv[2:], strict=False)
        if not argument.startswith("-") and not (previous.startswith("-") and "=" not in previous)
    ]


def task_file(task: object) -> Path | None:
    """The file of the module defining ``task`` (Inspect's wrapper keeps its module name)."""
    module = sys.modules.get(getattr(task, "__module__", ""))
    file = getattr(module, "__file__", None)
    return Path(file).resolve() if file else None


def absolute_task_file_problem(argv: list[str]) -> str | None:
    """What to type instead of an absolute path to one of our task files, when Inspect
    cannot read it: it globs a task path from the working directory, and pathlib's glob
    refuses an absolute pattern ("Non-relative patterns are unsupported", Python 3.11)."""
    ours = {task_file(task): name for name, task in TASKS.items()}
    for argument in command_line_tasks(argv):
        if "@" in argument or not Path(argument).is_absolute():
            continue
        try:
            next(Path.cwd().glob(argument), None)  # as Inspect's task_files() does
        except NotImplementedError:
            name = ours.get(Path(argument).resolve())
            if name is not None:
                return (
                    f"benchmarks: Inspect cannot read a task file given by an absolute path "
                    f"({argument}); type its registered name instead, which works from any "
                    f"directory: inspect eval benchmarks/{name} ..."
                )
    return None


for hint in unknown_task_hints(sys.argv):
    print(hint, file=sys.stderr)
# Inspect loads this module before it resolves the tasks; past here it would end in a
# long traceback (Inspect drops an entry point's exceptions, so exit: one line, status 1).
if (problem := absolute_task_file_problem(sys.argv)) is not None:
    sys.exit(problem)
