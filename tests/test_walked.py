"""The catalogue gate: every problem code the service may send was answered in this run.

The codes are not listed by hand: ``tests/contract.py`` records every problem the
suite's requests were answered with (and the tests of gunicorn and nginx record the
ones those answer before the app sees a request). This test runs last
(``conftest.pytest_collection_modifyitems``) and only when the whole suite ran; in a
distributed run (``pytest -n``, as ``make test`` runs) every worker hands its codes to
the controller, which makes the same check over all of them at the end
(``conftest.pytest_sessionfinish``).
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
