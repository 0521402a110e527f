"""Registry names of the tasks: ``benchmarks/<name>`` however the package is installed.

Inspect prefixes a task's name with its package only when it recognizes the
package as installed: in site-packages, or as an editable install whose
distribution is named like the import package. This distribution is
``inspect-reference-benchmarks`` and the import package ``benchmarks``, so an
editable install (``pip install -e .``) is not recognized, and each task
names itself ``benchmarks/<name>`` exactly when Inspect would not add the
prefix. A task file loaded by path (``inspect eval benchmarks/triviaqa.py``)
keeps the bare name, which is what Inspect looks up in that file. (Log task
names are ``benchmarks/<name>`` in every case: each ``Task`` sets it.)
"""

from __future__ import annotations

import sys

from inspect_ai._util.package import get_installed_package_name

PACKAGE = "benchmarks"


def registry_task_name(name: str, module_name: str) -> str:
    """The name for ``@task(name=...)`` of task ``name`` defined in ``module_name``."""
    if not module_name.startswith(f"{PACKAGE}."):
        return name  # a file loaded by path
    if get_installed_package_name(sys.modules[module_name]) == PACKAGE:
        return name  # Inspect adds the "benchmarks/" itself
    return f"{PACKAGE}/{name}"
