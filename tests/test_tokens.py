"""Sealed state tokens and seat tokens (DESIGN.md, 'The HTTP API')."""

from __future__ import annotations

import base64
import hashlib
import hmac
import zlib
from dataclasses import fields, replace

import orjson
import pytest
from cryptography.fernet import Fernet
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV
from flask.testing import FlaskClient

from rules.records import Log, Step
from service import create_app
from service.games import tokens
from service.games.tokens import Envelope, Marks, Recent, Sealer
from service.http.problems import Problem

from .conftest import KEY_A, KEY_B, auth, checked, make_settings

ENV = Envelope("element-draft", 1, "abc123", 3, {"players": 2, "secret": [1, 2, 3]})


def test_round_trip() -> None:
    sealer = Sealer((KEY_A,))
    token = sealer.seal(ENV)
    assert sealer.open(token, slug="element-draft", rules_version=1) == ENV
    assert "secret" not in token and "players" not in token


def fernet_token(key: str, env: Envelope) -> str:
    """A state token as the service sealed it before issue 32 (Fernet)."""
    payload = {"f": 3, "g": env.slug, "r": env.rules_version, "id": env.game_id}
    payload |= {"v": env.version, "s": env.state, "b": [], "l": None}
    return Fernet(key).encrypt(zlib.compress(orjson.dumps(payload), 1)).decode()


def test_tokens_are_sealed_with_aes_gcm_siv_and_fernet_tokens_still_open() -> None:
    sealer = Sealer((KEY_A,))
    token = sealer.seal(ENV)
    assert base64.urlsafe_b64decode(token)[:1] == tokens.AEAD_FORMAT
    assert sealer.seal(ENV) != token  # a nonce of its own
    old = fernet_token(KEY_A, ENV)
    assert old.startswith("gAAAAA")
    for s in (Sealer((KEY_A,)), Sealer((KEY_B, KEY_A))):
        assert s.open(old, slug="element-draft", rules_version=1) == ENV
        assert s.open(token, slug="element-draft", rules_version=1) == ENV
    for s in (Sealer((KEY_B,)), Sealer((KEY_B, KEY_B))):
        for foreign in (old, token):
            with pytest.raises(Problem) as err:
                s.open(foreign, slug="element-draft", rules_version=1)
            assert err.value.code == "token_invalid"


def test_a_hosted_state_is_sealed_in_stored_blocks_that_every_sealer_opens() -> None:
    """``compressed=False`` (a hosted session's state, kept in Redis only) changes the
    zlib level, not the format: any sealer of any release opens it, Fernet's too."""
    aead, fernet = Sealer((KEY_A,)), Sealer((KEY_A,), seal="fernet")
    plain = aead.seal(ENV, compressed=False)
    raw = base64.urlsafe_b64decode(plain)
    inner = AESGCMSIV(
        hmac.new(base64.urlsafe_b64decode(KEY_A), b"state-aead-v1", hashlib.sha256).digest()
    ).decrypt(raw[1:13], raw[13:], tokens.AEAD_FORMAT)
    assert inner[2] & 0b110 == 0  # a stored block (BTYPE 00): the JSON as it is
    assert b'"secret":[1,2,3]' in inner
    before = Fernet(KEY_A).decrypt(fernet.seal(ENV, compressed=False).encode())
    assert zlib.decompress(before) == zlib.decompress(inner)  # what an older release opens
    for token in (plain, fernet.seal(ENV, compressed=False)):
        for s in (Sealer((KEY_A,)), Sealer((KEY_B, KEY_A), seal="fernet")):
            assert s.open(token, slug="element-draft", rules_version=1) == ENV


def test_state_seal_fernet_seals_as_before_and_opens_both() -> None:
    """A rolling upgrade: instances that still run the older version open only Fernet,
    so the new version seals Fernet (STATE_SEAL=fernet) until every instance opens both."""
    during = Sealer((KEY_A,), seal="fernet")
    token = during.seal(ENV)
    assert token.startswith("gAAAAA")
    assert Fernet(KEY_A).decrypt(token.encode())  # what an older instance opens
    after = Sealer((KEY_A,)).seal(ENV)
    assert base64.urlsafe_b64decode(after)[:1] == tokens.AEAD_FORMAT
    for s in (during, Sealer((KEY_A,)), Sealer((KEY_B, KEY_A), seal="fernet")):
        for t in (token, after):
            assert s.open(t, slug="element-draft", rules_version=1) == ENV


def test_without_gcm_siv_tokens_are_sealed_with_fernet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "_aeads", lambda keys: None)
    sealer = Sealer((KEY_A,))
    token = sealer.seal(ENV)
    assert token.startswith("gAAAAA")
    assert Sealer((KEY_A,)).open(token, slug="element-draft", rules_version=1) == ENV
    monkeypatch.undo()
    assert Sealer((KEY_B, KEY_A)).open(token, slug="element-draft", rules_version=1) == ENV


def test_a_token_cut_to_its_header_is_refused() -> None:
    sealer = Sealer((KEY_A,))
    raw = base64.urlsafe_b64decode(sealer.seal(ENV))
    for cut in (raw[:1], raw[:5], raw[:13], raw[:20], raw[:-1]):
        with pytest.raises(Problem) as err:
            sealer.open(
                base64.urlsafe_b64encode(cut).decode(), slug="element-draft", rules_version=1
            )
        assert err.value.code == "token_invalid"


def test_a_session_saved_with_fernet_plays_on_after_the_upgrade(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session stored before issue 32 (Fernet) opens, takes its next move, and is
    stored again in the new format, under a rotated key set too."""
    monkeypatch.setattr(tokens, "_aeads", lambda keys: None)
    before = create_app(make_settings(KEY_A, redis_url=redis_url))
    made = checked(before).test_client().post("/v1/element-draft/sessions", json={"players": 2})
    made_body = made.get_json()
    sid, seat = made_body["session_id"], made_body["to_act"][0]
    stored = before.extensions["chemgames.store"].load(sid)[0].token
    assert stored.startswith("gAAAAA")
    monkeypatch.undo()
    after = create_app(make_settings(KEY_B, KEY_A, redis_url=redis_url))
    client = checked(after).test_client()
    headers = auth(made_body["seats"][seat]["seat_token"])
    base = f"/v1/element-draft/sessions/{sid}"
    legal = client.post(f"{base}/legal-moves", json={"seat": seat}, headers=headers)
    assert legal.status_code == 200, legal.get_json()
    move = {"seat": seat, "version": made_body["version"], "move": legal.get_json()["moves"][0]}
    moved = client.post(f"{base}/moves", json=move, headers=headers)
    assert moved.status_code == 200, moved.get_json()
    token = after.extensions["chemgames.store"].load(sid)[0].token
    assert base64.urlsafe_b64decode(token)[:1] == tokens.AEAD_FORMAT


def test_a_token_sealed_or_opened_here_opens_without_decrypting_again() -> None:
    sealer = Sealer((KEY_A,))
    token = sealer.seal(ENV)
    assert sealer.recent.get(token) is not None  # what it sealed, by the exact token
    other = Sealer((KEY_A,))
    assert other.recent.get(token) is None
    assert other.open(token, slug="element-draft", rules_version=1) == ENV
    assert other.recent.get(token) == sealer.recent.get(token)  # what it verified
    for s in (sealer, other):
        first = s.open(token, slug="element-draft", rules_version=1)
        first.state["secret"].append(4)  # every open builds a state of its own
        first.state["players"] = 3
        assert s.open(token, slug="element-draft", rules_version=1) == ENV


def test_a_remembered_token_is_checked_like_any_other() -> None:
    sealer = Sealer((KEY_A,))
    token = sealer.seal(ENV)
    for slug, rules_version, code in (
        ("polymer", 1, "token_wrong_game"),
        ("element-draft", 2, "token_version_unsupported"),
    ):
        with pytest.raises(Problem) as err:
            sealer.open(token, slug=slug, rules_version=rules_version)
        assert err.value.code == code
    for altered in (token[:-1], token + "A", token.replace("-", "+").replace("_", "/")):
        if altered != token:
            with pytest.raises(Problem) as err:
                sealer.open(altered, slug="element-draft", rules_version=1)
            assert err.value.code == "token_invalid"
            assert sealer.recent.get(altered) is None


def test_recent_tokens_are_bounded() -> None:
    recent = Recent(entries=3, size=1000)
    for i in range(5):
        recent.put(f"t{i}", b"x" * 10)
    assert len(recent) == 3 and recent.get("t1") is None and recent.get("t2") == b"x" * 10
    recent = Recent(entries=10, size=40)  # 12 bytes each (token and plaintext)
    for i in range(4):
        recent.put(f"t{i}", b"x" * 10)
    assert len(recent) == 3 and recent.get("t0") is None and recent.get("t3") is not None
    recent.put("huge", b"z" * 50)  # more than it ever holds: not kept, nothing forgotten
    assert recent.get("huge") is None and len(recent) == 3


def test_every_single_character_change_is_refused() -> None:
    sealer = Sealer((KEY_A,))
    token = sealer.seal(ENV)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_="
    refused = 0
    for i, ch in enumerate(token):
        for other in (alphabet[(alphabet.index(ch) + 1) % len(alphabet)], "!"):
            altered = token[:i] + other + token[i + 1 :]
            with pytest.raises(Problem) as err:
                sealer.open(altered, slug="element-draft", rules_version=1)
            assert err.value.status == 400
            refused += 1
    assert refused == 2 * len(token)


def test_other_spellings_of_the_same_token_are_refused() -> None:
    """Fernet alone would read all of these as the sealed token."""
    sealer = Sealer((KEY_A,))
    for env in (ENV, replace(ENV, game_id="abc1234"), replace(ENV, game_id="abc12345")):
        token = sealer.seal(env)
        assert sealer.open(token, slug="element-draft", rules_version=1) == env
        body = token.rstrip("=")
        pad = token[len(body) :]
        last = body[-1]
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        spare = alphabet[alphabet.index(last) + 1] if pad else None  # same bytes, Fernet
        spellings = [
            token.replace("-", "+").replace("_", "/"),
            token[:10] + "\n" + token[10:],
            token[:10] + " " + token[10:],
            *([body[:-1] + spare + pad] if spare else []),
        ]
        for altered in spellings:
            if altered == token:
                continue
            with pytest.raises(Problem) as err:
                sealer.open(altered, slug="element-draft", rules_version=1)
            assert err.value.code == "token_invalid", altered


def test_truncated_and_extended_tokens_are_refused() -> None:
    sealer = Sealer((KEY_A,))
    token = sealer.seal(ENV)
    for bad in (token[:-1], token + "A", token[1:], "", "not a token", "é" * 10):
        with pytest.raises(Problem) as err:
            sealer.open(bad, slug="element-draft", rules_version=1)
        assert err.value.code == "token_invalid"


def test_token_of_another_game_is_refused() -> None:
    sealer = Sealer((KEY_A,))
    token = sealer.seal(ENV)
    with pytest.raises(Problem) as err:
        sealer.open(token, slug="polymer", rules_version=1)
    assert err.value.code == "token_wrong_game"


def test_token_of_another_rules_version_is_refused() -> None:
    sealer = Sealer((KEY_A,))
    token = sealer.seal(ENV)
    with pytest.raises(Problem) as err:
        sealer.open(token, slug="element-draft", rules_version=2)
    assert err.value.code == "token_version_unsupported"


def test_key_rotation_accepts_old_key_while_configured() -> None:
    old = Sealer((KEY_A,))
    token = old.seal(ENV)
    rotated = Sealer((KEY_B, KEY_A))
    assert rotated.open(token, slug="element-draft", rules_version=1) == ENV
    # new tokens are sealed with the new key only
    fresh = rotated.seal(ENV)
    with pytest.raises(Problem):
        old.open(fresh, slug="element-draft", rules_version=1)
    # once the old key is dropped, its tokens are refused
    with pytest.raises(Problem) as err:
        Sealer((KEY_B,)).open(token, slug="element-draft", rules_version=1)
    assert err.value.code == "token_invalid"


def test_seat_tokens_rotate_with_the_keys() -> None:
    old = Sealer((KEY_A,))
    seat_token = old.seat_token("g1", 0)
    Sealer((KEY_B, KEY_A)).check_seat("g1", 0, seat_token)
    with pytest.raises(Problem):
        Sealer((KEY_B,)).check_seat("g1", 0, seat_token)


def test_seat_token_is_bound_to_game_and_seat() -> None:
    sealer = Sealer((KEY_A,))
    t0 = sealer.seat_token("g1", 0)
    sealer.check_seat("g1", 0, t0)
    for game_id, seat, token in [("g1", 1, t0), ("g2", 0, t0), ("g1", 0, t0[:-1]), ("g1", 0, None)]:
        with pytest.raises(Problem) as err:
            sealer.check_seat(game_id, seat, token)
        assert err.value.status == 403
    sealer.check_seat("g1", 5, sealer.host_token("g1"))  # the host acts for any seat


def test_remembered_credentials_are_bound_like_computed_ones() -> None:
    """Credentials are remembered (a session's moves check the same one), per key, game
    and seat; a long game id (any request may name one) is computed, never kept."""
    a, b = Sealer((KEY_A,)), Sealer((KEY_B,))
    assert a.seat_token("g1", 0) == a.seat_token("g1", 0) != b.seat_token("g1", 0)
    assert a.seat_token("g1", 0) != a.seat_token("g1", 1) != a.host_token("g1")
    with pytest.raises(Problem):
        b.check_seat("g1", 0, a.seat_token("g1", 0))  # remembered under KEY_A only
    long_id = "x" * (tokens.GAME_ID_MAX + 1)
    kept = tokens._remembered_mac.cache_info().currsize
    a.check_seat(long_id, 0, a.seat_token(long_id, 0))
    assert tokens._remembered_mac.cache_info().currsize == kept
    assert tokens._remembered_mac.cache_info().maxsize == tokens.SEAT_MACS


def test_http_single_byte_changes_are_all_4xx(client: FlaskClient) -> None:
    setup = client.post("/v1/element-draft/setup", json={"players": 2, "seed": 3}).get_json()
    token = setup["token"]
    statuses = set()
    for i in range(len(token)):
        altered = token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1 :]
        resp = client.post("/v1/element-draft/scores", json={"token": altered})
        statuses.add(resp.status_code)
        assert resp.mimetype == "application/problem+json"
    assert statuses == {400}


def test_token_from_other_key_set_is_foreign(client: FlaskClient) -> None:
    other = create_app(make_settings(KEY_B)).test_client()
    token = other.post("/v1/element-draft/setup", json={"players": 2}).get_json()["token"]
    resp = client.post("/v1/element-draft/scores", json={"token": token})
    assert resp.status_code == 400
    assert resp.get_json()["code"] == "token_invalid"


def test_seat_one_cannot_act_or_view_as_seat_two(client: FlaskClient) -> None:
    setup = client.post("/v1/element-draft/setup", json={"players": 3, "seed": 9}).get_json()
    token, seats = setup["token"], {s["seat"]: s["seat_token"] for s in setup["seats"]}
    ed = "/v1/element-draft"
    view = client.post(f"{ed}/view", json={"token": token, "seat": 2}, headers=auth(seats[1]))
    assert view.status_code == 403 and view.get_json()["code"] == "seat_token_invalid"
    own = client.post(
        f"{ed}/view", json={"token": token, "seat": 2}, headers=auth(seats[2])
    ).get_json()
    card = own["view"]["you"]["hand"][0]["z"]
    body = {"token": token, "seat": 2, "move": {"type": "draft", "card": card}}
    move = client.post(f"{ed}/moves", json=body, headers=auth(seats[1]))
    assert move.status_code == 403 and move.get_json()["code"] == "seat_token_invalid"
    for path in ("legal-moves", "bot-move"):
        resp = client.post(f"{ed}/{path}", json={"token": token, "seat": 2}, headers=auth(seats[1]))
        assert resp.status_code == 403, path
        resp = client.post(f"{ed}/{path}", json={"token": token, "seat": 2})
        assert resp.status_code == 401 and resp.get_json()["code"] == "credentials_missing"
        assert resp.headers["WWW-Authenticate"].startswith("Bearer")
    for bad in ("Basic abc", "Bearer", "bearer  ", f"Token {seats[2]}"):
        resp = client.post(
            f"{ed}/legal-moves", json={"token": token, "seat": 2}, headers={"Authorization": bad}
        )
        assert resp.status_code == 401, bad
    host = client.post(
        f"{ed}/legal-moves", json={"token": token, "seat": 2}, headers=auth(setup["host_token"])
    )
    assert host.status_code == 200, "the host acts for any seat"


def test_a_seat_token_in_the_body_is_refused_with_a_pointer_to_the_header(
    client: FlaskClient,
) -> None:
    setup = client.post("/v1/element-draft/setup", json={"players": 2, "seed": 9}).get_json()
    body = {"token": setup["token"], "seat": 0, "seat_token": setup["seats"][0]["seat_token"]}
    resp = client.post("/v1/element-draft/legal-moves", json=body)
    assert resp.status_code == 422 and "seat_token" in resp.get_json()["errors"]
    assert "Authorization: Bearer" in resp.get_json()["detail"]


def test_an_envelope_s_copies_keep_every_member() -> None:
    """``moved``, ``with_state``, ``with_marks``, ``step`` and ``without_steps`` build
    their copies member by member (cheaper than ``replace``): a member added to
    ``Envelope`` or ``Log`` must be passed on there too, then added here."""
    assert [f.name for f in fields(Envelope)] == [
        "slug", "rules_version", "game_id", "version", "state", "bots", "log", "marks",
    ]  # fmt: skip
    assert [f.name for f in fields(Log)] == ["players", "options", "seed", "bots", "kept"]
    step, later = Step(seat=1, move={"type": "draft", "card": 3}, at=9), Step(system="time_up")
    log = Log(2, {"words": ["bacon"]}, 7, {1: "greedy"}).add(step)
    env = Envelope(
        "element-draft", 3, "g1", 4, {"a": 1}, {1: "greedy"}, log, Marks((1, 4), ("", "d"))
    )
    assert env.moved({"b": 2}, later) == replace(
        env, state={"b": 2}, version=5, log=replace(log, kept=(*log.kept, later.compact()))
    )
    assert env.with_state({"c": 3}) == replace(env, state={"c": 3})
    assert env.with_marks(Marks((4, 4), ("x", "y"))) == replace(
        env, marks=Marks((4, 4), ("x", "y"))
    )
    assert env.step(later) == replace(env, log=replace(log, kept=(*log.kept, later.compact())))
    assert env.without_steps() == replace(env, log=replace(log, kept=()))
    bare = replace(env, log=None)
    assert bare.moved({"b": 2}, later) == replace(bare, state={"b": 2}, version=5)
    assert bare.step(later) is bare and bare.without_steps() is bare
