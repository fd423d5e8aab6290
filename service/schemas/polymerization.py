"""HTTP schemas of the polymer-chain game (`polymerization`)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from rules.polymerization import GAME
from rules.polymerization.cards import DECK_SIZE, KINDS, MAX_DECKS, MECHANISMS, MONOMERS
from rules.polymerization.chains import PROPAGATION_MODES, STATES
from rules.polymerization.moves import LIST_MAX
from rules.polymerization.scoring import RANKING, SCORING

from ..play import GameApi
from .common import OutcomeSchema, move_type, strict_bool

CARD_MAX = DECK_SIZE * MAX_DECKS
CARD_ID = validate.Range(min=1, max=CARD_MAX)
MONOMER_KEYS = list(MONOMERS)
ENDED_BY = [*MECHANISMS, "transfer"]


def card_id(description: str) -> fields.Integer:
    return fields.Integer(
        required=True,
        strict=True,
        validate=CARD_ID,
        metadata={"description": description, "example": 41},
    )


def card_ids(
    description: str, *, min_size: int = 0, example: list[int] | None = None
) -> fields.List[Any]:
    return fields.List(
        fields.Integer(strict=True, validate=CARD_ID),
        required=True,
        validate=validate.Length(min=min_size, max=LIST_MAX),
        metadata={
            "description": description + " (a round uses at most three cards in all).",
            "example": example or [1, 5],
        },
    )


def chain_id(description: str = "A chain's id, as the view lists it.") -> fields.Integer:
    return fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=10_000),
        metadata={"description": description, "example": 1},
    )


def choice(values: tuple[str, ...] | list[str], default: str, description: str) -> fields.String:
    return fields.String(
        load_default=default,
        validate=validate.OneOf(list(values)),
        metadata={"description": description},
    )


# -- options ---------------------------------------------------------------------------
_OPTION_TEXT = {o.name: o.description for o in GAME.info.options}


class PzOptionsSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    decks = fields.Integer(
        strict=True,
        load_default=2,
        validate=validate.OneOf([1, 2]),
        metadata={"description": _OPTION_TEXT["decks"]},
    )
    deal = fields.List(
        fields.List(fields.Integer(strict=True, validate=CARD_ID), validate=validate.Length(min=1)),
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=2, max=4),
        metadata={
            "description": _OPTION_TEXT["deal"],
            "example": [[41, 1, 5, 8, 46, 31], [42, 11, 15, 52, 49, 21]],
        },
    )
    propagation = choice(PROPAGATION_MODES, "follow", _OPTION_TEXT["propagation"])
    units_per_card = choice(("value", "one"), "value", _OPTION_TEXT["units_per_card"])
    aibn_single_start = strict_bool(
        load_default=False, metadata={"description": _OPTION_TEXT["aibn_single_start"]}
    )
    termination_scope = choice(
        ("mine_and_any", "own", "any"), "mine_and_any", _OPTION_TEXT["termination_scope"]
    )
    termination_mechanism = choice(
        ("printed", "either"), "printed", _OPTION_TEXT["termination_mechanism"]
    )
    capped_count = strict_bool(
        load_default=False, metadata={"description": _OPTION_TEXT["capped_count"]}
    )
    end = choice(("immediate", "equal_turns"), "immediate", _OPTION_TEXT["end"])
    empty_stack = choice(("play_on", "end"), "play_on", _OPTION_TEXT["empty_stack"])
    scoring = choice(SCORING, "monomers", _OPTION_TEXT["scoring"])
    ranking = choice(RANKING, "mn_then_pdi", _OPTION_TEXT["ranking"])
    end_groups = strict_bool(
        load_default=False, metadata={"description": _OPTION_TEXT["end_groups"]}
    )


# -- moves -----------------------------------------------------------------------------
class PzDrawMoveSchema(ma.Schema):
    """Take the top card of the face-down stack: the first step of every turn."""

    type = move_type("draw")


class PzDiscardMoveSchema(ma.Schema):
    """Put a card of your hand face up on the discard stack instead of playing a round."""

    type = move_type("discard")
    card = card_id("The card to discard.")


class PzInitiateMoveSchema(ma.Schema):
    """Initiation: an initiator and value-1 monomers start one chain (H2O2/Fe2+) or two
    (AIBN, one monomer each)."""

    type = move_type("initiate")
    card = card_id("The initiator card (H2O2/Fe2+ or AIBN).")
    monomers = fields.List(
        fields.List(
            fields.Integer(strict=True, validate=CARD_ID), validate=validate.Length(max=LIST_MAX)
        ),
        required=True,
        validate=validate.Length(min=1, max=2),
        metadata={
            "description": "One list of monomer card ids per chain started, in order: the "
            "first of each list has value 1; a single-radical start may add a second.",
            "example": [[1, 5]],
        },
    )


class PzPropagateMoveSchema(ma.Schema):
    """Propagation: add 1-3 monomer cards to one of your growing chains."""

    type = move_type("propagate")
    chain = chain_id("One of your growing chains.")
    cards = card_ids("Monomer cards in the order they are added", min_size=0, example=[6, 9])


class PzReactivateMoveSchema(ma.Schema):
    """Reactivate one of your TEMPO-capped chains (TEMPO goes to the discard stack) and
    add 0-3 monomer cards to it."""

    type = move_type("reactivate")
    chain = chain_id("One of your capped chains.")
    cards = fields.List(
        fields.Integer(strict=True, validate=CARD_ID),
        load_default=list,
        validate=validate.Length(max=LIST_MAX),
        metadata={
            "description": "Monomer cards added after reactivation (may be empty).",
            "example": [],
        },
    )


class PzCapMoveSchema(ma.Schema):
    """SFRP: cap one of your growing chains with TEMPO (dormant: safe from jokers)."""

    type = move_type("cap")
    card = card_id("A TEMPO card.")
    chain = chain_id("One of your growing chains.")


class PzTransferMoveSchema(ma.Schema):
    """Chain transfer: a CTA terminates a growing chain (yours, or an opponent's which you
    take) and starts a new chain of yours with a value-1 monomer."""

    type = move_type("transfer")
    card = card_id("A CTA card.")
    chain = chain_id("The growing chain to terminate.")
    monomers = card_ids("The new chain's monomers: a value-1 card, then optionally one more",
                        example=[21])  # fmt: skip


class PzCopolymerizeMoveSchema(ma.Schema):
    """Copolymerisation: the copolymer card and 1-2 monomers of another kind on a growing
    chain (an opponent's chain is taken)."""

    type = move_type("copolymerize")
    card = card_id("The copolymer card.")
    chain = chain_id("The growing chain whose monomer changes.")
    monomers = card_ids("Monomers of the new kind, following the chain's values",
                        example=[26])  # fmt: skip


class PzTerminateMoveSchema(ma.Schema):
    """Termination: a termination card on two growing chains, which become yours and are
    set aside as scored: combination joins them into one, disproportionation leaves two."""

    type = move_type("terminate")
    card = card_id("A termination card.")
    chains = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=1, max=10_000)),
        required=True,
        validate=validate.Length(max=LIST_MAX),
        metadata={"description": "The two growing chains.", "example": [1, 2]},
    )
    mechanism = fields.String(
        required=True,
        validate=validate.OneOf(list(MECHANISMS)),
        metadata={
            "description": "As printed on the card, unless the option "
            "termination_mechanism is 'either'.",
            "example": "combination",
        },
    )


MOVES: dict[str, type[ma.Schema]] = {
    "draw": PzDrawMoveSchema,
    "discard": PzDiscardMoveSchema,
    "initiate": PzInitiateMoveSchema,
    "propagate": PzPropagateMoveSchema,
    "reactivate": PzReactivateMoveSchema,
    "cap": PzCapMoveSchema,
    "transfer": PzTransferMoveSchema,
    "copolymerize": PzCopolymerizeMoveSchema,
    "terminate": PzTerminateMoveSchema,
}


# -- cards, chains, view ---------------------------------------------------------------
class PzCardSchema(ma.Schema):
    """A card face with its id. Monomers carry value, formula and molar mass; initiators
    formula, radicals and fragment; termination cards their mechanism."""

    id = fields.Integer(required=True, metadata={"description": "Card id, 1-110.", "example": 1})
    kind = fields.String(required=True, validate=validate.OneOf(list(KINDS)))
    key = fields.String(required=True, metadata={"example": "styrene"})
    name = fields.String(required=True, metadata={"example": "Styrene"})
    value = fields.Integer(
        validate=validate.Range(min=1, max=3),
        metadata={"description": "Monomers: repeat units of the card (1, 2 or 3)."},
    )
    formula = fields.String(metadata={"description": "Molecular formula.", "example": "C8H8"})
    molar_mass = fields.Float(
        metadata={"description": "g/mol, computed from the formula.", "example": 104.149448}
    )
    radicals = fields.Integer(
        validate=validate.Range(min=1, max=2),
        metadata={"description": "Initiators: radicals formed (chains started)."},
    )
    fragment = fields.String(
        metadata={
            "description": "Initiators: the primary radical, the chain's first end group.",
            "example": "HO",
        }
    )
    mechanism = fields.String(validate=validate.OneOf(list(MECHANISMS)))


class PzDeckCardSchema(PzCardSchema):
    """A card of the deck as the catalogue lists it: its face, which of the two decks it
    belongs to, and for a monomer the polymer it makes."""

    deck = fields.Integer(
        required=True,
        validate=validate.Range(min=1, max=MAX_DECKS),
        metadata={"description": "Which of the two 55-card decks."},
    )
    polymer = fields.String(
        metadata={"description": "Monomers: the polymer it makes.", "example": "polystyrene (PS)"}
    )
    reaction = fields.String(
        metadata={"description": "Jokers: what the card does to a growing chain, as a reaction."}
    )


class PzChainSchema(ma.Schema):
    """A chain on the table (growing or capped) or set aside (terminated)."""

    id = fields.Integer(required=True)
    owner = fields.Integer(required=True, metadata={"description": "The seat it belongs to."})
    state = fields.String(required=True, validate=validate.OneOf(list(STATES)))
    monomer = fields.String(
        required=True,
        validate=validate.OneOf(MONOMER_KEYS),
        metadata={"description": "The monomer it grows with now (its last monomer card's)."},
    )
    units = fields.Integer(required=True, metadata={"description": "Number of monomers."})
    composition = fields.Dict(
        keys=fields.String(validate=validate.OneOf(MONOMER_KEYS)),
        values=fields.Integer(),
        required=True,
        metadata={"description": "Repeat units per monomer."},
    )
    values = fields.List(
        fields.Integer(), required=True, metadata={"description": "Monomer card values, in order."}
    )
    accepts = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Values its next monomer card may have (empty unless growing)."},
    )
    ends = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "End groups: the initiating fragment first, then what closed the "
            "chain ('H', '-H' for a C=C end, another fragment, 'C9H18NO' for TEMPO).",
            "example": ["HO"],
        },
    )
    mechanism = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(ENDED_BY),
        metadata={"description": "How it was terminated, if it was."},
    )
    cards = fields.List(fields.Nested(PzCardSchema), required=True)


class PzSeatViewSchema(ma.Schema):
    seat = fields.Integer(required=True)
    hand_count = fields.Integer(required=True)
    growing = fields.List(fields.Integer(), required=True, metadata={"description": "Chain ids."})
    capped = fields.List(fields.Integer(), required=True, metadata={"description": "Chain ids."})
    terminated = fields.List(
        fields.Integer(), required=True, metadata={"description": "Chain ids."}
    )
    monomers = fields.Integer(
        required=True, metadata={"description": "Monomers in its terminated chains so far."}
    )


class PzStackSchema(ma.Schema):
    count = fields.Integer(required=True)


class PzDiscardSchema(ma.Schema):
    count = fields.Integer(required=True)
    top = fields.Nested(PzCardSchema, required=True, allow_none=True)


class PzRulesSchema(ma.Schema):
    """The options this game was set up with (except a fixed deal)."""

    decks = fields.Integer(required=True)
    propagation = fields.String(required=True, validate=validate.OneOf(list(PROPAGATION_MODES)))
    units_per_card = fields.String(required=True, validate=validate.OneOf(["value", "one"]))
    aibn_single_start = fields.Boolean(required=True)
    termination_scope = fields.String(
        required=True, validate=validate.OneOf(["mine_and_any", "own", "any"])
    )
    termination_mechanism = fields.String(
        required=True, validate=validate.OneOf(["printed", "either"])
    )
    capped_count = fields.Boolean(required=True)
    end = fields.String(required=True, validate=validate.OneOf(["immediate", "equal_turns"]))
    empty_stack = fields.String(required=True, validate=validate.OneOf(["play_on", "end"]))
    scoring = fields.String(required=True, validate=validate.OneOf(list(SCORING)))
    ranking = fields.String(required=True, validate=validate.OneOf(list(RANKING)))
    end_groups = fields.Boolean(required=True)


class PzHandSchema(ma.Schema):
    count = fields.Integer(required=True)
    cards = fields.List(fields.Nested(PzCardSchema), required=True)


class PzYouSchema(ma.Schema):
    seat = fields.Integer(required=True)
    hand = fields.Nested(PzHandSchema, required=True, metadata={"description": "Your hand."})


class PzViewSchema(ma.Schema):
    """What one seat (or an observer) may see: its own hand, every chain, the counts and
    the discard top; never another hand or the stack's order."""

    game = fields.String(required=True, validate=validate.OneOf(["polymerization"]))
    players = fields.Integer(required=True)
    turn = fields.Integer(required=True, metadata={"description": "The seat whose turn it is."})
    phase = fields.String(
        required=True,
        validate=validate.OneOf(["draw", "play", "over"]),
        metadata={"description": "draw: take a card; play: a round or a discard."},
    )
    turns_played = fields.Integer(required=True)
    finished = fields.Boolean(required=True)
    end_reason = fields.String(
        required=True, allow_none=True, validate=validate.OneOf(["hand_emptied", "stack_empty"])
    )
    hand_emptied_by = fields.Integer(
        required=True, allow_none=True, metadata={"description": "First seat to empty its hand."}
    )
    stack = fields.Nested(PzStackSchema, required=True)
    discard = fields.Nested(PzDiscardSchema, required=True)
    chains = fields.List(fields.Nested(PzChainSchema), required=True)
    seats = fields.List(fields.Nested(PzSeatViewSchema), required=True)
    rules = fields.Nested(PzRulesSchema, required=True)
    you = fields.Nested(PzYouSchema, required=True, allow_none=True)


# -- scores ----------------------------------------------------------------------------
class PzTermSchema(ma.Schema):
    monomer = fields.String(required=True, validate=validate.OneOf(MONOMER_KEYS))
    units = fields.Integer(required=True)
    molar_mass = fields.Float(required=True, metadata={"description": "Repeat unit, g/mol."})
    mass = fields.Float(required=True, metadata={"description": "units x molar_mass."})


class PzEndGroupSchema(ma.Schema):
    group = fields.String(required=True, metadata={"example": "HO"})
    mass = fields.Float(required=True)
    counted = fields.Boolean(required=True, metadata={"description": "Added to Mi (option)."})


class PzScoredChainSchema(ma.Schema):
    id = fields.Integer(required=True)
    state = fields.String(required=True, validate=validate.OneOf(list(STATES)))
    mechanism = fields.String(required=True, allow_none=True, validate=validate.OneOf(ENDED_BY))
    units = fields.Integer(required=True)
    mi = fields.Float(required=True, metadata={"description": "The chain's molar mass, g/mol."})
    terms = fields.List(fields.Nested(PzTermSchema), required=True)
    end_groups = fields.List(fields.Nested(PzEndGroupSchema), required=True)


class PzArithmeticSchema(ma.Schema):
    mn = fields.String(required=True)
    mw = fields.String(required=True)
    pdi = fields.String(required=True)


class PzSeatScoreSchema(ma.Schema):
    seat = fields.Integer(required=True)
    monomers = fields.Integer(required=True, metadata={"description": "In counted chains."})
    chains = fields.List(fields.Nested(PzScoredChainSchema), required=True)
    sum_n = fields.Integer(required=True, metadata={"description": "sum(Ni): counted chains."})
    sum_nm = fields.Float(required=True, metadata={"description": "sum(Ni Mi)."})
    sum_nm2 = fields.Float(required=True, metadata={"description": "sum(Ni Mi^2)."})
    mn = fields.Float(required=True, allow_none=True)
    mw = fields.Float(required=True, allow_none=True)
    pdi = fields.Float(required=True, allow_none=True)
    arithmetic = fields.Nested(PzArithmeticSchema, required=True)


class PzScoresSchema(ma.Schema):
    final = fields.Boolean(required=True)
    scoring = fields.String(required=True, validate=validate.OneOf(list(SCORING)))
    ranking = fields.String(required=True, validate=validate.OneOf(list(RANKING)))
    seats = fields.List(fields.Nested(PzSeatScoreSchema), required=True)


# -- events ----------------------------------------------------------------------------
def explanation() -> fields.String:
    return fields.String(
        required=True, metadata={"description": "What happened, in polymer chemistry's words."}
    )


class PzCardDrawnEventSchema(ma.Schema):
    """Everyone learns that a card was drawn; only the drawer sees which (`cards`)."""

    type = move_type("card_drawn")
    seat = fields.Integer(required=True)
    stack_count = fields.Integer(required=True)
    count = fields.Integer(required=True)
    cards = fields.List(fields.Nested(PzCardSchema), metadata={"description": "Drawer only."})


class PzCardDiscardedEventSchema(ma.Schema):
    type = move_type("card_discarded")
    seat = fields.Integer(required=True)
    count = fields.Integer(required=True)
    cards = fields.List(fields.Nested(PzCardSchema), required=True)
    explanation = explanation()


class PzInitiationEventSchema(ma.Schema):
    type = move_type("initiation")
    seat = fields.Integer(required=True)
    initiator = fields.String(required=True, validate=validate.OneOf(["fenton", "aibn"]))
    card = fields.Nested(PzCardSchema, required=True)
    radicals = fields.Integer(required=True)
    chains = fields.List(fields.Nested(PzChainSchema), required=True)
    explanation = explanation()


class PzPropagationEventSchema(ma.Schema):
    type = move_type("propagation")
    seat = fields.Integer(required=True)
    chain = fields.Integer(required=True)
    cards = fields.List(fields.Nested(PzCardSchema), required=True)
    units_added = fields.Integer(required=True)
    units = fields.Integer(required=True)
    explanation = explanation()


class PzReactivationEventSchema(PzPropagationEventSchema):
    type = move_type("reactivation")
    card = fields.Nested(PzCardSchema, required=True, metadata={"description": "The TEMPO card."})


class PzTempoCappingEventSchema(ma.Schema):
    type = move_type("tempo_capping")
    seat = fields.Integer(required=True)
    chain = fields.Integer(required=True)
    card = fields.Nested(PzCardSchema, required=True)
    units = fields.Integer(required=True)
    explanation = explanation()


class PzChainTransferEventSchema(ma.Schema):
    type = move_type("chain_transfer")
    seat = fields.Integer(required=True)
    card = fields.Nested(PzCardSchema, required=True)
    terminated = fields.Nested(PzChainSchema, required=True)
    started = fields.Nested(PzChainSchema, required=True)
    explanation = explanation()


class PzCopolymerizationEventSchema(ma.Schema):
    type = move_type("copolymerization")
    seat = fields.Integer(required=True)
    chain = fields.Integer(required=True)
    card = fields.Nested(PzCardSchema, required=True)
    cards = fields.List(fields.Nested(PzCardSchema), required=True)
    from_monomer = fields.String(required=True, validate=validate.OneOf(MONOMER_KEYS))
    to_monomer = fields.String(required=True, validate=validate.OneOf(MONOMER_KEYS))
    units = fields.Integer(required=True)
    explanation = explanation()


class PzTerminationEventSchema(ma.Schema):
    type = move_type("termination")
    seat = fields.Integer(required=True)
    mechanism = fields.String(required=True, validate=validate.OneOf(list(MECHANISMS)))
    card = fields.Nested(PzCardSchema, required=True)
    joined = fields.List(
        fields.Integer(),
        required=True,
        metadata={
            "description": "Combination: the two chain ids joined (the first keeps "
            "its id); empty for disproportionation."
        },
    )
    chains = fields.List(fields.Nested(PzChainSchema), required=True)
    explanation = explanation()


class PzChainTakenEventSchema(ma.Schema):
    type = move_type("chain_taken")
    seat = fields.Integer(required=True, metadata={"description": "The seat taking it."})
    chain = fields.Integer(required=True)
    from_seat = fields.Integer(required=True)
    joker = fields.String(required=True, metadata={"example": "a CTA"})
    units = fields.Integer(required=True)
    explanation = explanation()


class PzHandEmptiedEventSchema(ma.Schema):
    type = move_type("hand_emptied")
    seat = fields.Integer(required=True)
    finish_lap = fields.Boolean(
        required=True, metadata={"description": "The seats after it still play (equal_turns)."}
    )
    explanation = explanation()


class PzStackEmptyEventSchema(ma.Schema):
    type = move_type("stack_empty")
    seat = fields.Integer(required=True, metadata={"description": "Took the last card."})
    explanation = explanation()


class PzGameOverEventSchema(OutcomeSchema):
    type = move_type("game_over")
    reason = fields.String(required=True, validate=validate.OneOf(["hand_emptied", "stack_empty"]))
    monomers = fields.List(fields.Integer(), required=True)
    mn = fields.List(fields.Float(allow_none=True), required=True)
    pdi = fields.List(fields.Float(allow_none=True), required=True)
    explanation = explanation()


API = GameApi(
    game=GAME,
    options=PzOptionsSchema,
    moves=MOVES,
    view=PzViewSchema,
    scores=PzScoresSchema,
    card=PzDeckCardSchema,
    events={
        "card_drawn": PzCardDrawnEventSchema,
        "card_discarded": PzCardDiscardedEventSchema,
        "initiation": PzInitiationEventSchema,
        "propagation": PzPropagationEventSchema,
        "reactivation": PzReactivationEventSchema,
        "tempo_capping": PzTempoCappingEventSchema,
        "chain_transfer": PzChainTransferEventSchema,
        "copolymerization": PzCopolymerizationEventSchema,
        "termination": PzTerminationEventSchema,
        "chain_taken": PzChainTakenEventSchema,
        "hand_emptied": PzHandEmptiedEventSchema,
        "stack_empty": PzStackEmptyEventSchema,
        "game_over": PzGameOverEventSchema,
    },
    setup_example={
        "players": 2,
        "options": {"deal": [[41, 1, 5, 8, 46, 31], [42, 11, 15, 52, 49, 21]]},
        "seed": 1,
    },
    move_example={
        "token": "gAAAAABn...",
        "seat": 0,
        "move": {"type": "initiate", "card": 41, "monomers": [[1, 5]]},
    },
)
