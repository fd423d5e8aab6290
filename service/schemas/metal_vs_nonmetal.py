"""HTTP schemas of Metal vs. Non-Metal (`metal-vs-nonmetal`)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from rules.metal_vs_nonmetal import GAME
from rules.metal_vs_nonmetal.cards import MAX_CARDS, MAX_COPIES, MAX_IONS
from rules.metal_vs_nonmetal.explain import RESULTS
from rules.metal_vs_nonmetal.game import HAND_SIZE, MAX_PLAYERS, PRIZES

from ..play import GameApi
from .common import move_type

ION_LABEL = validate.Regexp(r"^[A-Z][a-z]?[2-9]?[+-]$", error="Not an ion label such as Ca2+.")
CARD_ID = validate.Range(min=1, max=MAX_CARDS)
SEAT = validate.Range(min=0, max=MAX_PLAYERS - 1)


def about(text: str, **more: Any) -> dict[str, Any]:
    return {"description": text, **more}


def _seat(text: str, **kw: Any) -> fields.Integer:
    return fields.Integer(required=True, validate=SEAT, metadata=about(text, example=0), **kw)


def _ion_label(text: str, **kw: Any) -> fields.String:
    return fields.String(
        required=True, validate=ION_LABEL, metadata=about(text, example="Ca2+"), **kw
    )


def _count(text: str) -> fields.Integer:
    return fields.Integer(required=True, validate=validate.Range(min=0), metadata=about(text))


def _charge(text: str, **kw: Any) -> fields.Integer:
    return fields.Integer(required=True, metadata=about(text, example=-6), **kw)


def _text_field(text: str) -> fields.String:
    return fields.String(required=True, metadata=about(text))


def _card_id_list(text: str, **kw: Any) -> fields.List[Any]:
    return fields.List(
        fields.Integer(validate=CARD_ID, metadata=about("A card id.")),
        metadata=about(text, example=[9, 10]),
        **kw,
    )


# -- options ---------------------------------------------------------------------------
class MvnOptionsSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    start_player = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        validate=SEAT,
        metadata=about(
            "The seat that initiates the first exchange; omit or null to draw it with the "
            "game's seeded generator.",
            example=0,
        ),
    )
    power_play_prize = fields.String(
        load_default="all",
        validate=validate.OneOf(PRIZES),
        metadata=about(
            "When a power play stands: the responding player collects 'all' the cards in "
            "play (step 5) or only 'responder_cards', the cards it played (example 3); the "
            "initiating cards are then set aside."
        ),
    )
    deal = fields.List(
        fields.List(
            fields.String(validate=ION_LABEL, metadata=about("An ion label.", example="Na+")),
            validate=validate.Length(equal=HAND_SIZE),
        ),
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=2, max=MAX_PLAYERS),
        metadata=about(
            "One hand of 6 ion labels per seat, within the deck's copies; null deals at random.",
            example=[["Ca2+", "Na+", "Na+", "Al3+", "O2-", "N3-"], ["Cl-"] * 6],
        ),
    )
    ion_deck_top = fields.List(
        fields.String(validate=ION_LABEL, metadata=about("An ion label.", example="Cl-")),
        allow_none=True,
        load_default=None,
        validate=validate.Length(max=MAX_CARDS),
        metadata=about(
            "The first cards drawn from the Ion Deck, in drawing order; the rest is "
            "shuffled under them.",
            example=["Cl-", "O2-"],
        ),
    )
    ions = fields.Dict(
        keys=fields.String(validate=ION_LABEL),
        values=fields.Integer(strict=True, validate=validate.Range(min=1, max=MAX_COPIES)),
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=2, max=MAX_IONS),
        metadata=about(
            "A teacher's own deck: ion label -> copies. Cations must be metals and anions "
            "non-metals, with charges from the chemistry data; 12-80 cards; the charges "
            "must balance. Null is the seed's 40-card deck.",
            example={"K+": 6, "Mg2+": 3, "Br-": 6, "S2-": 3},
        ),
    )


# -- moves -----------------------------------------------------------------------------
class MvnPlayMoveSchema(ma.Schema):
    """Initiating player: play any one card of your hand face up (you draw back to 6)."""

    type = move_type("play")
    card = fields.Integer(
        required=True, strict=True, validate=CARD_ID, metadata=about("The card's id.", example=17)
    )


class MvnRespondMoveSchema(ma.Schema):
    """Responding player: answer the lead card (step 4, or advanced ruling 1)."""

    type = move_type("respond")
    cards = _card_id_list(
        "Cards of one ion, of the opposite charge: as many as the lead's charge number, or "
        "one of the same charge number; with no such answer, all your cards of one ion "
        "of lower charge number.",
        required=True,
        validate=validate.Length(min=1, max=HAND_SIZE),
    )


class MvnReinforceMoveSchema(ma.Schema):
    """Initiating player after a power play: add cards of your first card's ion."""

    type = move_type("reinforce")
    cards = _card_id_list(
        "The fewest cards of the lead's ion that bring your total to at least the "
        "responding player's (the view's exchange.reinforcement says how many).",
        required=True,
        validate=validate.Length(min=1, max=HAND_SIZE),
    )


class MvnDeclineMoveSchema(ma.Schema):
    """Initiating player after a power play: do not call for reinforcements."""

    type = move_type("decline")


# -- cards and views -------------------------------------------------------------------
class MvnCardSchema(ma.Schema):
    """An ion card as printed: ion, charge, name, metal or non-metal."""

    id = fields.Integer(required=True, validate=CARD_ID, metadata=about("Card id.", example=17))
    ion = _ion_label("The ion, symbol and charge: Ca2+.")
    symbol = fields.String(required=True, metadata=about("Element symbol.", example="Ca"))
    element = fields.String(required=True, metadata=about("Element name.", example="Calcium"))
    charge = _charge("The ion's signed charge.")
    name = fields.String(required=True, metadata=about("Ion name.", example="calcium ion"))
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["metal", "non-metal"]),
        metadata=about("Metal (cations) or non-metal (anions)."),
    )


class MvnPileSchema(ma.Schema):
    count = _count("How many cards the pile holds (always public).")
    cards = fields.List(
        fields.Nested(MvnCardSchema),
        required=True,
        allow_none=True,
        metadata=about("The cards, bottom first, or null where this seat may not see them."),
    )


class MvnAnswerSchema(ma.Schema):
    ion = _ion_label("The answering ion.")
    count = _count("How many cards of it.")
    total = _charge("Their total charge.")


class MvnReinforcementSchema(ma.Schema):
    ion = _ion_label("The lead's ion, the only one reinforcements may be.")
    count = _count("The cards needed to reach at least the responding total.")
    difference = _count("How much more charge the responding player has.")


class MvnExchangeViewSchema(ma.Schema):
    """The exchange being played (null once the game is over)."""

    number = fields.Integer(required=True, metadata=about("Exchange number, from 1."))
    step = fields.String(
        required=True,
        validate=validate.OneOf(["initiate", "respond", "reinforce"]),
        metadata=about("The step: the initiator plays, the responder answers, reinforcements."),
    )
    initiator = _seat("The initiating seat.")
    responder = _seat("The responding seat (next counterclockwise with cards).")
    lead = fields.String(
        required=True,
        allow_none=True,
        validate=ION_LABEL,
        metadata=about("The ion of the initiating card, once played."),
    )
    answers = fields.List(
        fields.Nested(MvnAnswerSchema),
        required=True,
        metadata=about("Every answer step 4 describes against the lead (whatever the hand)."),
    )
    initiator_total = _charge("Total charge of the initiating player's cards in play.")
    responder_total = _charge("Total charge of the responding player's cards in play.")
    reinforcement = fields.Nested(
        MvnReinforcementSchema,
        required=True,
        allow_none=True,
        metadata=about("After a power play: what reinforcements would balance it."),
    )


class MvnSeatViewSchema(ma.Schema):
    seat = _seat("Seat number (clockwise).")
    hand = fields.Nested(MvnPileSchema, required=True, metadata=about("Cards only for its owner."))
    in_play = fields.Nested(MvnPileSchema, required=True, metadata=about("Face up this exchange."))
    in_play_total = _charge("Total charge of its cards in play.")
    collection = fields.Nested(
        MvnPileSchema,
        required=True,
        metadata=about("Collected cards (face down, but every one was seen face up)."),
    )
    collected = _count("Cards collected: the score.")


class MvnYouSchema(ma.Schema):
    seat = _seat("Your seat.")
    role = fields.String(
        required=True,
        validate=validate.OneOf(["initiator", "responder", "waiting"]),
        metadata=about("Your part in the current exchange."),
    )
    hand = fields.List(fields.Nested(MvnCardSchema), required=True, metadata=about("Your hand."))
    next = _seat("The seat counterclockwise of yours (seat - 1): it answers you.")
    previous = _seat("The seat clockwise of yours (seat + 1): you answer it.")


class MvnHistorySchema(ma.Schema):
    exchange = fields.Integer(required=True, metadata=about("Exchange number."))
    initiator = _seat("The initiating seat.")
    responder = _seat("The responding seat.")
    result = fields.String(
        required=True, validate=validate.OneOf(RESULTS), metadata=about("How it was settled.")
    )
    collector = _seat("The seat that collected.")
    card_count = _count("Cards it collected.")
    formula = fields.String(
        required=True,
        allow_none=True,
        metadata=about("The compound of the two ions in play (null: no answer).", example="CaO"),
    )


class MvnViewSchema(ma.Schema):
    """What one seat (or an observer) may see: never another hand or the Ion Deck."""

    game = fields.String(required=True, metadata=about("The slug.", example="metal-vs-nonmetal"))
    players = fields.Integer(required=True, metadata=about("Number of seats."))
    finished = fields.Boolean(required=True, metadata=about("Whether the game is over."))
    start_player = _seat("The seat that initiated the first exchange.")
    direction = fields.String(
        required=True,
        validate=validate.OneOf(["counterclockwise"]),
        metadata=about("Play passes counterclockwise, to seat - 1."),
    )
    power_play_prize = fields.String(
        required=True, validate=validate.OneOf(PRIZES), metadata=about("The option in force.")
    )
    ion_deck = fields.Nested(MvnPileSchema, required=True, metadata=about("Face down: count."))
    set_aside = fields.Nested(
        MvnPileSchema, required=True, metadata=about("Cards that count for nobody.")
    )
    exchange = fields.Nested(
        MvnExchangeViewSchema, required=True, allow_none=True, metadata=about("This exchange.")
    )
    seats = fields.List(fields.Nested(MvnSeatViewSchema), required=True, metadata=about("Seats."))
    history = fields.List(
        fields.Nested(MvnHistorySchema), required=True, metadata=about("Settled exchanges.")
    )
    you = fields.Nested(
        MvnYouSchema, required=True, allow_none=True, metadata=about("Null for an observer.")
    )


class MvnSeatScoreSchema(ma.Schema):
    seat = _seat("Seat number.")
    collected = _count("Cards collected: the score.")
    by_ion = fields.Dict(
        keys=fields.String(validate=ION_LABEL),
        values=fields.Integer(),
        required=True,
        metadata=about("Collected cards per ion.", example={"Ca2+": 3, "N3-": 2}),
    )
    exchanges_won = fields.List(
        fields.Integer(), required=True, metadata=about("Numbers of the exchanges it collected.")
    )


class MvnScoresSchema(ma.Schema):
    final = fields.Boolean(required=True, metadata=about("Whether the game is over."))
    seats = fields.List(fields.Nested(MvnSeatScoreSchema), required=True, metadata=about("Seats."))
    set_aside = _count("Cards set aside: they count for nobody.")


# -- events ----------------------------------------------------------------------------
def _cards_field(text: str, *, required: bool = True) -> fields.List[Any]:
    return fields.List(fields.Nested(MvnCardSchema), required=required, metadata=about(text))


class MvnCardPlayedEventSchema(ma.Schema):
    """The initiating card, face up, with the answers step 4 allows against it."""

    type = move_type("card_played")
    seat = _seat("The initiating seat.")
    ion = _ion_label("The lead ion.")
    charge = _charge("Its charge.")
    name = _text_field("Its name.")
    responder = _seat("The seat that must answer.")
    answers = fields.List(
        fields.Nested(MvnAnswerSchema), required=True, metadata=about("Step 4's answers.")
    )
    count = _count("Cards played (1).")
    cards = _cards_field("The card.")


class MvnCardsDrawnEventSchema(ma.Schema):
    """Cards drawn from the Ion Deck; only the drawer sees which."""

    type = move_type("cards_drawn")
    seat = _seat("The drawing seat.")
    reason = fields.String(
        required=True,
        validate=validate.OneOf(["replenish", "forced_draw"]),
        metadata=about("Back to 6 cards, or advanced ruling 1's draw after a short answer."),
    )
    count = _count("Cards drawn.")
    ion_deck_left = _count("Cards left in the Ion Deck.")
    cards = _cards_field("The cards drawn: present only for the drawing seat.", required=False)


class MvnRespondedEventSchema(ma.Schema):
    type = move_type("responded")
    seat = _seat("The responding seat.")
    ion = _ion_label("The answering ion.")
    count = _count("Cards played.")
    total = _charge("Their total charge.")
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["regular", "partial"]),
        metadata=about("A step-4 answer, or advanced ruling 1's 'play what you have'."),
    )
    cards = _cards_field("The cards.")


class MvnForcedPlayEventSchema(ma.Schema):
    """Advanced ruling 1: a drawn card of the same ion must be played."""

    type = move_type("forced_play")
    seat = _seat("The responding seat.")
    ion = _ion_label("The ion drawn and played.")
    count = _count("Cards played (1).")
    cards = _cards_field("The card.")
    total = _charge("The responding total now.")


class MvnForcedDrawsEndedEventSchema(ma.Schema):
    type = move_type("forced_draws_ended")
    seat = _seat("The responding seat.")
    reason = fields.String(
        required=True,
        validate=validate.OneOf(["different_ion", "neutralised", "ion_deck_empty"]),
        metadata=about("Why drawing stopped."),
    )
    forced = _count("Cards it had to play.")


class MvnCardTakenEventSchema(ma.Schema):
    """Advanced ruling 1, example 2: no possible answer; a random card is taken."""

    type = move_type("card_taken")
    seat = _seat("The initiating seat, which collects the card.")
    from_seat = _seat("The responding seat it was taken from.")
    count = _count("Cards taken (1).")
    cards = _cards_field("The card taken (it goes face up to a public collection).")


class MvnNeedSchema(ma.Schema):
    ion = _ion_label("The lead's ion.")
    count = _count("The cards needed to reach at least the responding total.")


class MvnPowerPlayEventSchema(ma.Schema):
    type = move_type("power_play")
    seat = _seat("The responding seat.")
    initiator = _seat("The initiating seat, which may call for reinforcements.")
    initiator_total = _charge("The initiating total.")
    responder_total = _charge("The responding total.")
    difference = _count("How much more charge the responding player has.")
    reinforcement = fields.Nested(
        MvnNeedSchema, required=True, metadata=about("The reinforcements that would balance it.")
    )
    explanation = _text_field("For the learner.")


class MvnReinforcedEventSchema(ma.Schema):
    type = move_type("reinforced")
    seat = _seat("The initiating seat.")
    ion = _ion_label("The lead's ion.")
    count = _count("Cards added.")
    cards = _cards_field("The cards.")
    total = _charge("The initiating total now.")


class MvnDeclinedEventSchema(ma.Schema):
    type = move_type("declined")
    seat = _seat("The initiating seat.")
    explanation = _text_field("For the learner.")


class MvnSideSchema(ma.Schema):
    seat = _seat("The seat.")
    ion = _ion_label("Its ion.")
    count = _count("Its cards in play.")
    charge = _charge("The charge of one card.")
    total = _charge("Their total charge.")


class MvnCompoundSchema(ma.Schema):
    formula = fields.String(required=True, metadata=about("Lowest ratio.", example="Ca3N2"))
    name = fields.String(required=True, metadata=about("Name.", example="calcium nitride"))
    cation = _ion_label("The cation.")
    anion = _ion_label("The anion.")
    cation_count = _count("Cations per formula unit.")
    anion_count = _count("Anions per formula unit.")
    molar_mass = fields.Float(required=True, metadata=about("g/mol (molmass).", example=148.247))


class MvnCollectedSchema(ma.Schema):
    seat = _seat("The collecting seat.")
    cards = _card_id_list("The cards collected.", required=True)


class MvnSetAsideSchema(ma.Schema):
    cards = _card_id_list("Cards set aside (option power_play_prize).", required=True)


class MvnExchangeSettledEventSchema(ma.Schema):
    """Step 5: who collects, and the chemistry: ions, totals, the compound."""

    type = move_type("exchange_settled")
    exchange = fields.Integer(required=True, metadata=about("Exchange number."))
    result = fields.String(
        required=True, validate=validate.OneOf(RESULTS), metadata=about("How it was settled.")
    )
    initiator = fields.Nested(MvnSideSchema, required=True, metadata=about("Initiating side."))
    responder = fields.Nested(
        MvnSideSchema,
        required=True,
        allow_none=True,
        metadata=about("Responding side (null: no possible answer)."),
    )
    reinforcements = _count("Reinforcement cards added.")
    forced_plays = _count("Cards the responder had to play after drawing.")
    # `partial` is a Schema attribute: the member is declared under another name
    partial_answer = fields.Boolean(
        required=True, data_key="partial", metadata=about("Advanced ruling 1's short answer.")
    )
    compound = fields.Nested(
        MvnCompoundSchema,
        required=True,
        allow_none=True,
        metadata=about("The compound the two ions form."),
    )
    neutral = fields.Boolean(required=True, metadata=about("Whether the charges cancel."))
    formula_units = _count("Whole formula units in play when neutral, else 0.")
    equation = fields.String(
        required=True,
        allow_none=True,
        metadata=about("When neutral: the ions combining.", example="3 Ca2+ + 2 N3- -> Ca3N2"),
    )
    stronger = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(["initiator", "responder"]),
        metadata=about("When not neutral: the side with more charge."),
    )
    difference = _count("By how much (0 when neutral).")
    collector = _seat("The seat that collects.")
    collected = fields.Nested(MvnCollectedSchema, required=True, metadata=about("What."))
    set_aside = fields.Nested(MvnSetAsideSchema, required=True, metadata=about("Set aside."))
    explanation = _text_field("For the learner.")


class MvnExchangeStartedEventSchema(ma.Schema):
    type = move_type("exchange_started")
    exchange = fields.Integer(required=True, metadata=about("Exchange number."))
    initiator = _seat("The initiating seat (the last responder, if it holds cards).")
    responder = _seat("The responding seat.")
    out_of_cards = fields.List(
        fields.Integer(), required=True, metadata=about("Seats holding no cards (end game).")
    )
    passed_over = fields.List(
        fields.Integer(), required=True, metadata=about("Seats due to play but out of cards.")
    )


class MvnCardsSetAsideEventSchema(ma.Schema):
    """At the end: cards never played count for nobody."""

    type = move_type("cards_set_aside")
    seat = _seat("The seat whose hand it was.")
    reason = fields.String(
        required=True, validate=validate.OneOf(["unused"]), metadata=about("Why.")
    )
    count = _count("Cards set aside.")
    cards = _cards_field("The cards.")


class MvnGameOverEventSchema(ma.Schema):
    type = move_type("game_over")
    finished = fields.Boolean(required=True, metadata=about("Always true."))
    winners = fields.List(fields.Integer(), required=True, metadata=about("Winning seats."))
    ranking = fields.List(fields.Integer(), required=True, metadata=about("Seats, best first."))
    places = fields.List(fields.Integer(), required=True, metadata=about("Place per ranked seat."))
    tie_break = fields.String(
        required=True, allow_none=True, metadata=about("'shared' when several seats win.")
    )
    collected = fields.List(fields.Integer(), required=True, metadata=about("Cards per seat."))
    unused = _count("Cards set aside, counting for nobody.")


API = GameApi(
    game=GAME,
    options=MvnOptionsSchema,
    moves={
        "play": MvnPlayMoveSchema,
        "respond": MvnRespondMoveSchema,
        "reinforce": MvnReinforceMoveSchema,
        "decline": MvnDeclineMoveSchema,
    },
    view=MvnViewSchema,
    scores=MvnScoresSchema,
    card=MvnCardSchema,
    events={
        "card_played": MvnCardPlayedEventSchema,
        "cards_drawn": MvnCardsDrawnEventSchema,
        "responded": MvnRespondedEventSchema,
        "forced_play": MvnForcedPlayEventSchema,
        "forced_draws_ended": MvnForcedDrawsEndedEventSchema,
        "card_taken": MvnCardTakenEventSchema,
        "power_play": MvnPowerPlayEventSchema,
        "reinforced": MvnReinforcedEventSchema,
        "declined": MvnDeclinedEventSchema,
        "exchange_settled": MvnExchangeSettledEventSchema,
        "exchange_started": MvnExchangeStartedEventSchema,
        "cards_set_aside": MvnCardsSetAsideEventSchema,
        "game_over": MvnGameOverEventSchema,
    },
    setup_example={
        "players": 2,
        "options": {
            "start_player": 0,
            "deal": [
                ["Ca2+", "Na+", "Na+", "Al3+", "O2-", "N3-"],
                ["Cl-", "Cl-", "O2-", "N3-", "Ca2+", "Al3+"],
            ],
        },
        "seed": 1,
    },
    move_example={
        "token": "gAAAAABn...",
        "seat": 0,
        "move": {"type": "play", "card": 17},
    },
)
