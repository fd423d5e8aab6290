"""LTI in Chromium: the tool's pages inside the platform's iframe, as an LMS shows them.

The platform is ``lti1p3platform`` served on 127.0.0.1 (tests/lti_platform.py), the
tool is the service; the browser keeps no cookie for either (none is set), and every
step is a redirect or a form post the pages make themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest

from .browser import PHONE, Console, axe_violations, browser, needs_chromium, screenshot
from .lti_platform import Lms, make_platform, serving
from .test_lti import register, tool

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
    query = {"link": "rl-1", "context": "course-1", **hint}
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
