"""The app factory."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask_cors import CORS

from . import logs
from .api import ProblemApi
from .config import Settings
from .game_blueprint import make_blueprint
from .meta_blueprint import blp as catalogue_blp
from .meta_blueprint import health as health_blp
from .meta_blueprint import swagger_assets
from .polymer.blueprint import blp as polymer_blp
from .polymer.store import SessionStore
from .problems import Problem
from .registry import game_apis
from .tokens import Sealer

API_DESCRIPTION = """\
Rules of seven chemistry card games as a stateless HTTP service.

Every call carries the whole game as an opaque, sealed **state token**; the
service checks the move against the rules, applies it and returns the new token
with the view the calling seat may see. Acting or viewing as a seat needs that
seat's **seat token** (given once, at setup). Errors are RFC 9457
`application/problem+json` with a stable `code` (catalogue: `GET /v1/problems`).
"""


def create_app(settings: Settings | None = None, **overrides: Any) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask(__name__)
    app.config.update(
        API_TITLE="Chemistry card games rules service",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION},
            "servers": [{"url": "/", "description": "This service"}],
        },
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        JSON_SORT_KEYS=False,
        SETTINGS=settings,
    )
    app.config.update(overrides)
    logs.configure(settings.log_level)
    logs.install(app)
    CORS(
        app,
        origins=list(settings.cors_origins),
        expose_headers=["X-Request-ID", "Retry-After", "Location", "Idempotent-Replayed"],
    )
    app.extensions["chemgames.sealer"] = Sealer(settings.state_keys)
    if settings.redis_url:
        app.extensions["chemgames.store"] = SessionStore(
            settings.redis_url,
            timeout=settings.redis_timeout_seconds,
            ttl_seconds=settings.polymer_ttl_seconds,
        )
    apis = game_apis()
    app.extensions["chemgames.games"] = apis

    @app.before_request
    def _require_json() -> None:
        if request.method in {"POST", "PUT", "PATCH"} and not request.is_json:
            raise Problem(
                "unsupported_media_type",
                "Send the request body as JSON with the header Content-Type: application/json.",
            )

    app.register_blueprint(swagger_assets)
    api = ProblemApi(app)
    api.register_blueprint(health_blp)
    api.register_blueprint(catalogue_blp)
    for game_api in apis.values():
        if not game_api.sessions:
            api.register_blueprint(make_blueprint(game_api))
    api.register_blueprint(polymer_blp)
    app.extensions["chemgames.api"] = api
    return app
