"""The polymer-chain game over the wire: the shapes that are no single move's own.

Declared once (see :mod:`rules.shapes`): the setup options, a card and a chain as views
and events show them, the view, the scores and the deck card. Each move type declares
its move and the events its effect emits beside its rules (:mod:`.moves`); ``game.WIRE``
gathers them all.

The enums are the contract's; the deck file and the rules' constants must agree with
them, which is checked when this module is imported.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal, NotRequired, TypedDict, get_args

from rules.shapes import CardId, Count, F, Seat

from .cards import DECK_SIZE, FACES, INITIATOR, KINDS, MAX_DECKS, MECHANISMS, MONOMERS
from .chains import PROPAGATION_MODES, STATES

CARD_MAX = DECK_SIZE * MAX_DECKS
"""Card ids run from 1 to 110: two decks of 55."""
CHAIN_MAX = 10_000
"""A bound on chain ids that no game reaches (each chain holds at least one card)."""
LIST_MAX = 8
"""Longest card or chain list a move may carry at all (a round uses at most three cards;
a longer list is a malformed move)."""

# ---------------------------------------------------------------- enums -------------
_Kind = Literal["monomer", "initiator", "termination", "tempo", "cta", "copolymer"]
_MonomerKey = Literal["styrene", "methyl_methacrylate", "methyl_acrylate", "acrylonitrile"]
_InitiatorKey = Literal["fenton", "aibn"]
_Mechanism = Literal["combination", "disproportionation"]
_CardKey = Literal[_MonomerKey, _InitiatorKey, _Mechanism, "tempo", "cta", "copolymer"]
Propagation = Literal["follow", "meld"]
UnitsPerCard = Literal["value", "one"]
TerminationScope = Literal["mine_and_any", "own", "any"]
TerminationMechanism = Literal["printed", "either"]
End = Literal["immediate", "equal_turns"]
EmptyStack = Literal["play_on", "end"]
Scoring = Literal["monomers", "molar_mass"]
Ranking = Literal["mn_then_pdi", "pdi_then_mn", "pareto"]

# named: one schema each in the contract (PolymerizationMonomerKey...), which every
# member declared with it refers to
Kind = Annotated[_Kind, F("A card's sort: a monomer, an initiator or a joker.", name="CardKind")]
MonomerKey = Annotated[_MonomerKey, F("One of the four monomers.", name="MonomerKey")]
InitiatorKey = Annotated[_InitiatorKey, F("One of the two initiators.", name="InitiatorKey")]
Mechanism = Annotated[_Mechanism, F("How a termination joins two chains.", name="TerminationKind")]
CardKey = Annotated[
    _CardKey, F("A card's face: a monomer, an initiator or a joker.", name="CardKey")
]
EndedBy = Annotated[
    Literal["combination", "disproportionation", "transfer"],
    F("How a chain was ended: by a termination card or by chain transfer.", name="EndedBy"),
]
ChainState = Annotated[
    Literal["growing", "capped", "terminated"],
    F("Growing, capped with TEMPO (dormant) or terminated.", name="ChainState"),
]
Phase = Annotated[
    Literal["draw", "play", "over"],
    F("The turn's step: draw a card, play (a round or a discard), or the game is over.",
      name="Phase"),
]  # fmt: skip
EndReason = Annotated[
    Literal["hand_emptied", "stack_empty"],
    F("Why the game ended: a hand was emptied, or the stack was.", name="EndReason"),
]


def _agree(declared: Any, used: Iterable[str], what: str) -> None:
    """Refuse to load when the contract's enum and the rules' values differ."""
    values = tuple(dict.fromkeys(used))
    if get_args(declared) != values:
        raise TypeError(f"{what}: the wire declares {get_args(declared)}, the rules {values}")


_agree(_Kind, KINDS, "card kinds")
_agree(_CardKey, (f.key for f in FACES), "card keys")
_agree(_MonomerKey, MONOMERS, "monomers")
_agree(_InitiatorKey, (f.key for f in FACES if f.kind == INITIATOR), "initiators")
_agree(_Mechanism, MECHANISMS, "termination mechanisms")
_agree(get_args(ChainState)[0], STATES, "chain states")
_agree(Propagation, PROPAGATION_MODES, "propagation modes")

# The data's keys as the declared ones (the same strings, typed), for what views show.
KIND: dict[str, _Kind] = {key: key for key in get_args(_Kind)}
CARD_KEY: dict[str, _CardKey] = {key: key for key in get_args(_CardKey)}
MONOMER_KEY: dict[str, _MonomerKey] = {key: key for key in get_args(_MonomerKey)}
INITIATOR_KEY: dict[str, _InitiatorKey] = {key: key for key in get_args(_InitiatorKey)}
MECHANISM: dict[str, _Mechanism] = {key: key for key in get_args(_Mechanism)}

# ---------------------------------------------------------------- shared members ----
CardNo = Annotated[CardId, F(minimum=1, maximum=CARD_MAX, example=41)]
ChainId = Annotated[
    int, F("A chain's id, as the view lists it.", minimum=1, maximum=CHAIN_MAX, example=1)
]
Explanation = Annotated[str, F("What happened, in polymer chemistry's words.")]
Cards = Annotated[list[CardNo], F(max_items=LIST_MAX)]
"""A move's list of card ids."""
ROUND_CARDS = " (a round uses at most three cards in all)."


# ---------------------------------------------------------------- options -----------
Decks = Annotated[
    Literal[1, 2],
    F(
        "How many of the two identical 55-card decks are shuffled together: 2 (the seed's "
        "set, 110 cards) or 1 (a shorter game).",
        name="Decks",
    ),
]
PropagationOption = Annotated[
    Propagation,
    F(
        "What may follow what. 'follow': each monomer card has the value of the card before "
        "it (a pair or triplet, never four in a row) or the next of the series 1, 2, 3 "
        "(after 3 comes 1). 'meld': the cards of one round, on their own, are one card, a "
        "pair or triplet of one value, or an ascending series (1-2, 2-3, 1-2-3).",
        name="Propagation",
    ),
]
UnitsPerCardOption = Annotated[
    UnitsPerCard,
    F(
        "What a monomer card counts as: 'value' (a card of value v is v repeat units, the "
        "number of monomers of a chain is the sum of its values) or 'one' (each card is "
        "one monomer; the value only governs play).",
        name="UnitsPerCard",
    ),
]
AibnSingleStart = Annotated[
    bool,
    F(
        "Let AIBN start a single chain too (one of its two radicals is lost). The seed's "
        "AIBN starts two chains."
    ),
]
TerminationScopeOption = Annotated[
    TerminationScope,
    F(
        "Which two growing chains a termination card may join: 'mine_and_any' (one of yours "
        "and any other, an opponent's being taken), 'own' (both yours) or 'any'.",
        name="TerminationScope",
    ),
]
TerminationMechanismOption = Annotated[
    TerminationMechanism,
    F(
        "'printed': each termination card is combination or disproportionation as printed; "
        "'either': any termination card may be played either way.",
        name="TerminationMechanism",
    ),
]
CappedCount = Annotated[
    bool,
    F(
        "Count TEMPO-capped (dormant) chains at the end as if terminated. By default only "
        "terminated chains count."
    ),
]
EndOption = Annotated[
    End,
    F(
        "When a player empties its hand: 'immediate' (the game ends at once, as the seed "
        "says) or 'equal_turns' (the turns go on to the last seat of the lap, so that every "
        "seat has played as many turns).",
        name="EndRule",
    ),
]
EmptyStackOption = Annotated[
    EmptyStack,
    F(
        "When the stack is empty: 'play_on' (turns go on without drawing until a hand is "
        "empty) or 'end' (the game ends when a seat should draw and cannot).",
        name="EmptyStack",
    ),
]
ScoringOption = Annotated[
    Scoring,
    F(
        "'monomers': the number of monomers in your terminated chains; 'molar_mass': Mn and "
        "PDI of your terminated chains, ranked by `ranking`.",
        name="Scoring",
    ),
]
RankingOption = Annotated[
    Ranking,
    F(
        "With molar_mass scoring: 'mn_then_pdi' (higher Mn wins, lower PDI breaks a tie), "
        "'pdi_then_mn' (lower PDI wins, higher Mn breaks a tie) or 'pareto' (a player "
        "beaten on neither Mn nor PDI shares first place).",
        name="Ranking",
    ),
]
EndGroups = Annotated[
    bool,
    F(
        "Add the end groups (initiator fragments, H, TEMPO...) to each chain's molar mass "
        "Mi. By default Mi is the repeat units' mass only."
    ),
]


class Options(TypedDict, total=False):
    decks: Annotated[Decks, F(default=2)]
    deal: Annotated[
        list[Annotated[list[CardNo], F(min_items=1)]] | None,
        F(
            "Fix the hands: one list of card ids per seat (any sizes, no card twice); the "
            "other cards are shuffled into the stack. For lessons and tests; null deals "
            "15/13/11.",
            default=None,
            min_items=2,
            max_items=4,
            example=[[41, 1, 5, 8, 46, 31], [42, 11, 15, 52, 49, 21]],
            code="bad_deal",
            secret=True,
        ),
    ]
    propagation: Annotated[PropagationOption, F(default="follow")]
    units_per_card: Annotated[UnitsPerCardOption, F(default="value")]
    aibn_single_start: Annotated[AibnSingleStart, F(default=False)]
    termination_scope: Annotated[TerminationScopeOption, F(default="mine_and_any")]
    termination_mechanism: Annotated[TerminationMechanismOption, F(default="printed")]
    capped_count: Annotated[CappedCount, F(default=False)]
    end: Annotated[EndOption, F(default="immediate")]
    empty_stack: Annotated[EmptyStackOption, F(default="play_on")]
    scoring: Annotated[ScoringOption, F(default="monomers")]
    ranking: Annotated[RankingOption, F(default="mn_then_pdi")]
    end_groups: Annotated[EndGroups, F(default=False)]


class Rules(TypedDict):
    """The options this game was set up with (except a fixed deal)."""

    decks: Decks
    propagation: PropagationOption
    units_per_card: UnitsPerCardOption
    aibn_single_start: AibnSingleStart
    termination_scope: TerminationScopeOption
    termination_mechanism: TerminationMechanismOption
    capped_count: CappedCount
    end: EndOption
    empty_stack: EmptyStackOption
    scoring: ScoringOption
    ranking: RankingOption
    end_groups: EndGroups


# ---------------------------------------------------------------- cards, chains -----
Smiles = Annotated[
    str,
    F(
        "The structure as SMILES (derived from the compound's name with OPSIN, in RDKit's "
        "canonical form; a test checks it against the formula and the name).",
        example="C=Cc1ccccc1",
    ),
]
Compound = Annotated[str, F("The compound the formula and structure are of.", example="styrene")]
MolarMass = Annotated[float, F("g/mol, computed from the formula.", example=104.149448)]
Formula = Annotated[str, F("Molecular formula.", example="C8H8")]


class Card(TypedDict):
    """A card face with its id, as printed: every card says whether it is a joker;
    a card with a formula (a monomer, an initiator, TEMPO, the CTA) carries its molar
    mass, compound and structure; a monomer its value, an initiator its radicals and
    fragment, a termination card its mechanism."""

    id: Annotated[CardNo, F(f"Card id, 1-{CARD_MAX}.", example=1)]
    kind: Annotated[Kind, F("What sort of card it is (a monomer, an initiator or a joker).")]
    key: Annotated[CardKey, F("The face: which monomer, initiator or joker.", example="styrene")]
    name: Annotated[str, F("The face's name.", example="Styrene")]
    joker: Annotated[
        bool,
        F(
            "A joker (the seed's grey label): termination, TEMPO (SFRP), CTA or copolymer, "
            "played on your own chains or, all but TEMPO, on an opponent's to take them."
        ),
    ]
    value: NotRequired[
        Annotated[int, F("Monomers: repeat units of the card (1, 2 or 3).", minimum=1, maximum=3)]
    ]
    formula: NotRequired[Formula]
    molar_mass: NotRequired[MolarMass]
    compound: NotRequired[Compound]
    smiles: NotRequired[Smiles]
    radicals: NotRequired[
        Annotated[int, F("Initiators: radicals formed (chains started).", minimum=1, maximum=2)]
    ]
    fragment: NotRequired[
        Annotated[
            str,
            F("Initiators: the primary radical, the chain's first end group.", example="HO"),
        ]
    ]
    mechanism: NotRequired[Annotated[Mechanism, F("Termination cards: how they terminate.")]]


class DeckCard(Card):
    """A card of the deck as the catalogue lists it: its face, which of the two decks it
    belongs to, and for a monomer the polymer it makes."""

    deck: Annotated[int, F("Which of the two 55-card decks.", minimum=1, maximum=MAX_DECKS)]
    polymer: NotRequired[
        Annotated[str, F("Monomers: the polymer it makes.", example="polystyrene (PS)")]
    ]
    reaction: NotRequired[
        Annotated[str, F("Jokers: what the card does to a growing chain, as a reaction.")]
    ]


MONOMER_PATTERN = "^(" + "|".join(get_args(_MonomerKey)) + ")$"


class Chain(TypedDict):
    """A chain on the table (growing or capped) or set aside (terminated)."""

    id: ChainId
    owner: Annotated[Seat, F("The seat it belongs to.")]
    state: ChainState
    monomer: Annotated[MonomerKey, F("The monomer it grows with now (its last monomer card's).")]
    units: Annotated[Count, F("Number of monomers.")]
    composition: Annotated[
        dict[str, Count], F("Repeat units per monomer.", key_pattern=MONOMER_PATTERN)
    ]
    values: Annotated[
        list[Annotated[int, F(minimum=1, maximum=3)]], F("Monomer card values, in order.")
    ]
    accepts: Annotated[
        list[Annotated[int, F(minimum=1, maximum=3)]],
        F("Values its next monomer card may have (empty unless growing)."),
    ]
    ends: Annotated[
        list[str],
        F(
            "End groups: the initiating fragment first, then what closed the chain ('H', "
            "'-H' for a C=C end, another fragment, 'C9H18NO' for TEMPO).",
            example=["HO"],
        ),
    ]
    mechanism: Annotated[EndedBy | None, F("How it was terminated, if it was.")]
    mi: Annotated[
        float,
        F(
            "Its molar mass Mi as it stands, g/mol: repeat units x their molar masses (plus "
            "the end groups with the option end_groups); what it counts once terminated.",
            minimum=0,
        ),
    ]
    cards: Annotated[
        list[Card],
        F(
            "Its cards in the order they were laid: the initiator or CTA that started it, "
            "the monomers, a copolymer card where the monomer changed, TEMPO while capped, "
            "the termination card."
        ),
    ]


# ---------------------------------------------------------------- the view ----------
class SeatHand(TypedDict):
    """A seat's hand as this seat sees it: always its count."""

    count: Annotated[Count, F("Cards in the hand.")]
    cards: Annotated[
        list[Card] | None,
        F(
            "Its cards, by id: for its owner while the game goes on; for every seat and an "
            "observer once it is over (they count for nothing: only terminated chains are "
            "counted); else null."
        ),
    ]


class SeatView(TypedDict):
    """One seat, as everyone sees it."""

    seat: Seat
    hand_count: Annotated[Count, F("Cards in its hand.")]
    hand: Annotated[SeatHand, F("Its hand: shown to everyone once the game is over.")]
    growing: Annotated[list[ChainId], F("Chain ids: its growing chains.")]
    capped: Annotated[list[ChainId], F("Chain ids: its capped chains.")]
    terminated: Annotated[list[ChainId], F("Chain ids: its terminated chains.")]
    monomers: Annotated[Count, F("Monomers in its terminated chains so far.")]
    counted: Annotated[
        list[ChainId],
        F(
            "Chain ids: the chains its Mn, Mw and PDI are of (its terminated chains, and its "
            "capped ones with the option capped_count), as /scores counts them."
        ),
    ]
    mn: Annotated[
        float | None,
        F("Number-average molar mass of its counted chains so far, g/mol; null without one."),
    ]
    mw: Annotated[
        float | None,
        F("Weight-average molar mass of its counted chains so far, g/mol; null without one."),
    ]
    pdi: Annotated[
        float | None, F("Dispersity Mw / Mn of its counted chains so far; null without one.")
    ]


class Stack(TypedDict):
    """The face-down stack: only its count is seen."""

    count: Annotated[Count, F("Cards left to draw.")]


class Discard(TypedDict):
    """The face-up discard stack: its count and its top card (the cards under it are
    covered)."""

    count: Annotated[Count, F("Cards discarded.")]
    top: Annotated[Card | None, F("The card on top; null while the stack is empty.")]


class Hand(TypedDict):
    """Your hand."""

    count: Annotated[Count, F("Cards in your hand.")]
    cards: Annotated[list[Card], F("Your cards, by id.")]


class You(TypedDict):
    """Your own seat and your hand."""

    seat: Seat
    hand: Annotated[Hand, F("Your hand.")]


class Structure(TypedDict):
    """A compound as the cards print it: formula, molar mass and structure."""

    name: Annotated[str, F("The name on its cards.", example="Styrene")]
    compound: Compound
    formula: Formula
    molar_mass: MolarMass
    smiles: Smiles


class Monomer(Structure):
    """One of the four monomers (what a chain's `monomer` and `composition` name)."""

    key: MonomerKey
    polymer: Annotated[str, F("The polymer it makes.", example="polystyrene (PS)")]


class Initiator(Structure):
    """An initiator: the radicals it forms and the fragment each starts a chain with."""

    key: InitiatorKey
    radicals: Annotated[int, F("Radicals formed (chains started).", minimum=1, maximum=2)]
    fragment: Annotated[str, F("The primary radical, a chain's first end group.", example="HO")]
    reaction: Annotated[str, F("How it forms its radicals, as a reaction.")]


class View(TypedDict):
    """What one seat (or an observer) may see: its own hand, every chain, the counts and
    the discard top; never the stack's order, nor another hand before the game is over."""

    game: Annotated[Literal["polymerization"], F("The game.")]
    players: Annotated[int, F("Number of seats.", minimum=2, maximum=4)]
    turn: Annotated[Seat, F("The seat whose turn it is.")]
    phase: Annotated[Phase, F("draw: take a card; play: a round or a discard.")]
    turns_played: Annotated[Count, F("Turns completed so far (a draw and a round each).")]
    finished: Annotated[bool, F("Whether the game is over.")]
    end_reason: Annotated[EndReason | None, F("Why the game ended; null while it goes on.")]
    hand_emptied_by: Annotated[Seat | None, F("First seat to empty its hand.")]
    stack: Stack
    discard: Discard
    chains: Annotated[list[Chain], F("Every chain, on the table or set aside, by id.")]
    seats: Annotated[list[SeatView], F("Every seat, in seat order.")]
    monomers: Annotated[
        list[Monomer], F("The four monomers: formula, molar mass, structure, polymer.")
    ]
    initiators: Annotated[
        list[Initiator], F("The initiators: formula, molar mass, structure, radicals.")
    ]
    rules: Rules
    you: Annotated[You | None, F("Your own seat; null for an observer.")]


# ---------------------------------------------------------------- scores ------------
class Term(TypedDict):
    """One monomer's share of a chain's molar mass."""

    monomer: MonomerKey
    units: Annotated[Count, F("Repeat units of this monomer.")]
    molar_mass: Annotated[float, F("Repeat unit, g/mol.")]
    mass: Annotated[float, F("units x molar_mass.")]


class EndGroup(TypedDict):
    """An end group of a chain and its mass."""

    group: Annotated[str, F("Its formula ('-H': one hydrogen atom less).", example="HO")]
    mass: Annotated[float, F("g/mol (negative for '-H').")]
    counted: Annotated[bool, F("Added to Mi (option).")]


class ScoredChain(TypedDict):
    """A counted chain with its molar mass Mi."""

    id: ChainId
    state: Annotated[ChainState, F("Terminated (or capped, with the option capped_count).")]
    mechanism: Annotated[EndedBy | None, F("How it was terminated, if it was.")]
    units: Annotated[Count, F("Number of monomers.")]
    mi: Annotated[float, F("The chain's molar mass, g/mol.")]
    terms: Annotated[list[Term], F("Repeat units per monomer, with their masses.")]
    end_groups: Annotated[list[EndGroup], F("Its end groups.")]


class Arithmetic(TypedDict):
    """The three formulas with this seat's numbers in them, for a learner to check."""

    mn: Annotated[str, F("Mn = sum(Ni Mi) / sum(Ni).")]
    mw: Annotated[str, F("Mw = sum(Ni Mi^2) / sum(Ni Mi).")]
    pdi: Annotated[str, F("PDI = Mw / Mn.")]


class SeatScore(TypedDict):
    """One seat's counted chains and its Mn, Mw and PDI, with the arithmetic."""

    seat: Seat
    monomers: Annotated[Count, F("In counted chains.")]
    chains: Annotated[list[ScoredChain], F("Its counted chains.")]
    sum_n: Annotated[Count, F("sum(Ni): counted chains.")]
    sum_nm: Annotated[float, F("sum(Ni Mi).")]
    sum_nm2: Annotated[float, F("sum(Ni Mi^2).")]
    mn: Annotated[float | None, F("Number-average molar mass, g/mol; null without a chain.")]
    mw: Annotated[float | None, F("Weight-average molar mass, g/mol; null without a chain.")]
    pdi: Annotated[float | None, F("Dispersity Mw / Mn; null without a chain.")]
    arithmetic: Arithmetic


class Scores(TypedDict):
    """Every seat's breakdown; `final` once the game is over."""

    final: Annotated[bool, F("Whether the game is over.")]
    scoring: Annotated[ScoringOption, F("How seats are ranked (option scoring).")]
    ranking: Annotated[
        RankingOption, F("With molar_mass scoring, the ranking rule (option ranking).")
    ]
    seats: Annotated[list[SeatScore], F("In seat order.")]
