"""Metal vs. Non-Metal: answer an ion with ions of the opposite charge; collect cards.

A game is a sequence of *exchanges*. The initiating player plays one card face up
and draws back to 6; the responding player (the next seat counterclockwise, seat
``s - 1``) answers with ions of the opposite charge (step 4, or advanced ruling 1 when
it holds no step-4 answer; a responder with no possible play has a random card taken);
the totals are compared and the cards in play collected (step 5, with reinforcements
after a power play). Then the responder initiates. The game ends when fewer than two
seats hold cards (advanced ruling 2); the most cards collected wins.

>>> state = GAME.setup(2, {"start_player": 0, "deal": [
...     ["Ca2+", "Na+", "Na+", "Al3+", "O2-", "N3-"],
...     ["Cl-", "Cl-", "O2-", "N3-", "Ca2+", "Al3+"]], "ion_deck_top": ["Na+"]}, seed=1)
>>> GAME.to_act(state), [m["cards"] for m in GAME.legal_moves(
...     GAME.apply(state, 0, {"type": "play", "card": 17})[0], 1)]
([0], [[9, 10], [25]])
>>> state, events = GAME.apply(state, 0, {"type": "play", "card": 17})
>>> state, events = GAME.apply(state, 1, {"type": "respond", "cards": [9, 10]})
>>> settled = next(e for e in events if e["type"] == "exchange_settled")
>>> settled["equation"], settled["compound"]["name"], settled["collector"]
('Ca2+ + 2 Cl- -> CaCl2', 'calcium chloride', 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import (
    Dynamics,
    Event,
    GameInfo,
    GameRules,
    Move,
    Option,
    Outcome,
    RuleViolation,
    State,
    check_deal_shape,
    check_players,
    check_seat,
    is_int,
    left_of,
    rank_seats,
    resolve_options,
    right_of,
)
from rules.rng import new_rng, randbelow, shuffled
from rules.zones import Layout, Place, Seen, Zone

from . import exchange as ex
from . import explain
from .cards import (
    Deck,
    count_by_ion,
    custom_spec,
    deck_from_spec,
    deck_of,
    default_deck,
    default_spec,
    take_labels,
)
from .ions import Ion

HAND_SIZE = 6
MAX_PLAYERS = 4
PRIZES = ("all", "responder_cards")

SEED_SETUP = (
    "At the start of the game, each player is dealt 6 cards. The left over cards form "
    "the Ion Deck, placed aside."
)
SEED_ORDER = (
    "Randomly decide who is the start player (flip a coin, roll a dice, etc). The players "
    "counterclockwise from the first player are the second, third, and fourth player "
    "respectively."
)
SEED_PLAY = (
    "The first player chooses 1 card from his or her hand and plays this face up in front "
    "of him/her. [...] This card can be anything from the hand."
)
SEED_END = (
    "If there are not enough cards to draw, the players stops drawing and continues the "
    "game until no more plays can be made."
)

LAYOUT = Layout(
    (
        Zone("ion_deck", Seen.HIDDEN),
        Zone("hand", Seen.OWNER, per_seat=True, ordered=False),
        Zone("in_play", Seen.PUBLIC, per_seat=True),
        # face down on the table, but every card in it was seen face up when it was
        # collected (docs/rules/metal-vs-nonmetal.md, "Collections")
        Zone("collection", Seen.PUBLIC, per_seat=True),
        Zone("set_aside", Seen.PUBLIC),
    )
)

STEPS: Mapping[str, tuple[str, ...]] = {
    "initiate": ("play",),
    "respond": ("respond",),
    "reinforce": ("reinforce", "decline"),
}
MOVE_FIELDS: Mapping[str, frozenset[str]] = {
    "play": frozenset({"type", "card"}),
    "respond": frozenset({"type", "cards"}),
    "reinforce": frozenset({"type", "cards"}),
    "decline": frozenset({"type"}),
}

CODES: Mapping[str, str] = {
    "not_your_turn": "Another seat must act now (to_act says which).",
    "wrong_step": "This move is not one the current step of the exchange allows.",
    "not_in_hand": "A card named is not in this seat's hand.",
    "wrong_charge_sign": "Rule (i): an answer must have the opposite charge of the lead card.",
    "mixed_ions": "Rule (ii): the cards of an answer must all be the same ion.",
    "wrong_count": "Rule (iii) (or advanced ruling 1): the wrong number of cards.",
    "charge_too_high": "Advanced ruling 1: no card of a higher charge number than the lead "
    "unless step 4 describes the answer.",
    "reinforcement_ion": "Reinforcements must be of the same ion as the initiating card.",
    "reinforcement_count": "Reinforcements must be the fewest cards that bring the "
    "initiating total to at least the responding total.",
    "bad_ion_deck": "The custom deck (option ions) is not a sound deck of metal and "
    "non-metal ions.",
}

INFO = GameInfo(
    slug="metal-vs-nonmetal",
    title="Metal vs. Non-Metal",
    seed_file="003_ca881281856ea1c6.txt",
    min_players=2,
    max_players=MAX_PLAYERS,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=1,
    summary="Answer a metal or non-metal ion with ions of the opposite charge; when the "
    "charges cancel you have made an ionic compound. Collect the most cards.",
    options=(
        Option(
            "start_player",
            "int | null",
            None,
            "The seat that initiates the first exchange; null draws it at random with the "
            "game's own seeded generator (the seed: flip a coin, roll a die).",
        ),
        Option(
            "power_play_prize",
            "str",
            "all",
            "What the responding player collects when its power play stands: 'all' the "
            "cards in play (step 5), or only 'responder_cards', the cards it played (step 5, "
            "example 3: 'player 2 collects the 3 cards'), the initiating cards being set "
            "aside.",
            choices=PRIZES,
        ),
        Option(
            "deal",
            "list[list[str]] | null",
            None,
            "Fix the hands for a lesson or a test: one list of 6 ion labels per seat "
            "(e.g. 'Ca2+'); null deals at random.",
        ),
        Option(
            "ion_deck_top",
            "list[str] | null",
            None,
            "Fix the first cards drawn from the Ion Deck, in drawing order (ion labels); "
            "the rest of the Ion Deck is shuffled under them.",
        ),
        Option(
            "ions",
            "dict[str, int] | null",
            None,
            "A teacher's own deck: ion label -> copies (metal cations, non-metal anions, "
            "charges from the chemistry data, 12-80 cards, charges balanced); null is the "
            "seed's 40-card deck.",
        ),
    ),
    player_counts={
        p: {"hand_size": HAND_SIZE, "ion_deck": 40 - HAND_SIZE * p}
        for p in range(2, MAX_PLAYERS + 1)
    },
    codes=CODES,
)


# ---------------------------------------------------------------- setup -------------
def _check_options(opts: dict[str, Any], players: int) -> None:
    start = opts["start_player"]
    if start is not None and (not is_int(start) or not 0 <= start < players):
        raise RuleViolation(
            "bad_option",
            f"start_player must be a seat 0-{players - 1} or null, not {start!r}.",
            rule=SEED_ORDER,
        )
    if opts["power_play_prize"] not in PRIZES:
        raise RuleViolation(
            "bad_option",
            f"power_play_prize must be one of {list(PRIZES)}, not {opts['power_play_prize']!r}.",
        )


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    players = check_players(INFO, players)
    opts = resolve_options(INFO, options)
    _check_options(opts, players)
    spec = default_spec() if opts["ions"] is None else custom_spec(opts["ions"])
    deck = deck_from_spec(spec)
    if len(deck) < HAND_SIZE * players:
        raise RuleViolation(
            "bad_ion_deck",
            f"{players} players need at least {HAND_SIZE * players} cards to be dealt "
            f"{HAND_SIZE} each; this deck has {len(deck)}.",
            rule=SEED_SETUP,
        )
    free = list(deck.ids)
    hands: list[list[int]] | None = None
    if opts["deal"] is not None:
        hands = []
        raw = check_deal_shape(opts["deal"], players, rule=SEED_SETUP)
        for seat, labels in enumerate(raw):
            if len(labels) != HAND_SIZE:
                raise RuleViolation(
                    "bad_deal",
                    f"deal[{seat}] has {len(labels)} cards; each player is dealt {HAND_SIZE}.",
                    rule=SEED_SETUP,
                )
            taken, free = take_labels(deck, labels, free, f"deal[{seat}]")
            hands.append(taken)
    top: list[int] = []
    if opts["ion_deck_top"] is not None:
        top, free = take_labels(deck, opts["ion_deck_top"], free, "ion_deck_top")
        if hands is None and len(free) < HAND_SIZE * players:
            raise RuleViolation(
                "bad_deal", "ion_deck_top leaves too few cards to deal 6 to every player."
            )
    rng, free = shuffled(new_rng(seed), free)
    if hands is None:
        hands = [free[s * HAND_SIZE : (s + 1) * HAND_SIZE] for s in range(players)]
        free = free[HAND_SIZE * players :]
    start = opts["start_player"]
    if start is None:
        rng, start = randbelow(rng, players)
    # a pile lists its bottom card first: the first card of ion_deck_top goes on top
    zones = LAYOUT.deal(players, ion_deck=free + top[::-1], hand=hands)
    return {
        "players": players,
        "options": opts,
        "deck": deck.spec,
        "rng": rng,
        "zones": zones,
        "phase": "initiate",
        "exchange": 1,
        "start_player": start,
        "initiator": start,
        "responder": right_of(start, players),
        "answer": None,
        "history": [],
    }


# ---------------------------------------------------------------- helpers -----------
def hand(state: State, seat: int) -> list[int]:
    cards: list[int] = state["zones"]["hand"][seat]
    return cards


def in_play(state: State, seat: int) -> list[int]:
    cards: list[int] = state["zones"]["in_play"][seat]
    return cards


def lead_ion(state: State) -> Ion:
    """The ion of the initiating player's first card in play."""
    return deck_of(state).ion_of(in_play(state, int(state["initiator"]))[0])


def side(state: State, seat: int) -> ex.Side:
    cards = in_play(state, seat)
    return ex.Side(seat, deck_of(state).ion_of(cards[0]), len(cards))


def finished(state: State) -> bool:
    return bool(state["phase"] == "over")


def _actor(state: State) -> int | None:
    phase = state["phase"]
    if phase in ("initiate", "reinforce"):
        return int(state["initiator"])
    if phase == "respond":
        return int(state["responder"])
    return None


def to_act(state: State) -> list[int]:
    actor = _actor(state)
    return [] if actor is None else [actor]


def _doing(phase: str) -> str:
    return {
        "initiate": "play a card as the initiating player",
        "respond": "answer as the responding player",
        "reinforce": "decide on reinforcements",
    }[phase]


# ---------------------------------------------------------------- moves -------------
def parse_move(move: Mapping[str, Any]) -> Move:
    kind = move.get("type") if isinstance(move, Mapping) else None
    if not isinstance(kind, str) or kind not in MOVE_FIELDS:
        raise RuleViolation(
            "unknown_move",
            f"{kind!r} is not a move of this game; use one of: {', '.join(MOVE_FIELDS)}.",
        )
    assert isinstance(move, Mapping)
    want = MOVE_FIELDS[kind]
    missing, extra = sorted(want - set(move)), sorted(set(move) - want)
    if missing or extra:
        raise RuleViolation(
            "bad_move",
            f"A {kind!r} move has exactly the fields {sorted(want)}"
            + (f"; missing {missing}" if missing else "")
            + (f"; remove {extra}" if extra else "")
            + ".",
        )
    if kind == "play":
        if not is_int(move["card"]):
            raise RuleViolation("bad_move", f"'card' is a card id, not {move['card']!r}.")
        return {"type": "play", "card": move["card"]}
    if kind in ("respond", "reinforce"):
        cards = move["cards"]
        if (
            not isinstance(cards, list)
            or not 1 <= len(cards) <= HAND_SIZE
            or not all(is_int(c) for c in cards)
        ):
            raise RuleViolation(
                "bad_move", f"'cards' is a list of 1 to {HAND_SIZE} card ids, not {cards!r}."
            )
        if len(set(cards)) != len(cards):
            raise RuleViolation("bad_move", f"'cards' names a card twice: {cards}.")
        return {"type": kind, "cards": list(cards)}
    return {"type": "decline"}


def _check_in_hand(state: State, seat: int, cards: list[int]) -> None:
    deck = deck_of(state)
    mine = hand(state, seat)
    missing = [c for c in cards if c not in mine]
    if missing:
        names = ", ".join(
            f"{c} ({deck.face(c)['ion']})" if 1 <= c <= len(deck) else str(c) for c in missing
        )
        held = ", ".join(f"{c} ({deck.face(c)['ion']})" for c in mine) or "no cards"
        raise RuleViolation(
            "not_in_hand",
            f"Card {names} is not in your hand; you hold {held}.",
            cards=missing,
        )


def verify(state: State, seat: int, move: Move) -> None:
    """Raise the ``RuleViolation`` that forbids the parsed ``move`` now, if any."""
    check_seat(state, seat)
    if finished(state):
        raise RuleViolation("game_over", "The game is over: no more plays can be made.")
    phase = str(state["phase"])
    actor = _actor(state)
    if seat != actor:
        raise RuleViolation(
            "not_your_turn",
            f"It is seat {actor}'s turn to {_doing(phase)}; wait for your turn.",
            rule=SEED_ORDER,
            to_act=actor,
        )
    if move["type"] not in STEPS[phase]:
        raise RuleViolation(
            "wrong_step",
            f"You must {_doing(phase)} now: send {' or '.join(STEPS[phase])}, not {move['type']}.",
            expected=list(STEPS[phase]),
        )
    if move["type"] == "decline":
        return
    cards = [move["card"]] if move["type"] == "play" else list(move["cards"])
    _check_in_hand(state, seat, cards)
    deck = deck_of(state)
    if move["type"] == "respond":
        ex.verify_response(deck, lead_ion(state), hand(state, seat), cards)
    elif move["type"] == "reinforce":
        mine, theirs = side(state, seat), side(state, int(state["responder"]))
        ex.verify_reinforcement(
            deck, mine.ion, hand(state, seat), cards, abs(mine.total), abs(theirs.total)
        )


def _first_of(deck: Deck, cards: list[int], ion_: Ion, count: int) -> list[int]:
    return [c for c in sorted(cards) if deck.ion_of(c) is ion_][:count]


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every move ``seat`` may make now. Identical copies are interchangeable: an answer
    or a reinforcement is listed once, with the lowest card ids of its ion (``verify``
    accepts any copies)."""
    check_seat(state, seat)
    if seat not in to_act(state):
        return []
    deck = deck_of(state)
    mine = hand(state, seat)
    phase = state["phase"]
    if phase == "initiate":
        return [{"type": "play", "card": c} for c in sorted(mine)]
    if phase == "respond":
        found = ex.options(deck, lead_ion(state), mine)
        return [
            {"type": "respond", "cards": _first_of(deck, mine, a.ion, a.count)}
            for a in found.answers
        ]
    first, second = side(state, seat), side(state, int(state["responder"]))
    need = ex.reinforcement_need(first.ion, abs(first.total), abs(second.total))
    out: list[Move] = []
    if sum(1 for c in mine if deck.ion_of(c) is first.ion) >= need:
        out.append({"type": "reinforce", "cards": _first_of(deck, mine, first.ion, need)})
    out.append({"type": "decline"})
    return out


# ---------------------------------------------------------------- apply -------------
def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    move = parse_move(move)
    verify(state, seat, move)
    kind = move["type"]
    if kind == "play":
        return _play(state, seat, move["card"])
    if kind == "respond":
        return _respond(state, seat, list(move["cards"]))
    if kind == "reinforce":
        return _reinforce(state, seat, list(move["cards"]))
    events: list[Event] = [
        {
            "type": "declined",
            "seat": seat,
            "explanation": f"Seat {seat} does not call for reinforcements.",
        }
    ]
    return _settle(state, "power_play", events)


def _move(state: State, cards: list[int], src: Place, dst: Place, event: Event) -> Event:
    """Move ``cards`` in ``state`` (a fresh dict owned by the caller); the event."""
    state["zones"] = LAYOUT.move(state["zones"], src, dst, cards)
    deck = deck_of(state)
    return LAYOUT.moved(event, cards, src, dst, int(state["players"]), deck.face)


def _draw(state: State, seat: int, count: int, reason: str) -> list[Event]:
    """``seat`` draws up to ``count`` cards from the Ion Deck (fewer if it runs out)."""
    return _draw_cards(state, seat, count, reason)[1]


def _draw_cards(state: State, seat: int, count: int, reason: str) -> tuple[list[int], list[Event]]:
    """The cards drawn (top first) and the event (their faces only for ``seat``)."""
    if count <= 0 or not state["zones"]["ion_deck"]:
        return [], []
    zones, drawn = LAYOUT.draw(state["zones"], ("ion_deck", None), ("hand", seat), count)
    state["zones"] = zones
    event = LAYOUT.moved(
        {"type": "cards_drawn", "seat": seat, "reason": reason},
        drawn,
        ("ion_deck", None),
        ("hand", seat),
        int(state["players"]),
        deck_of(state).face,
    )
    event["ion_deck_left"] = len(zones["ion_deck"])
    return drawn, [event]


def _refill(state: State, seat: int) -> list[Event]:
    return _draw(state, seat, HAND_SIZE - len(hand(state, seat)), "replenish")


def _play(state: State, seat: int, card: int) -> tuple[State, list[Event]]:
    new = dict(state)
    deck = deck_of(new)
    lead = deck.ion_of(card)
    played = {
        "type": "card_played",
        "seat": seat,
        "ion": lead.label,
        "charge": lead.charge,
        "name": lead.name,
        "responder": int(new["responder"]),
        "answers": [a.to_json() for a in ex.answers(deck, lead)],
    }
    events = [_move(new, [card], ("hand", seat), ("in_play", seat), played)]
    events += _draw(new, seat, 1, "replenish")
    responder = int(new["responder"])
    if ex.options(deck, lead, hand(new, responder)).kind == "none":
        return _no_response(new, events)
    new["phase"] = "respond"
    return new, events


def _no_response(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Advanced ruling 1, example 2 (and ruling 2): a random card of the responder's
    hand goes, with the initiating card, to the initiating player's collection."""
    initiator, responder = int(state["initiator"]), int(state["responder"])
    deck = deck_of(state)
    lead = lead_ion(state)
    rng, taken = randbelow(state["rng"], len(hand(state, responder)))
    state["rng"] = rng
    card = sorted(hand(state, responder))[taken]
    text = explain.no_response_text(
        initiator, responder, lead, ex.answers(deck, lead), deck.ion_of(card)
    )
    taken_event = {"type": "card_taken", "seat": initiator, "from_seat": responder}
    events.append(_move(state, [card], ("hand", responder), ("collection", initiator), taken_event))
    lead_card = in_play(state, initiator)[0]
    _move(state, [lead_card], ("in_play", initiator), ("collection", initiator), {})
    first = ex.Side(initiator, lead, 1)
    events.append(
        explain.settled_event(
            "no_response",
            int(state["exchange"]),
            first,
            None,
            collector=initiator,
            collected=[lead_card, card],
            set_aside=[],
            text=text,
        )
    )
    return _close(state, "no_response", initiator, 2, None, events)


def _respond(state: State, seat: int, cards: list[int]) -> tuple[State, list[Event]]:
    new = dict(state)
    deck = deck_of(new)
    lead = lead_ion(new)
    kind = ex.verify_response(deck, lead, hand(new, seat), cards)
    answer = deck.ion_of(cards[0])
    responded = {
        "type": "responded",
        "seat": seat,
        "ion": answer.label,
        "count": len(cards),
        "total": answer.charge * len(cards),
        "kind": kind,
    }
    events = [_move(new, cards, ("hand", seat), ("in_play", seat), responded)]
    initiator = int(new["initiator"])
    target = abs(side(new, initiator).total)
    forced = 0
    if kind == "partial":
        forced = _forced_draws(new, seat, answer, target, events)
    new["answer"] = {"kind": kind, "forced": forced}
    first, second = side(new, initiator), side(new, seat)
    if abs(second.total) <= abs(first.total):
        result = "balanced" if abs(second.total) == abs(first.total) else "initiator_higher"
        return _settle(new, result, events)
    need = ex.reinforcement_need(first.ion, abs(first.total), abs(second.total))
    events.append(
        {
            "type": "power_play",
            "seat": seat,
            "initiator": initiator,
            "initiator_total": first.total,
            "responder_total": second.total,
            "difference": abs(second.total) - abs(first.total),
            "reinforcement": {"ion": first.ion.label, "count": need},
            "explanation": explain.power_play_text(first, second, need),
        }
    )
    new["phase"] = "reinforce"
    return new, events


def _forced_draws(state: State, seat: int, answer: Ion, target: int, events: list[Event]) -> int:
    """Advanced ruling 1: after a short answer, draw; a card of the same ion must be
    played, and drawing goes on, until another ion is drawn, the charge is
    neutralised, or the Ion Deck is empty. Returns how many cards were forced."""
    deck = deck_of(state)
    forced = 0
    if abs(side(state, seat).total) >= target:
        return 0  # a short answer that already matches or beats the lead draws nothing
    while True:
        total = abs(side(state, seat).total)
        if total >= target:
            reason = "neutralised"
            break
        drawn, drew = _draw_cards(state, seat, 1, "forced_draw")
        if not drawn:
            reason = "ion_deck_empty"
            break
        events.extend(drew)
        card = drawn[0]
        if deck.ion_of(card) is not answer:
            reason = "different_ion"
            break
        forced += 1
        event = {"type": "forced_play", "seat": seat, "ion": answer.label}
        events.append(_move(state, [card], ("hand", seat), ("in_play", seat), event))
        events[-1]["total"] = side(state, seat).total
    events.append({"type": "forced_draws_ended", "seat": seat, "reason": reason, "forced": forced})
    return forced


def _reinforce(state: State, seat: int, cards: list[int]) -> tuple[State, list[Event]]:
    new = dict(state)
    event = {"type": "reinforced", "seat": seat, "ion": deck_of(new).ion_of(cards[0]).label}
    events = [_move(new, cards, ("hand", seat), ("in_play", seat), event)]
    events[-1]["total"] = side(new, seat).total
    return _settle(new, "reinforced", events, reinforcements=len(cards))


def _settle(
    state: State, result: str, events: list[Event], reinforcements: int = 0
) -> tuple[State, list[Event]]:
    """Step 5: the cards in play go to the collector; then both players draw to 6."""
    new = dict(state)
    initiator, responder = int(new["initiator"]), int(new["responder"])
    first, second = side(new, initiator), side(new, responder)
    collector = responder if result == "power_play" else initiator
    mine, theirs = list(in_play(new, initiator)), list(in_play(new, responder))
    set_aside: list[int] = []
    if result == "power_play" and new["options"]["power_play_prize"] == "responder_cards":
        _move(new, theirs, ("in_play", responder), ("collection", responder), {})
        _move(new, mine, ("in_play", initiator), ("set_aside", None), {})
        collected, set_aside = theirs, mine
    else:
        _move(new, mine, ("in_play", initiator), ("collection", collector), {})
        _move(new, theirs, ("in_play", responder), ("collection", collector), {})
        collected = mine + theirs
    answer = new["answer"] or {"kind": "regular", "forced": 0}
    settled = explain.settled_event(
        result,
        int(new["exchange"]),
        first,
        second,
        collector=collector,
        collected=collected,
        set_aside=set_aside,
        reinforcements=reinforcements,
        forced=int(answer["forced"]),
        partial=answer["kind"] == "partial",
    )
    events.append(settled)
    return _close(new, result, collector, len(collected), settled["compound"], events)


def _close(
    state: State,
    result: str,
    collector: int,
    count: int,
    made: dict[str, Any] | None,
    events: list[Event],
) -> tuple[State, list[Event]]:
    """Refill (the initiating player first), record the exchange, start the next."""
    initiator, responder = int(state["initiator"]), int(state["responder"])
    events += _refill(state, initiator)
    events += _refill(state, responder)
    state["history"] = [
        *state["history"],
        {
            "exchange": int(state["exchange"]),
            "initiator": initiator,
            "responder": responder,
            "result": result,
            "collector": collector,
            "card_count": count,
            "formula": made["formula"] if made and result != "no_response" else None,
        },
    ]
    state["answer"] = None
    return _next_exchange(state, events)


def holders(state: State) -> list[int]:
    """Seats that still hold cards."""
    return [s for s in range(int(state["players"])) if hand(state, s)]


def _counterclockwise_from(state: State, seat: int) -> list[int]:
    players = int(state["players"])
    return [(seat - k) % players for k in range(players)]


def _next_exchange(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """The responder initiates next (step 6); seats with no cards left are passed over
    (advanced ruling 2); with fewer than two seats holding cards the game ends."""
    holding = set(holders(state))
    if len(holding) < 2:
        return _game_over(state, events)
    order = _counterclockwise_from(state, int(state["responder"]))
    initiator = next(s for s in order if s in holding)
    after = _counterclockwise_from(state, initiator)[1:]
    responder = next(s for s in after if s in holding)
    # the seats counterclockwise from the last responder that were due but hold nothing
    skipped = order[: order.index(initiator)] + after[: after.index(responder)]
    state.update(
        phase="initiate",
        exchange=int(state["exchange"]) + 1,
        initiator=initiator,
        responder=responder,
    )
    events.append(
        {
            "type": "exchange_started",
            "exchange": state["exchange"],
            "initiator": initiator,
            "responder": responder,
            "out_of_cards": sorted(set(range(int(state["players"]))) - holding),
            "passed_over": sorted(skipped),
        }
    )
    return state, events


def _game_over(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    for seat in holders(state):
        leftover = sorted(hand(state, seat))
        event = {"type": "cards_set_aside", "seat": seat, "reason": "unused"}
        events.append(_move(state, leftover, ("hand", seat), ("set_aside", None), event))
    state.update(phase="over", initiator=None, responder=None)
    result = outcome(state)
    events.append(
        {
            "type": "game_over",
            **result.to_json(),
            "collected": collected_counts(state),
            "unused": len(state["zones"]["set_aside"]),
        }
    )
    return state, events


# ---------------------------------------------------------------- views -------------
def _exchange_view(state: State) -> dict[str, Any] | None:
    if finished(state):
        return None
    phase = state["phase"]
    deck = deck_of(state)
    initiator, responder = int(state["initiator"]), int(state["responder"])
    out: dict[str, Any] = {
        "number": state["exchange"],
        "step": phase,
        "initiator": initiator,
        "responder": responder,
        "lead": None,
        "answers": [],
        "initiator_total": 0,
        "responder_total": 0,
        "reinforcement": None,
    }
    if phase == "initiate":
        return out
    lead = lead_ion(state)
    first = side(state, initiator)
    out.update(
        lead=lead.label,
        answers=[a.to_json() for a in ex.answers(deck, lead)],
        initiator_total=first.total,
    )
    if phase == "reinforce":
        second = side(state, responder)
        out["responder_total"] = second.total
        out["reinforcement"] = {
            "ion": lead.label,
            "count": ex.reinforcement_need(lead, abs(first.total), abs(second.total)),
            "difference": abs(second.total) - abs(first.total),
        }
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    if seat is not None:
        check_seat(state, seat)
    players = int(state["players"])
    zones = state["zones"]
    cards = deck_of(state)
    face = cards.face
    seats = []
    for s in range(players):
        play = in_play(state, s)
        seats.append(
            {
                "seat": s,
                "hand": LAYOUT.pile_view(zones, ("hand", s), seat, face),
                "in_play": LAYOUT.pile_view(zones, ("in_play", s), seat, face),
                "in_play_total": sum(cards.ion_of(c).charge for c in play),
                "collection": LAYOUT.pile_view(zones, ("collection", s), seat, face),
                "collected": len(zones["collection"][s]),
            }
        )
    you = None
    if seat is not None:
        role = "waiting"
        if seat == state["initiator"]:
            role = "initiator"
        elif seat == state["responder"]:
            role = "responder"
        you = {
            "seat": seat,
            "role": role,
            "hand": [face(c) for c in sorted(hand(state, seat))],
            "next": right_of(seat, players),
            "previous": left_of(seat, players),
        }
    return {
        "game": INFO.slug,
        "players": players,
        "finished": finished(state),
        "start_player": state["start_player"],
        "direction": "counterclockwise",
        "power_play_prize": state["options"]["power_play_prize"],
        "ion_deck": LAYOUT.pile_view(zones, ("ion_deck", None), seat, face),
        "set_aside": LAYOUT.pile_view(zones, ("set_aside", None), seat, face),
        "exchange": _exchange_view(state),
        "seats": seats,
        "history": [dict(h) for h in state["history"]],
        "you": you,
    }


# ---------------------------------------------------------------- scores ------------
def collected_counts(state: State) -> list[int]:
    return [len(pile) for pile in state["zones"]["collection"]]


def scores(state: State) -> dict[str, Any]:
    deck = deck_of(state)
    counts = collected_counts(state)
    seats = []
    for s in range(int(state["players"])):
        won = [h["exchange"] for h in state["history"] if h["collector"] == s]
        seats.append(
            {
                "seat": s,
                "collected": counts[s],
                "by_ion": count_by_ion(deck, state["zones"]["collection"][s]),
                "exchanges_won": won,
            }
        )
    return {
        "final": finished(state),
        "seats": seats,
        "set_aside": len(state["zones"]["set_aside"]),
    }


def outcome(state: State) -> Outcome:
    """Most cards collected wins; equal counts share a place (1, 1, 3)."""
    if not finished(state):
        return Outcome(finished=False)
    counts = collected_counts(state)
    ranking, places = rank_seats(range(len(counts)), counts.__getitem__)
    winners = tuple(s for s, p in zip(ranking, places, strict=True) if p == 1)
    return Outcome(
        finished=True,
        winners=winners,
        ranking=ranking,
        places=places,
        tie_break="shared" if len(winners) > 1 else None,
    )


# ---------------------------------------------------------------- invariants --------
def check(state: State) -> None:
    """Every card exactly once; the step agrees with the cards in play; hands of 6
    while the Ion Deck lasts."""
    problems: list[str] = []
    try:
        deck = deck_of(state)
        zones = state["zones"]
        players = int(state["players"])
        problems += LAYOUT.conservation_problems(zones, deck.ids)
    except (KeyError, TypeError, ValueError) as err:
        raise RuleViolation("state_invalid", f"The state is malformed: {err!r}.") from None
    phase = state.get("phase")
    playing = [s for s in range(players) if zones["in_play"][s]]
    if any(len(h) > HAND_SIZE for h in zones["hand"]):
        problems.append("a hand holds more than 6 cards")
    if phase == "over":
        if playing or any(zones["hand"]) or zones["ion_deck"]:
            problems.append("the game is over but cards are still in hands, in play or the deck")
    elif phase in STEPS:
        initiator, responder = state["initiator"], state["responder"]
        if initiator == responder or (phase == "respond" and not hand(state, responder)):
            problems.append("the responding seat is the initiating seat or holds no cards")
        expected = {"initiate": [], "respond": [initiator], "reinforce": [initiator, responder]}
        if sorted(playing) != sorted(expected[str(phase)]):
            problems.append(f"cards in play {playing} do not fit the step {phase}")
        if phase == "respond" and len(zones["in_play"][initiator]) != 1:
            problems.append("the initiating player has more than one card in play")
        if phase == "reinforce" and abs(side(state, responder).total) <= abs(
            side(state, initiator).total
        ):
            problems.append("reinforcements are asked for without a power play")
        if phase == "initiate" and zones["ion_deck"]:
            short = [s for s in range(players) if len(zones["hand"][s]) != HAND_SIZE]
            if short:
                problems.append(f"seats {short} hold fewer than 6 cards while the deck lasts")
    else:
        problems.append(f"unknown step {phase!r}")
    if len(state.get("history", [])) != int(state.get("exchange", 0)) - (phase != "over"):
        problems.append("the history does not match the exchange number")
    if problems:
        raise RuleViolation("state_invalid", "; ".join(problems))


def redeal_hidden(state: State, seat: int | None, seed: int) -> State:
    zones, rng = LAYOUT.redeal_hidden(state["zones"], seat, new_rng(seed))
    return {**state, "zones": zones, "rng": rng}


def deck() -> list[dict[str, Any]]:
    """Every card of the seed's 40-card Ion Deck."""
    return [dict(face) for face in default_deck().faces]


def bot_move(state: State, seat: int, bot: str) -> tuple[Move, State]:
    from .bots import choose

    return choose(state, seat, bot)


GAME = GameRules(
    info=INFO,
    setup=setup,
    parse_move=parse_move,
    verify=verify,
    to_act=to_act,
    legal_moves=legal_moves,
    apply=apply,
    view=view,
    scores=scores,
    outcome=outcome,
    bot_move=bot_move,
    check=check,
    redeal_hidden=redeal_hidden,
    deck=deck,
    layout=LAYOUT,
)
