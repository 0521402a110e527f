"""Where a split's rows are kept between runs: the rows file's key and folder.

A rows file is keyed by its source (a local file's resolved path, size, inode
and modification time; a snapshot folder's files; a Hub dataset's id and
pinned revision), by the request (split, columns, shape, options, layout), by
the file layout's version and by a hash of the code that writes it (an
editable install keeps its version number while its code changes).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import logging
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

from benchmarks.data import download
from benchmarks.data.rows_request import ROWS_VERSION, RowsRequest

logger = logging.getLogger(__name__)


def rows_file_for(request: RowsRequest, local: Path | None) -> Path | None:
    """Where this request's rows are kept between runs (None: prepared every time)."""
    if local is not None:
        try:
            resolved = local.resolve()
            stat = resolved.stat()
        except OSError:
            return None  # no such file: the child names the problem
        source: list[Any] = [str(resolved), stat.st_size, stat.st_mtime_ns, stat.st_ino]
    elif request.dataset_path is None and request.revision is not None:
        source = [request.hub_path, request.revision]  # a commit's files never change
    elif request.dataset_path is not None and Path(request.dataset_path).is_dir():
        source = _folder_identity(Path(request.dataset_path))
    else:
        return None  # an unpinned Hub copy: read every time
    # the source stands for dataset_path and data_files (another spelling of a file is it)
    described = asdict(request)
    del described["dataset_path"], described["data_files"]
    identity = json.dumps([ROWS_VERSION, code_version(request.shape), source, described])
    key = hashlib.sha256(identity.encode()).hexdigest()
    return download.cache_dir("rows") / key[:2] / f"{key}.jsonl"


def _folder_identity(folder: Path) -> list[Any]:
    """A snapshot folder as its resolved path and every file's name, size and modification
    time (a file added, removed or rewritten is another source)."""
    resolved = folder.resolve()
    files = []
    for path in sorted(resolved.rglob("*")):
        if path.is_file():
            stat = path.stat()
            files.append([str(path.relative_to(resolved)), stat.st_size, stat.st_mtime_ns])
    return [str(resolved), files]


# The modules whose code decides what a rows file holds (with the shape's own).
WRITER_MODULES = (
    "benchmarks.data.rows_child",
    "benchmarks.data.split_reader",
    "benchmarks.data.local_file",
    "benchmarks.data.records",
    "benchmarks.data.image_cache",
)
# A request's ``shape``: "plain" (the columns' values), or "<module>:<class>" naming the class
# that shapes each record (a benchmark's own, in its data module).
PLAIN_SHAPE = "plain"


def shape_module(shape: str) -> str | None:
    """The module of a ``<module>:<class>`` shape (None for the plain one)."""
    return None if shape == PLAIN_SHAPE else shape.partition(":")[0]


def module_file(module: str) -> Path:
    """The source file of ``module``, found without importing it (the eval process imports
    no shape: they import data libraries)."""
    found = importlib.util.find_spec(module)
    if found is None or found.origin is None:
        raise ValueError(f"no module {module!r} (a rows shape names '<module>:<class>')")
    return Path(found.origin)


@functools.cache
def code_version(shape: str) -> str:
    """A hash of the code that writes a rows file of ``shape``: an edited shape (an editable
    install keeps its version number) never reads rows an older one wrote."""
    digest = hashlib.sha256()
    own = shape_module(shape)
    for module in (*WRITER_MODULES, *([own] if own else [])):
        digest.update(module_file(module).read_bytes())
    return digest.hexdigest()


def writable_rows_file(request: RowsRequest, rows_file: Path | None) -> Path | None:
    """``rows_file``, or None (a temporary file) when its folder cannot be written."""
    if rows_file is None:
        return None
    try:
        rows_file.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=rows_file.parent):
            pass
    except OSError as ex:
        logger.warning(
            f"cannot write the rows cache {rows_file.parent} ({ex.strerror or ex}): the "
            f"{request.benchmark} {request.split} rows are read again on every run. Set "
            f"{download.CACHE_DIR_ENV} to a writable folder to keep them."
        )
        return None
    return rows_file
