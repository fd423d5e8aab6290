"""Draw two, then capture or discard: the turn shared by Compound Capture and Canasta.

The seed gives both games the same table and the same turn:

- compound cards apart, six face up (the *row*), the rest face down (the *compound
  pile*); 7 element or wild cards dealt to each seat; the rest is the *draw deck*; one
  card turned up starts the *discard pile*;
- the seat left of the dealer starts; a turn is two draws (two from the draw deck, or
  one from it and the top of the discard pile, never two from the discard pile), then
  at most one capture (name a face-up compound, play exactly its elements onto the
  discard pile, wild cards allowed but not alone), else a discard; a captured compound
  is replaced from the compound pile so that six stay face up.

This module holds those zones and steps as pure functions over the game state; a game
adds its own steps (Canasta's runs and claims), its end of round and its scoring. The
state keys it uses: ``players``, ``rng``, ``zones`` (laid out by :func:`layout`) and
``turn`` (:func:`new_turn`: ``seat``, ``step`` ``"draw"`` or ``"play"``, ``drawn``,
``took_discard``). Cards are named by id; their faces come from a
:class:`rules.chemistry.decks.compound.TableCards`.

When the draw deck runs out, ``deck_out`` says what happens (a game option):
``"reshuffle"`` shuffles the discard pile, all but its top card, into a new draw deck
when a seat draws from the empty deck; ``"end_round"`` ends the round after the turn
that empties the draw deck (see :func:`deck_ran_out`). Under ``"reshuffle"`` a seat
that finds no card it may draw (both piles spent) ends its draw early (event
``draw_ended``); it always gets at least one card, because the discard pile is never
empty when a turn starts.

Refusals are ``RuleViolation`` with the codes of :data:`CODES`, ``bad_deal`` (a fixed
deal's cards), and from :func:`rules.chemistry.compounds.capture_parts` ``all_wild`` and
``wrong_elements``. The shapes of the moves, views and events are
:mod:`rules.draw_discard_wire`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from rules import draw_discard_wire as dw
from rules.chemistry.compounds import capture_choices, capture_parts, capture_text, explain
from rules.chemistry.decks.compound import TableCards
from rules.core import JSON, Code, Event, RuleViolation, State, left_of
from rules.draw_discard_wire import FACE_UP, HAND, Face
from rules.rng import RngState, shuffled
from rules.shapes import quote
from rules.zones import Layout, Place, Seen, Zone, Zones, emitted

__all__ = [
    "CODES",
    "FACE_UP",
    "HAND",
    "SEED_DEAL",
    "SEED_DISCARD",
    "SEED_DRAW",
    "ZONES",
    "apply_capture",
    "apply_discard",
    "apply_draw",
    "can_capture",
    "capture_moves",
    "deal",
    "deal_counts",
    "deck_ran_out",
    "draw_sources",
    "layout",
    "misplaced",
    "new_turn",
    "redeal_hidden",
    "reshuffle",
    "row_problems",
    "turn_problem",
    "verify_capture",
    "verify_cards",
    "verify_discard",
    "verify_draw",
    "verify_step",
]

SEED_DEAL = (
    "Deal each player 7 cards from the deck of element cards and wild cards. Place remaining "
    "cards face down in center of game space. This is the draw deck. Turn one card from the "
    "draw deck face up. This is the discard pile."
)
SEED_DRAW = (
    "The first player picks up two cards. They may select two cards from the top of the draw "
    "deck or they may pick up one card from the top of the draw deck and the top card from "
    "the discard pile. They may not select two cards from the discard pile."
)
SEED_CAPTURE_STEP = (
    "After drawing the cards, the player should try to capture one of the six compound cards."
)
SEED_DISCARD = (
    "If the player cannot capture a card, they must discard a card from their hand onto the "
    "discard pile."
)
SEED_ONE_CAPTURE = "Only one card can be captured per turn."

CODES: Mapping[str, Code] = {
    "not_your_turn": Code.turn("It is another seat's turn."),
    "draw_first": Code.move("The seat must draw its two cards before capturing or discarding."),
    "already_drawn": Code.move("The seat has drawn its two cards; it must now capture or discard."),
    "two_from_discard": Code.move("The seat already took the top of the discard pile this turn."),
    "empty_deck": Code.move("The draw deck is empty and cannot be refilled now."),
    "not_face_up": Code.move("The compound named is not one of the face-up compounds."),
    "duplicate_card": Code.move("A card is listed twice in one move."),
    "not_in_hand": Code.move("A card played is not in the seat's hand."),
    "all_wild": Code.move("A compound cannot be captured with wild cards alone."),
    "wrong_elements": Code.move("The cards played are not exactly the compound's elements."),
}
"""The codes of the refusals above, for a game's ``GameInfo.codes`` (a game may word
one for its own turn). ``not_your_turn`` is a reason a seat cannot act now: it refuses
the seat's moves and a bot's move for it; the others refuse one move."""

ZONES: tuple[Zone, ...] = (
    Zone("draw", Seen.HIDDEN),
    Zone("discard", Seen.PUBLIC),
    Zone("hand", Seen.OWNER, per_seat=True, ordered=False, at_end=Seen.PUBLIC),
    Zone("compounds", Seen.HIDDEN),
    Zone("row", Seen.PUBLIC),
    Zone("captured", Seen.PUBLIC, per_seat=True),
)
"""The draw deck (face down), the discard pile (every card on it was played face up, so
all of it is public), the hands (on the table once the round is over: "Cards remaining
in the player's hand must be counted against the total"), the face-down compound pile,
the face-up row and each seat's captured compounds."""


def layout(*extra: Zone) -> Layout:
    """The zones of the shared table plus a game's own (Canasta's runs)."""
    return Layout((*ZONES, *extra))


def redeal_hidden(
    zones: Zones, table: Layout, seat: int | None, rng: RngState
) -> tuple[Zones, RngState]:
    """``zones`` with every card ``seat`` cannot see by ``table`` (the layout of the
    state) resampled, for the leak tests: element and wild cards among the draw deck and
    the other hands, compound cards within the compound pile, so that resampling never
    deals a hidden compound card into a hand. A game's own zones are left as they are."""
    zones, rng = table.only("draw", "discard", "hand").redeal_hidden(zones, seat, rng)
    return table.only("compounds", "row", "captured").redeal_hidden(zones, seat, rng)


def new_turn(seat: int) -> JSON:
    """The turn record of ``seat``'s turn, before its first draw."""
    return {"seat": seat, "step": "draw", "drawn": 0, "took_discard": False}


# ---------------------------------------------------------------- dealing -----------
def _fixed(
    spec: Mapping[str, Any], cards: TableCards[Face], players: int
) -> tuple[list[list[int]], list[int], list[int]]:
    """The cards a fixed deal names: hands, row, discard (see :func:`deal`; its shape is
    declared: ``rules.draw_discard_wire.DealHands``...)."""
    free: dict[str, list[int]] = {}
    for card in cards.playing_ids():
        face = cards.face(card)
        free.setdefault("wild" if face["kind"] == "wild" else str(face["symbol"]), []).append(card)
    formulas: dict[str, list[int]] = {}
    for card in cards.compound_ids():
        formulas.setdefault(str(cards.face(card)["formula"]), []).append(card)

    def take(pool: dict[str, list[int]], name: str, where: str) -> int:
        if not pool.get(name):
            known = ", ".join(sorted(pool))
            raise RuleViolation(
                "bad_deal",
                f"{where}: no card {quote(name)} left to deal (the cards in play: {known}).",
                rule=SEED_DEAL,
            )
        return pool[name].pop(0)

    hands_spec = spec.get("hands") or [[] for _ in range(players)]
    if len(hands_spec) != players:
        raise RuleViolation("bad_deal", f"deal.hands must list {players} hands, one per seat.")
    hands = [
        [take(free, n, f"deal.hands[{seat}]") for n in names]
        for seat, names in enumerate(hands_spec)
    ]
    row = [take(formulas, f, "deal.row") for f in spec.get("row") or []]
    top = spec.get("discard")
    discard = [] if top is None else [take(free, top, "deal.discard")]
    return hands, row, discard


def deal_counts(playing: int, players: int) -> dict[str, int]:
    """The deal's numbers for a game's player-count table, with ``playing`` element and
    wild cards: the hand size, the face-up compounds, and the draw deck left after it."""
    return {"hand_size": HAND, "face_up": FACE_UP, "draw_deck": playing - HAND * players - 1}


def deal(
    state: State,
    cards: TableCards[Face],
    dealer: int,
    table: Layout,
    spec: Mapping[str, Any] | None = None,
    *,
    round_no: int,
) -> tuple[State, list[Event]]:
    """Deal round ``round_no``: ``state`` with new ``zones``, ``rng`` and ``turn`` (left
    of ``dealer``).

    ``spec`` fixes some cards for a lesson or a test: ``{"hands": [[name, ...] per seat],
    "row": [formula, ...], "discard": name}``, every part optional, where a name is an
    element symbol or ``"wild"`` (the lowest-numbered free copy is dealt). Everything
    it leaves open is dealt at random. Raises ``RuleViolation("bad_deal")``.
    """
    players = int(state["players"])
    hands, row, discard = _fixed(spec or {}, cards, players)
    fixed = {c for h in hands for c in h} | set(row) | set(discard)
    rng: RngState = state["rng"]
    rng, compounds = shuffled(rng, [c for c in cards.compound_ids() if c not in fixed])
    rng, playing = shuffled(rng, [c for c in cards.playing_ids() if c not in fixed])
    for k in range(HAND):  # one card at a time, starting left of the dealer
        for i in range(players):
            seat = left_of(dealer + i, players)
            if len(hands[seat]) <= k:
                hands[seat].append(playing.pop())
    if not discard:
        discard = [playing.pop()]
    while len(row) < FACE_UP and compounds:
        row.append(compounds.pop())
    zones = table.deal(
        players, draw=playing, discard=discard, hand=hands, compounds=compounds, row=row
    )
    first = left_of(dealer, players)
    new = {**state, "rng": rng, "zones": zones, "turn": new_turn(first)}
    dealt: dw.RoundDealtEvent = {
        "type": "round_dealt",
        "dealer": dealer,
        "first": first,
        "hand_size": HAND,
        "round": round_no,
    }
    events = [emitted(dealt)]
    for seat in range(players):
        hand = zones["hand"][seat]
        to_seat: dw.CardsDealtEvent[Face] = {
            "type": "cards_dealt",
            "seat": seat,
            "count": len(hand),
        }
        events.append(
            table.moved(to_seat, hand, ("draw", None), ("hand", seat), players, cards.face)
        )
    turned: dw.CompoundsTurnedUpEvent[Face] = {
        "type": "compounds_turned_up",
        "cards": [cards.face(c) for c in row],
        "count": len(row),
    }
    started: dw.DiscardStartedEvent[Face] = {
        "type": "discard_started",
        "card": cards.face(discard[-1]),
    }
    events += [emitted(turned), emitted(started)]
    return new, events


# ---------------------------------------------------------------- turn steps --------
def verify_step(state: State, seat: int, step: str) -> None:
    """Refuse a move by a seat whose turn it is not, or at the wrong step of the turn."""
    turn = state["turn"]
    if seat != turn["seat"]:
        raise RuleViolation(
            "not_your_turn", f"It is seat {turn['seat']}'s turn; wait for yours.", seat=seat
        )
    if step == "draw" and turn["step"] != "draw":
        raise RuleViolation(
            "already_drawn",
            "You have drawn your two cards: now capture a compound or discard a card.",
            rule=SEED_DRAW,
        )
    if step == "play" and turn["step"] != "play":
        left = 2 - int(turn["drawn"])
        raise RuleViolation(
            "draw_first",
            f"Draw first: {left} more card{'s' if left > 1 else ''} to pick up, from the draw "
            "deck or the top of the discard pile.",
            rule=SEED_CAPTURE_STEP,
        )


def _deck_available(zones: Zones, deck_out: str) -> bool:
    return bool(zones["draw"]) or (deck_out == "reshuffle" and len(zones["discard"]) > 1)


def draw_sources(state: State, deck_out: str) -> list[str]:
    """Where the seat to act may draw its next card from now (``deck``, ``discard``)."""
    zones = state["zones"]
    sources = []
    if _deck_available(zones, deck_out):
        sources.append("deck")
    if zones["discard"] and not state["turn"]["took_discard"]:
        sources.append("discard")
    return sources


def verify_draw(state: State, seat: int, source: str, deck_out: str) -> None:
    """Refuse drawing a card from ``source`` (``deck`` or ``discard``) now."""
    verify_step(state, seat, "draw")
    zones = state["zones"]
    if source == "discard":
        if state["turn"]["took_discard"]:
            raise RuleViolation(
                "two_from_discard",
                "You already took the top of the discard pile this turn; take your other card "
                "from the draw deck.",
                rule=SEED_DRAW,
            )
        if not zones["discard"]:  # never, while every turn ends with a card on it
            raise RuleViolation(
                "state_invalid", "The discard pile is empty although no card was taken from it."
            )
    elif not _deck_available(zones, deck_out):
        why = (
            "and the discard pile has no cards under its top to reshuffle"
            if deck_out == "reshuffle"
            else "(this game does not reshuffle the discard pile)"
        )
        raise RuleViolation(
            "empty_deck",
            f"The draw deck is empty {why}; take the top of the discard pile instead.",
            rule=SEED_DRAW,
        )


def apply_draw(
    state: State,
    seat: int,
    source: Literal["deck", "discard"],
    cards: TableCards[Face],
    table: Layout,
    deck_out: str,
) -> tuple[State, list[Event]]:
    """Draw one card for ``seat`` (verified by :func:`verify_draw`).

    Reshuffles first when the deck is empty (``deck_out == "reshuffle"``); moves the turn
    to its ``play`` step after the second card, or earlier when no card may be drawn.
    """
    players = int(state["players"])
    zones, rng = state["zones"], state["rng"]
    events: list[Event] = []
    if source == "deck" and not zones["draw"]:
        reshuffled, event = reshuffle(state)
        zones, rng = reshuffled["zones"], reshuffled["rng"]
        events.append(event)
    src: Place = ("draw", None) if source == "deck" else ("discard", None)
    zones, drawn = table.draw(zones, src, ("hand", seat), 1)
    turn = dict(state["turn"])
    turn["drawn"] = int(turn["drawn"]) + 1
    turn["took_discard"] = bool(turn["took_discard"]) or source == "discard"
    drew: dw.CardDrawnEvent[Face] = {
        "type": "card_drawn",
        "seat": seat,
        "source": source,
        "deck_count": len(zones["draw"]),
        "count": len(drawn),
    }
    events.append(table.moved(drew, drawn, src, ("hand", seat), players, cards.face))
    new = {**state, "zones": zones, "rng": rng, "turn": turn}
    if turn["drawn"] >= 2:
        turn["step"] = "play"
    elif not draw_sources(new, deck_out):
        turn["step"] = "play"
        ended: dw.DrawEndedEvent = {
            "type": "draw_ended",
            "seat": seat,
            "drawn": turn["drawn"],
            "reason": "no_cards",
        }
        events.append(emitted(ended))
    return new, events


def reshuffle(state: State) -> tuple[State, Event]:
    """Shuffle the discard pile, all but its top card, into a new draw deck (put under
    what is left of the old one); event ``deck_reshuffled``."""
    zones = state["zones"]
    rng, order = shuffled(state["rng"], zones["discard"][:-1])
    zones = {**zones, "discard": zones["discard"][-1:], "draw": order + zones["draw"]}
    event: dw.DeckReshuffledEvent = {"type": "deck_reshuffled", "count": len(order)}
    return {**state, "zones": zones, "rng": rng}, emitted(event)


def verify_cards(state: State, seat: int, played: Sequence[int], cards: TableCards[Face]) -> None:
    """Refuse a list of cards to play that names one twice (``duplicate_card``) or one
    ``seat`` does not hold (``not_in_hand``)."""
    _check_cards(state, seat, played, cards)


def _check_cards(state: State, seat: int, played: Sequence[int], cards: TableCards[Face]) -> None:
    twice = sorted({c for c in played if list(played).count(c) > 1})
    if twice:
        raise RuleViolation(
            "duplicate_card", f"Card {twice[0]} is listed twice; each card is played once."
        )
    hand = set(state["zones"]["hand"][seat])
    missing = [c for c in played if c not in hand]
    if missing:
        c = missing[0]
        name = _name(cards, c)
        raise RuleViolation(
            "not_in_hand",
            f"Card {c}{name} is not in your hand; play cards you hold.",
            card=c,
        )


def _name(cards: TableCards[Face], card: int) -> str:
    if card not in cards.ids:
        return ""
    face = cards.face(card)
    label = face.get("symbol") or face.get("formula") or face.get("law")
    return f" ({label})"


def verify_capture(
    state: State, seat: int, compound: int, played: Sequence[int], cards: TableCards[Face]
) -> None:
    """Refuse capturing ``compound`` with the cards ``played`` now (the cards must be
    exactly its elements: :func:`capture_parts`)."""
    verify_step(state, seat, "play")
    row = state["zones"]["row"]
    if compound not in row:
        up = ", ".join(f"{c} ({cards.face(c)['formula']})" for c in row)
        raise RuleViolation(
            "not_face_up",
            f"Card {compound}{_name(cards, compound)} is not a face-up compound; the face-up "
            f"compounds are {up or 'none'}.",
            rule=SEED_CAPTURE_STEP,
            card=compound,
        )
    _check_cards(state, seat, played, cards)
    capture_parts(cards.compound(compound), [cards.face(c) for c in played])


def apply_capture(
    state: State,
    seat: int,
    compound: int,
    played: Sequence[int],
    cards: TableCards[Face],
    table: Layout,
    points: int,
) -> tuple[State, list[Event]]:
    """Play ``played`` (in that order: the last is the new top of the discard pile) and
    take ``compound`` (verified by :func:`verify_capture`), worth ``points``; turn up a
    replacement. The turn is not ended here."""
    chemistry = cards.compound(compound)
    parts = capture_parts(chemistry, [cards.face(c) for c in played])
    zones = table.move(state["zones"], ("hand", seat), ("discard", None), list(played))
    zones = table.move(zones, ("row", None), ("captured", seat), [compound])
    captured: dw.CompoundCapturedEvent[Face] = {
        "type": "compound_captured",
        "seat": seat,
        "card": cards.face(compound),
        "cards": [cards.face(c) for c in played],
        "parts": [_part(p) for p in parts],
        "text": capture_text(chemistry, parts),
        "explanation": explain(chemistry),
        "points": points,
    }
    events = [emitted(captured)]
    if zones["compounds"]:
        zones, up = table.draw(zones, ("compounds", None), ("row", None), 1)
        turned: dw.CompoundTurnedUpEvent[Face] = {
            "type": "compound_turned_up",
            "card": cards.face(up[0]),
            "pile_count": len(zones["compounds"]),
        }
        events.append(emitted(turned))
    return {**state, "zones": zones}, events


def _part(part: Mapping[str, Any]) -> dw.CapturePart:
    """A card of a capture as :func:`rules.chemistry.compounds.capture_parts` says it is."""
    out: dw.CapturePart = {"card": part["card"], "symbol": part["symbol"], "wild": part["wild"]}
    if "law" in part:
        out["law"] = part["law"]
    return out


def verify_discard(state: State, seat: int, card: int, cards: TableCards[Face]) -> None:
    """Refuse discarding ``card`` now (a game may add that a capture must come first)."""
    verify_step(state, seat, "play")
    _check_cards(state, seat, [card], cards)


def apply_discard(
    state: State, seat: int, card: int, cards: TableCards[Face], table: Layout
) -> tuple[State, list[Event]]:
    """Put ``card`` from ``seat``'s hand on the discard pile. The turn is not ended here."""
    zones = table.move(state["zones"], ("hand", seat), ("discard", None), [card])
    discarded: dw.CardDiscardedEvent[Face] = {
        "type": "card_discarded",
        "seat": seat,
        "count": 1,
        "cards": [cards.face(card)],
    }
    event = table.moved(
        discarded, [card], ("hand", seat), ("discard", None), int(state["players"]), cards.face
    )
    return {**state, "zones": zones}, [event]


def capture_moves(state: State, seat: int, cards: TableCards[Face]) -> list[JSON]:
    """Every distinct capture ``seat``'s hand can make of a face-up compound (copies of a
    face are interchangeable: each way is listed once, with the lowest-numbered copies)."""
    return [
        {"type": "capture", "compound": compound, "cards": list(choice)}
        for compound, choice in _captures_of(state, seat, cards)
    ]


def can_capture(state: State, seat: int, cards: TableCards[Face]) -> bool:
    """Whether ``seat``'s hand can capture a face-up compound (:func:`capture_moves`)."""
    return bool(_captures_of(state, seat, cards))


_Capture = tuple[int, tuple[int, ...]]
"""A compound card and the cards that capture it."""
_CAPTURES: dict[
    tuple[int, tuple[int, ...], tuple[int, ...]], tuple[TableCards[Face], tuple[_Capture, ...]]
] = {}
_CAPTURES_KEPT = 1024


def _captures_of(state: State, seat: int, cards: TableCards[Face]) -> tuple[_Capture, ...]:
    """The captures of :func:`capture_moves`, remembered by table, hand and row: a seat
    that must capture when it can is asked whether it can for every other move it might
    make. An entry holds its table, so no other table can take its ``id`` meanwhile."""
    zones = state["zones"]
    key = (id(cards), tuple(zones["hand"][seat]), tuple(zones["row"]))
    known = _CAPTURES.get(key)
    if known is not None and known[0] is cards:
        return known[1]
    faces = [cards.face(c) for c in key[1]]
    found = tuple(
        (compound, tuple(choice))
        for compound in key[2]
        for choice in capture_choices(cards.compound(compound), faces)
    )
    if len(_CAPTURES) >= _CAPTURES_KEPT:
        _CAPTURES.clear()
    _CAPTURES[key] = (cards, found)
    return found


def deck_ran_out(state: State, deck_out: str) -> bool:
    """Whether the round ends because the draw deck ran out (``deck_out == "end_round"``:
    checked when a turn ends)."""
    return deck_out == "end_round" and not state["zones"]["draw"]


# ---------------------------------------------------------------- invariants --------
_COMPOUND_PLACES = frozenset({"compounds", "row", "captured"})


def misplaced(zones: Zones, table: Layout, cards: TableCards[Face]) -> list[str]:
    """Compound cards outside the compound zones, or other cards inside them (that every
    card is held once is the layout's check: ``GameRules(cards=...)``)."""
    problems = []
    for place in table.places(zones):
        for c in table.pile(zones, place):
            if c in cards.ids and (cards.kind(c) == "compound") != (place[0] in _COMPOUND_PLACES):
                problems.append(f"card {c} ({cards.kind(c)}) is in {place[0]}")
    return problems


def row_problems(zones: Zones) -> list[str]:
    """The row holds more than six compounds, or fewer while the compound pile has some."""
    row = zones["row"]
    if len(row) > FACE_UP or (zones["compounds"] and len(row) < FACE_UP):
        return [f"{len(row)} compounds face up"]
    return []


def turn_problem(turn: Mapping[str, Any] | None, players: int) -> str | None:
    """What is wrong with the turn record of a round being played, if anything: nobody
    has the turn, an impossible step or count of cards drawn, or two cards drawn but the
    seat still drawing."""
    if turn is None or not 0 <= int(turn["seat"]) < players:
        return "the round is being played but nobody has the turn"
    if not 0 <= int(turn["drawn"]) <= 2 or turn["step"] not in ("draw", "play"):
        return f"impossible turn record {turn}"
    if turn["step"] == "draw" and int(turn["drawn"]) == 2:
        return "two cards drawn but still drawing"
    return None
