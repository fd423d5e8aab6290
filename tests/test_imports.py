"""Imports run one way (issue 16): no module of rules/ or service/ imports another inside
a function, and no two modules import each other, even only for type checking.

``service/`` is grouped in wings, one per concern (issue 28), and a wing imports only
the wings below it: :data:`WINGS` lists them lowest first (docs/ARCHITECTURE.md draws
the same map)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "service")

WINGS = (
    ("service.base", "settings and the Redis connection"),
    ("service.http", "HTTP plumbing: problems, parsing, caching, CORS, logs, credentials"),
    ("service.games", "the games to the service: registry, tokens, play, contract, docs"),
    ("service.sessions", "hosted sessions, their due work and their callbacks"),
    ("service.school", "a school's deployment: operators and limits"),
    ("service.api", "each game's operations served both ways, and the catalogue"),
    ("service.lessons", "lessons"),
    ("service.lti", "LTI 1.3"),
)
"""The wings of ``service/``, lowest first, each a package: a module imports only its
own wing and the wings listed before it."""
ROOT_WING = "the composition root"
COMPOSITION_ROOT = frozenset(
    {"service", "service.app", "service.openapi_export", "service.lti.__main__"}
)
"""Above every wing: the app factory, and the programs that build an app
(``python -m service.openapi_export``, ``python -m service.lti``)."""


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


def wing_of(module: str) -> tuple[int, str] | None:
    """The rank (0 lowest) and name of the wing ``module`` belongs to, if any."""
    if module in COMPOSITION_ROOT:
        return len(WINGS), ROOT_WING
    for rank, (package, _) in enumerate(WINGS):
        if module == package or module.startswith(package + "."):
            return rank, package
    return None


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a module of ``service/`` from a higher wing than its own."""
    found = []
    for module, targets in sorted(edges.items()):
        mine = wing_of(module)
        if mine is None:
            continue
        for target in sorted(targets):
            theirs = wing_of(target)
            if theirs is not None and theirs[0] > mine[0]:
                found.append(
                    f"{module} (wing {mine[1]}) imports {target} (wing {theirs[1]}, higher)"
                )
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


def test_every_service_module_is_in_a_wing() -> None:
    edges, _ = graph()
    service = [m for m in edges if m.split(".")[0] == "service"]
    assert len(service) > 60
    assert [m for m in service if wing_of(m) is None] == []
    for package, _ in WINGS:
        assert (ROOT.joinpath(*package.split(".")) / "__init__.py").is_file(), package
    assert all(m in edges for m in COMPOSITION_ROOT)


def test_wings_import_only_lower_wings() -> None:
    edges, _ = graph()
    assert upward_imports(edges) == []


def test_the_wing_check_sees_an_upward_import_and_a_homeless_module() -> None:
    edges = {
        "service.http.errors": {"service.sessions.flow", "service.http.problems"},
        "service.sessions.flow": {"service.games.play", "service.http.problems"},
        "service.lessons.seating": {"service.app"},
        "service.app": {"service.lti.routes"},
    }
    assert upward_imports(edges) == [
        "service.http.errors (wing service.http) imports service.sessions.flow "
        "(wing service.sessions, higher)",
        "service.lessons.seating (wing service.lessons) imports service.app "
        f"(wing {ROOT_WING}, higher)",
    ]
    assert wing_of("service.matchmaking") is None
    assert wing_of("service.httpx.client") is None
    assert wing_of("service.lti.__main__") == (len(WINGS), ROOT_WING)
