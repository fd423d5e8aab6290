"""Wire shapes: every JSON shape a game accepts or sends, declared once, in typed form.

A game declares its options, moves, view, scores, events and deck cards as
``TypedDict`` classes. Each member's type says its JSON shape and ``Annotated``
carries its facts (:class:`F`: description, range, example, default). From these
declarations come

- the pure validation of moves and setup options (:func:`parse`), with the rules'
  own codes (``bad_move``, ``bad_option``...), so a mistake gets the same code
  whichever layer sees it;
- the service's request schemas and the OpenAPI contract (``service/games/schemas``);
- the generic tests that check every real view, event and score against them.

The mapping from Python types to JSON shapes:

==========================  ==========================================
``int`` / ``float``         integer / number (``bool`` is neither)
``str`` / ``bool``          string / boolean
``Literal["a", "b"]``       one of these values (one value: a tag)
``X | None``                X or null
``list[X]``                 array of X
``dict[str, X]``            object whose every member is an X (a map)
a ``TypedDict``             object with exactly these members
                            (``NotRequired`` ones may be left out)
``A | B`` of TypedDicts     one of them, told apart by their ``type`` tag
==========================  ==========================================

>>> from typing import Annotated, Literal, TypedDict
>>> class Draft(TypedDict):
...     '''Select one card of your hand.'''
...     type: Literal["draft"]
...     card: Annotated[int, F("Atomic number.", minimum=1, maximum=118)]
>>> parse({"type": "draft", "card": 26}, Draft)
{'type': 'draft', 'card': 26}
>>> try:
...     parse({"type": "draft", "card": "Fe"}, Draft)
... except ShapeError as err:
...     err.errors
{'card': ['Not a valid integer: "Fe".']}
"""

from __future__ import annotations

import json
import math
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import (
    Annotated,
    Any,
    Literal,
    NoReturn,
    NotRequired,
    TypeVar,
    Union,
    get_args,
    get_origin,
    is_typeddict,
)

__all__ = [
    "Array",
    "CardId",
    "Count",
    "Enum",
    "F",
    "Map",
    "Member",
    "Node",
    "Nullable",
    "Obj",
    "OneOf",
    "Scalar",
    "Seat",
    "ShapeError",
    "parse",
    "shape",
    "tag_of",
    "type_text",
]


class _Missing:
    """No value given (distinct from ``None``, which is JSON's null)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


@dataclass(frozen=True, eq=False)  # compared by identity: examples may be lists
class F:
    """The facts about one member or type, carried in ``Annotated[T, F(...)]``.

    ``default`` is used when an optional member is left out (setup options, optional
    move fields); ``code`` is the rule code a bad value gets (``bad_deal`` for a
    deal), when it is not the default one (``bad_option`` / ``bad_move``).
    ``key_pattern`` constrains the keys of a map. ``name`` names an enum's or a map's
    declaration (``Annotated[Literal[...], F("A monomer.", name="Monomer")]``): the
    contract then defines it once, as a schema of its own (``<Game>Monomer``), that every
    member declared with it refers to. ``secret`` marks an option that fixes hidden cards.
    Several ``F`` merge, later ones overriding, so a shared alias can be refined where it
    is used:

    >>> F("A seat.", minimum=0) | F("The seat that moved.")
    F(description='The seat that moved.', minimum=0)
    """

    description: str = ""
    example: Any = MISSING
    default: Any = MISSING
    minimum: float | None = None
    maximum: float | None = None
    min_items: int | None = None
    max_items: int | None = None
    unique: bool = False
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    min_properties: int | None = None
    max_properties: int | None = None
    key_pattern: str | None = None
    format: str | None = None
    code: str | None = None
    name: str | None = None
    secret: bool = False
    """A setup option whose value fixes cards nobody may see yet (a custom deal): a
    game's record leaves it out until the game is over."""

    def __or__(self, other: F) -> F:
        changes = {
            f.name: getattr(other, f.name)
            for f in fields(other)
            if getattr(other, f.name) != f.default
            or (f.name in ("example", "default") and getattr(other, f.name) is not MISSING)
        }
        return replace(self, **changes)

    def __repr__(self) -> str:
        given = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if getattr(self, f.name) is not f.default and getattr(self, f.name) != f.default
        ]
        return f"F({', '.join(given)})"


NO_FACTS = F()

# Members that mean the same in every game, described once.
SAFE_INTEGER = 2**53 - 1
"""The largest whole number every JSON reader keeps exactly (JavaScript's numbers are
doubles): a declared integer without bounds of its own lies within +/- this, both in
the contract and when a value is checked."""

Seat = Annotated[int, F("A seat number: 0-based, clockwise.", minimum=0, maximum=63)]
Count = Annotated[int, F("How many.", minimum=0)]
CardId = Annotated[int, F("A card's id (identical copies of a face have different ids).")]


# ---------------------------------------------------------------- the shape tree ----
@dataclass(frozen=True)
class Node:
    """One JSON shape, with its facts."""

    facts: F = field(default=NO_FACTS, kw_only=True)

    def with_facts(self, more: F) -> Node:
        return replace(self, facts=self.facts | more)


@dataclass(frozen=True)
class Scalar(Node):
    """``integer``, ``number``, ``string`` or ``boolean``."""

    json: str = "string"


@dataclass(frozen=True)
class Enum(Node):
    """One of a few values (``Literal``); a single value is a tag.

    ``name`` and ``doc``: a named enum's name and description (``F(name=...)``), the
    facts it was named with; a member's own facts may add to them.
    """

    values: tuple[Any, ...] = ()
    name: str = ""
    doc: str = ""


@dataclass(frozen=True)
class Array(Node):
    item: Node = field(default_factory=Scalar)


@dataclass(frozen=True)
class Map(Node):
    """An object whose members, whatever their names, are all ``value``; ``name`` and
    ``doc`` as an :class:`Enum`'s."""

    value: Node = field(default_factory=Scalar)
    name: str = ""
    doc: str = ""


@dataclass(frozen=True)
class Member:
    name: str
    node: Node
    required: bool


@dataclass(frozen=True)
class Obj(Node):
    """A ``TypedDict``: exactly these members; ``name`` is the class's name."""

    name: str = ""
    doc: str = ""
    members: tuple[Member, ...] = ()
    origin: Any = None

    def member(self, name: str) -> Member:
        for m in self.members:
            if m.name == name:
                return m
        raise KeyError(name)

    @property
    def tag(self) -> Any:
        """The value of this object's ``type`` member, when it is a tag."""
        return tag_of(self)


@dataclass(frozen=True)
class OneOf(Node):
    """One of several shapes; tagged objects are told apart by their ``type``."""

    options: tuple[Node, ...] = ()

    @property
    def tagged(self) -> dict[Any, Obj]:
        """Tag value -> object, when every option is an object with a ``type`` tag."""
        out: dict[Any, Obj] = {}
        for option in self.options:
            tag = tag_of(option)
            if tag is MISSING or not isinstance(option, Obj):
                return {}
            out[tag] = option
        return out


@dataclass(frozen=True)
class Nullable(Node):
    inner: Node = field(default_factory=Scalar)


def tag_of(node: Node) -> Any:
    """The single value of an object's ``type`` member (``MISSING`` if it has none)."""
    if not isinstance(node, Obj):
        return MISSING
    for m in node.members:
        if m.name == "type" and isinstance(m.node, Enum) and len(m.node.values) == 1:
            return m.node.values[0]
    return MISSING


# ---------------------------------------------------------------- from types --------
_SCALARS: Mapping[Any, str] = {int: "integer", float: "number", str: "string", bool: "boolean"}


def shape(tp: Any) -> Node:
    """The shape a type declares (cached per type).

    >>> from typing import TypedDict, NotRequired
    >>> class Pile(TypedDict):
    ...     count: int
    ...     cards: list[int] | None
    ...     top: NotRequired[int]
    >>> node = shape(Pile)
    >>> [(m.name, type(m.node).__name__, m.required) for m in node.members]
    [('count', 'Scalar', True), ('cards', 'Nullable', True), ('top', 'Scalar', False)]
    """
    return _shape(tp, ())


def _shape(tp: Any, env: tuple[tuple[Any, Any], ...]) -> Node:
    return _cached(tp, env) if _hashable(tp) else _build(tp, env)


def _hashable(tp: Any) -> bool:
    try:
        hash(tp)
    except TypeError:
        return False
    return True


@cache
def _cached(tp: Any, env: tuple[tuple[Any, Any], ...]) -> Node:
    return _build(tp, env)


def _build(tp: Any, env: tuple[tuple[Any, Any], ...]) -> Node:
    if isinstance(tp, TypeVar):
        bound = dict(env).get(tp)
        if bound is None:
            raise TypeError(f"type variable {tp} is not bound here")
        return _shape(bound, ())
    origin = get_origin(tp)
    if origin is typing.Annotated:
        base, *extras = get_args(tp)
        node = _shape(base, env)
        for extra in extras:
            if isinstance(extra, F):
                node = node.with_facts(extra)
                if extra.name and isinstance(node, Enum | Map):
                    node = replace(node, name=extra.name, doc=extra.description)
        return node
    if tp in _SCALARS:
        return Scalar(json=_SCALARS[tp])
    if origin is Literal:
        return Enum(values=get_args(tp))
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        rest = [a for a in args if a is not type(None)]
        inner = (
            _shape(rest[0], env)
            if len(rest) == 1
            else OneOf(options=tuple(_shape(a, env) for a in rest))
        )
        if len(rest) < len(args):
            # facts of an Annotated alternative describe the member: keep them outside
            return Nullable(inner=replace(inner, facts=NO_FACTS), facts=inner.facts)
        return inner
    if origin is list:
        (item,) = get_args(tp)
        return Array(item=_shape(item, env))
    if origin is dict:
        key, value = get_args(tp)
        if key is not str:
            raise TypeError(f"a map's keys are strings in JSON, not {key}")
        return Map(value=_shape(value, env))
    if is_typeddict(tp) or (origin is not None and is_typeddict(origin)):
        return _object(tp, env)
    raise TypeError(f"{tp!r} has no JSON shape here")


def _object(tp: Any, env: tuple[tuple[Any, Any], ...]) -> Obj:
    """The object a ``TypedDict`` declares; ``env`` binds the type variables of the
    generic shapes around it, which its type arguments may name (``Pile[C]`` inside a
    ``SeatView[C]``: see :mod:`rules.draw_discard_wire`)."""
    origin = get_origin(tp) or tp
    bound = dict(env)
    if origin is not tp:  # a generic TypedDict given its type arguments
        params = getattr(origin, "__parameters__", ())
        args = tuple(_substituted(arg, bound) for arg in get_args(tp))
        bound = {**bound, **dict(zip(params, args, strict=True))}
    inner_env = tuple(bound.items())
    # typing's names resolve even where the declaring module did not import them
    # (declarations made in doctests and functions)
    hints = typing.get_type_hints(origin, localns=_TYPING_NAMES, include_extras=True)
    required: frozenset[str] = origin.__required_keys__
    members = []
    for name, hint in hints.items():
        # with postponed annotations the class cannot see NotRequired[...] itself
        needed = _marked(hint)
        needed = name in required if needed is None else needed
        members.append(Member(name, _shape(_strip_required(hint), inner_env), needed))
    doc = _doc(origin)
    return Obj(
        name=origin.__name__,
        doc=doc,
        members=tuple(members),
        origin=origin,
        facts=F(description=doc),
    )


def _substituted(tp: Any, bound: Mapping[Any, Any]) -> Any:
    """``tp`` with the type variables that ``bound`` binds replaced (``Pile[C]`` inside a
    generic shape given ``C``)."""
    if isinstance(tp, TypeVar):
        return bound.get(tp, tp)
    params = getattr(tp, "__parameters__", ())
    return tp[tuple(bound.get(p, p) for p in params)] if params else tp


def _marked(hint: Any) -> bool | None:
    """True for ``Required[...]``, False for ``NotRequired[...]``, else None."""
    origin = get_origin(hint)
    if origin is typing.Annotated:
        return _marked(get_args(hint)[0])
    if origin is typing.Required:
        return True
    if origin is typing.NotRequired:
        return False
    return None


_TYPING_NAMES: Mapping[str, Any] = {
    "Annotated": Annotated,
    "Literal": Literal,
    "NotRequired": NotRequired,
    "Required": typing.Required,
    "F": F,
}


def _strip_required(hint: Any) -> Any:
    origin = get_origin(hint)
    if origin in (typing.Required, typing.NotRequired):
        return get_args(hint)[0]
    if origin is typing.Annotated:
        base, *extras = get_args(hint)
        stripped = _strip_required(base)
        if stripped is not base:
            return typing.Annotated[(stripped, *extras)]
    return hint


def _doc(cls: type) -> str:
    doc = cls.__doc__ or ""
    if doc.startswith(cls.__name__ + "("):  # the generated signature of a TypedDict
        return ""
    return " ".join(doc.split())


# ---------------------------------------------------------------- validation --------
class ShapeError(ValueError):
    """A value that does not have its declared shape.

    ``errors`` holds the messages per member, nested like the value (list items by
    index); ``unknown_tag`` says the failure is an unknown ``type`` tag at the top.
    """

    def __init__(
        self, errors: Any, *, unknown_tag: bool = False, known: tuple[Any, ...] = ()
    ) -> None:
        super().__init__(summary(errors))
        self.errors = errors
        self.unknown_tag = unknown_tag
        self.known = known


_PLAIN = re.compile(r"[a-z_][a-z0-9_]*")
"""A member name spelled as every declared member is (lower-case words): shown bare."""


def summary(errors: Any, limit: int = 6, root: str = "value") -> str:
    """The errors as one line: ``member: message; ...``.

    >>> summary({"card": ["Not a valid integer."], "cards": {1: ["Too big."]}})
    'card: Not a valid integer.; cards[1]: Too big.'

    A member whose name is not spelled as declared members are (a client may send any
    key: ``False``, ``it's``) is named as JSON spells it:

    >>> print(summary({"it's": ["Unknown field."], "False": {"c": ["Bad."]}}))
    "it's": Unknown field.; "False".c: Bad.
    """
    parts: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, sub in node.items():
                if isinstance(key, int):
                    step = f"[{key}]"
                else:
                    name = str(key) if _PLAIN.fullmatch(str(key)) else quote(str(key))
                    step = f".{name}" if path else name
                walk(sub, path + step)
        elif isinstance(node, list) and all(isinstance(m, str) for m in node):
            parts.append(f"{path or root}: {' '.join(node)}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{path}[{i}]")
        else:
            parts.append(f"{path or root}: {node}")

    walk(errors, "")
    return "; ".join(parts[:limit]) + ("; ..." if len(parts) > limit else "")


def parse(value: Any, tp: Any) -> Any:
    """``value`` checked against the declared type (or shape) ``tp``, with defaults
    filled in.

    Raises :class:`ShapeError` naming every bad member. The value is not changed;
    objects with defaults filled are new dicts. A nullable member's facts bind its
    value when it is not null:

    >>> limit = Annotated[int | None, F("Rounds.", minimum=1)]
    >>> parse(None, limit) is None
    True
    >>> try:
    ...     parse(0, limit)
    ... except ShapeError as err:
    ...     err.errors
    ['Must be greater than or equal to 1. Got 0.']
    """
    return checker(tp)(value)


Checker = Callable[[Any], Any]
_CHECKERS: dict[int, tuple[Any, Checker]] = {}


def checker(tp: Any) -> Checker:
    """The compiled check of a declared type or shape (built once: declarations live as
    long as the process, so they are remembered by identity, not hashed each time)."""
    known = _CHECKERS.get(id(tp))
    if known is not None and known[0] is tp:
        return known[1]
    node = tp if isinstance(tp, Node) else shape(tp)
    check = _checker(node)
    _CHECKERS[id(tp)] = (tp, check)
    return check


class _Bad(Exception):
    def __init__(self, errors: Any, unknown_tag: bool = False, known: tuple[Any, ...] = ()) -> None:
        self.errors = errors
        self.unknown_tag = unknown_tag
        self.known = known


def _checker(node: Node) -> Checker:
    check = _compile(node)

    def run(value: Any) -> Any:
        try:
            return check(value)
        except _Bad as bad:
            raise ShapeError(bad.errors, unknown_tag=bad.unknown_tag, known=bad.known) from None

    return run


@cache
def _compile(node: Node) -> Checker:
    facts = node.facts
    if isinstance(node, Nullable):
        # the member's facts (a range, a length...) bind its value when it is not null
        inner = _compile(node.inner.with_facts(facts))
        return lambda v: None if v is None else inner(v)
    if isinstance(node, Scalar):
        return _scalar(node.json, facts)
    if isinstance(node, Enum):
        return _enum(node.values)
    if isinstance(node, Array):
        return _array(_compile(node.item), facts)
    if isinstance(node, Map):
        return _map(_compile(node.value), facts)
    if isinstance(node, Obj):
        return _obj(node)
    if isinstance(node, OneOf):
        return _one_of(node)
    raise TypeError(f"cannot check {node!r}")


def _fail(message: str) -> NoReturn:
    raise _Bad([message])


def _scalar(kind: str, facts: F) -> Checker:
    lo, hi = facts.minimum, facts.maximum
    pattern = re.compile(facts.pattern) if facts.pattern else None

    def in_range(v: float) -> None:
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            _fail(f"{_range_text(lo, hi)} Got {v!r}.")

    if kind == "integer":

        def integer(v: Any) -> Any:
            if not isinstance(v, int) or isinstance(v, bool):
                _fail(f"Not a valid integer: {quote(v)}.")
            in_range(v)
            if not -SAFE_INTEGER <= v <= SAFE_INTEGER:
                _fail(f"Whole numbers here are at most {SAFE_INTEGER} in size. Got {v!r}.")
            return v

        return integer
    if kind == "number":

        def number(v: Any) -> Any:
            if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v):
                _fail(f"Not a valid number: {quote(v)}.")
            in_range(v)
            return v

        return number
    if kind == "boolean":

        def boolean(v: Any) -> Any:
            if not isinstance(v, bool):
                _fail(f"Not a valid boolean (true or false): {quote(v)}.")
            return v

        return boolean

    def string(v: Any) -> Any:
        if not isinstance(v, str):
            _fail(f"Not a valid string: {quote(v)}.")
        _length(len(v), facts.min_length, facts.max_length, "Length")
        if pattern is not None and not pattern.fullmatch(v):
            _fail(f"Does not match the pattern {facts.pattern}.")
        return v

    return string


def quote(value: Any, limit: int = 40) -> str:
    """A value as the student sent it, in JSON (never a Python spelling such as
    ``None`` or ``{'a': 1}``), cut short.

    >>> quote("H"), quote(None), quote([True, {"a": 1.5}]), quote(list(range(30)))
    ('"H"', 'null', '[true, {"a": 1.5}]', '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11...')
    """
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):  # not a JSON value (a caller's own object)
        text = json.dumps(str(value), ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _range_text(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"Must be greater than or equal to {lo:g} and less than or equal to {hi:g}."
    if lo is not None:
        return f"Must be greater than or equal to {lo:g}."
    return f"Must be less than or equal to {hi:g}."


def _length(n: int, lo: int | None, hi: int | None, what: str) -> None:
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        if lo is not None and lo == hi:
            _fail(f"{what} must be {lo}.")
        if lo is not None and hi is not None:
            _fail(f"{what} must be between {lo} and {hi}.")
        elif lo is not None:
            _fail(f"{what} must be at least {lo}.")
        else:
            _fail(f"{what} must be at most {hi}.")


def _enum(values: tuple[Any, ...]) -> Checker:
    allowed = {(type(v), v) for v in values}
    text = ", ".join(repr(v) for v in values)

    def one_of(v: Any) -> Any:
        try:
            ok = (type(v), v) in allowed
        except TypeError:  # an unhashable value (a list or an object)
            ok = False
        if not ok:
            _fail(f"Must be one of: {text}; got {quote(v)}.")
        return v

    return one_of


def _array(item: Checker, facts: F) -> Checker:
    def array(v: Any) -> Any:
        if not isinstance(v, list):
            _fail("Not a valid list.")
        _length(len(v), facts.min_items, facts.max_items, "Length")
        errors: dict[int, Any] = {}
        out = []
        for i, x in enumerate(v):
            try:
                out.append(item(x))
            except _Bad as bad:
                errors[i] = bad.errors
        if errors:
            raise _Bad(errors)
        if facts.unique and len({_frozen(x) for x in out}) != len(out):
            _fail("Items must be unique.")
        return out

    return array


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(x) for x in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(x)) for k, x in value.items()))
    return (type(value), value)


def _map(value: Checker, facts: F) -> Checker:
    keys = re.compile(facts.key_pattern) if facts.key_pattern else None

    def mapping(v: Any) -> Any:
        if not isinstance(v, dict):
            _fail("Not a valid mapping.")
        _length(len(v), facts.min_properties, facts.max_properties, "Number of members")
        errors: dict[str, Any] = {}
        out = {}
        for k, x in v.items():
            if not isinstance(k, str) or (keys is not None and not keys.fullmatch(k)):
                errors[str(k)] = [f"Not a valid key (pattern {facts.key_pattern})."]
                continue
            try:
                out[k] = value(x)
            except _Bad as bad:
                errors[k] = bad.errors
        if errors:
            raise _Bad(errors)
        return out

    return mapping


def _obj(node: Obj) -> Checker:
    members = [(m.name, m.required, m.node.facts.default, _compile(m.node)) for m in node.members]
    names = {m.name for m in node.members}

    def obj(v: Any) -> Any:
        if not isinstance(v, dict):
            _fail("Not a valid object.")
        errors: dict[str, Any] = {}
        for k in v:
            if k not in names:
                errors[str(k)] = ["Unknown field."]
        out: dict[str, Any] = {}
        for name, required, default, check in members:
            if name not in v:
                if required:
                    errors[name] = ["Missing data for required field."]
                elif default is not MISSING:
                    out[name] = _copy(default)
                continue
            try:
                out[name] = check(v[name])
            except _Bad as bad:
                errors[name] = bad.errors
        if errors:
            raise _Bad(errors)
        return out

    return obj


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(x) for x in value]
    if isinstance(value, dict):
        return {k: _copy(x) for k, x in value.items()}
    return value


def _one_of(node: OneOf) -> Checker:
    tagged = node.tagged
    if tagged:
        checks = {tag: _compile(obj) for tag, obj in tagged.items()}
        known = tuple(tagged)

        def by_tag(v: Any) -> Any:
            if not isinstance(v, dict):
                _fail("Not a valid object: an object with a `type` member.")
            tag = v.get("type", MISSING)
            try:
                check = checks.get(tag)
            except TypeError:  # an unhashable tag
                check = None
            if check is None:
                raise _Bad({"type": ["Unknown type."]}, unknown_tag=True, known=known)
            return check(v)

        return by_tag
    options = [_compile(o) for o in node.options]
    allowed = " or ".join(_json_kind(o) for o in node.options)

    def any_of(v: Any) -> Any:
        for check in options:
            try:
                return check(v)
            except _Bad:
                continue
        _fail(f"Not a valid {allowed}: {quote(v)}.")

    return any_of


def _json_kind(node: Node) -> str:
    """What a student is asked to send, in JSON's own words ("integer", "array"...)."""
    if isinstance(node, Scalar):
        return node.json
    if isinstance(node, Nullable):
        return f"{_json_kind(node.inner)} or null"
    if isinstance(node, Enum):
        return " or ".join(quote(v) for v in node.values)
    return "array" if isinstance(node, Array) else "object"


# ---------------------------------------------------------------- for people -------
def type_text(node: Node) -> str:
    """A short, readable name of a shape (the catalogue's option ``kind``).

    >>> type_text(shape(list[list[int]] | None))
    'list[list[int]] | null'
    """
    if isinstance(node, Nullable):
        return f"{type_text(node.inner)} | null"
    if isinstance(node, Scalar):
        return {"integer": "int", "number": "float", "string": "str", "boolean": "bool"}[node.json]
    if isinstance(node, Enum):
        return " | ".join(repr(v) for v in node.values)
    if isinstance(node, Array):
        return f"list[{type_text(node.item)}]"
    if isinstance(node, Map):
        return f"dict[str, {type_text(node.value)}]"
    if isinstance(node, Obj):
        return node.name
    if isinstance(node, OneOf):
        return " | ".join(type_text(o) for o in node.options)
    return "?"
