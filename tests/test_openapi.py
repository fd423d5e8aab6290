"""The OpenAPI document: valid, checked in without drift, and true to real responses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from service.openapi_export import generate, render

CHECKED_IN = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generate()


def test_spec_is_valid_openapi_31(spec: dict[str, Any]) -> None:
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def test_checked_in_copy_has_no_drift(spec: dict[str, Any]) -> None:
    assert CHECKED_IN.read_text(encoding="utf-8") == render(spec), (
        "openapi/openapi.json is stale: run `make openapi` and commit the result"
    )


def test_every_operation_documents_problems_and_examples(spec: dict[str, Any]) -> None:
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in {"get", "post", "put", "delete", "patch"}:
                continue
            assert op.get("summary"), (method, path)
            if method != "post":
                continue
            body = op["requestBody"]["content"]["application/json"]
            assert "schema" in body
            for status in ("400", "413", "415", "422"):
                content = op["responses"][status].get("content") or {}
                assert "application/problem+json" in content, (path, status)


def test_moves_are_a_discriminated_union(spec: dict[str, Any]) -> None:
    move = spec["components"]["schemas"]["ElementDraftMoveRequest"]["properties"]["move"]
    assert move["discriminator"]["propertyName"] == "type"
    assert move["oneOf"]


def _resolve(node: Any, spec: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            target: Any = spec
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            return _resolve(target, spec)
        return {k: _resolve(v, spec) for k, v in node.items() if k != "discriminator"}
    if isinstance(node, list):
        return [_resolve(v, spec) for v in node]
    return node


def response_schema(
    spec: dict[str, Any], path: str, status: int, method: str | None = None
) -> dict[str, Any]:
    item = spec["paths"][path]
    responses = item[method or ("post" if "post" in item else "get")]["responses"]
    resp = _resolve(responses[str(status)], spec)
    content = resp["content"]
    return next(iter(content.values()))["schema"]  # type: ignore[no-any-return]


def check(spec: dict[str, Any], path: str, resp: Any, method: str | None = None) -> None:
    schema = response_schema(spec, path, resp.status_code, method)
    errors = sorted(Draft202012Validator(schema).iter_errors(resp.get_json()), key=str)
    assert not errors, f"{path} {resp.status_code}: {errors[0].message} at {list(errors[0].path)}"


def test_real_responses_match_the_documented_schemas(
    spec: dict[str, Any], client: FlaskClient
) -> None:
    ed = "/v1/element-draft"
    setup = client.post(f"{ed}/setup", json={"players": 3, "seed": 4})
    check(spec, f"{ed}/setup", setup)
    body = setup.get_json()
    token = body["token"]
    seats = {s["seat"]: s["seat_token"] for s in body["seats"]}
    for _ in range(16):
        for seat in range(3):
            auth = {"token": token, "seat": seat, "seat_token": seats[seat]}
            legal = client.post(f"{ed}/legal-moves", json=auth)
            check(spec, f"{ed}/legal-moves", legal)
            moves = legal.get_json()["moves"]
            if not moves:
                continue
            resp = client.post(f"{ed}/moves", json={**auth, "move": moves[0]})
            check(spec, f"{ed}/moves", resp)
            token = resp.get_json()["token"]
        check(spec, f"{ed}/view", client.post(f"{ed}/view", json={"token": token}))
        check(spec, f"{ed}/scores", client.post(f"{ed}/scores", json={"token": token}))
    bot = client.post(f"{ed}/bot-move", json={"token": token, "seat": 0, "seat_token": seats[0]})
    check(spec, f"{ed}/bot-move", bot)  # the game is over: a problem
    check(spec, "/v1/games", client.get("/v1/games"))
    check(spec, "/v1/games/{slug}", client.get("/v1/games/element-draft"))
    check(spec, "/v1/games/{slug}", client.get("/v1/games/nope"))
    check(spec, "/v1/problems", client.get("/v1/problems"))
    check(spec, "/healthz", client.get("/healthz"))
    check(spec, "/readyz", client.get("/readyz"))


def test_docs_page_and_spec_are_served(client: FlaskClient) -> None:
    assert client.get("/openapi.json").get_json()["openapi"].startswith("3.1")
    page = client.get("/docs")
    assert page.status_code == 200 and b"/docs/assets/swagger-ui-bundle.js" in page.data
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"):
        assert client.get(f"/docs/assets/{asset}").status_code == 200  # no CDN needed


def test_generated_spec_is_stable(spec: dict[str, Any]) -> None:
    assert render(generate()) == render(spec)
    json.loads(render(spec))


def test_polymer_responses_match_the_documented_schemas(
    spec: dict[str, Any], client: FlaskClient
) -> None:
    po = "/v1/polymer"
    sid_path = po + "/sessions/{session_id}"
    setup = client.post(f"{po}/setup", json={"players": 5, "seed": 2})
    check(spec, f"{po}/setup", setup)
    body = setup.get_json()
    sid, host = body["session_id"], body["host_token"]
    seats = {s["seat"]: s["seat_token"] for s in body["seats"]}
    url = f"{po}/sessions/{sid}"
    check(spec, sid_path + "/start", client.post(url + "/start", json={"host_token": host}))
    view = client.get(f"{url}?seat=0&seat_token={seats[0]}")
    check(spec, sid_path, view, "get")
    version = view.get_json()["version"]
    for step in range(40):
        seat = step % 5
        auth = {"seat": seat, "seat_token": seats[seat]}
        resp = client.post(url + "/bot-move", json={**auth, "version": version, "bot": "trading"})
        check(spec, sid_path + "/bot-move", resp)
        version = resp.get_json()["version"]
    legal = client.post(url + "/legal-moves", json={"seat": 1, "seat_token": seats[1]})
    check(spec, sid_path + "/legal-moves", legal)
    move = legal.get_json()["moves"][-1]
    resp = client.post(
        url + "/moves", json={"seat": 1, "seat_token": seats[1], "version": version, "move": move}
    )
    check(spec, sid_path + "/moves", resp)
    stale = client.post(
        url + "/moves", json={"seat": 1, "seat_token": seats[1], "version": 0, "move": move}
    )
    check(spec, sid_path + "/moves", stale)
    hand = client.get(f"{url}?seat=2&seat_token={seats[2]}").get_json()["view"]["you"]["hand"]
    declared = client.post(
        url + "/arrangement",
        json={"seat": 2, "seat_token": seats[2], "patterns": [[hand[0]["id"]]]},
    )
    check(spec, sid_path + "/arrangement", declared)
    check(spec, sid_path + "/scores", client.get(url + "/scores"))
    check(spec, sid_path, client.get(f"{po}/sessions/missing"), "get")


def test_every_example_matches_its_schema(spec: dict[str, Any]) -> None:
    checked = 0
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict):
                continue
            bodies = [op.get("requestBody", {}).get("content", {})]
            bodies += [_resolve(r, spec).get("content", {}) for r in op["responses"].values()]
            for content in bodies:
                for media in content.values():
                    if "example" not in media:
                        continue
                    schema = _resolve(media["schema"], spec)
                    errors = list(Draft202012Validator(schema).iter_errors(media["example"]))
                    assert not errors, f"{method} {path}: {errors[0].message}"
                    checked += 1
    assert checked > 20
