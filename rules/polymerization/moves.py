"""Moves: their shapes, the one place legality is decided, and their effects.

A turn is two moves by the seat in turn: ``draw`` (a card from the stack), then one
round: ``initiate``, ``propagate`` or ``reactivate`` (regular cards), ``cap``,
``transfer``, ``copolymerize`` or ``terminate`` (a joker), or ``discard``.
:func:`verify` raises the :class:`RuleViolation` that forbids a parsed move;
:func:`apply` and :func:`legal_moves` both rely on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rules.core import Move, RuleViolation, State, can, check_seat, is_int

from . import seed
from .cards import (
    AIBN_KEY,
    COPOLYMER,
    CTA,
    INITIATOR,
    MECHANISMS,
    MONOMER,
    MONOMERS,
    TEMPO,
    TERMINATION,
    Face,
    face,
)
from .chains import (
    CAPPED,
    GROWING,
    TERMINATED,
    Chain,
    current_monomer,
    follow_problem,
    values,
)

MAX_ROUND = 3
"""A player can use a maximum of three cards per round."""
LIST_MAX = 8
"""Longest card list a move may carry at all (longer is a malformed move)."""

_INT = "int"
_IDS = "ids"
_NESTED = "nested"
_STR = "str"
SHAPES: Mapping[str, Mapping[str, str]] = {
    "draw": {},
    "discard": {"card": _INT},
    "initiate": {"card": _INT, "monomers": _NESTED},
    "propagate": {"chain": _INT, "cards": _IDS},
    "reactivate": {"chain": _INT, "cards": _IDS},
    "cap": {"card": _INT, "chain": _INT},
    "transfer": {"card": _INT, "chain": _INT, "monomers": _IDS},
    "copolymerize": {"card": _INT, "chain": _INT, "monomers": _IDS},
    "terminate": {"card": _INT, "chains": _IDS, "mechanism": _STR},
}
OPTIONAL: Mapping[str, Mapping[str, Any]] = {"reactivate": {"cards": []}}


# ---------------------------------------------------------------- parsing ----------
def _ids(value: object, name: str, kind: str) -> list[int]:
    if not isinstance(value, list) or not all(is_int(v) for v in value):
        raise RuleViolation("bad_move", f"{kind}: {name} must be a list of card or chain ids.")
    if len(value) > LIST_MAX:
        raise RuleViolation("bad_move", f"{kind}: {name} lists {len(value)} ids; far too many.")
    return list(value)


def parse_move(move: Mapping[str, Any]) -> Move:
    """Check a move's shape and return it normalised (``unknown_move`` / ``bad_move``).

    >>> parse_move({"type": "propagate", "chain": 2, "cards": [7, 8]})
    {'type': 'propagate', 'chain': 2, 'cards': [7, 8]}
    >>> parse_move({"type": "reactivate", "chain": 2})
    {'type': 'reactivate', 'chain': 2, 'cards': []}
    """
    kind = move.get("type") if isinstance(move, Mapping) else None
    if not isinstance(kind, str) or kind not in SHAPES:
        raise RuleViolation(
            "unknown_move",
            f"{kind!r} is not a move of this game; use one of: {', '.join(SHAPES)}.",
        )
    shape = SHAPES[kind]
    given = {**OPTIONAL.get(kind, {}), **{k: v for k, v in move.items() if k != "type"}}
    extra = sorted(set(given) - set(shape))
    if extra:
        raise RuleViolation(
            "bad_move", f"A {kind!r} move has only {sorted(shape) or 'no fields'}; remove {extra}."
        )
    missing = sorted(set(shape) - set(given))
    if missing:
        raise RuleViolation("bad_move", f"A {kind!r} move needs {missing}.")
    out: Move = {"type": kind}
    for name, what in shape.items():
        value = given[name]
        if what == _INT:
            if not is_int(value):
                raise RuleViolation("bad_move", f"{kind}: {name} must be a whole number id.")
            out[name] = value
        elif what == _IDS:
            out[name] = _ids(value, name, kind)
        elif what == _NESTED:
            if not isinstance(value, list) or not 1 <= len(value) <= 2:
                raise RuleViolation(
                    "bad_move",
                    f"{kind}: {name} is one list of monomer card ids per chain started (1 or 2).",
                )
            out[name] = [_ids(v, name, kind) for v in value]
        else:
            if value not in MECHANISMS:
                raise RuleViolation(
                    "bad_move", f"{kind}: mechanism must be one of {list(MECHANISMS)}."
                )
            out[name] = value
    return out


# ---------------------------------------------------------------- verify -----------
def _hand(state: State, seat: int) -> list[int]:
    hand: list[int] = state["zones"]["hand"][seat]
    return hand


def _describe(card: int) -> str:
    f = face(card)
    if f.kind == MONOMER:
        return f"card {card} ({f.name}, value {f.value})"
    return f"card {card} ({f.name})"


def _in_hand(state: State, seat: int, cards: Sequence[int], rule: str) -> None:
    hand = set(_hand(state, seat))
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise RuleViolation(
                "card_repeated",
                f"Card {card} is named twice in this move; each card can be played once.",
                rule=rule,
                card=card,
            )
        seen.add(card)
        if card not in hand:
            raise RuleViolation(
                "not_in_hand",
                f"Card {card} is not in your hand; play cards you hold ({len(hand)} in hand).",
                rule=rule,
                card=card,
            )


def _kind(card: int, kind: str, what: str, rule: str) -> Face:
    f = face(card)
    if f.kind != kind:
        raise RuleViolation(
            "wrong_card",
            f"{_describe(card)} is not {what}.",
            rule=rule,
            card=card,
            expected=kind,
        )
    return f


def _chain(state: State, chain_id: int) -> Chain:
    for chain in state["chains"]:
        if chain["id"] == chain_id:
            return chain  # type: ignore[no-any-return]
    live = [c["id"] for c in state["chains"] if c["state"] != TERMINATED]
    raise RuleViolation(
        "no_such_chain",
        f"There is no chain {chain_id} on the table; chains on the table: {live or 'none'}.",
        chain=chain_id,
    )


def _growing(chain: Chain, *, stealing: bool = False) -> None:
    if chain["state"] == TERMINATED:
        raise RuleViolation(
            "chain_terminated",
            f"Chain {chain['id']} is terminated: it is scored and set aside and can no longer "
            "be changed or taken.",
            rule=seed.TERMINATED,
            chain=chain["id"],
        )
    if chain["state"] == CAPPED:
        raise RuleViolation(
            "chain_capped",
            f"Chain {chain['id']} is capped with TEMPO: it is dormant, cannot grow"
            + (" and cannot be taken" if stealing else "")
            + " until its owner reactivates it.",
            rule=seed.TEMPO,
            chain=chain["id"],
        )


def _own(chain: Chain, seat: int, rule: str, what: str) -> None:
    if chain["owner"] != seat:
        raise RuleViolation(
            "not_your_chain",
            f"Chain {chain['id']} belongs to seat {chain['owner']}; {what}.",
            rule=rule,
            chain=chain["id"],
            owner=chain["owner"],
        )


def _monomers(
    cards: Sequence[int],
    *,
    monomer: str | None,
    tail: Sequence[int],
    mode: str,
    rule: str,
    start: bool = False,
) -> str:
    """Check monomer cards added in order to a chain; returns their monomer's key.

    ``monomer``: the kind they must be (``None``: any one kind); ``tail``: the chain's
    values so far; ``start``: the first card begins a new chain (value 1).
    """
    faces = [_kind(c, MONOMER, "a monomer", rule) for c in cards]
    key = monomer if monomer is not None else faces[0].key
    for card, f in zip(cards, faces, strict=True):
        if f.key != key:
            raise RuleViolation(
                "wrong_monomer",
                f"{_describe(card)} is not {MONOMERS[key].name}: a chain grows with one "
                "monomer until a copolymer card changes it.",
                rule=seed.COPOLYMER,
                card=card,
                monomer=key,
            )
    if start and faces[0].value != 1:
        raise RuleViolation(
            "value_one_needed",
            f"A new chain starts with a monomer of value 1, not {_describe(cards[0])}.",
            rule=rule,
            card=cards[0],
        )
    problem = follow_problem(tail, [f.value for f in faces], mode)
    if problem is not None:
        raise RuleViolation(
            "breaks_sequence",
            f"These monomers cannot be added: {problem}.",
            rule=seed.PROPAGATION,
            values=[f.value for f in faces],
        )
    return key


def _count(cards: int, rule: str) -> None:
    if cards > MAX_ROUND:
        raise RuleViolation(
            "too_many_cards",
            f"This round uses {cards} cards; a round uses at most {MAX_ROUND}.",
            rule=rule,
            cards_used=cards,
        )


def _need_monomer(cards: Sequence[int], what: str, rule: str) -> None:
    if not cards:
        raise RuleViolation("monomer_needed", f"{what} needs at least one monomer card.", rule=rule)


def verify(state: State, seat: int, move: Move) -> None:
    """Raise the ``RuleViolation`` that forbids the parsed ``move`` for ``seat`` now."""
    check_seat(state, seat)
    if state["phase"] == "over":
        raise RuleViolation("game_over", "The game has ended; no more moves are accepted.")
    if seat != state["turn"]:
        raise RuleViolation(
            "not_your_turn",
            f"It is seat {state['turn']}'s turn; wait for yours.",
            rule=seed.TURN,
            turn=state["turn"],
        )
    kind = move["type"]
    if kind == "draw":
        if state["phase"] == "play":
            if not state["zones"]["stack"]:
                raise RuleViolation(
                    "stack_empty",
                    "The stack is empty: there is nothing to draw; play a round or discard.",
                    rule=seed.TURN,
                )
            raise RuleViolation(
                "already_drawn",
                "You have drawn this turn; now play a round or discard a card.",
                rule=seed.TURN,
            )
        return
    if state["phase"] == "draw":
        raise RuleViolation(
            "draw_first",
            "Take a card from the stack first (move 'draw'), then play a round or discard.",
            rule=seed.TURN,
        )
    VERIFY[kind](state, seat, move)


def _verify_discard(state: State, seat: int, move: Move) -> None:
    _in_hand(state, seat, [move["card"]], seed.TURN)


def _verify_initiate(state: State, seat: int, move: Move) -> None:
    card, lists = move["card"], move["monomers"]
    _in_hand(state, seat, [card, *[c for cs in lists for c in cs]], seed.INITIATION)
    f = _kind(card, INITIATOR, "an initiator", seed.INITIATION)
    _count(1 + sum(len(cs) for cs in lists), seed.INITIATION)
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
        _need_monomer(cards, "Each chain an initiator starts", seed.INITIATION)
        _monomers(cards, monomer=None, tail=[], mode=mode, rule=seed.VALUE_ONE, start=True)


def _verify_propagate(state: State, seat: int, move: Move) -> None:
    chain = _chain(state, move["chain"])
    _own(chain, seat, seed.GROW_OWN, "you grow only your own chains (a joker can take one)")
    _growing(chain)
    cards = move["cards"]
    _need_monomer(cards, "Propagation", seed.PROPAGATION)
    _count(len(cards), seed.THREE_CARDS)
    _in_hand(state, seat, cards, seed.PROPAGATION)
    _monomers(
        cards,
        monomer=current_monomer(chain),
        tail=values(chain),
        mode=state["options"]["propagation"],
        rule=seed.PROPAGATION,
    )


def _verify_reactivate(state: State, seat: int, move: Move) -> None:
    chain = _chain(state, move["chain"])
    _own(chain, seat, seed.TEMPO, "only its owner reactivates a capped chain")
    if chain["state"] != CAPPED:
        if chain["state"] == TERMINATED:
            _growing(chain)
        raise RuleViolation(
            "chain_not_capped",
            f"Chain {chain['id']} is growing, not capped: there is no TEMPO to remove.",
            rule=seed.TEMPO,
            chain=chain["id"],
        )
    cards = move["cards"]
    _count(len(cards), seed.THREE_CARDS)
    _in_hand(state, seat, cards, seed.PROPAGATION)
    if cards:
        _monomers(
            cards,
            monomer=current_monomer(chain),
            tail=values(chain),
            mode=state["options"]["propagation"],
            rule=seed.PROPAGATION,
        )


def _verify_cap(state: State, seat: int, move: Move) -> None:
    _in_hand(state, seat, [move["card"]], seed.TEMPO)
    _kind(move["card"], TEMPO, "TEMPO (the SFRP card)", seed.TEMPO)
    chain = _chain(state, move["chain"])
    _own(chain, seat, seed.TEMPO, "TEMPO is only to be used on your own chains")
    if chain["state"] == CAPPED:
        raise RuleViolation(
            "chain_capped",
            f"Chain {chain['id']} is already capped with TEMPO.",
            rule=seed.TEMPO,
            chain=chain["id"],
        )
    _growing(chain)


def _verify_transfer(state: State, seat: int, move: Move) -> None:
    card, monomers = move["card"], move["monomers"]
    _in_hand(state, seat, [card, *monomers], seed.CTA)
    _kind(card, CTA, "a chain transfer agent (CTA)", seed.CTA)
    chain = _chain(state, move["chain"])
    _growing(chain, stealing=chain["owner"] != seat)
    if not monomers:
        raise RuleViolation(
            "value_one_needed",
            "A CTA starts a new chain in the same round: add a monomer of value 1.",
            rule=seed.CTA,
        )
    _count(1 + len(monomers), seed.CTA)
    _monomers(
        monomers,
        monomer=None,
        tail=[],
        mode=state["options"]["propagation"],
        rule=seed.CTA,
        start=True,
    )


def _verify_copolymerize(state: State, seat: int, move: Move) -> None:
    card, monomers = move["card"], move["monomers"]
    _in_hand(state, seat, [card, *monomers], seed.COPOLYMER)
    _kind(card, COPOLYMER, "the copolymer card", seed.COPOLYMER)
    chain = _chain(state, move["chain"])
    _growing(chain, stealing=chain["owner"] != seat)
    _need_monomer(monomers, "The copolymer card", seed.COPOLYMER)
    _count(1 + len(monomers), seed.THREE_CARDS)
    before = current_monomer(chain)
    key = _monomers(
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


def _verify_terminate(state: State, seat: int, move: Move) -> None:
    card = move["card"]
    _in_hand(state, seat, [card], seed.TWO_CHAINS)
    f = _kind(card, TERMINATION, "a termination card", seed.TERMINATION_KINDS)
    if state["options"]["termination_mechanism"] == "printed" and move["mechanism"] != f.mechanism:
        raise RuleViolation(
            "wrong_mechanism",
            f"{_describe(card)} terminates by {f.mechanism}, not by {move['mechanism']}.",
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
    chains = [_chain(state, i) for i in ids]
    for chain in chains:
        _growing(chain, stealing=chain["owner"] != seat)
    scope = state["options"]["termination_scope"]
    own = [c for c in chains if c["owner"] == seat]
    if scope == "own" and len(own) < 2:
        other = next(c for c in chains if c["owner"] != seat)
        _own(other, seat, seed.TWO_CHAINS, "with termination_scope 'own' both chains are yours")
    if scope == "mine_and_any" and not own:
        raise RuleViolation(
            "own_chain_needed",
            "A termination joins one of your own growing chains with a second chain; "
            f"chains {ids[0]} and {ids[1]} are both opponents'.",
            rule=seed.TWO_CHAINS,
        )


VERIFY: Mapping[str, Callable[[State, int, Move], None]] = {
    "discard": _verify_discard,
    "initiate": _verify_initiate,
    "propagate": _verify_propagate,
    "reactivate": _verify_reactivate,
    "cap": _verify_cap,
    "transfer": _verify_transfer,
    "copolymerize": _verify_copolymerize,
    "terminate": _verify_terminate,
}


# ---------------------------------------------------------------- legal moves ------
def _by_face(cards: Iterable[int]) -> dict[tuple[str, int, str], list[int]]:
    """Card ids grouped by face (identical copies are interchangeable), lowest first."""
    out: dict[tuple[str, int, str], list[int]] = {}
    for c in sorted(cards):
        f = face(c)
        out.setdefault((f.kind, f.value, f.key), []).append(c)
    return out


def _sequences(
    pool: Mapping[tuple[str, int, str], list[int]],
    monomer: str | None,
    tail: Sequence[int],
    mode: str,
    lengths: Iterable[int],
    *,
    start: bool = False,
) -> list[list[int]]:
    """Monomer card sequences of the given lengths from ``pool`` (one per choice of faces)
    that may be added to a chain with values ``tail``; ``monomer`` fixes the kind."""
    keys = sorted({k for (kind, _v, k) in pool if kind == MONOMER})
    kinds = [monomer] if monomer is not None else keys
    out: list[list[int]] = []
    wanted = set(lengths)
    longest = max(wanted, default=0)

    def extend(key: str, seq: list[int], used: dict[int, int]) -> None:
        if seq and len(seq) in wanted:
            out.append(list(seq))
        if len(seq) == longest:
            return
        for value in (1, 2, 3):
            if start and not seq and value != 1:
                continue
            ids = pool.get((MONOMER, value, key), [])
            if used.get(value, 0) >= len(ids):
                continue
            trial = [face(c).value for c in seq] + [value]
            if follow_problem(tail, trial, mode) is not None:
                continue
            used[value] = used.get(value, 0) + 1
            seq.append(ids[used[value] - 1])
            extend(key, seq, used)
            seq.pop()
            used[value] -= 1

    for key in kinds:
        if key is not None:
            extend(key, [], {})
    return out


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now, one per choice of card faces (the lowest id of
    each face: any identical copy is accepted too)."""
    check_seat(state, seat)
    if state["phase"] == "over" or seat != state["turn"]:
        return []
    if state["phase"] == "draw":
        return [{"type": "draw"}]
    opts = state["options"]
    mode = opts["propagation"]
    hand = _hand(state, seat)
    pool = _by_face(hand)
    firsts = {f: ids[0] for f, ids in pool.items()}
    moves: list[Move] = []
    growing = [c for c in state["chains"] if c["state"] == GROWING]
    mine = [c for c in growing if c["owner"] == seat]
    # regular rounds
    for (kind, _v, key), card in firsts.items():
        if kind != INITIATOR:
            continue
        rest = _without(pool, card)
        if key == AIBN_KEY:
            ones = _sequences(rest, None, [], mode, [1], start=True)
            for a in ones:  # ordered: the first chain holds the AIBN card
                for b in ones:
                    if a[0] != b[0]:
                        moves.append({"type": "initiate", "card": card, "monomers": [a, b]})
                    elif len(pool.get(_face_key(a[0]), [])) >= 2:
                        twin = pool[_face_key(a[0])][1]
                        moves.append({"type": "initiate", "card": card, "monomers": [a, [twin]]})
            if not opts["aibn_single_start"]:
                continue
        for seq in _sequences(rest, None, [], mode, [1, 2], start=True):
            moves.append({"type": "initiate", "card": card, "monomers": [seq]})
    for chain in mine:
        for seq in _sequences(pool, current_monomer(chain), values(chain), mode, [1, 2, 3]):
            moves.append({"type": "propagate", "chain": chain["id"], "cards": seq})
    for chain in state["chains"]:
        if chain["state"] == CAPPED and chain["owner"] == seat:
            moves.append({"type": "reactivate", "chain": chain["id"], "cards": []})
            for seq in _sequences(pool, current_monomer(chain), values(chain), mode, [1, 2, 3]):
                moves.append({"type": "reactivate", "chain": chain["id"], "cards": seq})
    # jokers
    for (kind, _v, key), card in firsts.items():
        if kind == TEMPO:
            moves += [{"type": "cap", "card": card, "chain": c["id"]} for c in mine]
        elif kind == CTA:
            starts = _sequences(_without(pool, card), None, [], mode, [1, 2], start=True)
            for chain in growing:
                moves += [
                    {"type": "transfer", "card": card, "chain": chain["id"], "monomers": s}
                    for s in starts
                ]
        elif kind == COPOLYMER:
            for chain in growing:
                now = current_monomer(chain)
                for seq in _sequences(_without(pool, card), None, values(chain), mode, [1, 2]):
                    if face(seq[0]).key != now:
                        moves.append(
                            {
                                "type": "copolymerize",
                                "card": card,
                                "chain": chain["id"],
                                "monomers": seq,
                            }
                        )
        elif kind == TERMINATION:
            mechanisms = [key] if opts["termination_mechanism"] == "printed" else list(MECHANISMS)
            # both orders: the first chain keeps its id (combination) or takes the H
            # atom (disproportionation)
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
    moves += [{"type": "discard", "card": card} for card in sorted(firsts.values())]
    return [m for m in moves if can(verify, state, seat, m)]


def _face_key(card: int) -> tuple[str, int, str]:
    f = face(card)
    return (f.kind, f.value, f.key)


def _without(
    pool: Mapping[tuple[str, int, str], list[int]], card: int
) -> dict[tuple[str, int, str], list[int]]:
    out = {k: [c for c in ids if c != card] for k, ids in pool.items()}
    return {k: ids for k, ids in out.items() if ids}
