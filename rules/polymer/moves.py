"""Polymer's ten move types, each in one section: its ``verify``, its effect and the
moves of its type worth trying now (its shape is declared in :mod:`rules.polymer.wire`).

:data:`ACTIONS` holds them (:class:`rules.actions.Action`) and builds ``verify``: the
seat is at the table, the game is not over, then the type's own checks (a trading
move first checks what every trading move shares: :func:`trading_open`). So legality
lives in one place: ``legal_moves`` lists the candidates ``verify`` accepts, in the
order a seat reads the table (:func:`table_order`), and ``apply`` verifies before it
applies. ``parse_move`` checks a move against its declared shape, with the time the
service stamps on it (``wire.Stamp``).

Imports run one way: ``cards -> patterns -> explain -> table -> settle -> scoring ->
moves -> bots -> game`` (``wire`` declares shapes only). Every event carries its
``explanation`` (:mod:`rules.polymer.explain`); an event that hides cards gives the
two seats concerned the sentence that names them, in its ``private`` part.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict, TypeVar

from rules import shapes
from rules.actions import Action, Actions
from rules.core import JSON, Event, Move, RuleViolation, State, left_of, right_of
from rules.core import can as core_can
from rules.wire import choice, form, listed, one
from rules.zones import emitted, with_private

from . import explain, wire
from .cards import FACES, card_code, card_json, card_label, face_of, parse_face
from .scoring import final
from .settle import settle
from .table import (
    SEED_CALL,
    SEED_LOOK,
    SEED_STOP,
    blocking_loans,
    move_time,
    time_is_up,
    transfer,
)

MAX_OPEN_OFFERS = 12  # per seat: bounds the state (and the token) under a flood of offers

SEED_TRADE = (
    "Players can freely (asynchronously) trade any of their cards with their immediate "
    "neighbors (to their left and right only), however they must always keep the same "
    "total number of cards."
)
SEED_UNDO = "Once a trade has been executed, it can only be undone if both players agree."


# ---------------------------------------------------------------- shared checks -----
def game_on(state: State, seat: int) -> None:
    """What forbids every move: the game is over."""
    if state["phase"] == "ended":
        raise RuleViolation(
            "timer_expired", "Time is up: the game is over.", rule=SEED_STOP, status=409
        )


def _before_deadline(state: State, move: Move) -> None:
    if time_is_up(state, move_time(state, move)):
        raise RuleViolation(
            "timer_expired",
            "Time is up: trading has stopped.",
            rule=SEED_STOP,
            status=409,
            deadline_ms=state["deadline_ms"],
        )


def trading_open(state: State, seat: int, move: Move) -> None:
    """What every trading move shares: the timer has started, time is not up, and a
    seat that owes a called loan repays it before anything else."""
    if state["phase"] == "waiting":
        raise RuleViolation(
            "not_started",
            "The timer has not started: declare yourself ready and wait for the others "
            "(or the host) to start it.",
            rule=SEED_LOOK,
        )
    _before_deadline(state, move)
    owed = blocking_loans(state, seat)
    if owed and not (move["type"] == "repay" and any(ln["id"] == move["loan"] for ln in owed)):
        loan = owed[0]
        count = min(int(loan["outstanding"]), len(state["hands"][seat]))
        raise RuleViolation(
            "loan_called",
            f"Seat {loan['lender']} has called in its loan #{loan['id']}: return {count} "
            f"card{'s' if count != 1 else ''} to seat {loan['lender']} before anything else.",
            rule=SEED_CALL,
            lender=loan["lender"],
            loan=loan["id"],
            owed=count,
        )


def _codes(cards: Sequence[int]) -> str:
    return ", ".join(card_code(c) for c in cards)


def _own(state: State, seat: int, cards: Sequence[int], rule: str | None = None) -> None:
    if len(set(cards)) != len(cards):
        twice = [c for c, n in Counter(cards).items() if n > 1]
        raise RuleViolation(
            "card_named_twice", f"{_codes(twice)} named twice in one move.", cards=twice
        )
    hand = set(state["hands"][seat])
    missing = [c for c in cards if c not in hand]
    if missing:
        raise RuleViolation(
            "not_in_hand",
            f"You do not hold {_codes(missing)} (card id{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(str, missing))}).",
            rule=rule,
            cards=missing,
        )


def _neighbour(state: State, seat: int, other: int) -> None:
    players = int(state["players"])
    if other not in (left_of(seat, players), right_of(seat, players)) or other == seat:
        raise RuleViolation(
            "not_neighbour",
            f"Seat {other} is not your neighbour: you may only deal with seats "
            f"{left_of(seat, players)} (left) and {right_of(seat, players)} (right).",
            rule=SEED_TRADE,
        )


def _offer(state: State, offer_id: int) -> dict[str, Any]:
    for offer in state["offers"]:
        if offer["id"] == offer_id:
            return dict(offer)
    raise RuleViolation("no_such_offer", f"There is no open offer #{offer_id}.")


def _trade(state: State, trade_id: int) -> dict[str, Any]:
    for trade in state["trades"]:
        if trade["id"] == trade_id:
            return dict(trade)
    raise RuleViolation("no_such_trade", f"There is no trade #{trade_id}.")


def _loan(state: State, loan_id: int) -> dict[str, Any]:
    for loan in state["loans"]:
        if loan["id"] == loan_id:
            return dict(loan)
    raise RuleViolation("no_such_loan", f"There is no open loan #{loan_id}.")


def _holds(state: State, seat: int, cards: Sequence[int]) -> bool:
    return set(cards) <= set(state["hands"][seat])


def _without_stale(state: State) -> list[dict[str, Any]]:
    """Offers whose cards left their maker's hand can never execute: drop them."""
    hands = state["hands"]
    return [o for o in state["offers"] if set(o["give"]) <= set(hands[o["from"]])]


def _next_id(state: State) -> tuple[int, int]:
    return int(state["next_id"]), int(state["next_id"]) + 1


class _OfferSeen(TypedDict):
    """What the two seats of an offer read besides the public event: the cards."""

    give: list[wire.Card]
    ask: list[wire.Ask]
    explanation: wire.Explanation


class _TradeSeen(TypedDict):
    """What the two seats of a trade read besides the public event: the cards."""

    gave: list[list[wire.Card]]
    explanation: wire.Explanation


class _CardsSeen(TypedDict):
    """What the lender and the debtor of a loan read besides the public event."""

    cards: list[wire.Card]
    explanation: wire.Explanation


_Seen = TypeVar("_Seen", _OfferSeen, _TradeSeen, _CardsSeen)


def _seen_by(seats: Sequence[int], seen: _Seen) -> dict[int, _Seen]:
    """The private part of an event: the same members for each of the two seats."""
    return dict.fromkeys(seats, seen)


def _trading(state: State) -> bool:
    return bool(state["phase"] == "trading")


def _neighbours(state: State, seat: int) -> list[int]:
    players = int(state["players"])
    return sorted({left_of(seat, players), right_of(seat, players)})


# ---------------------------------------------------------------- move forms --------
# How to build the moves ``legal_moves`` only samples (``rules.wire.MoveForm``): an
# offer, a loan, an accept and a repayment name cards the player chooses. Each form
# holds only what ``verify`` accepts now, so every move built within it is legal.
ASKS = [choice(card_code(f), card_label(f)) for f in range(FACES)] + [choice("any", "any card")]
"""What an offer may ask for, item by item: any face, or any card."""


def _may(state: State, seat: int, move: Move) -> bool:
    """Whether what every trading move shares allows ``move`` now (``trading_open``)."""
    try:
        trading_open(state, seat, move)
    except RuleViolation:
        return False
    return True


def _cards(cards: Sequence[int]) -> list[dict[str, Any]]:
    return [choice(c, card_label(c)) for c in cards]


def _to(state: State, seat: int) -> dict[str, Any]:
    players = int(state["players"])
    left, right = left_of(seat, players), right_of(seat, players)
    return one(
        "to", [choice(left, f"seat {left}, your left"), choice(right, f"seat {right}, your right")]
    )


# ---------------------------------------------------------------- ready -------------
def verify_ready(state: State, seat: int, move: Move) -> None:
    if state["phase"] == "waiting":
        if state["ready"][seat]:
            raise RuleViolation("already_ready", "You have already declared you are ready.")
        return
    _before_deadline(state, move)
    raise RuleViolation("already_started", "The timer is already running.")


def start_timer(state: State, at: int) -> tuple[State, list[Event]]:
    """Start the countdown (all seats ready, or the host said so)."""
    if state["phase"] != "waiting":
        raise RuleViolation("already_started", "The timer is already running.")
    at = max(int(state["now_ms"]), at)
    duration = int(state["options"]["timer_seconds"]) * 1000
    new = {
        **state,
        "phase": "trading",
        "now_ms": at,
        "started_ms": at,
        "deadline_ms": at + duration,
    }
    started: wire.TimerStartedEvent = {
        "type": "timer_started",
        "started_ms": at,
        "deadline_ms": at + duration,
        "explanation": explain.timer_started(int(state["options"]["timer_seconds"])),
    }
    return new, [emitted(started)]


def apply_ready(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    ready = list(state["ready"])
    ready[seat] = True
    state = {**state, "ready": ready}
    declared: wire.ReadyEvent = {
        "type": "ready",
        "seat": seat,
        "explanation": explain.ready(seat, sum(ready), len(ready)),
    }
    events = [emitted(declared)]
    if all(ready):
        state, started = start_timer(state, int(state["now_ms"]))
        events += started
    return state, events


def readies(state: State, seat: int) -> list[Move]:
    return [{"type": "ready"}] if state["phase"] == "waiting" else []


# ---------------------------------------------------------------- time_up -----------
def verify_time_up(state: State, seat: int, move: Move) -> None:
    if state["phase"] != "trading":
        raise RuleViolation("timer_running", "The timer has not started yet, so time cannot be up.")
    at = move_time(state, move)
    if not time_is_up(state, at):
        left = int(state["deadline_ms"]) - at
        raise RuleViolation(
            "timer_running",
            f"Time is not up yet: {left} ms left before the deadline.",
            rule=SEED_STOP,
            left_ms=left,
        )


def apply_time_up(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    up: wire.TimeUpEvent = {
        "type": "time_up",
        "at_ms": state["now_ms"],
        "explanation": explain.time_up(int(state["options"]["timer_seconds"]), len(state["loans"])),
    }
    state, events = settle(state)
    state = {**state, "phase": "ended", "offers": []}
    table, result = final(state)
    over: wire.GameOverEvent = {
        "type": "game_over",
        **result.declared(),
        "explanation": explain.final(table, result.winners, result.tie_break),
    }
    return state, [emitted(up), *events, emitted(over)]


def times_up(state: State, seat: int) -> list[Move]:
    return [{"type": "time_up"}] if _trading(state) else []


# ---------------------------------------------------------------- offer -------------
def verify_offer(state: State, seat: int, move: Move) -> None:
    trading_open(state, seat, move)
    _neighbour(state, seat, move["to"])
    _own(state, seat, move["give"], SEED_TRADE)
    if len(move["ask"]) != len(move["give"]):
        raise RuleViolation(
            "uneven_trade",
            f"You give {len(move['give'])} card(s) but ask for {len(move['ask'])}: both sides "
            "must keep the same number of cards.",
            rule=SEED_TRADE,
        )
    if sum(1 for o in state["offers"] if o["from"] == seat) >= MAX_OPEN_OFFERS:
        raise RuleViolation(
            "too_many_offers", f"You have {MAX_OPEN_OFFERS} open offers; withdraw one first."
        )


def apply_offer(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    oid, nxt = _next_id(state)
    offer = {
        "id": oid,
        "kind": "trade",
        "from": seat,
        "to": move["to"],
        "give": list(move["give"]),
        "ask": list(move["ask"]),
        "trade": None,
        "at_ms": state["now_ms"],
    }
    event: wire.OfferMadeEvent = {
        "type": "offer_made",
        "offer": oid,
        "kind": "trade",
        "from": seat,
        "to": move["to"],
        "count": len(move["give"]),
        "explanation": explain.offered(oid, seat, move["to"], None, move["ask"]),
    }
    seen: _OfferSeen = {
        "give": [card_json(c) for c in move["give"]],
        "ask": move["ask"],
        "explanation": explain.offered(oid, seat, move["to"], move["give"], move["ask"]),
    }
    return {**state, "offers": [*state["offers"], offer], "next_id": nxt}, [
        with_private(event, _seen_by((seat, move["to"]), seen))
    ]


def offers(state: State, seat: int) -> list[Move]:
    """One card of the hand for any card of a neighbour's (the move space is wider:
    ``wire.MOVE_SPACE``)."""
    if not _trading(state):
        return []
    hand = state["hands"][seat]
    return [
        {"type": "offer", "to": other, "give": [card], "ask": ["any"]}
        for other in _neighbours(state, seat)
        for card in hand
    ]


def offer_forms(state: State, seat: int) -> list[JSON]:
    """Any of the hand's cards to a neighbour, for as many asked faces or 'any'."""
    hand = state["hands"][seat]
    mine = sum(1 for o in state["offers"] if o["from"] == seat)
    if not (_trading(state) and hand and mine < MAX_OPEN_OFFERS):
        return []
    if not _may(state, seat, {"type": "offer"}):
        return []
    most = min(len(hand), wire.CARDS_PER_MOVE)
    left, right = _neighbours(state, seat)
    return [
        form(
            "offer",
            f"Offer seat {left} or seat {right} some of your {len(hand)} cards for as many of "
            "theirs: ask for each by its face, or for any card (their choice).",
            _to(state, seat),
            listed("give", _cards(hand), 1, most),
            listed("ask", ASKS, 1, most, distinct=False, same_length_as="give"),
        )
    ]


def read_ask(item: str) -> str:
    """An offer's ask item as stored: ``any`` or a canonical face code (``bad_card`` if
    it names no face)."""
    return "any" if item.strip().lower() == "any" else card_code(parse_face(item))


# ---------------------------------------------------------------- accept ------------
def _undo_cards(trade: Mapping[str, Any], seat: int) -> tuple[list[int], list[int]]:
    """(cards ``seat`` must give back, cards it gets back) to undo ``trade``."""
    a = trade["seats"][0]
    gave_a, gave_b = trade["gave"]
    return (list(gave_b), list(gave_a)) if seat == a else (list(gave_a), list(gave_b))


def _maker_free(state: State, seat: int) -> None:
    owed = blocking_loans(state, seat)
    if owed:
        loan = owed[0]
        raise RuleViolation(
            "loan_called",
            f"Seat {seat} must first repay the loan seat {loan['lender']} called in; "
            "its offers cannot execute until then.",
            rule=SEED_CALL,
            lender=loan["lender"],
            loan=loan["id"],
        )


def _check_ask(asks: Sequence[str], given: Sequence[int]) -> None:
    needed = Counter(a for a in asks if a != "any")
    have = Counter(card_code(face_of(c)) for c in given)
    short = needed - have
    if len(given) != len(asks) or short:
        wanted = ", ".join(asks)
        raise RuleViolation(
            "ask_not_met",
            f"The offer asks for {len(asks)} card(s): {wanted}; you gave "
            f"{_codes(given) or 'nothing'}.",
            missing=sorted(short.elements()),
        )


def verify_accept(state: State, seat: int, move: Move) -> None:
    trading_open(state, seat, move)
    offer = _offer(state, move["offer"])
    if offer["to"] != seat:
        raise RuleViolation(
            "not_your_offer", f"Offer #{offer['id']} was made to seat {offer['to']}, not you."
        )
    _maker_free(state, offer["from"])
    # the maker still holds offer["give"]: every card movement drops offers that went stale
    if offer["kind"] == "undo":
        trade = _trade(state, offer["trade"])
        back, _ = _undo_cards(trade, seat)
        if not _holds(state, seat, back):
            raise RuleViolation(
                "undo_impossible",
                f"You no longer hold {_codes(back)}, so trade #{trade['id']} cannot be undone.",
                rule=SEED_UNDO,
            )
        if move["give"] and sorted(move["give"]) != sorted(back):
            raise RuleViolation("ask_not_met", f"Undoing returns exactly {_codes(back)}.")
        return
    _own(state, seat, move["give"])
    _check_ask(offer["ask"], move["give"])


def apply_accept(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    offer = _offer(state, move["offer"])
    maker = offer["from"]
    hands = [list(h) for h in state["hands"]]
    trades = [dict(t) for t in state["trades"]]
    if offer["kind"] == "undo":
        original = next(t for t in trades if t["id"] == offer["trade"])
        back, _ = _undo_cards(original, seat)
        given = back
        original["undone"] = True
    else:
        given = list(move["give"])
    transfer(hands, maker, seat, offer["give"])
    transfer(hands, seat, maker, given)
    tid, nxt = _next_id(state)
    trade = {
        "id": tid,
        "seats": [maker, seat],
        "gave": [list(offer["give"]), given],
        "undone": False,
        "undoes": offer["trade"],
        "at_ms": state["now_ms"],
    }
    new = {
        **state,
        "hands": hands,
        "trades": [*trades, trade],
        "offers": [o for o in state["offers"] if o["id"] != offer["id"]],
        "next_id": nxt,
    }
    new["offers"] = _without_stale(new)
    facts: wire.TradeFacts = {
        "trade": tid,
        "offer": offer["id"],
        "undoes": offer["trade"],
        "seats": [maker, seat],
        "count": len(given),
        "explanation": explain.traded(
            tid, offer["id"], offer["trade"], (maker, seat), len(given), None
        ),
    }
    event: wire.TradeUndoneEvent | wire.TradeExecutedEvent = (
        {"type": "trade_undone", **facts}
        if offer["kind"] == "undo"
        else {"type": "trade_executed", **facts}
    )
    seen: _TradeSeen = {
        "gave": [[card_json(c) for c in offer["give"]], [card_json(c) for c in given]],
        "explanation": explain.traded(
            tid, offer["id"], offer["trade"], (maker, seat), len(given), (offer["give"], given)
        ),
    }
    return new, [with_private(event, _seen_by((maker, seat), seen))]


def matching_give(hand: Sequence[int], asks: Sequence[str]) -> list[int] | None:
    """Cards of ``hand`` that meet ``asks`` (named faces first, then any card), or None."""
    pool = list(hand)
    out: list[int] = []
    for ask in sorted(asks, key=lambda a: a == "any"):
        pick = next((c for c in pool if ask == "any" or card_code(face_of(c)) == ask), None)
        if pick is None:
            return None
        pool.remove(pick)
        out.append(pick)
    return out


def accepts(state: State, seat: int) -> list[Move]:
    """Each offer made to the seat, met with the first cards of its hand that match."""
    if not _trading(state):
        return []
    hand = state["hands"][seat]
    out: list[Move] = []
    for offer in state["offers"]:
        if offer["to"] == seat:
            give = [] if offer["kind"] == "undo" else matching_give(hand, offer["ask"])
            if give is not None:
                out.append({"type": "accept", "offer": offer["id"], "give": give})
    return out


def accept_forms(state: State, seat: int) -> list[JSON]:
    """Each offer made to the seat that it can accept: a trade with a card of its hand
    for each item asked (a face by a card of that face, 'any' by any card); an undo with
    no card (the rules know which go back)."""
    if not _trading(state):
        return []
    hand = state["hands"][seat]
    out: list[JSON] = []
    for offer in state["offers"]:
        if offer["to"] != seat:
            continue
        pick = one("offer", [choice(offer["id"], f"offer #{offer['id']}")])
        if offer["kind"] == "undo":
            if core_can(verify, state, seat, {"type": "accept", "offer": offer["id"], "give": []}):
                text = (
                    f"Accept seat {offer['from']}'s proposal #{offer['id']} to undo trade "
                    f"#{offer['trade']}: each of you takes back the cards it gave."
                )
                out.append(form("accept", text, pick, listed("give", [], 0, 0)))
            continue
        give = matching_give(hand, offer["ask"])
        move = {"type": "accept", "offer": offer["id"], "give": give}
        if give is None or not core_can(verify, state, seat, move):
            continue
        slots = [
            [c for c in hand if ask == "any" or card_code(face_of(c)) == ask]
            for ask in offer["ask"]
        ]
        out.append(
            form(
                "accept",
                f"Accept seat {offer['from']}'s offer #{offer['id']}: "
                f"{explain.labels(offer['give'])} for {explain.asked(offer['ask'])}. Give "
                "one card of yours for each item asked.",
                pick,
                listed("give", _cards(hand), len(slots), len(slots), slots=slots),
            )
        )
    return out


# ---------------------------------------------------------------- decline -----------
def verify_decline(state: State, seat: int, move: Move) -> None:
    trading_open(state, seat, move)
    offer = _offer(state, move["offer"])
    if offer["to"] != seat:
        raise RuleViolation("not_your_offer", f"Offer #{offer['id']} was not made to you.")


def apply_decline(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    offer = _offer(state, move["offer"])
    remaining = [o for o in state["offers"] if o["id"] != move["offer"]]
    declined: wire.OfferDeclinedEvent = {
        "type": "offer_declined",
        "offer": move["offer"],
        "by": seat,
        "explanation": explain.declined(offer["id"], offer["from"], seat),
    }
    return {**state, "offers": remaining}, [emitted(declined)]


def declines(state: State, seat: int) -> list[Move]:
    if not _trading(state):
        return []
    return [{"type": "decline", "offer": o["id"]} for o in state["offers"] if o["to"] == seat]


# ---------------------------------------------------------------- withdraw ----------
def verify_withdraw(state: State, seat: int, move: Move) -> None:
    trading_open(state, seat, move)
    offer = _offer(state, move["offer"])
    if offer["from"] != seat:
        raise RuleViolation("not_your_offer", f"Offer #{offer['id']} is not yours to withdraw.")


def apply_withdraw(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    offer = _offer(state, move["offer"])
    remaining = [o for o in state["offers"] if o["id"] != move["offer"]]
    withdrawn: wire.OfferWithdrawnEvent = {
        "type": "offer_withdrawn",
        "offer": move["offer"],
        "by": seat,
        "explanation": explain.withdrawn(offer["id"], seat, offer["to"]),
    }
    return {**state, "offers": remaining}, [emitted(withdrawn)]


def withdrawals(state: State, seat: int) -> list[Move]:
    if not _trading(state):
        return []
    return [{"type": "withdraw", "offer": o["id"]} for o in state["offers"] if o["from"] == seat]


# ---------------------------------------------------------------- propose_undo ------
def verify_propose_undo(state: State, seat: int, move: Move) -> None:
    trading_open(state, seat, move)
    trade = _trade(state, move["trade"])
    if seat not in trade["seats"]:
        raise RuleViolation("not_your_trade", f"You were not part of trade #{trade['id']}.")
    if trade["undone"]:
        raise RuleViolation("already_undone", f"Trade #{trade['id']} was already undone.")
    other = trade["seats"][1] if trade["seats"][0] == seat else trade["seats"][0]
    back, gets = _undo_cards(trade, seat)
    if not (_holds(state, seat, back) and _holds(state, other, gets)):
        raise RuleViolation(
            "undo_impossible",
            f"Trade #{trade['id']} cannot be undone: its cards have moved on.",
            rule=SEED_UNDO,
        )
    if any(o["kind"] == "undo" and o["trade"] == trade["id"] for o in state["offers"]):
        raise RuleViolation(
            "already_proposed", f"Undoing trade #{trade['id']} is already proposed."
        )


def apply_propose_undo(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    trade = _trade(state, move["trade"])
    other = trade["seats"][1] if trade["seats"][0] == seat else trade["seats"][0]
    back, gets = _undo_cards(trade, seat)
    oid, nxt = _next_id(state)
    asks = [card_code(c) for c in gets]
    offer = {
        "id": oid,
        "kind": "undo",
        "from": seat,
        "to": other,
        "give": back,
        "ask": asks,
        "trade": trade["id"],
        "at_ms": state["now_ms"],
    }
    event: wire.OfferMadeEvent = {
        "type": "offer_made",
        "offer": oid,
        "kind": "undo",
        "trade": trade["id"],
        "from": seat,
        "to": other,
        "count": len(back),
        "explanation": explain.undo_offered(oid, trade["id"], seat, other, None, asks),
    }
    seen: _OfferSeen = {
        "give": [card_json(c) for c in back],
        "ask": asks,
        "explanation": explain.undo_offered(oid, trade["id"], seat, other, back, asks),
    }
    return {**state, "offers": [*state["offers"], offer], "next_id": nxt}, [
        with_private(event, _seen_by((seat, other), seen))
    ]


def undo_proposals(state: State, seat: int) -> list[Move]:
    if not _trading(state):
        return []
    return [
        {"type": "propose_undo", "trade": t["id"]} for t in state["trades"] if seat in t["seats"]
    ]


# ---------------------------------------------------------------- lend --------------
def verify_lend(state: State, seat: int, move: Move) -> None:
    trading_open(state, seat, move)
    _neighbour(state, seat, move["to"])
    _own(state, seat, move["cards"])


def apply_lend(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    hands = [list(h) for h in state["hands"]]
    transfer(hands, seat, move["to"], move["cards"])
    lid, nxt = _next_id(state)
    loan = {
        "id": lid,
        "lender": seat,
        "debtor": move["to"],
        "cards": list(move["cards"]),
        "outstanding": len(move["cards"]),
        "called": False,
        "at_ms": state["now_ms"],
    }
    new = {**state, "hands": hands, "loans": [*state["loans"], loan], "next_id": nxt}
    new["offers"] = _without_stale(new)
    event: wire.LoanMadeEvent = {
        "type": "loan_made",
        "loan": lid,
        "lender": seat,
        "debtor": move["to"],
        "count": len(move["cards"]),
        "explanation": explain.lent(lid, seat, move["to"], len(move["cards"]), None),
    }
    seen: _CardsSeen = {
        "cards": [card_json(c) for c in move["cards"]],
        "explanation": explain.lent(lid, seat, move["to"], len(move["cards"]), move["cards"]),
    }
    return new, [with_private(event, _seen_by((seat, move["to"]), seen))]


def loans(state: State, seat: int) -> list[Move]:
    """One card of the hand to a neighbour (the move space is wider: ``wire.MOVE_SPACE``)."""
    if not _trading(state):
        return []
    hand = state["hands"][seat]
    return [
        {"type": "lend", "to": other, "cards": [card]}
        for other in _neighbours(state, seat)
        for card in hand
    ]


def lend_forms(state: State, seat: int) -> list[JSON]:
    """Any of the hand's cards to a neighbour."""
    hand = state["hands"][seat]
    if not (_trading(state) and hand and _may(state, seat, {"type": "lend"})):
        return []
    left, right = _neighbours(state, seat)
    return [
        form(
            "lend",
            f"Lend seat {left} or seat {right} some of your {len(hand)} cards; you may call "
            "them in at any time.",
            _to(state, seat),
            listed("cards", _cards(hand), 1, min(len(hand), wire.CARDS_PER_MOVE)),
        )
    ]


# ---------------------------------------------------------------- call_loan ---------
def verify_call_loan(state: State, seat: int, move: Move) -> None:
    trading_open(state, seat, move)
    loan = _loan(state, move["loan"])
    if loan["lender"] != seat:
        raise RuleViolation(
            "not_your_loan", f"Only seat {loan['lender']} may call loan #{loan['id']}."
        )
    if loan["called"]:
        raise RuleViolation("already_called", f"Loan #{loan['id']} is already called in.")


def apply_call_loan(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    open_loans = [dict(ln) for ln in state["loans"]]
    loan = next(ln for ln in open_loans if ln["id"] == move["loan"])
    loan["called"] = True
    loan["called_ms"] = state["now_ms"]  # when the debtor began to owe an answer
    owed = min(int(loan["outstanding"]), len(state["hands"][loan["debtor"]]))
    called: wire.LoanCalledEvent = {
        "type": "loan_called",
        "loan": loan["id"],
        "lender": seat,
        "debtor": loan["debtor"],
        "owed": owed,
        "explanation": explain.called(loan["id"], seat, loan["debtor"], owed),
    }
    return {**state, "loans": open_loans}, [emitted(called)]


def loan_calls(state: State, seat: int) -> list[Move]:
    if not _trading(state):
        return []
    return [
        {"type": "call_loan", "loan": ln["id"]} for ln in state["loans"] if ln["lender"] == seat
    ]


# ---------------------------------------------------------------- repay -------------
def verify_repay(state: State, seat: int, move: Move) -> None:
    trading_open(state, seat, move)
    loan = _loan(state, move["loan"])
    if loan["debtor"] != seat:
        raise RuleViolation(
            "not_your_loan", f"Loan #{loan['id']} was made to seat {loan['debtor']}."
        )
    _own(state, seat, move["cards"])
    n = len(move["cards"])
    if n == 0 and not (loan["called"] and not state["hands"][seat]):
        raise RuleViolation("wrong_repayment", "Name the cards you return.")
    if loan["called"]:
        due = min(int(loan["outstanding"]), len(state["hands"][seat]))
        if n != due:
            raise RuleViolation(
                "wrong_repayment",
                f"Loan #{loan['id']} is called in: return exactly {due} card(s), not {n}.",
                rule=SEED_CALL,
                owed=due,
            )
    elif n > int(loan["outstanding"]):
        raise RuleViolation(
            "wrong_repayment",
            f"You owe {loan['outstanding']} card(s) on loan #{loan['id']}; you offered {n}.",
        )


def apply_repay(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    open_loans = [dict(ln) for ln in state["loans"]]
    loan = next(ln for ln in open_loans if ln["id"] == move["loan"])
    hands = [list(h) for h in state["hands"]]
    transfer(hands, seat, loan["lender"], move["cards"])
    loan["outstanding"] = int(loan["outstanding"]) - len(move["cards"])
    loan["called"] = False
    still_open = [ln for ln in open_loans if ln["outstanding"] > 0]
    new = {**state, "hands": hands, "loans": still_open}
    new["offers"] = _without_stale(new)
    event: wire.LoanRepaidEvent = {
        "type": "loan_repaid",
        "loan": loan["id"],
        "lender": loan["lender"],
        "debtor": seat,
        "count": len(move["cards"]),
        "remaining": loan["outstanding"],
        "explanation": explain.repaid(
            loan["id"], loan["lender"], seat, len(move["cards"]), loan["outstanding"], None
        ),
    }
    seen: _CardsSeen = {
        "cards": [card_json(c) for c in move["cards"]],
        "explanation": explain.repaid(
            loan["id"], loan["lender"], seat, len(move["cards"]), loan["outstanding"], move["cards"]
        ),
    }
    return new, [with_private(event, _seen_by((seat, loan["lender"]), seen))]


def repayments(state: State, seat: int) -> list[Move]:
    """Each loan made to the seat: its first card, or what a called loan is owed."""
    if not _trading(state):
        return []
    hand = state["hands"][seat]
    out: list[Move] = []
    for loan in state["loans"]:
        if loan["debtor"] == seat:
            due = min(int(loan["outstanding"]), len(hand)) if loan["called"] else 1
            out.append({"type": "repay", "loan": loan["id"], "cards": list(hand[:due])})
    return out


def repay_forms(state: State, seat: int) -> list[JSON]:
    """Each loan the seat owes: exactly what is due once called, else up to what is
    owed, in any of its cards."""
    if not _trading(state):
        return []
    hand = state["hands"][seat]
    out: list[JSON] = []
    for loan in state["loans"]:
        if loan["debtor"] != seat or not _may(state, seat, {"type": "repay", "loan": loan["id"]}):
            continue
        owed, lender = int(loan["outstanding"]), loan["lender"]
        if loan["called"]:
            least = most = min(owed, len(hand))
            text = (
                f"Loan #{loan['id']} is called in: return {least} of your cards to seat "
                f"{lender} before anything else."
            )
        elif hand:
            least, most = 1, min(owed, len(hand))
            text = (
                f"Return some of the {owed} cards you owe seat {lender} on loan #{loan['id']} "
                f"(1 to {most}), any of your cards."
            )
        else:
            continue
        out.append(
            form(
                "repay",
                text,
                one("loan", [choice(loan["id"], f"loan #{loan['id']} from seat {lender}")]),
                listed("cards", _cards(hand), least, most),
            )
        )
    return out


# ---------------------------------------------------------------- all of them -------
ACTIONS = Actions(
    (
        Action(wire.ReadyMove, verify_ready, apply_ready, readies),
        Action(wire.OfferMove, verify_offer, apply_offer, offers, offer_forms),
        Action(wire.AcceptMove, verify_accept, apply_accept, accepts, accept_forms),
        Action(wire.DeclineMove, verify_decline, apply_decline, declines),
        Action(wire.WithdrawMove, verify_withdraw, apply_withdraw, withdrawals),
        Action(wire.ProposeUndoMove, verify_propose_undo, apply_propose_undo, undo_proposals),
        Action(wire.LendMove, verify_lend, apply_lend, loans, lend_forms),
        Action(wire.CallLoanMove, verify_call_loan, apply_call_loan, loan_calls),
        Action(wire.RepayMove, verify_repay, apply_repay, repayments, repay_forms),
        Action(wire.TimeUpMove, verify_time_up, apply_time_up, times_up),
    ),
    waiting=game_on,
)

verify = ACTIONS.verify


def can(state: State, seat: int, move: Move) -> bool:
    return core_can(verify, state, seat, move)


def parse_move(move: Mapping[str, Any]) -> Move:
    """A move as the rules take it: its declared shape (``unknown_move`` / ``bad_move``),
    the time the service stamped on it (``wire.Stamp``), and an offer's ask read as
    face codes (``bad_card`` for a code that names no face)."""
    stamped = isinstance(move, dict) and "at" in move
    sent = {k: v for k, v in move.items() if k != "at"} if stamped else move
    parsed = ACTIONS.parse_move(sent)
    if stamped:
        try:
            parsed.update(shapes.parse({"at": move["at"]}, wire.Stamp))
        except shapes.ShapeError as err:
            raise RuleViolation(
                "bad_move",
                f"This {parsed['type']!r} move is not well formed: {shapes.summary(err.errors)}",
                errors={"move": err.errors},
            ) from None
    if parsed["type"] == "offer":
        parsed["ask"] = [read_ask(item) for item in parsed["ask"]]
    return parsed


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    """Parse, verify and apply ``move`` at its time; never mutates ``state``."""
    move = parse_move(move)
    verify(state, seat, move)
    state = {**state, "now_ms": move_time(state, move)}
    return ACTIONS.by_name[move["type"]].apply(state, seat, move)


_ANSWERS = ("accept", "decline", "withdraw")


def table_order(state: State, seat: int) -> Callable[[Move], tuple[int, ...]]:
    """The order a seat reads the table in: ready or time up; then offer by offer what
    it may answer (accept, decline, withdraw); trade by trade (propose_undo); loan by
    loan (call_loan, repay); then its neighbours, lower seat first, and for each its
    cards in hand order (offer, lend)."""
    offer_at = {o["id"]: i for i, o in enumerate(state["offers"])}
    trade_at = {t["id"]: i for i, t in enumerate(state["trades"])}
    loan_at = {ln["id"]: i for i, ln in enumerate(state["loans"])}
    card_at = {c: i for i, c in enumerate(state["hands"][seat])}

    def key(move: Move) -> tuple[int, ...]:
        kind = move["type"]
        if kind in ("ready", "time_up"):
            return (0,)
        if kind in _ANSWERS:
            return (1, offer_at[move["offer"]], _ANSWERS.index(kind))
        if kind == "propose_undo":
            return (2, trade_at[move["trade"]])
        if kind in ("call_loan", "repay"):
            return (3, loan_at[move["loan"]], kind == "repay")
        card = (move.get("give") or move["cards"])[0]
        return (4, move["to"], card_at[card], kind == "lend")

    return key


def legal_moves(state: State, seat: int) -> list[Move]:
    """Concrete moves ``seat`` may make now, in :func:`table_order` (the random bot draws
    from this list, so the order is part of what a seed plays). Offers and loans are
    combinatorial, so the list holds the single-card ones; every move in it passes
    ``verify``."""
    return sorted(ACTIONS.legal_moves(state, seat), key=table_order(state, seat))
