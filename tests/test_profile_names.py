"""One profile convention over the catalog: every benchmark has a ``default`` profile (this
project's setting), and no word names both a profile and a value of a parameter, of any
benchmark (``-T profile=X`` and ``-T <switch>=X`` never mean two things)."""

from __future__ import annotations

import inspect
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest

from benchmarks.catalog import BENCHMARKS, specs


def literal_values(annotation: Any) -> set[str]:
    """The string values a parameter's annotation lists (``Literal``, through ``Annotated``
    and unions)."""
    if get_origin(annotation) is Literal:
        return {value for value in get_args(annotation) if isinstance(value, str)}
    if get_origin(annotation) in (Union, type(int | None)) or hasattr(annotation, "__metadata__"):
        return set().union(*(literal_values(member) for member in get_args(annotation)))
    return set()


def parameter_values(task: Any) -> dict[str, set[str]]:
    """Each parameter of ``task`` but ``profile`` -> the values it lists."""
    raw = inspect.unwrap(task)
    hints = get_type_hints(raw, include_extras=True)
    return {
        name: literal_values(hints[name])
        for name in inspect.signature(raw).parameters
        if name in hints and name != "profile"
    }


PROFILE_NAMES = {name for spec in specs().values() for name in spec.profiles}


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_benchmark_has_a_default_profile_of_this_project(name: str) -> None:
    default = specs()[name].profiles["default"]
    assert default.reference.startswith("this project's"), default.reference
    assert default.proof is None


@pytest.mark.parametrize("name", BENCHMARKS)
def test_no_parameter_value_is_a_profile_name(name: str) -> None:
    clashes = {
        parameter: sorted(values & PROFILE_NAMES)
        for parameter, values in parameter_values(specs()[name].task).items()
        if values & PROFILE_NAMES
    }
    assert clashes == {}


def test_the_parameter_values_are_read() -> None:
    values = parameter_values(specs()["triviaqa"].task)
    assert values["prompt_format"] == {"canonical", "lm_eval"}
    assert values["eval_split"] == {"train", "validation", "test"}


@pytest.mark.parametrize(
    ("name", "recorded", "read"),
    [
        ("simpleqa", {"profile": "paper"}, {"profile": "default"}),
        ("triviaqa", {"prompt_format": "default"}, {"prompt_format": "canonical"}),
        ("scienceqa", {"prompt_format": "default"}, {"prompt_format": "question_options"}),
        ("winogrande", {"answer_parse": "evalscope_1.14.1"}, {"answer_parse": "evalscope"}),
    ],
)
def test_a_renamed_value_in_an_earlier_versions_log_is_read_as_its_new_name(
    name: str, recorded: dict[str, Any], read: dict[str, Any]
) -> None:
    former = specs()[name].former_versions
    assert former is not None
    args = former.current_args({**recorded, "num_examples": None, "data_files": {"a": "b"}})
    assert args == {
        **former.added_args,
        **read,
        "num_examples": None,
        "data_files": {"a": "b"},
    }
