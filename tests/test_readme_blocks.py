"""The README's client blocks run twice from the checkout's root and leave it clean.

The shell blocks of "Clients generated from the contract" generate the Python and the
TypeScript clients: run one after the other in one shell, twice, from the root, they
must succeed both times, leave the shell in the root (no `cd` leaking into the blocks
that follow) and add nothing to the checkout (`git status` unchanged: no
`package.json`, `node_modules/`, `schema.d.ts` or `chem_client/` left behind). The
block that plays every game needs a server at 127.0.0.1:8000 (tests/test_typescript_client.py
runs the same client against one); it is checked to run in a subshell of its own.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def client_blocks() -> list[str]:
    section = README.split("## Clients generated from the contract", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", section, re.S)


def git_status() -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_the_client_blocks_run_twice_and_leave_the_checkout_clean(tmp_path: Path) -> None:
    if shutil.which("npm") is None or shutil.which("git") is None:
        pytest.fail("npm and git are needed (make install)")
    generate_python, generate_typescript, play = client_blocks()
    assert play.lstrip().startswith("(cd ") and play.rstrip().endswith(")"), play
    before = git_status()
    script = "set -e\n" + (generate_python + generate_typescript + 'echo "here: $PWD"\n') * 2
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "TMPDIR": str(tmp_path),  # mktemp's folders, removed with the test's
        "npm_config_audit": "false",
        "npm_config_fund": "false",
    }
    done = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout.count(f"here: {ROOT}\n") == 2, done.stdout[-2000:]
    assert git_status() == before
    generated = sorted(p.name for p in tmp_path.iterdir())
    assert len(generated) == 4, generated  # two clients' folders per run
    for folder in tmp_path.iterdir():
        assert (folder / "chem_client").is_dir() or (folder / "schema.d.ts").is_file()
