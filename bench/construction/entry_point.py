"""What the package's Inspect entry point costs every ``inspect`` command in its environment.

Inspect loads the ``inspect_ai`` entry point of every installed package before any command,
whatever task it runs. Each fresh process imports Inspect, then loads the entry points as
Inspect does; the time and the resident memory the load adds are its cost (medians).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from typing import Any

# The probe runs in a child: Inspect's loader is an internal, named here as text only.
# The resident set is read from /proc, not as the peak (Linux carries a process's peak RSS
# over exec: a child of the bench would report at least the bench's own).
PROBE = """
import json, time
def rss_mb():
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024
import inspect_ai
rss = rss_mb()
started = time.perf_counter()
from inspect_ai._util.entrypoints import ensure_entry_points
ensure_entry_points()
seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds, "inspect_mb": rss, "added_mb": rss_mb() - rss}))
"""


def entry_point_cost(repeat: int) -> dict[str, Any]:
    """Medians over ``repeat`` fresh processes: seconds to load the entry points, the resident
    set after importing Inspect and what the load adds (MB)."""
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(repeat)
    ]
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]} | {
        "runs": len(runs)
    }
