"""Deterministic full-size local datasets in the upstream schemas, for the harness.

``generate()`` writes, under ``bench/data/``, the files of every benchmark that has a
workload module (``bench/workloads/<name>.py``), at the upstream sizes that module
declares; a benchmark without one is measured on its bundled sample and gets nothing.
Every bench command calls it first.

Text is drawn from real rows of ``../shared/data`` when that folder exists and from a
built-in vocabulary otherwise; either way the output depends only on the seed. Existing
outputs with the right sizes and row counts are kept (delete ``bench/data`` to rewrite).
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common.data_files import count_rows
from bench.workloads import workloads

# 2: a random stream of its own per benchmark, and SimpleQA Verified's file.
GENERATOR_VERSION = 2
SEED = 20240607
BENCH_DIR = Path(__file__).resolve().parent
DATA_DIR = BENCH_DIR / "data"
SHARED_DATA = BENCH_DIR.parent.parent / "shared" / "data"


def scaled_sizes(scale: float) -> dict[str, dict[str, int]]:
    """Each benchmark's row counts by part: the upstream ones times ``scale``."""
    return {name: workload.scaled(scale) for name, workload in workloads().items()}


def expected_counts(sizes: dict[str, dict[str, int]]) -> dict[str, tuple[int, int | None]]:
    """Every file (relative to the data folder) with its (rows, image rows)."""
    counts: dict[str, tuple[int, int | None]] = {}
    for name, workload in workloads().items():
        counts.update(workload.files(sizes[name]))
    return counts


def outputs_complete(out_dir: Path, sizes: dict[str, dict[str, int]]) -> bool:
    manifest_path = out_dir / "manifest.json"
    if not manifest_path.is_file():
        return False
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("generator_version") != GENERATOR_VERSION:
        return False
    for name, expected in expected_counts(sizes).items():
        path = out_dir / name
        recorded = manifest.get("files", {}).get(name, {})
        if not path.is_file() or recorded.get("bytes") != path.stat().st_size:
            return False
        if count_rows(path) != expected:
            return False
    return True


def generate(
    out_dir: Path = DATA_DIR,
    *,
    scale: float = 1.0,
    seed: int = SEED,
    seed_dir: Path | None = None,
    force: bool = False,
    log: Callable[[str], None] = lambda message: None,
) -> dict[str, Any]:
    """Write every benchmark's files under ``out_dir``; return the manifest."""
    sizes = scaled_sizes(scale)
    if not force and outputs_complete(out_dir, sizes):
        log(f"datasets in {out_dir} are complete; skipping generation")
        return dict(json.loads((out_dir / "manifest.json").read_text()))
    started = time.perf_counter()
    origins = {}
    for name, workload in workloads().items():
        # A stream per benchmark: adding one leaves the others' files as they were.
        rng = random.Random(f"{seed}:{name}")
        origins[name] = workload.write(out_dir, sizes[name], rng, seed_dir, seed)
        log(f"{name}: {sizes[name]} rows from {origins[name]}")

    files = {}
    for name, expected in expected_counts(sizes).items():
        path = out_dir / name
        found = count_rows(path)
        if found != expected:
            raise RuntimeError(f"{path}: wrote {found} (rows, image rows), expected {expected}")
        files[name] = {
            "rows": found[0],
            "image_rows": found[1],
            "bytes": path.stat().st_size,
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        }
    manifest = {
        "generator_version": GENERATOR_VERSION,
        "seed": seed,
        "scale": scale,
        "text_from": origins,
        "seconds": round(time.perf_counter() - started, 1),
        "files": files,
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    log(f"generated in {manifest['seconds']} s")
    return manifest


def default_seed_dir() -> Path | None:
    """``../shared/data`` when this checkout sits next to it, else None (synthetic text)."""
    marker = SHARED_DATA / "triviaqa" / "validation_converted.hf.jsonl"
    return SHARED_DATA if marker.is_file() else None
