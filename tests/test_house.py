"""The shape of the code, checked: packages per stage whose imports go one way, modules and
functions small enough to read in one sitting, and docs/architecture.md naming every module there
is and none that is gone."""

from __future__ import annotations

import ast
import graphlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

PACKAGE = REPO / "bookbuilder"
STAGES = ("decode", "structure", "normalize", "render", "check", "serve")
# Counted as ruff format writes a module (one argument a line where a call passes 110 characters):
# about 400 lines of the denser hand-wrapped style.
MAX_MODULE_LINES = 550
MAX_FUNCTION_LINES = 60


def _modules() -> dict[str, Path]:
    """Dotted name → file, for every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The package's modules this module imports, at its top or inside a function (a circle
    through a function's import is still a circle: it only waits to bite)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in MODULES}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from . import x, from .x import y
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:  # from bookbuilder.render import epub: the submodule
                    found.add(f"{base}.{alias.name}")
                elif base in MODULES:
                    found.add(base)
    # Importing a module runs its package's __init__ first: an edge to each package above it.
    found |= {
        pkg for dep in found for pkg in _packages_above(dep) if not name.startswith(pkg + ".") and pkg != name
    }
    found.discard(name)
    return found


def _packages_above(name: str) -> list[str]:
    parts = name.split(".")
    return [p for i in range(2, len(parts)) if (p := ".".join(parts[:i])) in MODULES]


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def test_the_import_graph_has_no_circles():
    try:
        order = list(graphlib.TopologicalSorter(GRAPH).static_order())
    except graphlib.CycleError as e:
        pytest.fail(f"modules import each other: {' → '.join(e.args[1])}")
    assert set(order) == set(MODULES)


def test_the_circle_finder_finds_a_circle_through_a_package():
    """structure.heading_debris → normalize.clean runs normalize/__init__ first: were that file to import
    structure.headings (which imports heading_debris), the two would be a circle though no module names the
    other's."""
    graph = {
        **GRAPH,
        "bookbuilder.normalize": GRAPH["bookbuilder.normalize"] | {"bookbuilder.structure.headings"},
    }
    assert "bookbuilder.normalize" in _imports(
        "bookbuilder.structure.heading_debris", MODULES["bookbuilder.structure.heading_debris"]
    )
    with pytest.raises(graphlib.CycleError):
        list(graphlib.TopologicalSorter(graph).static_order())


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_is_a_package(stage):
    assert (PACKAGE / stage / "__init__.py").is_file()
    assert ast.get_docstring(ast.parse((PACKAGE / stage / "__init__.py").read_text("utf-8"))), (
        f"bookbuilder/{stage}/__init__.py should say what the stage does"
    )


def test_the_stages_do_not_reach_back_into_the_ones_after_them():
    """decode knows nothing of what reads its text; structure nothing of render, check or serve;
    render nothing of serve. (A renderer does name the judges of its files, from check/, so that a
    new format stays one module.)"""
    later = {
        "decode": STAGES[1:],
        "structure": ("render", "check", "serve"),
        "normalize": ("render", "check", "serve"),
        "render": ("serve",),
    }
    wrong = [
        f"{name} imports {dep}"
        for name, deps in GRAPH.items()
        for dep in deps
        for stage, after in later.items()
        if name.startswith(f"bookbuilder.{stage}") and any(dep.startswith(f"bookbuilder.{a}") for a in after)
    ]
    assert wrong == []


def test_no_module_is_over_the_size_one_reads_in_a_sitting():
    long = {
        str(p.relative_to(REPO)): n
        for p in MODULES.values()
        if (n := len(p.read_text("utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_function_is_over_a_screenful_or_two():
    long = {}
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if (n := node.end_lineno - node.lineno + 1) > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(REPO)}:{node.lineno} {node.name}"] = n
    assert long == {}


ARCHITECTURE = (REPO / "docs" / "architecture.md").read_text("utf-8")
NAMED = set(re.findall(r"`((?:[a-z_0-9]+/)*[a-z_0-9]+\.py)\b", ARCHITECTURE))


def test_architecture_names_only_modules_that_exist():
    def exists(named: str) -> bool:
        return any(p.as_posix().endswith(named) for p in MODULES.values()) or (REPO / named).exists()

    assert sorted(n for n in NAMED if not exists(n)) == []


def test_architecture_names_every_module():
    unnamed = []
    for path in MODULES.values():
        rel = path.relative_to(PACKAGE).as_posix()
        if path.name in ("__init__.py", "__main__.py"):
            continue
        if rel not in NAMED:
            unnamed.append(rel)
    assert unnamed == [], "docs/architecture.md should say where these modules stand (as `stage/module.py`)"


@pytest.mark.parametrize(
    "command",
    [["check", "--no-cache", "."], ["format", "--check", "--no-cache", "."]],
    ids=["lint", "format"],
)
def test_ruff_finds_nothing_to_say(command):
    """ruff (configured in pyproject.toml, installed with the `test` extra) lints and formats the
    whole tree as the suite runs, so that what it finds fails here and in CI, not in review."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *command], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
