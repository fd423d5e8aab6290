"""The Chemistry Card Game in a real browser (Chromium through Playwright), from the
pages a teacher and the students open: the new-game page, seat pages from join links,
the table page for a projector.

One browser for the module, and the browser tests' shared gunicorn server (as `make
serve` runs it; ``browser_server``, tests/conftest.py). The server ends every event
stream after a few seconds (SSE_MAX_SECONDS), as a proxy or a phone's network would, so
the pages reconnect and resynchronise throughout.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any
from urllib.parse import urlsplit

import pytest

from service.games.pages import join_link

from .browser import PHONE, PROJECTOR, Console, axe_violations, browser, needs_chromium, screenshot
from .test_gunicorn import call

pytestmark = [pytest.mark.redis, needs_chromium]
__all__ = ["browser"]  # the shared browser fixture


@pytest.fixture(scope="module")
def base(browser_server: str) -> str:
    return browser_server


def _port(base: str) -> int:
    return int(urlsplit(base).port or 80)


# the status line names a later round, or none (the draft is over)
NEXT_ROUND = """b => {
  const m = /Round (\\d+) of/.exec(document.querySelector('.status').textContent);
  return m === null || Number(m[1]) > b;
}"""


def _round(page: Any) -> int | None:
    found = re.search(r"Round (\d+) of", page.locator(".status").inner_text())
    return int(found.group(1)) if found else None


def _create(page: Any, base: str, players: int, bots: dict[int, str]) -> dict[int, str]:
    """Fills the new-game page's form; returns the join link of each person's seat."""
    page.goto(f"{base}/play")
    # the catalogue the page fetches on load answers first: a late answer would reset
    # the form to the first game after this test chose its own
    page.wait_for_load_state("networkidle")
    page.get_by_label("Game").select_option("element-draft")
    page.get_by_label("Players").fill(str(players))
    for seat, bot in bots.items():
        page.get_by_label(f"Seat {seat}", exact=True).select_option(bot)
    page.get_by_role("button", name="Create the game").click()
    page.get_by_role("heading", name=re.compile("the join links")).wait_for()
    links = {}
    for seat in range(players):
        if seat in bots:
            continue
        links[seat] = page.get_by_role("link", name=f"Open seat {seat}", exact=True).get_attribute(
            "href"
        )
    return links


def _two_seats(base: str) -> tuple[str, str, str]:
    """A 2-player draft dealt from a fixed seed: its id and the two seats' tokens."""
    status, made = call(
        _port(base), "POST", "/v1/element-draft/sessions", {"players": 2, "seed": 5}
    )
    assert status == 201
    return made["session_id"], made["seats"][0]["seat_token"], made["seats"][1]["seat_token"]


def _seat_1_drafts(base: str, sid: str, token: str) -> int:
    """Seat 1 drafts the first card of its hand through the API; the round it drafted in."""
    _, view = call(_port(base), "GET", f"/v1/element-draft/sessions/{sid}?seat=1", token=token)
    card = view["view"]["you"]["hand"][0]["z"]
    status, _ = call(
        _port(base),
        "POST",
        f"/v1/element-draft/sessions/{sid}/moves",
        {"seat": 1, "version": view["version"], "move": {"type": "draft", "card": card}},
        token=token,
    )
    assert status == 200
    return int(view["view"]["turn"])


def _streams_opened(requests: list[Any]) -> int:
    return sum("/events" in request.url for request in requests)


def _draft_first_card(page: Any, keyboard: bool = False) -> None:
    card = page.locator(".hand .card-button").first
    draft = page.get_by_role("button", name=re.compile("^Draft "))
    if keyboard:
        card.focus()
        page.keyboard.press("Space")
        draft.focus()
        page.keyboard.press("Enter")
    else:
        card.click()
        draft.click()


def test_the_new_game_page_makes_a_game_and_its_join_links(browser: Any, base: str) -> None:
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    page.goto(f"{base}/play")
    # the catalogue the page fetches on load answers first: a late answer would reset
    # the form to the first game after this test chose its own
    page.wait_for_load_state("networkidle")
    page.get_by_label("Players").wait_for()
    assert axe_violations(page) == []
    links = _create(page, base, 3, {2: "greedy"})
    assert sorted(links) == [0, 1]
    for seat, link in links.items():
        path, _, fragment = link.partition("#")
        session = path.split("/")[-3]
        token = fragment.removeprefix("token=")
        assert link == base + join_link("element-draft", session, seat, token)
        assert page.get_by_role("img", name=f"QR code of seat {seat}'s join link").is_visible()
    assert page.get_by_role("link", name="the table page").get_attribute("href").endswith("/table")
    assert axe_violations(page) == []
    # a bad request is refused in words, not with a blank page
    page.get_by_role("button", name="Set up another game").click()
    page.get_by_label("Game").select_option("element-draft")
    page.get_by_label("words").fill("toolongword")
    page.get_by_role("button", name="Create the game").click()
    alert = page.get_by_role("alert").filter(has_text="could not be created")
    alert.wait_for()
    assert "bad_word_list" in alert.inner_text() or "invalid_request" in alert.inner_text()
    console.allow(r"status of 422")
    assert console.unexpected() == []
    context.close()


def test_a_late_answer_for_another_game_leaves_the_form_alone(browser: Any, base: str) -> None:
    """A teacher who picks a game, then another before the first one's description has
    come, and types the players: the first game's late answer changes nothing."""
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    page.goto(f"{base}/play")
    page.wait_for_load_state("networkidle")
    held: list[Any] = []
    page.route("**/v1/games/polymerization", lambda route: held.append(route))
    page.get_by_label("Game").select_option("polymerization")
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert held, "the page never asked for Polymerization's description"
    # no field of the game before is left to type into while the chosen one loads
    assert page.get_by_label("Players").count() == 0
    page.get_by_label("Game").select_option("element-draft")
    page.get_by_label("Players").fill("3")
    page.get_by_label("Seat 2", exact=True).select_option("greedy")
    held[0].continue_()
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(200)  # time for a late answer to be rendered, were it used
    assert page.get_by_label("Game").input_value() == "element-draft"
    assert page.get_by_label("Players").input_value() == "3"
    assert page.get_by_label("Seat 2", exact=True).input_value() == "greedy"
    assert console.unexpected() == []
    context.close()


def test_a_game_played_to_its_end_from_a_seat_page_on_a_phone(browser: Any, base: str) -> None:
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    link = _create(page, base, 5, {1: "greedy", 2: "random", 3: "greedy", 4: "random"})[0]
    page.goto(link)
    page.locator(".hand .card-button").first.wait_for()
    # the credential left the address bar and the history entry; the tab keeps it
    assert "#" not in page.url and "token" not in page.url
    assert page.evaluate("Object.keys(sessionStorage).length") == 1
    assert axe_violations(page) == []
    rounds = 0
    while _round(page) is not None:
        before = _round(page)
        _draft_first_card(page, keyboard=rounds % 2 == 0)  # keyboard and pointer, in turn
        page.wait_for_function(NEXT_ROUND, arg=before)
        rounds += 1
        assert rounds <= 10, "a 5-player draft has 10 rounds"
    assert rounds == 10
    page.get_by_role("heading", name="Final scores").wait_for()
    assert "The draft is over" in page.locator(".status").inner_text()
    table = page.locator(".scores table")
    assert table.locator("tbody tr").count() == 5
    evidence = page.locator(".evidence[open]").inner_text()  # the seat's own, opened
    for category in ("Atomic number", "Atomic mass", "Atomic symbol", "Ionization", "Family"):
        assert category in evidence
    log = page.locator(".log-lines").inner_text()
    assert "Round 1:" in log and "The draft is over" in log
    # the page is the same after a reload: the tab kept the seat
    page.reload()
    page.get_by_role("heading", name="Final scores").wait_for()
    assert axe_violations(page) == []
    screenshot(page, "element-draft-seat-phone")
    # the projector's page of the same table, once it is over
    projector = console.watch(browser.new_context(viewport=PROJECTOR).new_page())
    projector.goto(link.split("/seat/")[0] + "/table")
    projector.get_by_role("heading", name="Final scores").wait_for()
    assert projector.evaluate("Object.keys(sessionStorage).length") == 0
    assert axe_violations(projector) == []
    screenshot(projector, "element-draft-table-projector")
    assert console.unexpected() == []
    projector.context.close()
    context.close()


def test_two_seats_and_the_table_see_each_others_moves(browser: Any, base: str) -> None:
    status, made = call(
        _port(base), "POST", "/v1/element-draft/sessions", {"players": 2, "seed": 7}
    )
    assert status == 201
    sid = made["session_id"]
    console = Console()
    pages = []
    for seat in (0, 1):
        context = browser.new_context(viewport=PHONE)
        page = console.watch(context.new_page())
        page.goto(base + join_link("element-draft", sid, seat, made["seats"][seat]["seat_token"]))
        pages.append(page)
    projector = console.watch(browser.new_context(viewport=PROJECTOR).new_page())
    projector.goto(f"{base}/play/element-draft/{sid}/table")
    for page in (*pages, projector):
        page.locator(".connection-live").wait_for()
    a, b = pages
    _draft_first_card(a)
    # the other seat and the projector see that seat 0 has chosen (not which card)
    for page in (b, projector):
        page.locator(".seat-row").nth(0).get_by_text("has chosen").wait_for()
    chosen = a.locator(".selection strong").inner_text()
    assert chosen not in b.locator("main").inner_text()
    # a second selection is refused by the rules, in words
    a.locator(".hand .card-button").nth(1).click()
    a.get_by_role("button", name=re.compile("^Draft ")).click()
    refusal = a.get_by_role("alert").filter(has_text="Move refused")
    refusal.wait_for()
    assert "already" in refusal.inner_text() and "already_selected" in refusal.inner_text()
    console.allow(r"status of 422")
    _draft_first_card(b)
    for page in (a, b, projector):
        page.get_by_text("Round 2 of 15").wait_for()
        assert "Round 1:" in page.locator(".log-lines").inner_text()
    assert axe_violations(projector) == []
    assert console.unexpected() == []
    for page in (*pages, projector):
        page.context.close()


def test_a_dropped_stream_is_followed_by_a_resync(browser: Any, base: str) -> None:
    status, made = call(_port(base), "POST", "/v1/element-draft/sessions", {"players": 2})
    assert status == 201
    sid, other = made["session_id"], made["seats"][1]["seat_token"]
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    page.goto(base + join_link("element-draft", sid, 0, made["seats"][0]["seat_token"]))
    page.locator(".connection-live").wait_for()
    # from now on the stream cannot come back; the server ends it within seconds
    page.route("**/events*", lambda route: route.abort())
    page.locator(".connection-reconnecting").wait_for(timeout=15_000)
    # the other seat moves while this page hears nothing
    _seat_1_drafts(base, sid, other)
    time.sleep(1)
    seat1 = page.locator(".seat-row").nth(1)
    assert "has chosen" not in seat1.inner_text()
    page.unroute("**/events*")
    page.locator(".connection-live").wait_for(timeout=20_000)
    seat1.get_by_text("has chosen").wait_for()
    console.allow(r"ERR_FAILED|net::")  # the refused reconnections
    console.allow(r"ERR_FAILED|net::")
    assert [e for e in console.unexpected() if "ERR_FAILED" not in e] == []
    context.close()


def test_a_seat_page_follows_its_own_stream_and_never_reads_its_view_again(
    browser: Any, base: str
) -> None:
    """A seat page follows the seat's own stream (`events?seat=0`, the credential in the
    Authorization header, never in a URL). Each frame is the seat's view, so after loading
    the page never reads the view again, not even across the reconnections the server's
    4-second streams force; its move names the stream (`Stream-Id`), and the answer shows it."""
    sid, mine, other = _two_seats(base)
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    sent: list[Any] = []
    page.on("request", lambda request: sent.append(request))
    page.goto(base + join_link("element-draft", sid, 0, mine))
    page.get_by_text("Round 1 of 15").wait_for()
    page.locator(".connection-live").wait_for()
    loaded = len(sent)
    _draft_first_card(page)
    page.locator(".seat-row").nth(0).get_by_text("has chosen").wait_for()
    for _ in range(2):  # seat 1 drafts through the API: the page hears of it by its stream
        turn = _seat_1_drafts(base, sid, other)
        page.get_by_text(f"Round {turn + 1} of 15").wait_for()
        if turn == 1:
            # the server ends the page's stream within 4 s: the next round is played on
            # the stream the page opens then, once its hello (with its id) has come
            opened = _streams_opened(sent)
            deadline = time.monotonic() + 20
            while _streams_opened(sent) == opened and time.monotonic() < deadline:
                page.wait_for_timeout(100)
            page.locator(".connection-live").wait_for()
            _draft_first_card(page)
            page.locator(".seat-row").nth(0).get_by_text("has chosen").wait_for()
    later = sent[loaded:]
    views = [r.url for r in later if r.method == "GET" and re.search(r"/sessions/\w+(\?|$)", r.url)]
    assert views == []
    # nor its legal moves: each frame brings them (`legal_moves=true`)
    assert [r.url for r in later if r.url.endswith("/legal-moves")] == []
    streams = [r for r in sent if "/events" in r.url]
    assert len(streams) >= 2  # reconnected at least once
    for stream in streams:
        assert urlsplit(stream.url).query == "seat=0&legal_moves=true"
        assert stream.all_headers()["authorization"] == f"Bearer {mine}"
    assert all(mine not in r.url.split("#")[0] for r in sent)
    moves = [r for r in later if r.method == "POST" and r.url.endswith("/moves")]
    assert len(moves) == 2
    for move in moves:
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", move.all_headers().get("stream-id", ""))
    assert "Round 3 of 15" in page.locator(".status").inner_text()
    assert axe_violations(page) == []
    assert console.unexpected() == []
    context.close()


@pytest.mark.parametrize("first", ["answer", "frame"])
def test_a_frame_folding_another_seats_move_with_the_pages_own_keeps_both_in_the_log(
    browser: Any, base: str, first: str
) -> None:
    """Seat 1 drafts, then this page's seat drafts before its stream has sent seat 1's
    frame: the stream then sends one frame, at the page's own move's version, with both
    moves' events (README, "Your seat's own stream"), and it may reach the page before or
    after the move's answer. The answer says more of the page's own move (its card);
    seat 1's line is only in the frame. The log keeps both, seat 1's first, each once."""
    sid, mine, other = _two_seats(base)
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    streams: list[Any] = []  # the page's stream, answered below with the folded frame
    page.route("**/events*", lambda route: streams.append(route))
    answers: list[tuple[Any, Any]] = []  # the move's answer, when the frame comes first
    if first == "frame":
        page.route("**/moves", lambda route: answers.append((route, route.fetch())))
    page.goto(base + join_link("element-draft", sid, 0, mine))
    page.get_by_text("Round 1 of 15").wait_for()
    _seat_1_drafts(base, sid, other)
    _draft_first_card(page)  # on the version before seat 1's draft: a draft still holds
    log = page.locator(".log-lines")
    if first == "answer":
        page.get_by_text("Round 2 of 15").wait_for()
        assert "Seat 1 has chosen a card." not in log.inner_text()
    else:
        while not answers:
            page.wait_for_timeout(50)
    # the frame the service sends then: the seat's view at the latest version, and the
    # public events of both moves since the stream's last frame (the record's last two steps)
    _, view = call(_port(base), "GET", f"/v1/element-draft/sessions/{sid}?seat=0", token=mine)
    _, record = call(
        _port(base), "GET", f"/v1/element-draft/sessions/{sid}/record?seat=0", token=mine
    )
    events = [event for step in record["record"]["steps"][-2:] for event in step["events"]]
    frame = {**view, "events": events, "finished": False}
    streams[0].fulfill(
        status=200,
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"},
        body=f"id: {view['version']}\nevent: update\ndata: {json.dumps(frame)}\n\n",
    )
    page.get_by_text("Seat 1 has chosen a card.").wait_for(timeout=10_000)
    if first == "frame":
        page.get_by_text("Round 2 of 15").wait_for()  # from the frame
        route, answer = answers[0]
        route.fulfill(response=answer)
        page.get_by_text("You select").wait_for()
    lines = log.inner_text()
    assert lines.index("Seat 1 has chosen a card.") < lines.index("You select")
    assert lines.count("You select") == 1 and lines.count("Seat 1 has chosen a card.") == 1
    assert "You have chosen a card." not in lines  # the frame's word for the answer's line
    assert axe_violations(page) == []
    assert console.unexpected() == []
    context.close()


def test_a_move_on_a_table_that_changed_is_decided_again(browser: Any, base: str) -> None:
    """The same seat open twice: the tab that did not hear of the first tab's move sends
    one on the old version, gets 409 stale_version, and shows the table as it is now
    instead of sending the move again."""
    status, made = call(
        _port(base),
        "POST",
        "/v1/element-draft/sessions",
        {"players": 2, "bots": {"1": "greedy"}},
    )
    assert status == 201
    link = base + join_link("element-draft", made["session_id"], 0, made["seats"][0]["seat_token"])
    console = Console()
    first = console.watch(browser.new_context(viewport=PHONE).new_page())
    second = console.watch(browser.new_context(viewport=PHONE).new_page())
    second.route("**/events*", lambda route: route.abort())  # it hears of nothing
    for page in (first, second):
        page.goto(link)
        page.get_by_text("Round 1 of 15").wait_for()
    _draft_first_card(first)  # the bot has chosen already: the round is drafted
    first.get_by_text("Round 2 of 15").wait_for()
    assert "Round 1 of 15" in second.locator(".status").inner_text()
    _draft_first_card(second)
    second.get_by_role("alert").filter(has_text="The table changed").wait_for()
    second.get_by_text("Round 2 of 15").wait_for()
    # nothing was sent again: round 2 has no selection of this seat
    _, now = call(_port(base), "GET", f"/v1/element-draft/sessions/{made['session_id']}")
    assert now["view"]["turn"] == 2 and not now["view"]["seats"][0]["has_selected"]
    console.allow(r"status of 409")
    assert [e for e in console.unexpected() if "ERR_FAILED" not in e] == []
    for page in (first, second):
        page.context.close()
