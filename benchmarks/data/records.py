"""Typed access to the fields of one dataset row, with errors that name the field, and the
letters of a question's options."""

from __future__ import annotations

import string
from typing import Any, TypeVar

T = TypeVar("T")


def field(record: dict[str, Any], name: str, kind: type[T]) -> T:
    """``record[name]``, which must be present, not None and of type ``kind``."""
    if name not in record or record[name] is None:
        raise KeyError(f"field {name!r} is missing")
    value = record[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(
            f"field {name!r} should be {kind.__name__}, got {type(value).__name__} {value!r:.60}"
        )
    return value


def string_list(record: dict[str, Any], name: str, *, label: str | None = None) -> list[str]:
    """A non-empty list of strings at ``record[name]``."""
    label = label or name
    value = record.get(name)
    # set(map(type, ...)): one pass in C (alias lists hold dozens of strings)
    if not isinstance(value, list) or not set(map(type, value)) <= {str}:
        raise TypeError(f"field {label!r} should be a list of strings, got {value!r:.60}")
    if not value:
        raise ValueError(f"field {label!r} is empty")
    return value


def field_problem(error: Exception) -> str:
    """What a field error says (a ``KeyError``'s own text: its ``str()`` adds quotes)."""
    if isinstance(error, KeyError) and error.args:
        return str(error.args[0])
    return str(error)


def option_letters(count: int) -> list[str]:
    """``A``, ``B``, ... for ``count`` options."""
    if not 1 <= count <= len(string.ascii_uppercase):
        raise ValueError(f"cannot letter {count} options (1 to 26 supported)")
    return list(string.ascii_uppercase[:count])


# The metadata key of a question's log-likelihood requests: one ``[context, continuation]``
# per option, written by its data, read by ``benchmarks.solvers.loglikelihood``.
REQUESTS_KEY = "loglikelihood_requests"
