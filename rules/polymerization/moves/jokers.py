"""Rounds with a joker: TEMPO capping, chain transfer, copolymerisation and termination.

Each move type in one section: its shape, its legality (``verify_*``), the moves of
its type worth trying now (one per choice of card faces) and its effect, with the
events it emits. A joker played on an opponent's growing chain takes it
(``chain_taken``).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from rules.core import Event, Move, RuleViolation, State
from rules.shapes import F, Seat
from rules.text import plural
from rules.zones import emitted

from .. import seed
from ..cards import (
    COMBINATION,
    COPOLYMER,
    CTA,
    HYDROGEN,
    MECHANISMS,
    MONOMERS,
    TEMPO,
    TERMINATION,
    UNSATURATED,
    face,
)
from ..chains import CAPPED, GROWING, TERMINATED, Chain, current_monomer, values
from ..shown import card_json
from ..wire import (
    LIST_MAX,
    MONOMER_KEY,
    ROUND_CARDS,
    Card,
    CardNo,
    Cards,
    ChainId,
    Explanation,
    Mechanism,
    MonomerKey,
)
from ..wire import Chain as ChainView
from . import checks, table
from .faces import firsts, hand_by_face, sequences, without
from .turn import play_step


# ---------------------------------------------------------------- taking a chain ---
class ChainTakenEvent(TypedDict):
    """A joker played on an opponent's growing chain took it to the player's side."""

    type: Literal["chain_taken"]
    seat: Annotated[Seat, F("The seat taking it.")]
    chain: Annotated[ChainId, F("The chain taken.")]
    from_seat: Annotated[Seat, F("The seat it belonged to.")]
    joker: Annotated[str, F("The joker that took it, in words.", example="a CTA")]
    units: Annotated[int, F("Monomers in the chain taken.", minimum=0)]
    explanation: Explanation


def take(state: State, seat: int, chain: Chain, joker: str, events: list[Event]) -> Chain:
    """``chain`` moved to ``seat``'s side of the table, with a ``chain_taken`` event."""
    if chain["owner"] == seat:
        return chain
    event: ChainTakenEvent = {
        "type": "chain_taken",
        "seat": seat,
        "chain": chain["id"],
        "from_seat": chain["owner"],
        "joker": joker,
        "units": table.units_of(state, chain),
        "explanation": f"Seat {seat} plays {joker} on seat {chain['owner']}'s growing "
        f"chain {chain['id']} and takes it to its side of the table.",
    }
    events.append(emitted(event))
    return {**chain, "owner": seat}


def _growing(state: State) -> list[Chain]:
    return [c for c in state["chains"] if c["state"] == GROWING]


# ---------------------------------------------------------------- TEMPO (SFRP) -----
class CapMove(TypedDict):
    """SFRP: cap one of your growing chains with TEMPO (dormant: safe from jokers)."""

    type: Literal["cap"]
    card: Annotated[CardNo, F("A TEMPO card.")]
    chain: Annotated[ChainId, F("One of your growing chains.")]


class TempoCappingEvent(TypedDict):
    """TEMPO capped a growing chain: it is dormant until reactivated."""

    type: Literal["tempo_capping"]
    seat: Annotated[Seat, F("The seat that capped it.")]
    chain: Annotated[ChainId, F("The chain capped.")]
    card: Annotated[Card, F("The TEMPO card.")]
    units: Annotated[int, F("Monomers in the chain.", minimum=0)]
    explanation: Explanation


def verify_cap(state: State, seat: int, move: Move) -> None:
    checks.in_hand(state, seat, [move["card"]], seed.TEMPO)
    checks.of_kind(move["card"], TEMPO, "TEMPO (the SFRP card)", seed.TEMPO)
    chain = checks.chain(state, move["chain"])
    checks.own(chain, seat, seed.TEMPO, "TEMPO is only to be used on your own chains")
    if chain["state"] == CAPPED:
        raise RuleViolation(
            "chain_capped",
            f"Chain {chain['id']} is already capped with TEMPO.",
            rule=seed.TEMPO,
            chain=chain["id"],
        )
    checks.growing(chain)


def cappings(state: State, seat: int) -> list[Move]:
    mine = [c for c in _growing(state) if c["owner"] == seat]
    return [
        {"type": "cap", "card": card, "chain": c["id"]}
        for _face, card in firsts(hand_by_face(state, seat), TEMPO)
        for c in mine
    ]


def cap(state: State, seat: int, move: Move, events: list[Event]) -> None:
    card = move["card"]
    chain = table.get(state, move["chain"])
    table.to_table(state, seat, [card])
    chain = {
        **chain,
        "state": CAPPED,
        "cards": [*chain["cards"], card],
        "ends": [*chain["ends"], table.tempo_group()],
    }
    table.put(state, chain)
    event: TempoCappingEvent = {
        "type": "tempo_capping",
        "seat": seat,
        "chain": chain["id"],
        "card": card_json(card),
        "units": table.units_of(state, chain),
        "explanation": f"SFRP: the stable radical TEMPO* caps the radical end of chain "
        f"{chain['id']} (an alkoxyamine, C-O-N). The chain is dormant: it cannot grow "
        "or be taken until you reactivate it.",
    }
    events.append(emitted(event))


CAP = play_step(CapMove, verify_cap, cap, cappings)


# ---------------------------------------------------------------- chain transfer ---
class TransferMove(TypedDict):
    """Chain transfer: a CTA terminates a growing chain (yours, or an opponent's which you
    take) and starts a new chain of yours with a value-1 monomer."""

    type: Literal["transfer"]
    card: Annotated[CardNo, F("A CTA card.")]
    chain: Annotated[ChainId, F("The growing chain to terminate.")]
    monomers: Annotated[
        Cards,
        F(
            "The new chain's monomers: a value-1 card, then optionally one more" + ROUND_CARDS,
            example=[21],
        ),
    ]


class ChainTransferEvent(TypedDict):
    """A CTA terminated a chain (set aside for the player) and started a new one."""

    type: Literal["chain_transfer"]
    seat: Annotated[Seat, F("The seat that played the CTA.")]
    card: Annotated[Card, F("The CTA card.")]
    terminated: Annotated[ChainView, F("The chain terminated, now set aside.")]
    started: Annotated[ChainView, F("The new chain the thiyl radical started.")]
    explanation: Explanation


def verify_transfer(state: State, seat: int, move: Move) -> None:
    card, monomers = move["card"], move["monomers"]
    checks.in_hand(state, seat, [card, *monomers], seed.CTA)
    checks.of_kind(card, CTA, "a chain transfer agent (CTA)", seed.CTA)
    chain = checks.chain(state, move["chain"])
    checks.growing(chain, stealing=chain["owner"] != seat)
    if not monomers:
        raise RuleViolation(
            "value_one_needed",
            "A CTA starts a new chain in the same round: add a monomer of value 1.",
            rule=seed.CTA,
        )
    checks.count(1 + len(monomers), seed.CTA)
    checks.monomers(
        monomers,
        monomer=None,
        tail=[],
        mode=state["options"]["propagation"],
        rule=seed.CTA,
        start=True,
    )


def transfers(state: State, seat: int) -> list[Move]:
    mode = state["options"]["propagation"]
    pool = hand_by_face(state, seat)
    moves: list[Move] = []
    for _face, card in firsts(pool, CTA):
        starts = sequences(without(pool, card), None, [], mode, [1, 2], start=True)
        for chain in _growing(state):
            moves += [
                {"type": "transfer", "card": card, "chain": chain["id"], "monomers": s}
                for s in starts
            ]
    return moves


def transfer(state: State, seat: int, move: Move, events: list[Event]) -> None:
    card, monomers = move["card"], move["monomers"]
    cta = face(card)
    assert cta.fragment is not None
    old = take(state, seat, table.get(state, move["chain"]), "a CTA", events)
    old = {**old, "state": TERMINATED, "ends": [*old["ends"], HYDROGEN], "mechanism": "transfer"}
    table.put(state, old)
    table.to_set_aside(state, seat, old)
    table.to_table(state, seat, [card, *monomers])
    new = table.new_chain(state, seat, [card, *monomers], cta.fragment)
    table.put(state, new)
    event: ChainTransferEvent = {
        "type": "chain_transfer",
        "seat": seat,
        "card": card_json(card),
        "terminated": table.shown(state, old),
        "started": table.shown(state, new),
        "explanation": f"Chain transfer: the radical end of chain {old['id']} takes the "
        f"hydrogen atom of the thiol (S-H): chain {old['id']} is terminated with "
        f"{plural(table.units_of(state, old), 'unit')} and set aside for seat {seat}. "
        f"The thiyl radical ({cta.fragment}*) adds to "
        f"{table.name(current_monomer(new))}: chain {new['id']} starts without an initiator.",
    }
    events.append(emitted(event))


TRANSFER = play_step(TransferMove, verify_transfer, transfer, transfers)


# ---------------------------------------------------------------- copolymerisation -
class CopolymerizeMove(TypedDict):
    """Copolymerisation: the copolymer card and 1-2 monomers of another kind on a growing
    chain (an opponent's chain is taken)."""

    type: Literal["copolymerize"]
    card: Annotated[CardNo, F("The copolymer card.")]
    chain: Annotated[ChainId, F("The growing chain whose monomer changes.")]
    monomers: Annotated[
        Cards,
        F("Monomers of the new kind, following the chain's values" + ROUND_CARDS, example=[26]),
    ]


class CopolymerizationEvent(TypedDict):
    """A growing chain now grows with another monomer."""

    type: Literal["copolymerization"]
    seat: Annotated[Seat, F("The seat that played the copolymer card.")]
    chain: Annotated[ChainId, F("The chain whose monomer changed.")]
    card: Annotated[Card, F("The copolymer card.")]
    cards: Annotated[list[Card], F("The monomer cards of the new kind, in order.")]
    from_monomer: Annotated[MonomerKey, F("The monomer it grew with before.")]
    to_monomer: Annotated[MonomerKey, F("The monomer it grows with now.")]
    units: Annotated[int, F("Monomers in the chain now.", minimum=0)]
    explanation: Explanation


def verify_copolymerize(state: State, seat: int, move: Move) -> None:
    card, monomers = move["card"], move["monomers"]
    checks.in_hand(state, seat, [card, *monomers], seed.COPOLYMER)
    checks.of_kind(card, COPOLYMER, "the copolymer card", seed.COPOLYMER)
    chain = checks.chain(state, move["chain"])
    checks.growing(chain, stealing=chain["owner"] != seat)
    checks.need_monomer(monomers, "The copolymer card", seed.COPOLYMER)
    checks.count(1 + len(monomers), seed.THREE_CARDS)
    before = current_monomer(chain)
    key = checks.monomers(
        monomers,
        monomer=None,
        tail=values(chain),
        mode=state["options"]["propagation"],
        rule=seed.COPOLYMER,
    )
    if key == before:
        raise RuleViolation(
            "same_monomer",
            f"Chain {chain['id']} already grows with {MONOMERS[key].name}; the copolymer "
            "card changes to another monomer.",
            rule=seed.COPOLYMER,
            chain=chain["id"],
            monomer=key,
        )


def copolymerizations(state: State, seat: int) -> list[Move]:
    mode = state["options"]["propagation"]
    pool = hand_by_face(state, seat)
    moves: list[Move] = []
    for _face, card in firsts(pool, COPOLYMER):
        for chain in _growing(state):
            now = current_monomer(chain)
            for seq in sequences(without(pool, card), None, values(chain), mode, [1, 2]):
                if face(seq[0]).key != now:
                    moves.append(
                        {
                            "type": "copolymerize",
                            "card": card,
                            "chain": chain["id"],
                            "monomers": seq,
                        }
                    )
    return moves


def copolymerize(state: State, seat: int, move: Move, events: list[Event]) -> None:
    card, monomers = move["card"], move["monomers"]
    chain = table.get(state, move["chain"])
    before = current_monomer(chain)
    chain = take(state, seat, chain, "the copolymer card", events)
    table.to_table(state, seat, [card, *monomers])
    chain = table.grow(chain, [card, *monomers])
    table.put(state, chain)
    after = current_monomer(chain)
    event: CopolymerizationEvent = {
        "type": "copolymerization",
        "seat": seat,
        "chain": chain["id"],
        "card": card_json(card),
        "cards": [card_json(c) for c in monomers],
        "from_monomer": MONOMER_KEY[before],
        "to_monomer": MONOMER_KEY[after],
        "units": table.units_of(state, chain),
        "explanation": f"Copolymerisation: the {table.name(before)} radical end of chain "
        f"{chain['id']} adds {table.name(after)} (cross-propagation); the chain now grows "
        f"with {table.name(after)} and has {plural(table.units_of(state, chain), 'unit')}.",
    }
    events.append(emitted(event))


COPOLYMERIZE = play_step(CopolymerizeMove, verify_copolymerize, copolymerize, copolymerizations)


# ---------------------------------------------------------------- termination ------
class TerminateMove(TypedDict):
    """Termination: a termination card on two growing chains, which become yours and are
    set aside as scored: combination joins them into one, disproportionation leaves two."""

    type: Literal["terminate"]
    card: Annotated[CardNo, F("A termination card.")]
    chains: Annotated[
        list[ChainId], F("The two growing chains.", max_items=LIST_MAX, example=[1, 2])
    ]
    mechanism: Annotated[
        Mechanism,
        F(
            "As printed on the card, unless the option termination_mechanism is 'either'.",
            example="combination",
        ),
    ]


class TerminationEvent(TypedDict):
    """Two growing chains were terminated and set aside for the player."""

    type: Literal["termination"]
    seat: Annotated[Seat, F("The seat that played the termination card.")]
    mechanism: Annotated[Mechanism, F("How they were terminated.")]
    card: Annotated[Card, F("The termination card.")]
    joined: Annotated[
        list[ChainId],
        F(
            "Combination: the two chain ids joined (the first keeps its id); empty for "
            "disproportionation."
        ),
    ]
    chains: Annotated[list[ChainView], F("The dead chains: one (combination) or two.")]
    explanation: Explanation


def verify_terminate(state: State, seat: int, move: Move) -> None:
    card = move["card"]
    checks.in_hand(state, seat, [card], seed.TWO_CHAINS)
    f = checks.of_kind(card, TERMINATION, "a termination card", seed.TERMINATION_KINDS)
    if state["options"]["termination_mechanism"] == "printed" and move["mechanism"] != f.mechanism:
        raise RuleViolation(
            "wrong_mechanism",
            f"{checks.describe(card)} terminates by {f.mechanism}, not by {move['mechanism']}.",
            rule=seed.TERMINATION_KINDS,
            card=card,
            mechanism=f.mechanism,
        )
    ids = move["chains"]
    if len(ids) != 2:
        raise RuleViolation(
            "two_chains_needed",
            f"Termination takes exactly two growing chains; you named {len(ids)}.",
            rule=seed.TWO_CHAINS,
        )
    if ids[0] == ids[1]:
        raise RuleViolation(
            "two_chains_needed",
            f"Termination takes two different chains; you named chain {ids[0]} twice.",
            rule=seed.TWO_CHAINS,
        )
    chains = [checks.chain(state, i) for i in ids]
    for chain in chains:
        checks.growing(chain, stealing=chain["owner"] != seat)
    scope = state["options"]["termination_scope"]
    own = [c for c in chains if c["owner"] == seat]
    if scope == "own" and len(own) < 2:
        other = next(c for c in chains if c["owner"] != seat)
        checks.own(
            other, seat, seed.TWO_CHAINS, "with termination_scope 'own' both chains are yours"
        )
    if scope == "mine_and_any" and not own:
        raise RuleViolation(
            "own_chain_needed",
            "A termination joins one of your own growing chains with a second chain; "
            f"chains {ids[0]} and {ids[1]} are both opponents'.",
            rule=seed.TWO_CHAINS,
        )


def terminations(state: State, seat: int) -> list[Move]:
    printed = state["options"]["termination_mechanism"] == "printed"
    growing = _growing(state)
    moves: list[Move] = []
    for (_kind, _v, key), card in firsts(hand_by_face(state, seat), TERMINATION):
        mechanisms = [key] if printed else list(MECHANISMS)
        # both orders: the first chain keeps its id (combination) or takes the H atom
        # (disproportionation)
        for a in growing:
            for b in growing:
                for mechanism in mechanisms:
                    if a["id"] != b["id"]:
                        moves.append(
                            {
                                "type": "terminate",
                                "card": card,
                                "chains": [a["id"], b["id"]],
                                "mechanism": mechanism,
                            }
                        )
    return moves


def terminate(state: State, seat: int, move: Move, events: list[Event]) -> None:
    card, mechanism = move["card"], move["mechanism"]
    a = take(state, seat, table.get(state, move["chains"][0]), "a termination card", events)
    b = take(state, seat, table.get(state, move["chains"][1]), "a termination card", events)
    sizes = (
        f"chain {a['id']} ({plural(table.units_of(state, a), 'unit')}) and chain {b['id']} "
        f"({plural(table.units_of(state, b), 'unit')})"
    )
    if mechanism == COMBINATION:
        joined = {
            **a,
            "state": TERMINATED,
            "cards": [*a["cards"], card, *reversed(b["cards"])],
            "ends": [a["ends"][0], b["ends"][0]],
            "mechanism": COMBINATION,
        }
        state["chains"] = [c for c in state["chains"] if c["id"] != b["id"]]
        table.put(state, joined)
        table.to_set_aside(state, seat, joined, extra=[card])
        done = [joined]
        text = (
            f"Termination by combination: the radical ends of {sizes} couple into one dead "
            f"chain {joined['id']} of {plural(table.units_of(state, joined), 'unit')}, with an "
            "initiator fragment at each end."
        )
    else:
        a = {
            **a,
            "state": TERMINATED,
            "cards": [*a["cards"], card],
            "ends": [*a["ends"], HYDROGEN],
            "mechanism": mechanism,
        }
        b = {**b, "state": TERMINATED, "ends": [*b["ends"], UNSATURATED], "mechanism": mechanism}
        table.put(state, a)
        table.put(state, b)
        table.to_set_aside(state, seat, a, extra=[card])
        table.to_set_aside(state, seat, b)
        done = [a, b]
        text = (
            f"Termination by disproportionation: the radical end of chain {a['id']} takes a "
            f"hydrogen atom from chain {b['id']}, which is left with a C=C double bond: "
            f"{sizes} are two dead chains."
        )
    event: TerminationEvent = {
        "type": "termination",
        "seat": seat,
        "mechanism": mechanism,
        "card": card_json(card),
        "joined": [a["id"], b["id"]] if mechanism == COMBINATION else [],
        "chains": [table.shown(state, c) for c in done],
        "explanation": text + f" Terminated chains are set aside and score for seat {seat}.",
    }
    events.append(emitted(event))


TERMINATE = play_step(TerminateMove, verify_terminate, terminate, terminations)

KINDS = (CAP, TRANSFER, COPOLYMERIZE, TERMINATE)
"""The joker rounds, in the order of their types' enumeration."""

EVENTS = (
    ChainTakenEvent,
    TempoCappingEvent,
    ChainTransferEvent,
    CopolymerizationEvent,
    TerminationEvent,
)
