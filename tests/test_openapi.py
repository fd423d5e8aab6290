"""The OpenAPI document: valid, checked in without drift, precise, and true to real responses."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from rules.registry import GAMES
from service.openapi_export import generate, render

from .conftest import auth

CHECKED_IN = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"
METHODS = {"get", "post", "put", "delete", "patch"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generate()


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method in METHODS:
                yield path, method, op


def test_spec_is_valid_openapi_31(spec: dict[str, Any]) -> None:
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def test_checked_in_copy_has_no_drift(spec: dict[str, Any]) -> None:
    assert CHECKED_IN.read_text(encoding="utf-8") == render(spec), (
        "openapi/openapi.json is stale: run `make openapi` and commit the result"
    )


def test_generated_spec_is_stable(spec: dict[str, Any]) -> None:
    assert render(generate()) == render(spec)
    json.loads(render(spec))


def test_one_version_number_and_a_license(spec: dict[str, Any], client: FlaskClient) -> None:
    from importlib import metadata

    assert spec["info"]["version"] == metadata.version("chemgames")
    assert client.get("/v1/games").get_json()["version"] == spec["info"]["version"]
    assert spec["info"]["license"] == {"name": "MIT", "identifier": "MIT"}
    license_text = (CHECKED_IN.parent.parent / "LICENSE").read_text(encoding="utf-8")
    assert "MIT License" in license_text


def test_every_operation_is_named_documented_and_secured(spec: dict[str, Any]) -> None:
    ids = [op["operationId"] for _, _, op in operations(spec)]
    assert len(ids) == len(set(ids)) >= 29
    assert all(re.fullmatch(r"[a-z][A-Za-z]+", i) for i in ids), ids
    schemes = spec["components"]["securitySchemes"]
    assert schemes["seatToken"] == {**schemes["seatToken"], "type": "http", "scheme": "bearer"}
    assert schemes["hostToken"]["scheme"] == "bearer"
    for path, method, op in operations(spec):
        assert op.get("summary"), (method, path)
        assert "security" in op, (method, path)
        for param in op.get("parameters", []):
            assert "token" not in param["name"].lower(), f"a credential in {path}'s {param}"
        for status, response in op["responses"].items():
            assert "X-Request-ID" in response.get("headers", {}), (path, status)
        if method == "post" and "requestBody" in op:
            for status in ("400", "413", "415", "422"):
                content = op["responses"][status].get("content") or {}
                assert "application/problem+json" in content, (path, status)


def test_each_operation_lists_its_problem_codes_as_an_enum(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    for path, method, op in operations(spec):
        problem_refs = {
            problem_of(schemas, r["content"]["application/problem+json"]["schema"]["$ref"])
            for status, r in op["responses"].items()
            if int(status) >= 400
        }
        if not problem_refs:
            continue
        assert len(problem_refs) == 1, (path, problem_refs)
        enum = set(problem_codes(schemas, problem_refs.pop()))
        named = set()
        for status, response in op["responses"].items():
            if int(status) >= 400:
                listed = response["description"].split("one of:", 1)[1]
                named |= set(re.findall(r"`([a-z_]+)`", listed))
                example = response["content"]["application/problem+json"]["example"]
                assert example["code"] in enum and example["status"] == int(status)
        assert named == enum, (method, path, named ^ enum)
    move = problem_codes(schemas, "#/components/schemas/ElementDraftMoveProblem")
    assert {"not_in_hand", "already_selected", "seat_token_invalid", "token_invalid"} <= set(move)


def problem_of(schemas: dict[str, Any], reference: str) -> str:
    """The operation's problem an error answer's schema is: itself, or for a hosted
    move's 409 (``<Operation>Conflict``) the problem it extends with the session."""
    name = reference.rsplit("/", 1)[1]
    if name.endswith("Conflict"):
        base, extension = schemas[name]["allOf"]
        assert set(extension["properties"]) == {"current_version", "session"}, name
        return str(base["$ref"])
    return reference


def problem_codes(schemas: dict[str, Any], reference: str) -> list[str]:
    """The codes of an operation's problem: a ``Problem`` (``allOf``) whose ``code`` is
    the operation's own enum."""
    schema = schemas[problem_of(schemas, reference).rsplit("/", 1)[1]]
    base, narrowed = schema["allOf"]
    assert base == {"$ref": "#/components/schemas/Problem"}, reference
    code = narrowed["properties"]["code"]
    return list(schemas[code["$ref"].rsplit("/", 1)[1]]["enum"])


def test_every_problem_extends_the_one_problem(spec: dict[str, Any]) -> None:
    """One base type for every error answer: each operation's problem is a ``Problem``
    with its own code enum, and nothing else is a problem."""
    schemas = spec["components"]["schemas"]
    problem = schemas["Problem"]
    assert {"type", "title", "status", "detail", "code"} <= set(problem["required"])
    answered = set()
    for path, method, op in operations(spec):
        for status, response in op["responses"].items():
            for media_type, media in response.get("content", {}).items():
                if media_type == "application/problem+json":
                    assert int(status) >= 400, (method, path, status)
                    answered.add(problem_of(schemas, media["schema"]["$ref"]))
                    problem_codes(schemas, media["schema"]["$ref"])
    problems = {f"#/components/schemas/{n}" for n in schemas if n.endswith("Problem")}
    problems.discard("#/components/schemas/Problem")
    assert problems == answered, problems ^ answered


def test_moves_are_a_discriminated_union(spec: dict[str, Any]) -> None:
    move = spec["components"]["schemas"]["ElementDraftMoveRequest"]["properties"]["move"]
    assert move["discriminator"]["propertyName"] == "type"
    assert move["oneOf"]


TYPED = {"type", "$ref", "oneOf", "anyOf", "allOf", "enum", "const"}


def test_no_value_is_left_untyped(spec: dict[str, Any]) -> None:
    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            if "properties" in node:
                for name, prop in node["properties"].items():
                    assert TYPED & set(prop), f"{where}.{name} has no type"
                    walk(prop, f"{where}.{name}")
            for key in ("items", "additionalProperties"):
                if isinstance(node.get(key), dict):
                    assert TYPED & set(node[key]), f"{where}[{key}] has no type"
                    walk(node[key], f"{where}[{key}]")
            if node.get("type") == "object" and "properties" not in node:
                assert "additionalProperties" in node, f"{where} is a bare object"
            for key in ("oneOf", "anyOf", "allOf"):
                for i, sub in enumerate(node.get(key, [])):
                    walk(sub, f"{where}.{key}[{i}]")

    for name, schema in spec["components"]["schemas"].items():
        walk(schema, name)
    assert "PaginationMetadata" not in spec["components"]["schemas"]


KEYWORDS = {
    "string": {"minLength", "maxLength", "pattern", "format"},
    "array": {"minItems", "maxItems", "uniqueItems", "items", "prefixItems", "contains"},
    "object": {"minProperties", "maxProperties", "properties", "additionalProperties",
               "propertyNames", "required"},
    "number": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
}  # fmt: skip


def test_every_keyword_fits_its_type(spec: dict[str, Any]) -> None:
    """A keyword of one JSON type on a schema of another (a map's size as `maxLength`)
    is ignored by validators and generators alike, so the limit would bind the server
    alone."""

    def walk(node: Any, where: str) -> None:
        if isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}[{i}]")
            return
        if not isinstance(node, dict):
            return
        kinds = node.get("type")
        if kinds is not None:
            kinds = {kinds} if isinstance(kinds, str) else set(kinds)
            allowed = {"number"} if "integer" in kinds else set()
            allowed |= kinds
            for kind, words in KEYWORDS.items():
                if kind not in allowed:
                    misplaced = words & set(node) - ({"format"} if kind == "string" else set())
                    assert not misplaced, f"{where}: {misplaced} on a {sorted(kinds)} schema"
        for key, sub in node.items():
            if key not in ("example", "examples", "default", "enum", "const"):
                walk(sub, f"{where}.{key}")

    walk(spec["components"], "components")
    walk(spec["paths"], "paths")


SAFE = 2**53 - 1


def test_every_integer_is_bounded_within_what_javascript_keeps(spec: dict[str, Any]) -> None:
    """JavaScript's JSON.parse reads a whole number as a double: beyond 2**53 - 1 it
    rounds it. Every integer of the contract (members, items, maps' values, headers,
    parameters) states bounds within that, so a client knows its type is safe."""
    unbounded: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}[{i}]")
            return
        if not isinstance(node, dict):
            return
        kinds = node.get("type")
        kinds = {kinds} if isinstance(kinds, str) else set(kinds or ())
        if "integer" in kinds:
            if "enum" in node or "const" in node:
                values = node.get("enum", [node.get("const")])
                if not all(v is None or abs(v) <= SAFE for v in values):
                    unbounded.append(where)
            elif not (-SAFE <= node.get("minimum", -(2**64)) <= node.get("maximum", 2**64) <= SAFE):
                unbounded.append(where)
        for key, sub in node.items():
            if key not in ("example", "examples", "default"):
                walk(sub, f"{where}.{key}")

    walk(spec, "")
    assert unbounded == []


def test_request_members_state_their_default_in_words(spec: dict[str, Any]) -> None:
    """No `default` keyword in a schema: openapi-typescript makes a member with one
    required, so a client could not leave out what the server fills in. The description
    says it instead."""

    def walk(node: Any, where: str) -> None:
        if isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}[{i}]")
        elif isinstance(node, dict):
            assert "default" not in node, where
            for key, sub in node.items():
                if key == "properties":  # member names, one of them may be `default`
                    for name, member in sub.items():
                        walk(member, f"{where}.{name}")
                elif key not in ("example", "examples", "enum", "const"):
                    walk(sub, f"{where}.{key}")

    walk(spec["components"]["schemas"], "schemas")  # (a query parameter's may stay)
    options = spec["components"]["schemas"]["ElementDraftOptions"]["properties"]
    assert options["bismuth_radioactive"]["description"].endswith("Default: `false`.")


# ------------------------------------------------------------------ real responses ------
def validator(spec: dict[str, Any], schema: dict[str, Any]) -> Draft202012Validator:
    """A validator for ``schema`` whose ``#/components/...`` references resolve."""
    return Draft202012Validator({**schema, "components": spec["components"]})


def response_schema(
    spec: dict[str, Any], path: str, status: int, method: str | None = None
) -> dict[str, Any]:
    item = spec["paths"][path]
    responses = item[method or ("post" if "post" in item else "get")]["responses"]
    content = responses[str(status)]["content"]
    return next(iter(content.values()))["schema"]  # type: ignore[no-any-return]


def conforms(
    spec: dict[str, Any], path: str, body: Any, status: int = 200, method: str | None = None
) -> None:
    """``body``, a ``status`` answer of ``path``, is what the contract documents."""
    schema = response_schema(spec, path, status, method)
    errors = sorted(validator(spec, schema).iter_errors(body), key=str)
    assert not errors, f"{path} {status}: {errors[0].message} at {list(errors[0].path)}"


def check(spec: dict[str, Any], path: str, resp: Any, method: str | None = None) -> Any:
    body = resp.get_json()
    conforms(spec, path, body, resp.status_code, method)
    return body


def test_real_stateless_responses_match_the_documented_schemas(
    spec: dict[str, Any], client: FlaskClient
) -> None:
    ed = "/v1/element-draft"
    body = check(spec, f"{ed}/setup", client.post(f"{ed}/setup", json={"players": 3, "seed": 4}))
    token = body["token"]
    seats = {s["seat"]: s["seat_token"] for s in body["seats"]}
    for _ in range(16):
        for seat in range(3):
            me = {"token": token, "seat": seat}
            legal = client.post(f"{ed}/legal-moves", json=me, headers=auth(seats[seat]))
            moves = check(spec, f"{ed}/legal-moves", legal)["moves"]
            if not moves:
                continue
            resp = client.post(
                f"{ed}/moves", json={**me, "move": moves[0]}, headers=auth(seats[seat])
            )
            token = check(spec, f"{ed}/moves", resp)["token"]
        check(spec, f"{ed}/view", client.post(f"{ed}/view", json={"token": token}))
        check(spec, f"{ed}/scores", client.post(f"{ed}/scores", json={"token": token}))
    over = client.post(f"{ed}/bot-move", json={"token": token, "seat": 0}, headers=auth(seats[0]))
    check(spec, f"{ed}/bot-move", over)  # the game is over: a problem
    bots = client.post(f"{ed}/setup", json={"players": 3, "seed": 4, "bots": {"1": "greedy"}})
    check(spec, f"{ed}/setup", bots)
    check(spec, "/v1/games", client.get("/v1/games"))
    for slug in GAMES:
        check(spec, f"/v1/games/{slug}", client.get(f"/v1/games/{slug}"))
    check(spec, "/v1/problems", client.get("/v1/problems"))
    check(spec, "/v1/problems/{code}", client.get("/v1/problems/not_in_hand"))
    check(spec, "/healthz", client.get("/healthz"))
    check(spec, "/readyz", client.get("/readyz"))


def test_real_session_responses_match_the_documented_schemas(
    spec: dict[str, Any], client: FlaskClient
) -> None:
    ed = "/v1/element-draft/sessions"
    sid_path = ed + "/{session_id}"
    created = client.post(ed, json={"players": 2, "seed": 4, "bots": {"1": "random"}})
    body = check(spec, ed, created)
    url, seat0 = f"{ed}/{body['session_id']}", auth(body["seats"][0]["seat_token"])
    version = body["version"]
    while True:
        view = client.get(f"{url}?seat=0", headers=seat0)
        check(spec, sid_path, view, "get")
        legal = client.post(f"{url}/legal-moves", json={"seat": 0}, headers=seat0)
        moves = check(spec, sid_path + "/legal-moves", legal)["moves"]
        if not moves:
            break
        move = {"seat": 0, "version": version, "move": moves[0]}
        resp = client.post(f"{url}/moves", json=move, headers=seat0)
        version = check(spec, sid_path + "/moves", resp)["version"]
    check(spec, sid_path + "/scores", client.get(f"{url}/scores"))
    stale = client.post(f"{url}/bot-move", json={"seat": 0, "version": 0}, headers=seat0)
    check(spec, sid_path + "/bot-move", stale)
    check(spec, sid_path, client.get(f"{ed}/missing"), "get")


def test_real_polymer_responses_match_the_documented_schemas(
    spec: dict[str, Any], client: FlaskClient
) -> None:
    po = "/v1/polymer/sessions"
    sid_path = po + "/{session_id}"
    body = check(spec, po, client.post(po, json={"players": 5, "seed": 2}))
    url, host = f"{po}/{body['session_id']}", auth(body["host_token"])
    seats = {s["seat"]: auth(s["seat_token"]) for s in body["seats"]}
    check(spec, sid_path + "/start", client.post(url + "/start", headers=host))
    version = check(spec, sid_path, client.get(f"{url}?seat=0", headers=seats[0]), "get")["version"]
    for step in range(40):
        seat = step % 5
        move = {"seat": seat, "version": version, "bot": "trading"}
        resp = client.post(url + "/bot-move", json=move, headers=seats[seat])
        version = check(spec, sid_path + "/bot-move", resp)["version"]
    legal = client.post(url + "/legal-moves", json={"seat": 1}, headers=seats[1])
    move = check(spec, sid_path + "/legal-moves", legal)["moves"][-1]
    body = {"seat": 1, "version": version, "move": move}
    check(spec, sid_path + "/moves", client.post(url + "/moves", json=body, headers=seats[1]))
    stale = client.post(url + "/moves", json={**body, "version": 0}, headers=seats[1])
    check(spec, sid_path + "/moves", stale)
    hand = client.get(f"{url}?seat=2", headers=seats[2]).get_json()["view"]["you"]["hand"]
    patterns = {"seat": 2, "patterns": [[hand[0]["id"]]]}
    declared = client.post(url + "/arrangement", json=patterns, headers=seats[2])
    check(spec, sid_path + "/arrangement", declared)
    check(spec, sid_path + "/scores", client.get(url + "/scores"))
    check(spec, sid_path, client.get(f"{po}/missing"), "get")


def test_every_example_matches_its_schema(spec: dict[str, Any]) -> None:
    checked = 0
    for path, method, op in operations(spec):
        bodies = [op.get("requestBody", {}).get("content", {})]
        bodies += [r.get("content", {}) for r in op["responses"].values()]
        for content in bodies:
            for media_type, media in content.items():
                if "example" not in media or media_type == "text/event-stream":
                    continue
                errors = list(validator(spec, media["schema"]).iter_errors(media["example"]))
                assert not errors, f"{method} {path}: {errors[0].message}"
                checked += 1
    assert checked > 60


def test_docs_page_and_spec_are_served(client: FlaskClient) -> None:
    assert client.get("/openapi.json").get_json()["openapi"].startswith("3.1")
    page = client.get("/docs")
    assert page.status_code == 200 and b"/docs/assets/swagger-ui-bundle.js" in page.data
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"):
        assert client.get(f"/docs/assets/{asset}").status_code == 200  # no CDN needed
