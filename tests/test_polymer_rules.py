"""Polymer's trading rules at the rules level: loan calls block everything but the
repayment, offers must be even and met in full, settlement when lent cards have moved
on, and who may see which cards in views and events (issue 6 §4)."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from rules import shapes
from rules.core import RuleViolation, events_for
from rules.polymer import GAME, INFO, wire
from rules.polymer.cards import ids_for_codes
from rules.polymer.clock import CLOCK
from rules.polymer.game import ACTIONS, declared, start_timer
from rules.shapes import ShapeError

DEAL = [
    ["AS", "2S", "3S", "4S", "5S", "6S"],
    ["7H", "7D", "7C", "8H", "9H", "2D"],
    ["10C", "JC", "QC", "KC", "4D", "9D"],
    ["AH", "3H", "5H", "JH", "QH", "KH"],
    ["2C", "3C", "4C", "5C", "6C", "8C"],
]


class Table:
    """A started 5-seat game on a logical clock that ticks once per move."""

    def __init__(self, deal: list[list[str]] | None = None, timer: int = 600) -> None:
        self.state = GAME.setup(5, {"deal": deal or DEAL, "timer_seconds": timer}, seed=0)
        for seat in range(5):
            self.state, _ = GAME.apply(self.state, seat, {"type": "ready", "at": 0})
        self.clock = 0
        self.events: list[dict[str, Any]] = []

    def move(self, seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
        self.clock += 1
        self.state, events = GAME.apply(self.state, seat, {**move, "at": self.clock})
        self.events += events
        return events

    def refused(self, seat: int, move: dict[str, Any]) -> RuleViolation:
        before = self.state
        with pytest.raises(RuleViolation) as err:
            GAME.apply(self.state, seat, {**move, "at": self.clock + 1})
        assert self.state == before
        return err.value

    def card(self, code: str, seat: int | None = None) -> int:
        """The id of a card with this code, in ``seat``'s hand if given."""
        face = ids_for_codes([code])[0]
        ids = [face, face + 52]
        if seat is None:
            return face
        return next(c for c in ids if c in self.state["hands"][seat])

    def lend(self, lender: int, debtor: int, *codes: str) -> int:
        cards = [self.card(c, lender) for c in codes]
        return int(self.move(lender, {"type": "lend", "to": debtor, "cards": cards})[0]["loan"])

    def offer(self, maker: int, to: int, codes: list[str], ask: list[str]) -> int:
        give = [self.card(c, maker) for c in codes]
        move = {"type": "offer", "to": to, "give": give, "ask": ask}
        return int(self.move(maker, move)[0]["offer"])

    def time_up(self) -> list[dict[str, Any]]:
        deadline = self.state["deadline_ms"]
        self.state, events = GAME.apply(self.state, 0, {"type": "time_up", "at": deadline})
        self.events += events
        return events


# ------------------------------------------------------------------ loan calls --------


def test_a_called_debtor_may_repay_only_the_called_loan() -> None:
    t = Table()
    called = t.lend(0, 1, "AS")
    other = t.lend(2, 1, "10C")
    t.move(0, {"type": "call_loan", "loan": called})
    err = t.refused(1, {"type": "repay", "loan": other, "cards": [t.card("10C", 1)]})
    assert err.code == "loan_called" and err.details["loan"] == called
    assert err.details["lender"] == 0 and err.details["owed"] == 1
    assert {m["type"] for m in GAME.legal_moves(t.state, 1)} == {"repay"}
    assert {m["loan"] for m in GAME.legal_moves(t.state, 1)} == {called}
    t.move(1, {"type": "repay", "loan": called, "cards": [t.card("2D", 1)]})
    t.move(1, {"type": "repay", "loan": other, "cards": [t.card("10C", 1)]})  # now free
    assert t.state["loans"] == []
    GAME.check(t.state)


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_a_called_debtor_may_not_answer_an_offer(answer: str) -> None:
    t = Table()
    oid = t.offer(2, 1, ["10C"], ["any"])
    loan = t.lend(0, 1, "AS")
    t.move(0, {"type": "call_loan", "loan": loan})
    move: dict[str, Any] = {"type": answer, "offer": oid}
    if answer == "accept":
        move["give"] = [t.card("2D", 1)]
    err = t.refused(1, move)
    assert err.code == "loan_called" and err.details["loan"] == loan
    for other in (
        {"type": "offer", "to": 2, "give": [t.card("7H", 1)], "ask": ["any"]},
        {"type": "lend", "to": 0, "cards": [t.card("7H", 1)]},
    ):
        assert t.refused(1, other).code == "loan_called"
    t.move(1, {"type": "repay", "loan": loan, "cards": [t.card("9H", 1)]})
    t.move(1, move)  # answered once the loan is repaid


def test_an_offer_from_a_blocked_seat_cannot_be_accepted() -> None:
    """Accepting would execute a trade of the debtor's before it repays."""
    t = Table()
    oid = t.offer(1, 2, ["7H"], ["any"])
    loan = t.lend(0, 1, "AS")
    t.move(0, {"type": "call_loan", "loan": loan})
    accept = {"type": "accept", "offer": oid, "give": [t.card("KC", 2)]}
    err = t.refused(2, accept)
    assert err.code == "loan_called" and err.details == {"lender": 0, "loan": loan}
    assert "Seat 1" in err.message
    assert all(m["type"] != "accept" for m in GAME.legal_moves(t.state, 2))
    t.move(1, {"type": "repay", "loan": loan, "cards": [t.card("2D", 1)]})
    t.move(2, accept)
    assert t.card("7H", 2) in t.state["hands"][2]


# ------------------------------------------------------------------ offers ------------


def test_accept_must_meet_every_any_of_the_ask() -> None:
    t = Table()
    oid = t.offer(0, 1, ["AS", "2S"], ["any", "any"])
    one, two, three = (t.card(c, 1) for c in ("7H", "7D", "7C"))
    for give in ([], [one], [one, two, three]):
        err = t.refused(1, {"type": "accept", "offer": oid, "give": give})
        assert err.code == "ask_not_met", give
    t.move(1, {"type": "accept", "offer": oid, "give": [one, two]})
    assert [len(h) for h in t.state["hands"]] == [6] * 5
    assert {t.card("AS", 1), t.card("2S", 1)} <= set(t.state["hands"][1])


def test_accept_must_give_the_faces_asked_for() -> None:
    t = Table()
    oid = t.offer(0, 1, ["AS", "2S"], ["7D", "any"])
    wrong = [t.card(c, 1) for c in ("7H", "8H")]
    err = t.refused(1, {"type": "accept", "offer": oid, "give": wrong})
    assert err.code == "ask_not_met" and err.details["missing"] == ["7D"]
    t.move(1, {"type": "accept", "offer": oid, "give": [t.card(c, 1) for c in ("8H", "7D")]})


@pytest.mark.parametrize(("give", "ask"), [(["AS", "2S"], ["any"]), (["AS"], ["any", "any"])])
def test_an_offer_asks_for_as_many_cards_as_it_gives(give: list[str], ask: list[str]) -> None:
    t = Table()
    move = {"type": "offer", "to": 1, "give": [t.card(c, 0) for c in give], "ask": ask}
    err = t.refused(0, move)
    assert err.code == "uneven_trade"
    assert f"give {len(give)} card(s) but ask for {len(ask)}" in err.message


# ------------------------------------------------------------------ settlement --------


def test_settlement_when_the_lent_card_has_moved_on() -> None:
    """Seat 0 lends AS to seat 1, which trades it on to seat 2. At time-up seat 1 owes
    one card and no longer holds AS: it returns the card it needs least (the one whose
    loss leaves its best arrangement strongest, lowest id on a tie): 10C, which it got
    for the ace, over 2D (same strength, higher id) and any 7, 8H or 9H (weaker)."""
    t = Table()
    loan = t.lend(0, 1, "AS")
    oid = t.offer(1, 2, ["AS"], ["any"])
    t.move(2, {"type": "accept", "offer": oid, "give": [t.card("10C", 2)]})
    assert t.card("AS", 2) in t.state["hands"][2]
    events = t.time_up()
    settled = [e for e in events if e["type"] == "loan_settled"]
    assert [(e["loan"], e["lender"], e["debtor"]) for e in settled] == [(loan, 0, 1)]
    assert [c["code"] for c in settled[0]["cards"]] == ["10C"]
    kept = {k: v for k, v in settled[0].items() if k not in ("type", "explanation")}
    assert t.state["settlement"] == [kept]
    assert (
        settled[0]["explanation"] == "Time ran out with loan #1 open: seat 1 returns 10♣ to seat 0."
    )
    assert t.card("10C", 0) in t.state["hands"][0]
    assert t.card("AS", 2) in t.state["hands"][2]  # the ace stays where it was traded
    assert [len(h) for h in t.state["hands"]] == [6] * 5
    GAME.check(t.state)


def test_settlement_returns_the_lent_cards_still_held_then_the_least_needed() -> None:
    t = Table()
    loan = t.lend(0, 1, "AS", "2S")
    oid = t.offer(1, 2, ["2S"], ["any"])
    t.move(2, {"type": "accept", "offer": oid, "give": [t.card("4D", 2)]})
    settled = [e for e in t.time_up() if e["type"] == "loan_settled"]
    assert [(e["loan"], [c["code"] for c in e["cards"]]) for e in settled] == [
        (loan, ["AS", "2D"])  # AS, still held, comes home; then 2D over 4D (lower id)
    ]
    GAME.check(t.state)


# ------------------------------------------------------------------ who sees what -----


def card_ids(value: Any) -> set[int]:
    """Card ids named anywhere in a view or an event: card objects and id lists under
    the keys that carry cards."""
    found: set[int] = set()
    if isinstance(value, dict):
        if "id" in value and "code" in value:
            found.add(int(value["id"]))
        for key, item in value.items():
            if key in ("give", "cards", "gave", "hand") and isinstance(item, list):
                found |= {c for c in _flat(item) if isinstance(c, int)}
            found |= card_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_ids(item)
    return found


def _flat(items: list[Any]) -> list[Any]:
    return [x for item in items for x in (_flat(item) if isinstance(item, list) else [item])]


def busy() -> Table:
    t = Table()
    t.lend(0, 1, "AS")
    oid = t.offer(2, 3, ["10C"], ["any"])
    t.offer(4, 0, ["2C"], ["any"])
    t.move(3, {"type": "accept", "offer": oid, "give": [t.card("AH", 3)]})
    tid = t.events[-1]["trade"]
    t.move(2, {"type": "propose_undo", "trade": tid})
    loan = t.lend(1, 2, "7H")
    t.move(1, {"type": "call_loan", "loan": loan})
    t.move(2, {"type": "repay", "loan": loan, "cards": [t.card("KC", 2)]})
    return t


def test_loan_offer_and_trade_cards_are_shown_only_to_their_two_seats() -> None:
    t = busy()
    assert t.state["loans"] and t.state["offers"] and t.state["trades"]
    for seat in (None, 0, 1, 2, 3, 4):
        seen = GAME.view(t.state, seat)
        for loan in seen["loans"]:
            assert ("cards" in loan) == (seat in (loan["lender"], loan["debtor"])), seat
        for offer in seen["offers"]:
            assert ("give" in offer) == (seat in (offer["from"], offer["to"])), seat
            assert ("ask" in offer) == ("give" in offer)
        for trade in seen["trades"]:
            assert ("gave" in trade) == (seat in trade["seats"]), seat
        own = set(t.state["hands"][seat]) if seat is not None else set()
        shared = (
            {c for o in t.state["offers"] if seat in (o["from"], o["to"]) for c in o["give"]}
            | {
                c
                for ln in t.state["loans"]
                if seat in (ln["lender"], ln["debtor"])
                for c in ln["cards"]
            }
            | {
                c
                for tr in t.state["trades"]
                if seat in tr["seats"]
                for side in tr["gave"]
                for c in side
            }
        )
        assert card_ids(seen) <= own | shared, seat


def parties(event: dict[str, Any]) -> set[int]:
    keys = ("from", "to", "lender", "debtor", "by", "seat")
    return {int(event[k]) for k in keys if k in event} | set(event.get("seats", []))


LABEL = re.compile("(10|[2-9AJQK])([♣♦♥♠])")
SUIT_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def faces_named(text: str) -> set[str]:
    """The faces a sentence names, by their labels (``Q♠``), as face codes (``QS``)."""
    return {rank + SUIT_LETTER[suit] for rank, suit in LABEL.findall(text)}


def faces_shown(value: Any) -> set[str]:
    """The faces a view or an event shows: its card objects and its asks."""
    found: set[str] = set()
    if isinstance(value, dict):
        if "id" in value and "code" in value:
            found.add(str(value["code"]))
        for key, item in value.items():
            if key == "ask" and isinstance(item, list):
                found |= {str(a).upper() for a in item if str(a).lower() != "any"}
            found |= faces_shown(item)
    elif isinstance(value, list):
        for item in value:
            found |= faces_shown(item)
    return found


def test_events_name_cards_only_to_the_seats_concerned() -> None:
    t = busy()
    assert {e["type"] for e in t.events} >= {
        "offer_made", "trade_executed", "loan_made", "loan_called", "loan_repaid"
    }  # fmt: skip
    for event in t.events:
        (public,) = events_for([event], None)
        assert card_ids(public) == set(), public  # what the event stream may carry
        assert faces_named(public["explanation"]) == set(), public
        for seat in range(5):
            (mine,) = events_for([event], seat)
            if seat not in parties(event):
                assert card_ids(mine) == set(), (seat, event)
                assert mine["explanation"] == public["explanation"], (seat, event)
            else:  # the sentence names only the cards (and asks) the event shows the seat
                assert faces_named(mine["explanation"]) <= faces_shown(mine), (seat, mine)
            if card_ids(mine):
                assert faces_named(mine["explanation"]) == faces_shown(mine), (seat, mine)
    offer_made = next(e for e in t.events if e["type"] == "offer_made")
    offered = next(o for o in GAME.view(t.state, offer_made["to"])["offers"] if "give" in o)
    for seat in (offer_made["from"], offer_made["to"]):
        (theirs,) = events_for([offer_made], seat)
        assert card_ids(theirs) == {t.card("10C")}, seat  # the two seats see the card
    assert offered["give"]


def test_a_debtor_with_no_card_and_only_a_called_loan_of_its_own_waits() -> None:
    """Seat 1 borrowed the AS (not called), lent its whole hand on to seat 2 and called
    that loan in: it holds nothing, cannot repay, has no offer to answer and no loan
    left to call, so it is not to act, has no legal move, and a bot says so."""
    t = Table()
    t.lend(0, 1, "AS")
    everything = [GAME.view(t.state, 1)["you"]["hand"][i]["code"] for i in range(7)]
    onward = t.lend(1, 2, *everything)
    t.move(1, {"type": "call_loan", "loan": onward})
    assert t.state["hands"][1] == []
    assert 1 not in GAME.to_act(t.state) and GAME.legal_moves(t.state, 1) == []
    with pytest.raises(RuleViolation) as err:
        GAME.bot_move(t.state, 1, "random")
    assert err.value.code == "no_move"
    lent = next(ln["cards"] for ln in t.state["loans"] if ln["id"] == onward)
    t.move(2, {"type": "repay", "loan": onward, "cards": lent})
    assert 1 in GAME.to_act(t.state) and GAME.legal_moves(t.state, 1)


# ------------------------------------------------------------------ who may do what ---


@pytest.mark.parametrize("other", [2, 3, 0])
def test_trades_and_loans_only_with_a_neighbour(other: int) -> None:
    t = Table()
    ace = t.card("AS", 0)
    for move in (
        {"type": "offer", "to": other, "give": [ace], "ask": ["any"]},
        {"type": "lend", "to": other, "cards": [ace]},
    ):
        err = t.refused(0, move)
        assert err.code == "not_neighbour" and "seats 1 (left) and 4 (right)" in err.message
    t.lend(0, 4, "AS")  # the right neighbour is fine


def test_only_the_maker_withdraws_and_only_the_receiver_answers() -> None:
    t = Table()
    oid = t.offer(0, 1, ["AS"], ["any"])
    assert t.refused(1, {"type": "withdraw", "offer": oid}).code == "not_your_offer"
    assert t.refused(4, {"type": "decline", "offer": oid}).code == "not_your_offer"
    err = t.refused(4, {"type": "accept", "offer": oid, "give": [t.card("2C", 4)]})
    assert err.code == "not_your_offer"
    t.move(0, {"type": "withdraw", "offer": oid})
    assert t.state["offers"] == []


def test_only_the_two_seats_of_a_trade_may_propose_to_undo_it() -> None:
    t = Table()
    oid = t.offer(0, 1, ["AS"], ["any"])
    t.move(1, {"type": "accept", "offer": oid, "give": [t.card("7H", 1)]})
    trade = t.events[-1]["trade"]
    for seat in (2, 3, 4):
        assert t.refused(seat, {"type": "propose_undo", "trade": trade}).code == "not_your_trade"
    t.move(1, {"type": "propose_undo", "trade": trade})


@pytest.mark.parametrize("count", [0, 1, 3])
def test_a_called_loan_is_repaid_with_exactly_what_is_owed(count: int) -> None:
    t = Table()
    loan = t.lend(0, 1, "AS", "2S")
    t.move(0, {"type": "call_loan", "loan": loan})
    cards = [t.card(c, 1) for c in ("7H", "7D", "7C")][:count]
    err = t.refused(1, {"type": "repay", "loan": loan, "cards": cards})
    assert err.code == "wrong_repayment"
    t.move(1, {"type": "repay", "loan": loan, "cards": [t.card(c, 1) for c in ("7H", "7D")]})
    assert t.state["loans"] == []


# ------------------------------------------------------------------ the wire (issue 16) -


def test_the_declared_moves_are_the_move_types() -> None:
    assert ACTIONS.shapes == GAME.wire.moves


def test_time_is_stamped_by_the_service_not_sent_by_a_client() -> None:
    """The contract's moves have no ``at``; the rules take it as the service's stamp."""
    sent = shapes.OneOf(options=tuple(shapes.shape(m) for m in GAME.wire.moves))
    with pytest.raises(ShapeError):
        shapes.parse({"type": "ready", "at": 5}, sent)
    assert GAME.parse_move({"type": "ready", "at": 5}) == {"type": "ready", "at": 5}
    assert GAME.parse_move({"type": "ready"}) == {"type": "ready"}
    with pytest.raises(RuleViolation) as err:
        GAME.parse_move({"type": "decline", "offer": 1, "at": "soon"})
    assert err.value.code == "bad_move"
    assert set(err.value.details["errors"]["move"]) == {"at"}


def test_an_offer_asks_in_face_codes_of_any_case() -> None:
    move = {"type": "offer", "to": 1, "give": [3], "ask": ["qs"]}
    assert GAME.parse_move(move)["ask"] == ["QS"]
    assert GAME.parse_move({**move, "ask": ["ANY"]})["ask"] == ["any"]
    with pytest.raises(RuleViolation) as err:
        GAME.parse_move({**move, "ask": ["00"]})
    # issue 17: the details carry what was sent, not its repr ("'00'")
    assert err.value.code == "bad_card" and err.value.details == {"given": "00"}
    assert "bad_card" in INFO.codes_at("move")


def test_a_bot_asked_for_a_seat_already_ready_says_so() -> None:
    """Issue 17: the bot answered {"type": "ready"} and the move then answered
    already_ready, which no bot-move documented."""
    state = GAME.setup(5, {"timer_seconds": 60}, seed=0)
    state, _ = GAME.apply(state, 0, {"type": "ready", "at": 0})
    with pytest.raises(RuleViolation) as err:
        GAME.bot_move(state, 0, "random")
    assert err.value.code == "already_ready" and "already_ready" in INFO.codes_at("bot")
    assert GAME.bot_move(state, 1, "random")[0] == {"type": "ready"}


def test_legal_moves_follow_the_table_order() -> None:
    """The random bot draws from this list: offer by offer (accept, decline,
    withdraw), loan by loan, then each neighbour (lower seat first) card by card."""
    t = Table()
    t.offer(0, 1, ["AS"], ["any"])
    t.offer(1, 2, ["7H"], ["any"])
    t.lend(2, 1, "10C")
    moves = GAME.legal_moves(t.state, 1)
    kinds = [m["type"] for m in moves]
    assert kinds[:4] == ["accept", "decline", "withdraw", "repay"]
    assert kinds[4:8] == ["offer", "lend", "offer", "lend"]
    hand = t.state["hands"][1]
    assert [(m["to"], (m.get("give") or m["cards"])[0]) for m in moves[4::2]] == [
        (0, c) for c in hand
    ] + [(2, c) for c in hand]


@pytest.mark.parametrize(
    ("players", "seed", "timer", "bots", "moves", "digest"),
    [
        (5, 1, 60, ["random"], 60, "da58aeee7d2acdae"),
        (7, 2, 45, ["random", "trading"], 52, "453d078c5d3a5407"),
        (12, 3, 30, ["trading"], 43, "8ad109b4dc41eac2"),
    ],
)
def test_a_seed_plays_the_game_it_played_before(
    players: int, seed: int, timer: int, bots: list[str], moves: int, digest: str
) -> None:
    """The bots' moves for a seed, recorded before the move types moved to
    rules.actions (issue 16): a change in the legal moves' order or in a bot shows."""
    state = GAME.setup(players, {"timer_seconds": timer}, seed)
    played: list[Any] = []
    while GAME.to_act(state):
        seat = GAME.to_act(state)[len(played) % len(GAME.to_act(state))]
        move, state = GAME.bot_move(state, seat, bots[len(played) % len(bots)])
        state, _ = GAME.apply(state, seat, move)
        played.append([seat, move])
    text = json.dumps(played, sort_keys=True).encode()
    assert (len(played), hashlib.sha256(text).hexdigest()[:16]) == (moves, digest)


def refusal(state: dict[str, Any], seat: int, patterns: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        declared(state, seat, patterns)
    code = err.value.code
    assert code in INFO.codes_at("arrangement"), code
    details = err.value.details
    if code in wire.ARRANGEMENT_DETAILS:
        shapes.parse(details, wire.ARRANGEMENT_DETAILS[code])
    else:
        assert details == {}
    return err.value


def test_the_arrangement_check_answers_as_declared() -> None:
    t = Table()
    seat = 0
    hand = t.state["hands"][seat]
    answer = declared(t.state, seat, [["AS", "2S", "3S"], [hand[4], hand[5]]])
    shapes.parse(answer, wire.ArrangementCheck)
    assert answer["neighbour_longest_sum"] is None and answer["declared"]["score"] is None
    empty = refusal(t.state, seat, [[]])
    # issue 17: the details of [[]] have one declared shape (a list of card ids)
    assert empty.code == "not_a_pattern" and empty.details["cards"] == []
    assert refusal(t.state, seat, [["AS", "3S"]]).details["reason"] == "not_consecutive"
    assert refusal(t.state, seat, [["7H", "7D"]]).code == "card_not_in_hand"
    assert refusal(t.state, seat, [["AS", "2S"], [hand[0], "3S"]]).code == "card_used_twice"
    assert refusal(t.state, seat, [["00"]]).details == {"given": "00"}
    assert refusal(t.state, seat, [[104]]).details == {"card": 104}
    assert refusal(t.state, seat, "AS").code == "bad_patterns"
    waiting = GAME.setup(5, {"deal": DEAL}, seed=0)
    assert refusal(waiting, seat, [["AS", "2S"]]).code == "not_started"
    t.time_up()
    ended = declared(t.state, seat, [["AS", "2S", "3S"]])
    shapes.parse(ended, wire.ArrangementCheck)
    assert ended["neighbour_longest_sum"] is not None


def test_codes_say_where_they_are_answered() -> None:
    assert INFO.codes_at("start") == ["already_started", "timer_expired"]
    assert INFO.all_codes()["timer_expired"].status == 409
    t = Table()
    with pytest.raises(RuleViolation) as err:
        start_timer(t.state, 0)
    assert err.value.code == "already_started"


def test_the_session_clock_block_is_as_declared() -> None:
    t = Table()
    t.lend(0, 1, "AS")
    for state in (GAME.setup(5, {"deal": DEAL}, seed=0), t.state):
        shapes.parse(CLOCK.block(state, 1_700_000_000_000), wire.SessionClock)


def test_every_event_says_what_happened_in_words() -> None:
    """Issue 26 §4: each event type carries a sentence; a trade's names the cards to its
    two seats only; time up ends with each seat's arrangement and score."""
    state = GAME.setup(5, {"deal": DEAL, "timer_seconds": 90}, seed=0)
    events: list[dict[str, Any]] = []
    for seat in range(5):
        state, more = GAME.apply(state, seat, {"type": "ready", "at": 0})
        events += more
    t = Table()
    t.state, t.events = state, events
    oid = t.offer(2, 3, ["10C"], ["AH"])
    (trade,) = t.move(3, {"type": "accept", "offer": oid, "give": [t.card("AH", 3)]})
    t.move(2, {"type": "propose_undo", "trade": trade["trade"]})
    t.move(3, {"type": "accept", "offer": t.events[-1]["offer"]})
    t.move(4, {"type": "decline", "offer": t.offer(0, 4, ["AS"], ["any"])})
    t.move(0, {"type": "withdraw", "offer": t.offer(0, 1, ["2S", "3S"], ["7H", "any"])})
    loan = t.lend(0, 1, "AS", "2S")
    t.move(0, {"type": "call_loan", "loan": loan})
    t.move(1, {"type": "repay", "loan": loan, "cards": [t.card("9H", 1), t.card("AS", 1)]})
    t.lend(1, 2, "7H")
    t.time_up()
    declared_types = {shapes.tag_of(shapes.shape(e)) for e in GAME.wire.events}
    assert {e["type"] for e in t.events} == declared_types
    assert all(e["explanation"] for e in t.events)

    def said(event: dict[str, Any], seat: int | None) -> str:
        return str(events_for([event], seat)[0]["explanation"])

    assert said(t.events[4], None) == "Seat 4 is ready (5 of 5 seats)."
    assert said(t.events[5], None).startswith("The timer starts: 1 minute 30 seconds to trade")
    assert (
        said(trade, 2)
        == said(trade, 3)
        == ("Seat 3 accepts seat 2's offer #1 (trade #2): seat 2 gives 10♣, seat 3 gives A♥.")
    )
    assert (
        said(trade, None)
        == said(trade, 0)
        == ("Seat 3 accepts seat 2's offer #1: they swap 1 card each (trade #2).")
    )
    called = next(e for e in t.events if e["type"] == "loan_called")
    assert said(called, None) == (
        f"Seat 0 calls in loan #{loan}: seat 1 must return 2 cards to seat 0 before it may "
        "do anything else."
    )
    repaid = next(e for e in t.events if e["type"] == "loan_repaid")
    assert (
        said(repaid, 0)
        == f"Seat 1 returns 9♥ and A♠ to seat 0 on loan #{loan}; the loan is closed."
    )
    assert (
        said(repaid, 4) == f"Seat 1 returns 2 cards to seat 0 on loan #{loan}; the loan is closed."
    )
    settled = next(e for e in t.events if e["type"] == "loan_settled")
    assert said(settled, None) == (
        f"Time ran out with loan #{settled['loan']} open: seat 2 returns 7♥ to seat 1."
    )
    over = said(t.events[-1], None)
    table = GAME.scores(t.state)["seats"]
    for row in table:  # every seat's arrangement, its patterns and its score
        assert f"Seat {row['seat']} " in over and f"= {row['score']} point" in over
        for pattern in [row["arrangement"]["longest"], *row["arrangement"]["others"]]:
            assert all(code in faces_named(over) for code in pattern if pattern)
    winner = t.events[-1]["winners"][0]
    assert over.endswith(f"wins with {table[winner]['score']} points.") or "share" in over


def forms_of(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    assert GAME.move_forms is not None
    return GAME.move_forms(state, seat)


def members(form: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["name"]: m for m in form["members"]}


def values(member: dict[str, Any]) -> list[Any]:
    return [c["value"] for c in member["choices"]]


def test_move_forms_say_how_to_build_multi_card_moves() -> None:
    """Issue 26 §4: legal_moves lists one-card offers and loans; the forms say which
    cards a seat may give, to whom, how many and what it may ask for, and a three-card
    offer and its acceptance built from them are legal."""
    waiting = GAME.setup(5, {"deal": DEAL}, seed=0)
    assert all(forms_of(waiting, s) == [] for s in range(5))
    t = Table()
    forms = forms_of(t.state, 0)
    assert [f["type"] for f in forms] == ["offer", "lend"]
    offer = members(forms[0])
    assert [(c["value"], c["label"]) for c in offer["to"]["choices"]] == [
        (1, "seat 1, your left"),
        (4, "seat 4, your right"),
    ]
    assert values(offer["give"]) == t.state["hands"][0] and offer["give"]["distinct"]
    assert (offer["give"]["min_items"], offer["give"]["max_items"]) == (1, 6)
    assert offer["ask"]["same_length_as"] == "give" and not offer["ask"]["distinct"]
    assert len(values(offer["ask"])) == 53 and {"any", "QS", "10H"} <= set(values(offer["ask"]))
    assert offer["give"]["choices"][0] == {"value": t.card("AS"), "label": "A♠"}
    give = [t.card(c, 0) for c in ("AS", "2S", "3S")]
    oid = t.offer(0, 1, ["AS", "2S", "3S"], ["7H", "any", "2D"])
    (accept,) = [f for f in forms_of(t.state, 1) if f["type"] == "accept"]
    assert members(accept)["offer"]["choices"] == [{"value": oid, "label": f"offer #{oid}"}]
    hand = t.state["hands"][1]
    assert members(accept)["give"]["slots"] == [[t.card("7H", 1)], hand, [t.card("2D", 1)]]
    assert accept["description"] == (
        f"Accept seat 0's offer #{oid}: A♠, 2♠ and 3♠ for 7♥, any card and 2♦. Give one "
        "card of yours for each item asked."
    )
    t.move(1, {"type": "accept", "offer": oid, "give": [t.card(c, 1) for c in ("2D", "9H", "7H")]})
    assert set(give) <= set(t.state["hands"][1])
    loan = t.lend(2, 1, "10C", "JC")
    t.move(2, {"type": "call_loan", "loan": loan})
    (repay,) = forms_of(t.state, 1)
    cards = members(repay)["cards"]
    assert repay["type"] == "repay" and (cards["min_items"], cards["max_items"]) == (2, 2)
    assert values(cards) == t.state["hands"][1]
