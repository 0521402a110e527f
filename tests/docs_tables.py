"""The tables of the README and the docs that list the benchmarks, made from their specs.

``python -m tests.docs_tables`` prints them; ``--write`` puts each between its markers
(the README's opening sentence, its profiles and its benchmarks, the bundled samples'
README, the pinned revisions of docs/offline.md). tests/test_docs_tables.py checks that the
files hold what the specs say. The maker lives with the tests, as
tests/peers/verified_table.py does: the tables belong to the repository's docs, which the
installed package does not carry.

A bundled sample's provenance and licence are in ``SOURCE.md`` beside its rows
(``Licence: ...``, then a paragraph); its row counts are read from the files. A profile's
row says what it reproduces (its ``reference``, up to the first parenthesis) and names the
shipped configuration that selects it, if any.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from benchmarks.catalog import specs
from benchmarks.data.rows import local_records
from benchmarks.data.samples import bundled_data_files
from benchmarks.spec import BenchmarkSpec

ROOT = Path(__file__).resolve().parents[1]
COMMAND = "python -m tests.docs_tables --write"
LICENCE = "Licence: "


@dataclass(frozen=True)
class Table:
    """A table of ``page``, between ``<!-- {key}: made by ... -->`` and ``<!-- /{key} -->``."""

    page: str
    key: str
    make: Callable[[list[BenchmarkSpec]], str]

    @property
    def start(self) -> str:
        return f"<!-- {self.key}: made by python -m tests.docs_tables -->"

    @property
    def end(self) -> str:
        return f"<!-- /{self.key} -->"

    def held(self, text: str) -> str:
        """What ``text`` (the page) holds between the markers."""
        start, end = text.index(self.start) + len(self.start), text.index(self.end)
        return text[start:end].strip("\n") + "\n"

    def written(self, text: str, table: str) -> str:
        start, end = text.index(self.start) + len(self.start), text.index(self.end)
        return text[:start] + "\n" + table + text[end:]


def in_words(names: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def intro_sentence(benchmarks: list[BenchmarkSpec]) -> str:
    """The README's opening sentence: every benchmark by its title."""
    titles = in_words([f"**{spec.title}**" for spec in benchmarks])
    sentence = (
        f"Reference-exact LLM benchmarks for [Inspect AI](https://inspect.aisi.org.uk/): {titles}."
    )
    return textwrap.fill(sentence, width=92, break_long_words=False, break_on_hyphens=False) + "\n"


def config_profiles() -> dict[tuple[str, str], str]:
    """(task, profile) -> the shipped configuration file that selects it (``configs/...``)."""
    found = {}
    for path in sorted((ROOT / "benchmarks" / "configs").glob("*.yaml")):
        task = yaml.safe_load(path.read_text(encoding="utf-8"))["task"]
        profile = task.get("args", {}).get("profile", "default")
        found[task["task"].removeprefix("benchmarks/"), profile] = f"configs/{path.name}"
    return found


def what_it_is(reference: str) -> str:
    """A profile's ``reference``, up to its first parenthesis, as a table cell."""
    return reference.split(" (", 1)[0].replace("|", "\\|")


def profiles_table(benchmarks: list[BenchmarkSpec]) -> str:
    files = config_profiles()
    lines = ["| benchmark | profile | file | what it is |", "|---|---|---|---|"]
    for spec in benchmarks:
        for name, profile in spec.profiles.items():
            file = files.get((spec.name, name))
            cell = f" [`{file}`]({file}) " if file else " "
            lines.append(f"| {spec.name} | `{name}` |{cell}| {what_it_is(profile.reference)} |")
    return "\n".join(lines) + "\n"


def benchmarks_table(benchmarks: list[BenchmarkSpec]) -> str:
    lines = [
        "| benchmark | measures | default data | reference | metrics |",
        "|---|---|---|---|---|",
    ]
    for spec in benchmarks:
        listing = spec.listing
        lines.append(
            f"| [`{spec.name}`]({spec.docs_page}) | {listing.measures} | {listing.default_data} "
            f"| {listing.reference} | {listing.metrics} |"
        )
    return "\n".join(lines) + "\n"


def revisions_table(benchmarks: list[BenchmarkSpec]) -> str:
    lines = ["| benchmark | Hub dataset | revision | pinned by |", "|---|---|---|---|"]
    for spec in benchmarks:
        if spec.dataset is not None:
            revision = spec.dataset.revision
            pinned = f"`{revision}`" if revision else "none pinned: the Hub's newest"
            lines.append(
                f"| {spec.title} | `{spec.dataset.path}` | {pinned} "
                f"| {spec.dataset.pinned_by or ''} |"
            )
    return "\n".join(lines) + "\n"


def row_count(path: str) -> int:
    return sum(1 for _ in local_records(Path(path)))


def sample_source(spec: BenchmarkSpec) -> tuple[str, str]:
    """The licence and the provenance that the sample's ``SOURCE.md`` states."""
    path = ROOT / spec.bundled_sample / "SOURCE.md"
    paragraphs = path.read_text(encoding="utf-8").split("\n\n")
    (licence,) = [p for p in paragraphs if p.startswith(LICENCE)]
    provenance = paragraphs[paragraphs.index(licence) + 1 :]
    return licence.removeprefix(LICENCE).strip(), " ".join(" ".join(provenance).split())


def samples_table(benchmarks: list[BenchmarkSpec]) -> str:
    lines = ["| folder | rows | provenance | licence |", "|---|---|---|---|"]
    for spec in benchmarks:
        files = bundled_data_files(spec.name)
        # the evaluated splits first, the demonstrations' (train) last
        splits = sorted(files, key=lambda split: split == "train")
        rows = ", ".join(f"`{Path(files[s]).name}` {row_count(files[s])}" for s in splits)
        licence, provenance = sample_source(spec)
        lines.append(f"| `{spec.name}/` | {rows} | {provenance} | {licence} |")
    return "\n".join(lines) + "\n"


TABLES = (
    Table("README.md", "intro", intro_sentence),
    Table("README.md", "profiles", profiles_table),
    Table("README.md", "benchmarks", benchmarks_table),
    Table("benchmarks/data/samples/README.md", "bundled-samples", samples_table),
    Table("docs/offline.md", "pinned-revisions", revisions_table),
)


def made(table: Table) -> str:
    return table.make(list(specs().values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the tables in place")
    args = parser.parse_args()
    for table in TABLES:
        if not args.write:
            print(f"{table.page}:\n{made(table)}")
            continue
        path = ROOT / table.page
        text = path.read_text(encoding="utf-8")
        path.write_text(table.written(text, made(table)), encoding="utf-8")


if __name__ == "__main__":
    main()
