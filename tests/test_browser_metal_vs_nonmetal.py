"""Metal vs. Non-Metal in a real browser (Chromium through Playwright): a game played to
its end from a seat page on a phone against a bot seat, every move chosen by selecting
ion cards and pressing the step's action; the rules' refusal shown in words; the
projector's table page of the finished game.

The test reads the seat's legal moves from the API only to decide what to select; what
the page sends is what the cards pressed and the action make of them.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest

from service.games.pages import join_link

from .browser import PHONE, PROJECTOR, Console, axe_violations, browser, needs_chromium, screenshot
from .test_gunicorn import call

pytestmark = [pytest.mark.redis, needs_chromium]
__all__ = ["browser"]  # the shared browser fixture

SLUG = "metal-vs-nonmetal"
# a teacher's own deck of 18 cards (the charges balance: +16 and -16), so the game ends
# after a handful of exchanges
IONS = {"Na+": 4, "Ca2+": 3, "Al3+": 2, "Cl-": 4, "O2-": 3, "N3-": 2}
# the status line when this seat must act, or when the game is over
STATUS_CHANGED = "b => document.querySelector('.status')?.textContent !== b"
WAIT_MY_STEP = """() => /you initiate|answer seat|Call for reinforcements|The game is over/
  .test(document.querySelector('.status')?.textContent ?? '')"""


@pytest.fixture(scope="module")
def base(browser_server: str) -> str:
    return browser_server


def _port(base: str) -> int:
    return int(urlsplit(base).port or 80)


def _create(base: str, bots: dict[str, str], seed: int) -> tuple[str, str]:
    status, made = call(
        _port(base),
        "POST",
        f"/v1/{SLUG}/sessions",
        {"players": 2, "bots": bots, "seed": seed, "options": {"ions": IONS, "start_player": 0}},
    )
    assert status == 201, made
    return made["session_id"], made["seats"][0]["seat_token"]


def _legal(base: str, sid: str, token: str) -> list[dict[str, Any]]:
    status, legal = call(
        _port(base), "POST", f"/v1/{SLUG}/sessions/{sid}/legal-moves", {"seat": 0}, token=token
    )
    assert status == 200, legal
    return list(legal["moves"])


def _select(page: Any, cards: list[int], keyboard: bool) -> None:
    for card in cards:
        button = page.locator(f'.hand [data-card="{card}"]')
        if keyboard:
            button.focus()
            page.keyboard.press("Space")
        else:
            button.click()
        assert button.get_attribute("aria-pressed") == "true"


ACTION = {
    "play": "^Play ",
    "respond": "^Answer with ",
    "reinforce": "^Reinforce with ",
    "decline": "^Decline",
}


def _make(page: Any, move: dict[str, Any], keyboard: bool) -> None:
    cards = [move["card"]] if move["type"] == "play" else list(move.get("cards", []))
    _select(page, cards, keyboard)
    action = page.get_by_role("button", name=re.compile(ACTION[move["type"]]))
    if keyboard:
        action.focus()
        page.keyboard.press("Enter")
    else:
        action.click()


def test_a_game_played_to_its_end_from_a_seat_page_on_a_phone(browser: Any, base: str) -> None:
    sid, token = _create(base, {"1": "greedy"}, seed=11)
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    page.goto(base + join_link(SLUG, sid, 0, token))
    page.locator(".connection-live").wait_for()
    assert "token" not in page.url
    # every card says what it is in words, and metal or non-metal is printed on it
    first = page.locator(".hand .ion-card-button").first
    first.wait_for()
    said = first.locator(".sr-only").inner_text()
    assert re.search("charge [+\u2212]\\d", said) and re.search(r"metal|non-metal", said)
    assert first.locator(".ion-kind").inner_text().lower() in ("metal", "non-metal")
    assert axe_violations(page) == []
    # once, an answer the rules do not allow (of the lead's own sign) is refused in words
    moves = 0
    kinds: set[str] = set()
    refused = False
    hidden_checked = False
    while True:
        page.wait_for_function(WAIT_MY_STEP, timeout=20_000)
        if "The game is over" in page.locator(".status").inner_text():
            break
        legal = _legal(base, sid, token)
        assert legal, "the status says this seat acts, so it has a legal move"
        move = legal[moves % len(legal)] if legal[0]["type"] == "reinforce" else legal[0]
        if move["type"] == "respond" and not refused:
            # an answer of the wrong charge: every card of the lead's own sign
            status = page.locator(".status").inner_text()
            lead = re.search(r"seat \d+'s (\w+\d?[+-])", status)
            assert lead is not None
            wrong = [
                int(b.get_attribute("data-card"))
                for b in page.locator(".hand .ion-card-button").all()
                if (lead.group(1)[-1] in (b.locator(".sr-only").inner_text().split(",")[0]))
            ]
            if wrong:
                _make(page, {"type": "respond", "cards": wrong[:1]}, keyboard=False)
                alert = page.get_by_role("alert").filter(has_text="Move refused")
                alert.wait_for()
                assert re.search(r"[Rr]ule", alert.inner_text())
                console.allow(r"status of 422")
                refused = True
                for card in wrong[:1]:  # unselect, to choose again
                    page.locator(f'.hand [data-card="{card}"]').click()
        before = page.locator(".status").inner_text()
        _make(page, move, keyboard=moves % 2 == 0)
        page.wait_for_function(STATUS_CHANGED, arg=before, timeout=20_000)
        kinds.add(move["type"])
        moves += 1
        collections = page.locator(".mvn-collection")
        if collections.count() and "The game is over" not in page.locator(".status").inner_text():
            # face down (the default): every seat sees how many, not which, its own too
            assert "face down" in collections.first.inner_text()
            assert collections.locator(".ion-card").count() == 0
            hidden_checked = True
        assert moves <= 40, "an 18-card game has fewer moves"
    assert {"play", "respond"} <= kinds
    assert refused, "a wrong answer was tried and refused"
    assert hidden_checked, "a collection was seen face down"
    page.get_by_role("heading", name="Final scores").wait_for()
    scores = page.locator(".scores table tbody tr")
    assert scores.count() == 2
    _, answer = call(_port(base), "GET", f"/v1/{SLUG}/sessions/{sid}/scores")
    table = page.locator(".scores table").inner_text()
    for seat in answer["scores"]["seats"]:
        assert f"Seat {seat['seat']}" in table
        for ion, n in (seat["by_ion"] or {}).items():
            assert f"{n} \u00d7 {ion}" in table
    log = page.locator(".log-lines").inner_text()
    assert "Exchange 2:" in log and "The game is over" in log
    assert axe_violations(page) == []
    # nothing wider than the phone's screen (the tables scroll inside their own boxes)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, f"{SLUG}-seat-phone")
    # the projector's page of the same table, once it is over
    projector = console.watch(browser.new_context(viewport=PROJECTOR).new_page())
    projector.goto(f"{base}/play/{SLUG}/{sid}/table")
    projector.get_by_role("heading", name="Final scores").wait_for()
    assert projector.evaluate("Object.keys(sessionStorage).length") == 0
    assert projector.get_by_role("heading", name="Exchanges settled").is_visible()
    assert axe_violations(projector) == []
    screenshot(projector, f"{SLUG}-table-projector")
    assert console.unexpected() == []
    projector.context.close()
    context.close()


def test_the_other_hand_and_face_down_collections_stay_hidden(browser: Any, base: str) -> None:
    """The seat page shows its own hand only; collections lie face down (counts only)."""
    sid, token = _create(base, {}, seed=5)
    _, other = call(_port(base), "GET", f"/v1/{SLUG}/sessions/{sid}")
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    page.goto(base + join_link(SLUG, sid, 0, token))
    page.locator(".hand .ion-card-button").first.wait_for()
    assert page.locator(".hand .ion-card-button").count() == 6
    seat1 = page.locator(".seat-row").nth(1)
    assert "6 in hand" in seat1.inner_text()
    assert seat1.locator(".ion-card").count() == 0
    assert other["view"]["you"] is None
    assert console.unexpected() == []
    context.close()


def test_the_new_game_page_starts_a_game_against_a_bot(browser: Any, base: str) -> None:
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    page.goto(f"{base}/play")
    # the catalogue the page fetches on load answers first: a late answer would reset
    # the form to the first game after this test chose its own
    page.wait_for_load_state("networkidle")
    page.get_by_label("Game").select_option(SLUG)
    page.get_by_label("Players").fill("2")
    page.get_by_label("Seat 1", exact=True).select_option("greedy")
    page.get_by_label("power play prize").select_option(value='"responder_cards"')
    page.get_by_role("button", name="Create the game").click()
    page.get_by_role("heading", name=re.compile("the join links")).wait_for()
    link = page.get_by_role("link", name="Open seat 0", exact=True).get_attribute("href")
    page.goto(link)
    page.locator(".status").filter(has_text="Exchange 1").wait_for()
    assert "the responder's cards" in page.locator(".table").inner_text()
    assert axe_violations(page) == []
    assert console.unexpected() == []
    context.close()
