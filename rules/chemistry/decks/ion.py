"""The Ion Deck (Metal vs. Non-Metal): which cards exist, their faces, and a teacher's deck.

The seed's deck is the data file ``ion-deck-40.toml`` (the rules sheet's table); a
teacher may give another deck of the same kind (``{"K+": 8, "Br-": 8, ...}``), checked
by the same rules (:func:`custom_spec`). A deck is kept in a game's state as its
*spec*, a list of ``[label, copies]`` pairs in deck order; card ids run from 1 in that
order, one id per physical card.

A card shows an ion of a metal (a cation) or of a non-metal (an anion): metalloids and
noble gases are not allowed on a card (:func:`card_ion`); the ion itself, its charge
and its name come from :mod:`rules.chemistry.ions`.

>>> deck = default_deck()
>>> len(deck), deck.face(1)["ion"], deck.face(40)["name"], deck.ion_of(17).label
(40, 'Na+', 'nitride ion', 'Ca2+')
>>> [(i.label, n) for i, n in zip(deck.ions, deck.copies)][:2]
[('Na+', 8), ('Cl-', 8)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal, TypedDict

from rules.chemistry.elements import BY_SYMBOL
from rules.chemistry.ions import Ion, IonError, ion, label
from rules.core import RuleViolation
from rules.shapes import CardId, F, quote
from rules.text import plural

from . import load

__all__ = [
    "DECK_FILE",
    "LABEL_PATTERN",
    "MAX_CARDS",
    "MAX_COPIES",
    "MAX_IONS",
    "MIN_CARDS",
    "SEED_DECK",
    "IonCard",
    "IonCardId",
    "IonDeck",
    "IonLabel",
    "card_ion",
    "count_by_ion",
    "custom_spec",
    "deck_from_spec",
    "default_deck",
    "default_spec",
    "take_labels",
]

DECK_FILE = "ion-deck-40"
MAX_IONS = 12
MAX_COPIES = 20
MIN_CARDS, MAX_CARDS = 12, 80
LABEL_PATTERN = r"^[A-Z][a-z]?[2-9]?[+-]$"
"""What an ion label looks like (whether it names a real ion is :func:`card_ion`'s)."""

SEED_DECK = "The Deck: 40 cards (Na+ 8, Cl- 8, Ca2+ 7, O2- 7, Al3+ 5, N3- 5)"

Spec = tuple[tuple[str, int], ...]


IonLabel = Annotated[
    str,
    F(
        "An ion label: the element symbol, the charge number (none for 1) and the sign.",
        pattern=LABEL_PATTERN,
        example="Ca2+",
    ),
]
IonCardId = Annotated[CardId, F(minimum=1, maximum=MAX_CARDS)]


class IonCard(TypedDict):
    """An ion card as printed: ion, charge, name, metal or non-metal."""

    id: Annotated[IonCardId, F("Card id.", example=17)]
    ion: Annotated[IonLabel, F("The ion, symbol and charge: Ca2+.")]
    symbol: Annotated[str, F("Element symbol.", example="Ca")]
    element: Annotated[str, F("Element name.", example="Calcium")]
    charge: Annotated[int, F("The ion's signed charge.", example=2)]
    name: Annotated[str, F("Ion name.", example="calcium ion")]
    kind: Annotated[Literal["metal", "non-metal"], F("Metal (cations) or non-metal (anions).")]


def card_ion(text: str) -> Ion:
    """The ion a card label names: a metal's cation or a non-metal's anion.

    >>> card_ion("Fe3+").name
    'iron(III) ion'
    >>> card_ion("H+")
    Traceback (most recent call last):
    ...
    rules.chemistry.ions.IonError: H+: hydrogen is not a metal, so it cannot be a cation card.
    """
    found = ion(text)
    if found.charge > 0 and found.kind != "metal":
        raise IonError(
            f"{text}: {found.element.lower()} is not a metal, so it cannot be a cation card."
        )
    if found.charge < 0 and found.kind != "non-metal":
        raise IonError(
            f"{text}: {found.element.lower()} is not a non-metal, so it cannot be an anion card."
        )
    return found


@dataclass(frozen=True)
class IonDeck:
    """Every card of a deck: ``ions`` (distinct, in deck order) with their ``copies``."""

    ions: tuple[Ion, ...]
    copies: tuple[int, ...]
    faces: tuple[IonCard, ...]
    ion_index: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.faces)

    @property
    def ids(self) -> range:
        return range(1, len(self.faces) + 1)

    @property
    def spec(self) -> list[list[Any]]:
        return [[i.label, n] for i, n in zip(self.ions, self.copies, strict=True)]

    def face(self, card: int) -> IonCard:
        """The card as views and events show it (a shared dict: do not modify)."""
        return self.faces[card - 1]

    def ion_of(self, card: int) -> Ion:
        return self.ions[self.ion_index[card - 1]]

    def by_label(self, text: str) -> Ion | None:
        for i in self.ions:
            if i.label == text:
                return i
        return None

    def ids_of(self, ion_: Ion) -> list[int]:
        """Every card id showing ``ion_``, in order."""
        k = self.ions.index(ion_)
        return [c for c in self.ids if self.ion_index[c - 1] == k]


@cache
def deck_from_spec(spec: Spec) -> IonDeck:
    """The deck of a (valid) spec; memoised, as every move looks cards up."""
    ions = tuple(card_ion(text) for text, _ in spec)
    copies = tuple(n for _, n in spec)
    faces: list[IonCard] = []
    index: list[int] = []
    for k, (i, n) in enumerate(zip(ions, copies, strict=True)):
        for _ in range(n):
            faces.append(
                {
                    "id": len(faces) + 1,
                    "ion": i.label,
                    "symbol": i.symbol,
                    "element": i.element,
                    "charge": i.charge,
                    "name": i.name,
                    # a cation card is a metal's, an anion card a non-metal's (card_ion)
                    "kind": "metal" if i.charge > 0 else "non-metal",
                }
            )
            index.append(k)
    return IonDeck(ions=ions, copies=copies, faces=tuple(faces), ion_index=tuple(index))


@cache
def default_spec() -> Spec:
    """The seed's deck, from its data file: each element's charge from rules.chemistry."""
    out = []
    for entry in load(DECK_FILE)["deck"]["ions"]:
        e = BY_SYMBOL[entry["symbol"]]
        charges = [entry["charge"]] if "charge" in entry else list(e.ion_charges)
        if len(charges) != 1:
            raise ValueError(f"{DECK_FILE}: say which charge of {e.name} the card shows")
        out.append((label(e.symbol, int(charges[0])), int(entry["copies"])))
    return tuple(out)


def default_deck() -> IonDeck:
    return deck_from_spec(default_spec())


def custom_spec(ions: Mapping[str, int]) -> Spec:
    """A teacher's deck, ``{label: copies}``, checked like the seed's (``bad_ion_deck``).

    Its shape (2 to 12 labels, 1 to 20 copies each) is the game's option declaration's
    to check. Every label must be a card ion (:func:`card_ion`) with a charge from the
    chemistry data; a deck has 12 to 80 cards; and the charges must balance, as the
    seed's deck does (+37 and -37).

    >>> custom_spec({"K+": 6, "Mg2+": 3, "Br-": 6, "S2-": 3})
    (('K+', 6), ('Mg2+', 3), ('Br-', 6), ('S2-', 3))
    >>> custom_spec({"K+": 6, "Br-": 5, "S2-": 3})
    Traceback (most recent call last):
    ...
    rules.core.RuleViolation: The charges on the cards must balance, as in the seed's deck \
(+37 and -37); these give +6 and -11.
    """
    spec: list[tuple[str, int]] = []
    for text, copies in ions.items():
        try:
            i = card_ion(text)
        except IonError as err:
            raise RuleViolation("bad_ion_deck", str(err), rule=SEED_DECK) from None
        spec.append((i.label, copies))
    total = sum(n for _, n in spec)
    if not MIN_CARDS <= total <= MAX_CARDS:
        raise RuleViolation(
            "bad_ion_deck", f"A deck has {MIN_CARDS} to {MAX_CARDS} cards, not {total}."
        )
    plus = sum(ion(t).charge * n for t, n in spec if ion(t).charge > 0)
    minus = sum(ion(t).charge * n for t, n in spec if ion(t).charge < 0)
    if plus + minus != 0:
        raise RuleViolation(
            "bad_ion_deck",
            "The charges on the cards must balance, as in the seed's deck (+37 and -37); "
            f"these give {plus:+d} and {minus:+d}.",
            rule=SEED_DECK,
        )
    return tuple(spec)


def count_by_ion(deck: IonDeck, cards: Sequence[int]) -> dict[str, int]:
    """How many of each ion ``cards`` hold, in deck order (ions with none left out)."""
    out: dict[str, int] = {}
    for i in deck.ions:
        n = sum(1 for c in cards if deck.ion_of(c) is i)
        if n:
            out[i.label] = n
    return out


def take_labels(
    deck: IonDeck, labels: list[str], free: list[int], what: str
) -> tuple[list[int], list[int]]:
    """Card ids for ``labels`` (ion labels), taken from ``free``: (taken, still free).
    ``what`` names the list in a refusal (``deal[0]``).

    Refuses (``bad_deal``) a label that is not in the deck or more copies than remain.

    >>> take_labels(default_deck(), ["Cl-", "Na+"], list(range(1, 41)), "deal[0]")[0]
    [9, 1]
    """
    pool = list(free)
    taken: list[int] = []
    for text in labels:
        i = deck.by_label(text)
        if i is None:
            known = ", ".join(x.label for x in deck.ions)
            raise RuleViolation(
                "bad_deal", f"{what}: {quote(text)} is not a card of this deck ({known})."
            )
        card = next((c for c in pool if deck.ion_of(c) is i), None)
        if card is None:
            copies = deck.copies[deck.ions.index(i)]
            raise RuleViolation(
                "bad_deal",
                f"{what}: the deck has only {plural(copies, i.label + ' card')} and they are all "
                "dealt already.",
            )
        pool.remove(card)
        taken.append(card)
    return taken, pool
