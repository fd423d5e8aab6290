"""JSON Schema for the contract, derived from the rules' declarations (``rules.shapes``).

Every ``TypedDict`` a game declares becomes one named component. Game shapes are
named ``<Game><Declaration>`` (``ElementDraftView``, ``PolymerOfferMove``); the shapes
every game shares (``rules.wire``) keep their own names (``Outcome``). Objects are
closed (``additionalProperties: false``): an answer's members are exactly the
declared ones, so a declaration that forgets a member fails the tests that check
real answers.

What generated clients make of it decides a few forms:

- a named enum (``F(name=...)``) is one component, ``<Game><Name>``, that its members
  refer to; a nullable one is ``anyOf`` it and null, so generators make one type of it
  (a ``type: [string, null]`` enum became three classes in openapi-python-client);
- a tag (a one-value ``Literal``) is a ``const``: no enum class per tagged object;
- a member's default is stated in its description, not as ``default``: the members
  with one are those a client may leave out, and openapi-typescript makes a member
  with a ``default`` required (so a request leaving it out would not compile).

>>> from typing import Annotated, Literal, TypedDict
>>> from rules.shapes import F, shape
>>> class Draw(TypedDict):
...     '''Take the top card.'''
...     type: Literal["draw"]
...     count: Annotated[int, F("How many.", minimum=1)]
>>> book = Components()
>>> book.schema(shape(Draw), "Tiny")
{'$ref': '#/components/schemas/TinyDraw'}
>>> book.schemas["TinyDraw"]["properties"]["count"]
{'type': 'integer', 'description': 'How many.', 'minimum': 1}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from rules import shapes
from rules.shapes import MISSING, SAFE_INTEGER, F, Node

SHARED_MODULES = ("rules.wire", "rules.chemistry")
"""Shapes declared here are every game's (``Outcome``) or a deck's (``IonCard``): one
component each, named as declared. A generic one (``Pile[C]``) holds a game's own
shapes, so it is named after the game, as the game's own shapes are."""
REF = "#/components/schemas/"
NULL = {"type": "null"}
INTEGER = {"type": "integer", "minimum": -SAFE_INTEGER, "maximum": SAFE_INTEGER}
"""An integer with no bounds of its own: within what every JSON reader keeps exactly."""
ACTOR = {
    "type": ["integer", "null"],
    "minimum": 0,
    "maximum": 63,
    "description": "The seat whose move produced this event (a bot seat's too); null for "
    "the service's own events (setup, time-up).",
}


def pascal(slug: str) -> str:
    """``element-draft`` -> ``ElementDraft``."""
    return "".join(part.title() for part in slug.replace("_", "-").split("-"))


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


class Components:
    """Named schemas, built once each; a name given twice to different shapes is a bug."""

    def __init__(self) -> None:
        self.schemas: dict[str, dict[str, Any]] = {}
        self._origins: dict[str, Any] = {}

    # ------------------------------------------------------------------ naming -----
    def name(self, node: shapes.Obj, prefix: str) -> str:
        module = getattr(node.origin, "__module__", "")
        shared = any(module == m or module.startswith(m + ".") for m in SHARED_MODULES)
        generic = bool(getattr(node.origin, "__parameters__", ()))
        return node.name if shared and not generic else prefix + node.name

    def add(self, name: str, schema: dict[str, Any], origin: Any = None) -> dict[str, str]:
        """Register ``schema`` as ``name`` (the same twice is fine; another is a bug)."""
        known = self.schemas.get(name)
        if known is not None and known != schema:
            raise ValueError(f"two different shapes are both named {name!r}")
        self.schemas[name] = schema
        if origin is not None:
            self._origins.setdefault(name, origin)
        return ref(name)

    # ------------------------------------------------------------------ shapes -----
    def schema(self, node: Node, prefix: str) -> dict[str, Any]:
        """The schema of ``node``: a ``$ref`` for an object, inline otherwise."""
        if isinstance(node, shapes.Obj):
            return self.object(node, prefix)
        if isinstance(node, shapes.Nullable):
            return self._nullable(node, prefix)
        if isinstance(node, shapes.Enum) and node.name:
            return self.enum(node, prefix)
        if isinstance(node, shapes.Map) and node.name:
            return self.map(node, prefix)
        out = self._inline(node, prefix)
        return _with_facts(out, node.facts)

    def enum(self, node: shapes.Enum, prefix: str, *, name: str | None = None) -> dict[str, Any]:
        """A ``$ref`` to a named enum's component (with the member's own facts)."""
        name = name or prefix + (node.name or "")
        body: dict[str, Any] = {"type": _enum_type(node.values), "enum": list(node.values)}
        if node.doc:
            body["description"] = node.doc
        self.add(name, body)
        facts = node.facts
        if facts.description == node.doc:
            facts = replace(facts, description="")
        return _with_facts(ref(name), facts)

    def object(
        self,
        node: shapes.Obj,
        prefix: str,
        *,
        extra: Mapping[str, dict[str, Any]] | None = None,
        name: str | None = None,
    ) -> dict[str, Any]:
        """A ``$ref`` to the component of ``node`` (``extra`` members required too)."""
        name = name or self.name(node, prefix)
        if name in self.schemas and self._origins.get(name) is node.origin and not extra:
            member_facts = _member_facts(node)
            return {**ref(name), **member_facts}
        properties: dict[str, Any] = {}
        required: list[str] = []
        for member in node.members:
            properties[member.name] = self.schema(member.node, prefix)
            if member.required:
                required.append(member.name)
        for key, schema in (extra or {}).items():
            properties[key] = schema
            required.append(key)
        body: dict[str, Any] = {"type": "object"}
        if node.doc:
            body["description"] = node.doc
        body["properties"] = properties
        if required:
            body["required"] = sorted(required)
        body["additionalProperties"] = False
        self.add(name, body, node.origin)
        return {**ref(name), **_member_facts(node)}

    def map(self, node: shapes.Map, prefix: str) -> dict[str, Any]:
        """A ``$ref`` to a named map's component: the map's own facts (its size, its
        keys) are the component's, the member's description, example and default the
        member's."""
        own = replace(node.facts, description=node.doc, example=MISSING, default=MISSING)
        target = self.add(prefix + node.name, _with_facts(self._inline(node, prefix), own))
        member = _about_member(node.facts)
        if member.description == node.doc:
            member = replace(member, description="")
        return _with_facts(target, member)

    def named(self, name: str, node: Node, prefix: str) -> dict[str, Any]:
        """``node`` (not an object) as a component of its own, ``name``; a ``$ref`` to it."""
        if isinstance(node, shapes.Enum):
            return self.enum(node, prefix, name=name)
        return self.add(name, _with_facts(self._inline(node, prefix), node.facts))

    def _nullable(self, node: shapes.Nullable, prefix: str) -> dict[str, Any]:
        inner_node = node.inner
        if isinstance(inner_node, shapes.Enum | shapes.Map) and not inner_node.name:
            # an unnamed enum and null are three classes in openapi-python-client, a map
            # and null a class named ...Type0: a named one is one class
            raise TypeError(f"name the nullable {inner_node} (F(name=...))")
        if isinstance(inner_node, shapes.Map):
            # a map's own facts bind it when it is not null (rules.shapes.parse)
            target = self.map(replace(inner_node, facts=inner_node.facts | node.facts), prefix)
            return _with_facts(
                {"anyOf": [{"$ref": target["$ref"]}, NULL]}, _about_member(node.facts)
            )
        inner = self.schema(inner_node, prefix)
        out: dict[str, Any]
        if "$ref" in inner or "oneOf" in inner or "anyOf" in inner:
            out = {"anyOf": [inner, NULL]}
        else:
            out = dict(inner)
            kind: str | list[str] = out["type"]
            out["type"] = [kind, "null"] if isinstance(kind, str) else [*kind, "null"]
        return _with_facts(out, node.facts)

    def _inline(self, node: Node, prefix: str) -> dict[str, Any]:
        if isinstance(node, shapes.Scalar):
            if node.json == "integer":  # bounds of its own replace these (_with_facts)
                return dict(INTEGER)
            return {"type": node.json}
        if isinstance(node, shapes.Enum):
            if len(node.values) == 1:  # a tag
                return {"type": _enum_type(node.values), "const": node.values[0]}
            return {"type": _enum_type(node.values), "enum": list(node.values)}
        if isinstance(node, shapes.Array):
            return {"type": "array", "items": self.schema(node.item, prefix)}
        if isinstance(node, shapes.Map):
            return {"type": "object", "additionalProperties": self.schema(node.value, prefix)}
        if isinstance(node, shapes.OneOf):
            return self.one_of(node.options, prefix)
        raise TypeError(f"no schema for {node!r}")

    def one_of(
        self,
        options: Iterable[Node],
        prefix: str,
        *,
        extra: Mapping[str, dict[str, Any]] | None = None,
        also: Mapping[Any, dict[str, str]] | None = None,
    ) -> dict[str, Any]:
        """``oneOf`` the options; tagged objects get a ``type`` discriminator.

        ``extra`` members are added to every tagged object (an event's ``actor``);
        ``also`` adds further tagged components by reference (the service's own events).
        """
        options = list(options)
        tagged = shapes.OneOf(options=tuple(options)).tagged
        if not tagged:
            return {"oneOf": [self.schema(o, prefix) for o in options]}
        refs = {tag: self.object(obj, prefix, extra=extra) for tag, obj in tagged.items()}
        refs = {tag: {"$ref": r["$ref"]} for tag, r in refs.items()}
        refs.update(also or {})
        order = sorted(refs, key=str)
        return {
            "oneOf": [refs[t] for t in order],
            "discriminator": {
                "propertyName": "type",
                "mapping": {str(t): refs[t]["$ref"] for t in order},
            },
        }


def _about_member(facts: F) -> F:
    """The facts about a member, not its shape: its description, example and default."""
    return F(description=facts.description, example=facts.example, default=facts.default)


def _member_facts(node: shapes.Obj) -> dict[str, Any]:
    """A member's own description where it refers to an object (not the object's doc)."""
    text = node.facts.description
    return {"description": text} if text and text != node.doc else {}


def _enum_type(values: Iterable[Any]) -> str | list[str]:
    kinds = []
    for v in values:
        kind = (
            "boolean"
            if isinstance(v, bool)
            else "integer"
            if isinstance(v, int)
            else "number"
            if isinstance(v, float)
            else "string"
        )
        if kind not in kinds:
            kinds.append(kind)
    return kinds[0] if len(kinds) == 1 else kinds


_KEYWORDS = (
    ("description", "description"),
    ("minimum", "minimum"),
    ("maximum", "maximum"),
    ("min_items", "minItems"),
    ("max_items", "maxItems"),
    ("min_length", "minLength"),
    ("max_length", "maxLength"),
    ("pattern", "pattern"),
    ("min_properties", "minProperties"),
    ("max_properties", "maxProperties"),
    ("format", "format"),
)


def with_default(description: str, default: Any) -> str:
    """``description`` saying what a member left out is taken to be.

    >>> with_default("Rounds to play.", None)
    'Rounds to play. Default: `null`.'
    """
    text = json.dumps(default, ensure_ascii=False)
    return f"{description} Default: `{text}`.".strip()


def _with_facts(schema: dict[str, Any], facts: shapes.F) -> dict[str, Any]:
    out = dict(schema)
    for attr, keyword in _KEYWORDS:
        value = getattr(facts, attr)
        if value is not None and value != "":
            out[keyword] = int(value) if isinstance(value, float) and value.is_integer() else value
    if facts.unique:
        out["uniqueItems"] = True
    if facts.key_pattern:
        out["propertyNames"] = {"pattern": facts.key_pattern}
    if facts.default is not MISSING:
        out["description"] = with_default(out.get("description", ""), facts.default)
    if facts.example is not MISSING:
        out["example"] = facts.example
    return out
