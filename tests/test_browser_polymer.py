"""Polymer, the real-time game, in a real browser (Chromium through Playwright): a seat
page against the service's bot seats, played on the server's clock to the end, with a
trade offered to a bot and a loan lent and called in; a reconnect mid-game; a move
decided before the timer started (409 stale_version).

One gunicorn server (as `make serve` runs it: its workers play the bot seats in real
time and apply time-up) and one browser for the module. The server ends every event
stream after a few seconds (SSE_MAX_SECONDS), as a proxy or a phone's network would, so
the pages reconnect and resynchronise throughout. The bots think 0.4-1 s between moves
and the timers are as short as a game with a trade and a called loan allows.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from service.games.pages import join_link

from .browser import (
    ARTIFACTS,
    PHONE,
    PROJECTOR,
    Console,
    axe_violations,
    browser,
    needs_chromium,
    screenshot,
)
from .test_gunicorn import call, serve

pytestmark = [pytest.mark.redis, needs_chromium]
__all__ = ["browser"]  # the shared browser fixture

BOTS = {1: "trading", 2: "trading", 3: "trading", 4: "trading"}
QUICK = {"bot_think_min_ms": 400, "bot_think_max_ms": 1000}


@pytest.fixture(scope="module")
def base(redis_url: str) -> Iterator[str]:
    with serve(redis_url, SSE_MAX_SECONDS="4", SSE_HEARTBEAT_SECONDS="1") as port:
        yield f"http://127.0.0.1:{port}"


def _port(base: str) -> int:
    return int(urlsplit(base).port or 80)


def _create(page: Any, base: str, timer: int) -> str:
    """Fills the new-game page's form (five seats, four bots); returns seat 0's link."""
    page.goto(f"{base}/play")
    # the catalogue the page fetches on load answers first: a late answer would reset
    # the form to the first game after this test chose its own
    page.wait_for_load_state("networkidle")
    page.get_by_label("Game").select_option("polymer")
    page.get_by_label("Players").fill("5")
    for seat, bot in BOTS.items():
        page.get_by_label(f"Seat {seat}", exact=True).select_option(bot)
    page.get_by_label("timer seconds").fill(str(timer))
    page.get_by_label("bot think min ms").fill(str(QUICK["bot_think_min_ms"]))
    page.get_by_label("bot think max ms").fill(str(QUICK["bot_think_max_ms"]))
    page.get_by_role("button", name="Create the game").click()
    page.get_by_role("heading", name=re.compile("the join links")).wait_for()
    link = page.get_by_role("link", name="Open seat 0", exact=True).get_attribute("href")
    assert page.get_by_role("link", name="Open seat 1", exact=True).count() == 0  # a bot
    return str(link)


def _session(base: str, bots: dict[int, str], timer: int) -> dict[str, Any]:
    status, made = call(
        _port(base),
        "POST",
        "/v1/polymer/sessions",
        {
            "players": 5,
            "bots": {str(s): b for s, b in bots.items()},
            "options": {"timer_seconds": timer, **QUICK},
        },
    )
    assert status == 201, made
    return dict(made)


def _log(page: Any) -> str:
    lines = page.locator(".log-lines")
    return str(lines.inner_text()) if lines.count() else ""


def _repay_if_called(page: Any) -> None:
    """A bot may lend to this seat and call its loan in: then the seat repays first."""
    owed = page.locator(".pm-owed")
    if owed.count():
        button = owed.get_by_role("button", name=re.compile("^Repay with "))
        if button.count():
            button.first.click()
            page.wait_for_timeout(500)


def _select_first_card(page: Any, keyboard: bool = False) -> str:
    card = page.locator(".pm-hand .pm-card-button").first
    if keyboard:
        card.focus()
        page.keyboard.press("Space")
    else:
        card.click()
    assert card.get_attribute("aria-pressed") == "true"
    return str(card.locator(".sr-only").inner_text())


def test_polymer_in_real_time_against_bots_on_a_phone(browser: Any, base: str) -> None:
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    link = _create(page, base, timer=40)
    assert axe_violations(page) == []
    page.goto(link)
    ready = page.get_by_role("button", name="I am ready")
    ready.wait_for()
    assert "#" not in page.url and "token" not in page.url
    # nobody sees a card before the timer starts
    assert page.locator(".pm-card").count() == 0
    assert axe_violations(page) == []
    ready.focus()
    page.keyboard.press("Enter")  # keyboard operable
    page.get_by_role("timer").wait_for()
    page.locator(".pm-hand .pm-card-button").first.wait_for()
    sid = page.url.split("/")[-3]

    # the projector's page during the game: the clock, and no card of any hand
    projector = console.watch(browser.new_context(viewport=PROJECTOR).new_page())
    projector.goto(f"{base}/play/polymer/{sid}/table")
    projector.get_by_role("timer").wait_for()
    assert projector.locator(".pm-card").count() == 0
    assert axe_violations(projector) == []

    # the clock counts down from the server's time: what the page shows agrees with the
    # deadline the service gives, whatever the device's clock
    _, now = call(_port(base), "GET", f"/v1/polymer/sessions/{sid}")
    server_left = (now["deadline_ms"] - now["server_now_ms"]) / 1000
    shown = page.get_by_role("timer").inner_text()
    m, s = shown.split(":")
    assert abs(int(m) * 60 + int(s) - server_left) <= 2.5, (shown, server_left)

    # a trade offered to a bot (the left neighbour, seat 1), asking for any card
    _repay_if_called(page)
    offered = _select_first_card(page)
    page.get_by_label("To").select_option("1")
    page.get_by_role("button", name=re.compile("^Offer .* to seat 1$")).click()
    page.wait_for_function(
        "() => /Seat 0 offers seat 1 .*\\(offer #\\d+\\)/.test("
        "document.querySelector('.log-lines').textContent)"
    )
    offer = int(re.findall(r"Seat 0 offers seat 1 .*?\(offer #(\d+)\)", _log(page))[-1])
    # the bot answers it on its own clock: it accepts or declines (or the seat withdraws
    # it, if it is still open after a few seconds)
    answered = re.compile(
        rf"Seat 1 (accepts|declines) seat 0's offer #{offer}|withdraws its offer #{offer}"
    )
    deadline = time.monotonic() + 8
    while not answered.search(_log(page)) and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    if not answered.search(_log(page)):
        page.get_by_role("button", name=f"Withdraw #{offer}").click()
        page.wait_for_function(
            f"() => document.querySelector('.log-lines').textContent.includes('offer #{offer}')"
            " && /withdraws its offer/.test(document.querySelector('.log-lines').textContent)"
        )
    assert answered.search(_log(page)), _log(page)[-800:]
    assert offered  # the card's name in words: "7 of spades"

    # a loan lent to the right neighbour (seat 4), then called in: the bot repays
    _repay_if_called(page)
    _select_first_card(page, keyboard=True)
    page.get_by_label("To").select_option("4")
    lend = page.get_by_role("button", name=re.compile("^Lend .* to seat 4$"))
    lend.focus()
    page.keyboard.press("Enter")
    call_in = page.get_by_role("button", name=re.compile(r"^Call in loan #\d+$"))
    call_in.wait_for()
    loan = int(re.findall(r"\d+", call_in.inner_text())[0])
    call_in.click()
    log = page.locator(".log-lines")
    log.get_by_text(re.compile(rf"Seat 0 calls in loan #{loan}")).wait_for()
    log.get_by_text(re.compile(rf"Seat 4 returns .* to seat 0 on loan #{loan}")).wait_for(
        timeout=15_000
    )
    assert axe_violations(page) == []
    # what two other seats offer or lend each other stays theirs: no card named in this
    # seat's log or on its table while the timer runs
    between_others = [
        line
        for line in _log(page).splitlines()
        if re.match(r"Seat [1-4] (offers|lends) .*seat [1-4]\b", line) and "seat 0" not in line
    ]
    assert between_others, "the bots trade with each other"
    assert not [line for line in between_others if re.search("[\u2663\u2666\u2665\u2660]", line)]
    others = page.locator(".pm-table .pm-list li").filter(has_not_text=re.compile(r"\b(you|You)\b"))
    for text in others.all_inner_texts():
        assert not re.search("[\u2663\u2666\u2665\u2660]", text), text

    # the bots keep trading on the stream until the server's time is up
    page.get_by_role("heading", name="Final scores").wait_for(timeout=60_000)
    assert "Time is up" in page.locator(".status").inner_text()
    assert page.locator(".scores table tbody tr").count() == 5
    evidence = page.locator(".evidence[open]").inner_text()  # the seat's own, opened
    assert "Longest pattern" in evidence and " \u00d7 neighbours' longest" in evidence
    text = _log(page)
    assert "The timer starts" in text and "Time is up after" in text
    bots_moved = re.findall(r"Seat [1-4] (offers|lends|accepts|declines|withdraws)", text)
    assert len(bots_moved) >= 3, "the bot seats' moves appear as they happen"
    assert axe_violations(page) == []
    screenshot(page, "polymer-seat-phone")

    projector.get_by_role("heading", name="Final scores").wait_for(timeout=15_000)
    assert projector.locator(".pm-card").count() > 0  # every hand is shown at the end
    assert axe_violations(projector) == []
    screenshot(projector, "polymer-table-projector")
    # what a projector's screen shows
    projector.screenshot(path=str(ARTIFACTS / "polymer-table-projector-screen.png"))
    assert console.unexpected() == []
    projector.context.close()
    context.close()


def test_a_seat_page_offline_mid_game_resynchronises(browser: Any, base: str) -> None:
    made = _session(base, BOTS, timer=25)
    sid, token = made["session_id"], made["seats"][0]["seat_token"]
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    page.goto(base + join_link("polymer", sid, 0, token))
    page.get_by_role("button", name="I am ready").click()
    page.get_by_role("timer").wait_for()
    page.locator(".connection-live").wait_for()

    context.set_offline(True)
    # an open stream may run on until the server ends it (within 4 s); from then on the
    # page hears nothing
    page.locator(".connection-reconnecting").wait_for(timeout=15_000)
    _, before = call(_port(base), "GET", f"/v1/polymer/sessions/{sid}")
    # the bots trade on while the page hears nothing
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        _, now = call(_port(base), "GET", f"/v1/polymer/sessions/{sid}")
        if now["version"] >= before["version"] + 3:
            break
        time.sleep(0.3)
    status, record = call(
        _port(base), "GET", f"/v1/polymer/sessions/{sid}/record?seat=0", token=token
    )
    assert status == 200
    missed = [
        e["explanation"]
        for step in record["record"]["steps"][before["version"] :]
        for e in step["events"]
        # (an offer or a loan made to this seat has a log line of the page's own)
        if "explanation" in e and 0 not in (e.get("to"), e.get("debtor"))
    ]
    assert missed, "the bots moved while the page was offline"
    assert missed[-1] not in _log(page)

    context.set_offline(False)
    page.locator(".connection-live").wait_for(timeout=20_000)
    # the log and the table are the service's again: the moves made while away included
    page.wait_for_function(
        "t => document.querySelector('.log-lines').textContent.includes(t)",
        arg=missed[-1],
        timeout=15_000,
    )
    _, now = call(_port(base), "GET", f"/v1/polymer/sessions/{sid}?seat=0", token=token)
    if now["phase"] == "trading":
        shown = page.locator(".pm-hand .pm-card-button").count()
        assert abs(shown - now["view"]["you"]["hand_count"]) <= 1  # a bot may just have moved
    page.get_by_role("heading", name="Final scores").wait_for(timeout=40_000)
    assert axe_violations(page) == []
    # the failed requests while offline are the browser's own console errors
    assert [e for e in console.unexpected() if not re.search(r"net::|ERR_", e)] == []
    context.close()


def test_a_seat_page_reads_no_legal_moves_after_the_bots_moves(browser: Any, base: str) -> None:
    """Every seat of Polymer may act at every instant, so a page that read its legal moves
    after each frame read them after every bot's move, and after each of its own. Its
    stream (`legal_moves=true`) brings them with the view, and its moves ask for them in
    their answers: from its first view on, through its own "ready", seconds of the bots'
    trading and its own offer, the page reads its legal moves never again."""
    made = _session(base, BOTS, timer=30)
    sid, token = made["session_id"], made["seats"][0]["seat_token"]
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    sent: list[Any] = []
    page.on("request", lambda request: sent.append(request))
    page.goto(base + join_link("polymer", sid, 0, token))
    ready = page.get_by_role("button", name="I am ready")
    ready.wait_for()
    page.wait_for_load_state("networkidle")  # the first view, record and legal moves
    loaded = len(sent)
    ready.click()
    page.get_by_role("timer").wait_for()
    page.locator(".pm-hand .pm-card-button").first.wait_for()
    _, started = call(_port(base), "GET", f"/v1/polymer/sessions/{sid}")
    quiet_from = len(sent)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        _, now = call(_port(base), "GET", f"/v1/polymer/sessions/{sid}")
        if now["version"] >= started["version"] + 6 or now["phase"] != "trading":
            break
        page.wait_for_timeout(300)
    assert now["phase"] == "trading" and now["version"] >= started["version"] + 6, now
    # the page has shown the latest frame (its stream is live and its log caught up)
    page.wait_for_function(
        "v => Number(document.querySelector('[data-version]')?.dataset.version) >= v",
        arg=now["version"],
        timeout=10_000,
    )
    while_bots_moved = sent[quiet_from:]
    reads = [r.url for r in while_bots_moved if r.url.endswith("/legal-moves")]
    assert reads == []
    views = [r.url for r in while_bots_moved if re.search(r"/sessions/\w+(\?|$)", r.url)]
    assert views == []
    for stream in [r for r in sent if "/events" in r.url]:
        assert urlsplit(stream.url).query == "seat=0&legal_moves=true"
    # the frames' legal moves drive the page: an offer goes at once
    _repay_if_called(page)
    _select_first_card(page)
    page.get_by_label("To").select_option("1")
    page.get_by_role("button", name=re.compile("^Offer .* to seat 1$")).click()
    page.wait_for_function(
        "() => /Seat 0 offers seat 1 /.test(document.querySelector('.log-lines').textContent)"
    )
    page.wait_for_timeout(500)  # a read the answer would have led to
    after_loading = sent[loaded:]
    assert [r.url for r in after_loading if r.url.endswith("/legal-moves")] == []
    moves = [r for r in after_loading if r.method == "POST" and r.url.endswith("/moves")]
    assert len(moves) >= 2  # "ready" and the offer (and any repayment)
    assert all(r.post_data_json["legal_moves"] is True for r in moves)
    assert axe_violations(page) == []
    assert console.unexpected() == []
    context.close()


def test_a_move_decided_before_the_timer_started_is_decided_again(browser: Any, base: str) -> None:
    """Five people, no bots: the host starts the timer while seat 0's page hears
    nothing; its "ready" then meets 409 stale_version, and the page shows the game as it
    is now (the problem's `session`: the timer running, the hand dealt) without sending
    the move again."""
    made = _session(base, {}, timer=600)
    sid, token, host = made["session_id"], made["seats"][0]["seat_token"], made["host_token"]
    console = Console()
    context = browser.new_context(viewport=PHONE)
    page = console.watch(context.new_page())
    # The page learns nothing after its first view: its seat stream (whose every frame is
    # the seat's view) is held from the start, never answered, and so is any later read
    # of the view. (Refused, each failed read put a connection error in the notice,
    # retried every few seconds: on a loaded machine one replaced "The table changed"
    # before the test saw it.)
    held: list[Any] = []
    page.route("**/events*", lambda route: held.append(route))
    page.goto(base + join_link("polymer", sid, 0, token))
    ready = page.get_by_role("button", name="I am ready")
    ready.wait_for()
    page.route(re.compile(r".*/sessions/[0-9a-f]+\?seat=0$"), lambda route: held.append(route))
    status, started = call(_port(base), "POST", f"/v1/polymer/sessions/{sid}/start", token=host)
    assert status == 200 and started["phase"] == "trading"
    ready.click()
    page.get_by_role("alert").filter(has_text="The table changed").wait_for()
    page.get_by_role("timer").wait_for()
    page.locator(".pm-hand .pm-card-button").first.wait_for()
    assert page.get_by_role("button", name="I am ready").count() == 0
    _, now = call(_port(base), "GET", f"/v1/polymer/sessions/{sid}")
    assert now["version"] == started["version"]  # the stale move was not sent again
    assert axe_violations(page) == []
    console.allow(r"status of 409")
    assert [e for e in console.unexpected() if not re.search(r"net::|ERR_", e)] == []
    context.close()


def _seconds(shown: str) -> int:
    minutes, seconds = shown.split(":")
    return int(minutes) * 60 + int(seconds)


def test_the_clock_is_the_servers_whatever_the_devices(browser: Any, base: str) -> None:
    """A device whose clock is an hour fast, and one an hour slow, show the time left by
    the service's clock: the deadline minus the server's time, counted on from the offset
    each answer carries."""
    made = _session(base, {}, timer=600)
    sid, host = made["session_id"], made["host_token"]
    status, started = call(_port(base), "POST", f"/v1/polymer/sessions/{sid}/start", token=host)
    assert status == 200
    console = Console()
    for seat, skew in ((0, 3600), (1, -3600)):
        context = browser.new_context(viewport=PHONE)
        page = console.watch(context.new_page())
        page.clock.install(time=time.time() + skew)
        page.goto(base + join_link("polymer", sid, seat, made["seats"][seat]["seat_token"]))
        timer = page.get_by_role("timer")
        timer.wait_for()
        _, now = call(_port(base), "GET", f"/v1/polymer/sessions/{sid}")
        left = (now["deadline_ms"] - now["server_now_ms"]) / 1000
        assert abs(_seconds(timer.inner_text()) - left) <= 2.5, (skew, timer.inner_text(), left)
        shown = _seconds(timer.inner_text())
        page.wait_for_timeout(2500)
        assert 1 <= shown - _seconds(timer.inner_text()) <= 4, "it counts down"
        context.close()
    assert started["deadline_ms"] - started["server_now_ms"] == 600_000
    assert console.unexpected() == []
