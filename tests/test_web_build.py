"""The committed front end is what its sources build to (like the contract's drift
test): `make web` regenerates the contract's TypeScript types, type-checks web/src
under `tsc --strict`, and bundles it with esbuild into service/static/play/, which is
committed so that `make serve` serves the pages without Node.js.

The tools come from npm, pinned by web/package-lock.json (`make install` installs
them; so does this test when they are missing or older than the lock file).
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
BIN = WEB / "node_modules" / ".bin"
STAMP = WEB / "node_modules" / ".installed"
BUILT = ROOT / "service" / "static" / "play"

pytestmark = pytest.mark.skipif(
    not os.environ.get("CI") and not (shutil.which("node") and shutil.which("npm")),
    reason="needs Node.js with npm (`make test` does)",
)


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=WEB, capture_output=True, text=True, timeout=timeout, check=False
    )


def installed() -> None:
    """The pinned tools, installed as `make install` does when missing or stale."""
    locks = [WEB / "package.json", WEB / "package-lock.json"]
    if STAMP.exists() and all(STAMP.stat().st_mtime >= f.stat().st_mtime for f in locks):
        return
    npm = shutil.which("npm") or "npm"
    done = _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], 300)
    assert done.returncode == 0, done.stdout + done.stderr
    STAMP.touch()


def _differences(a: Path, b: Path) -> list[str]:
    cmp = filecmp.dircmp(a, b)
    out = [f"only in the build: {n}" for n in cmp.left_only]
    out += [f"only committed: {n}" for n in cmp.right_only]
    out += [f"differs: {n}" for n in cmp.diff_files]
    # dircmp compares by size and time first; compare every common file's bytes
    out += [
        f"differs: {n}"
        for n in cmp.same_files
        if (a / n).read_bytes() != (b / n).read_bytes() and f"differs: {n}" not in out
    ]
    for name in cmp.subdirs:
        out += [f"{name}/{d}" for d in _differences(a / name, b / name)]
    return out


def test_the_committed_front_end_is_what_web_src_builds_to(tmp_path: Path) -> None:
    installed()
    config = json.loads((WEB / "tsconfig.json").read_text(encoding="utf-8"))
    assert config["compilerOptions"]["strict"] is True
    assert "skipLibCheck" not in config["compilerOptions"]  # the generated types are checked
    types = _run(
        [
            str(BIN / "openapi-typescript"),
            "../openapi/openapi.json",
            "-o",
            "src/generated/contract.d.ts",
        ],
        120,
    )
    assert types.returncode == 0, types.stdout + types.stderr
    checked = _run([str(BIN / "tsc"), "-p", "tsconfig.json"], 300)
    assert checked.returncode == 0, "tsc --strict:\n" + checked.stdout + checked.stderr
    node = shutil.which("node") or "node"
    built = _run([node, "build.mjs", "--out", str(tmp_path / "play")], 120)
    assert built.returncode == 0, built.stdout + built.stderr
    stale = _differences(tmp_path / "play", BUILT)
    assert not stale, "service/static/play is stale; run `make web` and commit it:\n" + "\n".join(
        stale
    )
