"""Polymer's moves: parsing, one ``verify_*`` and one ``apply_*`` per move type.

``legality.verify`` checks what every move shares (phase, clock, loan calls) and then
calls ``VERIFY[type]``; ``legal_moves`` reuses the same functions through
``legality.can``, so legality lives in one place. Imports run one way:
``cards -> patterns -> moves -> legality -> settle -> bots -> game``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.core import Event, Move, RuleViolation, State, left_of, right_of

from .cards import card_code, card_json, face_of, parse_face

MAX_CARDS_PER_MOVE = 104  # a hand swollen by loans may be lent or repaid whole
MAX_OPEN_OFFERS = 12  # per seat: bounds the state (and the token) under a flood of offers

SEED_TRADE = (
    "Players can freely (asynchronously) trade any of their cards with their immediate "
    "neighbors (to their left and right only), however they must always keep the same "
    "total number of cards."
)
SEED_UNDO = "Once a trade has been executed, it can only be undone if both players agree."
SEED_CALL = (
    "During the game, a player may at any time “call in” their loan, at which point the "
    "debtor must immediately return the same number of cards to the loaner (or at least as "
    "many cards as they hold) before executing any other trades."
)


def blocking_loans(state: State, seat: int) -> list[dict[str, Any]]:
    """Called loans this seat still owes (each blocks every move but its repayment)."""
    return [ln for ln in state["loans"] if ln["debtor"] == seat and ln["called"]]


# ---------------------------------------------------------------- parsing -----------
def _int(move: Mapping[str, Any], key: str) -> int:
    value = move.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleViolation("bad_move", f"{move.get('type')!r} needs a whole number {key!r}.")
    return value


def _cards(move: Mapping[str, Any], key: str, *, allow_empty: bool = False) -> list[int]:
    value = move.get(key, [] if allow_empty else None)
    if not isinstance(value, list) or (not value and not allow_empty):
        raise RuleViolation("bad_move", f"{move.get('type')!r} needs a non-empty list {key!r}.")
    if len(value) > MAX_CARDS_PER_MOVE:
        raise RuleViolation("bad_move", f"At most {MAX_CARDS_PER_MOVE} cards in {key!r}.")
    for card in value:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 104:
            raise RuleViolation("bad_card", f"{card!r} in {key!r} is not a card id (0-103).")
    return list(value)


def _asks(move: Mapping[str, Any]) -> list[str]:
    value = move.get("ask")
    if not isinstance(value, list) or not value or len(value) > MAX_CARDS_PER_MOVE:
        raise RuleViolation(
            "bad_move", "An offer's 'ask' is a non-empty list of card codes (e.g. 'QS') or 'any'."
        )
    asks = []
    for item in value:
        if isinstance(item, str) and item.strip().lower() == "any":
            asks.append("any")
        else:
            asks.append(card_code(parse_face(item)))
    return asks


FIELDS: Mapping[str, tuple[str, ...]] = {
    "ready": (),
    "time_up": (),
    "offer": ("to", "give", "ask"),
    "accept": ("offer", "give"),
    "decline": ("offer",),
    "withdraw": ("offer",),
    "propose_undo": ("trade",),
    "lend": ("to", "cards"),
    "call_loan": ("loan",),
    "repay": ("loan", "cards"),
}


def parse_move(move: Mapping[str, Any]) -> Move:
    """Normalise a move object or refuse its shape (``unknown_move`` / ``bad_move``)."""
    kind = move.get("type") if isinstance(move, Mapping) else None
    if not isinstance(kind, str) or kind not in FIELDS:
        raise RuleViolation(
            "unknown_move",
            f"{kind!r} is not a Polymer move; use one of: {', '.join(sorted(FIELDS))}.",
        )
    extra = set(move) - {"type", "at", *FIELDS[kind]}
    if extra:
        raise RuleViolation("bad_move", f"A {kind!r} move has no {', '.join(sorted(extra))}.")
    out: dict[str, Any] = {"type": kind}
    if "at" in move:
        out["at"] = _int(move, "at")
    if kind in ("offer", "lend"):
        out["to"] = _int(move, "to")
    if kind == "offer":
        out["give"] = _cards(move, "give")
        out["ask"] = _asks(move)
    if kind == "accept":
        out["give"] = _cards(move, "give", allow_empty=True)
    if kind in ("accept", "decline", "withdraw"):
        out["offer"] = _int(move, "offer")
    if kind == "propose_undo":
        out["trade"] = _int(move, "trade")
    if kind in ("lend", "repay"):
        # a called debtor holding no card repays with none ("or as many as they hold")
        out["cards"] = _cards(move, "cards", allow_empty=kind == "repay")
    if kind in ("call_loan", "repay"):
        out["loan"] = _int(move, "loan")
    return out


# ---------------------------------------------------------------- shared checks -----
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


def _undo_cards(state: State, trade: Mapping[str, Any], seat: int) -> tuple[list[int], list[int]]:
    """(cards ``seat`` must give back, cards it gets back) to undo ``trade``."""
    a = trade["seats"][0]
    gave_a, gave_b = trade["gave"]
    return (list(gave_b), list(gave_a)) if seat == a else (list(gave_a), list(gave_b))


def _holds(state: State, seat: int, cards: Sequence[int]) -> bool:
    return set(cards) <= set(state["hands"][seat])


# ---------------------------------------------------------------- verify ------------
def verify_offer(state: State, seat: int, move: Move) -> None:
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
    offer = _offer(state, move["offer"])
    if offer["to"] != seat:
        raise RuleViolation(
            "not_your_offer", f"Offer #{offer['id']} was made to seat {offer['to']}, not you."
        )
    _maker_free(state, offer["from"])
    # the maker still holds offer["give"]: every card movement drops offers that went stale
    if offer["kind"] == "undo":
        trade = _trade(state, offer["trade"])
        back, _ = _undo_cards(state, trade, seat)
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


def verify_decline(state: State, seat: int, move: Move) -> None:
    offer = _offer(state, move["offer"])
    if offer["to"] != seat:
        raise RuleViolation("not_your_offer", f"Offer #{offer['id']} was not made to you.")


def verify_withdraw(state: State, seat: int, move: Move) -> None:
    offer = _offer(state, move["offer"])
    if offer["from"] != seat:
        raise RuleViolation("not_your_offer", f"Offer #{offer['id']} is not yours to withdraw.")


def verify_propose_undo(state: State, seat: int, move: Move) -> None:
    trade = _trade(state, move["trade"])
    if seat not in trade["seats"]:
        raise RuleViolation("not_your_trade", f"You were not part of trade #{trade['id']}.")
    if trade["undone"]:
        raise RuleViolation("already_undone", f"Trade #{trade['id']} was already undone.")
    other = trade["seats"][1] if trade["seats"][0] == seat else trade["seats"][0]
    back, gets = _undo_cards(state, trade, seat)
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


def verify_lend(state: State, seat: int, move: Move) -> None:
    _neighbour(state, seat, move["to"])
    _own(state, seat, move["cards"])


def verify_call_loan(state: State, seat: int, move: Move) -> None:
    loan = _loan(state, move["loan"])
    if loan["lender"] != seat:
        raise RuleViolation(
            "not_your_loan", f"Only seat {loan['lender']} may call loan #{loan['id']}."
        )
    if loan["called"]:
        raise RuleViolation("already_called", f"Loan #{loan['id']} is already called in.")


def verify_repay(state: State, seat: int, move: Move) -> None:
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


VERIFY: Mapping[str, Callable[[State, int, Move], None]] = {
    "offer": verify_offer,
    "accept": verify_accept,
    "decline": verify_decline,
    "withdraw": verify_withdraw,
    "propose_undo": verify_propose_undo,
    "lend": verify_lend,
    "call_loan": verify_call_loan,
    "repay": verify_repay,
}


# ---------------------------------------------------------------- apply -------------
def transfer(hands: list[list[int]], giver: int, taker: int, cards: Sequence[int]) -> None:
    moving = set(cards)
    hands[giver] = [c for c in hands[giver] if c not in moving]
    hands[taker] = sorted(hands[taker] + list(cards))


def _without_stale(state: State) -> list[dict[str, Any]]:
    """Offers whose cards left their maker's hand can never execute: drop them."""
    hands = state["hands"]
    return [o for o in state["offers"] if set(o["give"]) <= set(hands[o["from"]])]


def _next_id(state: State) -> tuple[int, int]:
    return int(state["next_id"]), int(state["next_id"]) + 1


def _private(seats: Sequence[int], **facts: Any) -> dict[int, dict[str, Any]]:
    return {s: dict(facts) for s in seats}


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
    event = {
        "type": "offer_made",
        "offer": oid,
        "kind": "trade",
        "from": seat,
        "to": move["to"],
        "count": len(move["give"]),
        "private": _private(
            (seat, move["to"]), give=[card_json(c) for c in move["give"]], ask=move["ask"]
        ),
    }
    return {**state, "offers": [*state["offers"], offer], "next_id": nxt}, [event]


def apply_accept(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    offer = _offer(state, move["offer"])
    maker = offer["from"]
    hands = [list(h) for h in state["hands"]]
    trades = [dict(t) for t in state["trades"]]
    if offer["kind"] == "undo":
        original = next(t for t in trades if t["id"] == offer["trade"])
        back, _ = _undo_cards(state, original, seat)
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
    event = {
        "type": "trade_undone" if offer["kind"] == "undo" else "trade_executed",
        "trade": tid,
        "offer": offer["id"],
        "undoes": offer["trade"],
        "seats": [maker, seat],
        "count": len(given),
        "private": _private(
            (maker, seat),
            gave=[[card_json(c) for c in offer["give"]], [card_json(c) for c in given]],
        ),
    }
    return new, [event]


def apply_decline(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    offers = [o for o in state["offers"] if o["id"] != move["offer"]]
    return {**state, "offers": offers}, [
        {"type": "offer_declined", "offer": move["offer"], "by": seat}
    ]


def apply_withdraw(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    offers = [o for o in state["offers"] if o["id"] != move["offer"]]
    return {**state, "offers": offers}, [
        {"type": "offer_withdrawn", "offer": move["offer"], "by": seat}
    ]


def apply_propose_undo(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    trade = _trade(state, move["trade"])
    other = trade["seats"][1] if trade["seats"][0] == seat else trade["seats"][0]
    back, gets = _undo_cards(state, trade, seat)
    oid, nxt = _next_id(state)
    offer = {
        "id": oid,
        "kind": "undo",
        "from": seat,
        "to": other,
        "give": back,
        "ask": [card_code(c) for c in gets],
        "trade": trade["id"],
        "at_ms": state["now_ms"],
    }
    event = {
        "type": "offer_made",
        "offer": oid,
        "kind": "undo",
        "trade": trade["id"],
        "from": seat,
        "to": other,
        "count": len(back),
        "private": _private((seat, other), give=[card_json(c) for c in back], ask=offer["ask"]),
    }
    return {**state, "offers": [*state["offers"], offer], "next_id": nxt}, [event]


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
    event = {
        "type": "loan_made",
        "loan": lid,
        "lender": seat,
        "debtor": move["to"],
        "count": len(move["cards"]),
        "private": _private((seat, move["to"]), cards=[card_json(c) for c in move["cards"]]),
    }
    return new, [event]


def apply_call_loan(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    loans = [dict(ln) for ln in state["loans"]]
    loan = next(ln for ln in loans if ln["id"] == move["loan"])
    loan["called"] = True
    owed = min(int(loan["outstanding"]), len(state["hands"][loan["debtor"]]))
    return {**state, "loans": loans}, [
        {
            "type": "loan_called",
            "loan": loan["id"],
            "lender": seat,
            "debtor": loan["debtor"],
            "owed": owed,
        }
    ]


def apply_repay(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    loans = [dict(ln) for ln in state["loans"]]
    loan = next(ln for ln in loans if ln["id"] == move["loan"])
    hands = [list(h) for h in state["hands"]]
    transfer(hands, seat, loan["lender"], move["cards"])
    loan["outstanding"] = int(loan["outstanding"]) - len(move["cards"])
    loan["called"] = False
    still_open = [ln for ln in loans if ln["outstanding"] > 0]
    new = {**state, "hands": hands, "loans": still_open}
    new["offers"] = _without_stale(new)
    event = {
        "type": "loan_repaid",
        "loan": loan["id"],
        "lender": loan["lender"],
        "debtor": seat,
        "count": len(move["cards"]),
        "remaining": loan["outstanding"],
        "private": _private((seat, loan["lender"]), cards=[card_json(c) for c in move["cards"]]),
    }
    return new, [event]


APPLY: Mapping[str, Callable[[State, int, Move], tuple[State, list[Event]]]] = {
    "offer": apply_offer,
    "accept": apply_accept,
    "decline": apply_decline,
    "withdraw": apply_withdraw,
    "propose_undo": apply_propose_undo,
    "lend": apply_lend,
    "call_loan": apply_call_loan,
    "repay": apply_repay,
}


# ---------------------------------------------------------------- candidates --------
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


def candidates(state: State, seat: int) -> list[Move]:
    """Concrete moves worth checking with ``verify`` (single-card offers and loans)."""
    if state["phase"] == "waiting":
        return [{"type": "ready"}]
    if state["phase"] != "trading":
        return []
    players = int(state["players"])
    hand = state["hands"][seat]
    out: list[Move] = [{"type": "time_up"}]
    for offer in state["offers"]:
        if offer["to"] == seat:
            give = [] if offer["kind"] == "undo" else matching_give(hand, offer["ask"])
            if give is not None:
                out.append({"type": "accept", "offer": offer["id"], "give": give})
            out.append({"type": "decline", "offer": offer["id"]})
        if offer["from"] == seat:
            out.append({"type": "withdraw", "offer": offer["id"]})
    for trade in state["trades"]:
        if seat in trade["seats"]:
            out.append({"type": "propose_undo", "trade": trade["id"]})
    for loan in state["loans"]:
        if loan["lender"] == seat:
            out.append({"type": "call_loan", "loan": loan["id"]})
        if loan["debtor"] == seat:
            due = min(int(loan["outstanding"]), len(hand)) if loan["called"] else 1
            out.append({"type": "repay", "loan": loan["id"], "cards": list(hand[:due])})
    for other in sorted({left_of(seat, players), right_of(seat, players)}):
        for card in hand:
            out.append({"type": "offer", "to": other, "give": [card], "ask": ["any"]})
            out.append({"type": "lend", "to": other, "cards": [card]})
    return out
