"""Load one split of a benchmark's data from the Hugging Face Hub or local files.

Every benchmark whose data is on the Hub (its spec's ``dataset``) accepts the same two
overrides (a benchmark not on the Hub, such as SimpleQA, reads its own files):

- ``dataset_path``: a Hub id, a local folder holding a downloaded snapshot of
  the dataset repository, or a single local data file;
- ``data_files``: a local file, or a mapping ``split -> file``
  (``.jsonl``, ``.json``, ``.parquet`` or ``.csv``, in the upstream schema).

With local files nothing touches the network. When the data cannot be had the
error names the dataset and says how to supply it.
"""

from __future__ import annotations

import contextlib
import os
import socket
import urllib.parse
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from benchmarks.data.error_locations import RowPlaces, places_for
from benchmarks.data.local_file import first_line, load_local_file
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
    """Rows of one split, a description of where they came from and how errors name a
    row (the line of a JSON Lines or CSV file, else its position)."""

    rows: datasets.Dataset
    where: str
    places: RowPlaces = RowPlaces()


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
    return LoadedSplit(rows, where, places_for(path))


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
            else first_line(ex)
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
