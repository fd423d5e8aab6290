"""Never a 500: arbitrary JSON in every field of every request the contract documents.

The request schemas are read from the OpenAPI document itself, so a new endpoint or
field is fuzzed without editing this file. Each example starts from a valid request
(a real token, seat credential, session and legal move) and replaces one field, or
one field of the move, with an arbitrary JSON value: nulls, booleans, huge integers,
floats, strings, and arrays and objects nested up to 1,100 levels.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.registry import GAMES
from rules.shapes import MISSING, Obj, shape
from service.http.problems import PROBLEM_JSON
from service.openapi_export import generate

from .conftest import auth

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**30, 0, -1, 63, 64])
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
deep = st.integers(30, 1100).map(lambda n: _nest(n))
values = json_values | deep


def _nest(levels: int) -> Any:
    value: Any = 1
    for i in range(levels):
        value = [value] if i % 2 else {"a": value}
    return value


PYTHON_SPELLING = re.compile(r"\b(?:None|True|False)\b|[\[{(]'|'[\]})]|': ")
"""How a Python repr shows in a message (``None``, ``['a']``, ``{'a': 1}``): a student
sent JSON and is answered in JSON's words (``null``, ``["a"]``)."""
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*(?:"|$)')
"""A JSON string in a message (what was sent, quoted: it may say anything); one cut
short runs to the end."""


def messages(problem: Any) -> list[str]:
    """The problem's detail and every message in its ``errors``."""
    found = [problem.get("detail", "")]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for sub in node.values():
                walk(sub)
        elif isinstance(node, list):
            found.extend(m for m in node if isinstance(m, str))

    walk(problem.get("errors"))
    return found


def assert_problem_or_ok(resp: Any) -> None:
    """Never a 500; a refusal is a problem with a code, whose messages show what was sent
    in JSON's spelling (the contract check of every answer covers its members)."""
    assert resp.status_code < 500, resp.get_data(as_text=True)[:400]
    if resp.status_code >= 400:
        problem = resp.get_json()
        assert resp.mimetype == PROBLEM_JSON and problem["code"]
        for message in messages(problem):
            bare = JSON_STRING.sub('""', message)  # what a student sent, quoted, may say None
            assert not PYTHON_SPELLING.search(bare), (problem["code"], message)


def _resolve(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = spec["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


class Request:
    """A valid request to one documented operation, whose fields can be spoiled."""

    def __init__(self, path: str, url: str, body: dict[str, Any], token: str | None) -> None:
        self.path, self.url, self.body, self.token = path, url, body, token

    def post(self, client: FlaskClient, body: Any) -> Any:
        headers = auth(self.token) if self.token else {}
        return client.post(self.url, json=body, headers=headers)


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return generate()


@pytest.fixture(scope="module")
def requests(app: Flask, spec: dict[str, Any]) -> list[Request]:
    """A valid request for every POST operation of every game, from real games."""
    c = app.test_client()
    out: list[Request] = []
    for slug, game in GAMES.items():
        players = game.info.min_players
        base = f"/v1/{slug}"
        made = c.post(f"{base}/sessions", json={"players": players, "seed": 1}).get_json()
        sid, seat_tokens = made["session_id"], [s["seat_token"] for s in made["seats"]]
        surl = f"{base}/sessions/{sid}"
        for extra in game.extras:  # the host's own commands first (a clock's start)
            if extra.by == "host":
                c.post(f"{surl}/{extra.name}", headers=auth(made["host_token"]))
        view = c.get(f"{surl}?seat=0", headers=auth(seat_tokens[0])).get_json()
        seat = view["to_act"][0] if view["to_act"] else 0
        legal = c.post(f"{surl}/legal-moves", json={"seat": seat}, headers=auth(seat_tokens[seat]))
        move = (legal.get_json()["moves"] or [{"type": "x"}])[0]
        version = view["version"]
        session = {"seat": seat, "version": version}
        tok = seat_tokens[seat]
        out += [
            Request(f"{base}/sessions", f"{base}/sessions", {"players": players}, None),
            Request(f"{base}/sessions/{{session_id}}/moves", f"{surl}/moves",
                    {**session, "move": move}, tok),
            Request(f"{base}/sessions/{{session_id}}/bot-move", f"{surl}/bot-move", session, tok),
            Request(f"{base}/sessions/{{session_id}}/legal-moves", f"{surl}/legal-moves",
                    {"seat": seat}, tok),
        ]  # fmt: skip
        record = c.get(f"{surl}/record", headers=auth(made["host_token"])).get_json()["record"]
        out.append(Request(f"{base}/replay", f"{base}/replay", record, None))
        for extra in game.extras:  # a seat's own operations, with the declared examples
            if extra.request is not None:
                body = {**declared_example(extra.request), "seat": seat}
                out.append(
                    Request(f"{base}/sessions/{{session_id}}/{extra.name}",
                            f"{surl}/{extra.name}", body, tok)
                )  # fmt: skip
        if game.clock is not None:  # played only as a hosted session
            continue
        setup = c.post(f"{base}/setup", json={"players": players, "seed": 1}).get_json()
        token, seat_tokens = setup["token"], [s["seat_token"] for s in setup["seats"]]
        stateful = {"token": token, "seat": seat}
        tok = seat_tokens[seat]
        out += [
            Request(f"{base}/setup", f"{base}/setup", {"players": players, "seed": 1}, None),
            Request(f"{base}/moves", f"{base}/moves", {**stateful, "move": move}, tok),
            Request(f"{base}/bot-move", f"{base}/bot-move", stateful, tok),
            Request(f"{base}/legal-moves", f"{base}/legal-moves", stateful, tok),
            Request(f"{base}/view", f"{base}/view", stateful, tok),
            Request(f"{base}/scores", f"{base}/scores", {"token": token}, None),
            Request(f"{base}/record", f"{base}/record", {"token": token}, setup["host_token"]),
        ]
    # an LTI platform's registration: its body is read before the operator key is asked
    # for (this app has no operator keys: every request ends in a problem, after parsing)
    platform = {
        "issuer": "https://lms.school.example",
        "client_id": "tool-1",
        "deployment_ids": ["1"],
        "auth_login_url": "https://lms.school.example/auth",
        "auth_token_url": "https://lms.school.example/token",
        "jwks_url": "https://lms.school.example/jwks",
        "name": "School LMS",
    }
    lti = "/v1/operator/lti/platforms"
    out.append(Request(lti, lti, platform, "not-an-operator-key"))
    # a lesson (this app has no operator keys: anyone may make one) and a student's join
    lesson = {"game": "element-draft", "table_size": 3, "max_students": 6}
    made = c.post("/v1/lessons", json=lesson).get_json()
    out += [
        Request("/v1/lessons", "/v1/lessons", lesson, None),
        Request("/v1/join", "/v1/join", {"code": made["code"], "name": "Ada"}, None),
    ]
    documented = {
        path for path, item in spec["paths"].items() if "requestBody" in item.get("post", {})
    }
    assert documented == {r.path for r in out}, "a documented request is not fuzzed"
    return out


def declared_example(tp: type) -> dict[str, Any]:
    """A request made of the examples its declaration gives each member."""
    node = shape(tp)
    assert isinstance(node, Obj)
    return {
        m.name: m.node.facts.example for m in node.members if m.node.facts.example is not MISSING
    }


def _fields(spec: dict[str, Any], request: Request) -> list[str]:
    schema = spec["paths"][request.path]["post"]["requestBody"]["content"]["application/json"]
    return sorted(_resolve(spec, schema["schema"]).get("properties", {}))


def _move_fields(spec: dict[str, Any], request: Request, kind: str) -> list[str]:
    schema = spec["paths"][request.path]["post"]["requestBody"]["content"]["application/json"]
    move = _resolve(spec, schema["schema"])["properties"]["move"]
    ref = move.get("discriminator", {}).get("mapping", {}).get(kind)
    return sorted(_resolve(spec, {"$ref": ref})["properties"]) if ref else ["type"]


SETTINGS = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@SETTINGS
@given(data=st.data())
def test_any_value_in_any_field_of_any_request(
    client: FlaskClient, spec: dict[str, Any], requests: list[Request], data: st.DataObject
) -> None:
    request = data.draw(st.sampled_from(requests))
    name = data.draw(st.sampled_from([*_fields(spec, request), "unknown_member"]))
    if data.draw(st.booleans()):
        body = {**request.body, name: data.draw(values)}
    else:  # or leave the field out
        body = {k: v for k, v in request.body.items() if k != name}
    assert_problem_or_ok(request.post(client, body))


def places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside ``value`` (an item of a list, a member of an object) a value
    could be put at, by its path; a list also has a place after its last item."""
    out: list[tuple[Any, ...]] = []
    if isinstance(value, list):
        for i, item in enumerate(value):
            out += [(*path, i), *places(item, (*path, i))]
        out.append((*path, len(value)))
    elif isinstance(value, dict):
        for key, item in value.items():
            out += [(*path, key), *places(item, (*path, key))]
    return out


def put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """``value`` with ``new`` at ``path`` (a copy: the request's own body stays valid)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, list):
        items = list(value)
        if head == len(items):
            items.append(new)
        else:
            items[head] = put(items[head], rest, new)
        return items
    return {**value, head: put(value[head], rest, new) if head in value else new}


@SETTINGS
@given(data=st.data())
def test_any_value_deep_inside_any_field_of_any_request(
    client: FlaskClient, requests: list[Request], data: st.DataObject
) -> None:
    """Issue 27: Polymer's arrangement check took ``[[[null, null]]]`` (a list where a
    card was expected, two levels down) and answered a ``bad_card`` outside the
    contract, quoting ``[None, None]``. Any value at any depth of any nested field."""
    nested = [r for r in requests if any(places(v) for v in r.body.values())]
    request = data.draw(st.sampled_from(nested))
    name = data.draw(st.sampled_from(sorted(k for k, v in request.body.items() if places(v))))
    path = data.draw(st.sampled_from(places(request.body[name])))
    body = {**request.body, name: put(request.body[name], path, data.draw(values))}
    assert_problem_or_ok(request.post(client, body))


def test_a_card_where_a_card_id_or_code_was_expected_is_refused_in_json_words(
    client: FlaskClient, requests: list[Request]
) -> None:
    """The reproduction of issue 27 item 8, as it was reported."""
    (arrangement,) = [r for r in requests if r.url.endswith("/arrangement")]
    for patterns in ([[[None, None]]], [[None]], [[True, "QS"]], [[{"id": 3}]], [[1.5]]):
        answer = arrangement.post(client, {**arrangement.body, "patterns": patterns})
        assert answer.status_code == 422, answer.get_json()
        problem = answer.get_json()
        assert problem["code"] == "bad_patterns", problem
        assert "patterns[0][0]" in problem["detail"] and "details" not in problem
        assert_problem_or_ok(answer)
    unknown = arrangement.post(client, {**arrangement.body, "patterns": [["1S", "QS"]]})
    assert unknown.get_json()["code"] == "bad_card"
    assert unknown.get_json()["details"] == {"given": "1S"}
    assert '"1S" is not a card code' in unknown.get_json()["detail"]


@SETTINGS
@given(data=st.data())
def test_any_value_in_any_field_of_any_move(
    client: FlaskClient, spec: dict[str, Any], requests: list[Request], data: st.DataObject
) -> None:
    request = data.draw(st.sampled_from([r for r in requests if "move" in r.body]))
    move = request.body["move"]
    kind = data.draw(st.sampled_from([move["type"], "x"]))
    name = data.draw(st.sampled_from([*_move_fields(spec, request, kind), "extra"]))
    spoiled = {**move, "type": kind, name: data.draw(values)}
    assert_problem_or_ok(request.post(client, {**request.body, "move": spoiled}))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=values | st.dictionaries(st.text(max_size=8), values, max_size=5), which=st.integers())
def test_any_json_as_the_whole_body(
    client: FlaskClient, requests: list[Request], body: Any, which: int
) -> None:
    assert_problem_or_ok(requests[which % len(requests)].post(client, body))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(token=st.text(max_size=300), which=st.integers())
def test_any_credential(
    client: FlaskClient, requests: list[Request], token: str, which: int
) -> None:
    request = requests[which % len(requests)]
    try:
        header = {"Authorization": f"Bearer {token}"}
        resp = client.post(request.url, json=request.body, headers=header)
    except ValueError:  # not sendable as an HTTP header at all
        return
    assert_problem_or_ok(resp)
