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
from typing import Any

from rules import match
from rules.core import (
    Dynamics,
    Event,
    GameInfo,
    GameRules,
    Move,
    Outcome,
    RuleViolation,
    State,
    check_players,
    check_seat,
    is_int,
    left_of,
    resolve_options,
)
from rules.rng import choice, new_rng, shuffled
from rules.zones import Layout, Seen, Zone

HAND = 3
LAYOUT = Layout(
    (
        Zone("draw", Seen.HIDDEN),
        Zone("hand", Seen.OWNER, per_seat=True, ordered=False),
        Zone("table", Seen.PUBLIC),
        Zone("discard", Seen.PUBLIC),
    )
)
INFO = GameInfo(
    slug="high-card",
    title="High Card",
    seed_file="-",
    min_players=2,
    max_players=4,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=1,
    summary="Play your highest card; tricks score one point per card.",
    options=(match.target_option(6, "play to 6"), match.on_tie_option("play_on")),
    codes={"not_in_hand": "The card is not in your hand.", "not_your_turn": "Wait.", **match.CODES},
)


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
    match.check_options(opts["target"], opts["on_tie"])
    m = match.new_match(players, target=opts["target"], dealer=0, on_tie=opts["on_tie"])
    state = {"players": players, "options": opts, "rng": new_rng(seed), "match": m, "turn": 0}
    return _deal({**state, "round_over": False, "tricks": [0] * players})


def parse_move(move: Mapping[str, Any]) -> Move:
    kind = move.get("type") if isinstance(move, Mapping) else None
    if kind == "next_round" and set(move) == {"type"}:
        return {"type": "next_round"}
    if kind == "play" and set(move) == {"type", "card"} and is_int(move["card"]):
        return {"type": "play", "card": move["card"]}
    if kind in ("play", "next_round"):
        raise RuleViolation("bad_move", f"A {kind!r} move is malformed.")
    raise RuleViolation("unknown_move", f"{kind!r} is not a move; use 'play' or 'next_round'.")


def verify(state: State, seat: int, move: Move) -> None:
    check_seat(state, seat)
    if move["type"] == "next_round":
        match.verify_next_round(state["match"], state["round_over"], seat)
        return
    if state["match"]["over"]:
        raise RuleViolation("game_over", "The match is over.")
    if state["round_over"]:
        raise RuleViolation("round_over", "The round is over; the next dealer deals.")
    if seat != state["turn"]:
        raise RuleViolation("not_your_turn", f"It is seat {state['turn']}'s turn.")
    if move["card"] not in state["zones"]["hand"][seat]:
        raise RuleViolation("not_in_hand", f"{move['card']} is not in your hand.")


def to_act(state: State) -> list[int]:
    if state["match"]["over"]:
        return []
    if state["round_over"]:
        return [match.next_round_seat(state["match"])]
    return [int(state["turn"])]


def legal_moves(state: State, seat: int) -> list[Move]:
    check_seat(state, seat)
    options: list[Move] = [{"type": "next_round"}]
    options += [{"type": "play", "card": c} for c in state["zones"]["hand"][seat]]
    return [m for m in options if GAME.can(state, seat, m)]


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    move = parse_move(move)
    verify(state, seat, move)
    players = int(state["players"])
    if move["type"] == "next_round":
        new = _deal({**state, "match": match.next_round(state["match"]), "round_over": False})
        new["tricks"] = [0] * players
        return new, [{"type": "round_dealt", "round": new["match"]["round"]}]
    zones = LAYOUT.move(state["zones"], ("hand", seat), ("table", None), [move["card"]])
    events = [
        LAYOUT.moved(
            {"type": "card_played", "seat": seat},
            [move["card"]],
            ("hand", seat),
            ("table", None),
            players,
            card,
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


def view(state: State, seat: int | None) -> dict[str, Any]:
    if seat is not None:
        check_seat(state, seat)
    zones = state["zones"]
    return {
        "turn": state["turn"],
        "match": match.view(state["match"]),
        "tricks": list(state["tricks"]),
        "draw": LAYOUT.pile_view(zones, ("draw", None), seat, card),
        "table": LAYOUT.pile_view(zones, ("table", None), seat, card),
        "hands": [
            LAYOUT.pile_view(zones, ("hand", s), seat, card) for s in range(int(state["players"]))
        ],
    }


def outcome(state: State) -> Outcome:
    return match.outcome(state["match"])


def bot_move(state: State, seat: int, bot: str) -> tuple[Move, State]:
    legal = legal_moves(state, seat)
    if bot == "random":
        rng, chosen = choice(state["rng"], legal)
        return chosen, {**state, "rng": rng}
    if bot == "greedy":
        return max(legal, key=lambda m: m.get("card", 0)), state
    raise RuleViolation("unknown_bot", f"No bot {bot!r}.")


def check(state: State) -> None:
    players = int(state["players"])
    problems = LAYOUT.conservation_problems(state["zones"], range(1, 4 * players + 1))
    if problems:
        raise RuleViolation("state_invalid", "; ".join(problems))


def redeal_hidden(state: State, seat: int | None, seed: int) -> State:
    zones, rng = LAYOUT.redeal_hidden(state["zones"], seat, new_rng(seed))
    return {**state, "zones": zones, "rng": rng}


GAME = GameRules(
    info=INFO,
    setup=setup,
    parse_move=parse_move,
    verify=verify,
    to_act=to_act,
    legal_moves=legal_moves,
    apply=apply,
    view=view,
    scores=lambda state: {"totals": list(state["match"]["totals"])},
    outcome=outcome,
    bot_move=bot_move,
    check=check,
    redeal_hidden=redeal_hidden,
    layout=LAYOUT,
)
