"""The app factory."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

from flask import Flask, Request, Response, redirect, send_file
from flask.globals import request_ctx
from werkzeug.routing import MapAdapter
from werkzeug.wrappers import Response as BaseResponse

from rules.text import in_words

from .api.meta_blueprint import health, make_catalogue, swagger_assets, version
from .api.operations import blueprints
from .base.config import Settings
from .base.redis_client import RedisBackend
from .games.docs import HEADERS, SECURITY_SCHEMES, HeadersPlugin
from .games.pages import make_blueprint as pages_blueprint
from .games.registry import GameApi, game_apis
from .games.schemas.common import (
    DEAL_TABLE,
    DETAIL_RECORD,
    FIELD_ERRORS,
    PROBLEM,
    PROBLEM_DETAILS,
    SEAT_TOKEN,
    wire_field2properties,
)
from .games.schemas.contract import BOOK
from .games.tokens import Sealer
from .http import cors, logs
from .http.documents import DOCUMENTS, Same, document_key
from .http.errors import ProblemApi, install_error_handlers
from .http.http_cache import cacheable, compress
from .http.jsonio import OrjsonProvider
from .http.problems import Problem
from .http.routing import QuickRoutes, RoutedAdapter, plain_request, routable
from .lessons import seating
from .lessons.blueprint import make_blueprint as lessons_blueprint
from .lessons.schemas import COMPONENTS as LESSON_COMPONENTS
from .lti import api as lti_api
from .lti import grades as lti_grades
from .lti import landing as lti_landing
from .lti import platforms as lti_platforms
from .lti.routes import make_blueprint as lti_blueprint
from .school.limits import install as install_limits
from .school.operators import SESSION, SESSION_LIST, Operators
from .school.operators import make_blueprint as operator_blueprint
from .sessions import callbacks, deliveries, realtime
from .sessions.due import DueWork, Runner
from .sessions.store import SessionStore

STATIC = Path(__file__).resolve().parent / "static"
_WITH_BODY = frozenset({"POST", "PUT"})

API_DESCRIPTION = """\
Rules of {count} chemistry card games as an HTTP service, for other people's front ends.

**Two ways to play every game.** *Stateless*: every call carries the whole game as an
opaque, sealed **state token**; the service checks the move against the rules,
applies it and returns the new token with the view the calling seat may see.
*Hosted session*: `POST /v1/<game>/sessions` keeps the game in Redis; devices send
moves with the `version` they saw and follow a live event stream.{clocked}

**Credentials.** Setup returns one seat token per seat and a host token. Acting or
looking as a seat needs that seat's token (or the host's) in the header
`Authorization: Bearer <token>`; never in a URL or a body.

**Bots.** Name seats in `bots` at setup and the service plays them after every human
move, in the same request: this is how a one-person game is played.

**Errors** are RFC 9457 `application/problem+json` with a stable `code`; each
operation lists its codes as an enum (catalogue: `GET /v1/problems`).
"""


def api_description(apis: Mapping[str, GameApi]) -> str:
    """The contract's description, its facts from the registry: how many games, and
    which are only played as sessions (a game on the server's clock)."""
    clocked = [api.info.title for api in apis.values() if not api.stateless]
    said = ""
    if clocked:
        names = ", ".join(clocked)
        one = len(clocked) == 1
        said = (
            f" {names}, {'a real-time game' if one else 'real-time games'}, "
            f"{'is' if one else 'are'} only played as {'a session' if one else 'sessions'}."
        )
    return API_DESCRIPTION.format(count=in_words(len(apis)), clocked=said)


class App(Flask):
    """Flask, remembering which functions are plain (not coroutines).

    Flask asks ``inspect.iscoroutinefunction`` of every hook and view on every request,
    and flask-smorest of every function it wraps: a score of questions per request
    about the same few hundred functions, whose answers never change.
    """

    quick_routing = True
    """Whether a hosted session's routes are found by :class:`QuickRoutes` (the
    differential tests turn it off to compare with werkzeug's matcher)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plain: dict[Callable[..., Any], bool] = {}
        self._routes: QuickRoutes | None = None

    def add_url_rule(self, *args: Any, **kwargs: Any) -> None:
        super().add_url_rule(*args, **kwargs)
        self._routes = None  # made again, with the new rule, at the next request

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        """Flask's, but for a request to a route :class:`QuickRoutes` knows, whose rule
        is found by path and method, without binding the map and matching."""
        if request is not None and self.quick_routing:
            routes = self._routes
            if routes is None:
                routes = self._routes = self._quick_routes()
            environ = request.environ
            found = (
                routes.find(environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""))
                if plain_request(environ)
                else None
            )
            if found is not None:
                bind = functools.partial(Flask.create_url_adapter, self, request)
                return cast(MapAdapter, RoutedAdapter(found, bind))
        return super().create_url_adapter(request)

    def _quick_routes(self) -> QuickRoutes:
        if not routable(self.url_map, self.config, self.subdomain_matching):
            return QuickRoutes({})
        return QuickRoutes.of(self.url_map.iter_rules())

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        # a MethodView's method comes bound to a new instance every request: ask of
        # the function beneath, so that what is remembered stays a fixed set
        key = getattr(func, "__func__", func)
        try:
            plain = self._plain[key]
        except KeyError:
            plain = super().ensure_sync(func) is func
            if len(self._plain) < 4096:  # a function made per request is not kept
                self._plain[key] = plain
        except TypeError:  # an unhashable callable
            return super().ensure_sync(func)
        return func if plain else super().ensure_sync(func)


def create_app(settings: Settings | None = None, **overrides: Any) -> Flask:
    settings = settings or Settings.from_env()
    app = App(__name__, static_folder=None)
    app.json = OrjsonProvider(app)
    app.config.update(
        API_TITLE="Chemistry card games rules service",
        API_VERSION=version(),
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",
        API_SPEC_OPTIONS={
            "info": {
                "description": api_description(game_apis()),
                "license": {"name": "MIT", "identifier": "MIT"},
            },
            "servers": [{"url": "/", "description": "This service"}],
        },
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        SETTINGS=settings,
    )
    app.config.update(overrides)
    logs.configure(settings.log_level)
    logs.install(app)
    cors.install(app, settings.cors_origins)
    app.extensions["chemgames.sealer"] = Sealer(settings.state_keys, seal=settings.state_seal)
    app.extensions["chemgames.operators"] = Operators.from_keys(settings.operator_keys)
    if settings.redis_url:
        # one connection layer for everything kept in Redis (service/base/redis_client.py)
        backend = RedisBackend(
            settings.redis_url,
            timeout=settings.redis_timeout_seconds,
            max_connections=settings.redis_max_connections,
            pool_timeout=settings.redis_pool_timeout_seconds,
            stream_connections=settings.sse_max_streams + 10,  # a closing stream may hold one
        )
        app.extensions["chemgames.redis"] = backend
        app.extensions["chemgames.store"] = SessionStore(
            backend,
            ttl_seconds=settings.session_ttl_seconds,
            prefix=settings.redis_key_prefix,
            wait_replicas=settings.redis_wait_replicas,
            wait_timeout_ms=settings.redis_wait_timeout_ms,
            # a rolling upgrade's first step: answers stored as a release before 0.2.0 reads them
            answers_dictionary=settings.state_seal == "aead",
        )
        due = DueWork(backend, settings.redis_key_prefix, lease_ms=settings.due_lease_ms)
        realtime.install(due)
        deliveries.install(due)
        lti_grades.install(due)
        due.handlers[seating.END_KIND] = seating.end_due
        app.extensions["chemgames.lesson_listener"] = seating.on_commit
        app.extensions["chemgames.table_over"] = [lti_landing.table_over]
        app.extensions["chemgames.due"] = due
    apis = game_apis()
    app.extensions["chemgames.games"] = apis

    @app.before_request
    def _require_json() -> None:
        req = request_ctx.request  # one context look-up, not one per attribute
        # a method the URL does not have is 405 (routing decides), not 415
        if req.method not in _WITH_BODY or req.routing_exception is not None:
            return
        if req.blueprint == "lti" or req.is_json:  # an LMS posts forms (service/lti/routes.py)
            return
        if (req.content_length or 0) > 0 or "chunked" in req.headers.get("Transfer-Encoding", ""):
            raise Problem(
                "unsupported_media_type",
                "Send the request body as JSON with the header Content-Type: application/json.",
            )

    @app.after_request
    def _http(response: Response) -> Response:
        req = request_ctx.request
        if req.path == "/openapi.json" and req.method == "GET":
            return cacheable(response, req)
        return compress(response, req)

    app.register_blueprint(swagger_assets)
    _pages(app)
    api = ProblemApi(app, spec_kwargs={"extra_plugins": [HeadersPlugin()]})
    # the document is written from the configuration and the games, never the settings:
    # an app built from the same ones serves the document the first such app wrote
    key = document_key(app.config, ((slug, Same(one.game)) for slug, one in apis.items()))
    shared = DOCUMENTS.get(key) if key is not None else None
    if shared is not None:
        api.adopt(shared)
    install_error_handlers(app)
    _register(api, apis)
    if shared is None and key is not None:
        DOCUMENTS[key] = api.document()
    install_limits(app, settings)
    app.extensions["chemgames.api"] = api
    if settings.due_work and "chemgames.due" in app.extensions:
        app.extensions["chemgames.runner"] = runner(app, settings.due_poll_ms)
    return app


def _register(api: ProblemApi, apis: Mapping[str, GameApi]) -> None:
    """Every operation of the contract into the app, and into its document unless the
    api adopted one: the components first that the operations' schemas refer to (a
    schema registered before an operation is referred to, not written out in it)."""
    documented = api.documented
    components = api.spec.components
    if documented:
        api.ma_plugin.converter.add_attribute_function(wire_field2properties)
        for name, scheme in SECURITY_SCHEMES.items():
            components.security_scheme(name, scheme)
        for name, spec in HEADERS.items():
            components.header(name, spec)
        components.schema("Problem", PROBLEM)
        components.schema("ProblemDetails", PROBLEM_DETAILS)
        components.schema("FieldErrors", FIELD_ERRORS)
        components.schema("DetailRecord", DETAIL_RECORD)
        components.schema("DealTable", DEAL_TABLE)
        components.schema("SeatToken", SEAT_TOKEN)
        components.schema("Callback", callbacks.REGISTERED)
        components.schema("DeliveryAttempt", callbacks.ATTEMPT)
        components.schema("Delivery", callbacks.DELIVERY)
        components.schema("DeliveryLog", callbacks.DELIVERY_LOG)
        components.schema("OperatorSession", SESSION)
        components.schema("OperatorSessionList", SESSION_LIST)
        for name, schema in lti_platforms.SCHEMAS.items():
            components.schema(name, schema)
        components.schema("LessonLti", lti_api.LESSON_LTI)
        for unused in ("PaginationMetadata", "Error"):  # flask-smorest's defaults, unused here
            components.schemas.pop(unused, None)
    game_blueprints = [blp for game_api in apis.values() for blp in blueprints(game_api)]
    api.register_blueprint(health)
    api.register_blueprint(make_catalogue(apis))
    api.register_blueprint(operator_blueprint())
    api.register_blueprint(lti_api.make_blueprint())
    api.register_blueprint(lti_api.make_lesson_blueprint())
    if documented:
        for name, schema in LESSON_COMPONENTS.items():
            components.schema(name, schema)
    api.register_blueprint(lessons_blueprint())
    if documented:
        # the components derived from the games' declarations (built with their endpoints)
        for name, schema in sorted(BOOK.schemas.items()):
            components.schema(name, schema)
    for blp in game_blueprints:
        api.register_blueprint(blp)


def in_context(app: Flask) -> Callable[[Callable[[], None]], None]:
    """Runs a piece of due work inside ``app``'s context."""

    def wrap(work: Callable[[], None]) -> None:
        with app.app_context():
            work()

    return wrap


def runner(app: Flask, poll_ms: int) -> Runner:
    """This process's runner of due work (every worker of every instance runs one)."""
    return Runner(app.extensions["chemgames.due"], in_context(app), poll_ms=poll_ms).start()


def _pages(app: Flask) -> None:
    """The routes a person's browser asks for, outside the contract: the front page
    (links to the games and the docs), the games' pages under /play, the docs."""
    app.register_blueprint(pages_blueprint(lti_platforms.framers))
    app.register_blueprint(lti_blueprint())

    @app.get("/docs/")
    def _docs_slash() -> BaseResponse:
        return redirect("/docs", code=301)

    @app.get("/favicon.ico")
    def _favicon() -> BaseResponse:
        return send_file(STATIC / "favicon.svg", mimetype="image/svg+xml", max_age=86400)
