"""The polymer-chain game in a real browser (Chromium through Playwright): a game played
to its end from a seat page against a bot seat, every round made by selecting cards (in
the order they are laid) and chains and pressing the action the selection offers; the
structures drawn from their SMILES by smiles-drawer under the page's
Content-Security-Policy; the rules' refusal shown in words; the final scores with
their chains and Mn, Mw and PDI as the service reports them.

The test reads the seat's legal moves from the API only to decide what to select; what
the page sends is what the selection and the action pressed make of it.
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

SLUG = "polymerization"
# one deck of 55 (a shorter game); scored by Mn and PDI, so the evidence has them
OPTIONS = {"decks": 1, "scoring": "molar_mass"}
# the rounds the test prefers, most telling first (the draw and the discard last)
GROWS = ("propagate", "copolymerize")
PREFERENCE = [
    "terminate",
    "transfer",
    "copolymerize",
    "cap",
    "reactivate",
    "propagate",
    "initiate",
    "discard",
    "draw",
]
# until the seat has grown a chain it grows one whenever it may: which other rounds come
# first depends on what the bot (moving in real time) has taken when the seat looks
GROW_FIRST = ["copolymerize", "propagate", *(k for k in PREFERENCE if k not in GROWS)]
STATUS_CHANGED = "b => document.querySelector('.status')?.textContent !== b"
MY_TURN = """() => /your turn|The game is over/
  .test(document.querySelector('.status')?.textContent ?? '')"""
# whether a canvas has anything drawn on it (a pixel not white and not transparent)
DRAWN = """c => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  for (let i = 0; i < d.length; i += 4)
    if (d[i + 3] > 0 && (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200)) return true;
  return false;
}"""


@pytest.fixture(scope="module")
def base(browser_server: str) -> str:
    return browser_server


def _port(base: str) -> int:
    return int(urlsplit(base).port or 80)


def _create(base: str, seed: int) -> tuple[str, str]:
    status, made = call(
        _port(base),
        "POST",
        f"/v1/{SLUG}/sessions",
        {"players": 2, "bots": {"1": "greedy"}, "seed": seed, "options": OPTIONS},
    )
    assert status == 201, made
    return made["session_id"], made["seats"][0]["seat_token"]


def _legal(base: str, sid: str, token: str) -> list[dict[str, Any]]:
    status, legal = call(
        _port(base), "POST", f"/v1/{SLUG}/sessions/{sid}/legal-moves", {"seat": 0}, token=token
    )
    assert status == 200, legal
    return list(legal["moves"])


def _selection(move: dict[str, Any]) -> tuple[list[int], list[int], str]:
    """The cards and chains to select, in order, and the action's name."""
    kind = move["type"]
    if kind == "draw":
        return [], [], "^Draw a card"
    if kind == "discard":
        return [move["card"]], [], "^Discard "
    if kind == "initiate":
        lists = move["monomers"]
        flat = [c for cards in lists for c in cards]
        return (
            [move["card"], *flat],
            [],
            "^Initiate two chains" if len(lists) == 2 else "^Initiate one chain",
        )
    if kind in ("propagate", "reactivate"):
        return (
            list(move.get("cards", [])),
            [move["chain"]],
            f"^{kind.capitalize()} chain {move['chain']}",
        )
    if kind == "cap":
        return [move["card"]], [move["chain"]], f"^Cap chain {move['chain']}"
    if kind == "transfer":
        return [move["card"], *move["monomers"]], [move["chain"]], "^Transfer"
    if kind == "copolymerize":
        return [move["card"], *move["monomers"]], [move["chain"]], "^Copolymerize"
    assert kind == "terminate"
    a, b = move["chains"]
    return [move["card"]], [a, b], f"^Terminate chains {a} and {b} by {move['mechanism']}"


def _press(page: Any, locator: Any, keyboard: bool) -> None:
    if keyboard:
        locator.focus()
        page.keyboard.press("Space")
    else:
        locator.click()


def _make(page: Any, cards: list[int], chains: list[int], action: str, keyboard: bool) -> None:
    for card in cards:
        button = page.locator(f'.hand [data-card="{card}"]')
        _press(page, button, keyboard)
        assert button.get_attribute("aria-pressed") == "true"
    for chain in chains:
        button = page.locator(f'[data-chain="{chain}"]')
        _press(page, button, keyboard)
        assert button.get_attribute("aria-pressed") == "true"
    act = page.get_by_role("button", name=re.compile(action))
    if keyboard:
        act.focus()
        page.keyboard.press("Enter")
    else:
        act.click()


def _refusable(
    base: str, sid: str, token: str, legal: list[dict[str, Any]]
) -> tuple[int, int] | None:
    """A monomer card of the hand and a growing chain of this seat's that the rules do
    not let it propagate (compared by face: any copy of a legal face is legal)."""
    _, session = call(_port(base), "GET", f"/v1/{SLUG}/sessions/{sid}?seat=0", token=token)
    view = session["view"]
    face = {c["id"]: (c["key"], c.get("value")) for c in view["you"]["hand"]["cards"]}
    for chain in view["chains"]:
        if chain["owner"] != 0 or chain["state"] != "growing":
            continue
        fine = {
            face[m["cards"][0]]
            for m in legal
            if m["type"] == "propagate" and m["chain"] == chain["id"] and len(m["cards"]) == 1
        }
        for card in view["you"]["hand"]["cards"]:
            if card["kind"] == "monomer" and face[card["id"]] not in fine:
                return card["id"], chain["id"]
    return None


def test_a_game_played_to_its_end_from_a_seat_page(browser: Any, base: str) -> None:
    sid, token = _create(base, seed=6)
    console = Console()
    context = browser.new_context(viewport=PROJECTOR)
    page = console.watch(context.new_page())
    page.goto(base + join_link(SLUG, sid, 0, token))
    page.locator(".connection-live").wait_for()
    assert "token" not in page.url
    # the cards' structures: canvases drawn by smiles-drawer, each an image with a name
    hand = page.locator(".hand .poly-card-button")
    hand.first.wait_for()
    structures = page.locator(".hand canvas.structure")
    assert structures.count() > 0
    for canvas in structures.all():
        assert canvas.get_attribute("role") == "img"
        assert re.match(r"Structure of .+, [A-Z][A-Za-z0-9]*$", canvas.get_attribute("aria-label"))
        assert canvas.evaluate(DRAWN), canvas.get_attribute("aria-label")
    said = hand.first.locator(".sr-only").inner_text()
    assert re.search(r"monomer|initiator|joker", said)
    assert axe_violations(page) == []
    moves = 0
    kinds: set[str] = set()
    refused = False
    while True:
        page.wait_for_function(MY_TURN, timeout=20_000)
        if "The game is over" in page.locator(".status").inner_text():
            break
        legal = _legal(base, sid, token)
        assert legal, "the status says it is this seat's turn"
        if not refused and legal[0]["type"] != "draw":
            wrong = _refusable(base, sid, token, legal)
            if wrong is not None:
                card, chain = wrong
                _make(page, [card], [chain], f"^Propagate chain {chain}", keyboard=False)
                alert = page.get_by_role("alert").filter(has_text="Move refused")
                alert.wait_for()
                assert len(alert.inner_text()) > 40  # the rule's sentence, in words
                console.allow(r"status of 422")
                refused = True
                page.locator(f'.hand [data-card="{card}"]').click()  # unselect, decide again
                page.locator(f'[data-chain="{chain}"]').click()
        order = PREFERENCE if kinds & set(GROWS) else GROW_FIRST
        move = min(legal, key=lambda m: order.index(m["type"]))
        cards, chains, action = _selection(move)
        before = page.locator(".status").inner_text()
        _make(page, cards, chains, action, keyboard=moves % 3 == 0)
        page.wait_for_function(STATUS_CHANGED, arg=before, timeout=20_000)
        kinds.add(move["type"])
        moves += 1
        assert moves <= 120, "a one-deck game ends sooner"
    # the seat drew, started a chain and grew one (by propagation or, where the deal gave
    # it two monomers to join, by copolymerization)
    assert {"draw", "initiate"} <= kinds and kinds & {"propagate", "copolymerize"}, kinds
    assert refused, "a propagation the rules refuse was tried"
    page.get_by_role("heading", name="Final scores").wait_for()
    # the evidence as the service gives it: each seat's Mn, Mw and PDI arithmetic
    _, answer = call(_port(base), "GET", f"/v1/{SLUG}/sessions/{sid}/scores")
    scores = page.locator(".scores").text_content()
    for seat in answer["scores"]["seats"]:
        if seat["chains"]:
            assert seat["arithmetic"]["mn"] in scores
            assert seat["arithmetic"]["pdi"] in scores
            assert f"Chain {seat['chains'][0]['id']} (" in scores
    log = page.locator(".log-lines").inner_text()
    assert "Initiation" in log and "draws" in log.lower()
    assert axe_violations(page) == []
    screenshot(page, f"{SLUG}-seat-projector")
    # the structures legend of the table page, drawn once it is opened
    projector = console.watch(browser.new_context(viewport=PROJECTOR).new_page())
    projector.goto(f"{base}/play/{SLUG}/{sid}/table")
    projector.get_by_role("heading", name="Final scores").wait_for()
    legend = projector.locator(".poly-legend canvas.structure")
    assert legend.count() == 6  # four monomers, two initiators
    projector.wait_for_function(
        f"() => [...document.querySelectorAll('.poly-legend canvas')].every({DRAWN})"
    )
    assert axe_violations(projector) == []
    screenshot(projector, f"{SLUG}-table-projector")
    assert console.unexpected() == []
    projector.context.close()
    context.close()


def test_a_phone_shows_the_seat_its_hand_and_a_closed_legend_drawn_when_opened(
    browser: Any, base: str
) -> None:
    sid, token = _create(base, seed=3)
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    page.goto(base + join_link(SLUG, sid, 0, token))
    page.get_by_role("button", name="Draw a card").wait_for()
    # the other seat's hand: its count only
    assert page.locator(".seat-row").nth(1).locator(".poly-card").count() == 0
    page.get_by_role("button", name="Draw a card").click()
    page.get_by_text(re.compile("Play a round")).wait_for()
    assert axe_violations(page) == []
    page.get_by_text("The monomers and initiators").click()
    page.wait_for_function(
        f"() => [...document.querySelectorAll('.poly-legend canvas')].every({DRAWN})"
    )
    # nothing wider than the phone's screen but the scrolling tables
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, f"{SLUG}-seat-phone")
    assert console.unexpected() == []
    context.close()


def test_the_new_game_page_starts_a_game_against_a_bot(browser: Any, base: str) -> None:
    console = Console()
    context = browser.new_context(viewport=PROJECTOR)
    page = console.watch(context.new_page())
    page.goto(f"{base}/play")
    # the catalogue the page fetches on load answers first: a late answer would reset
    # the form to the first game after this test chose its own
    page.wait_for_load_state("networkidle")
    page.get_by_label("Game").select_option(SLUG)
    page.get_by_label("Players").fill("3")
    page.get_by_label("Seat 1", exact=True).select_option("greedy")
    page.get_by_label("Seat 2", exact=True).select_option("random")
    page.get_by_label("decks").select_option(value="1")
    page.get_by_role("button", name="Create the game").click()
    page.get_by_role("heading", name=re.compile("the join links")).wait_for()
    link = page.get_by_role("link", name="Open seat 0", exact=True).get_attribute("href")
    page.goto(link)
    page.get_by_role("button", name="Draw a card").wait_for()
    assert "1 deck " in page.locator(".table").inner_text()
    assert page.locator(".seat-row").count() == 3
    assert axe_violations(page) == []
    assert console.unexpected() == []
    context.close()
