"""Walk every documented problem: each bad input gets problem+json with a stable code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.exceptions import ImATeapot

from service import create_app
from service.http.problems import PROBLEM_JSON

from .conftest import KEY_A, KEY_B, auth, make_settings

ED = "/v1/element-draft"


def _setup(client: FlaskClient, players: int = 2, **kw: Any) -> dict[str, Any]:
    resp = client.post(f"{ED}/setup", json={"players": players, "seed": 11, **kw})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()  # type: ignore[no-any-return]


def _seat_body(setup: dict[str, Any], seat: int = 0, **kw: Any) -> dict[str, Any]:
    return {"token": setup["token"], "seat": seat, **kw}


def _as(
    c: FlaskClient,
    path: str,
    setup: dict[str, Any],
    seat: int = 0,
    *,
    who: int | None = None,
    **kw: Any,
) -> Any:
    """POST as ``seat`` with the credential of seat ``who`` (default: the seat itself)."""
    token = setup["seats"][seat if who is None else who]["seat_token"]
    return c.post(path, json=_seat_body(setup, seat, **kw), headers=auth(token))


def _hand(client: FlaskClient, setup: dict[str, Any], seat: int = 0) -> list[int]:
    view = _as(client, f"{ED}/view", setup, seat).get_json()
    return [c["z"] for c in view["view"]["you"]["hand"]]


def _finished_token(client: FlaskClient) -> dict[str, Any]:
    setup = _setup(client, options={"deal": [[1], [2]]})
    for seat, z in ((0, 1), (1, 2)):
        resp = _as(client, f"{ED}/moves", setup, seat, move={"type": "draft", "card": z})
        setup = {**setup, "token": resp.get_json()["token"]}
    return setup


def t_malformed_json(c: FlaskClient) -> Any:
    return c.post(f"{ED}/moves", data="{not json", content_type="application/json")


def t_invalid_request(c: FlaskClient) -> Any:
    return c.post(f"{ED}/moves", json={"token": 5, "seat": "zero"})


def t_unsupported_media_type(c: FlaskClient) -> Any:
    return c.post(f"{ED}/setup", data="players=2", content_type="application/x-www-form-urlencoded")


def t_body_too_large(c: FlaskClient) -> Any:
    return c.post(
        f"{ED}/setup",
        data='{"players": 2, "x": "' + "a" * 300_000 + '"}',
        content_type="application/json",
    )


def t_not_found(c: FlaskClient) -> Any:
    return c.get("/v1/no-such-thing")


def t_unknown_game(c: FlaskClient) -> Any:
    assert c.post("/v1/no-such-game/setup", json={"players": 2}).status_code == 404
    assert c.post("/v1/no-such-game/setup", json={"players": 2}).get_json()["code"] == (
        "unknown_game"
    )
    return c.get("/v1/games/no-such-game")


def t_method_not_allowed(c: FlaskClient) -> Any:
    return c.get(f"{ED}/moves")


def t_token_invalid(c: FlaskClient) -> Any:
    return c.post(f"{ED}/scores", json={"token": "gAAAAAB-tampered"})


def t_token_wrong_game(c: FlaskClient) -> Any:
    from service.games.tokens import Envelope, Sealer

    token = Sealer((KEY_A,)).seal(Envelope("polymer", 1, "x", 0, {"players": 5}))
    return c.post(f"{ED}/scores", json={"token": token})


def t_token_version_unsupported(c: FlaskClient) -> Any:
    from service.games.tokens import Envelope, Sealer

    token = Sealer((KEY_A,)).seal(Envelope("element-draft", 99, "x", 0, {"players": 2}))
    return c.post(f"{ED}/scores", json={"token": token})


def t_seat_token_invalid(c: FlaskClient) -> Any:
    setup = _setup(c)
    return _as(c, f"{ED}/view", setup, 1, who=0)


def t_credentials_missing(c: FlaskClient) -> Any:
    setup = _setup(c)
    return c.post(f"{ED}/moves", json=_seat_body(setup, move={"type": "draft", "card": 1}))


def t_json_too_deep(c: FlaskClient) -> Any:
    return c.post(f"{ED}/setup", data="[" * 1000 + "]" * 1000, content_type="application/json")


def t_bad_bots(c: FlaskClient) -> Any:
    return c.post(f"{ED}/setup", json={"players": 2, "bots": {"2": "greedy"}})


def t_internal_error(c: FlaskClient) -> Any:
    app = create_app(make_settings(KEY_A))

    @app.get("/boom")
    def boom() -> Any:
        raise RuntimeError("boom")

    return app.test_client().get("/boom")


def t_http_error(c: FlaskClient) -> Any:
    app = create_app(make_settings(KEY_A))

    @app.get("/teapot")
    def teapot() -> Any:
        raise ImATeapot()

    return app.test_client().get("/teapot")


def t_bad_players(c: FlaskClient) -> Any:
    from rules.registry import get

    # the schema bounds players, so exercise the rules' own check through the registry
    with pytest.raises(Exception) as err:
        get("element-draft").setup(11, {}, 1)
    assert getattr(err.value, "code", None) == "bad_players"
    return c.post(f"{ED}/setup", json={"players": 11})


def t_unknown_option(c: FlaskClient) -> Any:
    return c.post(f"{ED}/setup", json={"players": 2, "options": {"colour": "red"}})


def t_bad_option(c: FlaskClient) -> Any:
    return c.post(f"{ED}/setup", json={"players": 2, "options": {"bismuth_radioactive": "yes"}})


def t_bad_word_list(c: FlaskClient) -> Any:
    return c.post(f"{ED}/setup", json={"players": 2, "options": {"words": ["toolong"]}})


def t_bad_deal(c: FlaskClient) -> Any:
    return c.post(f"{ED}/setup", json={"players": 2, "options": {"deal": [[1, 2], [2, 3]]}})


def t_seat_out_of_range(c: FlaskClient) -> Any:
    setup = _setup(c)
    return _as(c, f"{ED}/view", setup, 7, who=0)


def t_unknown_move(c: FlaskClient) -> Any:
    setup = _setup(c)
    return _as(c, f"{ED}/moves", setup, move={"type": "steal", "card": 1})


def t_bad_move(c: FlaskClient) -> Any:
    setup = _setup(c)
    return _as(c, f"{ED}/moves", setup, move={"type": "draft", "card": "Fe"})


def t_not_in_hand(c: FlaskClient) -> Any:
    setup = _setup(c)
    mine = set(_hand(c, setup))
    other = next(z for z in range(1, 37) if z not in mine)
    return _as(c, f"{ED}/moves", setup, move={"type": "draft", "card": other})


def t_already_selected(c: FlaskClient) -> Any:
    setup = _setup(c)
    a, b = _hand(c, setup)[:2]
    token = _as(c, f"{ED}/moves", setup, move={"type": "draft", "card": a})
    setup = {**setup, "token": token.get_json()["token"]}
    return _as(c, f"{ED}/moves", setup, move={"type": "draft", "card": b})


def t_game_over(c: FlaskClient) -> Any:
    done = _finished_token(c)
    return _as(c, f"{ED}/moves", done, move={"type": "draft", "card": 1})


def t_already_selected_bot(c: FlaskClient) -> Any:
    setup = _setup(c)
    a = _hand(c, setup)[0]
    token = _as(c, f"{ED}/moves", setup, move={"type": "draft", "card": a})
    setup = {**setup, "token": token.get_json()["token"]}
    return _as(c, f"{ED}/bot-move", setup, bot="random")


TRIGGERS: dict[str, tuple[int, Callable[[FlaskClient], Any]]] = {
    "malformed_json": (400, t_malformed_json),
    "invalid_request": (422, t_invalid_request),
    "unsupported_media_type": (415, t_unsupported_media_type),
    "body_too_large": (413, t_body_too_large),
    "not_found": (404, t_not_found),
    "unknown_game": (404, t_unknown_game),
    "method_not_allowed": (405, t_method_not_allowed),
    "token_invalid": (400, t_token_invalid),
    "token_wrong_game": (400, t_token_wrong_game),
    "token_version_unsupported": (400, t_token_version_unsupported),
    "seat_token_invalid": (403, t_seat_token_invalid),
    "credentials_missing": (401, t_credentials_missing),
    "json_too_deep": (400, t_json_too_deep),
    "bad_bots": (422, t_bad_bots),
    "internal_error": (500, t_internal_error),
    "http_error": (418, t_http_error),
    "bad_players": (422, t_bad_players),
    "unknown_option": (422, t_unknown_option),
    "bad_option": (422, t_bad_option),
    "bad_word_list": (422, t_bad_word_list),
    "bad_deal": (422, t_bad_deal),
    "seat_out_of_range": (422, t_seat_out_of_range),
    "unknown_move": (422, t_unknown_move),
    "bad_move": (422, t_bad_move),
    "not_in_hand": (422, t_not_in_hand),
    "already_selected": (422, t_already_selected),
    "game_over": (422, t_game_over),
}


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_each_problem(client: FlaskClient, code: str) -> None:
    status, trigger = TRIGGERS[code]
    resp = trigger(client)
    assert resp.mimetype == PROBLEM_JSON, (code, resp.data[:200])
    body = resp.get_json()
    assert resp.status_code == status == body["status"], body
    assert body["code"] == code, body
    assert body["type"] == f"/v1/problems/{code}"
    assert body["title"] and body["detail"]


def test_problem_type_is_dereferenceable(client: FlaskClient) -> None:
    for code in ("not_in_hand", "token_invalid"):
        resp = client.get(f"/v1/problems/{code}")
        assert resp.status_code == 200 and resp.get_json()["code"] == code
    assert client.get("/v1/problems/nope").get_json()["code"] == "not_found"


def test_schema_error_names_the_field(client: FlaskClient) -> None:
    body = t_invalid_request(client).get_json()
    assert "seat" in body["errors"] and "token" in body["errors"]
    assert "seat" in body["detail"]


def test_unknown_member_is_refused(client: FlaskClient) -> None:
    resp = client.post(f"{ED}/setup", json={"players": 2, "player": 3})
    assert resp.status_code == 422 and "player" in resp.get_json()["errors"]


@pytest.mark.parametrize(
    "payload",
    [
        "null",
        "[]",
        '"x"',
        "1",
        "true",
        '{"players": null}',
        '{"players": 2.5}',
        '{"players": true}',
    ],
)
def test_wrong_shapes_are_422_not_500(client: FlaskClient, payload: str) -> None:
    resp = client.post(f"{ED}/setup", data=payload, content_type="application/json")
    assert resp.status_code in (400, 422) and resp.mimetype == PROBLEM_JSON


def test_json_body_on_every_post_endpoint_is_checked(app: Flask, client: FlaskClient) -> None:
    posts = [r.rule for r in app.url_map.iter_rules() if "POST" in (r.methods or set())]
    assert posts
    for rule in posts:
        for data in ("{bad", "[]"):
            resp = client.post(rule, data=data, content_type="application/json")
            assert 400 <= resp.status_code < 500 and resp.mimetype == PROBLEM_JSON, rule


def test_request_id_is_echoed(client: FlaskClient) -> None:
    resp = client.get("/healthz", headers={"X-Request-ID": "abc-123"})
    assert resp.headers["X-Request-ID"] == "abc-123"
    assert len(client.get("/healthz").headers["X-Request-ID"]) == 32


def test_cors_headers_for_browser_front_ends(client: FlaskClient) -> None:
    resp = client.options(
        f"{ED}/setup",
        headers={"Origin": "https://school.example", "Access-Control-Request-Method": "POST"},
    )
    assert resp.headers.get("Access-Control-Allow-Origin") in ("*", "https://school.example")


def test_other_key_not_configured_gives_token_invalid() -> None:
    token = (
        create_app(make_settings(KEY_B))
        .test_client()
        .post(f"{ED}/setup", json={"players": 2})
        .get_json()["token"]
    )
    resp = (
        create_app(make_settings(KEY_A)).test_client().post(f"{ED}/scores", json={"token": token})
    )
    assert resp.get_json()["code"] == "token_invalid"


def test_a_bot_cannot_move_for_a_seat_that_has_selected(client: FlaskClient) -> None:
    body = t_already_selected_bot(client).get_json()
    assert body["code"] == "already_selected"


def test_a_bot_cannot_move_after_the_end(client: FlaskClient) -> None:
    done = _finished_token(client)
    body = _as(client, f"{ED}/bot-move", done, bot="greedy").get_json()
    assert body["code"] == "game_over"


@pytest.mark.parametrize("value", [0, 1, "true", "yes", None])
def test_a_boolean_option_takes_only_true_or_false(client: FlaskClient, value: object) -> None:
    resp = client.post(
        f"{ED}/setup", json={"players": 2, "options": {"bismuth_radioactive": value}}
    )
    assert resp.status_code == 422 and resp.get_json()["code"] == "bad_option"


def test_the_bearer_header_is_read_leniently_but_an_overlong_one_is_not_a_credential(
    client: FlaskClient,
) -> None:
    """Spaces around the token are not part of it; a header too long to be any token is
    a missing credential (401), never a wrong one (403)."""
    setup = _setup(client)
    token = setup["seats"][0]["seat_token"]
    body = {"token": setup["token"], "seat": 0}
    for header in (f"Bearer  {token}", f"bearer {token}", f"  Bearer {token}  "):
        resp = client.post(f"{ED}/view", json=body, headers={"Authorization": header})
        assert resp.status_code == 200, (header, resp.get_json())
    for header in (f"Bearer {'x' * 500}", "Bearer", "Basic abc", f"Token {token}"):
        resp = client.post(f"{ED}/view", json=body, headers={"Authorization": header})
        assert resp.status_code == 401, (header, resp.get_json())
        assert resp.get_json()["code"] == "credentials_missing"
        assert resp.headers["WWW-Authenticate"].startswith("Bearer")


def test_a_session_sealed_under_a_dropped_key_says_what_happened(redis_url: str) -> None:
    """A hosted client never holds a token to resend: a session the service can no
    longer open (its key was rotated out) is a session problem, with what to do."""
    from service import create_app

    from .conftest import KEY_B, checked, make_settings

    before = checked(create_app(make_settings(KEY_A, redis_url=redis_url))).test_client()
    made = before.post("/v1/element-draft/sessions", json={"players": 2}).get_json()
    after = checked(create_app(make_settings(KEY_B, redis_url=redis_url))).test_client()
    resp = after.get(f"/v1/element-draft/sessions/{made['session_id']}")
    assert resp.status_code == 410, resp.get_json()
    problem = resp.get_json()
    assert problem["code"] == "session_unreadable" and "Start a new one" in problem["detail"]
    assert "token" not in problem["detail"].lower()
