"""Imports inside the two served games run one way (issue 8): no module imports another
inside a function, and the package's modules import each other without a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "rules"
PACKAGES = ("element_draft", "polymer")


def local_imports(path: Path) -> tuple[set[str], list[int]]:
    """Sibling modules imported at module level, and the lines of imports in functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                top.add(node.module.split(".")[0])
            else:
                top.update(alias.name for alias in node.names)
    late = [
        inner.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(node)
        if isinstance(inner, ast.Import | ast.ImportFrom)
    ]
    return top, late


@pytest.mark.parametrize("package", PACKAGES)
def test_no_late_imports_and_no_cycle(package: str) -> None:
    graph: dict[str, set[str]] = {}
    for path in sorted((RULES / package).glob("*.py")):
        top, late = local_imports(path)
        assert late == [], f"{path.name} imports inside a function at lines {late}"
        graph[path.stem] = top
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_the_check_sees_a_cycle_and_a_late_import(tmp_path: Path) -> None:
    a = tmp_path / "a.py"
    a.write_text("from .b import x\n\ndef f():\n    from .c import y\n    return y\n")
    top, late = local_imports(a)
    assert top == {"b"} and late == [4]
