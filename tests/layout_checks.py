"""The checks of tests/test_layout.py, each over a root folder (the repository, or a small
tree a test writes to show the check finds what it looks for)."""

from __future__ import annotations

import ast
import difflib
import itertools
import re
import sys
from collections.abc import Iterator
from importlib.metadata import packages_distributions
from pathlib import Path

PACKAGE = "benchmarks"
NEAR_REPEAT_RATIO = 0.85


def modules_under(root: Path, folder: str) -> list[Path]:
    return sorted((root / folder).rglob("*.py"))


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
    NEAR_REPEAT_RATIO), equal but for a trailing ``s`` or ``_`` (``letter``, ``letters``),
    or whose stems (the first word) are the singular and the plural of one word
    (``images``, ``image_cache``; ``rows``, ``row_places``). Names sharing one stem are a
    family and pass (``rows``, ``rows_cache``, ``rows_child``; ``image_cache``,
    ``image_encoding``)."""
    pairs = []
    for a, b in itertools.combinations(sorted(names), 2):
        alike = difflib.SequenceMatcher(None, a, b).ratio() >= NEAR_REPEAT_RATIO
        if alike or a.rstrip("s_") == b.rstrip("s_") or _number_variants(stem(a), stem(b)):
            pairs.append((a, b))
    return pairs


def stem(name: str) -> str:
    """A name's first word (``rows_cache`` -> ``rows``, ``__main__`` -> ``main``)."""
    return name.strip("_").split("_", 1)[0]


def _number_variants(a: str, b: str) -> bool:
    """One word singular and the other plural (``image``, ``images``; ``match``, ``matches``)."""
    return any(long == short + ending for long, short in ((a, b), (b, a)) for ending in ("s", "es"))


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


def distribution_name(requirement: str) -> str:
    """A requirement's distribution, normalised (``PyYAML>=6`` -> ``pyyaml``)."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group(0)).lower()


def undeclared_imports(paths: list[Path], declared: set[str]) -> list[str]:
    """The third-party packages ``paths`` import whose distribution is not ``declared``."""
    imported = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    distributions = packages_distributions()
    return sorted(
        name
        for name in imported - set(sys.stdlib_module_names) - {PACKAGE}
        if not name.startswith("_")  # typeshed's stubs, under TYPE_CHECKING
        and not {distribution_name(d) for d in distributions.get(name, [name])} & declared
    )


def top_level_modules(root: Path, task_names: set[str]) -> list[str]:
    """The package's top-level modules that are not task files."""
    return sorted(
        path.name for path in (root / PACKAGE).glob("*.py") if path.stem not in task_names
    )


def role(module: str, task_names: set[str]) -> str:
    """The role of a module of the package: its subpackage (``data``, ``solvers``, ...),
    ``tasks`` for a task file ``benchmarks/<name>.py``, else its own name at the top level
    (``spec``, ``catalog``; the package's ``__init__`` is ``__init__``)."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    if len(parts) == 2 and parts[1] in task_names:
        return "tasks"
    return parts[1]


def upward_imports(
    graph: dict[str, set[str]], layers: list[tuple[str, ...]], task_names: set[str]
) -> list[str]:
    """Each import of the package reaching a role in a higher layer than the importer's
    (``layers`` lists the roles from the bottom up), and each module whose role has no layer."""
    layer_of = {name: rank for rank, names in enumerate(layers) for name in names}
    found = []
    for module, imported in sorted(graph.items()):
        own = role(module, task_names)
        if own not in layer_of:
            found.append(f"{module}: role {own!r} is in no layer")
            continue
        for target in sorted(imported):
            theirs = role(target, task_names)
            if layer_of.get(theirs, len(layers)) > layer_of[own]:
                found.append(f"{module} ({own}) imports {target} ({theirs})")
    return found
