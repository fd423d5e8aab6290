"""Chemistry Battle in a real browser (Chromium through Playwright): a game made on the
new-game page at a phone's size (360 x 640), played to its end from the seat page of
its join link against a bot seat, with the keyboard and the pointer in turn; then the
projector's table page of the same game.

One browser for the module, and the browser tests' shared gunicorn server (as `make
serve` runs it; ``browser_server``, tests/conftest.py); the server ends every event
stream after a few seconds, so the pages reconnect throughout.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .browser import PHONE, PROJECTOR, Console, axe_violations, browser, needs_chromium
from .browser_games import MOVED, final_screenshot, made, press, status_line, version

pytestmark = [pytest.mark.redis, needs_chromium]
__all__ = ["browser"]  # the shared browser fixture

SLUG = "chemistry-battle"
ROUNDS = 6

# the page shows this seat's turn (its hand loaded) or the end of the game
READY = """() => {
  const s = document.querySelector('.status')?.textContent ?? '';
  return s.includes('The game is over')
    || (s.includes('your turn') && document.querySelector('.hand .card-button') !== null);
}"""


@pytest.fixture(scope="module")
def base(browser_server: str) -> str:
    return browser_server


def _create(page: Any, base: str) -> str:
    """The new-game page: two players, seat 1 a bot, counted after ROUNDS rounds."""
    page.goto(f"{base}/play")
    # the catalogue the page fetches on load answers first: a late answer would reset
    # the form to the first game after this test chose its own
    page.wait_for_load_state("networkidle")
    page.get_by_label("Game").select_option(SLUG)
    # the game's catalogue entry resets the form when it arrives: fill it after that
    page.get_by_label("round limit").wait_for()
    page.wait_for_load_state("networkidle")
    page.get_by_label("Players").fill("2")
    page.get_by_label("Seat 1", exact=True).select_option("greedy")
    page.get_by_label("round limit").fill(str(ROUNDS))
    assert axe_violations(page) == []
    page.get_by_role("button", name="Create the game").click()
    page.get_by_role("heading", name=re.compile("the join links")).wait_for()
    return str(page.get_by_role("link", name="Open seat 0", exact=True).get_attribute("href"))


def _play_first_card(page: Any, keyboard: bool) -> None:
    card = page.locator(".hand .card-button").first
    name = card.locator(".sr-only").inner_text()
    before = version(page)
    play = page.get_by_role("button", name=re.compile("^Play "))
    if keyboard:
        card.focus()
        page.keyboard.press("Space")
        page.locator(".hand .card-button[aria-pressed=true]").wait_for()
        play.focus()
        page.keyboard.press("Enter")
    else:
        card.click()
        play.click()
    page.wait_for_function(MOVED, arg=before)
    # the card left the hand (the hand is no longer drawn once the game is over)
    if page.locator(".hand").count():
        assert name.split(",")[0] not in page.locator(".hand").inner_text()


def test_a_game_played_to_its_end_from_a_seat_page_on_a_phone(browser: Any, base: str) -> None:
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    link = _create(page, base)
    page.goto(link)
    page.wait_for_function(READY)
    assert "#" not in page.url and "token" not in page.url
    assert axe_violations(page) == []
    # the hand is drawn from the view: 27 cards, each with symbol, number and name
    hand = page.locator(".hand .card-button")
    assert hand.count() == 27
    first = hand.first.locator(".sr-only").inner_text()
    assert re.fullmatch(r"[A-Z][a-z]+, symbol [A-Z][a-z]?, atomic number \d+", first)
    played = 0
    while "The game is over" not in status_line(page):
        assert played < ROUNDS, status_line(page)
        _play_first_card(page, keyboard=played % 2 == 0)
        played += 1
        page.wait_for_function(READY)
        if played == 1:
            # a round's result is on the table, in words: the winning card and why
            assert re.search(
                r"Round 1: (you win|seat 1 wins) 2 cards: .* beats ",
                page.locator(".log-lines").inner_text(),
            )
            assert axe_violations(page) == []
    assert played == ROUNDS
    page.get_by_role("heading", name="Final scores").wait_for()
    assert f"after round {ROUNDS}: the round limit was reached" in status_line(page)
    rows = page.locator(".scores tbody tr")
    assert rows.count() == 2
    # the service's counts: the two seats hold all 54 cards between them
    totals = [int(rows.nth(i).locator("td").last.inner_text()) for i in range(2)]
    assert sum(totals) == 54
    log = page.locator(".log-lines").inner_text()
    assert f"Round {ROUNDS}:" in log and "round limit" in log.lower()
    # once over, every seat's cards are shown (the cards are counted)
    page.get_by_text("Seat 1's cards").click()
    assert page.get_by_role("list", name="Seat 1's hand cards").locator("li").count() > 0
    assert axe_violations(page) == []
    final_screenshot(page, SLUG, "chemistry-battle-seat-phone")
    projector = console.watch(browser.new_context(viewport=PROJECTOR).new_page())
    projector.goto(link.split("/seat/")[0] + "/table")
    projector.get_by_role("heading", name="Final scores").wait_for()
    assert projector.evaluate("Object.keys(sessionStorage).length") == 0
    assert axe_violations(projector) == []
    assert console.unexpected() == []
    projector.context.close()
    context.close()


# this seat's turn with its legal moves known (the next card), or the end of the game
NEXT_READY = """() => {
  const s = document.querySelector('.status')?.textContent ?? '';
  if (s.includes('The game is over')) return true;
  const next = [...document.querySelectorAll('button')].find(
    b => b.textContent.startsWith('Play your next card'));
  return s.includes('your turn') && next !== undefined && !next.disabled;
}"""


def test_face_down_hands_played_top_card_first_to_the_end(browser: Any, base: str) -> None:
    """`hand_play: "top"`: the hand is a face-down stack, so the seat's one action is
    *Play your next card*; collected cards lie face up and are played in order once
    the hand is empty, until a seat runs out."""
    link, _ = made(
        base,
        SLUG,
        {
            "players": 2,
            "seed": 1,
            "bots": {"1": "greedy"},
            "options": {
                "deal": [[10, 20, 30], [11, 21, 5]],
                "dealer": 1,
                "hand_play": "top",
                "collected": "face_up",
            },
        },
    )
    console = Console()
    context = browser.new_context(viewport=PROJECTOR)
    page = console.watch(context.new_page())
    page.goto(link)
    page.wait_for_function(NEXT_READY)
    # the stack's faces are not shown, not even to its owner
    assert page.locator(".hand").count() == 0
    assert "face-down stack" in page.locator(".seat").inner_text()
    assert axe_violations(page) == []
    rounds = 0
    while "The game is over" not in status_line(page):
        assert rounds < 40, status_line(page)
        press(page, re.compile("^Play your next card"))
        rounds += 1
        page.wait_for_function(NEXT_READY)
    page.get_by_role("heading", name="Final scores").wait_for()
    assert "ran out of cards" in status_line(page)
    totals = page.locator(".scores tbody tr td:last-child").all_inner_texts()
    assert sorted(int(t) for t in totals) == [0, 6]
    log = page.locator(".log-lines").inner_text()
    assert "from the hand" in log and "collected" in log
    assert axe_violations(page) == []
    assert console.unexpected() == []
    context.close()
