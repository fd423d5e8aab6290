"""The Covalent and Ionic Compound Decks, teachers' custom decks, and the cards on a table.

A compound deck has 54 cards: compound cards (red or purple border), element cards and
wild cards (green border, each stating a chemical law). The files ``covalent-54.toml``
and ``ionic-54.toml`` list the compounds (formula and name), the copies of each element
card and the wild cards' laws; the chemistry of each compound comes from
:func:`rules.chemistry.compounds.parse_compound`.

- :func:`compound_deck` loads a built-in deck; :func:`custom_deck` builds one from a
  teacher's compound list (raising ``RuleViolation("bad_compounds")``);
- :func:`deck_problems` says why a deck is unsound (the same checks for both);
- :func:`capture_report` compares the cards a full capture needs with those a deck holds;
- :func:`table_cards` numbers the physical cards of one or more decks (ids from 1) so a
  game can name each copy; Chemistry Canasta adds the Basic Deck of 54 Elements first;
  :func:`named_table_cards` does the same memoised by deck names (what a game calls on
  every move: hashing the deck records themselves would cost half a move).

>>> deck = compound_deck("covalent")
>>> deck.size, len(deck.compounds), deck.element_cards, len(deck.wilds)
(54, 15, 33, 6)
>>> deck_problems(deck)
[]
>>> cards = table_cards([deck])
>>> cards.face(1)["formula"], cards.face(16)["kind"], cards.face(54)["kind"]
('H2O', 'element', 'wild')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, Generic, Literal, TypeAlias, TypeVar

from rules.chemistry.compounds import Compound, parse_compound
from rules.chemistry.elements import BY_SYMBOL
from rules.core import JSON, RuleViolation
from rules.draw_discard_wire import FACE_UP, TableDeck, TableFace

from . import basic_deck, load
from .limits import HAND_AFTER_DRAW, custom_limits, custom_spec

__all__ = [
    "DECK_NAMES",
    "HAND_AFTER_DRAW",
    "MIN_PLAYING_CARDS",
    "CompoundDeck",
    "CustomKey",
    "TableCards",
    "Wild",
    "capture_report",
    "compound_deck",
    "custom_deck",
    "custom_deck_of",
    "custom_key",
    "deck_problems",
    "element_copies",
    "named_table_cards",
    "table_cards",
]

DECK_NAMES = ("covalent", "ionic")
"""The built-in compound decks."""

MIN_PLAYING_CARDS = 3 * 7 + 1 + 2
"""Element and wild cards one deck needs: 3 players x 7 dealt, 1 to start the discard
pile, and 2 left in the draw deck for the first turn."""


@dataclass(frozen=True)
class Wild:
    """A wild card: the law it states, and the statement printed on it."""

    law: str
    text: str


@dataclass(frozen=True)
class CompoundDeck:
    """One compound deck: its compounds, element card copies and wild cards."""

    name: str
    title: str
    border: str
    compounds: tuple[Compound, ...]
    elements: tuple[tuple[str, int], ...]
    wilds: tuple[Wild, ...]
    cards: int = 54

    @property
    def element_cards(self) -> int:
        return sum(n for _, n in self.elements)

    @property
    def playing_cards(self) -> int:
        """Element and wild cards: the cards dealt, drawn and discarded."""
        return self.element_cards + len(self.wilds)

    @property
    def size(self) -> int:
        return len(self.compounds) + self.playing_cards


def element_copies(compounds: Sequence[Compound], cards: int) -> tuple[tuple[str, int], ...]:
    """How many copies of each element card ``cards`` element cards hold for ``compounds``.

    Each element first gets as many copies as the largest count of it in one formula,
    so every compound can be captured from element cards alone; each further card goes
    to the element with the most atoms needed (over all formulas) per copy so far
    (D'Hondt's rule), ties to the element needed most, then to the first one met.
    Raises ``ValueError`` when ``cards`` cannot even cover the largest counts.

    >>> element_copies([parse_compound("H2O"), parse_compound("CO2")], 6)
    (('H', 2), ('O', 3), ('C', 1))
    """
    need: Counter[str] = Counter()
    largest: dict[str, int] = {}
    for compound in compounds:
        for symbol, n in compound.elements:
            need[symbol] += n
            largest[symbol] = max(largest.get(symbol, 0), n)
    order = list(largest)  # first met
    copies = dict(largest)
    if sum(copies.values()) > cards:
        raise ValueError(
            f"{cards} element cards cannot cover the formulas: they need at least "
            f"{sum(copies.values())} ({', '.join(f'{s} x{n}' for s, n in largest.items())})."
        )
    while sum(copies.values()) < cards:
        best = max(order, key=lambda s: (Fraction(need[s], copies[s]), need[s], -order.index(s)))
        copies[best] += 1
    return tuple((s, copies[s]) for s in order)


def _wilds(spec: Sequence[Mapping[str, Any]]) -> tuple[Wild, ...]:
    return tuple(Wild(str(w["law"]), str(w["text"])) for w in spec)


@cache
def compound_deck(name: str) -> CompoundDeck:
    """The built-in deck ``name`` (``covalent`` or ``ionic``)."""
    if name not in DECK_NAMES:
        raise KeyError(f"no compound deck {name!r}; the decks are {list(DECK_NAMES)}")
    spec = load(f"{name}-54")
    head = spec["deck"]
    compounds = tuple(
        parse_compound(c["formula"], c["name"], head["bonding"]) for c in spec["compound"]
    )
    return CompoundDeck(
        name=str(head["name"]),
        title=str(head["title"]),
        border=str(head["border"]),
        compounds=compounds,
        elements=tuple((str(s), int(n)) for s, n in spec["elements"].items()),
        wilds=_wilds(spec["wild"]),
        cards=int(head["cards"]),
    )


def _bad(message: str, **details: Any) -> RuleViolation:
    return RuleViolation("bad_compounds", message, **details)


def custom_deck(entries: object) -> CompoundDeck:
    """A 54-card deck built from a teacher's compound list.

    ``entries``: a list of ``{"formula": str, "name": str (optional), "bonding":
    "covalent" | "ionic" (optional)}``. The six wild cards of ``custom-54.toml`` join
    the compounds, and element cards fill the deck (:func:`element_copies`). The deck
    must pass :func:`deck_problems`; anything else raises ``RuleViolation``
    ``bad_compounds`` naming the entry.

    >>> deck = custom_deck([{"formula": f} for f in ["H2O", "CO2", "CH4", "NH3", "O2", "HCl"]])
    >>> deck.size, deck.element_cards, deck.elements[0]
    (54, 42, ('H', 21))
    """
    limits = custom_limits()
    low, high = limits["min_compounds"], limits["max_compounds"]
    if not isinstance(entries, list) or not low <= len(entries) <= high:
        raise _bad(f"compounds must be a list of {low} to {high} compounds.")
    spec = custom_spec()
    compounds: list[Compound] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not set(entry) <= {"formula", "name", "bonding"}:
            raise _bad(
                f"compounds[{i}] must be an object with a formula and, optionally, a name "
                "and a bonding."
            )
        name = entry.get("name")
        if name is not None and (
            not isinstance(name, str) or not 1 <= len(name.strip()) <= limits["max_name_length"]
        ):
            raise _bad(f"compounds[{i}].name must be 1-{limits['max_name_length']} characters.")
        try:
            compound = parse_compound(entry.get("formula"), name, entry.get("bonding"))  # type: ignore[arg-type]
        except ValueError as err:
            raise _bad(f"compounds[{i}]: {err}", index=i) from None
        compounds.append(compound)
    playing = int(spec["deck"]["cards"]) - len(compounds) - len(spec["wild"])
    try:
        elements = element_copies(compounds, playing)
    except ValueError as err:
        raise _bad(f"The compounds need too many different cards: {err}") from None
    deck = CompoundDeck(
        name="custom",
        title=str(spec["deck"]["title"]),
        border=str(spec["deck"]["border"]),
        compounds=tuple(compounds),
        elements=elements,
        wilds=_wilds(spec["wild"]),
        cards=int(spec["deck"]["cards"]),
    )
    problems = deck_problems(deck)
    if problems:
        raise _bad("The compound list does not make a sound deck: " + "; ".join(problems))
    return deck


def deck_problems(deck: CompoundDeck) -> list[str]:
    """Why ``deck`` is not a sound compound deck (empty when it is).

    Sound: the seed's card total; enough compounds to turn six face up and enough
    element and wild cards for three players; no compound twice; every compound small
    enough to capture from one hand and capturable from the deck's own element cards
    alone; no element card that no compound needs; every wild card stating a law; every
    two-element ionic compound balanced by the ion table's charges.
    """
    problems: list[str] = []
    if deck.size != deck.cards:
        problems.append(f"the deck has {deck.size} cards, not {deck.cards}")
    if len(deck.compounds) < FACE_UP:
        problems.append(f"{len(deck.compounds)} compound cards: six must be turned face up")
    if deck.playing_cards < MIN_PLAYING_CARDS:
        problems.append(
            f"{deck.playing_cards} element and wild cards: three players need "
            f"{MIN_PLAYING_CARDS} (7 each, 1 for the discard pile, 2 to draw)"
        )
    formulas = [c.formula for c in deck.compounds]
    twice = sorted({f for f in formulas if formulas.count(f) > 1})
    if twice:
        problems.append(f"compounds listed twice: {', '.join(twice)}")
    copies = dict(deck.elements)
    for symbol in copies:
        if symbol not in BY_SYMBOL:
            problems.append(f"{symbol} is not an element symbol")
    needed = {s for c in deck.compounds for s, _ in c.elements}
    unused = sorted(set(copies) - needed)
    if unused:
        problems.append(f"element cards no compound needs: {', '.join(unused)}")
    for c in deck.compounds:
        if c.atoms > HAND_AFTER_DRAW:
            problems.append(
                f"{c.formula} needs {c.atoms} cards; a hand holds {HAND_AFTER_DRAW} after "
                "the first draw"
            )
        short = {s: n - copies.get(s, 0) for s, n in c.elements if n > copies.get(s, 0)}
        if short:
            problems.append(
                f"{c.formula} cannot be captured from the deck's element cards "
                f"(short of {', '.join(f'{s} x{n}' for s, n in short.items())})"
            )
        if c.bonding == "ionic" and len(c.elements) == 2 and c.ions is None:
            symbols = ", ".join(s for s, _ in c.elements)
            problems.append(
                f"{c.formula}: the charges of {symbols} on the ion table do not balance"
            )
    for wild in deck.wilds:
        if not wild.law.strip() or not wild.text.strip():
            problems.append("a wild card must state a law (a name and its statement)")
    return problems


def capture_report(deck: CompoundDeck) -> JSON:
    """The cards a full capture of ``deck`` needs against the cards it holds.

    >>> report = capture_report(compound_deck("ionic"))
    >>> report["atoms_needed"], report["playing_cards"], report["element_cards"]
    (42, 39, 33)
    """
    need: Counter[str] = Counter()
    for c in deck.compounds:
        for symbol, n in c.elements:
            need[symbol] += n
    copies = dict(deck.elements)
    return {
        "deck": deck.name,
        "compounds": len(deck.compounds),
        "atoms_needed": sum(need.values()),
        "element_cards": deck.element_cards,
        "wild_cards": len(deck.wilds),
        "playing_cards": deck.playing_cards,
        "per_element": [
            {"symbol": s, "atoms_needed": need[s], "cards": copies.get(s, 0)} for s in need
        ],
    }


# ---------------------------------------------------------------- the table's cards --
Face_co = TypeVar("Face_co", bound=Mapping[str, Any], covariant=True)
"""How a game types its cards' faces (its declared ``Card``); read-only, so a table of
one game's cards is a table of any wider face (``TableCards[Face]``)."""


@dataclass(frozen=True)
class TableCards(Generic[Face_co]):
    """The physical cards of the decks in play, numbered from 1 (``faces[id - 1]``).

    Faces are built as the declared
    :class:`rules.draw_discard_wire.TableFace`: ``id``, ``kind`` (``compound``,
    ``element``, ``wild``) and ``deck``; compound faces add the ``border`` and the
    chemistry printed on the card (:class:`rules.chemistry.compounds.Compound`); element
    faces ``symbol``, ``name`` and ``z``; wild faces the ``law``, its ``text`` and the
    ``border`` (green). A game types them as its own ``Card`` (``TableCards[Card]``).
    Treat the faces as read-only: they are shared.
    """

    faces: tuple[Face_co, ...]
    compounds: Mapping[int, Compound]

    def face(self, card: int) -> Face_co:
        return self.faces[card - 1]

    @property
    def ids(self) -> range:
        return range(1, len(self.faces) + 1)

    def compound_ids(self) -> list[int]:
        return [c for c in self.ids if self.kind(c) == "compound"]

    def playing_ids(self) -> list[int]:
        """Element and wild cards: the cards dealt to the players."""
        return [c for c in self.ids if self.kind(c) != "compound"]

    def compound(self, card: int) -> Compound:
        return self.compounds[card]

    def is_wild(self, card: int) -> bool:
        return self.kind(card) == "wild"

    def kind(self, card: int) -> str:
        return str(self.faces[card - 1]["kind"])


_DECKS: dict[str, TableDeck] = {name: name for name in ("basic", "covalent", "ionic", "custom")}
_BORDERS: dict[str, Literal["red", "purple", "green"]] = {b: b for b in ("red", "purple", "green")}
_BONDINGS: dict[str, Literal["covalent", "ionic"]] = {b: b for b in ("covalent", "ionic")}
"""The deck files' and the chemistry's words as the card declares them (a word the
declaration lacks raises ``KeyError`` when the table is numbered)."""


def _element_face(card: int, deck: str, symbol: str) -> TableFace:
    e = BY_SYMBOL[symbol]
    return {
        "id": card,
        "kind": "element",
        "deck": _DECKS[deck],
        "symbol": symbol,
        "name": e.name,
        "z": e.number,
    }


def _compound_face(card: int, deck: CompoundDeck, compound: Compound) -> TableFace:
    """A compound card: its deck's border and the chemistry printed on it."""
    return {
        "id": card,
        "kind": "compound",
        "deck": _DECKS[deck.name],
        "border": _BORDERS[deck.border],
        "formula": compound.formula,
        "name": compound.name,
        "bonding": _BONDINGS[compound.bonding],
        "elements": [{"symbol": s, "count": n} for s, n in compound.elements],
        "atoms": compound.atoms,
        "molar_mass": compound.molar_mass,
        "ions": None
        if compound.ions is None
        else [
            {"ion": i.label(), "symbol": i.symbol, "charge": i.charge, "count": i.count}
            for i in compound.ions
        ],
    }


def _wild_face(card: int, deck: str, wild: Wild) -> TableFace:
    return {
        "id": card,
        "kind": "wild",
        "deck": _DECKS[deck],
        "border": "green",
        "law": wild.law,
        "text": wild.text,
    }


def table_cards(decks: Sequence[CompoundDeck], *, basic: bool = False) -> TableCards[TableFace]:
    """Number the cards of ``decks`` (in order) from 1; with ``basic``, the Basic Deck of
    54 Elements comes first, so its card ids are the atomic numbers 1-54.

    Within a deck: its compound cards in file order, then its element cards by element
    (file order) and copy, then its wild cards. The same deck may appear twice (two
    copies of a custom deck).
    """
    return _table_cards(tuple(decks), basic)


@lru_cache(maxsize=64)
def _table_cards(decks: tuple[CompoundDeck, ...], basic: bool) -> TableCards[TableFace]:
    faces: list[TableFace] = []
    compounds: dict[int, Compound] = {}
    if basic:
        for spec in basic_deck():
            faces.append(_element_face(len(faces) + 1, "basic", str(spec["symbol"])))
    for deck in decks:
        for compound in deck.compounds:
            card = len(faces) + 1
            compounds[card] = compound
            faces.append(_compound_face(card, deck, compound))
        for symbol, copies in deck.elements:
            for _ in range(copies):
                faces.append(_element_face(len(faces) + 1, deck.name, symbol))
        for wild in deck.wilds:
            faces.append(_wild_face(len(faces) + 1, deck.name, wild))
    return TableCards(tuple(faces), compounds)


# ---------------------------------------------------------------- memoised by name ---
CustomKey: TypeAlias = tuple[tuple[tuple[str, str], ...], ...]
"""A teacher's compound list as a hashable key (each entry's items, sorted)."""


def custom_key(entries: Sequence[Mapping[str, Any]]) -> CustomKey:
    """The key of a custom compound list, for :func:`custom_deck_of` and
    :func:`named_table_cards`.

    >>> custom_key([{"name": "Water", "formula": "H2O"}])
    ((('formula', 'H2O'), ('name', 'Water')),)
    """
    return tuple(tuple(sorted((str(k), str(v)) for k, v in e.items())) for e in entries)


@lru_cache(maxsize=64)
def custom_deck_of(key: CustomKey) -> CompoundDeck:
    """:func:`custom_deck` of the list ``key`` was made from, memoised."""
    return custom_deck([dict(entry) for entry in key])


@lru_cache(maxsize=64)
def named_table_cards(
    names: tuple[str, ...], custom: CustomKey = (), *, basic: bool = False
) -> TableCards[TableFace]:
    """:func:`table_cards` of the decks ``names`` (built-in names, or ``"custom"`` for the
    deck of the list ``custom``), memoised by the names.

    >>> cards = named_table_cards(("covalent",), basic=True)
    >>> len(cards.faces), cards.face(26)["symbol"], cards.face(55)["formula"]
    (108, 'Fe', 'H2O')
    """
    decks = [custom_deck_of(custom) if n == "custom" else compound_deck(n) for n in names]
    return table_cards(decks, basic=basic)
