"""Helpers of the browser tests: Debian's Chromium driven by Playwright, a watch on
each page's console, axe-core's check, and where screenshots go.

Playwright's own browser download is not reachable here, so its Python package (whose
wheel carries its driver) launches /usr/bin/chromium by its path; `make test` installs
Debian's `chromium` when it is missing. One browser per test module, shared by its
tests (each test opens contexts of its own).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_web_build import WEB, installed

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
PHONE = {"width": 360, "height": 640}
PROJECTOR = {"width": 1280, "height": 800}

# On CI `make test` has installed Chromium, so a missing one fails there; elsewhere the
# tests are skipped with the reason.
needs_chromium = pytest.mark.skipif(
    not os.environ.get("CI") and not (Path(CHROMIUM).exists() and shutil.which("npm")),
    reason=f"needs {CHROMIUM} (Debian's chromium; `make test` installs it) and npm",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    installed()  # web/node_modules: axe-core
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


class Console:
    """Every console error and uncaught exception of the pages it watches.

    ``allow`` names the messages a step expects (a refused move's 422 is logged by the
    browser itself as a failed resource), each allowed only as often as said."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def watch(self, page: Any) -> Any:
        def console(message: Any) -> None:
            if message.type == "error":
                self.errors.append(message.text)

        page.on("console", console)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        return page

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        left = list(self.allowed)
        out = []
        for error in self.errors:
            match = next((p for p in left if p.search(error)), None)
            if match is None:
                out.append(error)
            else:
                left.remove(match)
        return out


def axe_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now.

    axe-core is evaluated through the DevTools protocol, which the page's
    Content-Security-Policy does not govern (the page itself may run no inline script)."""
    source = (WEB / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
    page.evaluate(source + "\n;undefined")
    results = page.evaluate(
        "async () => JSON.stringify((await axe.run(document, {resultTypes: ['violations']}))"
        ".violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)})))"
    )
    return [
        f"{v['impact']} {v['id']}: {v['help']} at {v['nodes']}"
        for v in json.loads(results)
        if v["impact"] in ("serious", "critical")
    ]


def screenshot(page: Any, name: str) -> Path:
    """A full-page screenshot kept under test-artifacts/browser/ (gitignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
