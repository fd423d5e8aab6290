"""A class plays every game at once (bench/classroom.py, in short): no move refused for
nothing, no rate limit met, no server error.

The benchmark's own code plays against a real server (gunicorn as `make serve` runs
it, rate limits on at the service's default budgets, an operator key, a key prefix of
its own) for a few seconds with students who think 0.05-0.2 s. It asserts what must
hold whatever the machine's speed; the figures are in bench/README.md.
"""

from __future__ import annotations

import doctest
import random
import secrets
from dataclasses import fields

import pytest

from bench import classroom, devices
from service.base.config import Settings

from .conftest import TEST_PREFIX
from .test_gunicorn import serve

pytestmark = [pytest.mark.redis]


def test_the_plan_seats_thirty_students_at_every_game() -> None:
    from rules.registry import GAMES

    assert sum(len(s.students) for s in classroom.PLAN) == 30
    assert {s.slug for s in classroom.PLAN} == set(GAMES)
    for seating in classroom.PLAN:
        info = GAMES[seating.slug].info
        assert info.min_players <= seating.players <= info.max_players, seating
        assert set(seating.students) < set(range(seating.players)), seating  # bots too
        assert seating.bot in info.bots, seating


def test_a_409_is_spurious_only_when_nothing_but_a_clock_reading_changed() -> None:
    seen = {"phase": "trading", "now_ms": 1, "you": {"hand": [1, 2], "seat": 0}}
    assert devices.differing(seen, {**seen, "now_ms": 2}) == []
    assert devices.differing(seen, {**seen, "phase": "over"}) == ["view.phase"]
    later = {**seen, "you": {"hand": [2], "seat": 0}}
    assert devices.differing(seen, later) == ["view.you.hand"]
    # now_ms is a clock reading only at the top of the view
    nested = {"you": {"now_ms": 1}}
    assert devices.differing(nested, {"you": {"now_ms": 2}}) == ["view.you.now_ms"]
    for module in (devices, classroom):
        assert doctest.testmod(module).failed == 0, module


def test_a_polymer_student_repays_takes_offers_and_keeps_its_own_few() -> None:
    rng = random.Random(1)
    offer = {"type": "offer", "to": 1, "give": [3], "ask": ["any"]}
    accept = {"type": "accept", "offer": 4}
    repay = {"type": "repay", "loan": 2, "cards": [3]}
    withdraw = [{"type": "withdraw", "offer": n} for n in (5, 6)]
    assert devices.choose([offer, accept, repay], rng, realtime=True) == repay
    assert devices.choose([offer, accept], rng, realtime=True) == accept
    assert devices.choose([offer, *withdraw], rng, realtime=True) == withdraw[0]
    assert devices.choose([{"type": "time_up"}], rng, realtime=True) is None
    assert devices.choose([offer], rng, realtime=True) == offer
    assert devices.choose([], rng, realtime=False) is None


def _default_budgets() -> dict[str, str]:
    """The service's own defaults, whatever this shell's environment says."""
    return {
        f.name.upper(): str(f.default) for f in fields(Settings) if f.name.startswith("rate_limit_")
    }


def test_a_class_of_thirty_plays_every_game_at_once(redis_url: str) -> None:
    operator = secrets.token_urlsafe(24)
    prefix = f"{TEST_PREFIX}classroom:"  # its own rate-limit counts; deleted with the run's
    env = {
        "RATE_LIMITS": "on",
        **_default_budgets(),
        "OPERATOR_KEYS": operator,
        "REDIS_KEY_PREFIX": prefix,
    }
    with serve(redis_url, **env) as port:
        report = classroom.run(
            port,
            operator_key=operator,
            seconds=12,
            think=(0.05, 0.2),
            polymer_options={"timer_seconds": 5},
            redis_url=redis_url,
            prefix=prefix,
        )
    total = report.total()
    described = classroom.markdown(report) + classroom.summary(report)
    assert total.spurious == 0, described
    assert not total.limited, described
    assert total.server_errors == 0 and total.broken == 0, described
    assert report.failed_deals == [], described
    for table in report.tables:
        played = classroom.Report.merged(table)
        name = table.seating.name
        assert played.moves > 0, (name, described)
        assert played.streams >= len(table.seating.students), (name, described)
        # Another seat's move changes what a seat sees in these two (who has selected,
        # hand counts, offers), so "view changed" alone would hide a 409 caused by it. A
        # student drafts only before its own selection, which the reveal needs: no draft
        # can be stale. In Polymer only the timer's start and end void a decision.
        if table.dynamics == "simultaneous":
            assert played.changed == 0, (name, described)
        if table.dynamics == "real-time":
            assert played.differed["view.phase"] == played.changed, (name, described)
    # a Polymer table's 5 s game ended and the teacher dealt it again
    assert all(report.dealt[s.name] >= 2 for s in classroom.PLAN if s.slug == "polymer"), described
    assert all(size > 0 for size in report.memory.values()) and report.memory, described


def test_a_class_comes_in_through_lessons(redis_url: str) -> None:
    """The benchmark's lesson mode: 30 students join one lesson per table at once, one
    seat each, and the class plays the tables their joins gave them."""
    operator = secrets.token_urlsafe(24)
    prefix = f"{TEST_PREFIX}classroom-lessons:"
    env = {
        "RATE_LIMITS": "on",
        **_default_budgets(),
        "OPERATOR_KEYS": operator,
        "REDIS_KEY_PREFIX": prefix,
    }
    with serve(redis_url, **env) as port:
        report = classroom.run(
            port,
            operator_key=operator,
            seconds=8,
            think=(0.05, 0.2),
            polymer_options={"timer_seconds": 5},
            lesson=True,
            push=False,  # devices that read their view (the other test's follow their streams)
        )
    total = report.total()
    described = classroom.markdown(report) + classroom.summary(report)
    assert len(report.joins) == 30 and report.seated > 0, described
    assert total.spurious == 0 and not total.limited and total.server_errors == 0, described
    for table in report.tables:
        assert classroom.Report.merged(table).moves > 0, (table.seating.name, described)
