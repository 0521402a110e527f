"""A split of a Hub dataset (at a pinned revision) or of a downloaded snapshot folder, read
with ``datasets``; when the Hub cannot be reached, one error that says how to run without it.
"""

from __future__ import annotations

import contextlib
import socket
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchmarks.runtime.errors import DataUnavailableError

# Without network, huggingface_hub retries for ~25 s before giving up; a TCP connect tells
# within this many seconds whether the Hub can be reached at all.
HUB_PROBE_SECONDS = 3.0
BATCH_ROWS = 1024

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


def load_hub_split(
    benchmark: str, source: str, config: str | None, split: str, revision: str | None
) -> Any:
    """The split as a ``datasets.Dataset`` (a folder: a downloaded snapshot, read offline),
    its images undecoded (their bytes, not their pixels)."""
    import datasets

    described = f"{source!r}" + (f" (config {config!r})" if config else "")
    unreachable = None if Path(source).is_dir() else hub_unreachable()
    try:
        with offline_if(unreachable is not None):
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
    image = loaded.features.get("image")
    if isinstance(image, datasets.Image) and image.decode:
        loaded = loaded.cast_column("image", datasets.Image(decode=False))
    return loaded


def hub_records(loaded: Any) -> Iterator[tuple[int | None, dict[str, Any]]]:
    for batch in loaded.iter(batch_size=BATCH_ROWS):
        names = list(batch)
        for values in zip(*(batch[name] for name in names), strict=True):
            yield None, dict(zip(names, values, strict=True))


def hub_unreachable() -> str | None:
    """Why the Hugging Face Hub cannot be reached (None: reachable, or offline mode is on)."""
    import datasets
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
def offline_if(offline: bool) -> Iterator[None]:
    """Offline mode for one load: a warm cache is used at once, without retries."""
    if not offline:
        yield
        return
    import datasets
    from huggingface_hub import constants

    saved = datasets.config.HF_HUB_OFFLINE, constants.HF_HUB_OFFLINE
    datasets.config.HF_HUB_OFFLINE = constants.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        datasets.config.HF_HUB_OFFLINE, constants.HF_HUB_OFFLINE = saved


def first_line(ex: BaseException) -> str:
    """The exception's type and the first line of its message."""
    lines = str(ex).strip().splitlines()
    return f"{type(ex).__name__}: {lines[0]}" if lines else type(ex).__name__
