"""The Chemistry Card Game over the wire: its options, move, view, scores and events.

Declared once (see :mod:`rules.shapes`); the service's schemas and the contract are
derived from these, and the tests check every real answer against them.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict, get_args

from rules.chemistry.elements import FAMILIES
from rules.shapes import Count, F, Seat
from rules.wire import GameOver

Z = Annotated[int, F("Atomic number.", minimum=1, maximum=103, example=26)]


class Options(TypedDict, total=False):
    words: Annotated[
        list[Annotated[str, F(max_length=64)]] | None,
        F(
            "A teacher's own list of 5-letter words for the atomic-symbol race (at most "
            "500); null uses the built-in English list.",
            default=None,
            max_items=500,
            example=["bacon", "snack", "chess"],
            code="bad_word_list",
        ),
    ]
    deal: Annotated[
        list[Annotated[list[Z], F(min_items=1)]] | None,
        F(
            "Fix the hands: one list of atomic numbers per seat, all the same size, no "
            "card twice. For lessons and tests; null deals by the seed's table.",
            default=None,
            min_items=2,
            max_items=10,
            example=[[1, 5, 6, 7, 10], [2, 3, 4, 8, 9]],
            code="bad_deal",
            secret=True,
        ),
    ]
    bismuth_radioactive: Annotated[
        bool,
        F(
            "Count bismuth (83) as radioactive. Its only natural isotope decays with a "
            "half-life of about 2e19 years, so school tables often call it stable.",
            default=False,
        ),
    ]


class DraftMove(TypedDict):
    """Select one card of your hand to draft this round (kept secret until all have
    selected)."""

    type: Literal["draft"]
    card: Annotated[Z, F("Atomic number of the card.")]


FamilyKey = Literal[
    "alkali-metal",
    "alkaline-earth-metal",
    "transition-metal",
    "post-transition-metal",
    "metalloid",
    "nonmetal",
    "halogen",
    "noble-gas",
    "lanthanide",
    "actinide",
]
if get_args(FamilyKey) != FAMILIES:  # the contract's enum is the data's, in order
    raise TypeError(f"families: the wire declares {get_args(FamilyKey)}, the data {FAMILIES}")
FAMILY_KEY: dict[str, FamilyKey] = {key: key for key in get_args(FamilyKey)}
"""The data's family slug as the declared key (the same string, typed)."""

IonCharge = Annotated[int, F(minimum=-4, maximum=7)]


class Element(TypedDict):
    """The facts printed on an element card (the base of :class:`Card`, in views and
    events, and :class:`DeckCard`, in the catalogue, which adds the family's name and the
    ions as chemists write them)."""

    z: Z
    symbol: Annotated[str, F("Element symbol.", example="Fe")]
    name: Annotated[str, F("Element name.", example="Iron")]
    mass: Annotated[
        float,
        F(
            "Atomic mass printed on the card, in u: the standard atomic weight, or for an "
            "element without one the mass of the isotope the tables quote in brackets (the "
            "catalogue's mass_is_standard). The atomic-mass category adds these numbers "
            "exactly as printed.",
            example=55.845,
        ),
    ]
    family: Annotated[
        FamilyKey,
        F("Family key (the family category).", example="transition-metal", name="FamilyKey"),
    ]
    ion_charges: Annotated[
        list[IonCharge],
        F(
            "Signed common ion charges (positive by size, then negative by size; empty for "
            "a noble gas): what the ionization category pairs.",
            example=[2, 3],
        ),
    ]


class Card(Element):
    """An element card as views and events show it, with every fact the scoring uses
    (from molmass's element table)."""

    radioactive: Annotated[
        bool,
        F(
            "Counted as radioactive in this game (bismuth only with the option "
            "bismuth_radioactive): what the radioactivity category counts."
        ),
    ]


class DeckCard(Element):
    """One element card of the full deck with every fact the scoring uses (from
    molmass's element table)."""

    radioactive: Annotated[bool, F("Counted as radioactive (with the default options).")]
    mass_is_standard: Annotated[
        bool, F("False: no standard atomic weight; the mass is one isotope's.")
    ]
    family_name: Annotated[str, F("Family name.", example="Transition metals")]
    ions: Annotated[
        list[str],
        F("The same ions as chemists write them, in the same order.", example=["Fe2+", "Fe3+"]),
    ]


class Placing(TypedDict):
    """A word spelled with the symbols of drafted cards, and its place in the race."""

    seat: Seat
    turn: Annotated[int, F("Round it was spelled in.", minimum=1)]
    place: Annotated[int, F("Place in the race (1 is first).", minimum=1)]
    points: Annotated[int, F("Points for that place.")]
    word: Annotated[str, F("The word.", example="bacon")]
    symbols: Annotated[list[str], F("The symbols that spell it.", example=["Ba", "C", "O", "N"])]
    cards: Annotated[list[Z], F("The cards whose symbols spell it.")]
    tied: Annotated[bool, F("Shared with another seat.")]
    explanation: Annotated[
        str,
        F(
            "The word, the symbols that spell it and their elements, the place and the "
            "points, in a sentence.",
            example="Seat 1 spells BACON with the symbols B + Ac + O + N (boron, actinium, "
            "oxygen, nitrogen) in round 4: first place, 8 points.",
        ),
    ]


class SeatView(TypedDict):
    """One seat, as everyone sees it."""

    seat: Seat
    drafted: Annotated[list[Card], F("Cards drafted so far (face up).")]
    hand_count: Annotated[Count, F("Cards in hand.")]
    has_selected: Annotated[bool, F("Whether it has selected this round (which card is secret).")]
    word: Annotated[Placing | None, F("Its word, once it has spelled one.")]
    score: Annotated[int, F("Total so far.")]


class You(TypedDict):
    """Your own seat: your hand and your secret selection."""

    seat: Seat
    hand: Annotated[list[Card], F("Your hand.")]
    selection: Annotated[Card | None, F("The card you selected this round, if any.")]
    left: Annotated[Seat, F("Seat you pass to.")]
    right: Annotated[Seat, F("Seat that passes to you.")]


class View(TypedDict):
    """What one seat (or an observer) may see: never another seat's hand or selection."""

    game: Annotated[Literal["element-draft"], F("The game.")]
    players: Annotated[int, F("Number of seats.", minimum=2)]
    turn: Annotated[int, F("The round being drafted (the last one once finished).", minimum=1)]
    rounds: Annotated[int, F("Rounds in the draft (the hand size).", minimum=1)]
    finished: Annotated[bool, F("Whether every card has been drafted.")]
    deck_size: Annotated[int, F("Highest atomic number in the deck.", minimum=1)]
    hand_size: Annotated[int, F("Cards dealt to each seat.", minimum=1)]
    set_aside_count: Annotated[Count, F("Cards set aside at the deal.")]
    set_aside: Annotated[
        list[Card] | None,
        F(
            "The cards set aside at the deal (never used): null during the draft, listed "
            "once it has ended so anyone can check the deal."
        ),
    ]
    word_list: Annotated[Literal["default", "custom"], F("Which word list the spelling race uses.")]
    radioactivity_scored: Annotated[bool, F("Whether radioactivity scores (7+ players).")]
    seats: Annotated[list[SeatView], F("Every seat, in seat order.")]
    you: Annotated[You | None, F("Your own seat; null for an observer.")]


class AtomicNumber(TypedDict):
    """The longest run of consecutive atomic numbers."""

    points: int
    run: Annotated[list[Z], F("The run.")]
    counted: Annotated[int, F("Cards of it counted (2 to 4).", minimum=0, maximum=4)]


class NeighbourMass(TypedDict):
    """Your total mass against one neighbour's."""

    side: Annotated[Literal["left", "right"], F("Which neighbour.")]
    seat: Seat
    their_mass: Annotated[float, F("The neighbour's total mass in u (for display).")]
    their_mass_exact: Annotated[
        str,
        F(
            "The neighbour's total mass in u as an exact decimal: the sum of the masses "
            "printed on its cards, as compared (no rounding).",
            example="334.8728631",
        ),
    ]
    points: int


class AtomicMass(TypedDict):
    """Your total mass against your two neighbours'."""

    points: int
    mass: Annotated[float, F("Your total mass in u (for display).")]
    mass_exact: Annotated[
        str,
        F(
            "Your total mass in u as an exact decimal: the sum of the masses printed on "
            "your cards. Totals are compared exactly, so only equal strings tie.",
            example="334.872863163",
        ),
    ]
    neighbours: Annotated[list[NeighbourMass], F("Left then right.")]


class AtomicSymbol(TypedDict):
    """Your place in the race to spell a word."""

    points: int
    word: Annotated[Placing | None, F("Your word, if you spelled one.")]


class IonPair(TypedDict):
    """A cation and an anion of equal and opposite charge."""

    cation: Annotated[Z, F("The cation's card.")]
    anion: Annotated[Z, F("The anion's card.")]
    charge: Annotated[int, F("The size of the charge they cancel.", minimum=1)]
    formula: Annotated[str, F("The compound they form.", example="NaCl")]
    cation_ion: Annotated[str, F("The cation as chemists write it.", example="Na+")]
    anion_ion: Annotated[str, F("The anion as chemists write it.", example="Cl-")]


class Ionization(TypedDict):
    """Ion pairs of equal and opposite charge among your cards."""

    points: int
    pairs: Annotated[list[IonPair], F("The pairs counted.")]


class Family(TypedDict):
    """Your cards by chemical family."""

    points: int
    families: Annotated[
        dict[str, Count],
        F(
            "Family key -> how many of your cards.",
            key_pattern="^(" + "|".join(FAMILIES) + ")$",
        ),
    ]
    distinct: Annotated[Count, F("How many families.")]
    largest: Annotated[Count, F("Cards in your largest family.")]
    counted: Annotated[Count, F("The count the points are for.")]


class Radioactivity(TypedDict):
    """Radioactive elements: a bonus or a penalty at 7+ players."""

    points: int
    radioactive: Annotated[list[Z], F("Your radioactive cards.")]
    applies: Annotated[bool, F("7+ players only.")]


class Categories(TypedDict):
    """The six scoring categories."""

    atomic_number: AtomicNumber
    atomic_mass: AtomicMass
    atomic_symbol: AtomicSymbol
    ionization: Ionization
    family: Family
    radioactivity: Radioactivity


class SeatScore(TypedDict):
    """One seat's score with its evidence."""

    seat: Seat
    total: Annotated[int, F("Sum of the categories' points.")]
    highest_atomic_number: Annotated[int, F("The tie-break: highest card drafted.")]
    categories: Categories


class Scores(TypedDict):
    """Every seat's score, with the evidence behind each number."""

    final: Annotated[bool, F("Whether the draft is over.")]
    seats: Annotated[list[SeatScore], F("In seat order.")]


class CardSelectedEvent(TypedDict):
    """A seat selected its card (only that seat learns which)."""

    type: Literal["card_selected"]
    seat: Seat
    card: NotRequired[Annotated[Z, F("Present only for the selecting seat.")]]


class RevealedCard(Card):
    """A card revealed, with the seat that drafted it."""

    seat: Seat


class CardsRevealedEvent(TypedDict):
    """Every seat has selected: the selections are revealed together."""

    type: Literal["cards_revealed"]
    turn: Annotated[int, F("The round.", minimum=1)]
    cards: Annotated[list[RevealedCard], F("Each seat's drafted card, in seat order.")]
    explanation: Annotated[
        str,
        F(
            "Who drafted what, in a sentence.",
            example="Round 1: seat 0 drafts chlorine (Cl, 17); seat 1 drafts sodium (Na, 11).",
        ),
    ]


class WordSpelledEvent(Placing):
    """A seat's drafted symbols spell a word of the list."""

    type: Literal["word_spelled"]


class IonsPairedEvent(TypedDict):
    """A seat's drafted card forms a new ion pair: its ionization category gains 5 points.

    Sent after the reveal for each seat whose largest set of ion pairs grew. The new
    card is in every largest set, so ``pair`` is the pair it forms; ``pairs`` is the
    whole set the seat counts now (it may regroup the earlier pairs).
    """

    type: Literal["ions_paired"]
    seat: Seat
    turn: Annotated[int, F("The round.", minimum=1)]
    card: Annotated[Z, F("The drafted card that forms the new pair.")]
    pair: Annotated[IonPair, F("The pair the card forms.")]
    pairs: Annotated[list[IonPair], F("Every pair the seat counts now.")]
    points: Annotated[int, F("Points the new pair adds.", example=5)]
    ionization_points: Annotated[int, F("The seat's ionization points now.", minimum=0)]
    explanation: Annotated[
        str,
        F(
            "The ions, their charge, the compound and the points, in a sentence.",
            example="Seat 0 drafts chlorine (Cl, 17): the anion Cl- pairs with the cation "
            "Na+ (charges of size 1 cancel), forming NaCl: +5 points. Ion pairs now: NaCl, "
            "5 points.",
        ),
    ]


class HandsPassedEvent(TypedDict):
    """The remaining hands pass to the left."""

    type: Literal["hands_passed"]
    turn: Annotated[int, F("The round just drafted.", minimum=1)]
    direction: Annotated[Literal["left"], F("Where hands go (seat + 1).")]


class GameOverEvent(GameOver):
    """Every card is drafted: the final outcome."""


class WordSource(TypedDict):
    """Where the built-in word list comes from."""

    package: Annotated[str, F("The Debian package.", example="wamerican")]
    version: Annotated[str, F("Its version.")]
    file: Annotated[str, F("The file read.")]
    description: Annotated[str, F("What the file is.")]
    sha256: Annotated[str, F("Of the source file.")]
    upstream: Annotated[str, F("Where the package comes from.")]


class WordBuild(TypedDict):
    """How the word list is built from its source."""

    script: Annotated[str, F("The script.", example="scripts/build_words.py")]
    command: Annotated[str, F("The command.", example="make words")]
    filters: Annotated[list[str], F("The filters, in order.")]
    counts: Annotated[str, F("How many words each step kept.")]


class WordList(TypedDict):
    """The built-in word list of the atomic-symbol race, with where it comes from.

    A client can check a word race itself: every 5-letter word here is spellable with
    element symbols; `spellable_at_deck_size` says how many at each of the seed's deck
    sizes.
    """

    name: Annotated[str, F("The resource's name.", example="words")]
    title: Annotated[str, F("A title for people.")]
    count: Annotated[Count, F("How many words.", example=1155)]
    words: Annotated[list[str], F("The words.", example=["bacon"])]
    spellable_at_deck_size: Annotated[
        dict[str, Count], F("Deck size -> how many of the words it can spell.")
    ]
    source: WordSource
    build: WordBuild
    licence: Annotated[str, F("The source's licence.")]
    rule: Annotated[str, F("How a word is spelled.")]
