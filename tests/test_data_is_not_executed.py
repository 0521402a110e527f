"""Dataset content is parsed, never executed."""

from __future__ import annotations

import ast
from pathlib import Path

from benchmarks.simpleqa import simpleqa

PACKAGE = Path(__file__).parents[1] / "benchmarks"


def test_no_code_in_the_package_evaluates_or_unpickles() -> None:
    forbidden = {"eval", "exec", "compile", "__import__"}
    found = []
    for source in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id in forbidden:
                    found.append(f"{source.name}:{node.lineno} {node.func.id}()")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [alias.name for alias in node.names] + [getattr(node, "module", "") or ""]
                if any(name.split(".")[0] in {"pickle", "marshal", "dill"} for name in names):
                    found.append(f"{source.name}:{node.lineno} imports {names}")
    assert found == []


def test_simpleqa_metadata_code_is_read_as_text_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    payload = f"__import__('pathlib').Path({str(marker)!r}).write_text('x')"
    path = tmp_path / "questions.csv"
    path.write_text(f'metadata,problem,answer\n"{payload}",Who won?,Bo\n', encoding="utf-8")
    sample = simpleqa(dataset_path=str(path)).dataset[0]
    assert not marker.exists()
    assert sample.metadata is not None
    assert sample.metadata["raw_metadata"] == payload
    assert sample.metadata["topic"] == "unknown"
