"""Reference profiles: a reference harness's setup at a named version, as typed data.

Each benchmark has a frozen dataclass of the switches its references set and one instance
per reference, named ``<reference>_<version>``, plus the project's own ``default``
(docs/development.md, "How a benchmark is put together").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, get_args, get_type_hints

from inspect_ai import Task
from inspect_ai.model import GenerateConfig

from benchmarks.runtime.task_parameters import Shard
from benchmarks.runtime.task_record import BenchmarkTask

P = TypeVar("P", bound="Profile")
T = TypeVar("T")
# The value of a switch that means "the profile's", where None means something else.
PROFILE_SENTINEL: Literal["profile"] = "profile"


# The metadata key of a switch's help text.
HELP = "help"


def switch(default: T, help: str) -> T:
    """A profile field that is also a task parameter (a switch): its default and its help
    text, which the docs page's parameter table and the README's list of switches are made
    from (``python -m tests.parameter_tables``). Its type is the field's; the task's
    parameter is ``Annotated[<type> | None, ...] = None``."""
    return field(default=default, metadata={HELP: help})


@dataclass(frozen=True)
class Profile:
    """What every profile has: its ``profile=`` name, what it reproduces (with the version),
    the differential test that runs the reference's own code against it (``proof``; None:
    restated, not run) and the generation settings the reference sends."""

    name: str
    reference: str
    proof: str | None
    generate: GenerateConfig = field(default_factory=GenerateConfig)

    @classmethod
    def switch_names(cls) -> list[str]:
        """The profile's fields a task takes as parameters (declared with ``switch``)."""
        return [f.name for f in dataclasses.fields(cls) if HELP in f.metadata]

    @classmethod
    def none_is_a_value(cls, name: str) -> bool:
        """Whether the switch ``name`` takes None as a value of its own (its field's type
        allows None: the task's parameter then defaults to "profile")."""
        return type(None) in get_args(get_type_hints(cls)[name])

    def with_overrides(self: P, switches: Mapping[str, Any]) -> P:
        """This profile with each switch given a value replaced: a value is given when it is
        not None, or, for a switch that takes None as a value, not "profile". Every switch
        is passed, by name."""
        if sorted(switches) != sorted(self.switch_names()):
            raise TypeError(f"pass with_overrides every switch: {self.switch_names()}")
        given = {
            name: value
            for name, value in switches.items()
            if (value != PROFILE_SENTINEL if self.none_is_a_value(name) else value is not None)
        }
        return dataclasses.replace(self, **given)

    def switches(self) -> dict[str, Any]:
        """The profile's switches (not its generation settings), for the log's metadata."""
        skip = {"name", "reference", "proof", "generate"}
        return {
            f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in skip
        }

    def task(self, args: Any, **task: Any) -> Task:
        """The task's ``Task``, made of ``task`` (``Task``'s arguments), recording what ran
        (docs/development.md, "The task it returns")."""
        if args.shard is not None:
            shard = Shard.parse(args.shard)
            task["dataset"] = task["dataset"][shard.index :: shard.count]
        return BenchmarkTask(
            as_run=self.switches(),
            metadata={"profile": self.name, **self.switches(), **task.pop("metadata", {})},
            config=task.pop("config", self.generate),
            **task,
        )


def chosen_profile(profiles: Mapping[str, P], args: Any) -> P:
    """The profile the task's checked arguments (``task_arguments``, which refuse an unknown
    profile) name, each of its switches given a value there replaced."""
    profile = profiles[args.profile]
    return profile.with_overrides({name: getattr(args, name) for name in profile.switch_names()})
