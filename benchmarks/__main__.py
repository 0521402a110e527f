"""``python -m benchmarks``: the tasks of this package, from any directory.

``inspect list tasks`` lists the task files under a folder (so only from the
repository root); the tasks are registered with Inspect under the names printed here,
which ``inspect eval`` accepts anywhere.
"""

from __future__ import annotations

from inspect_ai.util import registry_info

from benchmarks.catalog import specs


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


if __name__ == "__main__":
    print(task_listing())
