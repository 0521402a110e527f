"""Reading and writing the generated files, and counting their rows."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def write_jsonl(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")


def write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    # As the upstream files: header line, minimal quoting, "\n" line ends.
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def write_parquet(path: Path, rows: list[dict[str, Any]], features: Any) -> None:
    import datasets

    datasets.disable_progress_bars()
    datasets.Dataset.from_list(rows, features=features).to_parquet(str(path))


def count_rows(path: Path) -> tuple[int, int | None]:
    """Rows in a generated file, and rows carrying an image (parquet with ``image`` only)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        parquet = pq.ParquetFile(path)
        rows = parquet.metadata.num_rows
        if "image" not in parquet.schema_arrow.names:
            return rows, None
        return rows, rows - _null_images(parquet)
    if path.suffix == ".csv":
        with path.open(encoding="utf-8", newline="") as handle:
            return sum(1 for _ in csv.reader(handle)) - 1, None
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip()), None


def _null_images(parquet: Any) -> int:
    """Rows without an image, from the column statistics when the file has them."""
    names = [parquet.schema.column(i).path for i in range(len(parquet.schema))]
    leaf = names.index("image.bytes")
    nulls = 0
    for group in range(parquet.metadata.num_row_groups):
        statistics = parquet.metadata.row_group(group).column(leaf).statistics
        if statistics is None or not statistics.has_null_count:
            column = parquet.read(columns=["image"]).column("image")
            return int(column.null_count)
        nulls += statistics.null_count
    return nulls
