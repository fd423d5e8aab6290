"""A stranger's TypeScript client: generated from openapi/openapi.json alone, it
type-checks under `tsc --strict` and plays every game against a real server.

openapi-typescript, with its default settings, generates the types from the checked-in
contract; `tools/ts-client/play.ts` makes its calls with openapi-fetch, sends the
README's request bodies as written there, handles every error answer with the one
`Problem` type, and plays every game to its end. TypeScript 5 checks it (strict, the
generated declarations included); node then runs it against gunicorn on a free
127.0.0.1 port, stopped by its PID. The tools come from npm, pinned by
`tools/ts-client/package-lock.json` (`make install` installs them; so does this test
when they are missing or older than the lock file).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules.registry import GAMES

from .test_gunicorn import serve

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools" / "ts-client"
BIN = TOOLS / "node_modules" / ".bin"
STAMP = TOOLS / "node_modules" / ".installed"
CONTRACT = ROOT / "openapi" / "openapi.json"
README = ROOT / "README.md"

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(
        not os.environ.get("CI") and not (shutil.which("node") and shutil.which("npm")),
        reason="needs Node.js with npm (`make test` does)",
    ),
]


def _run(
    args: list[str], cwd: Path, timeout: float, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, **env},
    )


def _installed() -> None:
    """The pinned tools, installed as `make install` does when missing or stale."""
    locks = [TOOLS / "package.json", TOOLS / "package-lock.json"]
    if STAMP.exists() and all(STAMP.stat().st_mtime >= f.stat().st_mtime for f in locks):
        return
    npm = shutil.which("npm") or "npm"
    done = _run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], TOOLS, 300)
    assert done.returncode == 0, done.stdout + done.stderr
    STAMP.touch()


@dataclass
class Client:
    dir: Path
    port: int
    checked: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[Client]:
    """The generated client and play.ts, type-checked and compiled to JavaScript, and a
    server to play against (started while tsc works: both take seconds)."""
    _installed()
    out = tmp_path_factory.mktemp("ts-client")
    for name in ("play.ts", "tsconfig.json", "package.json"):
        shutil.copy(TOOLS / name, out / name)
    (out / "node_modules").symlink_to(TOOLS / "node_modules", target_is_directory=True)
    made = _run(
        [str(BIN / "openapi-typescript"), str(CONTRACT), "-o", str(out / "schema.d.ts")], out, 120
    )
    assert made.returncode == 0, made.stdout + made.stderr
    version = _run([str(BIN / "tsc"), "--version"], out, 60).stdout
    assert version.startswith("Version 5."), version  # openapi-typescript needs TypeScript 5
    tsc = subprocess.Popen(
        [str(BIN / "tsc"), "-p", str(out / "tsconfig.json")],
        cwd=out,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        with serve(redis_url, WEB_CONCURRENCY="1") as port:
            output, _ = tsc.communicate(timeout=240)
            checked = subprocess.CompletedProcess(tsc.args, tsc.returncode, output, "")
            yield Client(out, port, checked)
    finally:
        if tsc.poll() is None:
            tsc.kill()
            tsc.wait(timeout=10)
        shutil.rmtree(out, ignore_errors=True)


def test_the_client_type_checks_with_the_generators_default_settings(client: Client) -> None:
    config = json.loads((TOOLS / "tsconfig.json").read_text(encoding="utf-8"))
    assert config["compilerOptions"]["strict"] is True
    assert "skipLibCheck" not in config["compilerOptions"]  # the generated types are checked
    assert client.checked.returncode == 0, client.checked.stdout
    assert (client.dir / "out" / "play.js").exists()


def test_play_ts_sends_the_readmes_request_bodies_as_written() -> None:
    """Every literal request body of the README (no shell variable in it) is in play.ts,
    where tsc checks it against the generated types."""
    bodies = [
        json.loads(text)
        for text in re.findall(r"-d '(\{[^']*\})'", README.read_text(encoding="utf-8"))
        if "$" not in text
    ]
    assert len(bodies) >= 4
    program = re.sub(r"\s+", "", (TOOLS / "play.ts").read_text(encoding="utf-8"))
    for body in bodies:
        assert json.dumps(body, separators=(",", ":")) in program, body


def test_the_client_plays_every_game(client: Client) -> None:
    assert client.checked.returncode == 0, client.checked.stdout
    node = shutil.which("node") or "node"
    done = _run(
        [node, str(client.dir / "out" / "play.js")],
        client.dir,
        120,
        BASE_URL=f"http://127.0.0.1:{client.port}",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"played {len(GAMES)} games" in done.stdout, done.stdout
    for slug in GAMES:
        assert f"{slug}: seat " in done.stdout, slug
