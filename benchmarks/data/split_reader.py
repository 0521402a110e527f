"""Load one split of a benchmark's data from the Hugging Face Hub or local files.

The Hub benchmarks (TriviaQA, SimpleQA Verified, Winogrande, ScienceQA) accept the same two
overrides (SimpleQA, not on the Hub, reads its own CSV/JSONL):

- ``dataset_path``: a Hub id, a local folder holding a downloaded snapshot of
  the dataset repository, or a single local data file;
- ``data_files``: a local file, or a mapping ``split -> file``
  (``.jsonl``, ``.json``, ``.parquet`` or ``.csv``, in the upstream schema).

With local files nothing touches the network. When the data cannot be had the
error names the dataset and says how to supply it.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import json
import logging
import os
import socket
import urllib.parse
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from benchmarks.runtime.errors import DataError, DataUnavailableError
from benchmarks.runtime.lazy_modules import LazyModule

if TYPE_CHECKING:
    import datasets
else:
    datasets = LazyModule("datasets")

DataFiles = str | os.PathLike[str] | Mapping[str, str | os.PathLike[str]]

# Without network, huggingface_hub retries for ~25 s before giving up; a TCP
# connect tells within this many seconds whether the Hub can be reached at all.
HUB_PROBE_SECONDS = 3.0

FILE_BUILDERS = {".jsonl": "json", ".json": "json", ".parquet": "parquet", ".csv": "csv"}

OFFLINE_HELP = "\n".join(
    (
        "To run without the Hub:",
        "- warm the Hugging Face cache on a connected machine, then set HF_HUB_OFFLINE=1 "
        "and HF_DATASETS_OFFLINE=1;",
        "- or pass dataset_path=<folder holding a downloaded snapshot of the dataset repository>;",
        "- or pass data_files=<file, or {split: file}> (.jsonl, .json, .parquet or .csv in the "
        "upstream schema);",
        "- or try the task on the few rows shipped with the package: bundled_sample=true.",
    )
)


class LoadedSplit(NamedTuple):
    """Rows of one split and a description of where they came from, for errors."""

    rows: datasets.Dataset
    where: str


def load_split(
    *,
    benchmark: str,
    hub_path: str,
    config: str | None,
    split: str,
    dataset_path: str | None = None,
    data_files: DataFiles | None = None,
    revision: str | None = None,
    required_columns: Sequence[str] = (),
    single_file_split: str | None = None,
) -> LoadedSplit:
    """Load ``split`` as an Arrow-backed ``datasets.Dataset``.

    Args:
        benchmark: Benchmark name, used in error messages.
        hub_path: Default Hub dataset id.
        config: Hub config name (ignored for local files).
        split: Split to load.
        dataset_path: Hub id, local snapshot folder, or local data file.
        data_files: Local file, or mapping split -> file.
        revision: Hub revision (ignored for local data).
        required_columns: Columns the rows must have.
        single_file_split: The split that a lone file (``data_files`` as one
            path, or ``dataset_path`` naming a file) stands for; other splits
            then need a mapping. Defaults to ``split``.
    """
    path = local_data_file(benchmark, split, dataset_path, data_files, single_file_split)
    if path is not None:
        rows = load_local_file(path, split=split)
        where = f"{path} ({split} split)"
    else:
        if dataset_path is not None and local_path(dataset_path).exists():
            dataset_path = str(local_path(dataset_path))
        source = dataset_path or hub_path
        rows = _load_hub_or_snapshot(benchmark, source, config, split, revision)
        where = f"{source}" + (f" config {config!r}" if config else "") + f" split {split!r}"
    require_columns(rows, required_columns, where)
    return LoadedSplit(rows, where)


def local_data_file(
    benchmark: str,
    split: str,
    dataset_path: str | None,
    data_files: DataFiles | None,
    single_file_split: str | None = None,
) -> Path | None:
    """The local file that ``load_split`` reads for these arguments (None: the
    Hub or a snapshot folder); the same errors for arguments that name none."""
    if dataset_path is not None and data_files is not None:
        raise DataError(f"{benchmark}: pass either dataset_path or data_files, not both.")
    if dataset_path is not None and local_path(dataset_path).is_file():
        data_files = str(local_path(dataset_path))
    if data_files is None:
        return None
    return _file_for_split(benchmark, data_files, split, single_file_split or split)


def load_local_file(path: Path, *, split: str = "train") -> datasets.Dataset:
    """Read one local data file, choosing the reader by its extension."""
    builder = FILE_BUILDERS.get(path.suffix.lower())
    if builder is None:
        raise DataError(
            f"{path}: unsupported file type {path.suffix!r}; use one of {', '.join(FILE_BUILDERS)}."
        )
    if not path.is_file():
        raise DataError(f"{path}: no such file.")
    if path.stat().st_size == 0:
        raise DataError(f"{path}: the file is empty.")
    if builder in ("json", "csv"):
        check_utf8(path)
    options: dict[str, Any] = {}
    if builder == "json":
        # By default datasets re-encodes a column whose rows disagree in type as
        # JSON text, silently changing the good rows too; fail instead.
        options["on_mixed_types"] = None
    if builder == "csv":
        # CSV cells are text (answers "1"/"2" must not become numbers); empty stays "".
        options["features"] = datasets.Features(
            {name: datasets.Value("string") for name in _csv_header(path)}
        )
        options["na_filter"] = False
    try:
        with _quiet_datasets():
            loaded = datasets.load_dataset(
                builder, data_files={split: str(path)}, split=split, **options
            )
    except Exception as ex:  # noqa: BLE001 - rewrapped with the file name below
        if _has_no_rows(ex):
            raise DataError(f"{path}: the file holds no rows.") from ex
        problem = _json_problem(path) if builder == "json" else None
        raise DataError(
            f"{path}: could not be read as {builder}: {problem or _root_cause(ex)}"
        ) from ex
    assert isinstance(loaded, datasets.Dataset)
    if len(loaded) == 0:
        raise DataError(f"{path}: the file holds no rows.")
    return loaded


@contextlib.contextmanager
def _quiet_datasets() -> Iterator[None]:
    """No row-count progress bars for a local file, and no reader error logged (datasets
    logs it, in pyarrow's words, before raising it; the raised error becomes ours, naming
    the file and line, so it is said once)."""
    verbosity = datasets.logging.get_verbosity()  # imports datasets, which sets its level
    bars_were_on = not datasets.utils.are_progress_bars_disabled()
    datasets.logging.set_verbosity(logging.CRITICAL)
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        datasets.logging.set_verbosity(verbosity)
        if bars_were_on:
            datasets.enable_progress_bars()


def check_utf8(path: Path, chunk_bytes: int = 1 << 22) -> None:
    """Fail, naming the line, when a text file is not valid UTF-8.

    pyarrow's JSON reader accepts invalid bytes and fails later, when the row
    is read; checking up front reports it before any model call.
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1
    with path.open("rb") as file:
        while chunk := file.read(chunk_bytes):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as ex:
                row = line + chunk.count(b"\n", 0, ex.start)
                raise DataError(
                    f"{path}: line {row} is not valid UTF-8 ({ex.reason}); "
                    "re-encode the file as UTF-8."
                ) from None
            line += chunk.count(b"\n")
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError as ex:
            raise DataError(
                f"{path}: the file ends in a truncated UTF-8 sequence ({ex.reason})."
            ) from None


def require_columns(rows: datasets.Dataset, columns: Sequence[str], where: str) -> None:
    missing = [column for column in columns if column not in rows.column_names]
    if missing:
        raise DataError(
            f"{where}: missing column(s) {', '.join(repr(c) for c in missing)}; "
            f"found {', '.join(repr(c) for c in rows.column_names)}."
        )


def _file_for_split(
    benchmark: str, data_files: DataFiles, split: str, single_file_split: str
) -> Path:
    if isinstance(data_files, Mapping):
        if split not in data_files:
            raise DataError(
                f"{benchmark}: data_files has no entry for the {split!r} split "
                f"(it has {', '.join(repr(k) for k in data_files)})."
            )
        return local_path(data_files[split])
    if split != single_file_split:
        raise DataError(
            f"{benchmark}: the single data file {str(data_files)!r} is taken as the "
            f"{single_file_split!r} split; the {split!r} split needs its own file: pass "
            f"data_files={{{single_file_split!r}: ..., {split!r}: ...}}."
        )
    return local_path(data_files)


def local_path(path: str | os.PathLike[str]) -> Path:
    """A user-given local path, relative ones taken from where the command was started.

    ``inspect eval benchmarks/<name>.py`` builds the task from inside
    ``benchmarks/``; a relative path not found there is looked up from the
    directory the command was started in (``$PWD``, which ``chdir`` leaves).
    """
    candidate = Path(path).expanduser()
    if candidate.is_absolute() or candidate.exists():
        return candidate
    launch_dir = os.environ.get("PWD")
    if launch_dir and (Path(launch_dir) / candidate).exists():
        return Path(launch_dir) / candidate
    return candidate


def _load_hub_or_snapshot(
    benchmark: str, source: str, config: str | None, split: str, revision: str | None
) -> datasets.Dataset:
    described = f"{source!r}" + (f" (config {config!r})" if config else "")
    unreachable = None if Path(source).is_dir() else hub_unreachable()
    try:
        with _offline_if(unreachable is not None):
            loaded = datasets.load_dataset(source, name=config, split=split, revision=revision)
    except Exception as ex:  # noqa: BLE001 - one clear message instead of a retry trace
        reason = (
            f"the Hub is unreachable ({unreachable}) and the Hugging Face cache has no copy"
            if unreachable is not None
            else _first_line(ex)
        )
        raise DataUnavailableError(
            f"Could not load the {benchmark} dataset {described}, split {split!r}: "
            f"{reason}.\n{OFFLINE_HELP}"
        ) from None
    assert isinstance(loaded, datasets.Dataset)
    return loaded


def hub_unreachable() -> str | None:
    """Why the Hugging Face Hub cannot be reached (None: reachable, or offline mode is on)."""
    from huggingface_hub import constants

    if datasets.config.HF_HUB_OFFLINE or constants.HF_HUB_OFFLINE:
        return None
    endpoint = urllib.parse.urlsplit(constants.ENDPOINT)
    host = endpoint.hostname or "huggingface.co"
    port = endpoint.port or (443 if endpoint.scheme == "https" else 80)
    try:
        socket.create_connection((host, port), timeout=HUB_PROBE_SECONDS).close()
    except OSError as ex:
        return f"{host}:{port}: {ex.strerror or ex}"
    return None


@contextlib.contextmanager
def _offline_if(offline: bool) -> Iterator[None]:
    """Offline mode for one load: a warm cache is used at once, without retries."""
    if not offline:
        yield
        return
    from huggingface_hub import constants

    saved = datasets.config.HF_HUB_OFFLINE, constants.HF_HUB_OFFLINE
    datasets.config.HF_HUB_OFFLINE = constants.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        datasets.config.HF_HUB_OFFLINE, constants.HF_HUB_OFFLINE = saved


def _csv_header(path: Path) -> list[str]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return next(csv.reader(handle), [])


def _has_no_rows(ex: BaseException) -> bool:
    # datasets' way of saying a file parsed to zero rows (blank lines, a bare header, [])
    cause: BaseException | None = ex
    while cause is not None:
        if "corresponds to no data" in str(cause):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def _json_kind(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _json_problem(path: Path) -> str | None:
    """Why a JSON (Lines) file cannot be one table: the first bad line, or the first
    row whose field has another type than in an earlier row. Only called on failure."""
    with path.open(encoding="utf-8-sig") as handle:
        text = handle.read()
    numbered: list[tuple[int, int | None, object]] = []
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as ex:
            return f"not valid JSON ({ex.msg}, line {ex.lineno})."
        if not isinstance(records, list):
            return None
        numbered += [(row, None, record) for row, record in enumerate(records)]
    else:
        # split on "\n" only: JSON strings may hold U+2028 and other line breaks
        for line_number, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as ex:
                return f"line {line_number} is not valid JSON ({ex.msg}, character {ex.pos})."
            numbered.append((len(numbered), line_number, record))
    first_seen: dict[str, tuple[str, int]] = {}
    for row, source_line, record in numbered:
        where = f"row {row}" + (f" (line {source_line})" if source_line else "")
        if not isinstance(record, dict):
            return f"{where} should be a JSON object, got {_json_kind(record)}."
        pending: list[tuple[str, object]] = list(record.items())
        while pending:
            name, value = pending.pop()
            if value is None:
                continue
            kind = _json_kind(value)
            seen = first_seen.setdefault(name, (kind, row))
            if seen[0] != kind:
                return (
                    f"{where}: field {name!r} is {kind} where row {seen[1]} has {seen[0]}; "
                    "every row must hold the same type."
                )
            if isinstance(value, dict):
                pending += [(f"{name}.{key}", item) for key, item in value.items()]
            elif isinstance(value, list):
                pending += [(f"{name}[]", item) for item in value]
    return None


def _root_cause(ex: BaseException) -> str:
    while ex.__cause__ is not None or ex.__context__ is not None:
        nxt = ex.__cause__ or ex.__context__
        assert nxt is not None
        ex = nxt
    return _first_line(ex)


def _first_line(ex: BaseException) -> str:
    lines = str(ex).strip().splitlines()
    return f"{type(ex).__name__}: {lines[0]}" if lines else type(ex).__name__
