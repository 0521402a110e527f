"""The README's "Verified against the references" table, made from the results file that
the last run of the peer comparisons wrote (tests/peers/results.json).

``python -m tests.peers.verified_table`` prints it; ``--write`` puts it into the README
between its markers. tests/test_verified_table.py checks that the README holds what the
file says.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESULTS_FILE = ROOT / "tests" / "peers" / "results.json"
README = ROOT / "README.md"
START = "<!-- verified-against: made by python -m tests.peers.verified_table -->"
END = "<!-- /verified-against -->"
HEADER = (
    "| reference | version | compared | rows | prompts identical | verdicts identical |\n"
    "|---|---|---|---|---|---|\n"
)


def table(results: list[dict[str, Any]]) -> str:
    lines = []
    for row in results:
        rows = row["rows"]
        verdicts = f"{row['verdicts_identical']:,}/{rows:,}"
        if row["verdicts_note"]:
            verdicts += f": {row['verdicts_note']}"
        lines.append(
            f"| {row['peer']} | {row['version']} | {row['compared']} | {rows:,} "
            f"| {row['prompts_identical']:,}/{rows:,} | {verdicts} |\n"
        )
    return HEADER + "".join(lines)


def readme_table(readme: str) -> str:
    """What the README holds between the markers."""
    start, end = readme.index(START) + len(START), readme.index(END)
    return readme[start:end].strip("\n") + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the README's table")
    args = parser.parse_args()
    made = table(json.loads(RESULTS_FILE.read_text(encoding="utf-8")))
    if not args.write:
        print(made, end="")
        return
    readme = README.read_text(encoding="utf-8")
    start, end = readme.index(START) + len(START), readme.index(END)
    README.write_text(readme[:start] + "\n" + made + readme[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
