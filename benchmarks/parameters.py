"""Checks of task parameters, run when a task is built, before any data or model.

Every message names the task and the parameter (``triviaqa: shots must be a
non-negative integer, got -1.``). Values from ``-T`` arrive parsed as YAML, so
a mistyped ``-T include_evidence=flase`` is a string and is refused here.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NoReturn


class ParameterCheck:
    """Raises ``ValueError("<task>: <message>")`` for the first bad parameter."""

    def __init__(self, task: str) -> None:
        self.task = task

    def fail(self, message: str) -> NoReturn:
        raise ValueError(f"{self.task}: {message}")

    def choice(self, name: str, value: object, allowed: Collection[str]) -> None:
        if value not in allowed:
            self.fail(f"unknown {name} {value!r}; choose one of {', '.join(allowed)}.")

    def boolean(self, name: str, value: object) -> None:
        if not isinstance(value, bool):
            self.fail(f"{name} must be True or False, got {value!r}.")

    def integer(
        self, name: str, value: object, *, minimum: int | None = None, optional: bool = False
    ) -> None:
        if value is None and optional:
            return
        if isinstance(value, int) and not isinstance(value, bool):
            if minimum is None or value >= minimum:
                return
        kind = {None: "an integer", 0: "a non-negative integer", 1: "a positive integer"}.get(
            minimum, f"an integer >= {minimum}"
        )
        self.fail(f"{name} must be {kind}{' or None' if optional else ''}, got {value!r}.")

    def number(self, name: str, value: object, *, minimum: float, optional: bool = False) -> None:
        if value is None and optional:
            return
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= minimum:
            return
        alternative = " or None" if optional else ""
        self.fail(f"{name} must be a number >= {minimum:g}{alternative}, got {value!r}.")
