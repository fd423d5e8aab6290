"""Compound Capture in a real browser (Chromium through Playwright): a two-round match
made with a seed, played to its end from the seat page of its join link against a bot
seat (draw two, then capture with the cards the rules allow, or discard); a refused
capture shown in words; the projector's table page.

One browser for the module, and the browser tests' shared gunicorn server (as `make
serve` runs it; ``browser_server``, tests/conftest.py); the server ends every event
stream after a few seconds, so the pages reconnect throughout.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .browser import PHONE, PROJECTOR, Console, axe_violations, browser, needs_chromium
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

SLUG = "compound-capture"
# two rounds (the target is not reached in two): seat 0 deals the second
GAME = {"players": 2, "seed": 11, "bots": {"1": "greedy"}, "options": {"max_rounds": 2}}

# this seat's turn with its legal moves known, a round to deal, or the end of the match
READY = """() => {
  const s = document.querySelector('.status')?.textContent ?? '';
  if (s.includes('The match is over')) return true;
  if (s.includes('deal the next round')) {
    // offered once the rules list next_round for this seat
    return [...document.querySelectorAll('button')]
      .some(b => b.textContent === 'Deal the next round');
  }
  if (!s.includes('your turn')) return false;
  const legal = document.querySelector('.dt-legal')?.textContent ?? '';
  return /allow \\d+ move/.test(legal);
}"""


@pytest.fixture(scope="module")
def base(browser_server: str) -> str:
    return browser_server


def play_turn_step(page: Any) -> str:
    """One move of this seat, as a student makes it; returns its kind."""
    if "deal the next round" in status_line(page):
        press(page, "Deal the next round")
        return "deal"
    if "draw card" in status_line(page):
        deck = page.get_by_role("button", name=re.compile("^Draw from the deck"))
        press(page, re.compile("^Draw from the deck" if deck.count() else "^Take the discard top"))
        return "draw"
    captures = page.locator(".dt-suggestions")
    if captures.count():
        captures.locator("summary").click()
        captures.get_by_role("button", name=re.compile("^Select: capture ")).first.click()
        press(page, re.compile("^Capture "))
        return "capture"
    page.locator(".hand .card-button").first.click()
    press(page, re.compile("^Discard "))
    return "discard"


def test_a_match_played_to_its_end_from_a_seat_page(browser: Any, base: str) -> None:
    link, _ = made(base, SLUG, GAME)
    console = Console()
    context = browser.new_context(viewport=PROJECTOR)
    page = console.watch(context.new_page())
    page.goto(link)
    page.wait_for_function(READY)
    # the cards are drawn from the view: six compounds face up, seven cards in hand
    row = page.get_by_role("list", name="Face-up compounds").locator(".card-button")
    assert row.count() == 6
    compound = row.first.locator(".sr-only").inner_text()
    assert re.match(r"Compound \S+, .+, covalent bonding, a capture needs \S+( \+ \S+)+", compound)
    assert "molar mass" in compound
    assert page.get_by_role("list", name="Your hand").locator("li").count() == 7
    assert axe_violations(page) == []
    # the keyboard selects a card (and unselects it)
    card = page.get_by_role("list", name="Your hand").locator(".card-button").first
    card.focus()
    page.keyboard.press("Space")
    assert card.get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    assert card.get_attribute("aria-pressed") == "false"
    # the projector's page during the round: no hand is shown, only how many cards
    projector = console.watch(browser.new_context(viewport=PROJECTOR).new_page())
    projector.goto(link.split("/seat/")[0] + "/table")
    projector.get_by_role("heading", name="Face-up compounds").wait_for()
    assert projector.get_by_role("list", name="Your hand").count() == 0
    assert projector.locator(".dt-left").count() == 0
    assert "7 cards in hand" in projector.locator(".seat-row").first.inner_text()
    assert axe_violations(projector) == []
    projector.context.close()
    moves: list[str] = []
    refused = False
    while "The match is over" not in status_line(page):
        assert len(moves) < 120, moves
        if not refused and "capture a face-up" in status_line(page):
            # a capture the rules refuse (the wrong cards) is shown in words
            row.first.click()
            page.locator(".hand .card-button").first.click()
            page.get_by_role("button", name=re.compile("^Capture ")).click()
            alert = page.get_by_role("alert").filter(has_text="Move refused")
            alert.wait_for()
            assert re.search(r"wrong_elements|all_wild|must", alert.inner_text())
            console.allow(r"status of 422")
            refused = True
            page.locator(".hand .card-button[aria-pressed=true]").click()  # unselect
        moves.append(play_turn_step(page))
        page.wait_for_function(READY)
    assert refused and "draw" in moves and moves.count("draw") % 2 == 0
    assert moves.count("deal") == 1
    page.get_by_role("heading", name="Final scores").wait_for()
    # the service's scores with their evidence: compounds, hand penalties, the round
    assert page.locator(".scores tbody tr").count() == 2
    evidence = page.locator(".evidence[open]").first.inner_text()
    assert "captured" in evidence and "left in hand" in evidence and "Match total" in evidence
    assert re.search(r"Round 2 is over", page.locator(".table").inner_text())
    head = page.locator(".scores thead").inner_text()
    assert "Round 1" in head and "Round 2" in head
    log = page.locator(".log-lines").inner_text()
    assert "The match is over" in log and "draw" in log
    if "capture" in moves:
        assert "You capture:" in log
    assert axe_violations(page) == []
    final_screenshot(page, SLUG, "compound-capture-seat")
    final_table(console, context, link)
    assert console.unexpected() == []
    context.close()


def test_the_new_game_page_makes_a_game_with_bots_and_a_deck(browser: Any, base: str) -> None:
    made_with_the_ionic_deck(browser, base, SLUG, READY)


def _with_the_deck_under_the_discard(redis_url: str, session_id: str) -> None:
    """Seat 0's first turn, the draw deck moved under the discard top (the stored state
    resealed in place: every card still where one card is, only the piles differ), as a
    round looks when the deck has run out and the discards can refill it."""
    from service import create_app
    from service.games.tokens import Sealer

    from .conftest import KEY_BROWSER, TEST_PREFIX, make_settings

    app = create_app(
        make_settings(KEY_BROWSER, redis_url=redis_url, redis_key_prefix=f"{TEST_PREFIX}browser:")
    )
    store = app.extensions["chemgames.store"]
    session, _ = store.load(session_id)
    sealer = Sealer((KEY_BROWSER,))
    info = app.extensions["chemgames.games"][SLUG].game.info
    env = sealer.open(session.token, slug=SLUG, rules_version=info.rules_version)
    zones = env.state["zones"]
    assert env.state["turn"] == {"seat": 0, "step": "draw", "drawn": 0, "took_discard": False}
    moved = {**zones, "draw": [], "discard": zones["draw"] + zones["discard"]}
    token = sealer.seal(env.with_state({**env.state, "zones": moved}), compressed=False)
    store.redis.hset(store.key(session_id), "token", token)


def test_an_empty_draw_deck_is_offered_when_the_discard_pile_refills_it(
    browser: Any, base: str, redis_url: str
) -> None:
    """The draw deck empty at a draw, cards under the discard top: the rules shuffle them
    into a new deck (docs/rules/compound-capture.md, "When the draw deck runs out"), so
    the page offers the deck. A student who takes the discard top first is offered the
    deck, and not the discard pile again, for the second card (the page once offered
    only the refused second discard: the student was stuck)."""
    link, answer = made(base, SLUG, GAME)
    _with_the_deck_under_the_discard(redis_url, answer["session_id"])
    console = Console()
    page = console.watch(browser.new_context(viewport=PHONE).new_page())
    page.goto(link)
    page.wait_for_function(READY)
    deck = page.get_by_role("button", name=re.compile("^Draw from the deck \\(it is empty"))
    discard = page.get_by_role("button", name=re.compile("^Take the discard top"))
    assert deck.is_enabled() and discard.is_enabled()
    assert axe_violations(page) == []
    press(page, re.compile("^Take the discard top"))
    page.wait_for_function(READY)
    assert "draw card 2 of 2" in status_line(page)
    assert deck.is_enabled() and not discard.is_enabled()
    press(page, re.compile("^Draw from the deck"))
    page.wait_for_function(READY)
    assert "The draw deck ran out" in page.locator(".log-lines").inner_text()
    assert "draw card" not in status_line(page)
    assert page.locator(".notice-refused").count() == 0
    assert console.unexpected() == []
