"""Polymer: real-time trading with neighbours, loans and loan calls.

Time is an input, never read from a clock: the service stamps every move with ``at``
(ms since an epoch the caller chooses: its Redis server's clock; ``wire.Stamp``), and
a client's move has none. The state remembers the latest ``at`` seen (``now_ms``).
Once ``at`` reaches the deadline the only move left is ``time_up``, which settles
open loans and ends the game.

>>> state = GAME.setup(5, {"timer_seconds": 60}, seed=1)
>>> [len(h) for h in state["hands"]], state["phase"]
([20, 20, 20, 20, 20], 'waiting')
>>> for seat in range(5):
...     state, events = GAME.apply(state, seat, {"type": "ready", "at": 1000})
>>> events[-1]["type"], state["deadline_ms"]
('timer_started', 61000)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core import (
    JSON,
    At,
    Code,
    Dynamics,
    Extra,
    GameInfo,
    GameRules,
    RuleViolation,
    Source,
    State,
    check_deal_shape,
    check_players,
    check_seat,
    hands_dealt,
    left_of,
    options_of,
    resolve_options,
    right_of,
)
from rules.rng import new_rng, shuffled
from rules.wire import Wire

from . import wire
from .bots import choose
from .cards import DECK_SIZE, card_code, card_json, parse_face
from .clock import CLOCK
from .moves import (
    ACTIONS,
    MAX_OPEN_OFFERS,
    SEED_TRADE,
    SEED_UNDO,
    apply,
    can,
    legal_moves,
    parse_move,
    start_timer,
    verify,
)
from .patterns import (
    Arrangement,
    best_arrangement,
    shown_arrangements,
    validate_arrangement,
)
from .scoring import outcome, scores
from .table import SEED_CALL, SEED_LOOK, SEED_STOP, blocking_loans, move_time, time_is_up, to_act

__all__ = [
    "ACTIONS",
    "GAME",
    "INFO",
    "MAX_OPEN_OFFERS",
    "SEED_CALL",
    "SEED_LOOK",
    "SEED_STOP",
    "SEED_TRADE",
    "SEED_UNDO",
    "blocking_loans",
    "can",
    "declared",
    "legal_moves",
    "move_time",
    "start_timer",
    "time_is_up",
    "to_act",
    "verify",
]

# players -> cards per seat, from the seed
DEAL_TABLE: Mapping[int, int] = {
    5: 20, 6: 17, 7: 14, 8: 13, 9: 11, 10: 10, 11: 9, 12: 8, 13: 8, 14: 7, 15: 6,
}  # fmt: skip

ARRANGEMENT = "arrangement"
"""Polymer's own operation: a seat checks the arrangement it would show (``declared``)."""
START = "start"
"""Polymer's own operation: the host starts the timer (``start_timer``)."""

CODES: Mapping[str, Code] = {
    "bad_card": Code(
        "A card is not a card id (0-103) or a card code such as QS or 10H.",
        frozenset({At.SETUP, At.MOVE, ARRANGEMENT}),
    ),
    "bad_deal": Code.setup(
        "The custom deal is not one equal-size hand per seat of at most two of a face."
    ),
    "not_started": Code(
        "The timer has not started; nobody may trade or look at their cards yet.",
        frozenset({At.MOVE, ARRANGEMENT}),
    ),
    "already_ready": Code.turn("This seat has already declared it is ready."),
    "already_started": Code("The timer is already running.", frozenset({At.MOVE, START})),
    "timer_running": Code.move("Time is not up yet."),
    # the rules refuse a move or a bot once time is up; the session refuses the host's
    # start then too (its clock runs out with or without a move)
    "timer_expired": Code(
        "The timer has reached zero; trading has stopped.",
        frozenset({At.MOVE, At.BOT, START}),
        409,
    ),
    "not_neighbour": Code.move("Trades and loans are only with the seats to your left and right."),
    "not_in_hand": Code.move("A card named is not in this seat's hand."),
    "card_named_twice": Code.move("The same card is named twice in one move."),
    "uneven_trade": Code.move("A trade must give and ask for the same number of cards."),
    "too_many_offers": Code.move("This seat has too many open offers; withdraw some first."),
    "no_such_offer": Code.move("No open offer has this id."),
    "not_your_offer": Code.move(
        "Only the seat an offer was made to may accept or decline it; "
        "only its maker may withdraw it."
    ),
    "ask_not_met": Code.move("The cards given do not match what the offer asks for."),
    "no_such_trade": Code.move("No executed trade has this id."),
    "not_your_trade": Code.move("Only the two seats of a trade may propose to undo it."),
    "already_undone": Code.move("This trade has already been undone."),
    "undo_impossible": Code.move("The traded cards are no longer held by the two seats."),
    "already_proposed": Code.move(
        "Undoing this trade is already proposed and waiting for an answer."
    ),
    "no_such_loan": Code.move("No open loan has this id."),
    "not_your_loan": Code.move("Only the lender may call a loan and only the debtor may repay it."),
    "already_called": Code.move("This loan has already been called in."),
    "loan_called": Code.move(
        "A loan to this seat has been called in: it must repay before anything else."
    ),
    "wrong_repayment": Code.move(
        "A called loan is repaid with exactly the number of cards owed "
        "(or every card held, if fewer)."
    ),
    "bad_patterns": Code.on(ARRANGEMENT, "The declared arrangement is not a list of patterns."),
    "card_not_in_hand": Code.on(
        ARRANGEMENT, "A declared pattern names a card this seat does not hold."
    ),
    "card_used_twice": Code.on(
        ARRANGEMENT, "A declared arrangement uses one card in two patterns."
    ),
    "not_a_pattern": Code.on(ARRANGEMENT, "A declared pattern is neither a group nor a sequence."),
    # a bot asked to move for a seat with nothing to do: no card, no offer, no loan to call
    "no_move": Code(
        "This seat has nothing it may do now (no card, no offer, no loan to call).",
        frozenset({At.BOT}),
    ),
    "duplicate_card": Code.internal(
        "A hand names the same card twice (only a corrupted state can)."
    ),
}

INFO = GameInfo(
    slug="polymer",
    title="Polymer",
    seed_file="001_98f73a31e9d2e93b.txt",
    source=Source(
        title="Polymer",
        publisher=None,
        origin=(
            'Rules in Markdown for "A casual social negotiation game" played with 2 packs of '
            "French playing cards and a timer; they name no author or publisher."
        ),
    ),
    min_players=5,
    max_players=15,
    dynamics=Dynamics.REAL_TIME,
    has_chance=True,
    rules_version=1,
    summary="Trade cards with your two neighbours against the clock to build the longest "
    "group or sequence; your neighbours' longest patterns multiply your own.",
    options=options_of(wire.Options),
    bots=("random", "greedy", "trading"),
    player_counts={p: {"hand_size": k} for p, k in DEAL_TABLE.items()},
    codes=CODES,
)


# ---------------------------------------------------------------- setup -------------
def _check_deal(deal: object, players: int) -> list[list[int]]:
    """A custom deal's hands as card ids: a face named twice is the second deck's copy."""
    used: set[int] = set()
    hands: list[list[int]] = []
    for codes in check_deal_shape(deal, players):
        hand = []
        for code in codes:
            face = parse_face(code)
            card = face if face not in used else face + 52
            if card in used:
                raise RuleViolation(
                    "bad_deal", f"There are only two {card_code(face)} in two decks."
                )
            used.add(card)
            hand.append(card)
        hands.append(sorted(hand))
    return hands


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    players = check_players(INFO, players)
    opts = resolve_options(INFO, options)
    least, most = opts["bot_think_min_ms"], opts["bot_think_max_ms"]
    if least > most:
        raise RuleViolation(
            "bad_option",
            f"The option 'bot_think_min_ms' ({least}) is more than 'bot_think_max_ms' "
            f"({most}); a bot's think time is drawn between the two.",
            errors={"options": {"bot_think_max_ms": [f"Must be at least {least}."]}},
        )
    rng = new_rng(seed)
    if opts["deal"] is not None:
        hands = _check_deal(opts["deal"], players)
        dealt = {c for h in hands for c in h}
        set_aside = [c for c in range(DECK_SIZE) if c not in dealt]
    else:
        size = DEAL_TABLE[players]
        rng, order = shuffled(rng, range(DECK_SIZE))
        hands = [sorted(order[i * size : (i + 1) * size]) for i in range(players)]
        set_aside = sorted(order[players * size :])
    return {
        "players": players,
        "options": opts,
        "hand_size": len(hands[0]),
        "phase": "waiting",
        "ready": [False] * players,
        "now_ms": 0,
        "started_ms": None,
        "deadline_ms": None,
        "hands": hands,
        "set_aside": set_aside,
        "offers": [],
        "trades": [],
        "loans": [],
        "settlement": [],
        "next_id": 1,
        "rng": rng,
    }


# ---------------------------------------------------------------- views -------------
def _offer_view(offer: Mapping[str, Any], seat: int | None, ended: bool) -> wire.OfferView:
    public: wire.OfferView = {
        "id": offer["id"],
        "kind": offer["kind"],
        "from": offer["from"],
        "to": offer["to"],
        "count": len(offer["give"]),
        "trade": offer.get("trade"),
    }
    if seat in (offer["from"], offer["to"]) or ended:
        public["give"] = [card_json(c) for c in offer["give"]]
        public["ask"] = list(offer["ask"])
    return public


def _trade_view(trade: Mapping[str, Any], seat: int | None, ended: bool) -> wire.TradeView:
    public: wire.TradeView = {
        "id": trade["id"],
        "seats": list(trade["seats"]),
        "count": len(trade["gave"][0]),
        "undone": trade["undone"],
        "at_ms": trade["at_ms"],
    }
    if seat in trade["seats"] or ended:
        public["gave"] = [[card_json(c) for c in side] for side in trade["gave"]]
    return public


def _loan_view(loan: Mapping[str, Any], seat: int | None, ended: bool) -> wire.LoanView:
    public: wire.LoanView = {
        "id": loan["id"],
        "lender": loan["lender"],
        "debtor": loan["debtor"],
        "lent": len(loan["cards"]),
        "outstanding": loan["outstanding"],
        "called": loan["called"],
    }
    if seat in (loan["lender"], loan["debtor"]) or ended:
        public["cards"] = [card_json(c) for c in loan["cards"]]
    return public


def _seat_view(state: State, seat: int, ended: bool) -> wire.SeatView:
    return {
        "seat": seat,
        "ready": state["ready"][seat],
        "hand_count": len(state["hands"][seat]),
        "blocked_by_loan": bool(blocking_loans(state, seat)),
        "hand": [card_json(c) for c in state["hands"][seat]] if ended else None,
    }


def _best(arrangement: Arrangement) -> wire.Best:
    return {
        **arrangement.codes(),
        "longest_length": arrangement.longest_length,
        "rest_value": arrangement.rest_value,
        "top_rank": arrangement.top_rank,
    }


def _you(state: State, seat: int) -> wire.You:
    players = int(state["players"])
    phase = state["phase"]
    hand = state["hands"][seat]
    visible = phase != "waiting"
    best = None
    if visible:
        # during the game the neighbours' hands are secret, so the hint is the
        # longest-first arrangement (what scores whenever a neighbour has a
        # pattern); once time is up, the arrangement that is scored
        ended = phase == "ended"
        best = _best(shown_arrangements(state["hands"])[seat] if ended else best_arrangement(hand))
    return {
        "seat": seat,
        "left": left_of(seat, players),
        "right": right_of(seat, players),
        "hand": [card_json(c) for c in hand] if visible else None,
        "hand_count": len(hand),
        "owes": [
            {
                "loan": ln["id"],
                "lender": ln["lender"],
                "count": min(ln["outstanding"], len(hand)),
            }
            for ln in blocking_loans(state, seat)
        ],
        "best": best,
    }


def view(state: State, seat: int | None) -> wire.View:
    """What ``seat`` (None: an observer) may see, built as the declared ``View`` (mypy
    checks every member)."""
    if seat is not None:
        check_seat(state, seat)
    players = int(state["players"])
    phase = state["phase"]
    ended = phase == "ended"
    return {
        "game": "polymer",
        "players": players,
        "phase": phase,
        "hand_size": state["hand_size"],
        "timer_seconds": state["options"]["timer_seconds"],
        "started_ms": state["started_ms"],
        "deadline_ms": state["deadline_ms"],
        "now_ms": state["now_ms"],
        "seats": [_seat_view(state, s, ended) for s in range(players)],
        "offers": [_offer_view(o, seat, ended) for o in state["offers"]],
        "trades": [_trade_view(t, seat, ended) for t in state["trades"]],
        "loans": [_loan_view(ln, seat, ended) for ln in state["loans"]],
        "settlement": state["settlement"],
        # the cards no seat was dealt: hidden until the end, then shown so anyone can
        # check the deal
        "set_aside": [card_json(c) for c in state["set_aside"]] if ended else None,
        "you": _you(state, seat) if seat is not None else None,
    }


def declared(state: State, seat: int, patterns: Sequence[Sequence[Any]]) -> wire.ArrangementCheck:
    """Check an arrangement a seat declares and score it against its best."""
    check_seat(state, seat)
    if state["phase"] == "waiting":
        raise RuleViolation("not_started", "Your cards are hidden until the timer starts.")
    hand = state["hands"][seat]
    if not isinstance(patterns, list) or not all(isinstance(p, list) for p in patterns):
        raise RuleViolation(
            "bad_patterns", "Declare your patterns as a list of lists of card ids or codes."
        )
    taken: set[int] = set()
    ids = [[_resolve(hand, c, taken) for c in p] for p in patterns]
    arrangement = validate_arrangement(hand, ids)
    own = best_arrangement(hand)
    if state["phase"] != "ended":
        # While the timer runs the neighbours' hands are secret, and their longest
        # patterns would tell something about them: only this seat's own figures.
        return {
            "valid": True,
            "declared": _figures(arrangement, None),
            "best": _figures(own, None),
            "neighbour_longest_sum": None,
        }
    shown = shown_arrangements(state["hands"])
    players = int(state["players"])
    neighbour_sum = sum(
        shown[n].longest_length for n in (left_of(seat, players), right_of(seat, players))
    )
    return {
        "valid": True,
        "declared": _figures(arrangement, neighbour_sum),
        "best": _figures(shown[seat], neighbour_sum),
        "neighbour_longest_sum": neighbour_sum,
    }


def _figures(arrangement: Arrangement, neighbour_sum: int | None) -> wire.ScoredArrangement:
    """An arrangement's patterns and figures; its score once the neighbours are known."""
    score = None
    if neighbour_sum is not None:
        score = arrangement.longest_length * neighbour_sum + arrangement.rest_value
    return {
        **arrangement.codes(),
        "longest_length": arrangement.longest_length,
        "rest_value": arrangement.rest_value,
        "score": score,
    }


def _resolve(hand: Sequence[int], card: Any, taken: set[int]) -> int:
    """A card id from an id or a code; a code picks a held copy not named yet."""
    if isinstance(card, int) and not isinstance(card, bool):
        chosen = card
    else:
        face = parse_face(card)
        free = [c for c in (face, face + 52) if c in hand and c not in taken]
        chosen = free[0] if free else face
    taken.add(chosen)
    return chosen


# ---------------------------------------------------------------- bots & checks -----
# Polymer has no card zones (hands and loans move cards; an open offer shows cards of a
# hand to two seats), so its conservation check and its resampling are its own, and so
# are its bots: they act on the game's clock (``bots.choose``).
def invariants(state: State) -> list[str]:
    """Every card exactly once; counts as started unless a loan is open."""
    held = [c for h in state["hands"] for c in h] + list(state["set_aside"])
    problems = []
    if sorted(held) != list(range(DECK_SIZE)):
        problems.append("cards lost or duplicated")
    players = int(state["players"])
    expected = [int(state["hand_size"])] * players
    for loan in state["loans"]:
        expected[loan["lender"]] -= loan["outstanding"]
        expected[loan["debtor"]] += loan["outstanding"]
    if [len(h) for h in state["hands"]] != expected:
        problems.append("hand sizes do not match the start counts and open loans")
    for offer in state["offers"]:
        if not set(offer["give"]) <= set(state["hands"][offer["from"]]):
            problems.append(f"offer {offer['id']} gives cards its maker does not hold")
    if state["phase"] == "ended" and (state["loans"] or state["offers"]):
        problems.append("loans or offers left open after the end")
    return problems


def redeal_hidden(state: State, seat: int | None, seed: int) -> State:
    """Resample what ``seat`` cannot see: other hands (all hands before the start),
    the set-aside cards and the random state. Cards shown to ``seat`` in an open offer
    stay where they are."""
    rng = new_rng(seed)
    if state["phase"] == "ended":
        return {**state, "rng": rng}
    players = int(state["players"])
    hidden_seats = [s for s in range(players) if s != seat or state["phase"] == "waiting"]
    pinned = {c for o in state["offers"] if seat in (o["from"], o["to"]) for c in o["give"]}
    pool = [c for s in hidden_seats for c in state["hands"][s] if c not in pinned]
    pool += list(state["set_aside"])
    rng, pool = shuffled(rng, pool)
    hands = [list(h) for h in state["hands"]]
    for s in hidden_seats:
        keep = [c for c in hands[s] if c in pinned]
        size = len(hands[s]) - len(keep)
        hands[s], pool = sorted(keep + pool[:size]), pool[size:]
    return {**state, "hands": hands, "set_aside": sorted(pool), "rng": rng}


def deck() -> list[JSON]:
    return [{**card_json(c)} for c in range(DECK_SIZE)]


EXTRAS = (
    Extra(
        name=START,
        summary="The host starts the timer without waiting for every seat to be ready.",
        description="No body: the host token in the Authorization header is all it needs.",
        by="host",
        change=start_timer,
    ),
    Extra(
        name=ARRANGEMENT,
        summary="Check the patterns you would show.",
        description="Refusals name the card or pattern at fault; a valid arrangement is "
        "scored against your best one.",
        by="seat",
        request=wire.ArrangementRequest,
        answers=wire.ArrangementCheck,
        # an Extra answers a plain JSON object: the checked answer, as one
        answer=lambda state, seat, body: {**declared(state, seat, body["patterns"])},
    ),
)


def situation(state: State, seat: int) -> JSON:
    """What a seat's move rests on in real time: only the phase.

    Every seat trades at once against a running clock, as at a real table: an offer, a
    loan or a card another seat's move took away is refused by the rules' own check of
    the move (``no_such_offer``, ``not_in_hand``...), never because somebody else moved
    first. Only the timer's start and its end change what any move means.

    >>> state = setup(5, {}, 3)
    >>> situation(state, 0)
    {'phase': 'waiting'}
    """
    return {"phase": state["phase"]}


WIRE = Wire(
    options=wire.Options,
    moves=ACTIONS.shapes,
    view=wire.View,
    scores=wire.Scores,
    events=(
        wire.ReadyEvent,
        wire.TimerStartedEvent,
        wire.OfferMadeEvent,
        wire.OfferDeclinedEvent,
        wire.OfferWithdrawnEvent,
        wire.TradeExecutedEvent,
        wire.TradeUndoneEvent,
        wire.LoanMadeEvent,
        wire.LoanCalledEvent,
        wire.LoanRepaidEvent,
        wire.TimeUpEvent,
        wire.LoanSettledEvent,
        wire.GameOverEvent,
    ),
    card=wire.Card,
    example={"players": 5, "options": {"timer_seconds": 600}, "seed": 7},
    move_space=wire.MOVE_SPACE,
)


GAME = GameRules(
    info=INFO,
    wire=WIRE,
    clock=CLOCK,
    extras=EXTRAS,
    setup=setup,
    parse_move=parse_move,
    verify=verify,
    to_act=to_act,
    legal_moves=legal_moves,
    move_forms=ACTIONS.move_forms,
    apply=apply,
    view=view,
    scores=scores,
    outcome=outcome,
    bot_move=choose,
    invariants=invariants,
    redeal_hidden=redeal_hidden,
    dealt=hands_dealt,
    deck=deck,
    situation=situation,
)
