"""The service as an LTI 1.3 tool, against a real platform implementation
(``lti1p3platform``, tests/lti_platform.py), both served over HTTP on 127.0.0.1.

The requests here are a browser's: follow the platform's redirects, post the forms its
pages post. No cookie is kept between them (``requests.Session`` is not used), as in an
LMS's iframe where third-party cookies are blocked.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import jwt
import pytest
import requests

import service
from service.app import in_context
from service.lti import grades, landing
from service.lti import keys as tool_keys
from service.lti import platforms as tool_platforms

from .conftest import KEY_A, TEST_PREFIX, make_settings
from .lti_platform import INSTRUCTOR, LEARNER, Lms, forms, make_platform, serving, start_url

pytestmark = pytest.mark.redis
OPERATOR_KEY = "op-lti-key-1"
OTHER_KEY = "op-lti-key-2"


@pytest.fixture(scope="module")
def tool(redis_url: str) -> Iterator[tuple[Any, str]]:
    app = service.create_app(
        make_settings(
            KEY_A,
            redis_url=redis_url,
            operator_keys=(OPERATOR_KEY, OTHER_KEY),
            webhook_allow_private=True,
            lti_key_publish_seconds=0,
            webhook_backoff_seconds=(0, 0.1, 0.1),
        )
    )
    with serving(app) as base:
        yield app, base


@pytest.fixture()
def lms(tool: tuple[Any, str]) -> Iterator[Lms]:
    """A platform of its own for each test, registered by hand through the API."""
    _, base = tool
    found = Lms(tool=base)
    with serving(make_platform(found)) as platform_base:
        found.base = platform_base
        yield found


def op(key: str = OPERATOR_KEY) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def register(tool_base: str, lms: Lms) -> dict[str, Any]:
    answer = requests.post(
        f"{tool_base}/v1/operator/lti/platforms", json=lms.api_body(), headers=op(), timeout=10
    )
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def launch(lms: Lms, **kw: Any) -> requests.Response:
    """A user clicks the activity; the browser follows the login and posts the launch."""
    page = requests.get(start_url(lms, **kw), timeout=10)
    assert page.status_code == 200, page.text
    (form,) = forms(page.text)
    return requests.post(form["action"], data=form["fields"], timeout=10, allow_redirects=False)


def refused_code(answer: requests.Response) -> str:
    (code,) = [
        line.split('data-code="')[1].split('"')[0]
        for line in answer.text.split("<p")
        if 'data-code="' in line
    ]
    return code


# ------------------------------------------------------------------ registration ---
def test_an_operator_registers_a_platform_and_sees_what_to_enter(tool: Any, lms: Lms) -> None:
    _, base = tool
    found = register(base, lms)
    assert found["issuer"] == lms.issuer and found["registered_by"] == "api"
    assert found["tool"]["jwks_url"] == f"{base}/lti/jwks.json"
    listed = requests.get(f"{base}/v1/operator/lti/platforms", headers=op(), timeout=10).json()
    assert found["platform_id"] in [p["platform_id"] for p in listed["platforms"]]
    # another operator neither sees nor deletes it
    other = requests.get(f"{base}/v1/operator/lti/platforms", headers=op(OTHER_KEY), timeout=10)
    assert found["platform_id"] not in [p["platform_id"] for p in other.json()["platforms"]]
    gone = requests.delete(
        f"{base}/v1/operator/lti/platforms/{found['platform_id']}",
        headers=op(OTHER_KEY),
        timeout=10,
    )
    assert gone.status_code == 404 and gone.json()["code"] == "lti_platform_not_found"
    # the same issuer and client id twice is a conflict
    again = requests.post(
        f"{base}/v1/operator/lti/platforms", json=lms.api_body(), headers=op(), timeout=10
    )
    assert again.status_code == 409 and again.json()["code"] == "lti_platform_exists"
    one = requests.get(
        f"{base}/v1/operator/lti/platforms/{found['platform_id']}", headers=op(), timeout=10
    )
    assert one.json() == found
    deleted = requests.delete(
        f"{base}/v1/operator/lti/platforms/{found['platform_id']}", headers=op(), timeout=10
    )
    assert deleted.status_code == 204


def test_a_platform_whose_urls_the_service_may_not_call_is_refused(redis_url: str) -> None:
    app = service.create_app(
        make_settings(KEY_A, redis_url=redis_url, operator_keys=(OPERATOR_KEY,))
    )
    body = Lms(base="http://127.0.0.1:9", tool="http://x").api_body()
    with app.test_client() as c:
        answer = c.post("/v1/operator/lti/platforms", json=body, headers=op())
        assert answer.status_code == 422
        assert answer.get_json()["code"] == "bad_lti_platform"
        assert "auth_login_url" in answer.get_json()["errors"]
        nobody = c.post("/v1/operator/lti/platforms", json=body)
        assert nobody.status_code == 401


def test_dynamic_registration_registers_the_platform_for_the_operator(tool: Any, lms: Lms) -> None:
    _, base = tool
    link = requests.post(f"{base}/v1/operator/lti/registrations", headers=op(), timeout=10)
    assert link.status_code == 201
    url = link.json()["registration_url"]
    config = f"{lms.base}/.well-known/openid-configuration"
    page = requests.get(
        url,
        params={"openid_configuration": config, "registration_token": "reg-token-1"},
        timeout=10,
    )
    assert page.status_code == 200, page.text
    assert "data-lti-close" in page.text
    # what the platform received: the tool's OIDC client metadata with its LTI configuration
    assert lms.registered["jwks_uri"] == f"{base}/lti/jwks.json"
    assert lms.registered["initiate_login_uri"] == f"{base}/lti/login"
    tool_config = lms.registered["https://purl.imsglobal.org/spec/lti-tool-configuration"]
    assert {m["type"] for m in tool_config["messages"]} == {
        "LtiResourceLinkRequest",
        "LtiDeepLinkingRequest",
    }
    listed = requests.get(f"{base}/v1/operator/lti/platforms", headers=op(), timeout=10).json()
    mine = [p for p in listed["platforms"] if p["client_id"] == lms.client_id]
    assert mine and mine[0]["registered_by"] == "dynamic"
    assert mine[0]["deployment_ids"] == [lms.deployment_id]
    # the link is used once
    again = requests.get(url, params={"openid_configuration": config}, timeout=10)
    assert again.status_code == 401 and refused_code(again) == "registration_expired"
    # and the platform registered this way launches
    answer = launch(lms, user="t-dyn", role="instructor", kind="deep")
    assert answer.status_code == 200, answer.text


# ------------------------------------------------------------------------- keys ---
def test_the_tool_publishes_its_keys_and_rotates_with_two_published(tool: Any) -> None:
    app, base = tool
    first = requests.get(f"{base}/lti/jwks.json", timeout=10).json()["keys"]
    assert first and all("d" not in k and k["alg"] == "RS256" for k in first)
    with app.app_context():
        rotated = tool_keys.rotate()
        assert len(rotated) == 2
        # published at once; with LTI_KEY_PUBLISH_SECONDS=0 the new key signs at once
        assert tool_keys.signing_key().kid == rotated[-1].kid
    after = requests.get(f"{base}/lti/jwks.json", timeout=10).json()["keys"]
    assert [k["kid"] for k in after] == [k.kid for k in rotated]
    assert first[-1]["kid"] in [k["kid"] for k in after]


def test_rotating_twice_within_the_hour_keeps_the_key_that_signs(redis_url: str) -> None:
    app = service.create_app(
        make_settings(KEY_A, redis_url=redis_url, redis_key_prefix=TEST_PREFIX + "keys:")
    )
    with app.app_context():
        signer = tool_keys.signing_key()
        first = tool_keys.rotate()
        second = tool_keys.rotate()
        # the new keys are published for an hour before they sign
        assert tool_keys.signing_key().kid == signer.kid
        assert first[0].kid == second[0].kid == signer.kid
        assert first[1].kid != second[1].kid
        assert [k["kid"] for k in tool_keys.jwks()["keys"]] == [signer.kid, second[1].kid]


# ----------------------------------------------------------------------- launch ---
def test_a_teacher_deep_links_a_game_with_its_line_item(tool: Any, lms: Lms) -> None:
    _, base = tool
    register(base, lms)
    picker = launch(lms, user="teacher-1", role="instructor", kind="deep")
    assert picker.status_code == 200, picker.text
    # the picker may be framed by the platform's origin only
    assert f"frame-ancestors {lms.base}" in picker.headers["Content-Security-Policy"]
    (form,) = forms(picker.text)
    fields = {
        **form["fields"],
        "game": "metal-vs-nonmetal",
        "players": "4",
        "bot": "greedy",
        "title": "Metal vs. Non-Metal, tables of four",
    }
    # a table size the game does not have is told, and the ticket still works
    wrong = requests.post(f"{base}{form['action']}", data={**fields, "players": "99"}, timeout=10)
    assert wrong.status_code == 422 and "players" in wrong.text
    back = requests.post(f"{base}{form['action']}", data=fields, timeout=10)
    assert back.status_code == 200, back.text
    (response_form,) = forms(back.text)
    assert response_form["action"] == f"{lms.base}/deep-link-return"
    # the browser posts it to the platform, which checks it with the tool's JWKS
    added = requests.post(response_form["action"], data=response_form["fields"], timeout=10)
    assert added.status_code == 200, added.text
    (item,) = lms.content_items
    assert item["type"] == "ltiResourceLink" and item["url"] == f"{base}/lti/launch"
    assert item["lineItem"]["scoreMaximum"] == 100
    assert item["custom"]["game"] == "metal-vs-nonmetal" and item["custom"]["players"] == "4"
    claims = jwt.decode(response_form["fields"]["JWT"], options={"verify_signature": False})
    assert claims["aud"] == lms.issuer and claims["iss"] == lms.client_id
    # the picker's ticket is spent
    replay = requests.post(f"{base}{form['action']}", data=fields, timeout=10)
    assert replay.status_code == 401 and refused_code(replay) == "deep_link_expired"


def test_a_learner_cannot_open_the_picker(tool: Any, lms: Lms) -> None:
    register(tool[1], lms)
    answer = launch(lms, user="s-1", role="learner", kind="deep")
    assert answer.status_code == 403 and refused_code(answer) == "not_a_teacher"


def _fragment_token(location: str) -> str:
    return location.partition("#token=")[2]


def play_to_end(base: str, slug: str, seats: list[tuple[str, int, str]]) -> None:
    """Each student's seat moves (by ``bot-move`` with the student's own credential)
    until their table's game is over; the bot seats are the service's."""
    deadline = time.monotonic() + 240
    pending = {sid for sid, _, _ in seats}
    while pending:
        assert time.monotonic() < deadline, f"tables still playing: {pending}"
        for sid in sorted(pending):
            url = f"{base}/v1/{slug}/sessions/{sid}"
            if requests.get(f"{url}/scores", timeout=10).json()["outcome"]["finished"]:
                pending.discard(sid)
                continue
            state = requests.get(url, timeout=10).json()
            for table_sid, seat, token in seats:
                if table_sid == sid and seat in state["to_act"]:
                    moved = requests.post(
                        f"{url}/bot-move",
                        json={"seat": seat, "version": state["version"], "bot": "greedy"},
                        headers={"Authorization": f"Bearer {token}"},
                        timeout=10,
                    )
                    assert moved.status_code in (200, 409, 422), moved.text


def test_launches_open_the_links_lesson_and_scores_reach_the_platform(tool: Any, lms: Lms) -> None:
    app, base = tool
    register(base, lms)
    custom = {"game": "metal-vs-nonmetal", "players": "4", "bot": "greedy", "options": "{}"}
    teacher = launch(lms, user="teacher-1", role="instructor", custom=custom, link="rl-9")
    assert teacher.status_code == 303, teacher.text
    lesson_page = teacher.headers["Location"]
    assert lesson_page.startswith("/play/lessons/") and "?lti=plt_" in lesson_page
    lesson_id = lesson_page.split("/")[3].split("?")[0]
    # the lesson page may be framed by the platform (and only by it)
    page = requests.get(f"{base}{lesson_page.partition('#')[0]}", timeout=10)
    assert page.status_code == 200
    assert f"frame-ancestors {lms.base}" in page.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in page.headers
    # a second instructor launch of the same link lands on the same lesson
    again = launch(lms, user="teacher-2", role="instructor", custom=custom, link="rl-9")
    assert again.headers["Location"].split("?")[0] == lesson_page.split("?")[0]
    waiting = []
    for user in ("student-a", "student-b"):
        joined = launch(lms, user=user, role="learner", custom=custom, link="rl-9")
        # the table is dealt when the teacher starts: the student waits on a page that
        # looks again by itself
        assert joined.status_code == 200, joined.text
        assert "Waiting for your table" in joined.text
        waiting.append(joined.text.split(";url=")[1].split('"')[0])
    # a student who launches again keeps their seat: the same table, never a second one
    back = launch(lms, user="student-a", role="learner", custom=custom, link="rl-9")
    assert "seat at table 1" in back.text
    # the lesson's LTI side: the course's learners not joined yet, read through NRPS
    lms.roster = [
        {"user_id": u, "name": n, "roles": [LEARNER]}
        for u, n in (("student-a", "Ada"), ("student-b", "Bo"), ("student-c", "Cy"))
    ] + [{"user_id": "teacher-1", "name": "T", "roles": [INSTRUCTOR]}]
    teacher_auth = {"Authorization": f"Bearer {_fragment_token(lesson_page)}"}
    side = requests.get(f"{base}/v1/lessons/{lesson_id}/lti", headers=teacher_auth, timeout=10)
    assert side.status_code == 200, side.text
    assert side.json()["roster"] == {
        "available": True,
        "not_joined": [{"name": "Cy"}],
        "error": None,
    }
    assert side.json()["grades"] == []
    nobody = requests.get(f"{base}/v1/lessons/{lesson_id}/lti", timeout=10)
    assert nobody.status_code == 401
    still = requests.get(f"{base}{waiting[0]}", timeout=10, allow_redirects=False)
    assert still.status_code == 200 and "Waiting for your table" in still.text
    token = _fragment_token(lesson_page)
    started = requests.post(
        f"{base}/v1/lessons/{lesson_id}/start",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert started.status_code == 200, started.text
    seats = []
    for ticket in waiting:
        opened = requests.get(f"{base}{ticket}", timeout=10, allow_redirects=False)
        assert opened.status_code == 303, opened.text
        seat_page = opened.headers["Location"]
        assert "?lti=" in seat_page and "#token=" in seat_page
        _, slug, sid, _, number = seat_page.split("#")[0].split("?")[0].split("/")[1:6]
        seats.append((sid, int(number), _fragment_token(seat_page)))
    # the ticket is spent once the seat is opened
    spent = requests.get(f"{base}{waiting[0]}", timeout=10, allow_redirects=False)
    assert spent.status_code == 401 and refused_code(spent) == "seat_wait_expired"
    # a student who launches once the table is dealt goes straight to the seat page
    again_a = launch(lms, user="student-a", role="learner", custom=custom, link="rl-9")
    assert again_a.status_code == 303
    assert (
        again_a.headers["Location"]
        .split("#")[0]
        .split("?")[0]
        .endswith(f"/{seats[0][0]}/seat/{seats[0][1]}")
    )
    play_to_end(base, slug, seats)
    with app.app_context():
        _run_until(app, lambda: len(lms.scores) == 2, seconds=30)
    sent = requests.get(f"{base}/v1/lessons/{lesson_id}/lti", headers=teacher_auth, timeout=10)
    assert [g["status"] for g in sent.json()["grades"]] == ["sent", "sent"]
    assert {g["name"] for g in sent.json()["grades"]} == {"User student-a", "User student-b"}
    results = requests.get(
        f"{base}/v1/lessons/{lesson_id}/results",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    ).json()
    places = {
        (t["session_id"], s["seat"]): s["place"] for t in results["tables"] for s in t["seats"]
    }
    by_user = {s["userId"]: s for s in lms.scores}
    assert set(by_user) == {"student-a", "student-b"}
    for user, (sid, seat, _) in zip(("student-a", "student-b"), seats, strict=True):
        place = places[(sid, seat)]
        assert by_user[user]["scoreGiven"] == grades.score_for(place, 4)
        assert by_user[user]["lineitem"] == "rl-9"
        assert f"Place {place} of 4" in by_user[user]["comment"]


def test_a_link_without_a_chosen_game_is_refused(tool: Any, lms: Lms) -> None:
    register(tool[1], lms)
    answer = launch(lms, user="s-1", role="learner", link="rl-none")
    assert answer.status_code == 400 and refused_code(answer) == "activity_not_chosen"


@pytest.mark.parametrize(
    ("tamper", "status", "code"),
    [
        ("bad_signature", 401, "bad_signature"),
        ("wrong_audience", 401, "wrong_audience"),
        ("expired", 401, "launch_expired_token"),
        ("unknown_deployment", 403, "unknown_deployment"),
        ("wrong_issuer", 401, "wrong_issuer"),
        ("old_version", 401, "unsupported_message"),
        ("unknown_message", 401, "unsupported_message"),
    ],
)
def test_a_broken_launch_is_refused_with_a_clear_page_and_nothing_created(
    tool: Any, lms: Lms, tamper: str, status: int, code: str
) -> None:
    app, base = tool
    found = register(base, lms)
    lms.tamper = tamper
    custom = {"game": "metal-vs-nonmetal", "players": "4", "bot": "greedy", "options": "{}"}
    for role in ("instructor", "learner"):
        answer = launch(lms, user="u-1", role=role, custom=custom, link=f"rl-{tamper}")
        assert answer.status_code == status, answer.text
        assert refused_code(answer) == code
        assert "Nothing was created" in answer.text
        assert answer.headers["Content-Type"].startswith("text/html")
        # the refusal is shown in the LMS's frame
        assert lms.base in answer.headers["Content-Security-Policy"]
    with app.app_context():
        link = grades.link_key(found["platform_id"], "course-1", f"rl-{tamper}")
        assert tool_keys._redis().get(landing._lesson_key(link)) is None  # no lesson
    assert lms.scores == [] and lms.content_items == []


def test_a_page_names_a_platform_to_be_framed_by_it_only_if_it_is_registered(
    tool: Any, lms: Lms
) -> None:
    _, base = tool
    found = register(base, lms)
    framed = requests.get(f"{base}/play?lti={found['platform_id']}", timeout=10)
    assert f"frame-ancestors {lms.base}" in framed.headers["Content-Security-Policy"]
    for unknown in ("plt_nobody", "x" * 80):
        page = requests.get(f"{base}/play?lti={unknown}", timeout=10)
        assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
        assert page.headers["X-Frame-Options"] == "DENY"


def test_a_replayed_launch_is_refused(tool: Any, lms: Lms) -> None:
    register(tool[1], lms)
    first = launch(lms, user="t-1", role="instructor", kind="deep")
    assert first.status_code == 200
    form = lms.last_launch_form
    again = requests.post(
        form["action"], data={"id_token": form["id_token"], "state": form["state"]}, timeout=10
    )
    assert again.status_code == 401 and refused_code(again) == "launch_replayed"


def test_a_launch_from_an_unknown_platform_or_without_state_is_refused(tool: Any, lms: Lms) -> None:
    _, base = tool
    # not registered: the login itself is refused
    page = requests.get(start_url(lms, user="t-1", role="instructor", kind="deep"), timeout=10)
    assert page.status_code == 403 and refused_code(page) == "unknown_platform"
    # a launch post with a state the tool never gave
    answer = requests.post(
        f"{base}/lti/launch", data={"id_token": "a.b.c", "state": "made-up"}, timeout=10
    )
    assert answer.status_code == 401 and refused_code(answer) == "launch_expired"
    empty = requests.post(f"{base}/lti/launch", data={}, timeout=10)
    assert empty.status_code == 400 and refused_code(empty) == "launch_incomplete"


def test_lti_logins_and_launches_draw_on_the_joins_budget(redis_url: str) -> None:
    app = service.create_app(
        make_settings(
            KEY_A,
            redis_url=redis_url,
            redis_key_prefix=TEST_PREFIX + "lti-limits:",
            rate_limits_enabled=True,
            rate_limit_joins="2 per minute",
        )
    )
    with app.test_client() as c:
        assert c.get("/lti/login").status_code == 400
        assert c.post("/lti/launch", data={}).status_code == 400
        refused = c.get("/lti/login")
        assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
        # the key set and the waiting page are not limited
        assert c.get("/lti/jwks.json").status_code == 200


def test_roles_other_than_teaching_ones_are_learners() -> None:
    from service.lti.launch import Launch

    claims = {"https://purl.imsglobal.org/spec/lti/claim/roles": [INSTRUCTOR]}
    assert Launch(None, claims).teaches  # type: ignore[arg-type]
    assert not Launch(None, {}).teaches  # type: ignore[arg-type]


# ----------------------------------------------------------------------- grades ---
def _run_until(app: Any, done: Any, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the due work did not finish"
        app.extensions["chemgames.due"].run_due(in_context(app))
        time.sleep(0.05)


def test_a_grade_reaches_the_platform_through_ags_retried_and_logged(tool: Any, lms: Lms) -> None:
    app, base = tool
    found = register(base, lms)
    lms.refuse_scores = 1  # the platform is down for the first attempt
    link = grades.link_key(found["platform_id"], "course-1", "rl-7")
    with app.app_context():
        grade_id = grades.send(
            grades.Grade(
                platform_id=found["platform_id"],
                lineitem=f"{lms.base}/lineitems/course-1/rl-7",
                user_id="student-7",
                score_given=grades.score_for(2, 4),
                comment="2nd of 4 at Metal vs. Non-Metal",
                link=link,
            )
        )

        def sent() -> bool:
            status: str = grades.log(link)[0]["status"]
            return status == "sent"

        _run_until(app, sent)
        (logged,) = grades.log(link)
    assert logged["grade_id"] == grade_id
    assert [a["status"] for a in logged["attempts"]] == [503, 200]
    (score,) = lms.scores
    assert score["lineitem"] == "rl-7" and score["userId"] == "student-7"
    assert score["scoreGiven"] == 83.33 and score["scoreMaximum"] == 100
    assert score["activityProgress"] == "Completed" and score["gradingProgress"] == "FullyGraded"
    assert lms.tokens_issued == 1  # the token is kept for the next grades


def test_a_grade_for_a_deleted_platform_fails_once_and_is_kept(tool: Any, lms: Lms) -> None:
    app, base = tool
    found = register(base, lms)
    link = grades.link_key(found["platform_id"], "course-1", "rl-8")
    with app.app_context():
        platform = tool_platforms.get(found["platform_id"])
        assert platform is not None
        tool_platforms.remove(platform)
        grades.send(
            grades.Grade(found["platform_id"], f"{lms.base}/lineitems/c/rl-8", "s", 50.0, "", link)
        )
        _run_until(app, lambda: grades.log(link)[0]["status"] != "pending")
        (logged,) = grades.log(link)
    assert logged["status"] == "failed" and len(logged["attempts"]) == 1
    assert lms.scores == []


def test_the_roster_lists_the_courses_learners_through_nrps(tool: Any, lms: Lms) -> None:
    app, base = tool
    found = register(base, lms)
    lms.roster = [
        {"user_id": "s-1", "name": "Ada", "roles": [LEARNER]},
        {"user_id": "s-2", "name": "Bo", "roles": [LEARNER], "status": "Inactive"},
        {"user_id": "t-1", "name": "Teacher", "roles": [INSTRUCTOR]},
    ]
    with app.app_context():
        platform = tool_platforms.get(found["platform_id"])
        assert platform is not None
        listed = grades.learners(platform, f"{lms.base}/memberships/course-1")
    assert listed == [{"user_id": "s-1", "name": "Ada"}]
