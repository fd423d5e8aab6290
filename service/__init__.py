"""HTTP service: app factory, blueprints, schemas, state tokens, Redis sessions."""

from .app import create_app

__all__ = ["create_app"]
