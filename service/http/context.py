"""This request's app without ``current_app``'s per-attribute look-up.

``current_app.extensions`` goes through werkzeug's proxy (a descriptor, a context
variable, a bound call) at every use: about 2.5 us, against 0.3 us for the object the
proxy stands for. Outside an app context both raise the same RuntimeError.
"""

from __future__ import annotations

from typing import Any, cast

from flask import Flask, current_app

_proxy = cast(Any, current_app)


def app() -> Flask:
    """The app ``current_app`` names in this context."""
    return cast(Flask, _proxy._get_current_object())


def extension(name: str) -> Any:
    """``current_app.extensions[name]``."""
    return _proxy._get_current_object().extensions[name]


def find_extension(name: str) -> Any:
    """``current_app.extensions.get(name)``."""
    return _proxy._get_current_object().extensions.get(name)
