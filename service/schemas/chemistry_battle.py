"""HTTP schemas of Chemistry Battle (`chemistry-battle`)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from rules.chemistry_battle import GAME
from rules.chemistry_battle.game import DEFAULT_ROUND_LIMIT, HAND_PLAY, MAX_ROUND_LIMIT, NEXT_LEADER

from ..play import GameApi
from .common import move_type

Z = validate.Range(min=1, max=54)
END_REASONS = ["seat_out", "round_limit", "cycle"]


def _seat(description: str, *, allow_none: bool = False) -> fields.Integer:
    return fields.Integer(
        required=True,
        allow_none=allow_none,
        metadata={"description": description, "example": 1},
    )


def _seats(description: str) -> fields.List[Any]:
    return fields.List(fields.Integer(), required=True, metadata={"description": description})


class BattleOptionsSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    dealer = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        validate=validate.Range(min=0, max=5),
        metadata={
            "description": "The dealer's seat (the seat to its right plays first). Omit or "
            "null to cut for the deal with the game's seed. To rotate the deal over several "
            "games, pass the previous view's `next_dealer`.",
            "example": 0,
        },
    )
    next_leader = fields.String(
        load_default="winner",
        validate=validate.OneOf(NEXT_LEADER),
        metadata={
            "description": "Who plays first in the next round: the round's `winner`, or "
            "`rotate` to the seat right of this round's first player.",
        },
    )
    hand_play = fields.String(
        load_default="choice",
        validate=validate.OneOf(HAND_PLAY),
        metadata={
            "description": "`choice`: choose which card of your hand to play. `top`: the hand "
            "is a face-down stack played top card first (as in War).",
        },
    )
    round_limit = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=DEFAULT_ROUND_LIMIT,
        validate=validate.Range(min=1, max=MAX_ROUND_LIMIT),
        metadata={
            "description": "After this many rounds the cards are counted and the game ends. "
            "null plays until a seat runs out of cards (or play would repeat forever).",
            "example": 30,
        },
    )
    deal = fields.List(
        fields.List(fields.Integer(strict=True, validate=Z), validate=validate.Length(min=1)),
        allow_none=True,
        load_default=None,
        validate=validate.Length(min=2, max=6),
        metadata={
            "description": "One hand of atomic numbers (1-54) per seat, all the same size, no "
            "card twice; cards not dealt are out of the game. With `hand_play` `top` each hand "
            "is played in the order listed. Omit to deal all 54 by the seed's table.",
            "example": [[1, 26, 8], [25, 6, 17]],
        },
    )
    kitty = fields.List(
        fields.Integer(strict=True, validate=Z),
        allow_none=True,
        load_default=None,
        validate=validate.Length(max=54),
        metadata={
            "description": "With `deal` only: the kitty's cards, in the order they are later "
            "played. Omit for no kitty.",
            "example": [11, 12],
        },
    )


class BattlePlayMoveSchema(ma.Schema):
    """Play a card of your hand, face up (while you hold a hand and `hand_play` is `choice`)."""

    type = move_type("play")
    card = fields.Integer(
        required=True,
        strict=True,
        validate=Z,
        metadata={"description": "Atomic number of the card.", "example": 26},
    )


class BattlePlayNextMoveSchema(ma.Schema):
    """Play your next card without choosing: your collected cards in the order you collected
    them once your hand is empty (the kitty cards you captured first), or the top card of your
    face-down hand with `hand_play` `top`."""

    type = move_type("play_next")


class BattleCardSchema(ma.Schema):
    id = fields.Integer(required=True, metadata={"description": "Card id (= atomic number)."})
    z = fields.Integer(required=True, metadata={"description": "Atomic number.", "example": 26})
    symbol = fields.String(required=True, metadata={"example": "Fe"})
    name = fields.String(required=True, metadata={"example": "Iron"})


class BattlePlaySchema(ma.Schema):
    seat = _seat("The seat that played the card.")
    card = fields.Nested(BattleCardSchema, required=True)


class BattleKittySchema(ma.Schema):
    count = fields.Integer(required=True, metadata={"description": "Cards still in the kitty."})
    captured_by = _seat("The seat that won round 1 and the kitty.", allow_none=True)


class BattleCollectedSchema(ma.Schema):
    count = fields.Integer(required=True)
    cards = fields.List(
        fields.Nested(BattleCardSchema),
        required=True,
        metadata={
            "description": "The seat's collected round cards, in the order collected: the "
            "first is played next once its captured kitty cards are played. Public: every one "
            "was played face up."
        },
    )


class BattleSeatViewSchema(ma.Schema):
    seat = fields.Integer(required=True)
    hand_count = fields.Integer(required=True)
    kitty_count = fields.Integer(
        required=True,
        metadata={"description": "Captured kitty cards (faces unseen), played first."},
    )
    collected = fields.Nested(BattleCollectedSchema, required=True)
    total = fields.Integer(required=True, metadata={"description": "Cards counted at the end."})
    playing_from = fields.String(
        required=True,
        validate=validate.OneOf(["hand", "collected"]),
        metadata={"description": "`collected` once the hand is empty."},
    )


class BattleRoundSchema(ma.Schema):
    round = fields.Integer(required=True)
    seat = _seat("The seat that won the round.")
    card = fields.Nested(BattleCardSchema, required=True, metadata={"description": "It won."})
    plays = fields.List(
        fields.Nested(BattlePlaySchema),
        required=True,
        metadata={"description": "Every card of the round, in the order played (collected so)."},
    )
    explanation = fields.String(
        required=True, metadata={"example": "26 Fe beats 25 Mn: higher atomic number"}
    )


class BattleEndSchema(ma.Schema):
    reason = fields.String(required=True, validate=validate.OneOf(END_REASONS))
    round = fields.Integer(required=True, metadata={"description": "The last round played."})
    out = _seats("Seats that ran out of cards (reason `seat_out`).")


class BattleYouSchema(ma.Schema):
    seat = fields.Integer(required=True)
    hand = fields.List(
        fields.Nested(BattleCardSchema),
        required=True,
        allow_none=True,
        metadata={"description": "Your hand, by atomic number; null when it is face down (top)."},
    )
    hand_count = fields.Integer(required=True)
    left = fields.Integer(required=True, metadata={"description": "The seat to your left."})
    right = fields.Integer(
        required=True, metadata={"description": "The seat to your right: it plays after you."}
    )


class BattleViewSchema(ma.Schema):
    """What one seat (or an observer) may see: never another seat's hand, a kitty card's
    face, or the deck order. Collected round cards are public: all were played face up."""

    game = fields.String(required=True, metadata={"example": "chemistry-battle"})
    players = fields.Integer(required=True)
    hand_play = fields.String(required=True, validate=validate.OneOf(HAND_PLAY))
    next_leader = fields.String(required=True, validate=validate.OneOf(NEXT_LEADER))
    round_limit = fields.Integer(required=True, allow_none=True)
    dealer = fields.Integer(required=True)
    next_dealer = fields.Integer(
        required=True, metadata={"description": "Left of the dealer: deals the next game."}
    )
    round = fields.Integer(required=True, metadata={"description": "The round being played."})
    leader = _seat("The seat that plays first this round.")
    order = _seats("This round's seats in playing order (to the right from the leader).")
    turn = _seat("The seat to play now; null once the game is over.", allow_none=True)
    table = fields.List(
        fields.Nested(BattlePlaySchema),
        required=True,
        metadata={"description": "Cards played this round, in order."},
    )
    kitty = fields.Nested(BattleKittySchema, required=True)
    seats = fields.List(fields.Nested(BattleSeatViewSchema), required=True)
    last_round = fields.Nested(BattleRoundSchema, required=True, allow_none=True)
    finished = fields.Boolean(required=True)
    end = fields.Nested(BattleEndSchema, required=True, allow_none=True)
    you = fields.Nested(BattleYouSchema, required=True, allow_none=True)


class BattleSeatScoreSchema(ma.Schema):
    seat = fields.Integer(required=True)
    hand = fields.Integer(required=True, metadata={"description": "Cards in hand."})
    kitty = fields.Integer(required=True, metadata={"description": "Captured kitty cards."})
    collected = fields.Integer(required=True, metadata={"description": "Collected round cards."})
    total = fields.Integer(required=True, metadata={"description": "hand + kitty + collected."})


class BattleScoresSchema(ma.Schema):
    final = fields.Boolean(required=True)
    seats = fields.List(fields.Nested(BattleSeatScoreSchema), required=True)


# -- events ----------------------------------------------------------------------------
class BattleCardPlayedEventSchema(ma.Schema):
    type = move_type("card_played")
    seat = fields.Integer(required=True)
    round = fields.Integer(required=True)
    card = fields.Nested(BattleCardSchema, required=True)
    source = fields.String(
        required=True,
        validate=validate.OneOf(["hand", "captured_kitty", "collected"]),
        metadata={"description": "Where the card came from."},
    )
    position = fields.Integer(required=True, metadata={"description": "1 = led the round."})
    leading = fields.Boolean(
        required=True, metadata={"description": "It is the highest card on the table so far."}
    )


class BattlePilePickedUpEventSchema(ma.Schema):
    """The seat's hand is empty: from now on it plays its collected cards in order."""

    type = move_type("pile_picked_up")
    seat = fields.Integer(required=True)
    round = fields.Integer(required=True)
    count = fields.Integer(required=True)


class BattleRoundWonEventSchema(BattleRoundSchema):
    type = move_type("round_won")


class BattleKittyCapturedEventSchema(ma.Schema):
    """The winner of round 1 takes the kitty, face down: nobody sees its cards."""

    type = move_type("kitty_captured")
    seat = fields.Integer(required=True)
    round = fields.Integer(required=True)
    count = fields.Integer(required=True)


class BattleSeatOutEventSchema(ma.Schema):
    type = move_type("seat_out")
    seat = fields.Integer(required=True)
    round = fields.Integer(required=True)
    message = fields.String(required=True)


class BattleRoundStartedEventSchema(ma.Schema):
    type = move_type("round_started")
    round = fields.Integer(required=True)
    leader = fields.Integer(required=True)
    order = _seats("Seats in playing order.")


class BattleGameOverEventSchema(ma.Schema):
    type = move_type("game_over")
    reason = fields.String(required=True, validate=validate.OneOf(END_REASONS))
    round = fields.Integer(required=True)
    counts = fields.List(
        fields.Integer(), required=True, metadata={"description": "Cards counted, per seat."}
    )
    message = fields.String(required=True)
    finished = fields.Boolean(required=True)
    winners = fields.List(fields.Integer(), required=True)
    ranking = fields.List(fields.Integer(), required=True)
    places = fields.List(fields.Integer(), required=True)
    tie_break = fields.String(allow_none=True, required=True)


API = GameApi(
    game=GAME,
    options=BattleOptionsSchema,
    moves={"play": BattlePlayMoveSchema, "play_next": BattlePlayNextMoveSchema},
    view=BattleViewSchema,
    scores=BattleScoresSchema,
    card=BattleCardSchema,
    events={
        "card_played": BattleCardPlayedEventSchema,
        "pile_picked_up": BattlePilePickedUpEventSchema,
        "round_won": BattleRoundWonEventSchema,
        "kitty_captured": BattleKittyCapturedEventSchema,
        "seat_out": BattleSeatOutEventSchema,
        "round_started": BattleRoundStartedEventSchema,
        "game_over": BattleGameOverEventSchema,
    },
    setup_example={
        "players": 2,
        "options": {"deal": [[1, 26, 8], [25, 6, 17]], "dealer": 1},
        "seed": 1,
    },
    move_example={
        "token": "gAAAAABn...",
        "seat": 0,
        "move": {"type": "play", "card": 26},
    },
)
