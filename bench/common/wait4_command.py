"""A command's own resource use: ``python bench/common/wait4_command.py OUT -- CMD``.

Linux carries a process's peak resident memory over ``exec``: a child that the bench forks
reports in ``ru_maxrss`` at least the bench's own peak (hundreds of MB once it has built the
bare task's inputs), whatever the command then uses. So the bench starts this small
process (the standard library only, run by its path so that no package is imported), which
starts the command and writes its ``wait4`` use as JSON to OUT: CPU seconds (user +
system) and peak RSS of the command and the children it waited for. What
this process itself holds when it starts the command, about 10 MB, is the floor of that
peak.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys


def main() -> int:
    out, separator, *command = sys.argv[1:]
    if separator != "--" or not command:
        raise SystemExit("usage: python bench/common/wait4_command.py OUT -- COMMAND...")
    process = subprocess.Popen(command)
    # the bench's timeout terminates this process: the command goes with it
    signal.signal(signal.SIGTERM, lambda *_: process.kill())
    _, status, usage = os.wait4(process.pid, 0)
    returncode = os.waitstatus_to_exitcode(status)
    with open(out, "w", encoding="utf-8") as file:
        json.dump(
            {
                "returncode": returncode,
                "cpu_s": usage.ru_utime + usage.ru_stime,
                # Linux reports ru_maxrss in KB
                "peak_rss_mb": usage.ru_maxrss / 1024,
            },
            file,
        )
    return returncode


if __name__ == "__main__":
    sys.exit(main())
