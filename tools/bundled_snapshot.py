"""What users see of every benchmark and profile, on the bundled samples, as one JSON file.

``python -m tools.bundled_snapshot OUT.json`` runs each spec under each of its profiles
on its bundled sample with the offline oracle and random models (a judged benchmark graded
by the oracle) and writes, per run: the status, task name, version and arguments, the
generation settings, the solver steps, the metrics, and per sample the messages, every
model call's input, the scores with their answers and explanations, and the metadata. Ids
and times are left out. Run it on two checkouts (``PYTHONPATH=<checkout>``) and compare
the files: a change that should change nothing for users leaves them byte-identical.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from typing import Any


def snapshot() -> dict[str, Any]:
    from inspect_ai import eval

    from benchmarks.catalog import specs

    runs: dict[str, Any] = {}
    log_dir = tempfile.mkdtemp()
    for name, spec in specs().items():
        for profile in spec.profiles:
            for model in ("oracle", "random"):
                roles = {"grader": "benchmarks/oracle"} if spec.judged else None
                (log,) = eval(
                    spec.task(bundled_sample=True, profile=profile),
                    model=f"benchmarks/{model}",
                    model_roles=roles,  # type: ignore[arg-type]
                    log_dir=log_dir,
                    display="none",
                )
                results = log.results.scores if log.results else []
                runs[f"{name}/{profile}/{model}"] = {
                    "status": log.status,
                    "task": log.eval.task,
                    "version": log.eval.task_version,
                    "task_args": log.eval.task_args,
                    "config": log.plan.config.model_dump(exclude_none=True),
                    "steps": [step.solver for step in log.plan.steps],
                    "metrics": [
                        [s.name, s.scorer, {k: m.value for k, m in s.metrics.items()}]
                        for s in results
                    ],
                    "samples": [sample_view(sample) for sample in log.samples or []],
                }
                print(name, profile, model, log.status, file=sys.stderr)
    return runs


def sample_view(sample: Any) -> dict[str, Any]:
    return {
        "input": [(m.role, m.text) for m in sample.messages],
        "model_calls": [
            [(m.role, m.text) for m in event.input]
            for event in sample.events
            if event.event == "model"
        ],
        "scores": {k: [v.value, v.answer, v.explanation] for k, v in (sample.scores or {}).items()},
        "metadata": sample.metadata or {},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the JSON file to write")
    args = parser.parse_args()
    # a rows cache of its own: each checkout reads its bundled rows with its own code
    os.environ["INSPECT_BENCHMARKS_CACHE"] = tempfile.mkdtemp()
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(snapshot(), out, indent=1, default=str, sort_keys=True)


if __name__ == "__main__":
    main()
