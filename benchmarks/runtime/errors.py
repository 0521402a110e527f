"""The errors this project raises about its users' input: Inspect ``PrerequisiteError``s, so
the ``inspect`` command prints the message alone, without a traceback; from Python they are
ordinary ``ValueError``s."""

from __future__ import annotations

from benchmarks.runtime.inspect_private import PrerequisiteError


class UserInputError(PrerequisiteError, ValueError):
    """Input the user can fix: a task parameter, a data file, a log (``PrerequisiteError``
    sets its ``message``, which the ``inspect`` command prints)."""


class TaskParameterError(UserInputError):
    """A task parameter with a value the task cannot take."""


class DataError(UserInputError):
    """Benchmark data that is missing, unreadable or malformed."""


class DataUnavailableError(DataError):
    """The benchmark data could not be obtained (offline, no cache, no files)."""
