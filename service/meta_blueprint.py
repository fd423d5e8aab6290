"""Catalogue of games and problems; health and readiness."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flask
import flask_swagger_ui
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from rules.core import CORE_CODES, GameInfo

from .config import ROOT
from .docs import problems
from .jsonio import json_response
from .play import GameApi
from .problems import SERVICE_PROBLEMS, Problem
from .schemas.common import (
    GameCatalogueSchema,
    GameDetailSchema,
    HealthSchema,
    ProblemCatalogueSchema,
    ProblemKindSchema,
)

blp = Blueprint("catalogue", __name__, url_prefix="/v1", description="Games and problem types.")
# Swagger UI's own files for /docs (from the flask-swagger-ui package): no CDN needed
swagger_assets = flask.Blueprint(
    "swagger_assets",
    __name__,
    static_folder=str(Path(flask_swagger_ui.__file__).parent / "dist"),
    static_url_path="/docs/assets",
)
health = Blueprint("health", __name__, description="Liveness and readiness probes.")


def _registry() -> dict[str, GameApi]:
    return current_app.extensions["chemgames.games"]  # type: ignore[no-any-return]


def _links(info: GameInfo, sessions: bool) -> dict[str, str]:
    base = f"/v1/{info.slug}"
    if sessions:
        return {
            "self": f"/v1/games/{info.slug}",
            "setup": f"{base}/setup",
            "session": f"{base}/sessions/{{session_id}}",
            "moves": f"{base}/sessions/{{session_id}}/moves",
            "start": f"{base}/sessions/{{session_id}}/start",
            "legal_moves": f"{base}/sessions/{{session_id}}/legal-moves",
            "bot_move": f"{base}/sessions/{{session_id}}/bot-move",
            "scores": f"{base}/sessions/{{session_id}}/scores",
            "arrangement": f"{base}/sessions/{{session_id}}/arrangement",
            "events": f"{base}/sessions/{{session_id}}/events",
        }
    return {
        "self": f"/v1/games/{info.slug}",
        "setup": f"{base}/setup",
        "moves": f"{base}/moves",
        "legal_moves": f"{base}/legal-moves",
        "view": f"{base}/view",
        "scores": f"{base}/scores",
        "bot_move": f"{base}/bot-move",
    }


def _summary(api: GameApi) -> dict[str, Any]:
    info, sessions = api.game.info, api.sessions
    return {
        "slug": info.slug,
        "title": info.title,
        "summary": info.summary,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "dynamics": str(info.dynamics),
        "has_chance": info.has_chance,
        "rules_version": info.rules_version,
        "links": _links(info, sessions),
    }


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def problem_catalogue() -> list[dict[str, Any]]:
    """Every code the service may send, with the games that raise rule codes."""
    entries: dict[str, dict[str, Any]] = {
        code: {
            "code": code,
            "status": kind.status,
            "title": kind.title,
            "description": kind.description,
        }
        for code, kind in SERVICE_PROBLEMS.items()
    }
    for code, text in CORE_CODES.items():
        entries.setdefault(
            code,
            {"code": code, "status": 422, "title": code.replace("_", " ").capitalize()},
        )["description"] = text
    for api in _registry().values():
        info = api.game.info
        for code, text in info.codes.items():
            entry = entries.setdefault(
                code,
                {
                    "code": code,
                    "status": 409 if code in {"timer_expired", "stale_version"} else 422,
                    "title": code.replace("_", " ").capitalize(),
                    "description": text,
                },
            )
            entry.setdefault("games", []).append(info.slug)
    return sorted(entries.values(), key=lambda e: e["code"])


@blp.route("/games")
class Games(MethodView):
    @blp.response(200, GameCatalogueSchema)
    def get(self) -> Any:
        """List the games this service hosts."""
        return json_response({"games": [_summary(api) for api in _registry().values()]})


@blp.route("/games/<slug>")
class GameDetail(MethodView):
    @blp.response(200, GameDetailSchema)
    @problems(blp, {404: ["unknown_game"]})
    def get(self, slug: str) -> Any:
        """A game's metadata: options, player-count table, deck, rule codes, rules text."""
        api = _registry().get(slug)
        if api is None:
            raise Problem(
                "unknown_game",
                f"No game is called {slug!r}; see /v1/games for the list.",
            )
        info = api.game.info
        deck = getattr(api.game, "deck", list)()
        return json_response(
            {
                **_summary(api),
                "seed_file": info.seed_file,
                "options": [
                    {
                        "name": o.name,
                        "kind": o.kind,
                        "default": o.default,
                        "description": o.description,
                        "choices": list(o.choices),
                    }
                    for o in info.options
                ],
                "bots": list(info.bots),
                "player_counts": {str(k): dict(v) for k, v in info.player_counts.items()},
                "codes": {**CORE_CODES, **info.codes},
                "deck": deck,
                "rules_document": _read(ROOT / "docs" / "rules" / f"{info.slug}.md"),
                "seed_text": _read(ROOT / "docs" / "seeds" / info.seed_file),
            }
        )


@blp.route("/problems")
class Problems(MethodView):
    @blp.response(200, ProblemCatalogueSchema)
    def get(self) -> Any:
        """Every problem `code` the service may return, with its HTTP status."""
        return json_response({"problems": problem_catalogue()})


@blp.route("/problems/<code>")
class ProblemType(MethodView):
    @blp.response(200, ProblemKindSchema)
    @problems(blp, {404: ["not_found"]})
    def get(self, code: str) -> Any:
        """The description of one problem type (the `type` URI of a problem)."""
        for entry in problem_catalogue():
            if entry["code"] == code:
                return json_response(entry)
        raise Problem("not_found", f"There is no problem type {code!r}; see /v1/problems.")


@health.route("/healthz")
class Healthz(MethodView):
    @health.response(200, HealthSchema)
    def get(self) -> Any:
        """The process is up."""
        return json_response({"status": "ok"})


@health.route("/readyz")
class Readyz(MethodView):
    @health.response(200, HealthSchema)
    def get(self) -> Any:
        """Ready to serve; reports Redis.

        Redis is needed by Polymer only, so an unreachable Redis makes the status
        `degraded` (still 200: every other game keeps working on this instance).
        """
        store = current_app.extensions.get("chemgames.store")
        checks: dict[str, Any] = {"games": sorted(_registry())}
        if store is None:
            ok, detail = False, "REDIS_URL is not set: Polymer is unavailable"
        else:
            ok, detail = store.ping()
        checks["redis"] = {"ok": ok, "detail": detail, "needed_by": ["polymer"]}
        body = {"status": "ok" if ok else "degraded", "checks": checks}
        return json_response(body)
