"""The browser front end as the service serves it (service/games/pages.py): the pages and
their assets, under a strict Content-Security-Policy, with no credential in any URL.

No Node.js here: the pages are the committed build (tests/test_web_build.py checks it
is what web/src builds to); tests/test_browser_*.py drive them in Chromium.
"""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from service import create_app
from service.games.pages import BUILT, CONTENT_SECURITY_POLICY, join_link, table_link

from .conftest import KEY_A, make_settings

PAGES = [
    "/play",
    "/play/element-draft/3f9c2a7b1e0d4c5a6b7e8f90/seat/0",
    "/play/element-draft/3f9c2a7b1e0d4c5a6b7e8f90/table",
    "/",
]


def _assets(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/play/assets/[^"]+)"', html)


def test_every_page_is_served_with_a_strict_policy_and_no_referrer(client: FlaskClient) -> None:
    for path in PAGES:
        resp = client.get(path)
        assert resp.status_code == 200 and resp.mimetype == "text/html", path
        policy = resp.headers["Content-Security-Policy"]
        assert policy == CONTENT_SECURITY_POLICY
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["default-src"] == "'none'"
        for kind in ("script-src", "style-src", "img-src", "connect-src"):
            assert directives[kind] == "'self'", kind  # nothing inline, nothing elsewhere
        assert resp.headers["Referrer-Policy"] == "no-referrer"
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        assert resp.headers["Cache-Control"] == "no-cache"
        html = resp.get_data(as_text=True)
        assert "<script>" not in html and " style=" not in html and "javascript:" not in html


def test_the_pages_assets_exist_and_are_kept_a_year(client: FlaskClient) -> None:
    seen = set()
    for path in PAGES[:3]:
        for asset in _assets(client.get(path).get_data(as_text=True)):
            seen.add(asset)
            resp = client.get(asset)
            assert resp.status_code == 200, asset
            assert resp.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert resp.mimetype in ("text/javascript", "application/javascript", "text/css")
    assert any(a.endswith(".js") for a in seen) and any(a.endswith(".css") for a in seen)
    # each page's chunks are where its modules import them from
    for js in (BUILT / "assets").glob("*.js"):
        for chunk in re.findall(r'"\./(chunk-[A-Z0-9]+\.js)"', js.read_text(encoding="utf-8")):
            assert (BUILT / "assets" / chunk).is_file(), (js.name, chunk)


def test_a_page_is_revalidated_with_its_etag(client: FlaskClient) -> None:
    first = client.get("/play")
    again = client.get("/play", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_the_front_page_leads_to_the_games_and_the_docs(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert 'href="/play"' in html and 'href="/docs"' in html


def test_a_page_of_an_unknown_game_or_a_malformed_session_is_a_problem(
    client: FlaskClient,
) -> None:
    unknown = client.get("/play/chess/3f9c2a7b/table")
    assert unknown.status_code == 404 and unknown.get_json()["code"] == "unknown_game"
    for path in (
        "/play/element-draft/a.b/table",
        "/play/assets/..%2Fseat.html",
        "/play/assets/nothing.js",
        "/play/element-draft/3f9c2a7b/seat/x",
    ):
        resp = client.get(path)
        assert resp.status_code == 404 and resp.mimetype == "application/problem+json", path


def test_join_links_carry_the_credential_only_in_the_fragment() -> None:
    link = join_link("element-draft", "3f9c2a7b", 2, "a/b+c")
    path, _, fragment = link.partition("#")
    assert path == "/play/element-draft/3f9c2a7b/seat/2" and "a" not in path.split("/")[-1]
    assert fragment == "token=a%2Fb%2Bc"
    assert table_link("element-draft", "3f9c2a7b") == "/play/element-draft/3f9c2a7b/table"


def test_the_catalogue_says_whether_creating_a_session_needs_an_operator(
    client: FlaskClient, redis_url: str
) -> None:
    assert client.get("/v1/games").get_json()["operator_required"] is False
    school = create_app(make_settings(KEY_A, redis_url=redis_url, operator_keys=("lms-key",)))
    with school.test_client() as c:
        assert c.get("/v1/games").get_json()["operator_required"] is True
        # and the new-game page still loads: it says so itself
        assert c.get("/play").status_code == 200
