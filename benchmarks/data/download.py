"""Files fetched once into a local cache (docs/offline.md) and verified against a pinned
sha256: a download is written under a temporary name and moved into place only when its
sha256 matches, so a corrupt or changed upstream file is never cached.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import platformdirs

from benchmarks.runtime.errors import DataError, DataUnavailableError

CACHE_DIR_ENV = "INSPECT_BENCHMARKS_CACHE"
DOWNLOAD_TIMEOUT_SECONDS = 60


def cache_dir(name: str) -> Path:
    base = os.environ.get(CACHE_DIR_ENV) or platformdirs.user_cache_dir("inspect_benchmarks")
    return Path(base).expanduser() / name


def cached_verified_file(*, what: str, url: str, destination: Path, sha256: str) -> Path:
    """``destination``, downloaded from ``url`` on first use; its sha256 must be ``sha256``.
    A download appears at ``destination`` only if its sha256 matches."""
    if destination.is_file():
        actual = file_sha256(destination)
        if actual != sha256:
            raise DataError(
                f"{destination}: sha256 {actual} does not match the official {what} "
                f"file ({sha256}). Delete it to download the file again, or pass "
                f"dataset_path=<your file> to use a modified copy on purpose."
            )
        return destination
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        handle, partial_name = tempfile.mkstemp(
            dir=destination.parent, prefix=f".{destination.name}.", suffix=".part"
        )
    except OSError as ex:
        raise DataUnavailableError(
            f"Cannot write the {what} cache directory {destination.parent}: {ex}. "
            f"Set {CACHE_DIR_ENV} to a writable directory, or pass dataset_path=<local file>."
        ) from None
    partial = Path(partial_name)
    try:
        digest = hashlib.sha256()
        with os.fdopen(handle, "wb") as out:
            try:
                with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT_SECONDS) as response:
                    for chunk in iter(lambda: response.read(1 << 16), b""):
                        digest.update(chunk)
                        out.write(chunk)
            except (OSError, http.client.HTTPException) as ex:
                reason = ex.reason if isinstance(ex, urllib.error.URLError) else ex
                raise DataUnavailableError(
                    f"Could not download the {what} dataset from {url}: {reason}\n"
                    f"To run without network access, download {destination.name} on a "
                    f"connected machine (sha256 {sha256}) and pass dataset_path=<that file>, "
                    f"or put it at {destination} (the cache directory, set with "
                    f"{CACHE_DIR_ENV}); or try the task on the few rows shipped with the "
                    f"package: bundled_sample=true."
                ) from None
        actual = digest.hexdigest()
        if actual != sha256:
            raise DataError(
                f"{url}: the downloaded file has sha256 {actual}, expected {sha256}; it was "
                f"discarded and nothing was cached. The upstream file may have changed: "
                f"pass dataset_path=<a verified copy> to run."
            )
        os.replace(partial, destination)
    finally:
        partial.unlink(missing_ok=True)
    return destination


def file_sha256(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
