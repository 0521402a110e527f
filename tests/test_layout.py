"""The package's shape: module sizes, what sits at the top level, no import circle, no
names that nearly repeat each other, and Inspect's internals imported in one place.

The modules are found by walking benchmarks/ and bench/, so a new module is checked the
moment it exists. The checking functions take a root folder: the tests at the end run
them on small trees written for the purpose, to show that each finds what it looks for.
"""

from __future__ import annotations

import ast
import difflib
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.catalog import specs

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "benchmarks"
MAX_LINES = 350
# Modules at the package's top level besides the task files (one per benchmark).
MAX_TOP_LEVEL = 5
# The one module that may import Inspect's private names (inspect_ai._... or a private
# submodule such as inspect_ai.solver._multiple_choice): each with the reason beside it.
INSPECT_PRIVATE = "benchmarks/runtime/inspect_private.py"
NEAR_REPEAT_RATIO = 0.85


def modules_under(root: Path, folder: str) -> list[Path]:
    return sorted((root / folder).rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path, known: set[str]) -> Iterator[str]:
    """Every module ``path`` imports, anywhere in it (functions and ``if TYPE_CHECKING:``
    included): ``from pkg import sub`` names the module ``pkg.sub`` when that is a module,
    else ``pkg``. The packages Python runs before the module (its parent packages' ``__init__``)
    are not counted, nor ``import <parent package>``, which runs nothing more."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    parents = {".".join(name.split(".")[:end]) for end in range(1, name.count(".") + 1)}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name not in parents)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                yield submodule if submodule in known else source


def import_graph(root: Path, folder: str = PACKAGE) -> dict[str, set[str]]:
    paths = modules_under(root, folder)
    known = {module_name(path, root) for path in paths}
    return {
        module_name(path, root): {
            imported
            for imported in imported_modules(path, root, known)
            if imported in known and imported != module_name(path, root)
        }
        for path in paths
    }


def import_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports (its modules, the first again at the end), or None."""
    state: dict[str, str] = {}  # "open" while on the path being walked, then "done"
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == "open":
                return [*path[path.index(imported) :], imported]
            if imported not in state and (circle := visit(imported)) is not None:
                return circle
        path.pop()
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state and (circle := visit(module)) is not None:
            return circle
    return None


def private_inspect_imports(path: Path) -> list[str]:
    """The imports of ``path`` that reach into Inspect's private modules or names."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            sources = [alias.name for alias in node.names]
            names: list[str] = []
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            sources = [node.module]
            names = [alias.name for alias in node.names]
        else:
            continue
        for source in sources:
            parts = source.split(".")
            if parts[0] != "inspect_ai":
                continue
            if any(part.startswith("_") for part in parts) or any(
                name.startswith("_") for name in names
            ):
                found.append((node.lineno, source))
    return [f"line {line}: {source}" for line, source in sorted(found)]


def near_repeats(names: list[str]) -> list[tuple[str, str]]:
    """Pairs of names that nearly repeat each other: alike by ``difflib`` (ratio at least
    NEAR_REPEAT_RATIO), or equal but for a trailing ``s`` or ``_`` (``letter``, ``letters``)."""
    pairs = []
    for a, b in itertools.combinations(sorted(names), 2):
        alike = difflib.SequenceMatcher(None, a, b).ratio() >= NEAR_REPEAT_RATIO
        if alike or a.rstrip("s_") == b.rstrip("s_"):
            pairs.append((a, b))
    return pairs


def folder_names(folder: Path) -> list[str]:
    """The importable names in one folder: its modules and its subpackages."""
    return [
        path.stem if path.is_file() else path.name
        for path in folder.iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py")
        or (path.is_dir() and (path / "__init__.py").is_file())
    ]


def folders(root: Path, top: str) -> list[Path]:
    return sorted({path.parent for path in modules_under(root, top)})


def top_level_modules(root: Path, task_names: set[str]) -> list[str]:
    """The package's top-level modules that are not task files."""
    return sorted(
        path.name for path in (root / PACKAGE).glob("*.py") if path.stem not in task_names
    )


# ---------------------------------------------------------------------------
# The package


@pytest.mark.parametrize(
    "path",
    [*modules_under(ROOT, PACKAGE), *modules_under(ROOT, "bench")],
    ids=relative,
)
def test_no_module_is_over_350_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{relative(path)} has {lines} lines (at most {MAX_LINES})"


@pytest.mark.parametrize(
    "path",
    [*modules_under(ROOT, PACKAGE), *modules_under(ROOT, "bench")],
    ids=relative,
)
def test_inspect_internals_are_imported_in_one_module(path: Path) -> None:
    if relative(path) == INSPECT_PRIVATE:
        pytest.skip("the module that holds them")
    assert private_inspect_imports(path) == [], (
        f"{relative(path)} imports Inspect's private names; import them from "
        f"{INSPECT_PRIVATE}, saying there why no public name serves"
    )


def test_inspect_private_module_exists() -> None:
    # the skip above must name a module that is there (a rename would pass it silently)
    assert private_inspect_imports(ROOT / INSPECT_PRIVATE) != []


def test_few_modules_at_the_top_level() -> None:
    others = top_level_modules(ROOT, set(specs()))
    assert len(others) <= MAX_TOP_LEVEL, (
        f"{len(others)} modules at {PACKAGE}/ besides the task files (at most "
        f"{MAX_TOP_LEVEL}): {', '.join(others)}; move machinery into a role subpackage"
    )


def test_no_import_circle() -> None:
    graph = import_graph(ROOT)
    assert len(graph) > 50  # the walk found the package
    circle = import_circle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


@pytest.mark.parametrize("folder", [*folders(ROOT, PACKAGE), *folders(ROOT, "bench")], ids=relative)
def test_no_names_that_nearly_repeat(folder: Path) -> None:
    assert near_repeats(folder_names(folder)) == []


# ---------------------------------------------------------------------------
# The checks find what they look for


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_circles_are_found_through_every_kind_of_import(tmp_path: Path) -> None:
    package = {"benchmarks/__init__.py": "", "benchmarks/data/__init__.py": ""}
    # a -> b by `from pkg import submodule`, b -> c under TYPE_CHECKING, c -> a in a function
    write(
        tmp_path,
        {
            **package,
            "benchmarks/data/a.py": "from benchmarks.data import b\n",
            "benchmarks/data/b.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from benchmarks.data.c import Thing\n"
            ),
            "benchmarks/data/c.py": "def f():\n    from . import a\n",
        },
    )
    graph = import_graph(tmp_path)
    assert graph["benchmarks.data.a"] == {"benchmarks.data.b"}
    assert import_circle(graph) == [
        "benchmarks.data.a",
        "benchmarks.data.b",
        "benchmarks.data.c",
        "benchmarks.data.a",
    ]


def test_the_parent_package_python_runs_first_is_no_edge(tmp_path: Path) -> None:
    # the package's __init__ imports its module; the module importing a sibling is no circle
    write(
        tmp_path,
        {
            "benchmarks/__init__.py": "",
            "benchmarks/data/__init__.py": "from benchmarks.data.a import A\n",
            "benchmarks/data/a.py": "from benchmarks.data.b import B\nA = 1\n",
            "benchmarks/data/b.py": "B = 1\n",
        },
    )
    graph = import_graph(tmp_path)
    assert graph["benchmarks.data.a"] == {"benchmarks.data.b"}
    assert import_circle(graph) is None
    # `import benchmarks.data` runs nothing in its own module b (Python ran it first) ...
    write(tmp_path, {"benchmarks/data/b.py": "import benchmarks.data\nB = 1\n"})
    assert import_circle(import_graph(tmp_path)) is None
    # ... but importing a name from it needs the __init__ done: an edge, here a circle
    write(tmp_path, {"benchmarks/data/b.py": "from benchmarks.data import A\n"})
    assert import_circle(import_graph(tmp_path)) == [
        "benchmarks.data",
        "benchmarks.data.a",
        "benchmarks.data.b",
        "benchmarks.data",
    ]


def test_private_inspect_imports_are_found(tmp_path: Path) -> None:
    module = write(
        tmp_path,
        {
            "m.py": (
                "import inspect_ai\n"
                "from inspect_ai.model import get_model\n"
                "from inspect_ai._util.registry import registry_info\n"
                "def f():\n    from inspect_ai.solver._multiple_choice import parse_answers\n"
                "import inspect_ai._eval.task.util\n"
                "from inspect_ai.util import _private\n"
            )
        },
    )
    assert private_inspect_imports(module / "m.py") == [
        "line 3: inspect_ai._util.registry",
        "line 5: inspect_ai.solver._multiple_choice",
        "line 6: inspect_ai._eval.task.util",
        "line 7: inspect_ai.util",
    ]


def test_near_repeats_and_top_level_modules(tmp_path: Path) -> None:
    assert near_repeats(["letter", "letters", "judge", "judge_prompt", "rows", "rows_"]) == [
        ("letter", "letters"),
        ("rows", "rows_"),
    ]
    assert near_repeats(["image_cache", "images_cache", "simpleqa", "simpleqa_verified"]) == [
        ("image_cache", "images_cache")
    ]
    write(tmp_path, {"benchmarks/triviaqa.py": "", "benchmarks/spec.py": "", "benchmarks/x.py": ""})
    assert top_level_modules(tmp_path, {"triviaqa"}) == ["spec.py", "x.py"]


def test_long_modules_are_found(tmp_path: Path) -> None:
    write(tmp_path, {"bench/long.py": "x = 1\n" * (MAX_LINES + 1)})
    (path,) = modules_under(tmp_path, "bench")
    with pytest.raises(AssertionError, match="has 351 lines"):
        test_no_module_is_over_350_lines(path)
