"""One exchange: which answers are legal (step 4, advanced ruling 1), reinforcements
(step 5), and the chemistry that explains how it was settled.

Everything here works on ions and counts; the game module moves the cards.

Step 4's answers depend only on the initiating card:

>>> from rules.chemistry.decks.ion import default_deck
>>> from rules.chemistry.ions import ion
>>> deck = default_deck()
>>> describe(answers(deck, ion("Ca2+")))
'2 Cl-, 1 O2- or 2 N3-'
>>> describe(answers(deck, ion("N3-")))
'3 Na+, 3 Ca2+ or 1 Al3+'

What a hand may play also follows advanced ruling 1:

>>> hand = deck.ids_of(ion("Cl-"))[:1] + deck.ids_of(ion("N3-"))[:1]
>>> found = options(deck, ion("Ca2+"), hand)
>>> found.kind, describe(found.answers)
('partial', '1 Cl-')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal, TypedDict

from rules.chemistry.decks.ion import IonDeck, IonLabel
from rules.chemistry.ions import Ion, ionic_compound
from rules.core import RuleViolation
from rules.shapes import Count, F
from rules.text import plural

from . import wire
from .seed import RULING1, STEP4, STEP5


@dataclass(frozen=True)
class Answer:
    """``count`` cards of ``ion`` played in answer."""

    ion: Ion
    count: int

    def text(self) -> str:
        return f"{self.count} {self.ion.label}"

    def to_json(self) -> wire.Answer:
        return {"ion": self.ion.label, "count": self.count, "total": self.ion.charge * self.count}


def describe(found: Sequence[Answer]) -> str:
    """``2 Cl-, 1 O2- or 2 N3-``."""
    texts = [a.text() for a in found]
    if len(texts) < 2:
        return "".join(texts) or "nothing"
    return ", ".join(texts[:-1]) + " or " + texts[-1]


def required_count(lead: Ion, answer: Ion) -> int:
    """Rule (iii): the lead's charge number of cards, or one of the same charge number."""
    return 1 if answer.magnitude == lead.magnitude else lead.magnitude


def opposite(lead: Ion, other: Ion) -> bool:
    """Rule (i): the signs differ."""
    return (lead.charge > 0) != (other.charge > 0)


def answers(deck: IonDeck, lead: Ion) -> list[Answer]:
    """Every answer step 4 describes against ``lead`` (whatever the hand holds)."""
    return list(_answers(deck.ions, lead))


@cache
def _answers(ions: tuple[Ion, ...], lead: Ion) -> tuple[Answer, ...]:
    return tuple(Answer(i, required_count(lead, i)) for i in ions if opposite(lead, i))


def held(deck: IonDeck, hand: Sequence[int]) -> dict[Ion, int]:
    """How many cards of each ion a hand holds."""
    out: dict[Ion, int] = {}
    for c in hand:
        i = deck.ion_of(c)
        out[i] = out.get(i, 0) + 1
    return out


@dataclass(frozen=True)
class Options:
    """What a responding hand may play.

    ``kind`` is ``regular`` (step 4 answers it holds), ``partial`` (advanced ruling 1:
    it holds no step-4 answer, so it plays all its cards of one opposite ion whose
    charge number is lower than the lead's) or ``none`` (no possible play: a card is
    taken from its hand at random).
    """

    kind: Literal["regular", "partial", "none"]
    answers: tuple[Answer, ...]


def options(deck: IonDeck, lead: Ion, hand: Sequence[int]) -> Options:
    have = held(deck, hand)
    regular = tuple(a for a in answers(deck, lead) if have.get(a.ion, 0) >= a.count)
    if regular:
        return Options("regular", regular)
    partial = tuple(
        Answer(i, have[i])
        for i in deck.ions
        if opposite(lead, i) and i.magnitude < lead.magnitude and have.get(i, 0)
    )
    if partial:
        return Options("partial", partial)
    return Options("none", ())


def legal_now(found: Options) -> str:
    return f"Legal now: {describe(found.answers)}."


def verify_response(
    deck: IonDeck, lead: Ion, hand: Sequence[int], cards: Sequence[int]
) -> Literal["regular", "partial"]:
    """The kind of a legal answer (``regular`` or ``partial``), or the rule it breaks.

    The cards are known to be in the hand; each refusal names rule (i), (ii) or
    (iii), or advanced ruling 1, and lists what is legal for this hand.
    """
    found = options(deck, lead, hand)
    played = [deck.ion_of(c) for c in cards]
    wrong_sign = sorted({i.label for i in played if not opposite(lead, i)})
    if wrong_sign:
        side = "negative" if lead.charge > 0 else "positive"
        raise RuleViolation(
            "wrong_charge_sign",
            f"Rule (i): answer {lead.label} with cards of the opposite charge ({side} ions); "
            f"{', '.join(wrong_sign)} has the same sign as {lead.label}. {legal_now(found)}",
            rule=STEP4,
            lead=lead.label,
            legal=[a.to_json() for a in found.answers],
        )
    kinds = sorted({i.label for i in played})
    if len(kinds) > 1:
        raise RuleViolation(
            "mixed_ions",
            f"Rule (ii): all the cards you play must be the same ion; you played "
            f"{' and '.join(kinds)}. {legal_now(found)}",
            rule=STEP4,
            lead=lead.label,
            legal=[a.to_json() for a in found.answers],
        )
    ion_ = played[0]
    count = len(cards)
    if count == required_count(lead, ion_):
        return "regular"
    step4 = (
        f"Rule (iii): against {lead.label} (charge number {lead.magnitude}) play "
        f"{plural(lead.magnitude, 'card')} of one ion, or 1 card of an ion with the same charge "
        f"number: {describe(answers(deck, lead))}; you played {count} {ion_.label}."
    )
    details: dict[str, Any] = {"lead": lead.label, "legal": [a.to_json() for a in found.answers]}
    if found.kind == "regular":
        raise RuleViolation(
            "wrong_count",
            f"{step4} You hold a step-4 answer, so advanced ruling 1 does not apply. "
            + legal_now(found),
            rule=STEP4,
            **details,
        )
    if ion_.magnitude > lead.magnitude:
        raise RuleViolation(
            "charge_too_high",
            f"Advanced ruling 1: you hold no step-4 answer to {lead.label}, but you can't "
            f"play {ion_.label}: its charge number ({ion_.magnitude}) is higher than "
            f"{lead.label}'s ({lead.magnitude}) and {count} {ion_.label} is not an answer "
            f"step 4 describes. {legal_now(found)}",
            rule=RULING1,
            **details,
        )
    have = held(deck, hand).get(ion_, 0)
    if ion_.magnitude < lead.magnitude and count == have:
        return "partial"
    if ion_.magnitude < lead.magnitude:
        raise RuleViolation(
            "wrong_count",
            f"Advanced ruling 1: you hold no step-4 answer to {lead.label}, so play what "
            f"you have: all {have} of your {ion_.label}, not {count}. {legal_now(found)}",
            rule=RULING1,
            **details,
        )
    raise RuleViolation("wrong_count", f"{step4} {legal_now(found)}", rule=STEP4, **details)


def reinforcement_need(lead: Ion, initiator_total: int, responder_total: int) -> int:
    """The fewest cards of the lead's ion that bring the initiating total to at least
    the responding one (both totals are charge magnitudes).

    >>> from rules.chemistry.ions import ion
    >>> reinforcement_need(ion("N3-"), 3, 6), reinforcement_need(ion("Na+"), 1, 3)
    (1, 2)
    """
    short = responder_total - initiator_total
    return max(0, -(-short // lead.magnitude))


def verify_reinforcement(
    deck: IonDeck,
    lead: Ion,
    hand: Sequence[int],
    cards: Sequence[int],
    initiator_total: int,
    responder_total: int,
) -> None:
    """Refuse reinforcements that are not exactly the cards needed, of the lead's ion."""
    wrong = sorted({deck.ion_of(c).label for c in cards if deck.ion_of(c) is not lead})
    need = reinforcement_need(lead, initiator_total, responder_total)
    have = held(deck, hand).get(lead, 0)
    can = (
        f"Reinforce with {need} {lead.label}."
        if have >= need
        else f"You hold {have} {lead.label}, fewer than the {need} needed: decline instead."
    )
    if wrong:
        raise RuleViolation(
            "reinforcement_ion",
            f"The cards added must be of the same ion as your first card, {lead.label}; "
            f"{', '.join(wrong)} is not. {can}",
            rule=STEP5,
        )
    if len(cards) != need:
        sign = 1 if lead.charge > 0 else -1
        after = sign * (initiator_total + lead.magnitude * len(cards))
        problem = (
            f"{len(cards)} {lead.label} bring your total only to {after:+d} against "
            f"{-sign * responder_total:+d}"
            if len(cards) < need
            else f"{len(cards)} is more than the {need} needed"
        )
        raise RuleViolation(
            "reinforcement_count",
            f"Reinforcements must bring your total charge to at least the responding "
            f"player's with the fewest cards: {problem}. {can}",
            rule=STEP5,
            needed=need,
        )


# ---------------------------------------------------------------- explanations ------
@dataclass(frozen=True)
class Side:
    """One player's cards in play: ``count`` cards of ``ion``."""

    seat: int
    ion: Ion
    count: int

    @property
    def total(self) -> int:
        return self.ion.charge * self.count

    def text(self) -> str:
        return f"{self.count} {self.ion.label} ({self.total:+d})"


class Compound(TypedDict):
    """The compound the two ions form, in lowest whole-number ratio (whether or not the
    charges in play cancel)."""

    formula: Annotated[str, F("Lowest ratio.", example="Ca3N2")]
    name: Annotated[str, F("Name.", example="calcium nitride")]
    cation: Annotated[IonLabel, F("The cation.")]
    anion: Annotated[IonLabel, F("The anion.")]
    cation_count: Annotated[Count, F("Cations per formula unit.")]
    anion_count: Annotated[Count, F("Anions per formula unit.")]
    molar_mass: Annotated[float, F("g/mol (molmass).", example=148.247)]


class Chemistry(TypedDict):
    """What the two sides' ions make: the members of the ``exchange_settled`` event
    (:class:`.settle.ExchangeSettledEvent`) that an answered exchange fills."""

    compound: Compound
    neutral: bool
    formula_units: int
    equation: str | None
    stronger: Literal["initiator", "responder"] | None
    difference: int


def chemistry(first: Side, second: Side) -> Chemistry:
    """The ions in play, their totals, and the compound they form.

    ``neutral`` says whether the charges cancel; then the cards are ``formula_units``
    whole units of the compound, and ``equation`` shows them combining.

    >>> from rules.chemistry.ions import ion
    >>> out = chemistry(Side(0, ion("N3-"), 2), Side(1, ion("Ca2+"), 3))
    >>> out["neutral"], out["equation"], out["compound"]["name"]
    (True, '3 Ca2+ + 2 N3- -> Ca3N2', 'calcium nitride')
    """
    cation, anion = (first, second) if first.ion.charge > 0 else (second, first)
    made = ionic_compound(cation.ion, anion.ion)
    neutral = cation.total + anion.total == 0
    units = cation.count // made.cations if neutral else 0
    return {
        "compound": {
            "formula": made.formula,
            "name": made.name,
            "cation": made.cation.label,
            "anion": made.anion.label,
            "cation_count": made.cations,
            "anion_count": made.anions,
            "molar_mass": round(made.molar_mass, 3),
        },
        "neutral": neutral,
        "formula_units": units,
        "equation": made.equation(units) if neutral else None,
        "stronger": None
        if neutral
        else ("initiator" if abs(first.total) > abs(second.total) else "responder"),
        "difference": abs(abs(first.total) - abs(second.total)),
    }


def compound_sentence(first: Side, second: Side, chem: Chemistry) -> str:
    """A learner's sentence about the compound, whether or not the charges cancel."""
    c = chem["compound"]
    if chem["neutral"]:
        return f"The charges cancel: {chem['equation']}, {c['name']}."
    return (
        f"Not neutral ({first.total:+d} against {second.total:+d}): {c['cation']} and "
        f"{c['anion']} form {c['formula']}, {c['name']}, with {c['cation_count']} "
        f"{c['cation']} for every {c['anion_count']} {c['anion']}."
    )
