"""Chemistry Battle: every seat plays one element card a round; the highest atomic number wins.

Seats are numbered clockwise and play goes to the right (seat - 1). A seat plays
from its hand by choice; once its hand is empty it plays its collected cards in the
order it collected them, without looking. The game ends when a seat runs out of
cards; the cards are counted and the most cards wins.

>>> state = GAME.setup(2, {"deal": [[1, 26], [25, 3]], "dealer": 1}, seed=1)
>>> GAME.to_act(state), GAME.legal_moves(state, 0)
([0], [{'type': 'play', 'card': 1}, {'type': 'play', 'card': 26}])
>>> state, events = GAME.apply(state, 0, {"type": "play", "card": 26})
>>> state, events = GAME.apply(state, 1, {"type": "play", "card": 25})
>>> [e["type"] for e in events]
['card_played', 'round_won', 'round_started']
>>> events[1]["explanation"]
'26 Fe beats 25 Mn: higher atomic number'
>>> state["zones"]["collected"]
[[26, 25], []]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import (
    Code,
    Dynamics,
    GameInfo,
    GameRules,
    RuleViolation,
    Source,
    State,
    check_deal_shape,
    check_players,
    check_seat,
    left_of,
    options_of,
    resolve_options,
    right_of,
)
from rules.rng import new_rng, randbelow, shuffled
from rules.wire import Wire
from rules.zones import Seen

from . import rounds, wire
from .bots import greedy
from .cards import CARD_IDS, DEAL_TABLE, card, label
from .layout import LAYOUTS, layout
from .moves import ACTIONS
from .rounds import outcome
from .wire import DEFAULT_ROUND_LIMIT

__all__ = ["DEFAULT_ROUND_LIMIT", "GAME", "INFO", "layout"]

SEED_DEAL = (
    "Deal all cards in the deck. 2 players, deal 27 cards; 3 players, deal 27 cards; 4 players "
    "deal 13 cards, place 2 remaining cards in the kitty; 5 players, deal 10 cards, place 4 "
    "remaining cards in the kitty; 6 players, deal 9 cards."
)
CODES: Mapping[str, Code] = {
    "not_your_turn": Code.turn("Another seat plays next; the cards are played one seat at a time."),
    "not_in_hand": Code.move("The card is not in this seat's hand."),
    "play_in_order": Code.move(
        "This seat's cards are played in order without looking: send play_next."
    ),
    "hand_not_empty": Code.move("This seat still holds cards: it chooses one of them with play."),
}


INFO = GameInfo(
    slug="chemistry-battle",
    title="Chemistry Battle",
    seed_file="002_9f20549899bb9774.txt",
    source=Source(
        title="Chemistry Battle",
        publisher=None,
        origin=(
            "One of three games (Chemistry Battle, Compound Capture, Chemistry Canasta) on a web "
            'page titled "Game Rules" that ends with a "Back to blog" link: a blog post. It '
            'names no author or publisher. The game "Requires Basic Deck of 54 Elements".'
        ),
    ),
    min_players=2,
    max_players=6,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=2,
    summary="Each round every seat plays an element card; the highest atomic number wins the "
    "round's cards. Hands empty, collected cards are played in order; when a seat runs out, "
    "the most cards wins. 2-6 seats; the seed's 1-player game is one person against the "
    'service\'s bot seats (setup field "bots", e.g. {"1": "greedy"}).',
    options=options_of(wire.Options),
    player_counts={p: {"hand_size": h, "kitty": k} for p, (h, k) in DEAL_TABLE.items()},
    codes=CODES,
)


# ---------------------------------------------------------------- setup -------------
def _check_options(opts: Mapping[str, Any], players: int) -> None:
    """What the declared shapes cannot say: the dealer sits at this table, and a kitty
    belongs to a custom deal."""
    dealer = opts["dealer"]
    if dealer is not None and dealer >= players:
        raise RuleViolation(
            "bad_option",
            f"dealer must be a seat number 0 to {players - 1} or null, not {dealer!r}.",
        )
    if opts["kitty"] is not None and opts["deal"] is None:
        raise RuleViolation(
            "bad_option", "kitty fixes the kitty of a custom deal: give deal as well."
        )


def _custom_deal(opts: Mapping[str, Any], players: int) -> tuple[list[list[int]], list[int]]:
    """The hands and kitty of a custom deal (their cards are atomic numbers of the deck,
    as declared): one equal hand per seat, no card twice."""
    hands = check_deal_shape(opts["deal"], players, rule=SEED_DEAL)
    kitty = list(opts["kitty"] if opts["kitty"] is not None else [])
    every = [z for h in hands for z in h] + kitty
    twice = sorted({z for z in every if every.count(z) > 1})
    if twice:
        raise RuleViolation(
            "bad_deal",
            "The deck has one card per element; dealt twice: "
            + ", ".join(label(z) for z in twice)
            + ".",
            rule=SEED_DEAL,
        )
    return hands, kitty


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    """Deal a game: all 54 cards by the seed's table, or a custom ``deal``."""
    if players == 1:
        raise RuleViolation(
            "bad_players",
            "Chemistry Battle needs 2 to 6 seats: one person plays against the service's bots "
            'by setting up 2 or more seats and naming the others in "bots" '
            '(e.g. {"1": "greedy"}).',
            players=players,
        )
    players = check_players(INFO, players)
    opts = resolve_options(INFO, options)
    _check_options(opts, players)
    rng = new_rng(seed)
    dealer = opts["dealer"]
    if dealer is None:
        rng, dealer = randbelow(rng, players)
    first = right_of(dealer, players)
    order = rounds.turn_order(first, players)
    if opts["deal"] is not None:
        hands, kitty = _custom_deal(opts, players)
    else:
        size, _ = DEAL_TABLE[players]
        rng, deck = shuffled(rng, CARD_IDS)
        hands = [[] for _ in range(players)]
        for k in range(size * players):  # one card at a time, first player first
            hands[order[k % players]].append(deck[k])
        kitty = deck[size * players :]
    dealt = {z for h in hands for z in h} | set(kitty)
    zones = LAYOUTS[opts["hand_play"], Seen.HIDDEN].deal(
        players,
        hand=hands,
        kitty=kitty,
        set_aside=[z for z in CARD_IDS if z not in dealt],
    )
    return {
        "players": players,
        "options": opts,
        "dealer": dealer,
        "hand_size": len(hands[0]),
        "round": 1,
        "leader": first,
        "turn": first,
        "zones": zones,
        "picked_up": [False] * players,
        "kitty_captured_by": None,
        "last_round": None,
        "end": None,
        "loop": None,
        "rng": rng,
    }


# ---------------------------------------------------------------- turns -------------
def to_act(state: State) -> list[int]:
    return [] if state["end"] is not None else [int(state["turn"])]


# ---------------------------------------------------------------- views -------------
def view(state: State, seat: int | None) -> wire.View:
    """What ``seat`` (or an observer) sees: its own hand, the table, every seat's counts;
    the collected round cards in order only when they lie face up (option ``collected``);
    never another hand, the kitty's faces or the deck order. Once the game is over every
    seat's cards are shown: hand, captured kitty cards and collected cards. Built as the
    declared ``View`` (mypy checks every member)."""
    if seat is not None:
        check_seat(state, seat)
    lay = layout(state)
    zones = state["zones"]
    players = int(state["players"])
    order = rounds.turn_order(int(state["leader"]), players)
    ended = state["end"] is not None
    seats: list[wire.SeatView] = []
    for s in range(players):
        collected = lay.pile_for(zones, ("collected", s), seat, card)
        seats.append(
            {
                "seat": s,
                "hand_count": len(zones["hand"][s]),
                "hand": lay.pile_for(zones, ("hand", s), seat, card),
                "kitty_count": len(zones["collected_kitty"][s]),
                "kitty": lay.pile_for(zones, ("collected_kitty", s), seat, card),
                "collected": {"count": collected["count"], "cards": collected["cards"]},
                "total": rounds.cards_held(zones, s),
                "playing_from": "hand" if zones["hand"][s] else "collected",
            }
        )
    you: wire.You | None = None
    if seat is not None:
        hand = lay.pile_for(zones, ("hand", seat), seat, card)
        you = {
            "seat": seat,
            "hand": hand["cards"],
            "hand_count": hand["count"],
            "left": left_of(seat, players),
            "right": right_of(seat, players),
        }
    return {
        "game": "chemistry-battle",
        "players": players,
        "hand_play": state["options"]["hand_play"],
        "next_leader": state["options"]["next_leader"],
        "collected": state["options"]["collected"],
        "round_limit": state["options"]["round_limit"],
        "dealer": state["dealer"],
        "next_dealer": left_of(int(state["dealer"]), players),
        "round": state["round"],
        "leader": state["leader"],
        "order": order,
        "turn": None if ended else state["turn"],
        "table": [
            {"seat": s, "card": card(z)} for s, z in zip(order, zones["table"], strict=False)
        ],
        "kitty": {"count": len(zones["kitty"]), "captured_by": state["kitty_captured_by"]},
        "seats": seats,
        "last_round": state["last_round"],
        "finished": ended,
        "end": state["end"],
        "you": you,
    }


def scores(state: State) -> wire.Scores:
    """Every seat's cards, counted: hand + captured kitty + collected (the seed's count)."""
    zones = state["zones"]
    return {
        "final": state["end"] is not None,
        "seats": [
            {
                "seat": s,
                "hand": len(zones["hand"][s]),
                "kitty": len(zones["collected_kitty"][s]),
                "collected": len(zones["collected"][s]),
                "total": rounds.cards_held(zones, s),
            }
            for s in range(int(state["players"]))
        ],
    }


# ---------------------------------------------------------------- invariants --------
def invariants(state: State) -> list[str]:
    """Invariants besides every card held once (the layout's check): hands shrink in
    step; turn and table agree; the kitty goes whole to round 1's winner."""
    zones = state["zones"]
    players = int(state["players"])
    problems: list[str] = []
    order = rounds.turn_order(int(state["leader"]), players)
    table = zones["table"]
    if len(table) >= players:
        problems.append("a full round is still on the table")
    elif state["end"] is None and state["turn"] != order[len(table)]:
        problems.append(f"seat {state['turn']} is to play but seat {order[len(table)]} is next")
    played = set(order[: len(table)])
    rnd = int(state["round"])
    completed = rnd if state["end"] is not None else rnd - 1
    for s in range(players):
        expected = max(0, int(state["hand_size"]) - completed - (s in played))
        if len(zones["hand"][s]) != expected:
            problems.append(f"seat {s} holds {len(zones['hand'][s])} cards, not {expected}")
        if state["end"] is None and s not in played and rounds.cards_held(zones, s) == 0:
            problems.append(f"seat {s} must play but has no cards")
    if rnd > 1 and zones["kitty"]:
        problems.append("the kitty was not captured in round 1")
    if sum(1 for k in zones["collected_kitty"] if k) > 1:
        problems.append("the kitty is split between seats")
    if state["end"] is not None and table:
        problems.append("the game ended in the middle of a round")
    return problems


def deck() -> list[dict[str, Any]]:
    """The Basic Deck of 54 Elements."""
    return [dict(card(z)) for z in CARD_IDS]


WIRE = Wire(
    options=wire.Options,
    moves=ACTIONS.shapes,
    view=wire.View,
    scores=wire.Scores,
    events=(
        wire.CardPlayedEvent,
        wire.PilePickedUpEvent,
        wire.RoundWonEvent,
        wire.KittyCapturedEvent,
        wire.SeatOutEvent,
        wire.RoundStartedEvent,
        wire.GameOverEvent,
    ),
    card=wire.Card,
    example={
        "players": 2,
        "options": {"deal": [[1, 26, 8], [25, 6, 17]], "dealer": 1},
        "seed": 1,
    },
)


# Every card held once, the resampling of what a seat cannot see (the leak tests) and the
# random bot come from the layout and the actions.
GAME = GameRules(
    info=INFO,
    wire=WIRE,
    setup=setup,
    to_act=to_act,
    view=view,
    scores=scores,
    outcome=outcome,
    **ACTIONS.functions(),
    bots={"greedy": greedy},
    cards=lambda state: CARD_IDS,
    invariants=invariants,
    deck=deck,
    layout=layout,
)
