"""The hosted sessions' routes found without werkzeug's matcher.

Flask binds werkzeug's URL map to every request (``create_url_adapter``) and walks its
state machine (``MapAdapter.match``) to find the rule: about a tenth of the CPU of a
hosted move's request path outside the move. A session's routes
(``/v1/<slug>/sessions/<session_id>/moves`` and the like) are all static but for one
whole segment, so a dictionary finds them: :class:`QuickRoutes` answers the same rule
and arguments as the map for a path it knows, and nothing (the map decides) for any
other. It only knows a rule that no other rule of the map could match in its place,
and only a plain segment (letters, digits, ``-``, ``_``: every session id), whose
decoding cannot differ, in a plain HTTP request (no ``Upgrade``); anything else, an
``OPTIONS`` included, goes the usual way.

The adapter Flask keeps for the request (``url_for`` builds with it) is then
:class:`RoutedAdapter`: the match already made, and the map bound to the request on
first use, which a move never asks for.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from werkzeug.routing import Map, MapAdapter, Rule

_PLAIN = re.compile(r"[A-Za-z0-9_-]+").fullmatch
_DEFAULT_SEGMENT = "[^/]{1,}"  # werkzeug's default converter, one whole segment

Key = tuple[str, tuple[str, ...]]  # the method, the path's segments with "" for the argument
Found = tuple[Rule, dict[str, str]]


def _segments(rule: Rule) -> list[str]:
    return rule.rule.split("/")


def _shape(rule: Rule) -> tuple[int, str] | None:
    """Where a rule's only argument is (its segment's index) and its name, for a rule
    that is static but for that one whole segment, with the default converter and
    nothing else that matching would do differently (defaults, a redirect, a host, a
    rule only built)."""
    if len(rule.arguments) != 1 or rule.defaults or rule.redirect_to is not None:
        return None
    if rule.host or rule.subdomain or rule.websocket or rule.build_only or rule.rule.endswith("/"):
        return None
    (name,) = rule.arguments
    converter = rule._converters.get(name)
    if converter is None or type(converter).__name__ != "UnicodeConverter":
        return None
    if converter.regex != _DEFAULT_SEGMENT:
        return None
    parts = _segments(rule)
    dynamic = [i for i, part in enumerate(parts) if "<" in part]
    if len(dynamic) != 1 or parts[dynamic[0]] not in (f"<{name}>", f"<string:{name}>"):
        return None
    return dynamic[0], name


def _overlaps(rule: Rule, other: Rule) -> bool:
    """Whether ``other`` could match a path ``rule`` matches (conservatively: yes when
    unsure), for a method both have."""
    if other.methods is not None and rule.methods is not None and not other.methods & rule.methods:
        return False
    mine, theirs = _segments(rule), _segments(other)
    if any(not c.part_isolating for c in other._converters.values()):
        # a converter spanning segments: compare what comes before it
        head = other.rule.split("<", 1)[0]
        prefix = rule.rule.split("<", 1)[0]
        return head.startswith(prefix) or prefix.startswith(head)
    if len(mine) != len(theirs):
        return False
    return all(a == b or "<" in a or "<" in b for a, b in zip(mine, theirs, strict=True))


class QuickRoutes:
    """The map's rules of one dynamic segment, by method and static segments."""

    def __init__(self, table: Mapping[Key, tuple[Rule, int, str]]) -> None:
        self._table = dict(table)
        self._where = sorted({index for _, index, _ in self._table.values()})

    @classmethod
    def of(cls, rules: Iterable[Rule]) -> QuickRoutes:
        everything = list(rules)
        # an endpoint of several rules: werkzeug may redirect from one to another
        endpoints = Counter(rule.endpoint for rule in everything)
        table: dict[Key, tuple[Rule, int, str]] = {}
        for rule in everything:
            shape = _shape(rule)
            if shape is None or rule.methods is None or endpoints[rule.endpoint] > 1:
                continue
            if any(o is not rule and _overlaps(rule, o) for o in everything):
                continue
            index, name = shape
            parts = _segments(rule)
            parts[index] = ""
            for method in rule.methods - {"OPTIONS"}:
                table[(method, tuple(parts))] = (rule, index, name)
        return cls(table)

    def __len__(self) -> int:
        return len(self._table)

    def find(self, method: str, path: str) -> Found | None:
        """The rule and arguments the map would match for ``method`` and ``path`` (a
        WSGI ``PATH_INFO``), or None: ask the map."""
        parts = path.split("/")
        for index in self._where:
            if index >= len(parts):
                continue
            value = parts[index]
            if not _PLAIN(value):
                continue
            parts[index] = ""
            got = self._table.get((method, tuple(parts)))
            parts[index] = value
            if got is not None:
                rule, _, name = got
                return rule, {name: value}
        return None


class RoutedAdapter:
    """Flask's URL adapter for a request whose rule :class:`QuickRoutes` found: its
    ``match`` answers that rule, and anything else (``build`` for ``url_for``) goes to
    the map bound to the request, made on first use."""

    def __init__(self, found: Found, bind: Callable[[], MapAdapter | None]) -> None:
        self._found = found
        self._bind = bind
        self._bound: MapAdapter | None = None

    def match(self, *args: Any, **kwargs: Any) -> Any:
        if not args and kwargs == {"return_rule": True}:
            rule, values = self._found
            return rule, dict(values)
        return self._adapter.match(*args, **kwargs)

    @property
    def _adapter(self) -> MapAdapter:
        if self._bound is None:
            self._bound = self._bind()
        assert self._bound is not None
        return self._bound

    def __getattr__(self, name: str) -> Any:
        return getattr(self._adapter, name)


def plain_request(environ: Mapping[str, Any]) -> bool:
    """Whether the map would match this request as a plain HTTP one: not a WebSocket
    upgrade (werkzeug matches those only to WebSocket rules), an http(s) scheme."""
    return "HTTP_UPGRADE" not in environ and environ.get("wsgi.url_scheme") in ("http", "https")


def routable(url_map: Map, config: Mapping[str, Any], subdomains: bool) -> bool:
    """Whether a rule found by path alone is the rule the bound map would find: no
    server name or trusted hosts to check the host against, no host or subdomain
    matching."""
    return (
        config.get("SERVER_NAME") is None
        and config.get("TRUSTED_HOSTS") is None
        and not url_map.host_matching
        and not subdomains
    )
