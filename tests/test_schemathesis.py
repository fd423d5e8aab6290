"""Schemathesis over the checked-in contract: generated requests, every documented
operation, bounded examples; no 5xx, responses that match their schemas, documented
status codes and headers, invalid input refused. Settings: `schemathesis.toml`.

The deployment has an operator key, and every operation an operator key opens (hosted
creation, stateless setup, ``/v1/operator/*``) is called with it, so generated
requests reach what lies behind the key: a session's creation with its callback, an
operator's list and its cursor, ending a session, its deliveries (issue 27)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.core.result import Err
from schemathesis.generation import GenerationMode
from schemathesis.schemas import BaseSchema

from service import create_app

from .conftest import KEY_A, _local_redis, make_settings

ROOT = Path(__file__).resolve().parent.parent
OPERATOR_KEY = "schemathesis-operator-key"


@pytest.fixture(scope="module")
def fuzzed_app() -> Flask:
    return create_app(make_settings(KEY_A, redis_url=_local_redis(), operator_keys=(OPERATOR_KEY,)))


@pytest.fixture(scope="module")
def contract(fuzzed_app: Flask) -> BaseSchema:
    """The checked-in contract, loaded where this module runs: schemathesis builds
    every operation's tests (the coverage phase's cases are computed then) where the
    schema is loaded, and every xdist worker collects every module, though one runs
    this one (at collection it cost each worker some 30 s)."""
    config = SchemathesisConfig.from_path(str(ROOT / "schemathesis.toml"))
    loaded = schemathesis.openapi.from_path(str(ROOT / "openapi" / "openapi.json"), config=config)
    # the probes schemathesis sends on its own (the same request without the key, or
    # with another: is the key enforced?) go to the app too
    loaded.app = fuzzed_app
    return loaded


schema = schemathesis.pytest.from_fixture("contract")


def headers(case: schemathesis.Case[Any]) -> dict[str, str]:
    """What every call sends: an identity encoding (WSGI responses are not decoded by
    schemathesis), and the operator key where the operation takes one."""
    sent = {"Accept-Encoding": "identity"}
    security = case.operation.definition.raw.get("security") or []
    header = case.meta.components.get(ParameterLocation.HEADER) if case.meta else None
    if header is not None and header.mode is GenerationMode.NEGATIVE:
        # a negative case that left the credential out means it: adding the key back
        # would make the request valid and its 200 "a schema-violating request accepted"
        return sent
    if any("operatorKey" in requirement for requirement in security):
        sent["Authorization"] = f"Bearer {OPERATOR_KEY}"
    return sent


def test_the_operator_key_opens_the_operations_that_take_one(
    contract: BaseSchema, fuzzed_app: Flask
) -> None:
    """Without it the fuzzing of hosted creation and /v1/operator/* stopped at 401."""
    opened: set[str] = set()
    for result in contract.get_all_operations():
        if isinstance(result, Err):
            raise result.err()  # the contract itself does not load
        operation = result.ok()
        case = operation.Case()
        if "Authorization" in headers(case):
            opened.add(f"{operation.method.upper()} {operation.path}")
    assert "POST /v1/element-draft/sessions" in opened and "POST /v1/polymer/sessions" in opened
    assert "GET /v1/operator/sessions" in opened
    assert "DELETE /v1/operator/sessions/{session_id}" in opened
    assert "GET /v1/operator/sessions/{session_id}/deliveries" in opened
    client = fuzzed_app.test_client()
    listed = client.get(
        "/v1/operator/sessions", headers={"Authorization": f"Bearer {OPERATOR_KEY}"}
    )
    assert listed.status_code == 200, listed.get_json()


@schema.exclude(path_regex="/replay$").parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_contract_holds_for_generated_requests(
    case: schemathesis.Case[Any], fuzzed_app: Flask
) -> None:
    case.call_and_validate(app=fuzzed_app, headers=headers(case))


@schema.include(path_regex="/replay$").parametrize()
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_contract_holds_for_generated_records(
    case: schemathesis.Case[Any], fuzzed_app: Flask
) -> None:
    """A generated record is a large document (steps of events of cards): each takes
    long to make, so fewer of them (the replay is fuzzed field by field in test_fuzz)."""
    case.call_and_validate(app=fuzzed_app, headers=headers(case))
