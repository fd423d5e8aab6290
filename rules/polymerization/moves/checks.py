"""The refusals several move types share: the cards named are in the hand and of the
right kind, the chain exists, is whose it must be and is growing, the monomers follow
the chain, and a round uses at most three cards."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import RuleViolation, State

from .. import seed
from ..cards import MONOMER, MONOMERS, Face, face
from ..chains import CAPPED, TERMINATED, Chain, follow_problem

MAX_ROUND = 3
"""A player can use a maximum of three cards per round."""


def hand(state: State, seat: int) -> list[int]:
    cards: list[int] = state["zones"]["hand"][seat]
    return cards


def describe(card: int) -> str:
    f = face(card)
    if f.kind == MONOMER:
        return f"card {card} ({f.name}, value {f.value})"
    return f"card {card} ({f.name})"


def in_hand(state: State, seat: int, cards: Sequence[int], rule: str) -> None:
    held = set(hand(state, seat))
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
        if card not in held:
            raise RuleViolation(
                "not_in_hand",
                f"Card {card} is not in your hand; play cards you hold ({len(held)} in hand).",
                rule=rule,
                card=card,
            )


def of_kind(card: int, kind: str, what: str, rule: str) -> Face:
    f = face(card)
    if f.kind != kind:
        raise RuleViolation(
            "wrong_card",
            f"{describe(card)} is not {what}.",
            rule=rule,
            card=card,
            expected=kind,
        )
    return f


def chain(state: State, chain_id: int) -> Chain:
    for found in state["chains"]:
        if found["id"] == chain_id:
            return found  # type: ignore[no-any-return]
    live = [c["id"] for c in state["chains"] if c["state"] != TERMINATED]
    raise RuleViolation(
        "no_such_chain",
        f"There is no chain {chain_id} on the table; chains on the table: {live or 'none'}.",
        chain=chain_id,
    )


def growing(chain: Chain, *, stealing: bool = False) -> None:
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


def own(chain: Chain, seat: int, rule: str, what: str) -> None:
    if chain["owner"] != seat:
        raise RuleViolation(
            "not_your_chain",
            f"Chain {chain['id']} belongs to seat {chain['owner']}; {what}.",
            rule=rule,
            chain=chain["id"],
            owner=chain["owner"],
        )


def monomers(
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
    faces = [of_kind(c, MONOMER, "a monomer", rule) for c in cards]
    key = monomer if monomer is not None else faces[0].key
    for card, f in zip(cards, faces, strict=True):
        if f.key != key:
            raise RuleViolation(
                "wrong_monomer",
                f"{describe(card)} is not {MONOMERS[key].name}: a chain grows with one "
                "monomer until a copolymer card changes it.",
                rule=seed.COPOLYMER,
                card=card,
                monomer=key,
            )
    if start and faces[0].value != 1:
        raise RuleViolation(
            "value_one_needed",
            f"A new chain starts with a monomer of value 1, not {describe(cards[0])}.",
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


def count(cards: int, rule: str) -> None:
    if cards > MAX_ROUND:
        raise RuleViolation(
            "too_many_cards",
            f"This round uses {cards} cards; a round uses at most {MAX_ROUND}.",
            rule=rule,
            cards_used=cards,
        )


def need_monomer(cards: Sequence[int], what: str, rule: str) -> None:
    if not cards:
        raise RuleViolation("monomer_needed", f"{what} needs at least one monomer card.", rule=rule)
