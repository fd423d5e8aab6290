"""Chemistry Canasta over the wire: the shapes that are no single move's own.

Declared once (see :mod:`rules.shapes`): the options, the card (which adds the Basic
Deck), a run and its places, the turn, the view, the round's result and the scores.
The table, its moves and events are the draw-two table's (:mod:`rules.draw_discard_wire`,
shared with Compound Capture), the match :mod:`rules.match`'s; this game's own moves
(``run``, ``extend``, ``claim``) declare their shapes and events beside their rules
(:mod:`.moves`), and ``game.WIRE`` gathers them all.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from rules import draw_discard_wire as dw
from rules import match
from rules.chemistry.elements import MAX_Z
from rules.shapes import Count, F, Seat

SEED_DECKS = "Played with Basic Deck of 54 elements and one or two compound expansion decks"
SEED_MATCH = "Multiple rounds can be played until one player reaches 250 points."
SEED_MUST_CAPTURE = "If the player cannot capture a card, they may try to create a run"
MAX_RESHUFFLES = 5
"""The most times a round may shuffle the discard pile into a new draw deck (option
``reshuffles``)."""

Runs = Literal["own", "anyone", "three"]
"""How runs grow (option ``runs``)."""
Number = Annotated[int, F(minimum=1, maximum=MAX_Z, example=44)]
"""An atomic number a place in a run is (or a wild card there stands for)."""


# ---------------------------------------------------------------- options -----------
class Deal(TypedDict, total=False):
    """Cards fixed for the first round; every part optional, the rest dealt at random."""

    hands: Annotated[dw.DealHands, F(example=[["Tc", "Rh", "wild"], ["Ru"]])]
    row: dw.DealRow
    discard: Annotated[dw.DealDiscard, F(example="Xe")]


class Options(TypedDict, total=False):
    """The setup options; each one left out takes its default."""

    decks: Annotated[
        dw.Decks,
        F(
            "The compound expansion(s) added to the Basic Deck of 54 Elements: 'covalent', "
            "'ionic' or 'both'. null: covalent for 1-3 players, both for 4-6. Any choice "
            f'serves 1-6 players. Seed: "{SEED_DECKS}"'
        ),
    ]
    compounds: Annotated[
        dw.Compounds,
        F(
            "A teacher's own expansion instead of the built-in ones: 6-20 compounds, each "
            '{"formula": "CO2", "name": "Carbon dioxide", "bonding": "covalent"} (name and '
            "bonding optional; at most 9 atoms), completed with six wild cards and element "
            "cards to 54 cards."
        ),
    ]
    runs: Annotated[
        Runs,
        F(
            "How runs grow: 'own' (3 or more cards; a seat may extend its own runs), "
            "'anyone' (3 or more; any seat may extend any run, and scores the cards it adds) "
            "or 'three' (exactly 3 cards, never extended).",
            default="own",
        ),
    ]
    must_capture: Annotated[
        bool,
        F(
            f"A seat that can capture a compound must (the seed: '{SEED_MUST_CAPTURE}'); "
            "false lets it lay runs or discard instead.",
            default=True,
        ),
    ]
    reshuffles: Annotated[
        int,
        F(
            "How many times a round may shuffle the discard pile (all but its top card) into "
            f"a new draw deck when the draw deck runs out (0-{MAX_RESHUFFLES}; Compound "
            "Capture reshuffles too); after that, the round ends at the end of the turn that "
            "empties the draw deck. 0 ends the round when the draw deck first runs out.",
            default=MAX_RESHUFFLES,
            minimum=0,
            maximum=MAX_RESHUFFLES,
        ),
    ]
    target: Annotated[match.Target, dw.more(match.Target, f'Seed: "{SEED_MATCH}"'), F(default=250)]
    on_tie: match.OnTie
    max_rounds: Annotated[
        match.MaxRounds,
        dw.more(
            match.MaxRounds,
            "A round can end with every seat at zero or below (the draw deck runs out before "
            "anyone scores), so without a limit a match need not end.",
        ),
        F(default=30),
    ]
    deal: Annotated[
        Deal | None,
        F(
            'Fix cards of the first round, for lessons and tests: {"hands": [["Tc", "Rh", '
            '"wild"], ...] (one list per seat, at most 7 names: element symbols or "wild"), '
            '"row": ["CO2", ...] (at most 6 formulas), "discard": "Ru"}; every part '
            "optional, the rest dealt at random.",
            default=None,
            code="bad_deal",
            secret=True,
        ),
    ]


# ---------------------------------------------------------------- the card, runs ----
class Card(dw.Face):
    """A card's face: an element of the Basic Deck (its id is its atomic number), or a
    compound, element or wild card of an expansion (members by `kind`)."""

    deck: Annotated[
        Literal["basic", "covalent", "ionic", "custom"],
        F("basic: the Basic Deck of 54 Elements; else the expansion."),
    ]


class Position(TypedDict):
    """A place in a run: the atomic number it is, or a wild card stands for, and the card."""

    number: Annotated[Number, F("The atomic number of this place.")]
    symbol: Annotated[str, F("The element of that number.", example="Ru")]
    name: Annotated[str, F("Its name.", example="Ruthenium")]
    wild: Annotated[bool, F("A wild card lies here, standing for the element.")]
    by: Annotated[Seat, F("The seat that laid this place (it scores the place's 10 points).")]
    card: Annotated[Card, F("The card.")]


class Run(TypedDict):
    """A run on a seat's board: its span, its wild cards and every place."""

    owner: Annotated[Seat, F("The seat whose board it is on.")]
    run: Annotated[int, F("Its number on that board, from 0.", minimum=0)]
    low: Annotated[Number, F("The lowest atomic number.", example=43)]
    high: Annotated[Number, F("The highest atomic number.", example=45)]
    length: Annotated[int, F("Cards in the run.", minimum=3)]
    wilds: Annotated[Count, F("Wild cards in it (each may be claimed with its element).")]
    positions: Annotated[list[Position], F("Every place, lowest number first.")]


# ---------------------------------------------------------------- the view ----------
class Turn(dw.Turn):
    """The turn: whose it is, its step, the cards drawn and whether a run was laid."""

    step: Annotated[dw.Step, F("draw: pick up cards; play: claim, capture, lay runs, discard.")]
    melded: Annotated[
        bool, F("A run was laid or extended this turn (no capture now; a discard ends it).")
    ]


class Reshuffles(TypedDict):
    """Refills of the draw deck from under the discard top."""

    allowed: Annotated[
        int,
        F(
            "Refills of the draw deck a round may have (option reshuffles).",
            minimum=0,
            maximum=MAX_RESHUFFLES,
        ),
    ]
    used: Annotated[Count, F("Refills this round so far.")]


@dw.concrete
class SeatView(dw.SeatView[Card]):
    """One seat and its board of runs, as everyone sees them."""

    runs: Annotated[list[Run], F("The runs on this seat's board.")]
    run_cards: Annotated[Count, F("Run places this seat laid (on any board).")]
    run_points: Annotated[Count, F("10 per run place it laid.")]


class SeatResult(dw.SeatResult):
    """One seat's score in a finished round, runs included."""

    run_cards: Annotated[Count, F("Run places it laid.")]
    run_points: Annotated[Count, F("10 per run place.")]


@dw.concrete
class RoundResult(dw.RoundResult[SeatResult]):
    """A finished round: why it ended, who went out, each seat's score and the winners."""

    reason: Annotated[
        Literal["all_captured", "went_out", "deck_empty"],
        F(
            "all_captured, went_out (a seat played its last card) or deck_empty (the draw "
            "deck ran out).",
            name="RoundEnd",
        ),
    ]
    went_out: Annotated[Seat | None, F("The seat that went out, if one did.")]


@dw.concrete
class View(dw.TableView[Card]):
    """What one seat (or an observer) may see: never the deck order or the compound
    pile; another seat's hand only once the round is over (its cards count against the
    round's score)."""

    game: Annotated[Literal["chemistry-canasta"], F("The game's slug.")]
    decks: Annotated[
        list[Literal["covalent", "ionic", "custom"]],
        F("Expansions in play (with the Basic Deck).", min_items=1),
    ]
    turn: Annotated[Turn | None, F("null between rounds.")]
    runs_rule: Annotated[Runs, F("Option runs.")]
    reshuffles: Annotated[Reshuffles, F("Refills of the draw deck.")]
    seats: Annotated[list[SeatView], F("Every seat and its board.")]
    round_end: Annotated[RoundResult | None, F("Once the round is over.")]


class SeatScore(dw.SeatScore):
    """One seat's score so far, runs included; its hand's penalty only once the round is
    over."""

    run_cards: Annotated[Count, F("Run places it laid this round.")]
    run_points: Annotated[Count, F("10 per run place.")]


@dw.concrete
class Scores(dw.Scores[SeatScore]):
    """The round so far, runs included (penalties once it is over), and the match's
    finished rounds."""


# ---------------------------------------------------------------- events ------------
class RoundEndedEvent(dw.RoundEnded, RoundResult):
    """The round ended: why, who went out, each seat's score and its winners."""
