"""The teacher's lesson page in Chromium (issue 30): two students join one table from the
join page, one on a phone; the teacher's page shows the table live from the lesson's
stream (who sits where, whose turn), then ends the lesson. axe-core finds nothing
serious on either page, at a phone's size too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .browser import PHONE, PROJECTOR, Console, axe_violations, browser, needs_chromium, screenshot
from .test_gunicorn import call, serve

pytestmark = [pytest.mark.redis, needs_chromium]
__all__ = ["browser"]  # the shared browser fixture

OPERATOR = "browser-lesson-operator-3f1c"


@pytest.fixture(scope="module")
def port(redis_url: str) -> Iterator[int]:
    with serve(
        redis_url, SSE_MAX_SECONDS="20", SSE_HEARTBEAT_SECONDS="1", OPERATOR_KEYS=OPERATOR
    ) as found:
        yield found


def _join(context: Any, base: str, code: str, name: str, console: Console) -> Any:
    page = console.watch(context.new_page())
    page.goto(f"{base}/play/join#code={code}")
    page.get_by_label("Join code").wait_for()
    assert page.get_by_label("Join code").input_value() == code
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join").click()
    return page


def test_the_teacher_watches_two_students_at_one_table_live(browser: Any, port: int) -> None:
    base = f"http://127.0.0.1:{port}"
    status, made = call(
        port,
        "POST",
        "/v1/lessons",
        {"game": "element-draft", "table_size": 2, "title": "Period 3 <b>chemistry</b>"},
        token=OPERATOR,
    )
    assert status == 201, made
    console = Console()
    teacher = console.watch(browser.new_context(viewport=PROJECTOR).new_page())
    teacher.goto(base + made["teacher_url"])
    teacher.get_by_role("heading", name="Period 3 <b>chemistry</b>").wait_for()
    assert "#token" not in teacher.url, "the credential left the address bar"
    teacher.get_by_text(made["code"], exact=True).wait_for()
    teacher.get_by_text("No student has joined yet.").wait_for()
    teacher.locator(".connection-live").wait_for()
    assert axe_violations(teacher) == []

    # the students' join pages poll their table until it is dealt (404 until then)
    for _ in range(30):  # one every 2 s while a table fills
        console.allow("status of 404")
    phone = browser.new_context(viewport=PHONE)
    ada = _join(phone, base, made["code"], "Ada <i>L</i>", console)
    ada.get_by_role("heading", name=re.compile("Joined, Ada")).wait_for()
    assert axe_violations(ada) == []
    screenshot(ada, "lesson-join-waiting-phone")
    # the teacher's page hears of it from the stream: no reload
    teacher.get_by_text("Ada <i>L</i>", exact=True).wait_for()
    teacher.get_by_text("waiting for students").wait_for()

    bo = _join(browser.new_context(viewport=PHONE), base, made["code"], "Bo", console)
    # the table is full: dealt, and both join pages open the seat pages
    for page in (ada, bo):
        page.wait_for_url(re.compile(r"/play/element-draft/[0-9a-f]+/seat/\d$"), timeout=15000)
    teacher.locator(".lesson-table-playing").wait_for()
    assert teacher.locator(".lesson-table .seat-row").count() == 2
    assert teacher.locator(".lesson-table .chosen").count() == 2, "both seats draft at once"
    screenshot(teacher, "lesson-teacher-projector")
    assert axe_violations(teacher) == []

    # Ada drafts from her seat page: the teacher sees only Bo left to play
    ada.locator(".hand .card-button").first.click()
    ada.get_by_role("button", name=re.compile("^Draft ")).click()
    teacher.wait_for_function(
        "() => document.querySelectorAll('.lesson-table .chosen').length === 1"
    )
    turn = teacher.locator(".lesson-table .seat-row", has=teacher.locator(".chosen"))
    assert "Bo" in turn.inner_text()

    # the teacher's page on a phone
    small = console.watch(browser.new_context(viewport=PHONE).new_page())
    small.goto(base + made["teacher_url"])
    small.get_by_text("Bo", exact=True).wait_for()
    assert axe_violations(small) == []
    screenshot(small, "lesson-teacher-phone")

    teacher.get_by_role("button", name="End the lesson").click()
    teacher.get_by_text("ended early").wait_for()
    assert teacher.get_by_role("button", name="End the lesson").count() == 0
    status, results = call(port, "GET", f"/v1/lessons/{made['lesson_id']}/results", token=OPERATOR)
    assert status == 200 and {s["name"] for s in results["students"]} == {"Ada <i>L</i>", "Bo"}
    assert console.unexpected() == [], console.unexpected()
