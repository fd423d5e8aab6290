"""Rounds with the regular cards: initiation, propagation and reactivation.

Each move type in one section: its shape, its legality (``verify_*``), the moves of
its type worth trying now (one per choice of card faces) and its effect, with the
events it emits.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from rules.core import Event, Move, RuleViolation, State
from rules.shapes import Count, F, Seat
from rules.text import plural
from rules.zones import emitted

from .. import seed
from ..cards import AIBN_KEY, INITIATOR, TEMPO, face
from ..chains import CAPPED, GROWING, TERMINATED, current_monomer, values
from ..layout import DISCARD, LAYOUT, TABLE
from ..shown import card_json
from ..wire import (
    INITIATOR_KEY,
    LIST_MAX,
    ROUND_CARDS,
    Card,
    CardNo,
    Cards,
    Chain,
    ChainId,
    Explanation,
    InitiatorKey,
)
from . import checks, table
from .faces import face_key, firsts, hand_by_face, sequences, without
from .turn import play_step


# ---------------------------------------------------------------- initiation -------
class InitiateMove(TypedDict):
    """Initiation: an initiator and value-1 monomers start one chain (H2O2/Fe2+) or two
    (AIBN, one monomer each)."""

    type: Literal["initiate"]
    card: Annotated[CardNo, F("The initiator card (H2O2/Fe2+ or AIBN).")]
    monomers: Annotated[
        list[Annotated[list[CardNo], F(max_items=LIST_MAX)]],
        F(
            "One list of monomer card ids per chain started, in order: the first of each "
            "list has value 1; a single-radical start may add a second.",
            min_items=1,
            max_items=2,
            example=[[1, 5]],
        ),
    ]


class InitiationEvent(TypedDict):
    """An initiator's radicals started one chain or two."""

    type: Literal["initiation"]
    seat: Annotated[Seat, F("The seat that started them.")]
    initiator: Annotated[InitiatorKey, F("The initiator played.")]
    card: Annotated[Card, F("The initiator card.")]
    radicals: Annotated[int, F("Radicals it forms.", minimum=1, maximum=2)]
    chains: Annotated[list[Chain], F("The chains started.")]
    explanation: Explanation


def verify_initiate(state: State, seat: int, move: Move) -> None:
    card, lists = move["card"], move["monomers"]
    checks.in_hand(state, seat, [card, *[c for cs in lists for c in cs]], seed.INITIATION)
    f = checks.of_kind(card, INITIATOR, "an initiator", seed.INITIATION)
    checks.count(1 + sum(len(cs) for cs in lists), seed.INITIATION)
    allowed = {1} if f.radicals == 1 else {2}
    if f.radicals == 2 and state["options"]["aibn_single_start"]:
        allowed = {1, 2}
    if len(lists) not in allowed:
        radicals = "one radical: start one chain" if f.radicals == 1 else "two radicals"
        raise RuleViolation(
            "radical_count",
            f"{f.name} gives {radicals}"
            + ("" if f.radicals == 1 else ": start two chains, one value-1 monomer each")
            + f"; you named {len(lists)} chain(s).",
            rule=seed.AIBN if f.radicals == 2 else seed.INITIATION,
            radicals=f.radicals,
        )
    mode = state["options"]["propagation"]
    for cards in lists:
        checks.need_monomer(cards, "Each chain an initiator starts", seed.INITIATION)
        checks.monomers(cards, monomer=None, tail=[], mode=mode, rule=seed.VALUE_ONE, start=True)


def initiations(state: State, seat: int) -> list[Move]:
    opts = state["options"]
    mode = opts["propagation"]
    pool = hand_by_face(state, seat)
    moves: list[Move] = []
    for (_kind, _v, key), card in firsts(pool, INITIATOR):
        rest = without(pool, card)
        if key == AIBN_KEY:
            ones = sequences(rest, None, [], mode, [1], start=True)
            for a in ones:  # ordered: the first chain holds the AIBN card
                for b in ones:
                    if a[0] != b[0]:
                        moves.append({"type": "initiate", "card": card, "monomers": [a, b]})
                    elif len(pool.get(face_key(a[0]), [])) >= 2:
                        twin = pool[face_key(a[0])][1]
                        moves.append({"type": "initiate", "card": card, "monomers": [a, [twin]]})
            if not opts["aibn_single_start"]:
                continue
        for seq in sequences(rest, None, [], mode, [1, 2], start=True):
            moves.append({"type": "initiate", "card": card, "monomers": [seq]})
    return moves


def initiate(state: State, seat: int, move: Move, events: list[Event]) -> None:
    card, lists = move["card"], move["monomers"]
    initiator = face(card)
    assert initiator.fragment is not None
    table.to_table(state, seat, [card, *[c for cs in lists for c in cs]])
    started = []
    for i, cards in enumerate(lists):
        chain = table.new_chain(
            state, seat, ([card] if i == 0 else []) + list(cards), initiator.fragment
        )
        table.put(state, chain)
        started.append(chain)
    names = " and ".join(
        f"chain {c['id']} ({table.name(current_monomer(c))}, "
        f"{plural(table.units_of(state, c), 'unit')})"
        for c in started
    )
    if initiator.radicals == 1:
        how = f"{initiator.name} forms one radical ({initiator.fragment}*), which adds to a monomer"
    else:
        how = f"{initiator.name} decomposes into two radicals ({initiator.fragment}*) and N2"
        how += (
            "; each adds to a monomer"
            if len(lists) == 2
            else "; one is lost before it meets a monomer (initiator efficiency below 1)"
        )
    event: InitiationEvent = {
        "type": "initiation",
        "seat": seat,
        "initiator": INITIATOR_KEY[initiator.key],
        "card": card_json(card),
        "radicals": initiator.radicals,
        "chains": [table.shown(state, c) for c in started],
        "explanation": f"Initiation: {how}. Started: {names}.",
    }
    events.append(emitted(event))


INITIATE = play_step(InitiateMove, verify_initiate, initiate, initiations)


# ---------------------------------------------------------------- propagation ------
class PropagateMove(TypedDict):
    """Propagation: add 1-3 monomer cards to one of your growing chains."""

    type: Literal["propagate"]
    chain: Annotated[ChainId, F("One of your growing chains.")]
    cards: Annotated[
        Cards, F("Monomer cards in the order they are added" + ROUND_CARDS, example=[6, 9])
    ]


class PropagationEvent(TypedDict):
    """Monomers were added to a growing chain."""

    type: Literal["propagation"]
    seat: Annotated[Seat, F("The seat that grew it.")]
    chain: Annotated[ChainId, F("The chain grown.")]
    cards: Annotated[list[Card], F("The monomer cards added, in order.")]
    units_added: Annotated[Count, F("Monomers added.")]
    units: Annotated[Count, F("Monomers in the chain now.")]
    explanation: Explanation


def verify_propagate(state: State, seat: int, move: Move) -> None:
    chain = checks.chain(state, move["chain"])
    checks.own(chain, seat, seed.GROW_OWN, "you grow only your own chains (a joker can take one)")
    checks.growing(chain)
    cards = move["cards"]
    checks.need_monomer(cards, "Propagation", seed.PROPAGATION)
    checks.count(len(cards), seed.THREE_CARDS)
    checks.in_hand(state, seat, cards, seed.PROPAGATION)
    checks.monomers(
        cards,
        monomer=current_monomer(chain),
        tail=values(chain),
        mode=state["options"]["propagation"],
        rule=seed.PROPAGATION,
    )


def propagations(state: State, seat: int) -> list[Move]:
    mode = state["options"]["propagation"]
    pool = hand_by_face(state, seat)
    return [
        {"type": "propagate", "chain": chain["id"], "cards": seq}
        for chain in state["chains"]
        if chain["state"] == GROWING and chain["owner"] == seat
        for seq in sequences(pool, current_monomer(chain), values(chain), mode, [1, 2, 3])
    ]


def propagate(state: State, seat: int, move: Move, events: list[Event]) -> None:
    chain = table.get(state, move["chain"])
    cards = move["cards"]
    before = table.units_of(state, chain)
    table.to_table(state, seat, cards)
    chain = table.grow(chain, cards)
    table.put(state, chain)
    after = table.units_of(state, chain)
    event: PropagationEvent = {
        "type": "propagation",
        "seat": seat,
        "chain": chain["id"],
        "cards": [card_json(c) for c in cards],
        "units_added": after - before,
        "units": after,
        "explanation": f"Propagation: the radical end of chain {chain['id']} adds "
        f"{plural(after - before, table.name(current_monomer(chain)) + ' unit')} (values "
        f"{table.values_text(cards)}); the chain now has {plural(after, 'unit')}.",
    }
    events.append(emitted(event))


PROPAGATE = play_step(PropagateMove, verify_propagate, propagate, propagations)


# ---------------------------------------------------------------- reactivation -----
class ReactivateMove(TypedDict):
    """Reactivate one of your TEMPO-capped chains (TEMPO goes to the discard stack) and
    add 0-3 monomer cards to it."""

    type: Literal["reactivate"]
    chain: Annotated[ChainId, F("One of your capped chains.")]
    cards: NotRequired[
        Annotated[
            Cards,
            F("Monomer cards added after reactivation (may be empty).", default=[], example=[]),
        ]
    ]


class ReactivationEvent(TypedDict):
    """TEMPO left a capped chain, which is a growing chain again (with the monomers
    added, if any)."""

    type: Literal["reactivation"]
    seat: Annotated[Seat, F("The seat that reactivated it.")]
    chain: Annotated[ChainId, F("The chain reactivated.")]
    card: Annotated[Card, F("The TEMPO card.")]
    cards: Annotated[list[Card], F("The monomer cards added, in order (may be empty).")]
    units_added: Annotated[Count, F("Monomers added.")]
    units: Annotated[Count, F("Monomers in the chain now.")]
    explanation: Explanation


def verify_reactivate(state: State, seat: int, move: Move) -> None:
    chain = checks.chain(state, move["chain"])
    checks.own(chain, seat, seed.TEMPO, "only its owner reactivates a capped chain")
    if chain["state"] != CAPPED:
        if chain["state"] == TERMINATED:
            checks.growing(chain)
        raise RuleViolation(
            "chain_not_capped",
            f"Chain {chain['id']} is growing, not capped: there is no TEMPO to remove.",
            rule=seed.TEMPO,
            chain=chain["id"],
        )
    cards = move["cards"]
    checks.count(len(cards), seed.THREE_CARDS)
    checks.in_hand(state, seat, cards, seed.PROPAGATION)
    if cards:
        checks.monomers(
            cards,
            monomer=current_monomer(chain),
            tail=values(chain),
            mode=state["options"]["propagation"],
            rule=seed.PROPAGATION,
        )


def reactivations(state: State, seat: int) -> list[Move]:
    mode = state["options"]["propagation"]
    pool = hand_by_face(state, seat)
    moves: list[Move] = []
    for chain in state["chains"]:
        if chain["state"] == CAPPED and chain["owner"] == seat:
            moves.append({"type": "reactivate", "chain": chain["id"], "cards": []})
            for seq in sequences(pool, current_monomer(chain), values(chain), mode, [1, 2, 3]):
                moves.append({"type": "reactivate", "chain": chain["id"], "cards": seq})
    return moves


def reactivate(state: State, seat: int, move: Move, events: list[Event]) -> None:
    chain = table.get(state, move["chain"])
    cards = move["cards"]
    tempo = next(c for c in reversed(chain["cards"]) if face(c).kind == TEMPO)
    zones = LAYOUT.move(state["zones"], TABLE, DISCARD, [tempo])
    state["zones"] = zones
    ends = list(chain["ends"])
    ends.remove(table.tempo_group())
    chain = {
        **chain,
        "state": GROWING,
        "ends": ends,
        "cards": [c for c in chain["cards"] if c != tempo],
    }
    before = table.units_of(state, chain)
    if cards:
        table.to_table(state, seat, cards)
        chain = table.grow(chain, cards)
    table.put(state, chain)
    after = table.units_of(state, chain)
    grown = (
        f" and adds {plural(after - before, table.name(current_monomer(chain)) + ' unit')} "
        f"(values {table.values_text(cards)}); it now has {plural(after, 'unit')}"
        if cards
        else f"; it has {plural(after, 'unit')}"
    )
    event: ReactivationEvent = {
        "type": "reactivation",
        "seat": seat,
        "chain": chain["id"],
        "card": card_json(tempo),
        "cards": [card_json(c) for c in cards],
        "units_added": after - before,
        "units": after,
        "explanation": f"Reactivation: the C-O bond of dormant chain {chain['id']} "
        "breaks, TEMPO* is released (to the discard stack) and the chain is a growing "
        f"radical again{grown}.",
    }
    events.append(emitted(event))


REACTIVATE = play_step(ReactivateMove, verify_reactivate, reactivate, reactivations)

EVENTS = (InitiationEvent, PropagationEvent, ReactivationEvent)
