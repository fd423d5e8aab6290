"""Chemistry Canasta in a real browser (Chromium through Playwright): a one-round game
with the Ionic Compound Deck, made with a seed, played to its end from the seat page of
its join link against a bot seat: draw two, then capture, lay and extend runs of
consecutive atomic numbers as the rules allow, and discard; a refused run shown in
words; the projector's table page.

One browser for the module, and the browser tests' shared gunicorn server (as `make
serve` runs it; ``browser_server``, tests/conftest.py); the server ends every event
stream after a few seconds, so the pages reconnect throughout.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .browser import PROJECTOR, Console, axe_violations, browser, needs_chromium
from .browser_games import (
    final_screenshot,
    final_table,
    made,
    made_with_the_ionic_deck,
    press,
    status_line,
)

pytestmark = [pytest.mark.redis, needs_chromium]
__all__ = ["browser"]  # the shared browser fixture

SLUG = "chemistry-canasta"
# one round; it ends when the draw deck first runs out, if no seat goes out first
GAME = {
    "players": 2,
    "seed": 5,
    "bots": {"1": "greedy"},
    "options": {"target": None, "reshuffles": 0, "decks": "ionic"},
}

# this seat's turn with its legal moves known, or the end of the match
READY = """() => {
  const s = document.querySelector('.status')?.textContent ?? '';
  if (s.includes('The match is over')) return true;
  if (!s.includes('your turn')) return false;
  return /allow \\d+ move/.test(document.querySelector('.dt-legal')?.textContent ?? '');
}"""


@pytest.fixture(scope="module")
def base(browser_server: str) -> str:
    return browser_server


def _suggested(page: Any, kind: str) -> Any | None:
    """The first "Select: <kind> ..." shortcut of the legal moves, opened; or None."""
    box = page.locator(".dt-suggestions")
    if box.count() == 0:
        return None
    # a closed <details> hides its buttons from the accessibility tree: find by text
    found = box.locator("button", has_text=re.compile(f"^Select: {kind} "))
    if found.count() == 0:
        return None
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    return found.first


def play_turn_step(page: Any) -> str:
    """One move of this seat, as a student makes it; returns its kind."""
    if "draw card" in status_line(page):
        deck = page.get_by_role("button", name=re.compile("^Draw from the deck"))
        press(page, re.compile("^Draw from the deck" if deck.count() else "^Take the discard top"))
        return "draw"
    capture = _suggested(page, "capture")
    if capture is not None:
        capture.click()
        press(page, re.compile("^Capture "))
        return "capture"
    run = _suggested(page, "lay a run")
    if run is not None:
        run.click()
        press(page, re.compile("^Lay a run of "))
        return "run"
    extend = _suggested(page, "extend")
    if extend is not None:
        end = "below" if "at its low end" in extend.inner_text() else "above"
        extend.click()
        press(page, re.compile(f"^Extend .* {end} "))
        return "extend"
    page.locator(".hand .card-button").first.click()
    press(page, re.compile("^Discard "))
    return "discard"


def test_a_round_played_to_its_end_from_a_seat_page(browser: Any, base: str) -> None:
    link, _ = made(base, SLUG, GAME)
    console = Console()
    context = browser.new_context(viewport=PROJECTOR)
    page = console.watch(context.new_page())
    page.goto(link)
    page.wait_for_function(READY)
    hand = page.get_by_role("list", name="Your hand").locator(".card-button")
    assert hand.count() == 7
    # the Ionic Compound Deck's cards: each ion with its charge, in words and printed
    row = page.get_by_role("list", name="Face-up compounds").locator(".card-button")
    described = row.first.locator(".sr-only").inner_text()
    assert re.search(r"ionic bonding, .* ions: \d \S+[+-] ions? \(charge \+\d", described)
    assert re.search(
        r"\d \N{MULTIPLICATION SIGN} \S+[+-]", row.first.locator(".card-mass").inner_text()
    )
    assert axe_violations(page) == []
    moves: list[str] = []
    refused = False
    while "The match is over" not in status_line(page):
        assert len(moves) < 300, moves[-20:]
        if not refused and "capture a compound" in status_line(page) and hand.count() >= 3:
            # three cards that are no run: the rules' refusal, in words
            for i in range(3):
                hand.nth(i).click()
            page.get_by_role("button", name=re.compile("^Lay a run of ")).click()
            alert = page.get_by_role("alert").filter(has_text="Move refused")
            alert.wait_for(timeout=5000)
            console.allow(r"status of 422")
            refused = True
            assert alert.locator(".notice-code").inner_text().strip()
            for _ in range(3):
                page.locator(".hand .card-button[aria-pressed=true]").first.click()
            page.get_by_role("button", name=re.compile("Dismiss|Close")).first.click()
        moves.append(play_turn_step(page))
        page.wait_for_function(READY)
        if moves[-1] in ("run", "extend"):
            board = page.get_by_role("list", name="Seat 0's runs")
            assert board.locator(".dt-run").count() >= 1
            assert re.search(r"Run 1: \w+ \d+ to \w+ \d+", board.inner_text())
    assert refused and moves.count("draw") >= 2
    page.get_by_role("heading", name="Final scores").wait_for()
    assert page.locator(".scores tbody tr").count() == 2
    evidence = page.locator(".evidence[open]").first.inner_text()
    assert "run place" in evidence and "left in hand" in evidence
    assert "Run points" in page.locator(".table").inner_text()  # the round's result table
    log = page.locator(".log-lines").inner_text()
    assert "The match is over" in log
    if "run" in moves:
        assert "consecutive atomic numbers" in log or "Run" in log
    assert axe_violations(page) == []
    final_screenshot(page, SLUG, "chemistry-canasta-seat")
    final_table(console, context, link)
    assert console.unexpected() == []
    context.close()


def test_the_new_game_page_makes_a_game_with_bots_and_a_deck(browser: Any, base: str) -> None:
    made_with_the_ionic_deck(browser, base, SLUG, READY)
