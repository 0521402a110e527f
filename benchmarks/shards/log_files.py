"""Inspect logs at the locations users name: log files (``.eval``, ``.json``) or folders of
them, local or at URLs (``s3://bucket/prefix``), for ``python -m benchmarks.compare`` and
``python -m benchmarks.shards merge``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime

from fsspec.core import url_to_fs
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

from benchmarks.runtime.errors import UserInputError
from benchmarks.runtime.task_parameters import SHARD_ARGUMENT, Shard

LOG_SUFFIXES = (".eval", ".json")


class LogError(UserInputError):
    """A log location that cannot be read or used; the message names it and says what to
    pass instead."""


@dataclass
class FoundLog:
    """One log at a location: where it is and its header (no samples)."""

    location: str
    header: EvalLog

    @property
    def task(self) -> str:
        """The benchmark's name: ``benchmarks/triviaqa`` and ``triviaqa`` are one task (how it
        was launched differs)."""
        return self.header.eval.task.rsplit("/", 1)[-1]

    @property
    def model(self) -> str:
        return self.header.eval.model

    @property
    def status(self) -> str:
        return self.header.status

    @property
    def created(self) -> datetime:
        return datetime.fromisoformat(self.header.eval.created)

    @property
    def shard(self) -> Shard | None:
        """The shard this log ran (``-T shard=i/n``), None for a whole run."""
        value = (self.header.eval.task_args or {}).get(SHARD_ARGUMENT)
        return Shard.parse(value) if value is not None else None

    @property
    def name(self) -> str:
        return display_path(self.location)

    @property
    def label(self) -> str:
        """The run, as messages name it: ``benchmarks/winogrande (benchmarks/random)``."""
        return f"{self.header.eval.task} ({self.model})"

    @property
    def file_name(self) -> str:
        return self.location.rstrip("/").rsplit("/", 1)[-1]


def display_path(location: str) -> str:
    """A log location as a person would type it (Inspect lists local files as file:// URIs)."""
    return location.removeprefix("file://")


def is_folder(location: str) -> bool:
    """Whether ``location`` is a folder (a prefix holding objects, on an object store)."""
    fs, path = url_to_fs(location)
    return bool(fs.isdir(path))


def log_locations(location: str) -> list[str]:
    """The log files ``location`` names: the file itself, or every log under the folder
    (oldest first)."""
    if "://" not in location and not os.path.exists(location):
        raise LogError(f"{location}: no such file or directory.")
    try:
        folder = is_folder(location)
        files = [info.name for info in list_eval_logs(location, descending=False)] if folder else []
    except Exception as ex:  # credentials, endpoint, bucket: the filesystem's own words
        raise LogError(f"{location}: cannot be listed ({type(ex).__name__}: {ex}).") from None
    if not folder:
        if location.endswith(LOG_SUFFIXES):
            return [location]
        raise LogError(f"{location}: no such log file or folder (logs end in .eval or .json).")
    if not files:
        raise LogError(f"{location}: the folder holds no Inspect log (.eval or .json).")
    return files


def found_logs(location: str) -> list[FoundLog]:
    """Every log ``location`` names, with its header (its samples are not read)."""
    found = []
    for path in log_locations(location):
        try:
            found.append(FoundLog(path, read_eval_log(path, header_only=True)))
        except Exception as ex:  # Inspect raises many kinds for a file that is not a log.
            raise LogError(f"{display_path(path)}: not a readable Inspect log ({ex}).") from None
    return found
