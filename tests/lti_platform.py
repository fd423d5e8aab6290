"""A learning platform for the LTI tests, built on ``lti1p3platform`` (the platform side
OpenLearning's LMS uses, from PyPI): its registration, OIDC login initiation, signed
launches (resource link and deep linking), deep-linking response validation and the
AGS token endpoint are the package's own code; this module only serves them over HTTP
on 127.0.0.1 (a thread, bounded by the test) and keeps what it receives.

The package has no dynamic registration, so the openid-configuration and registration
endpoints here are the platform side of that specification, written for the tests; what
they receive becomes the package's ``Registration``.

``tamper`` makes the next launch broken on purpose: ``bad_signature`` (signed by another
key under the platform's key id), ``wrong_audience``, ``expired``, ``unknown_deployment``.
"""

from __future__ import annotations

import base64
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import jwt
import orjson
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from flask import Flask, Response, redirect, request
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.membership import Context
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request, TRequest
from lti1p3platform.score import UpdateScoreStatus
from lti1p3platform.service_connector import (
    AssignmentsGradesService,
    NamesRoleProvisioningService,
    TPage,
)
from werkzeug.serving import make_server

INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
DEPLOYMENT_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
MESSAGE_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/message_type"


def _pem_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


class FlaskRequest(Request):
    def build_metadata(self, req: Any) -> TRequest:
        return {
            "method": req.method,
            "form_data": req.form.to_dict(),
            "get_data": req.args.to_dict(),
            "headers": dict(req.headers),
            "content_type": req.content_type,
            "path": req.path,
            "json": req.get_json(silent=True),
        }


@dataclass
class Lms:
    """The platform's state: its registration with the tool and what it received."""

    base: str = ""
    tool: str = ""
    # a platform of each test has a port of its own, which a later test may get again
    client_id: str = field(default_factory=lambda: "chem-tool-" + secrets.token_hex(4))
    deployment_id: str = "dep-1"
    keys: tuple[str, str] = field(default_factory=_pem_pair)
    registered: dict[str, Any] = field(default_factory=dict)  # dynamic registration
    content_items: list[dict[str, Any]] = field(default_factory=list)
    tokens_issued: int = 0
    tamper: str = ""
    last_launch_form: dict[str, str] = field(default_factory=dict)
    scores: list[dict[str, Any]] = field(default_factory=list)  # (AGS) received, in order
    refuse_scores: int = 0  # answer the next N score posts with 503 (a platform down)
    roster: list[dict[str, Any]] = field(default_factory=list)  # (NRPS) the course

    @property
    def issuer(self) -> str:
        return self.base

    def registration(self) -> Registration:
        tool = self.tool.rstrip("/")
        return (
            Registration()
            .set_iss(self.issuer)
            .set_client_id(self.client_id)
            .set_deployment_id(self.deployment_id)
            .set_launch_url(f"{tool}/lti/launch")
            .set_deeplink_launch_url(f"{tool}/lti/launch")
            .set_oidc_login_url(f"{tool}/lti/login")
            .set_tool_key_set_url(f"{tool}/lti/jwks.json")
            .set_platform_public_key(self.keys[1])
            .set_platform_private_key(self.keys[0])
        )

    def api_body(self) -> dict[str, Any]:
        """What an operator registers by hand (the fields an LMS shows its admin)."""
        return {
            "issuer": self.issuer,
            "client_id": self.client_id,
            "deployment_ids": [self.deployment_id],
            "auth_login_url": f"{self.base}/auth",
            "auth_token_url": f"{self.base}/token",
            "jwks_url": f"{self.base}/jwks",
            "name": "Test LMS",
        }


def make_platform(lms: Lms) -> Flask:
    app = Flask("lti-test-platform")

    class Conf(LTI1P3PlatformConfAbstract):
        def init_platform_config(self, **kwargs: Any) -> None:
            self._registration = lms.registration()

        def get_registration_by_params(self, **kwargs: Any) -> Registration:
            return lms.registration()

    class Login(OIDCLoginAbstract):
        def set_lti_message_hint(self, **kwargs: Any) -> None:
            # the package declares this slot as a bare `= None` class attribute (so of
            # type None), though its own get_lti_message_hint reads it as a str
            hint = base64.urlsafe_b64encode(orjson.dumps(kwargs)).decode()
            self._lti_message_hint = hint  # type: ignore[assignment]

        def get_redirect(self, url: str) -> Any:
            return redirect(url, code=302)

    class Launch(LTIAdvantageMessageLaunchAbstract):
        def render_launch_form(self, launch_data: dict[str, Any], **kwargs: Any) -> Any:
            fields = {"id_token": launch_data["id_token"], "state": launch_data["state"]}
            lms.last_launch_form = {**fields, "action": launch_data["launch_url"]}
            inputs = "".join(
                f'<input type="hidden" name="{k}" value="{v}">' for k, v in fields.items()
            )
            return Response(
                f'<!doctype html><html><body><form id="launch" method="post" '
                f'action="{launch_data["launch_url"]}">{inputs}<button>Launch</button></form>'
                "<script>document.getElementById('launch').submit()</script></body></html>",
                mimetype="text/html",
            )

        def generate_launch_request(self) -> Any:
            found = super().generate_launch_request()
            if lms.tamper == "bad_signature":
                claims = jwt.decode(found["id_token"], options={"verify_signature": False})
                header = jwt.get_unverified_header(found["id_token"])
                other, _ = _pem_pair()
                found["id_token"] = jwt.encode(
                    claims, other, algorithm="RS256", headers={"kid": header.get("kid")}
                )
            return found

    class Grades(AssignmentsGradesService):
        def find_lineitems(
            self,
            page: int = 1,
            limit: int | None = None,
            line_item_id: str | None = None,
            resource_link_id: str | None = None,
            resource_id: str | None = None,
            tag: str | None = None,
            **more: Any,  # the package passes on every query parameter the tool sent
        ) -> TPage:
            return {"content": [], "has_next": False}

        def find_lineitem(self, line_item_id: str) -> Any:
            return {"id": line_item_id, "scoreMaximum": 100}

        def create_lineitem(self, creation_data: Any) -> Any:
            return creation_data

        def update_lineitem(self, update_data: Any) -> Any:
            return update_data

        def delete_lineitem(self, line_item_id: str) -> None:
            return None

        def update_score(self, line_item_id: str, score: Any) -> UpdateScoreStatus:
            lms.scores.append({"lineitem": line_item_id, **score})
            return UpdateScoreStatus.SUCCESS

        def get_results(
            self,
            line_item_id: str,
            page: int = 1,
            limit: int | None = None,
            user_id: str | None = None,
            **more: Any,  # the package passes on every query parameter the tool sent
        ) -> TPage:
            return {"content": [], "has_next": False}

    class Roster(NamesRoleProvisioningService):
        def get_member_data_page(
            self,
            page: int = 1,
            limit: int | None = None,
            role: str | None = None,
            since: str | None = None,
            **more: Any,  # the package passes on every query parameter the tool sent
        ) -> TPage:
            return {"content": [dict(m) for m in lms.roster], "has_next": False}

        def get_context_by_id(self) -> Context:
            return Context(id="course-1", label="CHEM101", title="Chemistry 101")

    def answer(found: Any) -> Response:
        body = orjson.dumps(found.result) if found.result is not None else b""
        return Response(body, status=found.code, mimetype=found.media_type)

    @app.post("/lineitems/<context>/<item>/scores")
    def scores(context: str, item: str) -> Any:
        if lms.refuse_scores:
            lms.refuse_scores -= 1
            return Response("down for maintenance", status=503)
        lineitems = f"{lms.base}/lineitems/{context}"
        service = Grades(FlaskRequest(request), Conf(), lineitems, f"{lineitems}/{item}")
        return answer(service.handle_resp(service.handle_update_score, line_item_id=item))

    @app.get("/memberships/<context>")
    def memberships(context: str) -> Any:
        service = Roster(FlaskRequest(request), Conf(), f"{lms.base}/memberships/{context}")
        # the package's `authenticate` decorator types every handler it wraps as one of
        # AssignmentsGradesService, this NamesRoleProvisioningService one too (mypy reports
        # it on a fresh run, not when it reads the package from its cache: unused-ignore)
        handler = service.handle_get_members  # type: ignore[misc, unused-ignore]
        return answer(service.handle_resp(handler))

    @app.get("/favicon.ico")
    def favicon() -> Any:
        return Response(status=204)

    @app.get("/course")
    def course() -> Any:
        """A course page with the activity in an iframe, as an LMS shows it."""
        src = "/start?" + urlencode(request.args.to_dict())
        return Response(
            '<!doctype html><html lang="en"><head><title>Chemistry 101</title></head><body>'
            f'<h1>Chemistry 101</h1><iframe title="Activity" src="{src}" width="800" '
            'height="900"></iframe></body></html>',
            mimetype="text/html",
        )

    @app.get("/jwks")
    def jwks() -> Any:
        return Conf().get_jwks()

    @app.get("/start")
    def start() -> Any:
        """A user clicks the activity: the platform initiates the login."""
        hint = {k: request.args[k] for k in ("user", "role", "kind", "link", "context")}
        hint["custom"] = request.args.get("custom", "")
        login = Login(FlaskRequest(request), Conf())
        login.set_lti_message_hint(**hint)
        return login.initiate_login(request.args["user"])

    @app.get("/auth")
    def auth() -> Any:
        """The OIDC authorization endpoint: answers the tool's redirect with a launch."""
        hint = orjson.loads(base64.urlsafe_b64decode(request.args["lti_message_hint"]))
        launch = Launch(FlaskRequest(request), Conf())
        roles = [INSTRUCTOR] if hint["role"] == "instructor" else [LEARNER]
        launch.set_user_data(hint["user"], roles, full_name=f"User {hint['user']}")
        launch.set_launch_context_claim(hint["context"], context_title="Chemistry 101")
        launch.set_resource_link_claim(hint["link"], title="A game")
        if hint.get("custom"):
            launch.set_custom_parameters_claim(orjson.loads(hint["custom"]))
        if hint["kind"] == "deep":
            launch.set_dl(
                f"{lms.base}/deep-link-return", title="Add", accept_types={"ltiResourceLink"}
            )
        lineitems = f"{lms.base}/lineitems/{hint['context']}"
        launch.set_ags(lineitems, f"{lineitems}/{hint['link']}")
        launch.set_nrps(f"{lms.base}/memberships/{hint['context']}")
        if lms.tamper == "expired":
            launch.set_id_token_expiration(-600)
        if lms.tamper == "wrong_audience":
            launch.set_extra_claims({"aud": "another-tool", "azp": "another-tool"})
        if lms.tamper == "unknown_deployment":
            launch.set_extra_claims({DEPLOYMENT_CLAIM: "dep-unknown"})
        if lms.tamper == "wrong_issuer":
            launch.set_extra_claims({"iss": "https://another-lms.example"})
        if lms.tamper == "old_version":
            launch.set_extra_claims({"https://purl.imsglobal.org/spec/lti/claim/version": "1.1"})
        if lms.tamper == "unknown_message":
            launch.set_extra_claims({MESSAGE_CLAIM: "LtiSubmissionReviewRequest"})
        return launch.lti_launch()

    @app.post("/deep-link-return")
    def deep_link_return() -> Any:
        items = Conf().validate_deeplinking_resp({"JWT": request.form["JWT"]})
        lms.content_items.extend(items)
        return Response("<!doctype html><p id=added>Added to the course.</p>", mimetype="text/html")

    @app.post("/token")
    def token() -> Any:
        found = Conf().get_access_token(request.form.to_dict())
        lms.tokens_issued += 1
        return found

    @app.get("/.well-known/openid-configuration")
    def openid_configuration() -> Any:
        return {
            "issuer": lms.issuer,
            "authorization_endpoint": f"{lms.base}/auth",
            "token_endpoint": f"{lms.base}/token",
            "jwks_uri": f"{lms.base}/jwks",
            "registration_endpoint": f"{lms.base}/register",
            "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                "product_family_code": "lti1p3platform",
                "version": "0.1.8",
            },
        }

    @app.post("/register")
    def register() -> Any:
        if request.headers.get("Authorization") != "Bearer reg-token-1":
            return Response("no", status=401)
        lms.registered = request.get_json()
        lms.client_id = "dyn-" + secrets.token_hex(4)
        return {
            **lms.registered,
            "client_id": lms.client_id,
            "https://purl.imsglobal.org/spec/lti-tool-configuration": {
                **lms.registered["https://purl.imsglobal.org/spec/lti-tool-configuration"],
                "deployment_id": lms.deployment_id,
            },
        }

    return app


def start_url(
    lms: Lms,
    *,
    user: str,
    role: str,
    kind: str = "link",
    link: str = "rl-1",
    context: str = "course-1",
    custom: dict[str, Any] | None = None,
) -> str:
    query = {"user": user, "role": role, "kind": kind, "link": link, "context": context}
    if custom:
        query["custom"] = orjson.dumps(custom).decode()
    return f"{lms.base}/start?{urlencode(query)}"


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """``app`` on a free 127.0.0.1 port in a thread, shut down when the block ends."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)


class Forms(HTMLParser):
    """The forms of a page: action and fields (what a browser would post)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action"), "fields": {}})
        elif tag == "input" and self.forms and a.get("name"):
            self.forms[-1]["fields"][a["name"]] = a.get("value") or ""
        elif tag == "select" and self.forms:
            self.select = a.get("name")
        elif tag == "option" and self.forms and self.select:
            fields = self.forms[-1]["fields"]
            if self.select not in fields or "selected" in a:  # the first, or the selected
                fields[self.select] = a.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None


def forms(html: str) -> list[dict[str, Any]]:
    parser = Forms()
    parser.feed(html)
    return parser.forms
