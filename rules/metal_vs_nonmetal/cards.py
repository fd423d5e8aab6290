"""The Ion Deck: which cards exist, their faces, and a teacher's own deck.

The default deck is the data file ``rules/chemistry/decks/ion-deck-40.toml`` (the
seed's table); a teacher may pass another deck of the same shape as the setup option
``ions`` (``{"K+": 8, "Br-": 8, ...}``), checked by the same rules. A deck is kept in
the state as its *spec*, a list of ``[label, copies]`` pairs in deck order; card ids
run from 1 in that order, one id per physical card.

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
from typing import Any

from rules.chemistry import decks
from rules.chemistry.elements import BY_SYMBOL
from rules.core import RuleViolation, is_int

from .ions import Ion, IonError, ion, label

DECK_FILE = "ion-deck-40"
MAX_IONS = 12
MAX_COPIES = 20
MIN_CARDS, MAX_CARDS = 12, 80

Spec = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Deck:
    """Every card of a deck: ``ions`` (distinct, in deck order) with their ``copies``."""

    ions: tuple[Ion, ...]
    copies: tuple[int, ...]
    faces: tuple[dict[str, Any], ...]
    ion_index: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.faces)

    @property
    def ids(self) -> range:
        return range(1, len(self.faces) + 1)

    @property
    def spec(self) -> list[list[Any]]:
        return [[i.label, n] for i, n in zip(self.ions, self.copies, strict=True)]

    def face(self, card: int) -> dict[str, Any]:
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
def deck_from_spec(spec: Spec) -> Deck:
    """The deck of a (valid) spec; memoised, as every move looks cards up."""
    ions = tuple(ion(text) for text, _ in spec)
    copies = tuple(n for _, n in spec)
    faces: list[dict[str, Any]] = []
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
                    "kind": i.kind,
                }
            )
            index.append(k)
    return Deck(ions=ions, copies=copies, faces=tuple(faces), ion_index=tuple(index))


def deck_of(state: Mapping[str, Any]) -> Deck:
    """The deck a game is played with (every move asks: the seed's deck is found fast)."""
    spec = state["deck"]
    default = default_deck()
    if spec == _default_spec_list():
        return default
    return deck_from_spec(tuple((str(t), int(n)) for t, n in spec))


@cache
def _default_spec_list() -> list[list[Any]]:
    return default_deck().spec


@cache
def default_spec() -> Spec:
    """The seed's deck, from its data file: each element's charge from rules.chemistry."""
    out = []
    for entry in decks.load(DECK_FILE)["deck"]["ions"]:
        e = BY_SYMBOL[entry["symbol"]]
        charges = [entry["charge"]] if "charge" in entry else list(e.ion_charges)
        if len(charges) != 1:
            raise ValueError(f"{DECK_FILE}: say which charge of {e.name} the card shows")
        out.append((label(e.symbol, int(charges[0])), int(entry["copies"])))
    return tuple(out)


def default_deck() -> Deck:
    return deck_from_spec(default_spec())


SEED_DECK = "The Deck: 40 cards (Na+ 8, Cl- 8, Ca2+ 7, O2- 7, Al3+ 5, N3- 5)"


def custom_spec(ions: object) -> Spec:
    """A teacher's deck, ``{label: copies}``, checked like the seed's (``bad_ion_deck``).

    Every label must be a real ion of a metal (cation) or a non-metal (anion) with a
    charge from the chemistry data; each ion once; 12 to 80 cards; and the charges
    must balance, as the seed's deck does (+37 and -37).

    >>> custom_spec({"K+": 6, "Mg2+": 3, "Br-": 6, "S2-": 3})
    (('K+', 6), ('Mg2+', 3), ('Br-', 6), ('S2-', 3))
    >>> custom_spec({"K+": 6, "Br-": 5, "S2-": 3})
    Traceback (most recent call last):
    ...
    rules.core.RuleViolation: The charges on the cards must balance, as in the seed's deck \
(+37 and -37); these give +6 and -11.
    """
    if not isinstance(ions, Mapping) or not 2 <= len(ions) <= MAX_IONS:
        raise RuleViolation(
            "bad_ion_deck",
            f"ions must be an object of 2 to {MAX_IONS} ion labels with their number of "
            'copies, e.g. {"K+": 8, "Br-": 8}.',
            rule=SEED_DECK,
        )
    spec: list[tuple[str, int]] = []
    for text, copies in ions.items():
        try:
            i = ion(text)
        except IonError as err:
            raise RuleViolation("bad_ion_deck", str(err), rule=SEED_DECK) from None
        if i.label != text:
            raise RuleViolation("bad_ion_deck", f"Write {text!r} as {i.label!r}.")
        if not is_int(copies) or not 1 <= copies <= MAX_COPIES:
            raise RuleViolation(
                "bad_ion_deck",
                f"{text}: the number of copies must be a whole number 1-{MAX_COPIES}, "
                f"not {copies!r}.",
            )
        spec.append((text, copies))
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


def take_labels(
    deck: Deck, labels: object, free: list[int], what: str
) -> tuple[list[int], list[int]]:
    """Card ids for ``labels`` (ion labels), taken from ``free``: (taken, still free).

    Refuses (``bad_deal``) a label that is not in the deck or more copies than remain.
    """
    if not isinstance(labels, list):
        raise RuleViolation("bad_deal", f"{what} must be a list of ion labels such as 'Na+'.")
    pool = list(free)
    taken: list[int] = []
    for text in labels:
        i = deck.by_label(text) if isinstance(text, str) else None
        if i is None:
            known = ", ".join(x.label for x in deck.ions)
            raise RuleViolation(
                "bad_deal", f"{what}: {text!r} is not a card of this deck ({known})."
            )
        card = next((c for c in pool if deck.ion_of(c) is i), None)
        if card is None:
            copies = deck.copies[deck.ions.index(i)]
            raise RuleViolation(
                "bad_deal",
                f"{what}: the deck has only {copies} {i.label} cards and they are all "
                "dealt already.",
            )
        pool.remove(card)
        taken.append(card)
    return taken, pool


def count_by_ion(deck: Deck, cards: Sequence[int]) -> dict[str, int]:
    """How many of each ion ``cards`` hold, in deck order (ions with none left out)."""
    out: dict[str, int] = {}
    for i in deck.ions:
        n = sum(1 for c in cards if deck.ion_of(c) is i)
        if n:
            out[i.label] = n
    return out
