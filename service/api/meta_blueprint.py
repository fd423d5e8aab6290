"""Catalogue of games and problems; health and readiness.

A game's detail (``GET /v1/games/<slug>``) is one operation per game, so that its
deck is typed with the game's own card schema; its further documents (the word list
of the Chemistry Card Game) are served at ``GET /v1/games/<slug>/<name>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

import flask
import flask_swagger_ui
from flask import current_app, request
from flask.views import MethodView

from rules.core import GameInfo
from rules.shapes import Obj, shape

from ..base.config import ROOT
from ..games.docs import PUBLIC, header, operation
from ..games.registry import GameApi
from ..games.schemas.common import (
    GameCatalogueSchema,
    HealthSchema,
    ProblemCatalogueSchema,
    ProblemKindSchema,
    game_detail_schema,
)
from ..http.http_cache import cacheable
from ..http.jsonio import json_response
from ..http.parsing import ApiBlueprint as Blueprint
from ..http.problems import SERVICE_PROBLEMS, Problem
from ..school.operators import operators

# Swagger UI's own files for /docs (from the flask-swagger-ui package): no CDN needed
swagger_assets = flask.Blueprint(
    "swagger_assets",
    __name__,
    static_folder=str(Path(flask_swagger_ui.__file__).parent / "dist"),
    static_url_path="/docs/assets",
)
health = Blueprint("health", __name__, description="Liveness and readiness probes.")
CACHED = {"ETag": header("ETag"), "Cache-Control": header("Cache-Control")}


def version() -> str:
    """The one version number: the package's, also the contract's and the catalogue's."""
    try:
        return metadata.version("chemgames")
    except metadata.PackageNotFoundError:  # running from a checkout that is not installed
        return "0+unknown"


def _registry() -> dict[str, GameApi]:
    return current_app.extensions["chemgames.games"]  # type: ignore[no-any-return]


def links(api: GameApi) -> dict[str, str]:
    info: GameInfo = api.game.info
    base = f"/v1/{info.slug}"
    out = {"self": f"/v1/games/{info.slug}"}
    if api.stateless:
        out.update(
            setup=f"{base}/setup",
            moves=f"{base}/moves",
            legal_moves=f"{base}/legal-moves",
            view=f"{base}/view",
            scores=f"{base}/scores",
            bot_move=f"{base}/bot-move",
        )
    session = f"{base}/sessions/{{session_id}}"
    out.update(
        create_session=f"{base}/sessions",
        session=session,
        session_moves=f"{session}/moves",
        session_bot_move=f"{session}/bot-move",
        session_legal_moves=f"{session}/legal-moves",
        session_scores=f"{session}/scores",
        session_events=f"{session}/events",
    )
    for extra in api.game.extras:
        out[extra.name] = f"{session}/{extra.name}"
    for name in api.game.resources:
        out[name] = f"/v1/games/{info.slug}/{name}"
    return out


def summary(api: GameApi) -> dict[str, Any]:
    info = api.game.info
    return {
        "slug": info.slug,
        "title": info.title,
        "summary": info.summary,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "dynamics": str(info.dynamics),
        "has_chance": info.has_chance,
        "rules_version": info.rules_version,
        "modes": ["stateless", "session"] if api.stateless else ["session"],
        "links": links(api),
    }


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def detail(api: GameApi) -> dict[str, Any]:
    info = api.game.info
    return {
        **summary(api),
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
        "codes": {name: code.description for name, code in answered(info).items()},
        "deck": api.game.deck(),
        "resources": {name: f"/v1/games/{info.slug}/{name}" for name in api.game.resources},
        "rules_document": _read(ROOT / "docs" / "rules" / f"{info.slug}.md"),
        "source": info.source.to_json(info.slug),
    }


def answered(info: GameInfo) -> dict[str, Any]:
    """The rule codes a game may answer with (not its internal consistency checks)."""
    return {name: code for name, code in sorted(info.all_codes().items()) if code.at}


def problem_catalogue(apis: Mapping[str, GameApi]) -> list[dict[str, Any]]:
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
    for api in apis.values():
        for name, code in answered(api.info).items():
            entry = entries.setdefault(
                name,
                {
                    "code": name,
                    "status": code.status,
                    "title": name.replace("_", " ").capitalize(),
                    "description": code.description,
                },
            )
            entry.setdefault("games", []).append(api.slug)
    return sorted(entries.values(), key=lambda e: e["code"])


def make_catalogue(apis: Mapping[str, GameApi]) -> Blueprint:
    blp = Blueprint("catalogue", __name__, url_prefix="/v1", description="Games and problems.")

    @blp.route("/games")
    class Games(MethodView):
        @blp.response(200, GameCatalogueSchema, headers=CACHED)
        @operation(blp, "listGames", security=PUBLIC)
        def get(self) -> Any:
            """List the games this service hosts, with links to their endpoints.

            Each game says how it can be played (`modes`: stateless and/or as a hosted
            session) and links every endpoint, so a client needs no hard-coded URLs.
            """
            body = {
                "version": version(),
                "games": [summary(api) for api in apis.values()],
                "operator_required": operators().required,
            }
            return cacheable(json_response(body), request)

    for api in apis.values():
        _detail_route(blp, api)
        for name, schema in api.docs.resources.items():
            _resource_route(blp, api, name, schema)

    @blp.route("/problems")
    class Problems(MethodView):
        @blp.response(200, ProblemCatalogueSchema, headers=CACHED)
        @operation(blp, "listProblems", security=PUBLIC)
        def get(self) -> Any:
            """Every problem `code` the service may return, with its HTTP status.

            Rule violations also list the games that raise them. Each problem's `type`
            URI (`/v1/problems/<code>`) resolves to its entry.
            """
            return cacheable(json_response({"problems": problem_catalogue(apis)}), request)

    @blp.route("/problems/<code>")
    class ProblemType(MethodView):
        @blp.response(200, ProblemKindSchema, headers=CACHED)
        @operation(blp, "getProblem", {404: ["not_found"]}, security=PUBLIC)
        def get(self, code: str) -> Any:
            """The description of one problem type (the `type` URI of a problem).

            Unknown codes are `404 not_found`.
            """
            for entry in problem_catalogue(apis):
                if entry["code"] == code:
                    return cacheable(json_response(entry), request)
            raise Problem("not_found", f"There is no problem type {code!r}; see /v1/problems.")

    return blp


def _detail_route(blp: Blueprint, api: GameApi) -> None:
    name = api.name
    schema = game_detail_schema(f"{name}GameDetail", api.docs.card, api.docs.bot)

    class GameDetail(MethodView):
        @blp.response(200, schema, headers=CACHED)
        @operation(blp, f"get{name}Game", security=PUBLIC)
        def get(self) -> Any:
            return cacheable(json_response(detail(api)), request)

    GameDetail.get.__doc__ = (
        f"{api.game.info.title}: options, player-count table, every card, rule codes.\n\n"
        "Also the rules interpretation (every reading of the original rules and its "
        "decision) and the source of those rules."
    )
    blp.route(f"/games/{api.slug}", endpoint=f"game-{api.slug}")(GameDetail)


def _resource_route(blp: Blueprint, api: GameApi, name: str, schema: dict[str, Any]) -> None:
    producer = api.game.resources[name]
    op = f"get{api.name}{name.title().replace('_', '')}"

    class Resource(MethodView):
        @blp.response(200, schema, headers=CACHED)
        @operation(blp, op, security=PUBLIC)
        def get(self) -> Any:
            return cacheable(json_response(producer()), request)

    declared = shape(api.game.wire.resources[name])
    doc = declared.doc if isinstance(declared, Obj) else ""
    Resource.get.__doc__ = f"The {name} of {api.info.title}.\n\n{doc}".strip()
    blp.route(f"/games/{api.slug}/{name}", endpoint=f"game-{api.slug}-{name}")(Resource)


@health.route("/healthz")
class Healthz(MethodView):
    @health.response(200, HealthSchema)
    @operation(health, "getHealth", security=PUBLIC, limited=False)
    def get(self) -> Any:
        """The process is up, and its version.

        Answers without touching Redis or any game: a liveness probe.
        """
        return json_response({"status": "ok", "version": version()})


@health.route("/readyz")
class Readyz(MethodView):
    @health.response(200, HealthSchema)
    @operation(health, "getReadiness", security=PUBLIC, limited=False)
    def get(self) -> Any:
        """Ready to serve; reports Redis.

        Redis holds hosted sessions (every game), the only way to play a game on the
        server's clock, so an unreachable Redis makes the status `degraded` (still 200:
        stateless play keeps working on this instance); `needed_by` names the sessions
        and those games.
        """
        store = current_app.extensions.get("chemgames.store")
        games = _registry()
        checks: dict[str, Any] = {"games": sorted(games)}
        needed_by = ["sessions", *sorted(s for s, api in games.items() if not api.stateless)]
        if store is None:
            off = " and ".join(["hosted sessions", *needed_by[1:]])
            ok, detail_ = False, f"REDIS_URL is not set: {off} are off"
        else:
            ok, detail_ = store.ping()
        checks["redis"] = {"ok": ok, "detail": detail_, "needed_by": needed_by}
        status = "ok" if ok else "degraded"
        return json_response({"status": status, "version": version(), "checks": checks})
