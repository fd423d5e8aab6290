"""High Card: a tiny game that exists to test the engine's shared helpers.

It uses everything a hand-and-pile game needs (a hidden draw pile, private hands, a
public table, a public discard pile, turns, a match of rounds to a target, bots) in
as few lines as possible, so the zones and match helpers are tested on a real game
and a new game's author has a small, complete example to read.

Rules: cards 1 to 4 x players. Each round the dealer deals 3 cards to every seat;
starting left of the dealer, each seat plays one card face up in turn; when every
seat has played, the highest card takes the trick (1 point per card) and the cards
go to the discard pile. When the hands are empty the round ends; the match runs to
``target`` points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypedDict

from rules import match
from rules.actions import Action, Actions
from rules.core import (
    Code,
    Dynamics,
    Event,
    GameInfo,
    GameRules,
    Move,
    Outcome,
    RuleViolation,
    Source,
    State,
    check_players,
    left_of,
    options_of,
    resolve_options,
)
from rules.rng import new_rng, shuffled
from rules.shapes import CardId, Count, F, Seat
from rules.wire import Wire
from rules.zones import Layout, Seen, Zone

HAND = 3
LAYOUT = Layout(
    (
        Zone("draw", Seen.HIDDEN),
        Zone("hand", Seen.OWNER, per_seat=True, ordered=False, at_end=Seen.PUBLIC),
        Zone("table", Seen.PUBLIC),
        Zone("discard", Seen.PUBLIC),
    )
)
ENDED = LAYOUT.at_end()


def layout(state: State) -> Layout:
    """Who sees what: once a round is over the hands are on the table."""
    return ENDED if state["round_over"] else LAYOUT


# ---------------------------------------------------------------- the wire shapes --
class Options(TypedDict, total=False):
    target: Annotated[match.Target, F(default=6)]
    on_tie: Annotated[match.OnTie, F(default="play_on")]


class PlayMove(TypedDict):
    """Play one card of your hand face up."""

    type: Literal["play"]
    card: CardId


class Card(TypedDict):
    """A card: its id is its value."""

    id: CardId
    value: Annotated[int, F("Higher wins the trick.", minimum=1)]


class Pile(TypedDict):
    """A pile: always its count; its cards where you may see them."""

    count: Count
    cards: Annotated[list[Card] | None, F("Bottom first; null where hidden from you.")]


class View(TypedDict):
    """The table as one seat sees it (every hand once a round is over)."""

    turn: Seat
    match: match.Match
    tricks: Annotated[list[Count], F("Cards won this round, per seat.")]
    draw: Pile
    table: Pile
    hands: Annotated[
        list[Pile], F("Every seat's hand (only yours face up until the round is over).")
    ]


class Scores(TypedDict):
    """The match totals."""

    totals: Annotated[list[int], F("Per seat.")]


class CardPlayedEvent(TypedDict):
    """A seat played a card face up."""

    type: Literal["card_played"]
    seat: Seat
    count: Count
    cards: list[CardId]


class TrickWonEvent(TypedDict):
    """The highest card took the trick."""

    type: Literal["trick_won"]
    seat: Seat
    cards: list[CardId]


class RoundDealtEvent(TypedDict):
    """The next dealer dealt a new round."""

    type: Literal["round_dealt"]
    round: Annotated[int, F(minimum=1)]


INFO = GameInfo(
    slug="high-card",
    title="High Card",
    seed_file="-",
    source=Source(title="High Card", publisher=None, origin="A test game of this project."),
    min_players=2,
    max_players=4,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=1,
    summary="Play your highest card; tricks score one point per card.",
    options=options_of(Options),
    codes={
        "not_in_hand": Code.move("The card is not in your hand."),
        "not_your_turn": Code.turn("Wait."),
        **match.CODES,
    },
)


# ---------------------------------------------------------------- setup ------------
def card(c: int) -> dict[str, Any]:
    return {"id": c, "value": c}


def _deal(state: State) -> State:
    players = int(state["players"])
    rng, order = shuffled(state["rng"], range(1, 4 * players + 1))
    zones = LAYOUT.deal(players, draw=order)
    dealer = int(state["match"]["dealer"])
    for k in range(HAND * players):
        seat = left_of(dealer + k, players)
        zones, _ = LAYOUT.draw(zones, ("draw", None), ("hand", seat), 1)
    return {**state, "rng": rng, "zones": zones, "turn": left_of(dealer, players)}


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    players = check_players(INFO, players)
    opts = resolve_options(INFO, options)
    m = match.new_match(players, target=opts["target"], dealer=0, on_tie=opts["on_tie"])
    state = {"players": players, "options": opts, "rng": new_rng(seed), "match": m, "turn": 0}
    return _deal({**state, "round_over": False, "tricks": [0] * players})


# ---------------------------------------------------------------- moves ------------
def waiting(state: State, seat: int) -> None:
    """What forbids ``seat`` any move now."""
    if state["match"]["over"]:
        raise RuleViolation("match_over", "The match is over.")
    if state["round_over"]:
        match.verify_next_round(state["match"], True, seat)
    elif seat != state["turn"]:
        raise RuleViolation("not_your_turn", f"It is seat {state['turn']}'s turn.")


def verify_play(state: State, seat: int, move: Move) -> None:
    if state["round_over"]:
        raise RuleViolation("round_over", "The round is over; the next dealer deals.")
    if move["card"] not in state["zones"]["hand"][seat]:
        raise RuleViolation("not_in_hand", f"{move['card']} is not in your hand.")


def plays(state: State, seat: int) -> list[Move]:
    return [{"type": "play", "card": c} for c in state["zones"]["hand"][seat]]


def play(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    players = int(state["players"])
    zones = LAYOUT.move(state["zones"], ("hand", seat), ("table", None), [move["card"]])
    events = [
        LAYOUT.moved(
            {"type": "card_played", "seat": seat},
            [move["card"]],
            ("hand", seat),
            ("table", None),
            players,
        )
    ]
    new = {**state, "zones": zones, "turn": left_of(seat, players)}
    table = zones["table"]
    if len(table) < players:
        return new, events
    leader = left_of(seat, players)  # the seat after the last to play led the trick
    winner = (leader + table.index(max(table))) % players
    tricks = list(new["tricks"])
    tricks[winner] += len(table)
    new["zones"] = LAYOUT.move(zones, ("table", None), ("discard", None), list(table))
    new.update(tricks=tricks, turn=winner)
    events.append({"type": "trick_won", "seat": winner, "cards": list(table)})
    if not new["zones"]["hand"][winner]:
        m, more = match.end_round(new["match"], tricks)
        new.update(match=m, round_over=True)
        events += more
    return new, events


def verify_next_round(state: State, seat: int, move: Move) -> None:
    match.verify_next_round(state["match"], state["round_over"], seat)


def next_round(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    new = _deal({**state, "match": match.next_round(state["match"]), "round_over": False})
    new["tricks"] = [0] * int(state["players"])
    return new, [{"type": "round_dealt", "round": new["match"]["round"]}]


ACTIONS = Actions(
    (
        Action(PlayMove, verify_play, play, plays),
        Action(
            match.NextRoundMove,
            verify_next_round,
            next_round,
            lambda s, seat: [{"type": "next_round"}],
        ),
    ),
    waiting=waiting,
)

WIRE = Wire(
    options=Options,
    moves=ACTIONS.shapes,
    view=View,
    scores=Scores,
    events=(CardPlayedEvent, TrickWonEvent, RoundDealtEvent, *match.EVENTS),
    card=Card,
)


# ---------------------------------------------------------------- views ------------
def to_act(state: State) -> list[int]:
    if state["match"]["over"]:
        return []
    if state["round_over"]:
        return [match.next_round_seat(state["match"])]
    return [int(state["turn"])]


def view(state: State, seat: int | None) -> dict[str, Any]:
    zones, lay = state["zones"], layout(state)
    return {
        "turn": state["turn"],
        "match": match.view(state["match"]),
        "tricks": list(state["tricks"]),
        "draw": lay.pile_view(zones, ("draw", None), seat, card),
        "table": lay.pile_view(zones, ("table", None), seat, card),
        "hands": [
            lay.pile_view(zones, ("hand", s), seat, card) for s in range(int(state["players"]))
        ],
    }


def outcome(state: State) -> Outcome:
    return match.outcome(state["match"])


def greedy(state: State, seat: int, legal: list[Move]) -> tuple[Move, State]:
    return max(legal, key=lambda m: m.get("card", 0)), state


# Everything else a zone game needs (checking that every card is held once, resampling
# what a seat cannot see, the random bot) comes from the layout and the actions.
GAME = GameRules(
    info=INFO,
    wire=WIRE,
    setup=setup,
    to_act=to_act,
    view=view,
    scores=lambda state: {"totals": list(state["match"]["totals"])},
    outcome=outcome,
    **ACTIONS.functions(),
    bots={"greedy": greedy},
    cards=lambda state: range(1, 4 * int(state["players"]) + 1),
    layout=layout,
)
