"""One OpenAPI document per process for every app built from the same sources.

Writing the document is most of building an app (flask-smorest and apispec copy every
operation's schemas and examples deeply), and a process builds many apps only in the
tests, each with settings of its own. No setting enters the document: it is written
from the app's configuration that flask-smorest reads (:data:`DOCUMENT_CONFIG`), the
games served and the code. So an app whose sources equal an earlier app's adopts that
app's document (:meth:`service.http.errors.ProblemApi.adopt`) instead of writing an
equal one; an app whose configuration changes the document writes its own.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

DOCUMENT_CONFIG = (
    "API_TITLE",
    "API_VERSION",
    "OPENAPI_VERSION",
    "API_SPEC_OPTIONS",
    "ETAG_DISABLED",
)
"""The configuration flask-smorest writes into the document (title, versions, the
spec's options) or reads while documenting an operation (ETag headers)."""


@dataclass(frozen=True, eq=False)
class Same:
    """An object as a key, compared by identity (a game's rules are not hashable).
    Holding it keeps it alive, so its identity is never another object's."""

    of: object

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.of is self.of

    def __hash__(self) -> int:
        return id(self.of)


@dataclass(frozen=True)
class Document:
    """A written document: flask-smorest's spec with the plugins that wrote it."""

    spec: Any
    ma_plugin: Any
    flask_plugin: Any


DOCUMENTS: dict[Hashable, Document] = {}
"""The documents this process wrote, by :func:`document_key`."""


def document_key(config: Mapping[str, Any], sources: Iterable[Hashable]) -> Hashable | None:
    """What a document is written from: ``config``'s :data:`DOCUMENT_CONFIG` and the
    ``sources`` the caller registers (its games). None when a value is not plain data
    (its equality would not prove an equal document): such an app writes its own."""
    try:
        said = tuple((name, _frozen(config.get(name))) for name in DOCUMENT_CONFIG)
    except TypeError:
        return None
    return (said, tuple(sources))


def _frozen(value: object) -> Hashable:
    """``value`` as a hashable key that tells every two different plain values apart
    (their types and the order of a mapping's members too: the document keeps it)."""
    if value is None or isinstance(value, str | int | float | bool):
        return (type(value).__name__, value)
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_frozen(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((_frozen(k), _frozen(v)) for k, v in value.items()))
    raise TypeError(f"not plain data: {type(value).__name__}")
