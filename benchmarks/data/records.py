"""Typed access to the fields of one dataset row, with errors that name the field; the hash
of a whole row; the letters of a question's options; the collector paused while rows are
built."""

from __future__ import annotations

import gc
import hashlib
import json
import math
import string
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

# The key of a record's whole-row hash (``whole_row_hash``; no dataset column is named so).
ROW_HASH = "__row_hash__"


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


def whole_row_hash(values: dict[str, Any], unique: str) -> str:
    """A hash of every column of a row: rows equal as Python compares their dicts
    (lm-evaluation-harness's ``!=`` on whole documents) hash alike; ``True == 1 == 1.0`` and
    ``-0.0 == 0`` alike too. A row holding a NaN (equal to nothing) gets ``unique``."""
    try:
        canonical = json.dumps(equality_form(values), sort_keys=True, default=repr)
    except ValueError:
        return f"unique {unique}"
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def equality_form(value: Any) -> Any:
    """``value`` with numbers Python finds equal written alike (a NaN: ValueError)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError("NaN")
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {key: equality_form(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [equality_form(item) for item in value]
    return value


def option_letters(count: int) -> list[str]:
    """``A``, ``B``, ... for ``count`` options."""
    if not 1 <= count <= len(string.ascii_uppercase):
        raise ValueError(f"cannot letter {count} options (1 to 26 supported)")
    return list(string.ascii_uppercase[:count])


# The metadata key of a question's log-likelihood requests: one ``[context, continuation]``
# per option, written by its data, read by ``benchmarks.solvers.loglikelihood``.
REQUESTS_KEY = "loglikelihood_requests"


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic collector off while rows and samples are built: they hold no cycles,
    and its passes over the growing rows took 1.7 of the 3.0 CPU seconds of building
    TriviaQA's task (70k rows; docs/performance.md)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
