"""Task parameters checked from the task's own signature, before any data or model.

A task calls ``task_arguments(<task>, locals())`` first thing; each parameter is checked
against its annotation (docs/development.md, "Parameters"). ``-T`` values arrive parsed as
YAML, so ``-T include_evidence=flase`` is a string and is refused. A task that takes
``**unknown`` gets every other ``-T`` name: a misspelled one is an error naming the closest
parameter, where Inspect would only warn and drop it. Every message names the task and is
a ``TaskParameterError``, which the ``inspect`` command prints without a traceback.
"""

from __future__ import annotations

import difflib
import inspect
import os
import re
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NoReturn, Union, get_args, get_origin, get_type_hints

from benchmarks.runtime.errors import TaskParameterError
from benchmarks.runtime.inspect_private import active_generate_config

# YAML reads null, Null, NULL and ~ as None; Python users type None.
NONE_SPELLINGS = frozenset({"None", "none"})
# What None means for a switch a profile sets (``NoneMeans``).
PROFILES_VALUE = "the profile's"
# A batched request waits for its whole batch: the batch APIs' window is a day.
BATCH_ATTEMPT_TIMEOUT = 86_400


@dataclass(frozen=True)
class Minimum:
    """The smallest value a number parameter takes."""

    value: float


@dataclass(frozen=True)
class NoneMeans:
    """What null means for a parameter that takes it."""

    meaning: str


class OneOf:
    """The values a text parameter takes, where they are keys of a mapping declared elsewhere
    (``Annotated[str, OneOf(PROFILES)]``: the profiles' names)."""

    def __init__(self, values: Iterable[str]) -> None:
        self.values = tuple(values)


@dataclass(frozen=True)
class Parsed:
    """A text parameter read by ``parse``, whose ValueError says what is wrong with it."""

    parse: Callable[[str], object]


def fail(task: str, message: str) -> NoReturn:
    """Refuse the task's parameters with ``message`` (a rule between parameters)."""
    raise TaskParameterError(f"{task}: {message}")


def task_arguments(
    function: Callable[..., Any],
    given: Mapping[str, Any],
    /,
    *,
    renamed: Mapping[str, str] | None = None,
    renamed_values: Mapping[tuple[str, str], str] | None = None,
) -> Any:
    """The task's parameter values by name (``args.shots``; ``args.task_name`` names the task
    in messages), each checked against its annotation, and the run options that cannot work
    together.

    Args:
        function: The task function (as decorated: it is unwrapped).
        given: Its ``locals()`` on entry: each parameter by name, as it was received, and
            its ``**unknown`` (the names it took that are none of its parameters).
        renamed: Former parameter names -> what to say instead (the new name).
        renamed_values: (parameter, former value) -> the new value.
    """
    raw = inspect.unwrap(function)
    task = raw.__name__
    hints = get_type_hints(raw, include_extras=True)
    parameters = inspect.signature(raw).parameters.values()
    names = [p.name for p in parameters if p.kind is not inspect.Parameter.VAR_KEYWORD]
    extra = next((p.name for p in parameters if p.kind is inspect.Parameter.VAR_KEYWORD), None)
    unknown: Mapping[str, Any] = given.get(extra, {}) if extra else {}
    checked: dict[str, Any] = {}
    for name in names:
        value = given[name]
        former = (renamed_values or {}).get((name, value)) if isinstance(value, str) else None
        if former is not None:
            fail(task, f"{name} {value!r} was renamed {former!r}.")
        allowed = Allowed.of(hints[name])
        if allowed.none and (value is None or (isinstance(value, str) and value in NONE_SPELLINGS)):
            value = None
        elif allowed.parse is not None:
            try:
                allowed.parse(value)
            except ValueError as ex:
                fail(task, f"{name} {ex}")
        elif not allowed.accepts(value):
            fail(task, allowed.refusal(name, value))
        checked[name] = value
    for name in unknown:
        if name in (renamed or {}):
            fail(task, f"{name} was renamed {(renamed or {})[name]}.")
        close = difflib.get_close_matches(name, list(checked), n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        fail(
            task,
            f"unknown parameter {name!r}; {hint}the parameters are {', '.join(checked)}.",
        )
    # the run's generation settings while inspect eval builds the task (defaults otherwise)
    config = active_generate_config()
    timeout = config.attempt_timeout
    if config.batch and timeout is not None and timeout < BATCH_ATTEMPT_TIMEOUT:
        fail(
            task,
            f"--batch with an attempt timeout of {timeout} s (--attempt-timeout, or a "
            "configuration's generate_config): a batched request waits for its whole batch, "
            f"often hours, and would be cancelled and sent again every {timeout} s; pass "
            f"--attempt-timeout {BATCH_ATTEMPT_TIMEOUT} (a day) or more with --batch.",
        )
    return types.SimpleNamespace(task_name=task, **checked)


@dataclass(frozen=True)
class Allowed:
    """What an annotation allows (``files``: ``DataFiles``, a path or a mapping split -> path)."""

    literals: tuple[Any, ...] = ()
    kinds: frozenset[type] = frozenset()
    none: bool = False
    minimum: float | None = None
    none_means: str | None = None
    files: bool = False
    parse: Callable[[str], object] | None = None

    @classmethod
    def of(cls, annotation: Any) -> Allowed:
        metadata: tuple[Any, ...] = ()
        if get_origin(annotation) is Annotated:
            annotation, *extras = get_args(annotation)
            metadata = tuple(extras)
        members = (
            get_args(annotation)
            if get_origin(annotation) in (Union, types.UnionType)
            else (annotation,)
        )
        one_of = [value for m in metadata if isinstance(m, OneOf) for value in m.values]
        literals: list[Any] = list(one_of)
        kinds: set[type] = set()
        for member in members:
            if get_origin(member) is Literal:
                literals += get_args(member)
            elif member in (bool, int, float, str) and not (member is str and one_of):
                kinds.add(member)  # with OneOf, a str takes only its values
        return cls(
            literals=tuple(literals),
            kinds=frozenset(kinds),
            none=type(None) in members,
            minimum=next((m.value for m in metadata if isinstance(m, Minimum)), None),
            none_means=next((m.meaning for m in metadata if isinstance(m, NoneMeans)), None),
            files=any(get_origin(member) is os.PathLike for member in members),
            parse=next((m.parse for m in metadata if isinstance(m, Parsed)), None),
        )

    def accepts(self, value: Any) -> bool:
        if isinstance(value, str) and value in self.literals:
            return True
        if isinstance(value, bool):
            return bool in self.kinds
        number = isinstance(value, float) and float in self.kinds
        number |= isinstance(value, int) and (int in self.kinds or float in self.kinds)
        if number:
            return self.minimum is None or value >= self.minimum
        if isinstance(value, str) and str in self.kinds:
            return True
        if not self.files or isinstance(value, str | os.PathLike):
            return self.files
        return isinstance(value, Mapping) and all(
            isinstance(key, str) and isinstance(path, str | os.PathLike)
            for key, path in value.items()
        )

    def refusal(self, name: str, value: Any) -> str:
        null = f"null ({self.none_means})" if self.none_means else "null"
        if self.files:
            return f"{name} must be a file or a mapping split -> file, got {value!r}."
        if self.literals and not self.kinds:
            choices = ", ".join(map(str, self.literals))
            return f"unknown {name} {value!r}; choose one of {choices}."
        if self.kinds == {bool}:
            kind = "true, false" if self.none else "true or false"
        elif int in self.kinds:
            integers: dict[float | None, str] = {
                None: "an integer",
                0: "a non-negative integer",
                1: "a positive integer",
            }
            kind = integers.get(self.minimum) or f"an integer >= {self.minimum:g}"
        elif float in self.kinds:
            kind = "a number" + (f" >= {self.minimum:g}" if self.minimum is not None else "")
        else:
            kind = "a string"
        alternatives = [kind]
        if self.none:
            alternatives.append(null)
        alternatives += [repr(literal) for literal in self.literals]
        if len(alternatives) > 2:
            kind = ", ".join(alternatives[:-1]) + " or " + alternatives[-1]
        else:
            kind = " or ".join(alternatives)
        return f"{name} must be {kind}, got {value!r}."


# The task argument that names a shard (the merge drops it from the merged log's).
SHARD_ARGUMENT = "shard"
SHARD_TEXT = re.compile(r"(\d+)/(\d+)")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count``: every ``count``-th question from the ``index``-th
    (0-based), of the questions the run evaluates (after ``num_examples``). Striding rather
    than cutting blocks keeps the shards the same size within one question and mixes the
    costlier questions (long prompts, images) evenly over them.
    """

    index: int
    count: int

    @classmethod
    def parse(cls, text: object) -> Shard:
        """``"i/n"`` with 0 <= i < n (the ValueError says what is wrong)."""
        match = SHARD_TEXT.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"must be written i/n (shard i of n, from 0), got {text!r}.")
        shard = cls(int(match.group(1)), int(match.group(2)))
        if shard.count < 1 or shard.index >= shard.count:
            raise ValueError(
                f"must be i/n with 0 <= i < n (shards are counted from 0), got {text!r}."
            )
        return shard

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def size(self, total: int) -> int:
        """How many of ``total`` questions this shard evaluates."""
        return len(range(self.index, total, self.count))


# The parameter every task declares: ``shard: ShardParameter = None``.
ShardParameter = Annotated[str | None, Parsed(Shard.parse), NoneMeans("every question")]
