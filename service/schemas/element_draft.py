"""HTTP schemas of the Chemistry Card Game (`element-draft`)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from rules.element_draft import GAME

from ..play import GameApi
from .common import move_type, strict_bool

Z = validate.Range(min=1, max=103)


class EdOptionsSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    words = fields.List(
        fields.String(validate=validate.Length(max=64)),
        allow_none=True,
        load_default=None,
        validate=validate.Length(max=500),
        metadata={
            "description": "A teacher's own 5-letter words for the spelling race (max 500).",
            "example": ["bacon", "snack", "chess"],
        },
    )
    deal = fields.List(
        fields.List(fields.Integer(strict=True, validate=Z), validate=validate.Length(min=1)),
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=2, max=10),
        metadata={
            "description": "One hand of atomic numbers per seat, all the same size, "
            "no card twice. Omit to deal by the seed's table.",
            "example": [[1, 5, 6, 7, 10], [2, 3, 4, 8, 9]],
        },
    )
    bismuth_radioactive = strict_bool(
        load_default=False,
        metadata={"description": "Count bismuth (83) as radioactive."},
    )


class EdDraftMoveSchema(ma.Schema):
    """Select one card of your hand to draft this round (kept secret until all have selected)."""

    type = move_type("draft")
    card = fields.Integer(
        required=True,
        strict=True,
        validate=Z,
        metadata={"description": "Atomic number of the card.", "example": 26},
    )


class EdDeckCardSchema(ma.Schema):
    """One element card with every fact the scoring uses (from molmass's element table)."""

    z = fields.Integer(required=True, metadata={"description": "Atomic number", "example": 26})
    symbol = fields.String(required=True, metadata={"example": "Fe"})
    name = fields.String(required=True, metadata={"example": "Iron"})
    mass = fields.Float(required=True, metadata={"description": "Standard atomic weight (u)."})
    mass_is_standard = fields.Boolean(
        required=True,
        metadata={"description": "False: no standard weight; the most stable isotope's mass."},
    )
    family = fields.String(required=True, metadata={"example": "transition-metal"})
    family_name = fields.String(required=True, metadata={"example": "Transition metals"})
    ion_charges = fields.List(
        fields.Integer(), required=True, metadata={"description": "Signed common ion charges."}
    )
    radioactive = fields.Boolean(required=True)


class EdCardSchema(ma.Schema):
    z = fields.Integer(required=True, metadata={"description": "Atomic number", "example": 26})
    symbol = fields.String(required=True, metadata={"example": "Fe"})


class EdPlacingSchema(ma.Schema):
    seat = fields.Integer(required=True)
    turn = fields.Integer(required=True, metadata={"description": "Round it was spelled in."})
    place = fields.Integer(required=True)
    points = fields.Integer(required=True)
    word = fields.String(required=True, metadata={"example": "bacon"})
    symbols = fields.List(
        fields.String(), required=True, metadata={"example": ["Ba", "C", "O", "N"]}
    )
    cards = fields.List(fields.Integer(), required=True)
    tied = fields.Boolean(required=True, metadata={"description": "Shared with another seat."})


class EdSeatViewSchema(ma.Schema):
    seat = fields.Integer(required=True)
    drafted = fields.List(fields.Nested(EdCardSchema), required=True)
    hand_count = fields.Integer(required=True)
    has_selected = fields.Boolean(required=True, metadata={"description": "Which card is secret."})
    word = fields.Nested(EdPlacingSchema, allow_none=True, required=True)
    score = fields.Integer(required=True, metadata={"description": "Total so far."})


class EdYouSchema(ma.Schema):
    seat = fields.Integer(required=True)
    hand = fields.List(fields.Nested(EdCardSchema), required=True)
    selection = fields.Nested(EdCardSchema, allow_none=True, required=True)
    left = fields.Integer(required=True, metadata={"description": "Seat you pass to."})
    right = fields.Integer(required=True, metadata={"description": "Seat that passes to you."})


class EdViewSchema(ma.Schema):
    """What one seat (or an observer) may see: never another seat's hand or selection."""

    game = fields.String(required=True)
    players = fields.Integer(required=True)
    turn = fields.Integer(required=True)
    rounds = fields.Integer(required=True)
    finished = fields.Boolean(required=True)
    deck_size = fields.Integer(required=True)
    hand_size = fields.Integer(required=True)
    set_aside_count = fields.Integer(required=True)
    set_aside = fields.List(
        fields.Nested(EdCardSchema),
        allow_none=True,
        required=True,
        metadata={
            "description": "The cards set aside at the deal (never used): null during the "
            "draft, listed once it has ended so anyone can check the deal."
        },
    )
    word_list = fields.String(required=True, validate=validate.OneOf(["default", "custom"]))
    radioactivity_scored = fields.Boolean(required=True)
    seats = fields.List(fields.Nested(EdSeatViewSchema), required=True)
    you = fields.Nested(EdYouSchema, allow_none=True, required=True)


class EdCategorySchema(ma.Schema):
    points = fields.Integer(required=True)


class EdAtomicNumberSchema(EdCategorySchema):
    run = fields.List(fields.Integer(), required=True)
    counted = fields.Integer(required=True)


class EdNeighbourMassSchema(ma.Schema):
    side = fields.String(required=True, validate=validate.OneOf(["left", "right"]))
    seat = fields.Integer(required=True)
    their_mass = fields.Float(
        required=True, metadata={"description": "The neighbour's total mass in u (for display)."}
    )
    their_mass_exact = fields.String(
        required=True,
        metadata={
            "description": "The neighbour's total mass in u as an exact decimal: the sum of "
            "the masses printed on its cards, as compared (no rounding).",
            "example": "334.8728631",
        },
    )
    points = fields.Integer(required=True)


class EdAtomicMassSchema(EdCategorySchema):
    mass = fields.Float(
        required=True, metadata={"description": "Your total mass in u (for display)."}
    )
    mass_exact = fields.String(
        required=True,
        metadata={
            "description": "Your total mass in u as an exact decimal: the sum of the masses "
            "printed on your cards. Totals are compared exactly, so only equal strings tie.",
            "example": "334.872863163",
        },
    )
    neighbours = fields.List(fields.Nested(EdNeighbourMassSchema), required=True)


class EdAtomicSymbolSchema(EdCategorySchema):
    word = fields.Nested(EdPlacingSchema, allow_none=True, required=True)


class EdIonPairSchema(ma.Schema):
    cation = fields.Integer(required=True)
    anion = fields.Integer(required=True)
    charge = fields.Integer(required=True)
    formula = fields.String(required=True, metadata={"example": "NaCl"})


class EdIonizationSchema(EdCategorySchema):
    pairs = fields.List(fields.Nested(EdIonPairSchema), required=True)


class EdFamilySchema(EdCategorySchema):
    families = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    distinct = fields.Integer(required=True)
    largest = fields.Integer(required=True)
    counted = fields.Integer(required=True)


class EdRadioactivitySchema(EdCategorySchema):
    radioactive = fields.List(fields.Integer(), required=True)
    applies = fields.Boolean(required=True, metadata={"description": "7+ players only."})


class EdCategoriesSchema(ma.Schema):
    atomic_number = fields.Nested(EdAtomicNumberSchema, required=True)
    atomic_mass = fields.Nested(EdAtomicMassSchema, required=True)
    atomic_symbol = fields.Nested(EdAtomicSymbolSchema, required=True)
    ionization = fields.Nested(EdIonizationSchema, required=True)
    family = fields.Nested(EdFamilySchema, required=True)
    radioactivity = fields.Nested(EdRadioactivitySchema, required=True)


class EdSeatScoreSchema(ma.Schema):
    seat = fields.Integer(required=True)
    total = fields.Integer(required=True)
    highest_atomic_number = fields.Integer(required=True)
    categories = fields.Nested(EdCategoriesSchema, required=True)


class EdScoresSchema(ma.Schema):
    final = fields.Boolean(required=True)
    seats = fields.List(fields.Nested(EdSeatScoreSchema), required=True)


class EdCardSelectedEventSchema(ma.Schema):
    """Only the selecting seat learns which card (others see `has_selected`)."""

    type = move_type("card_selected")
    seat = fields.Integer(required=True)
    card = fields.Integer(metadata={"description": "Present only for the selecting seat."})


class EdRevealedCardSchema(EdCardSchema):
    seat = fields.Integer(required=True)


class EdCardsRevealedEventSchema(ma.Schema):
    type = move_type("cards_revealed")
    turn = fields.Integer(required=True)
    cards = fields.List(fields.Nested(EdRevealedCardSchema), required=True)


class EdWordSpelledEventSchema(EdPlacingSchema):
    type = move_type("word_spelled")


class EdHandsPassedEventSchema(ma.Schema):
    type = move_type("hands_passed")
    turn = fields.Integer(required=True)
    direction = fields.String(required=True, validate=validate.OneOf(["left"]))


class EdGameOverEventSchema(ma.Schema):
    type = move_type("game_over")
    finished = fields.Boolean(required=True)
    winners = fields.List(fields.Integer(), required=True)
    ranking = fields.List(fields.Integer(), required=True)
    places = fields.List(fields.Integer(), required=True)
    tie_break = fields.String(allow_none=True, required=True)


class EdWordSourceSchema(ma.Schema):
    package = fields.String(required=True, metadata={"example": "wamerican"})
    version = fields.String(required=True)
    file = fields.String(required=True)
    description = fields.String(required=True)
    sha256 = fields.String(required=True, metadata={"description": "Of the source file."})
    upstream = fields.String(required=True)


class EdWordBuildSchema(ma.Schema):
    script = fields.String(required=True, metadata={"example": "scripts/build_words.py"})
    command = fields.String(required=True, metadata={"example": "make words"})
    filters = fields.List(fields.String(), required=True)
    counts = fields.String(required=True)


class EdWordListSchema(ma.Schema):
    """The built-in word list of the atomic-symbol race, with where it comes from.

    A client can check a word race itself: every 5-letter word here is spellable with
    element symbols; `spellable_at_deck_size` says how many at each of the seed's deck
    sizes.
    """

    name = fields.String(required=True, metadata={"example": "words"})
    title = fields.String(required=True)
    count = fields.Integer(required=True, metadata={"example": 1155})
    words = fields.List(fields.String(), required=True, metadata={"example": ["bacon"]})
    spellable_at_deck_size = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "Deck size -> how many of the words it can spell."},
    )
    source = fields.Nested(EdWordSourceSchema, required=True)
    build = fields.Nested(EdWordBuildSchema, required=True)
    licence = fields.String(required=True)
    rule = fields.String(required=True, metadata={"description": "How a word is spelled."})


API = GameApi(
    game=GAME,
    options=EdOptionsSchema,
    moves={"draft": EdDraftMoveSchema},
    view=EdViewSchema,
    scores=EdScoresSchema,
    card=EdDeckCardSchema,
    resources={"words": EdWordListSchema},
    events={
        "card_selected": EdCardSelectedEventSchema,
        "cards_revealed": EdCardsRevealedEventSchema,
        "word_spelled": EdWordSpelledEventSchema,
        "hands_passed": EdHandsPassedEventSchema,
        "game_over": EdGameOverEventSchema,
    },
    setup_example={
        "players": 2,
        "options": {"deal": [[1, 8, 26], [6, 11, 17]], "words": ["bacon", "scone"]},
        "seed": 1,
    },
    move_example={"token": "gAAAAABn...", "seat": 0, "move": {"type": "draft", "card": 26}},
)
