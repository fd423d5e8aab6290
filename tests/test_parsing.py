"""The quick load of a request body (service/http/parsing.py ``quick_loader``) answers
exactly as marshmallow's ``Schema.load``: the same value, or the same error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.api.operations import OPERATIONS, Hosted, Mode, Stateless, _request_schema
from service.api.operations import extra_operation as extra
from service.games.registry import game_apis
from service.http.parsing import quick_loader
from service.http.problems import Problem


def outcome(load: Callable[[Any], Any], body: Any) -> tuple[Any, ...]:
    try:
        return ("loaded", load(body))
    except ma.ValidationError as error:
        return ("invalid", error.messages, error.valid_data)
    except Problem as problem:
        return ("problem", problem.code, problem.detail, problem.extensions)


def request_schemas() -> list[ma.Schema]:
    out = []
    for api in game_apis().values():
        modes: list[Mode] = [Stateless(api), Hosted(api)] if api.stateless else [Hosted(api)]
        for mode in modes:
            for op in (*OPERATIONS, *(extra(e) for e in api.game.extras)):
                made = _request_schema(mode, op)
                if made is not None:
                    out.append(made())
    return out


SCHEMAS = request_schemas()
SCALARS = st.none() | st.booleans() | st.integers(-3, 70) | st.text(max_size=4)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
MOVES = st.fixed_dictionaries(
    {"type": st.sampled_from(["draft", "play", "pass", "x"]), "card": st.integers(0, 40)}
)


def bodies(schema: ma.Schema) -> st.SearchStrategy[Any]:
    """Mostly objects whose members are the schema's, often with values it accepts."""

    def value(field: ma.fields.Field[Any]) -> st.SearchStrategy[Any]:
        if isinstance(field, ma.fields.Integer):
            return st.integers(-1, 70) | VALUES
        return MOVES | VALUES

    members = {name: value(field) for name, field in schema.fields.items()}
    odd = {"extra": VALUES, "seat_token": st.text(max_size=3)}
    required = st.fixed_dictionaries(
        {name: members[name] for name, field in schema.fields.items() if field.required},
        optional={
            name: members[name] for name, field in schema.fields.items() if not field.required
        },
    )
    return required | st.fixed_dictionaries({}, optional={**members, **odd}) | VALUES


def test_every_operation_has_a_body_schema_here() -> None:
    assert len(SCHEMAS) > 20


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: type(s).__name__)
@given(data=st.data())
def test_quick_load_is_schema_load(schema: ma.Schema, data: st.DataObject) -> None:
    body = data.draw(bodies(schema))
    assert outcome(quick_loader(schema), body) == outcome(schema.load, body)


def test_a_valid_move_takes_the_quick_path(monkeypatch: pytest.MonkeyPatch) -> None:
    (schema,) = [s for s in SCHEMAS if type(s).__name__ == "ElementDraftSessionMoveRequest"]
    quick = quick_loader(schema)
    body = {"seat": 1, "version": 3, "move": {"type": "draft", "card": 1}}
    expected = schema.load(body)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("Schema.load was called")

    monkeypatch.setattr(schema, "load", refuse)
    assert quick(body) == expected == {"seat": 1, "version": 3, "move": expected["move"]}
    with pytest.raises(AssertionError):  # an unknown member: marshmallow says which
        quick({**body, "extra": 1})


class Hooked(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    n = ma.fields.Integer(required=True, data_key="N")
    m = ma.fields.String(attribute="inner.m")

    @ma.post_load
    def double(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        data["n"] *= 2
        return data


class Renamed(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    n = ma.fields.Integer(required=True, data_key="N", validate=ma.validate.Range(0, 9))
    m = ma.fields.String(attribute="em", load_default="none")


@pytest.mark.parametrize(
    "body", [{"N": 2}, {"N": 2, "m": "x"}, {"n": 2}, {"N": 20}, {"N": "2", "m": 3}, [], None]
)
@pytest.mark.parametrize("schema", [Hooked(), Renamed(), Renamed(unknown=ma.EXCLUDE)])
def test_schemas_it_does_not_shortcut_load_as_ever(schema: ma.Schema, body: Any) -> None:
    assert outcome(quick_loader(schema), body) == outcome(schema.load, body)


# ------------------------------------------------ the body read from the server's stream ---
class _Stream:
    """A server's input stream: ``data`` in reads of at most ``most`` bytes, then
    ``fails`` raised (if set) instead of the end."""

    def __init__(self, data: bytes, most: int = 1 << 20, fails: Exception | None = None) -> None:
        self.data, self.most, self.fails, self.asked = data, most, fails, 0

    def read(self, size: int = -1) -> bytes:
        self.asked += 1
        if not self.data and self.fails is not None:
            raise self.fails
        n = min(self.most, len(self.data) if size < 0 else size)
        out, self.data = self.data[:n], self.data[n:]
        return out


def _werkzeugs_read(req: Any) -> bytes:
    """What JsonParser read before: werkzeug's get_data, then a read past the limit."""
    data: bytes = req.get_data(cache=True)
    limit = req.max_content_length
    if limit is not None and len(data) >= limit:
        req.stream.read(1)
    return data


BODIES: dict[str, tuple[bytes, int | None, dict[str, Any]]] = {
    "a move": (b'{"seat": 0, "version": 3}', 25, {}),
    "empty": (b"", 0, {}),
    "no length": (b'{"seat": 0}', None, {}),
    "declared over the limit": (b"x" * 10, 101, {}),
    "at the limit": (b"x" * 100, 100, {}),
    "one under": (b"x" * 99, 99, {}),
    "over, no length": (b"x" * 150, None, {}),
    "short of its length": (b"x" * 10, 50, {}),
    "in small reads": (b"y" * 80, 80, {"most": 7}),
    "a failing read": (b"x" * 10, None, {"fails": OSError("reset")}),
    "a bad value": (b"", 5, {"fails": ValueError("closed")}),
    "something else": (b"ab", None, {"fails": RuntimeError("other")}),
}


@pytest.mark.parametrize("terminated", [True, False])
@pytest.mark.parametrize("own_limit", [None, 60])
@pytest.mark.parametrize("name", sorted(BODIES))
def test_a_body_is_read_as_werkzeug_reads_it(
    name: str, own_limit: int | None, terminated: bool
) -> None:
    from flask import Flask

    from service.http.parsing import read_body

    data, length, kind = BODIES[name]
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = 100
    outcomes = []
    for read in (read_body, _werkzeugs_read):
        stream = _Stream(data, **kind)
        environ = {
            "REQUEST_METHOD": "POST",
            "wsgi.input": stream,
            "CONTENT_TYPE": "application/json",
        }
        if length is not None:
            environ["CONTENT_LENGTH"] = str(length)
        if terminated:
            environ["wsgi.input_terminated"] = True
        with app.test_request_context(environ_overrides=environ) as ctx:
            req = ctx.request
            if own_limit is not None:
                req.max_content_length = own_limit
            try:
                got: Any = read(req)
            except Exception as err:  # the outcome compared is the exception
                got = type(err)
            outcomes.append((got, getattr(req, "_cached_data", None), stream.asked, stream.data))
            if read is read_body and terminated:  # read here, not through werkzeug's stream
                assert "stream" not in req.__dict__
    assert outcomes[0] == outcomes[1]
