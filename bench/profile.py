"""Profiles of where the time goes: ``python -m bench.profile`` (needs pyinstrument).

Writes pyinstrument text reports under ``bench/out/profiles/``:

- ``triviaqa_construct.txt``: the TriviaQA task constructed and all 7,993
  samples built;
- ``<benchmark>_eval.txt``: ``eval(task, limit=N)`` with the instant scripted
  model, after a warm-up eval (what a user's bounded run does);
- ``bare_eval.txt``: the bare ``generate()`` + ``match()`` task over the same
  prompts, for comparison.

Run it alone (not next to ``bench.run``): profiling slows everything down.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
PROFILE_DIR = BENCH_DIR / "out" / "profiles"


def profiled(name: str, action: Callable[[], Any], out_dir: Path) -> Path:
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0005)
    profiler.start()
    action()
    profiler.stop()
    path = out_dir / f"{name}.txt"
    session = profiler.last_session
    assert session is not None
    tree = profiler.output_text(unicode=True, color=False, show_all=False)
    path.write_text(top_frames(session) + "\n\n" + tree)
    return path


def top_frames(session: Any, count: int = 25) -> str:
    """The functions with the most self time, and with the most inclusive time."""
    self_time: dict[str, float] = {}
    inclusive: dict[str, float] = {}

    def visit(frame: Any, on_stack: frozenset[str]) -> None:
        key = f"{frame.function}  {frame.file_path_short}:{frame.line_no}"
        self_time[key] = self_time.get(key, 0.0) + frame.total_self_time
        if key not in on_stack:  # recursion counts once
            inclusive[key] = inclusive.get(key, 0.0) + frame.time
        for child in frame.children:
            visit(child, on_stack | {key})

    root = session.root_frame()
    if root is None:
        return "(no samples)"
    visit(root, frozenset())
    total = root.time or 1.0
    lines = [f"total {total:.3f} s", "", f"top {count} by self time:"]
    for key, seconds in sorted(self_time.items(), key=lambda item: -item[1])[:count]:
        lines.append(f"{seconds:8.3f} s {100 * seconds / total:5.1f}%  {key}")
    lines += ["", f"top {count} by inclusive time:"]
    for key, seconds in sorted(inclusive.items(), key=lambda item: -item[1])[:count]:
        lines.append(f"{seconds:8.3f} s {100 * seconds / total:5.1f}%  {key}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmark", action="append", default=[])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--out", type=Path, default=PROFILE_DIR)
    args = parser.parse_args(argv)
    data_dir = BENCH_DIR / "data"
    os.environ.update(
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        HF_DATASETS_CACHE=str(data_dir / "hf_datasets_cache"),
        HF_DATASETS_DISABLE_PROGRESS_BARS="1",
        INSPECT_DISPLAY="none",
    )
    from inspect_ai import eval as inspect_eval

    from bench.case_tasks import LIMIT, bare_task, make_task, models
    from bench.generate_data import generate
    from bench.workloads import case

    generate(data_dir)
    args.out.mkdir(parents=True, exist_ok=True)
    keys = args.benchmark or ["triviaqa"]

    def construct_triviaqa() -> None:
        task = make_task(case("triviaqa"), data_dir)
        for _ in task.dataset:
            pass

    written = [profiled("triviaqa_construct", construct_triviaqa, args.out)]
    with tempfile.TemporaryDirectory() as log_dir:

        def run(task: Any, model: Any, roles: Any, limit: int) -> None:
            log = inspect_eval(
                task, model=model, model_roles=roles, limit=limit, display="none", log_dir=log_dir
            )[0]
            if log.status != "success":
                raise RuntimeError(f"eval ended {log.status}: {log.error}")

        for key in keys:
            spec = case(key)
            model, roles = models(spec)
            samples = list(make_task(spec, data_dir).dataset[0 : args.samples])
            run(make_task(spec, data_dir), model, roles, LIMIT)  # warm-up
            ours, bare = make_task(spec, data_dir), bare_task(samples)
            written.append(
                profiled(f"{key}_eval", partial(run, ours, model, roles, args.samples), args.out)
            )
            written.append(
                profiled(
                    f"{key}_bare_eval", partial(run, bare, model, None, args.samples), args.out
                )
            )
    for path in written:
        print(path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
