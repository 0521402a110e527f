"""llama-cpp-python's server with a faster top-log-probabilities selection.

``python -m tools.real_model.llama_cpp_server --model <file>.gguf --logits_all true ...``
(run with the python of a venv holding ``llama-cpp-python[server]==0.3.36``)
starts ``python -m llama_cpp.server`` with the same arguments, changed in one
place: for each echoed token its completions endpoint sorts the whole
vocabulary in Python (49,152 entries for SmolLM2) to keep the ``logprobs``
largest, about 2 s per Winogrande request on 2 cores. Here only the entries
at or above the k-th largest value are sorted, by the same key and order, so
the reply carries the same tokens, log-probabilities and top entries; only the
time changes. Used for the real-model run in docs/winogrande.md, where both
clients ask the same server.
"""

from __future__ import annotations

import inspect
import textwrap
from typing import Any

import numpy as np

PINNED_VERSION = "0.3.36"
FULL_SORT = """\
                sorted_logprobs = list(
                    sorted(
                        zip(logprobs_token, range(len(logprobs_token))), reverse=True
                    )
                )
"""
PARTIAL_SORT = """\
                sorted_logprobs = _largest_entries(logprobs_token, logprobs)
"""


def _largest_entries(values: Any, count: int) -> list[tuple[Any, int]]:
    """The first ``count`` of ``sorted(zip(values, range(len(values))), reverse=True)``."""
    count = min(count, len(values))
    if count <= 0:
        return []
    cut = len(values) - count
    threshold = np.partition(values, cut)[cut]
    candidates = np.flatnonzero(values >= threshold)
    return sorted(((values[i], int(i)) for i in candidates), reverse=True)[:count]


def patch_llama() -> None:
    import llama_cpp
    import llama_cpp.llama as llama_module

    if llama_cpp.__version__ != PINNED_VERSION:
        raise SystemExit(
            f"tools.real_model.llama_cpp_server: written for llama-cpp-python {PINNED_VERSION}, "
            f"found {llama_cpp.__version__}"
        )
    source = inspect.getsource(llama_module.Llama._create_completion)
    if source.count(FULL_SORT) != 1:
        raise SystemExit(
            "tools.real_model.llama_cpp_server: the echo sort is not where 0.3.36 has it"
        )
    patched = textwrap.dedent(source.replace(FULL_SORT, PARTIAL_SORT))
    namespace = dict(vars(llama_module), _largest_entries=_largest_entries)
    exec(compile(patched, llama_module.__file__, "exec"), namespace)
    llama_module.Llama._create_completion = namespace["_create_completion"]  # type: ignore[method-assign]


def main() -> None:
    patch_llama()
    from llama_cpp.server.__main__ import main as server_main

    server_main()


if __name__ == "__main__":
    main()
