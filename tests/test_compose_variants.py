"""compose.cluster.yaml: the stack on a Redis Cluster, read here (`docker compose config`
validates it where a compose client is installed, like compose.yaml in
tests/test_docker.py); tests/test_compose_stack.py brings it up and plays a game through
it where a container engine answers."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from service.base.redis_client import parse_url

from .test_docker import _compose_client

ROOT = Path(__file__).resolve().parent.parent
FILE = "compose.cluster.yaml"


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / FILE).read_text())
    return loaded["services"]  # type: ignore[no-any-return]


def _nodes(services: dict[str, Any]) -> list[str]:
    return [n for n, s in services.items() if "--cluster-enabled" in (s.get("command") or [])]


def test_six_cluster_nodes_joined_by_a_one_shot_init(services: dict[str, Any]) -> None:
    nodes = _nodes(services)
    assert len(nodes) == 6
    for name in nodes:
        command = services[name]["command"]
        assert command[command.index("--cluster-enabled") + 1] == "yes"
        assert services[name]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    init = services["redis-cluster-init"]
    assert init["depends_on"] == {n: {"condition": "service_healthy"} for n in nodes}
    script = init["command"][0]
    assert "--cluster create" in script and "--cluster-replicas 1" in script
    assert "for n in 1 2 3 4 5 6" in script and all(n.startswith("redis-") for n in nodes)
    # compose turns $$ into $; what the container's sh then runs must parse
    checked = subprocess.run(["sh", "-n", "-c", script.replace("$$", "$")], capture_output=True)
    assert checked.returncode == 0, checked.stderr


def test_instances_name_the_cluster_and_start_after_it(services: dict[str, Any]) -> None:
    instances = [n for n, s in services.items() if s.get("build")]
    assert len(instances) >= 2
    nodes = set(_nodes(services))
    for name in instances:
        service = services[name]
        target = parse_url(service["environment"]["REDIS_URL"])
        assert target.kind == "cluster" and {h for h, _ in target.nodes} <= nodes
        assert service["depends_on"] == {
            "redis-cluster-init": {"condition": "service_completed_successfully"}
        }
        # GET /healthz on the port BIND names (tests/test_docker.py checks the script)
        assert service["healthcheck"]["test"] == ["CMD", "python", "/app/healthcheck.py"]
    assert services["proxy"]["depends_on"] == {
        n: {"condition": "service_healthy"} for n in instances
    }


def test_instances_and_proxy_are_compose_yamls_but_for_redis(services: dict[str, Any]) -> None:
    """The cluster file repeats compose.yaml's instances (it ran with nginx unable to
    find them: no `rules` alias) and proxy; only REDIS_URL and what the instances wait
    for differ."""
    single = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    for name in ("rules-a", "rules-b", "proxy"):
        here, there = dict(services[name]), dict(single[name])
        if name != "proxy":
            assert here.pop("depends_on") and there.pop("depends_on")
            here["environment"] = {**here["environment"], "REDIS_URL": None}
            there["environment"] = {**there["environment"], "REDIS_URL": None}
        assert here == there, name
    restarts = {n: s.get("restart") for n, s in services.items()}
    assert restarts.pop("redis-cluster-init") == "no"  # a one-shot the instances wait for
    assert set(restarts.values()) == {"unless-stopped"}


def test_the_cluster_compose_file_validates() -> None:
    client = _compose_client()
    if client is None:
        pytest.skip("no docker compose client on this machine")
    checked = subprocess.run(
        [*client, "-f", FILE, "config", "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},  # no STATE_KEYS: only starting needs it
    )
    assert checked.returncode == 0, checked.stderr
