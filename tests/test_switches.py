"""A switch is declared once, as a field of its benchmark's profile dataclass (type, default
per profile, help text); the task's signature, the docs page's parameter table and the
README's list of switches agree with that declaration, the task's docstring documents its
other parameters, and a value given to the task reaches the settings it runs with."""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

import pytest

from benchmarks.catalog import specs
from benchmarks.profiles import PROFILE_SENTINEL
from benchmarks.profiles.simpleqa import SIMPLEQA_PROFILES
from benchmarks.profiles.winogrande import PROFILES as WINOGRANDE_PROFILES
from benchmarks.runtime.errors import TaskParameterError
from benchmarks.runtime.task_parameters import PROFILES_VALUE, NoneMeans, task_arguments
from benchmarks.spec import BenchmarkSpec
from tests.parameter_tables import README, page_rows, readme_block, readme_list, table_rows

NAMES = list(specs())


def members(annotation: Any) -> set[Any]:
    """The types a union allows (``Annotated`` dropped)."""
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) in (typing.Union, types.UnionType):
        return set(get_args(annotation))
    return {annotation}


def profile_type(spec: BenchmarkSpec) -> type:
    return type(next(iter(spec.profiles.values())))


def takes_the_profiles_value(parameter: inspect.Parameter, annotation: Any) -> bool:
    """The parameter's default stands for the profile's value."""
    none_means = [m for m in getattr(annotation, "__metadata__", ()) if isinstance(m, NoneMeans)]
    return parameter.default == PROFILE_SENTINEL or any(
        m.meaning == PROFILES_VALUE for m in none_means
    )


@pytest.mark.parametrize("name", NAMES)
def test_the_signature_takes_each_switch_with_the_type_of_its_profile_field(name: str) -> None:
    spec = specs()[name]
    task = inspect.unwrap(spec.task)
    parameters = inspect.signature(task).parameters
    hints = get_type_hints(task, include_extras=True)
    declared = get_type_hints(profile_type(spec))
    switches = profile_type(spec).switch_names()  # type: ignore[attr-defined]
    assert switches, f"{name}: no switch declared"
    profiles_value = [
        p for p in parameters if p in hints and takes_the_profiles_value(parameters[p], hints[p])
    ]
    assert sorted(profiles_value) == sorted(switches), (
        f"{name}: the parameters that default to the profile's value are the profile's "
        "switch() fields"
    )
    for switch in switches:
        taken = members(hints[switch])
        expected = members(declared[switch]) | {type(None)}
        if parameters[switch].default == PROFILE_SENTINEL:
            expected.add(Literal["profile"])
        else:
            assert parameters[switch].default is None, f"{name}: {switch} defaults to None"
        assert taken == expected, f"{name}: {switch} is {taken}, its profile field {expected}"


@pytest.mark.parametrize("name", NAMES)
def test_the_docstring_documents_every_other_parameter_in_order(name: str) -> None:
    # the switches are documented once, from their declarations: on the docs page, which
    # the profile's entry names
    spec = specs()[name]
    task = inspect.unwrap(spec.task)
    doc = inspect.getdoc(task) or ""
    args = doc.split("Args:\n", 1)[1].split("\n\n", 1)[0]
    entries = [line.split(":", 1)[0].strip() for line in args.split("\n") if line[:5].strip()]
    switches = set(profile_type(spec).switch_names())  # type: ignore[attr-defined]
    parameters = [
        p.name
        for p in inspect.signature(task).parameters.values()
        if p.kind is not inspect.Parameter.VAR_KEYWORD and p.name not in switches
    ]
    assert entries == parameters
    profile_entry = args.split("\n")[0] + args.split("\n")[1]
    assert spec.docs_page in profile_entry, profile_entry


@pytest.mark.parametrize("name", NAMES)
def test_the_docs_table_rows_of_the_switches_are_made_from_their_declarations(
    name: str,
) -> None:
    spec = specs()[name]
    written = page_rows((README.parent / spec.docs_page).read_text(encoding="utf-8"))
    made = table_rows(spec)
    assert {switch: written.get(switch) for switch in made} == made, (
        "run python -m tests.parameter_tables --write"
    )


def test_the_readme_list_of_switches_is_made_from_their_declarations() -> None:
    assert readme_block(README.read_text(encoding="utf-8")) == readme_list(), (
        "run python -m tests.parameter_tables --write"
    )


def other_value(annotation: Any, default: Any) -> Any:
    """A value of the switch's type other than its default."""
    for member in members(annotation):
        if get_origin(member) is Literal:
            return next(value for value in get_args(member) if value != default)
    if bool in members(annotation):
        return not default
    if int in members(annotation):
        return (default or 0) + 1
    return 0.25


@pytest.mark.parametrize("name", NAMES)
def test_a_switch_given_to_the_task_is_the_one_it_runs_with(name: str) -> None:
    spec = specs()[name]
    declared = get_type_hints(profile_type(spec))
    default = spec.profiles[inspect.signature(spec.task).parameters["profile"].default]
    for switch in profile_type(spec).switch_names():  # type: ignore[attr-defined]
        value = other_value(declared[switch], getattr(default, switch))
        built = spec.task(bundled_sample=True, **{switch: value})
        assert built.metadata[switch] == value, f"{name}: {switch}={value!r}"


def test_task_arguments_reads_the_tasks_locals_and_its_unknown_names() -> None:
    task = specs()["scienceqa"].task
    given = {
        name: parameter.default
        for name, parameter in inspect.signature(inspect.unwrap(task)).parameters.items()
        if parameter.kind is not inspect.Parameter.VAR_KEYWORD
    }
    args = task_arguments(task, {**given, "unknown": {}})
    assert vars(args) == {"task_name": "scienceqa", **given}
    with pytest.raises(TaskParameterError, match=r"^scienceqa: unknown parameter 'shots'; "):
        task_arguments(task, {**given, "unknown": {"shots": 3}})


def test_with_overrides_takes_every_switch() -> None:
    default = WINOGRANDE_PROFILES["default"]
    with pytest.raises(TypeError, match="pass with_overrides every switch"):
        default.with_overrides({"shots": 3})
    switches = dict.fromkeys(default.switch_names())
    assert default.with_overrides({**switches, "shots": 3}) == dataclasses.replace(default, shots=3)


def test_none_is_a_value_where_the_switchs_type_allows_it() -> None:
    default = SIMPLEQA_PROFILES["default"]
    switches = {
        name: "profile" if default.none_is_a_value(name) else None
        for name in default.switch_names()
    }
    assert [name for name, value in switches.items() if value] == [
        "grader_temperature",
        "grader_max_tokens",
    ]
    assert default.with_overrides(switches) == default
    applied = default.with_overrides(switches | {"grader_temperature": None})
    assert applied == dataclasses.replace(default, grader_temperature=None)
    assert default.grader_temperature is not None
