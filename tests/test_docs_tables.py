"""The tables that list the benchmarks (the README's, the bundled samples', the pinned
revisions of docs/offline.md) are the ones their specs make."""

from __future__ import annotations

import pytest

from benchmarks.catalog import specs
from tests.docs_tables import COMMAND, ROOT, TABLES, Table, made, samples_table


@pytest.mark.parametrize("table", TABLES, ids=lambda table: table.key)
def test_the_table_is_made_from_the_specs(table: Table) -> None:
    held = table.held((ROOT / table.page).read_text(encoding="utf-8"))
    assert held == made(table), f"{table.page}: its {table.key} table is stale; run {COMMAND}"


def test_every_benchmark_has_a_row_and_every_hub_revision_is_listed() -> None:
    benchmarks, samples, revisions = (made(table) for table in TABLES)
    for spec in specs().values():
        assert f"[`{spec.name}`]({spec.docs_page})" in benchmarks
        assert f"| `{spec.name}/` | " in samples
        if spec.dataset is not None:
            assert f"| `{spec.dataset.revision}` |" in revisions
    assert "| `simple_qa_test_set.csv`" not in revisions  # SimpleQA is not on the Hub


def test_the_sample_rows_are_counted_from_the_files() -> None:
    made_rows = samples_table(list(specs().values()))
    assert "| `triviaqa/` | `validation.jsonl` 30, `train.jsonl` 40 |" in made_rows
    assert "| `scienceqa/` | `test.parquet` 20 |" in made_rows
