"""What a verified move does to the table, told in polymer chemistry's words.

Each event carries an ``explanation`` for a learner and the facts a front end needs to
animate it (the chains after the move, the cards that moved, who took what).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.core import Event, Move, State, left_of

from .cards import (
    COMBINATION,
    HYDROGEN,
    MONOMERS,
    TEMPO,
    TEMPO_FACE,
    UNSATURATED,
    card_json,
    face,
)
from .chains import CAPPED, GROWING, TERMINATED, Chain, chain_view, current_monomer, units
from .layout import DISCARD, LAYOUT, STACK, TABLE, hand, set_aside
from .moves import parse_move, verify
from .scoring import outcome, seat_breakdown


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    """The new state and the events of ``seat`` making ``move`` (never mutates ``state``)."""
    move = parse_move(move)
    verify(state, seat, move)
    new: State = {**state, "chains": list(state["chains"])}
    events: list[Event] = []
    if move["type"] == "draw":
        _draw(new, seat, events)
        return new, events
    EFFECTS[move["type"]](new, seat, move, events)
    _end_turn(new, seat, events)
    return new, events


# ---------------------------------------------------------------- helpers ----------
def _view(state: State, chain: Mapping[str, Any]) -> dict[str, Any]:
    opts = state["options"]
    return chain_view(chain, opts["units_per_card"], opts["propagation"])


def _units(state: State, chain: Mapping[str, Any]) -> int:
    return units(chain, state["options"]["units_per_card"])


def _put(state: State, chain: Chain) -> None:
    chains = state["chains"]
    for i, old in enumerate(chains):
        if old["id"] == chain["id"]:
            chains[i] = chain
            return
    chains.append(chain)


def _get(state: State, chain_id: int) -> Chain:
    return dict(next(c for c in state["chains"] if c["id"] == chain_id))


def _new_chain(state: State, seat: int, cards: list[int], fragment: str) -> Chain:
    chain_id = int(state["next_chain"])
    state["next_chain"] = chain_id + 1
    return {
        "id": chain_id,
        "owner": seat,
        "state": GROWING,
        "cards": cards,
        "ends": [fragment],
        "mechanism": None,
    }


def _to_table(state: State, seat: int, cards: Sequence[int]) -> None:
    state["zones"] = LAYOUT.move(state["zones"], hand(seat), TABLE, list(cards))


def _set_aside(state: State, seat: int, chain: Chain, extra: Sequence[int] = ()) -> None:
    """Move a terminated chain's cards from the table (and ``extra`` from the hand) to
    ``seat``'s set-aside pile."""
    on_table = [c for c in chain["cards"] if c not in extra]
    zones = LAYOUT.move(state["zones"], TABLE, set_aside(seat), on_table)
    if extra:
        zones = LAYOUT.move(zones, hand(seat), set_aside(seat), list(extra))
    state["zones"] = zones


def _name(key: str) -> str:
    return MONOMERS[key].name.lower()


def _values(cards: Sequence[int]) -> str:
    return ", ".join(str(face(c).value) for c in cards)


def _take(state: State, seat: int, chain: Chain, joker: str, events: list[Event]) -> Chain:
    """``chain`` moved to ``seat``'s side of the table, with a ``chain_taken`` event."""
    if chain["owner"] == seat:
        return chain
    events.append(
        {
            "type": "chain_taken",
            "seat": seat,
            "chain": chain["id"],
            "from_seat": chain["owner"],
            "joker": joker,
            "units": _units(state, chain),
            "explanation": f"Seat {seat} plays {joker} on seat {chain['owner']}'s growing "
            f"chain {chain['id']} and takes it to its side of the table.",
        }
    )
    return {**chain, "owner": seat}


# ---------------------------------------------------------------- the turn ---------
def _draw(state: State, seat: int, events: list[Event]) -> None:
    players = int(state["players"])
    zones, drawn = LAYOUT.draw(state["zones"], STACK, hand(seat), 1)
    state["zones"] = zones
    state["phase"] = "play"
    left = len(zones["stack"])
    events.append(
        LAYOUT.moved(
            {"type": "card_drawn", "seat": seat, "stack_count": left},
            drawn,
            STACK,
            hand(seat),
            players,
            card_json,
        )
    )
    if not left:
        then = (
            "from now on each seat plays a round or discards without drawing"
            if state["options"]["empty_stack"] == "play_on"
            else "the game ends after this turn"
        )
        events.append(
            {
                "type": "stack_empty",
                "seat": seat,
                "explanation": f"Seat {seat} took the last card of the stack: {then}.",
            }
        )


def _discard(state: State, seat: int, move: Move, events: list[Event]) -> None:
    players = int(state["players"])
    card = move["card"]
    state["zones"] = LAYOUT.move(state["zones"], hand(seat), DISCARD, [card])
    events.append(
        LAYOUT.moved(
            {
                "type": "card_discarded",
                "seat": seat,
                "explanation": f"Seat {seat} discards {face(card).name} face up.",
            },
            [card],
            hand(seat),
            DISCARD,
            players,
            card_json,
        )
    )


def _end_turn(state: State, seat: int, events: list[Event]) -> None:
    players = int(state["players"])
    opts = state["options"]
    state["turns"] = int(state["turns"]) + 1
    if not state["zones"]["hand"][seat] and state["ending"] is None:
        state["ending"] = seat
        lap_left = opts["end"] == "equal_turns" and seat != players - 1
        events.append(
            {
                "type": "hand_emptied",
                "seat": seat,
                "finish_lap": lap_left,
                "explanation": f"Seat {seat} has emptied its hand: the game ends"
                + (" when every seat has had as many turns." if lap_left else " now."),
            }
        )
    if state["ending"] is not None and (opts["end"] == "immediate" or seat == players - 1):
        _finish(state, "hand_emptied", events)
        return
    nxt = left_of(seat, players)
    state["turn"] = nxt
    if state["zones"]["stack"]:
        state["phase"] = "draw"
        return
    if opts["empty_stack"] == "end":
        _finish(state, "stack_empty", events)
        return
    state["phase"] = "play"


def _finish(state: State, reason: str, events: list[Event]) -> None:
    state["phase"] = "over"
    state["end_reason"] = reason
    result = outcome(state)
    table = [seat_breakdown(state, s) for s in range(int(state["players"]))]
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            **result.to_json(),
            "monomers": [t["monomers"] for t in table],
            "mn": [t["mn"] for t in table],
            "pdi": [t["pdi"] for t in table],
            "explanation": (
                "A player has emptied its hand: the game is over."
                if reason == "hand_emptied"
                else "The stack is empty: the game is over."
            )
            + " Only terminated chains count; growing and capped chains are left as they are.",
        }
    )


# ---------------------------------------------------------------- regular rounds ---
def _initiate(state: State, seat: int, move: Move, events: list[Event]) -> None:
    card, lists = move["card"], move["monomers"]
    initiator = face(card)
    assert initiator.fragment is not None
    _to_table(state, seat, [card, *[c for cs in lists for c in cs]])
    started = []
    for i, cards in enumerate(lists):
        chain = _new_chain(
            state, seat, ([card] if i == 0 else []) + list(cards), initiator.fragment
        )
        _put(state, chain)
        started.append(chain)
    names = " and ".join(
        f"chain {c['id']} ({_name(current_monomer(c))}, {_units(state, c)} units)" for c in started
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
    events.append(
        {
            "type": "initiation",
            "seat": seat,
            "initiator": initiator.key,
            "card": card_json(card),
            "radicals": initiator.radicals,
            "chains": [_view(state, c) for c in started],
            "explanation": f"Initiation: {how}. Started: {names}.",
        }
    )


def _grow(state: State, chain: Chain, cards: Sequence[int]) -> Chain:
    return {**chain, "cards": [*chain["cards"], *cards]}


def _propagate(state: State, seat: int, move: Move, events: list[Event]) -> None:
    chain = _get(state, move["chain"])
    cards = move["cards"]
    before = _units(state, chain)
    _to_table(state, seat, cards)
    chain = _grow(state, chain, cards)
    _put(state, chain)
    after = _units(state, chain)
    events.append(
        {
            "type": "propagation",
            "seat": seat,
            "chain": chain["id"],
            "cards": [card_json(c) for c in cards],
            "units_added": after - before,
            "units": after,
            "explanation": f"Propagation: the radical end of chain {chain['id']} adds "
            f"{after - before} {_name(current_monomer(chain))} units (values {_values(cards)}); "
            f"the chain now has {after} units.",
        }
    )


def _reactivate(state: State, seat: int, move: Move, events: list[Event]) -> None:
    chain = _get(state, move["chain"])
    cards = move["cards"]
    tempo = next(c for c in reversed(chain["cards"]) if face(c).kind == TEMPO)
    zones = LAYOUT.move(state["zones"], TABLE, DISCARD, [tempo])
    state["zones"] = zones
    ends = list(chain["ends"])
    ends.remove(_tempo_group())
    chain = {
        **chain,
        "state": GROWING,
        "ends": ends,
        "cards": [c for c in chain["cards"] if c != tempo],
    }
    before = _units(state, chain)
    if cards:
        _to_table(state, seat, cards)
        chain = _grow(state, chain, cards)
    _put(state, chain)
    after = _units(state, chain)
    grown = (
        f" and adds {after - before} {_name(current_monomer(chain))} units (values "
        f"{_values(cards)}); it now has {after} units"
        if cards
        else f"; it has {after} units"
    )
    events.append(
        {
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
    )


def _tempo_group() -> str:
    assert TEMPO_FACE.formula is not None
    return TEMPO_FACE.formula


# ---------------------------------------------------------------- jokers -----------
def _cap(state: State, seat: int, move: Move, events: list[Event]) -> None:
    card = move["card"]
    chain = _get(state, move["chain"])
    _to_table(state, seat, [card])
    chain = {
        **chain,
        "state": CAPPED,
        "cards": [*chain["cards"], card],
        "ends": [*chain["ends"], _tempo_group()],
    }
    _put(state, chain)
    events.append(
        {
            "type": "tempo_capping",
            "seat": seat,
            "chain": chain["id"],
            "card": card_json(card),
            "units": _units(state, chain),
            "explanation": f"SFRP: the stable radical TEMPO* caps the radical end of chain "
            f"{chain['id']} (an alkoxyamine, C-O-N). The chain is dormant: it cannot grow "
            "or be taken until you reactivate it.",
        }
    )


def _transfer(state: State, seat: int, move: Move, events: list[Event]) -> None:
    card, monomers = move["card"], move["monomers"]
    cta = face(card)
    assert cta.fragment is not None
    old = _take(state, seat, _get(state, move["chain"]), "a CTA", events)
    old = {**old, "state": TERMINATED, "ends": [*old["ends"], HYDROGEN], "mechanism": "transfer"}
    _put(state, old)
    _set_aside(state, seat, old)
    _to_table(state, seat, [card, *monomers])
    new = _new_chain(state, seat, [card, *monomers], cta.fragment)
    _put(state, new)
    events.append(
        {
            "type": "chain_transfer",
            "seat": seat,
            "card": card_json(card),
            "terminated": _view(state, old),
            "started": _view(state, new),
            "explanation": f"Chain transfer: the radical end of chain {old['id']} takes the "
            f"hydrogen atom of the thiol (S-H): chain {old['id']} is terminated with "
            f"{_units(state, old)} units and set aside for seat {seat}. The thiyl radical "
            f"({cta.fragment}*) adds to {_name(current_monomer(new))}: chain {new['id']} "
            "starts without an initiator.",
        }
    )


def _copolymerize(state: State, seat: int, move: Move, events: list[Event]) -> None:
    card, monomers = move["card"], move["monomers"]
    chain = _get(state, move["chain"])
    before = current_monomer(chain)
    chain = _take(state, seat, chain, "the copolymer card", events)
    _to_table(state, seat, [card, *monomers])
    chain = _grow(state, chain, [card, *monomers])
    _put(state, chain)
    after = current_monomer(chain)
    events.append(
        {
            "type": "copolymerization",
            "seat": seat,
            "chain": chain["id"],
            "card": card_json(card),
            "cards": [card_json(c) for c in monomers],
            "from_monomer": before,
            "to_monomer": after,
            "units": _units(state, chain),
            "explanation": f"Copolymerisation: the {_name(before)} radical end of chain "
            f"{chain['id']} adds {_name(after)} (cross-propagation); the chain now grows "
            f"with {_name(after)} and has {_units(state, chain)} units.",
        }
    )


def _terminate(state: State, seat: int, move: Move, events: list[Event]) -> None:
    card, mechanism = move["card"], move["mechanism"]
    a = _take(state, seat, _get(state, move["chains"][0]), "a termination card", events)
    b = _take(state, seat, _get(state, move["chains"][1]), "a termination card", events)
    sizes = (
        f"chain {a['id']} ({_units(state, a)} units) and chain {b['id']} ({_units(state, b)} units)"
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
        _put(state, joined)
        _set_aside(state, seat, joined, extra=[card])
        done = [joined]
        text = (
            f"Termination by combination: the radical ends of {sizes} couple into one dead "
            f"chain {joined['id']} of {_units(state, joined)} units, with an initiator "
            "fragment at each end."
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
        _put(state, a)
        _put(state, b)
        _set_aside(state, seat, a, extra=[card])
        _set_aside(state, seat, b)
        done = [a, b]
        text = (
            f"Termination by disproportionation: the radical end of chain {a['id']} takes a "
            f"hydrogen atom from chain {b['id']}, which is left with a C=C double bond: "
            f"{sizes} are two dead chains."
        )
    events.append(
        {
            "type": "termination",
            "seat": seat,
            "mechanism": mechanism,
            "card": card_json(card),
            "joined": [a["id"], b["id"]] if mechanism == COMBINATION else [],
            "chains": [_view(state, c) for c in done],
            "explanation": text + f" Terminated chains are set aside and score for seat {seat}.",
        }
    )


EFFECTS: Mapping[str, Callable[[State, int, Move, list[Event]], None]] = {
    "discard": _discard,
    "initiate": _initiate,
    "propagate": _propagate,
    "reactivate": _reactivate,
    "cap": _cap,
    "transfer": _transfer,
    "copolymerize": _copolymerize,
    "terminate": _terminate,
}
