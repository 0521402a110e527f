"""The switches' rows of each docs page's parameter table and the README's list of switches,
made from the switches' declarations (the profile dataclasses' ``switch`` fields, see
benchmarks/profiles/__init__.py).

``python -m tests.parameter_tables`` prints them; ``--write`` puts them into the pages
(each switch's row of ``docs/<name>.md``'s parameter table, the README's list between its
markers). tests/test_switches.py checks that the pages hold what the declarations say.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.catalog import specs
from benchmarks.profiles import HELP, Profile
from benchmarks.spec import BenchmarkSpec

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
START = "<!-- switches: made by python -m tests.parameter_tables -->"
END = "<!-- /switches -->"
TABLE_HEADER = "| parameter | default | meaning |"


@dataclass(frozen=True)
class SwitchDoc:
    """One switch as documented.

    Attributes:
        name: The parameter's name.
        help: What it does (``code`` in double backticks, as in a docstring).
        task_default: The parameter's default (None, or "profile" where None means
            something of its own): the profile's value.
        value: Its value under the task's default profile.
        others: (profile, value) for each profile that sets another value.
    """

    name: str
    help: str
    task_default: Any
    value: Any
    others: tuple[tuple[str, Any], ...]

    def defaults(self, code: Callable[[str], str]) -> str:
        """``the profile's: 0; inspect_evals_0.28.0: 5``, each value and name in ``code``
        (the profiles that set the same other value together)."""
        parts = [f"the profile's: {code(value_text(self.value))}"]
        parts += [f"{', '.join(map(code, names))}: {code(value)}" for value, names in self.under()]
        return "; ".join(parts)

    def under(self) -> list[tuple[str, list[str]]]:
        """(value as written, the profiles that set it) for each other value."""
        profiles: dict[str, list[str]] = {}
        for name, value in self.others:
            profiles.setdefault(value_text(value), []).append(name)
        return list(profiles.items())


def value_text(value: Any) -> str:
    """A value as the docs write it (``true``, ``"text"``, ``None``, ``0.5``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def switch_docs(task: Callable[..., Any], profiles: Mapping[str, Profile]) -> list[SwitchDoc]:
    """The switches of ``task`` (its parameters that are fields of its profiles), in the
    profile dataclass's order."""
    parameters = inspect.signature(inspect.unwrap(task)).parameters
    default_profile = profiles[parameters["profile"].default]
    docs = []
    for declared in dataclasses.fields(default_profile):
        if HELP not in declared.metadata:
            continue
        value = getattr(default_profile, declared.name)
        others = tuple(
            (name, getattr(profile, declared.name))
            for name, profile in profiles.items()
            if getattr(profile, declared.name) != value
        )
        docs.append(
            SwitchDoc(
                declared.name,
                declared.metadata[HELP],
                parameters[declared.name].default,
                value,
                others,
            )
        )
    return docs


def profile_help(task: Callable[..., Any], profiles: Mapping[str, Profile]) -> str:
    """The ``profile`` parameter's help, made from the profiles (``code`` in double
    backticks): their names, the default first, and where they are declared."""
    default = inspect.signature(inspect.unwrap(task)).parameters["profile"].default
    names = [default, *(name for name in profiles if name != default)]
    listed = ", ".join(f"``{name}``" for name in names[:-1])
    listed = f"{listed} or ``{names[-1]}``" if listed else f"``{names[-1]}``"
    module = type(profiles[default]).__module__.replace(".", "/")
    return (
        f"{listed}: the reference profiles (declared in ``{module}.py``, each described on the "
        "benchmark's docs page); a switch whose default says \"the profile's\" takes the "
        "profile's value unless given."
    )


def code(text: str) -> str:
    return f"`{text}`"


def markdown(help_text: str) -> str:
    """A docstring's help text as a markdown table cell (single backticks, ``|`` escaped)."""
    return re.sub(r"``(.+?)``", r"`\1`", help_text).replace("|", "\\|")


def table_row(switch: SwitchDoc) -> str:
    default = f"{code(value_text(switch.task_default))} ({switch.defaults(code)})"
    return f"| `{switch.name}` | {default} | {markdown(switch.help)} |"


def table_rows(spec: BenchmarkSpec) -> dict[str, str]:
    """``{parameter: its row of the docs page's parameter table}``: ``profile`` and each
    switch."""
    default = inspect.signature(inspect.unwrap(spec.task)).parameters["profile"].default
    help_text = markdown(profile_help(spec.task, spec.profiles))
    rows = {"profile": f"| `profile` | {code(value_text(default))} | {help_text} |"}
    return rows | {s.name: table_row(s) for s in switch_docs(spec.task, spec.profiles)}


def page_rows(page: str) -> dict[str, str]:
    """``{parameter: row}`` of the page's parameter table."""
    lines = page.split("\n")
    start = lines.index(TABLE_HEADER) + 2
    rows = {}
    for line in lines[start:]:
        found = re.match(r"\| `(\w+)` \|", line)
        if found is None:
            break
        rows[found[1]] = line
    return rows


def with_rows(page: str, rows: dict[str, str], parameters: list[str]) -> str:
    """``page`` with the switches' rows of its parameter table made from ``rows``: a row the
    table has is replaced, a missing one is put in its place in ``parameters`` (the task's
    signature order); the other parameters' rows are kept as written."""
    lines = page.split("\n")
    start = lines.index(TABLE_HEADER) + 2
    written = page_rows(page)
    ordered = [name for name in parameters if name in rows or name in written]
    ordered += [name for name in written if name not in ordered]
    body = [rows.get(name) or written[name] for name in ordered]
    return "\n".join([*lines[:start], *body, *lines[start + len(written) :]])


def readme_entry(switch: SwitchDoc) -> str:
    """```shots` (`0`; `5` under `inspect_evals_0.28.0`)``: the default profile's value,
    then each other value with the profiles that set it."""
    others = "".join(
        f"; {code(value)} under {', '.join(map(code, names))}" for value, names in switch.under()
    )
    return f"{code(switch.name)} ({code(value_text(switch.value))}{others})"


def readme_list() -> str:
    lines = []
    for spec in specs().values():
        switches = switch_docs(spec.task, spec.profiles)
        entries = ", ".join(readme_entry(switch) for switch in switches)
        lines.append(f"- [{spec.title}]({spec.docs_page}): {entries}\n")
    return "".join(lines)


def readme_block(readme: str) -> str:
    """What the README holds between the markers."""
    start, end = readme.index(START) + len(START), readme.index(END)
    return readme[start:end].strip("\n") + "\n"


def rewrite(path: Path, change: Callable[[str], str]) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(change(text), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the pages")
    args = parser.parse_args()
    if not args.write:
        for spec in specs().values():
            print(f"{spec.docs_page}:", *table_rows(spec).values(), sep="\n")
        print("README.md:", readme_list(), sep="\n", end="")
        return
    for spec in specs().values():
        rows = table_rows(spec)
        order = list(inspect.signature(inspect.unwrap(spec.task)).parameters)
        rewrite(ROOT / spec.docs_page, lambda page, r=rows, o=order: with_rows(page, r, o))

    def with_list(readme: str) -> str:
        start, end = readme.index(START) + len(START), readme.index(END)
        return readme[:start] + "\n" + readme_list() + readme[end:]

    rewrite(README, with_list)


if __name__ == "__main__":
    main()
