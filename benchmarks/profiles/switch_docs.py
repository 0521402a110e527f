"""A switch's documentation, made from its one declaration (``benchmarks.profiles.switch``).

A switch is declared once, as a field of the benchmark's profile dataclass: its type,
its default (the field's, and each profile instance's value) and its help text. The
task's docstring gets each switch's ``Args`` entry from it, and the ``profile`` entry from
the profiles' names (``documented_switches``,
applied under ``@task``); the docs page's parameter table rows and the README's list of
switches are made from it too (``python -m tests.parameter_tables --write``), and
tests/test_switches.py checks that the task's signature has the field's type.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from benchmarks.profiles import HELP, Profile

F = TypeVar("F", bound=Callable[..., Any])
ARGS_ENTRY = re.compile(r"(?P<indent> *)(?P<name>\w+): ")
DOCSTRING_WIDTH = 80


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


def documented_switches(profiles: Mapping[str, Profile]) -> Callable[[F], F]:
    """Put each switch's ``Args`` entry into the task's docstring, in the signature's order
    among the entries written there (put it under ``@task``)."""

    def document(task: F) -> F:
        task.__doc__ = docstring_with_switches(task, profiles)
        return task

    return document


def docstring_with_switches(task: Callable[..., Any], profiles: Mapping[str, Profile]) -> str:
    doc = task.__doc__ or ""
    lines = doc.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == "Args:") + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    first = ARGS_ENTRY.match(lines[start])
    assert first is not None, f"{task.__name__}: the docstring's Args start with an entry"
    indent = first["indent"]
    written: dict[str, list[str]] = {}
    for line in lines[start:end]:
        entry = ARGS_ENTRY.match(line)
        if entry is not None and entry["indent"] == indent:
            written[entry["name"]] = []
        written[list(written)[-1]].append(line)
    assert "profile" not in written, f"{task.__name__}: profile's entry is made from the profiles"
    made = {
        "profile": textwrap.wrap(
            f"profile: {profile_help(task, profiles)}",
            DOCSTRING_WIDTH,
            initial_indent=indent,
            subsequent_indent=indent + "    ",
            break_on_hyphens=False,
            break_long_words=False,
        )
    }
    for switch in switch_docs(task, profiles):
        assert switch.name not in written, f"{task.__name__}: {switch.name} is documented twice"
        text = f"{switch.name}: {switch.help} Default: {value_text(switch.task_default)} "
        text += f"({switch.defaults(lambda text: f'``{text}``')})."
        made[switch.name] = textwrap.wrap(
            text,
            DOCSTRING_WIDTH,
            initial_indent=indent,
            subsequent_indent=indent + "    ",
            break_on_hyphens=False,
            break_long_words=False,
        )
    entries = {**written, **made}
    # the signature's order; an entry naming no parameter stays, last
    order = [name for name in inspect.signature(task).parameters if name in entries]
    order += [name for name in written if name not in order]
    args = [line for name in order for line in entries[name]]
    return "\n".join([*lines[:start], *args, *lines[end:]])
