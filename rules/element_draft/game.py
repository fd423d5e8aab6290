"""The Chemistry Card Game: a simultaneous draft of element cards.

Each round every seat privately selects one card of its hand; when the last
seat has selected, all selections are revealed together, the race to spell a
5-letter word is checked, and the remaining hands pass to the left.

>>> state = GAME.setup(2, {}, seed=1)
>>> len(state["hands"][0]), state["deck_size"]
(15, 36)
>>> card = state["hands"][0][0]
>>> state, events = GAME.apply(state, 0, {"type": "draft", "card": card})
>>> [e["type"] for e in events]
['card_selected']
>>> GAME.to_act(state)
[1]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.actions import Action, Actions
from rules.chemistry.elements import MAX_Z, element
from rules.chemistry.words import validate_word_list
from rules.core import (
    JSON,
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
    check_deal_shape,
    check_players,
    check_seat,
    hands_dealt,
    is_int,
    left_of,
    mask,
    options_of,
    resolve_options,
    right_of,
)
from rules.rng import new_rng, randbelow, shuffled
from rules.shapes import quote
from rules.wire import Wire
from rules.zones import emitted, with_private

from . import explain, scoring, wire
from .bots import greedy_pick
from .cards import card, cards, deck_card
from .race import placings, word_index, word_list

SEED_DRAFT = (
    "Each player privately selects a card from their hand to draft. Once all players have "
    "made their selection, they place the drafted card face up in front of them. Then, they "
    "pass the remaining cards to the left."
)
SEED_DEAL = (
    "Include only cards with atomic number of Deck Size or below. Then deal out an equal "
    "number of cards to each player"
)

# Players -> (deck size, hand size), from the seed's table.
DEAL_TABLE: Mapping[int, tuple[int, int]] = {
    2: (36, 15),
    3: (54, 15),
    4: (54, 13),
    5: (54, 10),
    6: (86, 14),
    7: (103, 14),
    8: (103, 12),
    9: (103, 11),
    10: (103, 10),
}

CODES: Mapping[str, Code] = {
    "not_in_hand": Code.move("The card is not in this seat's hand."),
    "already_selected": Code.turn("This seat has already selected its card this round."),
    "bad_word_list": Code.setup(
        "The custom word list is not a list of 5-letter words, or is too long."
    ),
}

INFO = GameInfo(
    slug="element-draft",
    title="Chemistry Card Game",
    seed_file="000_bf71dd5321d29db6.txt",
    source=Source(
        title="Chemistry Card Game",
        publisher=None,
        origin=(
            'Rules in Markdown headed "Chemistry Chard Game" (a misprint of Card), for a deck of '
            "103 element cards; they name no author or publisher."
        ),
    ),
    min_players=2,
    max_players=10,
    dynamics=Dynamics.SIMULTANEOUS,
    has_chance=True,
    rules_version=1,
    summary="Draft element cards; score runs of atomic numbers, mass, words spelled with "
    "symbols, ion pairs, families and radioactivity.",
    options=options_of(wire.Options),
    player_counts={p: {"deck_size": d, "hand_size": h} for p, (d, h) in DEAL_TABLE.items()},
    codes=CODES,
)


# ---------------------------------------------------------------- setup -------------
def _check_deal(deal: object, players: int) -> list[list[int]]:
    hands: list[list[int]] = []
    for seat, hand in enumerate(check_deal_shape(deal, players, rule=SEED_DEAL)):
        for z in hand:
            if not is_int(z) or not 1 <= z <= MAX_Z:
                raise RuleViolation(
                    "bad_deal",
                    f"deal[{seat}] has {quote(z)}; cards are atomic numbers 1 to {MAX_Z}.",
                )
        hands.append(sorted(hand))
    flat = [z for h in hands for z in h]
    if len(set(flat)) != len(flat):
        twice = sorted({z for z in flat if flat.count(z) > 1})
        raise RuleViolation(
            "bad_deal",
            "There is one card per element; dealt twice: "
            + ", ".join(element(z).symbol for z in twice),
        )
    return hands


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    players = check_players(INFO, players)
    opts = resolve_options(INFO, options)
    if opts["words"] is not None:
        opts["words"] = list(validate_word_list(opts["words"]))
    deck_size, hand_size = DEAL_TABLE[players]
    rng = new_rng(seed)
    if opts["deal"] is not None:
        hands = _check_deal(opts["deal"], players)
        hand_size = len(hands[0])
        deck_size = max(z for h in hands for z in h)
        set_aside: list[int] = []
    else:
        rng, order = shuffled(rng, range(1, deck_size + 1))
        hands = [sorted(order[i * hand_size : (i + 1) * hand_size]) for i in range(players)]
        set_aside = sorted(order[players * hand_size :])
    return {
        "players": players,
        "options": opts,
        "deck_size": deck_size,
        "hand_size": hand_size,
        "turn": 1,
        "hands": hands,
        "drafted": [[] for _ in range(players)],
        "pending": [None] * players,
        "set_aside": set_aside,
        "placings": [],
        "rng": rng,
    }


# ---------------------------------------------------------------- helpers -----------
def finished(state: State) -> bool:
    return int(state["turn"]) > int(state["hand_size"])


def _bismuth(state: State) -> bool:
    return bool(state["options"]["bismuth_radioactive"])


def _card_of(state: State) -> Callable[[int], wire.Card]:
    """Cards as this game shows them (its reading of bismuth)."""
    bismuth = _bismuth(state)
    return lambda z: card(z, bismuth_radioactive=bismuth)


def described(placing: Mapping[str, Any]) -> wire.Placing:
    """A place in the word race as views, scores and events show it: the record the
    state keeps, with its explanation."""
    return {
        "seat": placing["seat"],
        "turn": placing["turn"],
        "place": placing["place"],
        "points": placing["points"],
        "word": placing["word"],
        "symbols": placing["symbols"],
        "cards": placing["cards"],
        "tied": placing["tied"],
        "explanation": explain.spelled(placing),
    }


# ---------------------------------------------------------------- moves -------------
def waiting(state: State, seat: int) -> None:
    """Raise why ``seat`` cannot draft now: the draft is over, or it has selected."""
    if finished(state):
        raise RuleViolation("game_over", "The draft is over: every card has been drafted.")
    if state["pending"][seat] is not None:
        chosen = element(state["pending"][seat]).symbol
        raise RuleViolation(
            "already_selected",
            f"You already selected {chosen} this round; wait for the others to select.",
            rule=SEED_DRAFT,
        )


def verify_draft(state: State, seat: int, move: Move) -> None:
    """Raise the ``RuleViolation`` that forbids ``seat`` drafting the move's card, if any."""
    z = move["card"]
    if z not in state["hands"][seat]:
        raise RuleViolation(
            "not_in_hand",
            f"{_named(z)} is not in your hand; choose one of the cards you hold.",
            rule=SEED_DRAFT,
            card=z,
        )


def _named(z: int) -> str:
    return f"{element(z).symbol} ({z})" if 1 <= z <= MAX_Z else str(z)


def drafts(state: State, seat: int) -> list[Move]:
    return [{"type": "draft", "card": z} for z in state["hands"][seat]]


def to_act(state: State) -> list[int]:
    if finished(state):
        return []
    return [s for s, p in enumerate(state["pending"]) if p is None]


def draft(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    z = move["card"]
    pending = list(state["pending"])
    pending[seat] = z
    new: State = {**state, "pending": pending}
    # only the selecting seat learns which card, until the reveal
    selected: wire.CardSelectedEvent = {"type": "card_selected", "seat": seat}
    events = [with_private(selected, {seat: {"card": z}})]
    if all(p is not None for p in pending):
        new, more = _reveal(new)
        events.extend(more)
    return new, events


ACTIONS = Actions((Action(wire.DraftMove, verify_draft, draft, drafts),), waiting=waiting)


def _reveal(state: State) -> tuple[State, list[Event]]:
    players = int(state["players"])
    turn = int(state["turn"])
    picks: list[int] = list(state["pending"])
    hands = [[c for c in hand if c != picks[s]] for s, hand in enumerate(state["hands"])]
    drafted = [[*d, picks[s]] for s, d in enumerate(state["drafted"])]
    shown = _card_of(state)
    revealed: wire.CardsRevealedEvent = {
        "type": "cards_revealed",
        "turn": turn,
        "cards": [{"seat": s, **shown(picks[s])} for s in range(players)],
        "explanation": explain.revealed(turn, picks),
    }
    events = [emitted(revealed)]
    placed = placings(state)
    index = word_index(state)
    achievers = []
    for s in range(players):
        if s in placed:
            continue
        spelling = index.first_completed_by(mask(drafted[s]), picks[s])
        if spelling is not None:
            achievers.append((s, spelling))
    new_placings = list(state["placings"])
    place = len(placed) + 1
    for s, spelling in achievers:
        record = {
            "seat": s,
            "turn": turn,
            "place": place,
            "points": scoring.place_points(place),
            "word": spelling.word,
            "symbols": list(spelling.symbols),
            "cards": list(spelling.numbers),
            "tied": len(achievers) > 1,
        }
        new_placings.append(record)
        spelled: wire.WordSpelledEvent = {"type": "word_spelled", **described(record)}
        events.append(emitted(spelled))
    events += _ions_paired(state, drafted, picks)
    new: State = {
        **state,
        "hands": hands,
        "drafted": drafted,
        "pending": [None] * players,
        "placings": new_placings,
        "turn": turn + 1,
    }
    if finished(new):
        outcome_ = outcome(new)
        over: wire.GameOverEvent = {"type": "game_over", **outcome_.declared()}
        events.append(emitted(over))
    else:
        passed: list[list[int]] = [[] for _ in range(players)]
        for s in range(players):
            passed[left_of(s, players)] = hands[s]
        new["hands"] = passed
        passing: wire.HandsPassedEvent = {"type": "hands_passed", "turn": turn, "direction": "left"}
        events.append(emitted(passing))
    return new, events


def _ions_paired(state: State, drafted: list[list[int]], picks: list[int]) -> list[Event]:
    """An ``ions_paired`` event for each seat whose drafted card adds an ion pair.

    One card adds at most one pair to the largest set, and when it does it is in every
    largest set (otherwise that set would fit in the cards before); so the pair that
    holds it is the new one, though the other pairs may regroup.
    """
    players = int(state["players"])
    bismuth = _bismuth(state)
    events: list[Event] = []
    for s in range(players):
        before = scoring.own_categories(tuple(state["drafted"][s]), players, bismuth)
        after = scoring.own_categories(tuple(drafted[s]), players, bismuth)
        ionized = after["ionization"]
        pairs = ionized["pairs"]
        if len(pairs) <= len(before["ionization"]["pairs"]):
            continue
        z = picks[s]
        pair = next(p for p in pairs if z in (p["cation"], p["anion"]))
        total = ionized["points"]
        gained = total - before["ionization"]["points"]
        paired: wire.IonsPairedEvent = {
            "type": "ions_paired",
            "seat": s,
            "turn": int(state["turn"]),
            "card": z,
            "pair": pair.copy(),
            "pairs": [p.copy() for p in pairs],
            "points": gained,
            "ionization_points": total,
            "explanation": explain.paired(s, z, pair, pairs, gained, total),
        }
        events.append(emitted(paired))
    return events


# ---------------------------------------------------------------- views -------------
def view(state: State, seat: int | None) -> wire.View:
    """What ``seat`` (None: an observer) may see, built as the declared ``View`` (mypy
    checks every member)."""
    if seat is not None:
        check_seat(state, seat)
    players = int(state["players"])
    placed = placings(state)
    bismuth = _bismuth(state)
    table = scoring.totals(state["drafted"], placed, bismuth_radioactive=bismuth)
    drafted, hands, selected = state["drafted"], state["hands"], state["pending"]
    seats: list[wire.SeatView] = [
        {
            "seat": s,
            "drafted": cards(drafted[s], bismuth_radioactive=bismuth),
            "hand_count": len(hands[s]),
            "has_selected": selected[s] is not None,
            "word": described(placed[s]) if s in placed else None,
            "score": table[s],
        }
        for s in range(players)
    ]
    words = state["options"].get("words")
    over = finished(state)
    you: wire.You | None = None
    if seat is not None:
        pending = selected[seat]
        you = {
            "seat": seat,
            "hand": cards(hands[seat], bismuth_radioactive=bismuth),
            "selection": card(pending, bismuth_radioactive=bismuth)
            if pending is not None
            else None,
            "left": left_of(seat, players),
            "right": right_of(seat, players),
        }
    return {
        "game": "element-draft",
        "players": players,
        "turn": min(int(state["turn"]), int(state["hand_size"])),
        "rounds": state["hand_size"],
        "finished": over,
        "deck_size": state["deck_size"],
        "hand_size": state["hand_size"],
        "set_aside_count": len(state["set_aside"]),
        # hidden during the draft; shown once it has ended, so anyone can check the deal
        "set_aside": cards(state["set_aside"], bismuth_radioactive=bismuth) if over else None,
        "word_list": "default" if words is None else "custom",
        "radioactivity_scored": players >= scoring.RADIOACTIVITY_MIN_PLAYERS,
        "seats": seats,
        "you": you,
    }


def scores(state: State) -> dict[str, Any]:
    drafted = state["drafted"]
    masses = [scoring.total_mass(d) for d in drafted]
    placed = {s: described(p) for s, p in placings(state).items()}
    bismuth = _bismuth(state)
    seats = [
        scoring.seat_breakdown(s, drafted, placed, bismuth_radioactive=bismuth, masses=masses)
        for s in range(int(state["players"]))
    ]
    return {"final": finished(state), "seats": seats}


def ranking(state: State) -> list[int]:
    """Seats best first: total, then the highest atomic number drafted."""
    return _ranked(state, _totals(state))


def _totals(state: State) -> list[int]:
    """Every seat's total: the one ``scores`` adds up from its evidence, computed as each
    view shows it (memoised per piles, no evidence built)."""
    return scoring.totals(state["drafted"], placings(state), bismuth_radioactive=_bismuth(state))


def _ranked(state: State, totals: list[int]) -> list[int]:
    drafted = state["drafted"]
    return sorted(range(len(totals)), key=lambda s: (-totals[s], -max(drafted[s], default=0), s))


def outcome(state: State) -> Outcome:
    if not finished(state):
        return Outcome(finished=False)
    totals = _totals(state)
    order = _ranked(state, totals)
    best = totals[order[0]]
    tied = [s for s in order if totals[s] == best]
    # Each element exists once, so the highest atomic numbers of tied seats differ:
    # every seat has a place of its own.
    return Outcome(
        finished=True,
        winners=(order[0],),
        ranking=tuple(order),
        places=tuple(range(1, len(order) + 1)),
        tie_break="highest_atomic_number" if len(tied) > 1 else None,
    )


def greedy_bot(state: State, seat: int, legal: list[Move]) -> tuple[Move, State]:
    return {"type": "draft", "card": greedy_pick(state, seat, [m["card"] for m in legal])}, state


def invariants(state: State) -> list[str]:
    """Invariants: each dealt card exactly once; hands shrink in step; selections held."""
    players = int(state["players"])
    hands, drafted, pending = state["hands"], state["drafted"], state["pending"]
    problems = []
    if not (len(hands) == len(drafted) == len(pending) == players):
        problems.append("seat lists differ in length")
    cards = [z for h in hands for z in h] + [z for d in drafted for z in d]
    if len(cards) != len(set(cards)) or set(cards) & set(state["set_aside"]):
        problems.append("a card appears twice")
    if len(cards) != players * int(state["hand_size"]):
        problems.append("cards were lost or added")
    turn = int(state["turn"])
    if {len(d) for d in drafted} != {turn - 1}:
        problems.append("drafted piles are not all of size turn-1")
    if {len(h) for h in hands} != {int(state["hand_size"]) - turn + 1}:
        problems.append("hands are not all the same size")
    for s, p in enumerate(pending):
        if p is not None and p not in hands[s]:
            problems.append(f"seat {s} selected a card it does not hold")
    return problems


def redeal_hidden(state: State, seat: int | None, seed: int) -> State:
    """Resample what ``seat`` cannot see: other hands, the set-aside cards (until the
    draft has ended: they are shown then), other seats' selections and the random
    state."""
    rng = new_rng(seed)
    others = [s for s in range(int(state["players"])) if s != seat]
    aside = [] if finished(state) else list(state["set_aside"])
    pool = [z for s in others for z in state["hands"][s]] + aside
    rng, pool = shuffled(rng, pool)
    hands = [list(h) for h in state["hands"]]
    pending = list(state["pending"])
    for s in others:
        size = len(hands[s])
        hands[s], pool = sorted(pool[:size]), pool[size:]
        if pending[s] is not None:
            rng, i = randbelow(rng, size)
            pending[s] = hands[s][i]
    if aside:
        state = {**state, "set_aside": sorted(pool)}
    return {**state, "hands": hands, "pending": pending, "rng": rng}


def situation(state: State, seat: int) -> JSON:
    """What a seat's selection rests on: its hand and its own selection in this round.

    Every seat selects at once ("each player privately selects a card ... once all
    players have made their selection"), so another seat's selection changes nothing a
    seat chooses from; the reveal and the pass do (the round moves on, the hand changes).

    >>> state = setup(2, {"deal": [[1, 8], [11, 17]]}, 0)
    >>> after, _ = GAME.apply(state, 1, {"type": "draft", "card": 11})
    >>> situation(after, 0) == situation(state, 0), situation(after, 1) == situation(state, 1)
    (True, False)
    """
    return {
        "turn": state["turn"],
        "hand": state["hands"][seat],
        "selection": state["pending"][seat],
    }


def deck() -> list[dict[str, Any]]:
    """Every card of the full 103-card deck with the facts scoring uses."""
    return [deck_card(z) for z in range(1, MAX_Z + 1)]


WIRE = Wire(
    options=wire.Options,
    moves=ACTIONS.shapes,
    view=wire.View,
    scores=wire.Scores,
    events=(
        wire.CardSelectedEvent,
        wire.CardsRevealedEvent,
        wire.WordSpelledEvent,
        wire.IonsPairedEvent,
        wire.HandsPassedEvent,
        wire.GameOverEvent,
    ),
    card=wire.DeckCard,
    resources={"words": wire.WordList},
    example={
        "players": 2,
        "options": {"deal": [[1, 8, 26], [6, 11, 17]], "words": ["bacon", "scone"]},
        "seed": 1,
    },
)


GAME = GameRules(
    info=INFO,
    wire=WIRE,
    setup=setup,
    to_act=to_act,
    view=view,
    scores=scores,
    outcome=outcome,
    **ACTIONS.functions(),
    bots={"greedy": greedy_bot},
    invariants=invariants,
    redeal_hidden=redeal_hidden,
    dealt=hands_dealt,
    deck=deck,
    resources={"words": word_list},
    situation=situation,
)
