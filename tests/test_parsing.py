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
