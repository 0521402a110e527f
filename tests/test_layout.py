"""The package's shape: module sizes, what sits at the top level, imports that point one
way between the roles and no import circle, no names that nearly repeat each other,
Inspect's internals imported in one place, and every package it imports declared in
pyproject.toml.

The modules are found by walking benchmarks/, bench/ and tools/, so a new module is
checked the moment it exists. The checks (tests/layout_checks.py) take a root folder:
the tests at the end run them on small trees written for the purpose, to show each finds
what it looks for.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from benchmarks.catalog import specs
from tests.layout_checks import (
    PACKAGE,
    distribution_name,
    folder_names,
    folders,
    import_circle,
    import_graph,
    modules_under,
    near_repeats,
    private_inspect_imports,
    top_level_modules,
    undeclared_imports,
    upward_imports,
)

ROOT = Path(__file__).resolve().parents[1]
# The one limit on a module's length, for every module of the package and of bench/.
MAX_LINES = 350
# Modules at the package's top level besides the task files (one per benchmark).
MAX_TOP_LEVEL = 5
# The one module that may import Inspect's private names (inspect_ai._... or a private
# submodule such as inspect_ai.solver._multiple_choice): each with the reason beside it.
INSPECT_PRIVATE = "benchmarks/runtime/inspect_private.py"
# The roles, from the bottom up: a module imports from its own layer and those below, never
# from one above. data <- solvers <- scorers <- tasks, with compare on top; below them the
# support: runtime (errors, parameters, registry names, Inspect's internals), then the
# profiles (each switch's values, which data and solvers read), data with the specs and
# the catalog, then models (the offline models read the bundled data; solvers and scorers
# call the completions endpoint). "tasks" are the task files benchmarks/<name>.py.
LAYERS = [
    ("runtime",),
    ("profiles",),
    ("data", "spec", "catalog"),
    ("models",),
    ("solvers",),
    ("scorers",),
    ("tasks", "shards", "configs", "_registry", "__main__", "__init__"),
    ("compare",),
]


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()


# ---------------------------------------------------------------------------
# The package


@pytest.mark.parametrize(
    "path",
    [*modules_under(ROOT, PACKAGE), *modules_under(ROOT, "bench"), *modules_under(ROOT, "tools")],
    ids=relative,
)
def test_no_module_is_over_350_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{relative(path)} has {lines} lines (at most {MAX_LINES})"


@pytest.mark.parametrize(
    "path",
    [
        path
        for path in [
            *modules_under(ROOT, PACKAGE),
            *modules_under(ROOT, "bench"),
            *modules_under(ROOT, "tools"),
        ]
        if relative(path) != INSPECT_PRIVATE
    ],
    ids=relative,
)
def test_inspect_internals_are_imported_in_one_module(path: Path) -> None:
    assert private_inspect_imports(path) == [], (
        f"{relative(path)} imports Inspect's private names; import them from "
        f"{INSPECT_PRIVATE}, saying there why no public name serves"
    )


def test_inspect_private_module_exists() -> None:
    # the module left out above is there, and holds them (a rename would pass silently)
    assert private_inspect_imports(ROOT / INSPECT_PRIVATE) != []


def test_few_modules_at_the_top_level() -> None:
    others = top_level_modules(ROOT, set(specs()))
    assert len(others) <= MAX_TOP_LEVEL, (
        f"{len(others)} modules at {PACKAGE}/ besides the task files (at most "
        f"{MAX_TOP_LEVEL}): {', '.join(others)}; move machinery into a role subpackage"
    )


def test_every_package_the_package_imports_is_declared() -> None:
    # at run time, or in the extra that the importing feature names (compare, plots)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    declared = {
        distribution_name(requirement)
        for requirement in [*project["dependencies"], *extras["compare"], *extras["plots"]]
    }
    assert undeclared_imports(modules_under(ROOT, PACKAGE), declared) == []


def test_no_import_circle() -> None:
    graph = import_graph(ROOT)
    assert len(graph) > 50  # the walk found the package
    circle = import_circle(graph)
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_roles_import_one_way() -> None:
    found = set(upward_imports(import_graph(ROOT), LAYERS, set(specs())))
    assert found == set(), (
        "imports against the direction of the roles (LAYERS, from the bottom up): move what "
        "is imported down, or the importer up"
    )


@pytest.mark.parametrize(
    "folder",
    [*folders(ROOT, PACKAGE), *folders(ROOT, "bench"), *folders(ROOT, "tools")],
    ids=relative,
)
def test_no_names_that_nearly_repeat(folder: Path) -> None:
    assert near_repeats(folder_names(folder)) == [], (
        f"names in {relative(folder)}/ that nearly repeat each other: name each for what it holds"
    )


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


def test_imports_against_the_roles_are_found(tmp_path: Path) -> None:
    package = {f"benchmarks/{name}/__init__.py": "" for name in ("data", "solvers", "compare")}
    write(
        tmp_path,
        {
            **package,
            "benchmarks/__init__.py": "",
            "benchmarks/triviaqa.py": "from benchmarks.solvers.a import A\n",
            "benchmarks/solvers/a.py": "from benchmarks.data.b import B\nA = 1\n",
            # data above solvers, under TYPE_CHECKING; solvers above compare, in a function
            "benchmarks/data/b.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from benchmarks.solvers import a\nB = 1\n"
            ),
            "benchmarks/data/c.py": "def f():\n    from benchmarks.compare import d\n",
            "benchmarks/compare/d.py": "import benchmarks.triviaqa\n",
            "benchmarks/stray/__init__.py": "",
        },
    )
    assert upward_imports(import_graph(tmp_path), LAYERS, {"triviaqa"}) == [
        "benchmarks.data.b (data) imports benchmarks.solvers.a (solvers)",
        "benchmarks.data.c (data) imports benchmarks.compare.d (compare)",
        "benchmarks.stray: role 'stray' is in no layer",
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
    # a stem in the singular beside one in the plural; one stem with qualifiers is a family
    assert near_repeats(["letters", "letter_parsers", "match", "matches_x", "__main__"]) == [
        ("letter_parsers", "letters"),
        ("match", "matches_x"),
    ]
    assert near_repeats(["rows", "rows_cache", "rows_child", "image_cache", "image_encoding"]) == []
    write(tmp_path, {"benchmarks/triviaqa.py": "", "benchmarks/spec.py": "", "benchmarks/x.py": ""})
    assert top_level_modules(tmp_path, {"triviaqa"}) == ["spec.py", "x.py"]


# benchmarks/data/ before its modules were named apart: images beside image_cache, rows
# (and its family rows_cache, rows_child, rows_request) beside row_places.
OLD_DATA_NAMES = (
    "__init__ download fewshot_draws image_cache images lazy_dataset local_file records "
    "replaced_solver row_places rows rows_cache rows_child rows_request scienceqa "
    "scienceqa_shape shards simpleqa simpleqa_verified source split_reader triviaqa "
    "triviaqa_demonstrations winogrande winogrande_loglikelihood"
).split()


def test_names_whose_stems_differ_in_number_are_found(tmp_path: Path) -> None:
    folder = write(tmp_path, {f"data/{name}.py": "" for name in OLD_DATA_NAMES}) / "data"
    assert near_repeats(folder_names(folder)) == [
        ("image_cache", "images"),
        ("row_places", "rows"),
        ("row_places", "rows_cache"),
        ("row_places", "rows_child"),
        ("row_places", "rows_request"),
    ]
    with pytest.raises(AssertionError, match="nearly repeat each other"):
        test_no_names_that_nearly_repeat(folder)
    # named apart, as they are now
    (folder / "images.py").rename(folder / "image_encoding.py")
    (folder / "row_places.py").rename(folder / "error_locations.py")
    test_no_names_that_nearly_repeat(folder)


def test_undeclared_imports_are_found(tmp_path: Path) -> None:
    module = write(tmp_path, {"m.py": "import json, yaml\nfrom tenacity import RetryError\n"})
    assert undeclared_imports([module / "m.py"], {"pyyaml"}) == ["tenacity"]
    assert distribution_name("typing_extensions>=4.14,<5") == "typing-extensions"


def test_long_modules_are_found(tmp_path: Path) -> None:
    write(tmp_path, {"bench/long.py": "x = 1\n" * (MAX_LINES + 1)})
    (path,) = modules_under(tmp_path, "bench")  # the check itself, on any module
    with pytest.raises(AssertionError, match="has 351 lines"):
        test_no_module_is_over_350_lines(path)


# ---------------------------------------------------------------------------
# Inspect is composed, not patched

# What patching Inspect at run time looks like in source: reading interpreter frames or their
# locals, assigning a class to an object, setting attributes by name (an Inspect object's
# method replaced), reading the command line (the entry point is imported by every inspect
# command), Inspect's registry dict written.
PATCHING = re.compile(
    r"sys\._getframe|\.f_locals|\.f_back|__class__\s*=[^=]|\bsetattr\(|sys\.argv|\b_registry\["
)
# The most private Inspect names the package may use (runtime/inspect_private.py's __all__).
MAX_PRIVATE_NAMES = 8


@pytest.mark.parametrize("path", modules_under(ROOT, PACKAGE), ids=relative)
def test_nothing_patches_inspect_at_run_time(path: Path) -> None:
    found = [
        f"line {number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if PATCHING.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == [], f"{relative(path)} patches Inspect at run time: {found}"


def test_the_entry_point_exits_nowhere_and_reads_no_command_line() -> None:
    source = (ROOT / PACKAGE / "_registry.py").read_text(encoding="utf-8")
    assert "sys." not in source and "exit(" not in source


def test_the_private_inspect_names_are_few_and_each_resolves() -> None:
    # each is imported plainly: an Inspect without one fails at import, naming it
    import benchmarks.runtime.inspect_private as private

    names = list(private.__all__)
    assert len(names) <= MAX_PRIVATE_NAMES, names
    assert all(getattr(private, name, None) is not None for name in names)


def test_patching_is_found(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "bench/a.py": (
                "import sys\nframe = sys._getframe(1)\nx = frame.f_locals\nobj.__class__ = K\n"
                "setattr(api, 'generate', f)\nargs = sys.argv\n# setattr(x, 'y', 1)\n"
                "same = obj.__class__ == K\n"
            )
        },
    )
    (path,) = modules_under(tmp_path, "bench")  # the check itself, on any module
    with pytest.raises(AssertionError) as found:
        test_nothing_patches_inspect_at_run_time(path)
    for line in (2, 3, 4, 5, 6):
        assert f"line {line}:" in str(found.value)
    assert "line 7:" not in str(found.value) and "line 8:" not in str(found.value)
