"""A benchmark's pins for the generic conformance tests, read from its own tests folder.

Each benchmark's ``tests/<name>/conformance.py`` holds the values the generic tests
(``tests/test_*.py``, parametrised over the specs) check it against; a new benchmark adds
that module with its tests folder and edits no list. A missing module or constant fails
naming the file and the constant to add. The constants:

FIRST_SAMPLE: the first bundled sample's id and how its prompt starts (two few-shot
    examples where the task draws them): tests/test_determinism.py.
RANDOM_RIGHT: (questions right, questions) of benchmarks/random, seed 0, on the bundled
    sample: tests/test_offline_models.py.
EXPLANATION: the pattern the scorer's explanation of one bundled question answered (and
    graded) by benchmarks/oracle matches in full: tests/test_log_viewer.py.
NO_REPLY_EXPLANATION (a benchmark scored by a rule, not the judge): the pattern its
    scorer's explanation of an over-length output matches after "the model gave no reply
    (...); ": tests/test_no_reply.py.
BAD_INPUTS_COVERED_ELSEWHERE: a kind of malformed input of tests/test_bad_inputs.py's table
    -> the test of this folder that proves it (``file::test``).
BAD_INPUTS_NOT_APPLICABLE: a kind of that table -> why it cannot occur here.

Optional, read by tests/test_bad_inputs.py when present:

BAD_INPUTS: the benchmark's own cases of that table (``tests.bad_inputs.Case``, made
    from its fixtures with tests/bad_inputs.py's writers).
INVALID_TASK_ARGS: ``(task_args, message)`` for parameters of its own that are refused
    before any model call, the message starting with ``<name>: ``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from benchmarks.spec import BenchmarkSpec


def conformance_file(name: str) -> str:
    return f"tests/{name}/conformance.py"


def conformance_module(name: str) -> ModuleType | None:
    """``tests.<name>.conformance``, or None when the benchmark has none."""
    module_name = f"tests.{name}.conformance"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as missing:
        if missing.name not in (module_name, f"tests.{name}"):
            raise  # the module exists and imports something missing
        return None


# Every constant a benchmark's conformance module must hold: what to put, and whether a
# benchmark needs it (NO_REPLY_EXPLANATION: one scored by a rule, not the judge).
PINS: dict[str, tuple[str, Callable[[BenchmarkSpec], bool]]] = {
    "FIRST_SAMPLE": ("(the first bundled sample's id, how its prompt starts)", lambda s: True),
    "RANDOM_RIGHT": (
        "(questions benchmarks/random gets right at seed 0, questions)",
        lambda s: True,
    ),
    "EXPLANATION": (
        'r"<the pattern the scorer\'s explanation of an oracle answer matches>"',
        lambda s: True,
    ),
    "NO_REPLY_EXPLANATION": (
        "r\"<the pattern the scorer's explanation of an over-length reply matches after "
        "'the model gave no reply (...); '>\"",
        lambda s: not s.judged,
    ),
    "BAD_INPUTS_COVERED_ELSEWHERE": (
        '{"<kind>": "test_<file>.py::<test that proves it>", ...} (or {})',
        lambda s: True,
    ),
    "BAD_INPUTS_NOT_APPLICABLE": (
        '{"<kind>": "<why it cannot occur>", ...} (or {})',
        lambda s: True,
    ),
}


def missing_pins(spec: BenchmarkSpec) -> list[str]:
    """``add <constant> = <what>`` for each constant the benchmark's module lacks."""
    module = conformance_module(spec.name)
    return [
        f"add {constant} = {what}"
        for constant, (what, needed) in PINS.items()
        if needed(spec) and getattr(module, constant, None) is None
    ]


def pinned(name: str, constant: str, what: str) -> Any:
    """``constant`` of benchmark ``name``'s conformance module; ``what`` says what to put."""
    module = conformance_module(name)
    value = getattr(module, constant, None) if module is not None else None
    if value is None:
        pytest.fail(f"{conformance_file(name)}: add {constant} = {what}", pytrace=False)
    return value
