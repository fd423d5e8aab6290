"""Helpers of the browser tests of Chemistry Battle, Compound Capture and Chemistry
Canasta: a game made through the API (with a seed, so the deal is the same each run)
or the new-game page, a move made from a seat page and waited for, and the final
table's screenshot (under test-artifacts/browser/; copied to docs/screenshots/ when
UPDATE_DOCS_SCREENSHOTS=1, as the docs show each game's table as a student sees it).
"""

from __future__ import annotations

import os
import re
import shutil
from typing import Any
from urllib.parse import urlsplit

from service.games.pages import join_link

from .browser import PHONE, ROOT, Console, axe_violations, screenshot
from .test_gunicorn import call

DOCS = ROOT / "docs" / "screenshots"

# the seat's view moved on from version n (its section carries the version it shows),
# the game is over (the section is gone, the final scores are shown), or the move was
# refused
MOVED = """n => Number(document.querySelector('[data-version]')?.dataset.version ?? -1) > n
  || document.querySelector('#scores-heading') !== null
  || document.querySelector('.notice-refused') !== null"""


def port_of(base: str) -> int:
    return int(urlsplit(base).port or 80)


def made(base: str, slug: str, body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A hosted game made through the API; the join link of seat 0 and the answer."""
    status, answer = call(port_of(base), "POST", f"/v1/{slug}/sessions", body)
    assert status == 201, answer
    link = base + join_link(slug, answer["session_id"], 0, answer["seats"][0]["seat_token"])
    return link, answer


def status_line(page: Any) -> str:
    return str(page.locator(".status").inner_text())


def log_length(page: Any) -> int:
    return int(page.locator(".log-lines li").count())


def version(page: Any) -> int:
    """The version of the view the seat's section shows."""
    return int(page.locator("[data-version]").get_attribute("data-version"))


def press(page: Any, name: str | re.Pattern[str]) -> None:
    """Presses an act button and waits until the move's answer is on the page."""
    notice = page.locator(".notice-refused")
    if notice.count():  # an earlier refusal's, which the wait below must not take
        notice.get_by_role("button", name="Dismiss").click()
    before = version(page)
    page.get_by_role("button", name=name).first.click()
    page.wait_for_function(MOVED, arg=before)


def final_screenshot(page: Any, slug: str, name: str) -> None:
    path = screenshot(page, name)
    if os.environ.get("UPDATE_DOCS_SCREENSHOTS") == "1":
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOCS / f"{slug}.png")


def create_on_page(
    page: Any, base: str, slug: str, players: int, bots: dict[int, str], choices: dict[str, str]
) -> str:
    """The new-game page: the game, players, bot seats and options chosen from lists
    (an option's label -> the value shown); returns the join link of seat 0."""
    page.goto(f"{base}/play")
    # the catalogue the page fetches on load answers first: a late answer would reset
    # the form to the first game after this test chose its own
    page.wait_for_load_state("networkidle")
    page.get_by_label("Game").select_option(slug)
    # the game's catalogue entry arrives after the choice and resets the form to its
    # minimum players: fill it once that has happened
    for label in choices:
        page.get_by_label(label, exact=True).wait_for()
    page.wait_for_load_state("networkidle")
    page.get_by_label("Players").fill(str(players))
    for seat, bot in bots.items():
        page.get_by_label(f"Seat {seat}", exact=True).select_option(bot)
    for label, value in choices.items():
        page.get_by_label(label, exact=True).select_option(label=value)
    page.get_by_role("button", name="Create the game").click()
    page.get_by_role("heading", name=re.compile("the join links")).wait_for()
    return str(page.get_by_role("link", name="Open seat 0", exact=True).get_attribute("href"))


def final_table(console: Console, context: Any, link: str) -> None:
    """The game's table page (a projector's), once the game is over: its final scores,
    and nothing axe finds."""
    table = console.watch(context.new_page())
    table.goto(link.split("/seat/")[0] + "/table")
    table.get_by_role("heading", name="Final scores").wait_for()
    assert axe_violations(table) == []


def made_with_the_ionic_deck(browser: Any, base: str, slug: str, ready: str) -> None:
    """A draw-two game (Compound Capture, Chemistry Canasta) made on the new-game page at
    a phone's size, with two bot seats and the Ionic Compound Deck; its seat page (once
    ``ready``) shows six face-up cards, each one ionic."""
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    link = create_on_page(page, base, slug, 3, {1: "random", 2: "greedy"}, {"decks": "ionic"})
    assert axe_violations(page) == []
    page.goto(link)
    page.wait_for_function(ready)
    # the Ionic Compound Deck, as chosen: purple-bordered cards that say "ionic"
    row = page.get_by_role("list", name="Face-up compounds").locator(".card-button")
    assert row.count() == 6
    for text in row.locator(".sr-only").all_inner_texts():
        assert "ionic bonding" in text
    assert "decks: ionic" in page.locator(".table").inner_text()
    assert axe_violations(page) == []
    assert console.unexpected() == []
    context.close()
