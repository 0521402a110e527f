"""``python -m benchmarks``: the tasks of this package and its reference configurations,
from any directory.

``inspect list tasks`` lists the task files under a folder (so only from the
repository root); the tasks are registered with Inspect under the names printed here,
which ``inspect eval`` accepts anywhere. ``--run-config`` takes a file path, and
``configs/`` is a folder of the repository: Inspect reads the file while it parses the
command line, before it loads any package, so its "The config file ... does not
exist" cannot point to the copies shipped inside the package. This listing does: it
prints the path of each.
"""

from __future__ import annotations

from importlib.resources import as_file, files

from inspect_ai.util import registry_info

from benchmarks.catalog import specs
from benchmarks.configs import names


def task_listing() -> str:
    lines = []
    for spec in specs().values():
        info = registry_info(spec.task)
        description = info.metadata.get("attribs", {}).get("description", "")
        lines.append(f"{info.name:<30} {description}")
        lines.append(f"{'':<30} profiles: {', '.join(spec.profiles)}")
    lines.append("")
    lines.append("Run one: inspect eval benchmarks/<name> --model <provider>/<model>")
    return "\n".join(lines)


def config_listing() -> str:
    """Each reference configuration shipped in the package, with the path of its file."""
    lines = ["Reference configurations: inspect eval --run-config <path> --model ..."]
    folder = files("benchmarks.configs")
    for name in names():
        with as_file(folder.joinpath(f"{name}.yaml")) as path:
            lines.append(f"{name:<40} {path}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(task_listing())
    print()
    print(config_listing())
