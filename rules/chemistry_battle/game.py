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
    Dynamics,
    Event,
    GameInfo,
    GameRules,
    Move,
    Option,
    Outcome,
    RuleViolation,
    State,
    can,
    check_deal_shape,
    check_players,
    check_seat,
    is_int,
    left_of,
    rank_seats,
    resolve_options,
    right_of,
)
from rules.rng import new_rng, randbelow, shuffled
from rules.zones import Layout, Seen, Zone

from . import rounds
from .bots import BOTS, choose
from .cards import CARD_IDS, DEAL_TABLE, HIGHEST, LOWEST, card, label

SEED_DEAL = (
    "Deal all cards in the deck. 2 players, deal 27 cards; 3 players, deal 27 cards; 4 players "
    "deal 13 cards, place 2 remaining cards in the kitty; 5 players, deal 10 cards, place 4 "
    "remaining cards in the kitty; 6 players, deal 9 cards."
)
SEED_TURN = (
    "The first player to the right of the dealer plays a card face up. Play continues to the "
    "right with player placing a card face up."
)
SEED_PILE = (
    "When all cards in a player's hand have been played, they may pick up the pile and begin "
    "to play from the collected cards. The player should not look at the cards or shuffle "
    "them but must play the cards in the order they were collected."
)

HAND_PLAY = ("choice", "top")
NEXT_LEADER = ("winner", "rotate")
MAX_ROUND_LIMIT = 10_000
DEFAULT_ROUND_LIMIT = 1000

CODES: Mapping[str, str] = {
    "not_your_turn": "Another seat plays next; the cards are played one seat at a time.",
    "not_in_hand": "The card is not in this seat's hand.",
    "play_in_order": "This seat's cards are played in order without looking: send play_next.",
    "hand_not_empty": "This seat still holds cards: it chooses one of them with play.",
}


def _zones(hand: Zone) -> Layout:
    return Layout(
        (
            hand,
            Zone("table", Seen.PUBLIC),
            Zone("kitty", Seen.HIDDEN),
            Zone("collected_kitty", Seen.HIDDEN, per_seat=True),
            Zone("collected", Seen.PUBLIC, per_seat=True),
            Zone("set_aside", Seen.HIDDEN, ordered=False),
        )
    )


LAYOUTS: Mapping[str, Layout] = {
    # a hand held in the hand: its owner sees it and chooses; the order is not part of play
    "choice": _zones(Zone("hand", Seen.OWNER, per_seat=True, ordered=False)),
    # a face-down stack played top card first: nobody sees it, its order is the play order
    "top": _zones(Zone("hand", Seen.HIDDEN, per_seat=True)),
}
LAYOUT = LAYOUTS["choice"]

INFO = GameInfo(
    slug="chemistry-battle",
    title="Chemistry Battle",
    seed_file="002_9f20549899bb9774.txt",
    min_players=2,
    max_players=6,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=1,
    summary="Each round every seat plays an element card; the highest atomic number wins the "
    "round's cards. Hands empty, collected cards are played in order; when a seat runs out, "
    "the most cards wins. 2-6 seats; the seed's 1-player game is one person against the "
    'service\'s bot seats (setup field "bots", e.g. {"1": "greedy"}).',
    options=(
        Option(
            "dealer",
            "int | null",
            None,
            "The dealer's seat; the seat to the dealer's right plays first. null cuts for the "
            "deal (a seat drawn with the game's seed). To rotate the deal over several games, "
            "pass the previous game's next_dealer (the seat to the dealer's left).",
        ),
        Option(
            "next_leader",
            "str",
            "winner",
            "Who plays first in the next round: the 'winner' of the round, or 'rotate' to the "
            "seat to the right of this round's first player. The seed does not say.",
            choices=NEXT_LEADER,
        ),
        Option(
            "hand_play",
            "str",
            "choice",
            "'choice': a seat chooses which card of its hand to play. 'top': the hand is a "
            "face-down stack, played top card first without looking (as in the card game War).",
            choices=HAND_PLAY,
        ),
        Option(
            "round_limit",
            "int | null",
            DEFAULT_ROUND_LIMIT,
            "After this many rounds (1-10000) the game ends and the cards are counted, as when "
            "a seat runs out. Two-seat games take about 450 rounds (median) and some run on "
            "for thousands; a lesson may set fewer. null plays until a seat runs out or play "
            "would repeat forever.",
        ),
        Option(
            "deal",
            "list[list[int]] | null",
            None,
            "Fix the hands: one list of atomic numbers (1-54) per seat, all the same size, no "
            "card twice; cards not dealt (nor in kitty) are out of the game. With hand_play "
            "'top' each hand is played in the order listed. null deals all 54 by the seed.",
        ),
        Option(
            "kitty",
            "list[int] | null",
            None,
            "With deal only: the kitty's cards (atomic numbers), in the order they are later "
            "played. null: no kitty.",
        ),
    ),
    player_counts={p: {"hand_size": h, "kitty": k} for p, (h, k) in DEAL_TABLE.items()},
    codes=CODES,
)


def layout(state: State) -> Layout:
    """The zones of this game: the hand's visibility depends on ``hand_play``."""
    return LAYOUTS[state["options"]["hand_play"]]


# ---------------------------------------------------------------- setup -------------
def _check_options(opts: dict[str, Any], players: int) -> None:
    dealer = opts["dealer"]
    if dealer is not None and (not is_int(dealer) or not 0 <= dealer < players):
        raise RuleViolation(
            "bad_option",
            f"dealer must be a seat number 0 to {players - 1} or null, not {dealer!r}.",
        )
    for name, choices in (("next_leader", NEXT_LEADER), ("hand_play", HAND_PLAY)):
        if opts[name] not in choices:
            raise RuleViolation(
                "bad_option", f"{name} must be one of {list(choices)}, not {opts[name]!r}."
            )
    limit = opts["round_limit"]
    if limit is not None and (not is_int(limit) or not 1 <= limit <= MAX_ROUND_LIMIT):
        raise RuleViolation(
            "bad_option",
            f"round_limit must be a whole number 1-{MAX_ROUND_LIMIT} or null, not {limit!r}.",
        )
    if opts["kitty"] is not None and opts["deal"] is None:
        raise RuleViolation(
            "bad_option", "kitty fixes the kitty of a custom deal: give deal as well."
        )


def _cards(value: object, where: str) -> list[int]:
    if not isinstance(value, list):
        raise RuleViolation("bad_deal", f"{where} must be a list of atomic numbers.")
    for z in value:
        if not is_int(z) or not LOWEST <= z <= HIGHEST:
            raise RuleViolation(
                "bad_deal",
                f"{where} has {z!r}; the Basic Deck's cards are atomic numbers "
                f"{LOWEST} to {HIGHEST}.",
            )
    return list(value)


def _custom_deal(opts: Mapping[str, Any], players: int) -> tuple[list[list[int]], list[int]]:
    hands = [
        _cards(hand, f"deal[{seat}]")
        for seat, hand in enumerate(check_deal_shape(opts["deal"], players, rule=SEED_DEAL))
    ]
    kitty = _cards(opts["kitty"] if opts["kitty"] is not None else [], "kitty")
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
    lay = LAYOUTS[opts["hand_play"]]
    zones = lay.deal(
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


# ---------------------------------------------------------------- moves -------------
def parse_move(move: Mapping[str, Any]) -> Move:
    """Check a move's shape: ``{"type": "play", "card": z}`` or ``{"type": "play_next"}``."""
    kind = move.get("type") if isinstance(move, Mapping) else None
    if kind == "play":
        z = move.get("card")
        if not is_int(z):
            raise RuleViolation("bad_move", f"A play names a card by atomic number, not {z!r}.")
        extra = sorted(set(move) - {"type", "card"})
        if extra:
            raise RuleViolation("bad_move", f"A play has only 'type' and 'card'; remove {extra}.")
        return {"type": "play", "card": z}
    if kind == "play_next":
        extra = sorted(set(move) - {"type"})
        if extra:
            raise RuleViolation(
                "bad_move", f"play_next names no card (it is the next in order); remove {extra}."
            )
        return {"type": "play_next"}
    raise RuleViolation(
        "unknown_move", f"{kind!r} is not a move of this game; use 'play' or 'play_next'."
    )


def chooses(state: State, seat: int) -> bool:
    """Whether ``seat`` chooses its next card (it holds a hand it may look at)."""
    return state["options"]["hand_play"] == "choice" and bool(state["zones"]["hand"][seat])


def verify(state: State, seat: int, move: Move) -> None:
    """Raise the ``RuleViolation`` that forbids the parsed ``move`` now, if any."""
    check_seat(state, seat)
    if state["end"] is not None:
        raise RuleViolation("game_over", "The game is over: the cards have been counted.")
    turn = int(state["turn"])
    if seat != turn:
        raise RuleViolation(
            "not_your_turn",
            f"It is seat {turn}'s turn to play; play goes to the right, one seat at a time.",
            rule=SEED_TURN,
            turn=turn,
        )
    hand = state["zones"]["hand"][seat]
    if move["type"] == "play":
        z = move["card"]
        if not chooses(state, seat):
            why = (
                "your hand is a face-down stack played top card first"
                if hand
                else "your hand is empty, so you play your collected cards in the order "
                "you collected them, without looking"
            )
            raise RuleViolation(
                "play_in_order",
                f"You cannot choose a card: {why}. Send play_next.",
                rule=SEED_PILE,
            )
        if z not in hand:
            name = label(z) if LOWEST <= z <= HIGHEST else str(z)
            raise RuleViolation(
                "not_in_hand",
                f"{name} is not in your hand; play one of: {', '.join(map(label, hand))}.",
                card=z,
            )
    elif chooses(state, seat):
        raise RuleViolation(
            "hand_not_empty",
            f"You still hold {len(hand)} card{'s' if len(hand) > 1 else ''}: choose one with "
            "play. Collected cards are played once your hand is empty.",
            rule=SEED_PILE,
        )


def to_act(state: State) -> list[int]:
    return [] if state["end"] is not None else [int(state["turn"])]


def legal_moves(state: State, seat: int) -> list[Move]:
    check_seat(state, seat)
    if seat not in to_act(state):
        return []
    candidates: list[Move] = [{"type": "play", "card": z} for z in state["zones"]["hand"][seat]]
    candidates.append({"type": "play_next"})
    return [m for m in candidates if can(verify, state, seat, m)]


def _next_card(zones: Mapping[str, Any], seat: int) -> tuple[str, int]:
    """The zone a forced play comes from and its card: hand, then kitty, then collected."""
    for name in ("hand", "collected_kitty", "collected"):
        if zones[name][seat]:
            return name, int(zones[name][seat][0])
    raise ValueError(f"seat {seat} has no card to play")  # the game ended before this


SOURCES = {"hand": "hand", "collected_kitty": "captured_kitty", "collected": "collected"}


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    """Play one card; when the last seat of the round has played, settle the round."""
    move = parse_move(move)
    verify(state, seat, move)
    lay = layout(state)
    zones = state["zones"]
    events: list[Event] = []
    if move["type"] == "play":
        source, z = "hand", int(move["card"])
    else:
        source, z = _next_card(zones, seat)
    new: State = {**state}
    if source != "hand" and not state["picked_up"][seat]:
        picked = list(state["picked_up"])
        picked[seat] = True
        new["picked_up"] = picked
        count = len(zones["collected_kitty"][seat]) + len(zones["collected"][seat])
        events.append(
            {"type": "pile_picked_up", "seat": seat, "round": state["round"], "count": count}
        )
    zones = lay.move(zones, (source, seat), ("table", None), [z])
    table = zones["table"]
    order = rounds.turn_order(int(state["leader"]), int(state["players"]))
    events.append(
        {
            "type": "card_played",
            "seat": seat,
            "round": state["round"],
            "card": card(z),
            "source": SOURCES[source],
            "position": len(table),
            "leading": z == max(table),
        }
    )
    new["zones"] = zones
    if len(table) < len(order):
        new["turn"] = order[len(table)]
        return new, events
    new, more = _settle_round(new, order)
    return new, events + more


def _settle_round(state: State, order: list[int]) -> tuple[State, list[Event]]:
    lay = layout(state)
    players = int(state["players"])
    zones = state["zones"]
    table = list(zones["table"])
    won = rounds.round_won_event(state, table, order)
    winner = int(won["seat"])
    events: list[Event] = [won]
    zones = lay.move(zones, ("table", None), ("collected", winner), table)
    if zones["kitty"]:
        kitty = list(zones["kitty"])
        zones = lay.move(zones, ("kitty", None), ("collected_kitty", winner), kitty)
        state = {**state, "kitty_captured_by": winner}
        events.append(
            lay.moved(
                {"type": "kitty_captured", "seat": winner, "round": state["round"]},
                kitty,
                ("kitty", None),
                ("collected_kitty", winner),
                players,
            )
        )
    rnd = int(state["round"])
    leader = winner if state["options"]["next_leader"] == "winner" else right_of(order[0], players)
    new: State = {
        **state,
        "zones": zones,
        "leader": leader,
        "turn": leader,
        "last_round": {k: won[k] for k in ("round", "seat", "card", "plays", "explanation")},
    }
    out = [s for s in range(players) if rounds.cards_held(zones, s) == 0]
    reason = None
    if out:
        reason = "seat_out"
        for s in out:
            events.append(
                {
                    "type": "seat_out",
                    "seat": s,
                    "round": rnd,
                    "message": f"Seat {s} has run out of cards: no hand and no collected cards.",
                }
            )
    elif rnd == state["options"]["round_limit"]:
        reason = "round_limit"
    else:
        loop, cycled = rounds.track_cycle(new)
        new["loop"] = loop
        if cycled:
            reason = "cycle"
    if reason is None:
        new["round"] = rnd + 1
        events.append(
            {
                "type": "round_started",
                "round": rnd + 1,
                "leader": leader,
                "order": rounds.turn_order(leader, players),
            }
        )
        return new, events
    new["end"] = {"reason": reason, "round": rnd, "out": out}
    counts = [rounds.cards_held(zones, s) for s in range(players)]
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            "round": rnd,
            "counts": counts,
            "message": rounds.game_over_message(reason, out, counts, rnd),
            **outcome(new).to_json(),
        }
    )
    return new, events


# ---------------------------------------------------------------- views -------------
def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (or an observer) sees: its own hand, the table, every seat's counts,
    the faces of collected round cards (all were played face up), never another hand,
    the kitty's faces or the deck order."""
    if seat is not None:
        check_seat(state, seat)
    lay = layout(state)
    zones = state["zones"]
    players = int(state["players"])
    order = rounds.turn_order(int(state["leader"]), players)
    ended = state["end"] is not None
    seats = []
    for s in range(players):
        collected = lay.pile_view(zones, ("collected", s), seat, card)
        seats.append(
            {
                "seat": s,
                "hand_count": len(zones["hand"][s]),
                "kitty_count": len(zones["collected_kitty"][s]),
                "collected": {"count": collected["count"], "cards": collected["cards"]},
                "total": rounds.cards_held(zones, s),
                "playing_from": "hand" if zones["hand"][s] else "collected",
            }
        )
    out: dict[str, Any] = {
        "game": INFO.slug,
        "players": players,
        "hand_play": state["options"]["hand_play"],
        "next_leader": state["options"]["next_leader"],
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
        "you": None,
    }
    if seat is not None:
        hand = lay.pile_view(zones, ("hand", seat), seat, card)
        out["you"] = {
            "seat": seat,
            "hand": hand["cards"],
            "hand_count": hand["count"],
            "left": left_of(seat, players),
            "right": right_of(seat, players),
        }
    return out


def scores(state: State) -> dict[str, Any]:
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


def outcome(state: State) -> Outcome:
    """The most cards wins; equal counts share a place."""
    if state["end"] is None:
        return Outcome(finished=False)
    zones = state["zones"]
    ranking, places = rank_seats(
        range(int(state["players"])), lambda s: rounds.cards_held(zones, s)
    )
    winners = tuple(s for s, p in zip(ranking, places, strict=True) if p == 1)
    return Outcome(
        finished=True,
        winners=winners,
        ranking=ranking,
        places=places,
        tie_break="shared" if len(winners) > 1 else None,
    )


def bot_move(state: State, seat: int, bot: str) -> tuple[Move, State]:
    if bot not in BOTS:
        raise RuleViolation("unknown_bot", f"There is no bot {bot!r}; choose one of {list(BOTS)}.")
    legal = legal_moves(state, seat)
    if not legal:
        verify(state, seat, {"type": "play_next"})  # raises why this seat cannot move
    move, rng = choose(state, seat, bot, legal)
    return move, {**state, "rng": rng}


# ---------------------------------------------------------------- invariants --------
def check(state: State) -> None:
    """Invariants: all 54 cards exactly once; hands shrink in step; turn and table agree."""
    lay = layout(state)
    zones = state["zones"]
    players = int(state["players"])
    problems = lay.conservation_problems(zones, CARD_IDS)
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
    if problems:
        raise RuleViolation("state_invalid", "; ".join(problems))


def redeal_hidden(state: State, seat: int | None, seed: int) -> State:
    """``state`` with every card ``seat`` cannot see resampled (for the leak tests)."""
    zones, rng = layout(state).redeal_hidden(state["zones"], seat, new_rng(seed))
    return {**state, "zones": zones, "rng": rng}


def deck() -> list[dict[str, Any]]:
    """The Basic Deck of 54 Elements."""
    return [dict(card(z)) for z in CARD_IDS]


GAME = GameRules(
    info=INFO,
    setup=setup,
    parse_move=parse_move,
    verify=verify,
    to_act=to_act,
    legal_moves=legal_moves,
    apply=apply,
    view=view,
    scores=scores,
    outcome=outcome,
    bot_move=bot_move,
    check=check,
    redeal_hidden=redeal_hidden,
    deck=deck,
    layout=LAYOUT,
)
