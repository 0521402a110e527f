"""The reference configurations, for ``inspect eval --run-config`` and for Python.

Each ``<benchmark>_<reference>.yaml`` names a task, its reference profile and
the options that let a long run survive a flaky server. From the command line:
``inspect eval --run-config configs/winogrande_evalscope.yaml --model ...``
(``configs/`` at the repository root is this folder). From Python, where
Inspect's ``eval_set`` takes no run config:

    from inspect_ai import eval_set
    import benchmarks

    runs = [benchmarks.config(name) for name in ("triviaqa_lm_eval", "winogrande_evalscope")]
    eval_set([run.task for run in runs], model="openai/gpt-4o-mini", log_dir="logs/refs",
             **runs[0].eval_options)
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import yaml
from inspect_ai import Task, task_with
from inspect_ai.model import GenerateConfig

from benchmarks.runtime.errors import TaskParameterError


@dataclass(frozen=True)
class ReferenceConfig:
    """A configuration file, applied: its task (the file's generation settings merged into
    the task's) and its eval options (``retry_on_error``), for ``eval()`` or ``eval_set()``."""

    name: str
    task: Task
    eval_options: dict[str, Any]


def names() -> list[str]:
    """The configuration files there are (without ``.yaml``)."""
    folder = files("benchmarks.configs")
    return sorted(
        item.name[: -len(".yaml")] for item in folder.iterdir() if item.name.endswith(".yaml")
    )


def config(name: str, **task_args: Any) -> ReferenceConfig:
    """The configuration ``name`` (e.g. ``winogrande_evalscope``), ``task_args`` overriding the
    file's task arguments (``data_files=...``)."""
    from benchmarks.catalog import spec

    if name not in names():
        raise TaskParameterError(
            f"unknown configuration {name!r}; choose one of {', '.join(names())}."
        )
    content = yaml.safe_load(files("benchmarks.configs").joinpath(f"{name}.yaml").read_text())
    task_spec = content["task"]
    built = spec(task_spec["task"]).task(**{**task_spec.get("args", {}), **task_args})
    generation = GenerateConfig(**content.get("generate_config", {}))
    return ReferenceConfig(
        name=name,
        task=task_with(built, config=built.config.merge(generation)),
        eval_options=dict(content.get("eval_config", {})),
    )
