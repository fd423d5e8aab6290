"""Imports run one way (issue 16): no module of rules/ or service/ imports another inside
a function, and no two modules import each other, even only for type checking."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "service")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _target(module: str, package: str, node: ast.ImportFrom, name: str | None) -> str:
    """The project module an ``import from`` names (a submodule when ``name`` is one)."""
    if node.level:
        base = package.split(".")
        base = base[: len(base) - node.level + 1]
        stem = ".".join([*base, *(node.module.split(".") if node.module else [])])
    else:
        stem = node.module or ""
    if name is not None:
        candidate = f"{stem}.{name}"
        path = ROOT.joinpath(*candidate.split("."))
        if path.with_suffix(".py").exists() or (path / "__init__.py").exists():
            return candidate
    return stem


def imports(path: Path) -> tuple[set[str], list[int]]:
    """The project modules ``path`` imports (anywhere in it, type-only ones included),
    and the lines of project imports made inside functions."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            found |= {_target(module, package, node, a.name) for a in node.names}
    late = [
        inner.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(node)
        if isinstance(inner, ast.ImportFrom)
        and (inner.level or (inner.module or "").split(".")[0] in PACKAGES)
    ]
    return {m for m in found if m.split(".")[0] in PACKAGES and m != module}, late


def graph() -> tuple[dict[str, set[str]], dict[str, list[int]]]:
    edges: dict[str, set[str]] = {}
    late: dict[str, list[int]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            edges[module_name(path)], lines = imports(path)
            if lines:
                late[module_name(path)] = lines
    return edges, late


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of modules larger than one (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in edges:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_inside_a_function() -> None:
    _, late = graph()
    assert late == {}, f"project imports inside functions: {late}"


def test_no_import_circle() -> None:
    edges, _ = graph()
    assert len(edges) > 60
    assert cycles(edges) == []


def test_the_checks_see_a_circle_and_a_late_import(tmp_path: Path) -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    source = ROOT / "service" / "_probe_late_import.py"
    source.write_text("def f():\n    from .games import GameApi\n    return GameApi\n")
    try:
        assert imports(source)[1] == [2]
    finally:
        source.unlink()
