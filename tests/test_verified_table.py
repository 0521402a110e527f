"""The README's "Verified against" table is the one the last peer run's results make."""

from __future__ import annotations

import json

from tests.peers.verified_table import README, RESULTS_FILE, readme_table, table

RESULTS = json.loads(RESULTS_FILE.read_text(encoding="utf-8"))


def test_the_readme_table_is_made_from_the_results_file() -> None:
    assert readme_table(README.read_text(encoding="utf-8")) == table(RESULTS)


def test_every_peer_comparison_agreed_on_every_prompt() -> None:
    assert RESULTS, "no peer results: run pytest tests/peers"
    assert [row["peer"] for row in RESULTS if row["prompts_identical"] != row["rows"]] == []
    # a verdict count below the rows carries its explanation
    assert [
        row["peer"]
        for row in RESULTS
        if row["verdicts_identical"] != row["rows"] and not row["verdicts_note"]
    ] == []
