"""Schemathesis over the checked-in contract: generated requests, every documented
operation, bounded examples; no 5xx, responses that match their schemas, documented
status codes and headers, invalid input refused. Settings: `schemathesis.toml`."""

from __future__ import annotations

from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from service import create_app

from .conftest import KEY_A, _local_redis, make_settings

ROOT = Path(__file__).resolve().parent.parent
CONFIG = SchemathesisConfig.from_path(str(ROOT / "schemathesis.toml"))
schema = schemathesis.openapi.from_path(str(ROOT / "openapi" / "openapi.json"), config=CONFIG)
APP = create_app(make_settings(KEY_A, redis_url=_local_redis()))


@schema.exclude(path_regex="/replay$").parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_contract_holds_for_generated_requests(case: schemathesis.Case) -> None:
    # WSGI responses are not decoded by schemathesis: ask for an identity encoding
    case.call_and_validate(app=APP, headers={"Accept-Encoding": "identity"})


@schema.include(path_regex="/replay$").parametrize()
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_contract_holds_for_generated_records(case: schemathesis.Case) -> None:
    """A generated record is a large document (steps of events of cards): each takes
    long to make, so fewer of them (the replay is fuzzed field by field in test_fuzz)."""
    case.call_and_validate(app=APP, headers={"Accept-Encoding": "identity"})
