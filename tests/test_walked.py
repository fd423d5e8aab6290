"""The catalogue gate: every problem code the service may send was answered in this run.

The codes are not listed by hand: ``tests/contract.py`` records every problem the
suite's requests were answered with (and the tests of gunicorn and nginx record the
ones those answer before the app sees a request). This test runs last
(``conftest.pytest_collection_modifyitems``) and only when the whole suite ran.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from . import contract
from .conftest import WHOLE_SUITE


@pytest.mark.run_last
def test_every_problem_in_the_catalogue_was_answered(
    client: FlaskClient, request: pytest.FixtureRequest
) -> None:
    if not request.config.stash.get(WHOLE_SUITE, False):
        pytest.skip("only meaningful when the whole suite runs (e.g. `make test`)")
    catalogue = {p["code"] for p in client.get("/v1/problems").get_json()["problems"]}
    walked = set(contract.walked())
    missing = sorted(catalogue - walked)
    assert missing == [], f"no test made the service answer {missing}"
    answered = {code for code, places in contract.walked().items() if places - {"the rules"}}
    unknown = sorted(answered - catalogue - {"?"})
    assert unknown == [], f"answered with codes the catalogue does not list: {unknown}"
