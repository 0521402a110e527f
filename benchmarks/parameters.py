"""Checks of task parameters, run when a task is built, before any data or model.

Every message names the task and the parameter (``triviaqa: shots must be a
non-negative integer, got -1.``) and is a ``TaskParameterError``, which the
``inspect`` command prints without a traceback. Values from ``-T`` arrive
parsed as YAML, so a mistyped ``-T include_evidence=flase`` is a string and is
refused here; ``-T num_examples=None`` also arrives as a string, and the
optional parameters take ``None``/``none`` as YAML's ``null``. Each check
returns the value to use.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NoReturn, TypeVar

from benchmarks.errors import TaskParameterError

T = TypeVar("T")

# YAML reads null, Null, NULL and ~ as None; Python users type None.
NONE_SPELLINGS = frozenset({"None", "none"})


class ParameterCheck:
    """Raises ``TaskParameterError("<task>: <message>")`` for the first bad parameter."""

    def __init__(self, task: str) -> None:
        self.task = task

    def fail(self, message: str) -> NoReturn:
        raise TaskParameterError(f"{self.task}: {message}")

    def choice(self, name: str, value: T, allowed: Collection[str]) -> T:
        if not isinstance(value, str) or value not in allowed:
            self.fail(f"unknown {name} {value!r}; choose one of {', '.join(allowed)}.")
        return value

    def boolean(self, name: str, value: object) -> bool:
        if not isinstance(value, bool):
            self.fail(f"{name} must be true or false, got {value!r}.")
        return value

    def integer(self, name: str, value: object, *, minimum: int | None = None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            if minimum is None or value >= minimum:
                return value
        self.fail(f"{name} must be {_integer_kind(minimum)}, got {value!r}.")

    def optional_integer(
        self, name: str, value: object, *, minimum: int | None = None, none_means: str
    ) -> int | None:
        if value is None or (isinstance(value, str) and value in NONE_SPELLINGS):
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            if minimum is None or value >= minimum:
                return value
        self.fail(f"{name} must be {_integer_kind(minimum)} or null ({none_means}), got {value!r}.")

    def number(self, name: str, value: object, *, minimum: float) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= minimum:
            return value
        self.fail(f"{name} must be a number >= {minimum:g}, got {value!r}.")

    def optional_number(
        self, name: str, value: object, *, minimum: float, none_means: str
    ) -> float | None:
        if value is None or (isinstance(value, str) and value in NONE_SPELLINGS):
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= minimum:
            return value
        self.fail(f"{name} must be a number >= {minimum:g} or null ({none_means}), got {value!r}.")

    def exclusive(self, **values: object) -> None:
        """At most one of the named parameters may be given."""
        given = [name for name, value in values.items() if value is not None]
        if len(given) > 1:
            self.fail(f"pass either {' or '.join(values)}, not both.")


def _integer_kind(minimum: int | None) -> str:
    return {None: "an integer", 0: "a non-negative integer", 1: "a positive integer"}.get(
        minimum, f"an integer >= {minimum}"
    )
