"""The catalogue gate: every problem code the service may send was answered in this run;
the event gate: every event type every game declares was emitted and checked against its
declarations in this run.

The codes are not listed by hand: ``tests/contract.py`` records every problem the
suite's requests were answered with (and the tests of gunicorn and nginx record the
ones those answer before the app sees a request). This test runs last
(``conftest.pytest_collection_modifyitems``) and only when the whole suite ran; in a
distributed run (``pytest -n``, as ``make test`` runs) every worker hands its codes to
the controller, which makes the same check over all of them at the end
(``conftest.pytest_sessionfinish``).

The event types are recorded where a test checks an event against its game's
declarations: the deep playouts (``test_conformance.events_match_the_declarations``, which
a game's own tests call for the events only a state they set up produces) and every HTTP
answer that conforms to the contract (whose event schemas are derived from the same
declarations). A declared event type no test checks could lose its declaration unnoticed;
with the gate, removing any one fails the test that emits it.
"""

from __future__ import annotations

import pytest

from . import contract
from .conftest import WHOLE_SUITE


@pytest.mark.run_last
def test_every_problem_in_the_catalogue_was_answered(request: pytest.FixtureRequest) -> None:
    if not request.config.stash.get(WHOLE_SUITE, False):
        pytest.skip("only meaningful when the whole suite runs (e.g. `make test`)")
    if hasattr(request.config, "workerinput"):
        pytest.skip(
            "a distributed run (pytest -n): each worker walked a part of the codes; the "
            "controller checks them all together when the run ends (conftest)"
        )
    assert contract.gate(contract.walked()) == []


@pytest.mark.run_last
def test_every_declared_event_was_emitted_and_checked(request: pytest.FixtureRequest) -> None:
    if not request.config.stash.get(WHOLE_SUITE, False):
        pytest.skip("only meaningful when the whole suite runs (e.g. `make test`)")
    if hasattr(request.config, "workerinput"):
        pytest.skip(
            "a distributed run (pytest -n): each worker checked a part of the events; the "
            "controller checks them all together when the run ends (conftest)"
        )
    assert contract.event_gate(contract.CHECKED_EVENTS) == []


def test_the_event_gate_names_a_declared_event_no_test_checked() -> None:
    from rules.registry import GAMES
    from rules.shapes import shape, tag_of

    every = {slug: {tag_of(shape(tp)) for tp in game.wire.events} for slug, game in GAMES.items()}
    assert contract.event_gate(every) == []
    every["polymer"].discard("trade_undone")
    assert contract.event_gate(every) == [
        "no test checked polymer's ['trade_undone'] against its declarations"
    ]
