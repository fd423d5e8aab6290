"""Due work (service/sessions/due.py) on a real Redis: claims, leases, releases, failures."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest

from service.base.redis_client import RedisBackend
from service.sessions.due import DueWork, Runner

pytestmark = [pytest.mark.redis, pytest.mark.every_redis]


@pytest.fixture()
def due(redis_url: str) -> Iterator[DueWork]:
    work = DueWork(RedisBackend(redis_url), f"due-test-{uuid.uuid4().hex[:8]}:", lease_ms=300)
    yield work
    work.backend.client.delete(work.key, work.leased)


def now(due: DueWork) -> int:
    seconds, micros = due.backend.client.time()
    return int(seconds) * 1000 + int(micros) // 1000


def test_an_item_is_claimed_when_due_and_by_one_claimant_until_its_lease_ends(
    due: DueWork,
) -> None:
    t = now(due)
    due.schedule({"x:now": t - 1, "x:later": t + 60_000})
    lease, items = due.claim()
    assert items == ["x:now"] and lease >= t + 300
    assert due.claim()[1] == []  # leased: nobody else gets it
    time.sleep(0.35)
    assert due.claim()[1] == ["x:now"]  # the lease ran out: a dead claimant's work comes back


def test_release_removes_or_reschedules(due: DueWork) -> None:
    due.schedule({"x:a": now(due) - 1, "x:b": now(due) - 1})
    lease, items = due.claim()
    assert sorted(items) == ["x:a", "x:b"]
    due.release("x:a", lease, None)
    due.release("x:b", lease, lease + 1234)
    assert due.when("x:a") is None and due.when("x:b") == lease + 1234


def test_scheduling_never_postpones_and_a_time_set_while_an_item_runs_stands(
    due: DueWork,
) -> None:
    t = now(due)
    due.schedule({"x:a": t + 5000})
    due.schedule({"x:a": t + 9000})
    assert due.when("x:a") == t + 5000
    for meanwhile, returned, expected in (
        (t + 2000, t + 7000, t + 2000),  # made due sooner while it ran: the sooner wins
        (t + 7000, t + 2000, t + 2000),
        (t + 2000, None, t + 2000),  # its run found nothing to do, but a move did
        (None, t + 3000, t + 3000),
        (None, None, None),
    ):
        due.backend.client.zrem(due.key, "x:a")
        due.schedule({"x:a": now(due) - 1})
        lease, items = due.claim()
        assert items == ["x:a"] and due.when("x:a") is None
        if meanwhile is not None:
            due.schedule({"x:a": meanwhile})
        due.release("x:a", lease, returned)
        assert due.when("x:a") == expected
        assert due.backend.client.zscore(due.leased, "x:a") is None


def test_handlers_run_by_kind_failures_retry_unknown_kinds_are_dropped(due: DueWork) -> None:
    seen: list[str] = []

    def again_in_a_minute(payload: str) -> int:
        seen.append(payload)
        return now(due) + 60_000

    def broken(payload: str) -> int | None:
        raise RuntimeError("a bug")

    due.handlers.update(ok=again_in_a_minute, broken=broken)
    t = now(due)
    due.schedule({"ok:1": t - 1, "broken:2": t - 1, "nobody:3": t - 1})
    assert due.run_due() == 3
    assert seen == ["1"]
    again = due.when("ok:1")
    assert again is not None and again >= t + 60_000
    assert due.when("nobody:3") is None
    retry = due.when("broken:2")
    assert retry is not None and t < retry <= t + 60_000  # tried again after its lease


def test_the_runner_runs_due_work_in_the_background_and_stops(due: DueWork) -> None:
    ran: list[str] = []

    def tick(payload: str) -> None:
        ran.append(payload)

    due.handlers["tick"] = tick
    runner = Runner(due, lambda work: work(), poll_ms=20).start()
    try:
        due.schedule({"tick:a": now(due) + 100})
        deadline = time.monotonic() + 5
        while not ran:
            assert time.monotonic() < deadline, "the runner never ran the item"
            time.sleep(0.01)
        assert ran == ["a"] and due.when("tick:a") is None
    finally:
        runner.stop()
