"""Bad local data, benchmark by benchmark: a table of malformed inputs and what each must give.

Every case is generated in ``tmp_path`` from the good fixtures. A case either
loads with a documented handling (every row becomes a sample: nothing is
dropped) or fails with a ``DataError`` whose message names the file and,
where one row is at fault, the row (or line) and the field, before any model
call. Each benchmark's cases are in its own ``tests/<name>/conformance.py``
(``BAD_INPUTS``, made with tests/bad_inputs.py's helpers), with the cells of the
issue's table that its own tests already prove (``BAD_INPUTS_COVERED_ELSEWHERE``)
and the cells that cannot occur (``BAD_INPUTS_NOT_APPLICABLE``);
``test_the_table_covers_every_kind_for_every_benchmark`` keeps the three in step.
Every benchmark of the catalog is in the table: its bundled sample emptied and cut in
half are generic cases, and a benchmark's cells must each be answered. Its task
parameters of its own that are refused before any model call are there too
(``INVALID_TASK_ARGS``).
"""

from __future__ import annotations

import ast
import dataclasses
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.model import ChatMessage

from benchmarks.catalog import specs
from benchmarks.data.samples import bundled_data_files
from benchmarks.runtime.errors import DataError
from tests.bad_inputs import KINDS, Case, Expected, Fails, empty_file, truncated_copy
from tests.conformance_pins import (
    PINS,
    conformance_file,
    conformance_module,
    missing_pins,
    pinned,
)
from tests.scripted import scripted_model

TASKS: dict[str, Callable[..., Task]] = {name: spec.task for name, spec in specs().items()}


def own(name: str, constant: str) -> list[Any]:
    """``constant`` of benchmark ``name``'s conformance module, or [] (it has none)."""
    module = conformance_module(name)
    return list(getattr(module, constant, [])) if module is not None else []


# --- Every benchmark: its own cases -------------------------------------------------------

OWN_CASES = [case for name in specs() for case in own(name, "BAD_INPUTS")]


# --- Every benchmark: its bundled sample spoilt ---------------------------------------


def bundled_case(name: str, kind: str, label: str, spoil: Callable[[Path, Path], Path]) -> Case:
    """Every file of ``name``'s bundled sample spoilt by ``spoil(source, copy)``: a
    ``DataError`` naming one of the copies."""

    def make(tmp: Path) -> tuple[dict[str, Any], Expected]:
        files = {
            split: str(spoil(Path(source), tmp / Path(source).name))
            for split, source in bundled_data_files(name).items()
        }
        return {"data_files": files}, Fails(f"{tmp}{os.sep}")

    return Case(name, kind, f"bundled sample {label}", make)


BUNDLED_CASES = [
    case
    for name in specs()
    for case in (
        bundled_case(name, "empty file", "emptied", lambda source, path: empty_file(path)),
        bundled_case(name, "truncated file", "cut in half", truncated_copy),
    )
]

CASES = OWN_CASES + BUNDLED_CASES

# Each benchmark's tests/<name>/conformance.py answers the cells this table does not test:
# kind -> the test of its folder that already proves it, and kind -> why it cannot occur.
COVERED_ELSEWHERE = "BAD_INPUTS_COVERED_ELSEWHERE"
COVERED_ELSEWHERE_WHAT = '{"<kind>": "test_<file>.py::<test that proves it>", ...} (or {})'
NOT_APPLICABLE = "BAD_INPUTS_NOT_APPLICABLE"
NOT_APPLICABLE_WHAT = '{"<kind>": "<why it cannot occur>", ...} (or {})'


def case_param(case: Case) -> Any:
    return pytest.param(case, id=f"{case.benchmark}: {case.kind}: {case.name}")


@pytest.mark.parametrize("case", [case_param(case) for case in CASES])
def test_bad_input(case: Case, tmp_path: Path) -> None:
    task_args, expected = case.make(tmp_path)
    build = TASKS[case.benchmark]
    if isinstance(expected, Fails):
        with pytest.raises(DataError) as raised:
            list(build(**task_args).dataset)
        message = str(raised.value)
        assert message.startswith(expected.where), message
        for part in expected.parts:
            assert part in message, message
        assert "Traceback" not in message
    else:
        samples = list(build(**task_args).dataset)
        assert [sample.id for sample in samples] == expected.ids
        if expected.check is not None:
            expected.check(samples)


def unanswered_kinds(benchmark: str) -> list[str]:
    """The kinds of the table a benchmark neither tests, nor proves elsewhere, nor marks
    not applicable."""
    module = conformance_module(benchmark)
    answered = {case.kind for case in CASES if case.benchmark == benchmark}
    for constant in (COVERED_ELSEWHERE, NOT_APPLICABLE):
        answered |= set(getattr(module, constant, None) or {})
    return [kind for kind in KINDS if kind not in answered]


@pytest.mark.parametrize("benchmark", list(TASKS))
def test_every_pin_and_every_kind_is_answered_all_named_at_once(benchmark: str) -> None:
    """What a new benchmark's conformance module lacks, said in one failure: each constant
    to add and each kind of malformed input to answer."""
    missing = missing_pins(specs()[benchmark])
    kinds = unanswered_kinds(benchmark)
    if kinds:
        missing.append(
            f"answer the kinds {', '.join(map(repr, kinds))} (each a case of BAD_INPUTS, an "
            f"entry of {COVERED_ELSEWHERE} or of {NOT_APPLICABLE})"
        )
    assert not missing, f"{conformance_file(benchmark)}: " + "; ".join(missing)


def test_every_missing_pin_is_named_at_once() -> None:
    # a benchmark with no conformance module at all: every constant it needs is named
    bare = dataclasses.replace(specs()["winogrande"], name="no_such_benchmark")
    assert [line.split(" = ")[0] for line in missing_pins(bare)] == [
        f"add {constant}" for constant in PINS
    ]
    assert unanswered_kinds("no_such_benchmark") == list(KINDS)


@pytest.mark.parametrize("benchmark", list(TASKS))
def test_the_table_covers_every_kind_for_every_benchmark(benchmark: str) -> None:
    tested = {case.kind for case in CASES if case.benchmark == benchmark}
    covered = pinned(benchmark, COVERED_ELSEWHERE, COVERED_ELSEWHERE_WHAT)
    not_applicable = pinned(benchmark, NOT_APPLICABLE, NOT_APPLICABLE_WHAT)
    assert set(covered) | set(not_applicable) <= set(KINDS), "a kind not in KINDS"
    for kind in KINDS:
        answered = [kind in tested, kind in covered, kind in not_applicable]
        assert any(answered), (
            f"{(benchmark, kind)} is neither tested nor marked not applicable: answer it in "
            f"{conformance_file(benchmark)} (a case of BAD_INPUTS, {COVERED_ELSEWHERE} or "
            f"{NOT_APPLICABLE})"
        )
        assert not (answered[2] and (answered[0] or answered[1])), (benchmark, kind)
    tests_dir = Path(__file__).parent / benchmark
    for reference in covered.values():
        file_name, test_name = reference.split("::")
        tree = ast.parse((tests_dir / file_name).read_text(encoding="utf-8"))
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert test_name in defined, f"{benchmark}: {reference}"


def test_a_benchmarks_cases_are_its_own() -> None:
    for name in specs():
        cases = own(name, "BAD_INPUTS")
        assert all(isinstance(case, Case) for case in cases), conformance_file(name)
        assert {case.benchmark for case in cases} <= {name}, conformance_file(name)


# ---------------------------------------------------------------------------
# Invalid task parameters fail before any model call


@pytest.mark.parametrize(
    ("benchmark", "task_args", "message"),
    # every benchmark: a parameter that all tasks share; then each one's own
    [
        (name, {"num_examples": 0}, f"{name}: num_examples must be a positive integer")
        for name in specs()
    ]
    + [
        (name, task_args, message)
        for name in specs()
        for task_args, message in own(name, "INVALID_TASK_ARGS")
    ],
)
def test_invalid_task_args_fail_through_eval_before_any_model_call(
    tmp_path: Path, benchmark: str, task_args: dict[str, Any], message: str
) -> None:
    calls: list[int] = []

    def reply(messages: list[ChatMessage]) -> str:
        calls.append(1)
        return "A"

    log_dir = tmp_path / "logs"
    with pytest.raises(ValueError) as raised:
        # the @task function with task_args, as `inspect eval benchmarks/<name> -T ...` runs it
        eval(
            TASKS[benchmark],
            task_args={"bundled_sample": True, **task_args},
            model=scripted_model(reply),
            log_dir=str(log_dir),
            display="none",
        )
    assert str(raised.value).startswith(message)
    assert calls == []
    assert not log_dir.exists() or list(log_dir.iterdir()) == []
