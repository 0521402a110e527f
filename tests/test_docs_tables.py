"""The tables that list the benchmarks (the README's opening sentence, its profiles and its
benchmarks, the bundled samples', the pinned revisions of docs/offline.md) are the ones
their specs make."""

from __future__ import annotations

import pytest

from benchmarks.catalog import specs
from benchmarks.configs import names as config_names
from tests.docs_tables import COMMAND, ROOT, TABLES, Table, made, samples_table

MADE = {table.key: made(table) for table in TABLES}


@pytest.mark.parametrize("table", TABLES, ids=lambda table: table.key)
def test_the_table_is_made_from_the_specs(table: Table) -> None:
    held = table.held((ROOT / table.page).read_text(encoding="utf-8"))
    assert held == made(table), f"{table.page}: its {table.key} table is stale; run {COMMAND}"


def test_every_benchmark_has_a_row_and_every_hub_revision_is_listed() -> None:
    benchmarks, samples, revisions = (
        MADE[key] for key in ("benchmarks", "bundled-samples", "pinned-revisions")
    )
    intro = " ".join(MADE["intro"].split())
    for spec in specs().values():
        assert f"**{spec.title}**" in intro
        for profile in spec.profiles:
            assert f"| {spec.name} | `{profile}` |" in MADE["profiles"]
        assert f"[`{spec.name}`]({spec.docs_page})" in benchmarks
        assert f"| `{spec.name}/` | " in samples
        if spec.dataset is not None:
            revision = spec.dataset.revision
            pinned = f"`{revision}`" if revision else "none pinned: the Hub's newest"
            assert f"| `{spec.dataset.path}` | {pinned} |" in revisions
    assert "| `simple_qa_test_set.csv`" not in revisions  # SimpleQA is not on the Hub


def test_the_sample_rows_are_counted_from_the_files() -> None:
    made_rows = samples_table(list(specs().values()))
    assert "| `triviaqa/` | `validation.jsonl` 30, `train.jsonl` 40 |" in made_rows
    assert "| `scienceqa/` | `test.parquet` 20 |" in made_rows


def test_every_shipped_configuration_is_named_by_its_profile() -> None:
    profiles = MADE["profiles"]
    for name in config_names():
        assert f"[`configs/{name}.yaml`](configs/{name}.yaml)" in profiles, name
    assert (
        "| winogrande | `lm_eval_0.4.13_gguf` | [`configs/winogrande_lm_eval_gguf.yaml`]"
        in profiles
    )
    assert "| triviaqa | `default` | | this project's" in profiles  # no file selects it


def test_the_opening_sentence_names_the_benchmarks_in_order() -> None:
    titles = [spec.title for spec in specs().values()]
    intro = " ".join(MADE["intro"].split())
    listed = ", ".join(f"**{t}**" for t in titles[:-1]) + f" and **{titles[-1]}**."
    assert intro.endswith(listed), intro
