"""LTI in Chromium: the tool's pages inside the platform's iframe, as an LMS shows them.

The platform is ``lti1p3platform`` served on 127.0.0.1 (tests/lti_platform.py), the
tool is the service; the browser keeps no cookie for either (none is set), and every
step is a redirect or a form post the pages make themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import orjson
import pytest

from .browser import PHONE, Console, axe_violations, browser, needs_chromium, screenshot
from .lti_platform import LEARNER, Lms, make_platform, serving
from .test_lti import _run_until, play_to_end, register, tool

__all__ = ["browser", "tool"]  # the shared fixtures
pytestmark = [pytest.mark.redis, needs_chromium]


@pytest.fixture()
def lms(tool: tuple[Any, str]) -> Iterator[Lms]:
    found = Lms(tool=tool[1])
    with serving(make_platform(found)) as platform_base:
        found.base = platform_base
        register(tool[1], found)
        yield found


def course(lms: Lms, **hint: str) -> str:
    query = {"link": "rl-1", "context": "course-1", "kind": "link", **hint}
    return f"{lms.base}/course?{urlencode(query)}"


def tool_frame(page: Any, path: str) -> Any:
    for _ in range(100):
        found = [f for f in page.frames if path in f.url]
        if found:
            return found[0]
        page.wait_for_timeout(100)
    raise AssertionError(f"no frame at {path}: {[f.url for f in page.frames]}")


def test_a_teacher_adds_a_game_from_inside_the_lms(browser: Any, lms: Lms) -> None:
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    page.goto(course(lms, user="teacher-1", role="instructor", kind="deep"))
    frame = page.frame_locator("iframe[title=Activity]")
    frame.get_by_label("Game", exact=True).select_option("metal-vs-nonmetal")
    assert axe_violations(tool_frame(page, "/lti/launch")) == []
    screenshot(page, "lti-picker-phone")
    frame.get_by_label("Players at each table").fill("4")
    frame.get_by_label("Bot on empty seats").select_option("greedy")
    frame.get_by_label("Title in the course").fill("Metal vs. Non-Metal, tables of four")
    frame.get_by_role("button", name="Add to the course").click()
    # the tool's page posts the signed response to the platform, inside the frame
    frame.get_by_text("Added to the course.").wait_for()
    (item,) = lms.content_items
    assert item["title"] == "Metal vs. Non-Metal, tables of four"
    assert item["custom"] == {
        "game": "metal-vs-nonmetal",
        "players": "4",
        "bot": "greedy",
        "options": "{}",
    }
    assert item["lineItem"]["scoreMaximum"] == 100
    assert context.cookies() == []  # nothing depended on a cookie
    assert console.unexpected() == []
    context.close()


def test_a_broken_launch_shows_its_refusal_inside_the_lms(browser: Any, lms: Lms) -> None:
    console = Console()
    context = browser.new_context()
    page = console.watch(context.new_page())
    lms.tamper = "bad_signature"
    page.goto(course(lms, user="teacher-1", role="instructor", kind="deep"))
    frame = page.frame_locator("iframe[title=Activity]")
    frame.get_by_role("heading", name="This activity could not be opened").wait_for()
    assert "signature" in frame.locator(".refused").inner_text()
    assert axe_violations(tool_frame(page, "/lti/launch")) == []
    assert lms.content_items == []
    console.allow(r"status of 401")
    assert console.unexpected() == []
    context.close()


def _launched(page: Any, found: list[str]) -> None:
    """Keeps where each launch sent the frame (its credential is in the fragment, which
    the page then moves to its own storage)."""
    page.on(
        "response",
        lambda r: (
            found.append(r.headers["location"])
            if r.status == 303 and ("/lti/launch" in r.url or "/lti/seat/" in r.url)
            else None
        ),
    )


def test_a_class_plays_from_inside_the_lms_and_the_scores_reach_its_gradebook(
    browser: Any, lms: Lms, tool: Any
) -> None:
    app, base = tool
    console = Console()
    # the teacher adds the Chemistry Card Game, tables of four
    teacher = browser.new_context()
    page = console.watch(teacher.new_page())
    page.goto(course(lms, user="teacher-1", role="instructor", kind="deep"))
    frame = page.frame_locator("iframe[title=Activity]")
    frame.get_by_label("Game", exact=True).select_option("element-draft")
    frame.get_by_label("Players at each table").fill("4")
    frame.get_by_label("Bot on empty seats").select_option("greedy")
    frame.get_by_role("button", name="Add to the course").click()
    frame.get_by_text("Added to the course.").wait_for()
    custom = orjson.dumps(lms.content_items[0]["custom"]).decode()
    lms.roster = [
        {"user_id": u, "name": n, "roles": [LEARNER]}
        for u, n in (("student-a", "Ada"), ("student-b", "Bo"), ("student-c", "Cy"))
    ]
    # the teacher opens it: the lesson page, inside the LMS
    teacher_went: list[str] = []
    _launched(page, teacher_went)
    page.goto(course(lms, user="teacher-1", role="instructor", custom=custom))
    frame.get_by_role("heading", name="A game").wait_for()
    frame.get_by_text("No student has joined yet.").wait_for()
    assert "/play/lessons/" in teacher_went[0]
    # the course's learners not joined yet, from the LMS's roster (NRPS)
    frame.get_by_text("Not joined yet (3):").wait_for()
    # two students open it from the course: each lands on a seat page inside the LMS
    students = []
    for user in ("student-a", "student-b"):
        context = browser.new_context(viewport=PHONE)
        student = console.watch(context.new_page())
        went: list[str] = []
        _launched(student, went)
        student.goto(course(lms, user=user, role="learner", custom=custom))
        # the table is dealt when the teacher starts: until then the student waits
        waiting = student.frame_locator("iframe[title=Activity]")
        waiting.get_by_role("heading", name="Waiting for your table").wait_for()
        students.append((student, went))
        screenshot(student, f"lti-waiting-{user}")
    frame.get_by_text("Not joined yet (1):").wait_for()
    frame.locator(".not-joined").get_by_text("Cy", exact=True).wait_for()
    # the teacher starts the lesson: bots fill the table
    frame.get_by_role("button", name="Start now").click()
    frame.locator(".lesson-table-playing").wait_for()
    # each waiting page opens its seat page by itself
    seats = []
    for student, went in students:
        seat_frame = tool_frame(student, "/seat/")
        seat_frame.wait_for_load_state()
        (location,) = [w for w in went if "/seat/" in w]
        path = location.split("?")[0].split("/")
        seats.append((path[3], int(path[5]), location.partition("#token=")[2]))
    play_to_end(base, "element-draft", seats)
    with app.app_context():
        _run_until(app, lambda: len(lms.scores) == 2, seconds=30)
    assert {s["userId"] for s in lms.scores} == {"student-a", "student-b"}
    # the teacher sees the grades sent
    page.reload()
    sent = frame.get_by_role("table", name="Grades sent to the LMS (out of 100)")
    sent.wait_for()
    assert sent.get_by_role("cell", name="sent", exact=True).count() == 2
    assert axe_violations(tool_frame(page, "/play/lessons/")) == []
    screenshot(page, "lti-lesson-page")
    assert all(50 <= s["scoreGiven"] <= 100 for s in lms.scores)
    assert teacher.cookies() == []
    assert console.unexpected() == []
    teacher.close()
