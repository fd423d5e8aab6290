"""What HTTP users expect: caching, compression, CORS, and the pages a browser asks for."""

from __future__ import annotations

import gzip
import json

import pytest
from flask.testing import FlaskClient

DOCUMENTS = ["/openapi.json", "/v1/games", "/v1/games/element-draft", "/v1/problems"]


@pytest.mark.parametrize("path", DOCUMENTS)
def test_documents_have_validators_and_answer_304(client: FlaskClient, path: str) -> None:
    first = client.get(path)
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert tag.startswith('"') and "max-age" in first.headers["Cache-Control"]
    again = client.get(path, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == tag
    other = client.get(path, headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.data == first.data


@pytest.mark.parametrize("path", ["/openapi.json", "/v1/games/element-draft"])
def test_large_documents_are_gzipped_when_the_client_accepts_it(
    client: FlaskClient, path: str
) -> None:
    plain = client.get(path)
    packed = client.get(path, headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) < len(plain.data) / 3
    assert json.loads(gzip.decompress(packed.data)) == plain.get_json()
    assert packed.headers["ETag"] != plain.headers["ETag"], "two representations, two tags"
    cached = client.get(
        path, headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]}
    )
    assert cached.status_code == 304
    refused = client.get(path, headers={"Accept-Encoding": "gzip;q=0"})
    assert "Content-Encoding" not in refused.headers


def test_a_large_game_response_is_gzipped_too(client: FlaskClient) -> None:
    resp = client.post(
        "/v1/element-draft/setup",
        json={"players": 10, "seed": 1},
        headers={"Accept-Encoding": "gzip"},
    )
    assert resp.status_code == 201 and resp.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(resp.data))["view"]["players"] == 10


def test_cors_preflight_lists_only_the_methods_that_exist_and_is_cached(
    client: FlaskClient,
) -> None:
    origin = {"Origin": "https://school.example"}
    pre = client.options(
        "/v1/element-draft/moves",
        headers={**origin, "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "authorization, content-type"},
    )  # fmt: skip
    assert pre.status_code == 200
    assert pre.headers["Access-Control-Allow-Origin"] == "*"
    assert set(pre.headers["Access-Control-Allow-Methods"].replace(" ", "").split(",")) == {
        "POST",
        "OPTIONS",
    }
    assert "Authorization" in pre.headers["Access-Control-Allow-Headers"]
    assert "Idempotency-Key" in pre.headers["Access-Control-Allow-Headers"]
    assert "Stream-Id" in pre.headers["Access-Control-Allow-Headers"]
    assert int(pre.headers["Access-Control-Max-Age"]) >= 600
    games = client.options("/v1/games", headers={**origin, "Access-Control-Request-Method": "GET"})
    assert "POST" not in games.headers["Access-Control-Allow-Methods"]
    simple = client.get("/v1/games", headers=origin)
    assert simple.headers["Access-Control-Allow-Origin"] == "*"
    assert "X-Request-ID" in simple.headers["Access-Control-Expose-Headers"]
    assert "Access-Control-Allow-Origin" not in client.get("/v1/games").headers


def test_cors_origins_can_be_restricted() -> None:
    from service import create_app

    from .conftest import make_settings

    app = create_app(make_settings(cors_origins=("https://a.example",)))
    c = app.test_client()
    ok = c.get("/healthz", headers={"Origin": "https://a.example"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://a.example"
    assert "Origin" in ok.headers["Vary"]
    assert (
        "Access-Control-Allow-Origin"
        not in c.get("/healthz", headers={"Origin": "https://b.example"}).headers
    )


def test_the_root_and_docs_slash_lead_to_the_docs(client: FlaskClient) -> None:
    root = client.get("/")  # a page linking the docs and the games (tests/test_pages.py)
    assert root.status_code == 200 and 'href="/docs"' in root.get_data(as_text=True)
    slash = client.get("/docs/")
    assert slash.status_code in (301, 308) and slash.headers["Location"].endswith("/docs")
    assert client.get("/docs").status_code == 200


def test_a_favicon_is_served(client: FlaskClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    assert b"<svg" in icon.data


def test_setup_of_an_unknown_game_says_so(client: FlaskClient) -> None:
    for resp in (
        client.post("/v1/chess/setup", json={"players": 2}),
        client.post("/v1/chess/sessions", json={"players": 2}),
        client.get("/v1/games/chess"),
    ):
        assert resp.status_code == 404 and resp.get_json()["code"] == "unknown_game"
    assert client.get("/v1/nothing").get_json()["code"] == "not_found"


def test_the_built_in_word_list_is_served_with_its_provenance(client: FlaskClient) -> None:
    from rules.chemistry.words import spellings

    resp = client.get("/v1/games/element-draft/words")
    assert resp.status_code == 200 and "ETag" in resp.headers
    body = resp.get_json()
    assert body["count"] == len(body["words"]) == 1155
    assert "bacon" in body["words"] and all(spellings(w) for w in body["words"][:50])
    assert body["source"]["package"] == "wamerican"
    detail = client.get("/v1/games/element-draft").get_json()
    assert detail["resources"] == {"words": "/v1/games/element-draft/words"}
    assert detail["links"]["words"] == "/v1/games/element-draft/words"


def test_the_app_remembers_plain_functions_without_growing_per_request(
    client: FlaskClient,
) -> None:
    """``App.ensure_sync`` keeps one answer per function: a MethodView's method, bound
    to a new instance every request, is remembered by the function beneath."""
    app = client.application
    setup = client.post("/v1/element-draft/setup", json={"players": 3, "seed": 1}).get_json()
    body = {"token": setup["token"], "seat": 0}
    auth = {"Authorization": f"Bearer {setup['seats'][0]['seat_token']}"}
    assert client.post("/v1/element-draft/legal-moves", json=body, headers=auth).status_code == 200
    known = len(app._plain)  # type: ignore[attr-defined]
    for _ in range(20):
        assert (
            client.post("/v1/element-draft/legal-moves", json=body, headers=auth).status_code == 200
        )
    assert len(app._plain) == known  # type: ignore[attr-defined]


def test_a_coroutine_function_is_never_taken_for_a_plain_one(client: FlaskClient) -> None:
    app = client.application

    async def later() -> None:
        return None

    def now() -> None:
        return None

    for _ in range(2):  # asked again: the remembered answer
        assert app.ensure_sync(now) is now
        try:
            synced = app.ensure_sync(later)
        except RuntimeError as err:  # Flask's async support (asgiref) is not installed
            assert "async" in str(err)
        else:
            assert synced is not later
