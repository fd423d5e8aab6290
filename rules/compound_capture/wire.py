"""Compound Capture over the wire: its options, card, turn, view, scores and events.

Declared once (see :mod:`rules.shapes`); the service's schemas and the contract are
derived from these, and the tests check every real answer against them. The table, its
moves and events are the draw-two table's (:mod:`rules.draw_discard_wire`, shared with
Chemistry Canasta), the match :mod:`rules.match`'s; here are what this game adds.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from rules import draw_discard_wire as dw
from rules import match
from rules.shapes import F

SEED_PLAYERS = "1 - 3 players use one deck;1 - 6 players use two decks"
SEED_MATCH = "Multiple rounds can be played until one player reaches 250 points."
SEED_MUST_CAPTURE = "If the player cannot capture a card, they must discard"


# ---------------------------------------------------------------- options -----------
class Deal(TypedDict, total=False):
    """Cards fixed for the first round; every part optional, the rest dealt at random."""

    hands: Annotated[dw.DealHands, F(example=[["C", "O", "O"], ["H", "H", "wild"]])]
    row: dw.DealRow
    discard: Annotated[dw.DealDiscard, F(example="N")]


class Options(TypedDict, total=False):
    """The setup options; each one left out takes its default."""

    decks: Annotated[
        dw.Decks,
        F(
            "Which compound deck(s): 'covalent', 'ionic' or 'both'. One deck serves 1-3 "
            "players, both serve 1-6. null: the Covalent deck for 1-3 players, both decks "
            f'for 4-6. Seed: "{SEED_PLAYERS}"'
        ),
    ]
    compounds: Annotated[
        dw.Compounds,
        F(
            "A teacher's own deck instead of the built-in ones: 6-20 compounds, each "
            '{"formula": "CO2", "name": "Carbon dioxide", "bonding": "covalent"} (name and '
            "bonding optional; at most 9 atoms). Six wild cards and element cards complete "
            "it to 54 cards; two copies are used for 4-6 players."
        ),
    ]
    deck_out: Annotated[
        dw.DeckOut,
        F(
            "When the draw deck runs out: 'reshuffle' the discard pile (all but its top card) "
            "into a new draw deck, or 'end_round' after the turn that empties it.",
            default="reshuffle",
        ),
    ]
    must_capture: Annotated[
        bool,
        F(
            f"A seat that can capture a compound must (the seed: '{SEED_MUST_CAPTURE}'); "
            "false lets it discard instead.",
            default=True,
        ),
    ]
    target: Annotated[match.Target, dw.more(match.Target, f'Seed: "{SEED_MATCH}"'), F(default=250)]
    on_tie: match.OnTie
    max_rounds: Annotated[
        match.MaxRounds,
        dw.more(
            match.MaxRounds,
            "A round can end before anyone captures, with every seat at zero or below, so "
            "without a limit a match need not end.",
        ),
        F(default=30),
    ]
    deal: Annotated[
        Deal | None,
        F(
            'Fix cards of the first round, for lessons and tests: {"hands": [["C", "O", '
            '"wild"], ...] (one list per seat, at most 7 names: element symbols or "wild"), '
            '"row": ["CO2", ...] (at most 6 formulas), "discard": "H"}; every part optional, '
            "the rest dealt at random.",
            default=None,
            code="bad_deal",
            secret=True,
        ),
    ]


# ---------------------------------------------------------------- the card ----------
class Card(dw.Face):
    """A card's face: a compound, an element or a wild card (members by `kind`)."""

    deck: Annotated[Literal["covalent", "ionic", "custom"], F("The deck the card comes from.")]


# ---------------------------------------------------------------- the view ----------
class Turn(dw.Turn):
    """The turn: whose it is, its step and the cards drawn."""

    step: Annotated[dw.Step, F("draw: pick up cards; play: capture or discard.")]


@dw.concrete
class RoundResult(dw.RoundResult[dw.SeatResult]):
    """A finished round: each seat's score, the winners and why it ended."""

    reason: Annotated[
        Literal["all_captured", "quiet_lap", "deck_empty"],
        F(
            "all_captured, quiet_lap (a lap with no capture), deck_empty (deck_out end_round).",
            name="RoundEnd",
        ),
    ]


@dw.concrete
class View(dw.TableView[Card]):
    """What one seat (or an observer) may see: never the deck order or the compound
    pile; another seat's hand only once the round is over (its cards count against the
    round's score)."""

    game: Annotated[Literal["compound-capture"], F("The game's slug.")]
    decks: Annotated[list[Literal["covalent", "ionic", "custom"]], F("Decks in play.", min_items=1)]
    turn: Annotated[Turn | None, F("null between rounds.")]
    quiet_turns: Annotated[
        int,
        F("Turns in a row without a capture; a lap of them ends the round.", minimum=0),
    ]
    lap: Annotated[int, F("Turns in a lap (the number of players).", minimum=1)]
    deck_out: Annotated[dw.DeckOut, F("Option.")]
    seats: Annotated[list[dw.SeatView[Card]], F("Every seat.")]
    round_end: Annotated[RoundResult | None, F("Once the round is over.")]


Scores = dw.specialised(dw.Scores[dw.SeatScore])


# ---------------------------------------------------------------- events ------------
class RoundEndedEvent(dw.RoundEnded, RoundResult):
    """The round ended: why, each seat's score and its winners."""
