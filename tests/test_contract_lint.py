"""The contract lints clean with Redocly and Spectral: 0 errors and 0 warnings.

The linters come from npm (`tools/contract/package.json`, pinned by its lock file);
`make test` installs them first. The rules switched off are in the checked-in
rulesets next to them, each with its reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools" / "contract"
BIN = TOOLS / "node_modules" / ".bin"
CONTRACT = ROOT / "openapi" / "openapi.json"

pytestmark = pytest.mark.skipif(
    not os.environ.get("CI") and (not (BIN / "redocly").exists() or shutil.which("node") is None),
    reason="run `make test` (it installs the npm linters) to lint the contract",
)


def _run(*args: str) -> str:
    done = subprocess.run(
        [str(BIN / args[0]), *args[1:]],
        cwd=TOOLS,
        capture_output=True,
        text=True,
        # a guard against a hung linter, not a speed check: Spectral needs about 45 s of
        # CPU for the contract, and several minutes of wall time on a busy 2-core machine
        timeout=900,
        check=False,
    )
    return done.stdout


def test_redocly_finds_nothing() -> None:
    out = _run("redocly", "lint", "--config", "redocly.yaml", str(CONTRACT), "--format=json")
    report = json.loads(out)
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}, [
        (p["ruleId"], p["message"]) for p in report["problems"][:10]
    ]


def test_spectral_finds_nothing() -> None:
    out = _run("spectral", "lint", "-r", "spectral.yaml", str(CONTRACT), "--format", "json")
    results = json.loads(out[: out.rindex("]") + 1])
    assert results == [], [(r["code"], r["message"], r["path"]) for r in results[:10]]
