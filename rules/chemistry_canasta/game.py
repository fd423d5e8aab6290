"""Chemistry Canasta: capture compounds, lay runs of atomic numbers, claim wild cards.

The table and the draw-two / capture-or-discard turn are :mod:`rules.draw_discard`
(shared with Compound Capture); the cards are the Basic Deck of 54 Elements (ids 1-54,
the atomic numbers) plus one or two compound expansions
(:mod:`rules.chemistry.decks.compound`); runs are :mod:`.runs`; rounds are played to
250 with :mod:`rules.match`. A turn: two draws; then, in the ``play`` step, any number
of wild-card claims, and either one capture (which ends the turn) or runs and
extensions followed by a discard. A seat whose hand empties goes out and ends the
round; so does the capture of the last compound, and the draw deck running out.

>>> state = GAME.setup(2, {"target": None}, seed=3)
>>> GAME.to_act(state), len(state["zones"]["row"]), [len(h) for h in state["zones"]["hand"]]
([0], 6, [7, 7])
>>> len(state["zones"]["draw"]), state["decks"]
(78, ['covalent'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import draw_discard as dd
from rules import match
from rules.chemistry.decks.compound import DECK_NAMES, TableCards, named_table_cards
from rules.chemistry.elements import MAX_Z
from rules.core import (
    JSON,
    Dynamics,
    GameInfo,
    GameRules,
    Move,
    Option,
    Outcome,
    RuleViolation,
    State,
    check_players,
    check_seat,
    is_int,
    resolve_options,
)
from rules.rng import new_rng

from . import runs as rn
from . import scoring
from .bots import choose
from .moves import apply, can_reshuffle, legal_moves, parse_move, to_act, verify
from .table import (
    DECK_CHOICES,
    LAYOUT,
    MAX_RESHUFFLES,
    ONE_EXPANSION_MAX,
    RUNS,
    cards_of,
    choose_decks,
    deal,
    run_view,
)

SEED_DECKS = "Played with Basic Deck of 54 elements and one or two compound expansion decks"
SEED_MATCH = "Multiple rounds can be played until one player reaches 250 points."

CODES: Mapping[str, str] = {
    "not_your_turn": "It is another seat's turn.",
    "draw_first": "The seat must draw its two cards before it plays.",
    "already_drawn": "The seat has drawn its two cards; it must now play.",
    "two_from_discard": "The seat already took the top of the discard pile this turn.",
    "empty_deck": "The draw deck is empty: the second card must be the discard top.",
    "not_face_up": "The compound named is not one of the face-up compounds.",
    "duplicate_card": "A card is listed twice in one move.",
    "not_in_hand": "A card played is not in the seat's hand.",
    "all_wild": "A compound cannot be captured with wild cards alone.",
    "wrong_elements": "The cards played are not exactly the compound's elements.",
    "must_capture": "The seat can capture a compound, so it may not lay runs or discard.",
    "capture_after_run": "A turn with a run or an extension ends with a discard, not a capture.",
    "short_run": "A run is at least 3 cards.",
    "run_too_long": "This table plays runs of exactly 3 cards.",
    "all_wild_run": "A run needs at least one element card.",
    "not_consecutive": "The cards are not consecutive atomic numbers, lowest first.",
    "off_the_table": "A wild card would stand for a number no element has.",
    "no_such_run": "The run named is not on that seat's board.",
    "not_your_run": "Only the run's owner may extend it at this table.",
    "no_extending": "Runs are never extended at this table.",
    "no_wild_there": "The run has no wild card standing for that card.",
    "bad_compounds": "The custom compound list is invalid or does not make a sound deck.",
    **match.CODES,
}


def _player_counts() -> dict[int, dict[str, int]]:
    table = {}
    for players in range(1, 7):
        names = ("covalent",) if players <= ONE_EXPANSION_MAX else DECK_NAMES
        cards = named_table_cards(names, basic=True)
        playing = len(cards.playing_ids())
        table[players] = {
            "expansions": len(names),
            "playing_cards": playing,
            "compounds": len(cards.compound_ids()),
            "hand_size": dd.HAND,
            "face_up": dd.FACE_UP,
            "draw_deck": playing - dd.HAND * players - 1,
        }
    return table


INFO = GameInfo(
    slug="chemistry-canasta",
    title="Chemistry Canasta",
    seed_file="002_9f20549899bb9774.txt",
    min_players=1,
    max_players=6,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=1,
    summary="Capture face-up compounds with their elements (25 points), lay runs of "
    "consecutive atomic numbers such as Mg 12, Al 13, Si 14 (10 a card), claim wild cards "
    "from runs with the element they stand for, and go out; rounds to 250.",
    options=(
        Option(
            "decks",
            "str | null",
            None,
            "The compound expansion(s) added to the Basic Deck of 54 Elements: 'covalent', "
            "'ionic' or 'both'. null: covalent for 1-3 players, both for 4-6. Any choice "
            f'serves 1-6 players. Seed: "{SEED_DECKS}"',
            choices=(None, *DECK_CHOICES),
        ),
        Option(
            "compounds",
            "list[object] | null",
            None,
            "A teacher's own expansion instead of the built-in ones: 6-20 compounds, each "
            '{"formula": "CO2", "name": "Carbon dioxide", "bonding": "covalent"} (name and '
            "bonding optional; at most 9 atoms), completed with six wild cards and element "
            "cards to 54 cards.",
        ),
        Option(
            "runs",
            "str",
            "own",
            "How runs grow: 'own' (3 or more cards; a seat may extend its own runs), "
            "'anyone' (3 or more; any seat may extend any run, and scores the cards it adds) "
            "or 'three' (exactly 3 cards, never extended).",
            choices=RUNS,
        ),
        Option(
            "must_capture",
            "bool",
            True,
            "A seat that can capture a compound must (the seed: 'If the player cannot "
            "capture a card, they may try to create a run'); false lets it lay runs or "
            "discard instead.",
        ),
        Option(
            "reshuffles",
            "int",
            0,
            "How many times a round may shuffle the discard pile (all but its top card) into "
            "a new draw deck when the draw deck runs out (0-5); after that, the round ends at "
            "the end of the turn that empties the draw deck.",
        ),
        match.target_option(250, SEED_MATCH),
        match.on_tie_option("share"),
        match.max_rounds_option(
            30,
            "A round can end with every seat at zero or below (the draw deck runs out before "
            "anyone scores), so without a limit a match need not end.",
        ),
        Option(
            "deal",
            "object | null",
            None,
            'Fix cards of the first round, for lessons and tests: {"hands": [["Tc", "Rh", '
            '"wild"], ...] (one list per seat, at most 7 names: element symbols or "wild"), '
            '"row": ["CO2", ...] (at most 6 formulas), "discard": "Ru"}; every part '
            "optional, the rest dealt at random.",
        ),
    ),
    player_counts=_player_counts(),
    codes=CODES,
)


def _check_options(opts: Mapping[str, Any]) -> None:
    match.check_options(opts["target"], opts["on_tie"], opts["max_rounds"])
    if opts["runs"] not in RUNS:
        raise RuleViolation(
            "bad_option", f"runs must be one of {list(RUNS)}, not {opts['runs']!r}."
        )
    if not isinstance(opts["must_capture"], bool):
        raise RuleViolation("bad_option", "must_capture must be true or false.")
    if not is_int(opts["reshuffles"]) or not 0 <= opts["reshuffles"] <= MAX_RESHUFFLES:
        raise RuleViolation("bad_option", f"reshuffles must be a whole number 0-{MAX_RESHUFFLES}.")
    deal_spec = opts["deal"]
    if deal_spec is not None and (
        not isinstance(deal_spec, Mapping) or not set(deal_spec) <= {"hands", "row", "discard"}
    ):
        raise RuleViolation(
            "bad_deal", 'deal must be an object with (optional) "hands", "row" and "discard".'
        )


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    players = check_players(INFO, players)
    opts = resolve_options(INFO, options)
    _check_options(opts)
    decks = choose_decks(opts, players)
    dealer = players - 1  # so that seat 0, left of the dealer, starts the first round
    state: State = {
        "players": players,
        "options": opts,
        "decks": decks,
        "rng": new_rng(seed),
        "match": match.new_match(
            players,
            target=opts["target"],
            dealer=dealer,
            on_tie=opts["on_tie"],
            max_rounds=opts["max_rounds"],
        ),
    }
    state, _ = deal(state, cards_of(state), dealer, opts["deal"])
    return state


def view(state: State, seat: int | None) -> JSON:
    if seat is not None:
        check_seat(state, seat)
    cards = cards_of(state)
    show = cards.face
    zones = state["zones"]
    players = int(state["players"])
    result = state["result"]
    m = state["match"]
    discard = LAYOUT.pile_view(zones, ("discard", None), seat, show)
    discard["top"] = show(zones["discard"][-1]) if zones["discard"] else None
    seats = []
    for s in range(players):
        captured = zones["captured"][s]
        laid = scoring.run_cards(state["runs"], s)
        seats.append(
            {
                "seat": s,
                "hand_count": len(zones["hand"][s]),
                "captured": LAYOUT.pile_view(zones, ("captured", s), seat, show),
                "runs": [run_view(s, i, r, cards) for i, r in enumerate(state["runs"][s])],
                "compound_points": scoring.COMPOUND_POINTS * len(captured),
                "run_cards": laid,
                "run_points": scoring.RUN_CARD_POINTS * laid,
                "round_points": result["seats"][s]["points"] if result else None,
                "total": m["totals"][s],
            }
        )
    opts = state["options"]
    out: JSON = {
        "game": INFO.slug,
        "players": players,
        "decks": list(state["decks"]),
        "phase": "match_over" if m["over"] else "round_over" if result else "play",
        "turn": dict(state["turn"]) if state["turn"] else None,
        "runs_rule": opts["runs"],
        "must_capture": opts["must_capture"],
        "reshuffles": {"allowed": opts["reshuffles"], "used": int(state["reshuffled"])},
        "row": LAYOUT.pile_view(zones, ("row", None), seat, show),
        "compound_pile": LAYOUT.pile_view(zones, ("compounds", None), seat, show),
        "draw": LAYOUT.pile_view(zones, ("draw", None), seat, show),
        "discard": discard,
        "seats": seats,
        "round_end": result,
        "match": match.view(m),
        "you": None,
    }
    if seat is not None:
        out["you"] = {"seat": seat, "hand": [show(c) for c in zones["hand"][seat]]}
    return out


def scores(state: State) -> JSON:
    """Compounds and runs of the round so far; the hand penalties once the round is over
    (before then they would tell how many wild cards a hand holds)."""
    cards = cards_of(state)
    zones = state["zones"]
    result = state["result"]
    m = state["match"]
    seats = []
    for s in range(int(state["players"])):
        captured = zones["captured"][s]
        laid = scoring.run_cards(state["runs"], s)
        row: JSON = {
            "seat": s,
            "compounds": [str(cards.face(c)["formula"]) for c in captured],
            "compound_points": scoring.COMPOUND_POINTS * len(captured),
            "run_cards": laid,
            "run_points": scoring.RUN_CARD_POINTS * laid,
            "hand_count": len(zones["hand"][s]),
            "elements_in_hand": None,
            "wilds_in_hand": None,
            "penalty": None,
            "round_points": None,
            "total": m["totals"][s],
        }
        if result:
            done = result["seats"][s]
            row.update(
                elements_in_hand=done["elements_in_hand"],
                wilds_in_hand=done["wilds_in_hand"],
                penalty=done["penalty"],
                round_points=done["points"],
            )
        seats.append(row)
    return {
        "round": m["round"],
        "round_over": result is not None,
        "final": bool(m["over"]),
        "seats": seats,
        "rounds": [dict(r) for r in m["rounds"]],
    }


def outcome(state: State) -> Outcome:
    return match.outcome(state["match"])


def bot_move(state: State, seat: int, bot: str) -> tuple[Move, State]:
    if bot not in INFO.bots:
        raise RuleViolation("unknown_bot", f"There is no bot {bot!r}; choose random or greedy.")
    legal = legal_moves(state, seat)
    if not legal:
        check_seat(state, seat)
        if state["match"]["over"]:
            raise RuleViolation("game_over", "The match is over; no more moves are accepted.")
        raise RuleViolation(
            "not_your_turn", f"Seat {to_act(state)[0]} is to act, not seat {seat}.", seat=seat
        )
    move, rng = choose(state, seat, bot, legal, cards_of(state))
    return move, {**state, "rng": rng}


# ---------------------------------------------------------------- invariants --------
def _run_problems(state: State, cards: TableCards) -> list[str]:
    problems = []
    zones = state["zones"]
    option = state["options"]["runs"]
    players = int(state["players"])
    for owner, board in enumerate(state["runs"]):
        laid = sorted(int(p["card"]) for run in board for p in run)
        if laid != sorted(zones["runs"][owner]):
            problems.append(f"seat {owner}'s runs and board disagree")
        for index, run in enumerate(board):
            name = f"run {index} of seat {owner}"
            numbers = [int(p["number"]) for p in run]
            if len(run) < rn.MIN_RUN or (option == "three" and len(run) != rn.MIN_RUN):
                problems.append(f"{name} has {len(run)} cards")
            if numbers != list(range(numbers[0], numbers[0] + len(run))) or not (
                numbers[0] >= 1 and numbers[-1] <= MAX_Z
            ):
                problems.append(f"{name} is not a series: {numbers}")
            if all(p["wild"] for p in run):
                problems.append(f"{name} has no element card")
            for p in run:
                face = cards.face(int(p["card"]))
                if p["wild"] != (face["kind"] == "wild") or (
                    not p["wild"] and face.get("z") != p["number"]
                ):
                    problems.append(f"{name}: card {p['card']} is not {p['number']}")
                if not 0 <= int(p["by"]) < players or (option != "anyone" and p["by"] != owner):
                    problems.append(f"{name}: card {p['card']} laid by seat {p['by']}")
    return problems


def check(state: State) -> None:
    """Cards conserved and in their kind of zone; every run a true series matching its
    board; the row full while compounds remain; the turn consistent with the phase."""
    cards = cards_of(state)
    zones = state["zones"]
    problems = LAYOUT.conservation_problems(zones, cards.ids)
    players = int(state["players"])
    compound_places = {"compounds", "row", "captured"}
    for place in LAYOUT.places(zones):
        for c in LAYOUT.pile(zones, place):
            if c in cards.ids and (cards.kind(c) == "compound") != (place[0] in compound_places):
                problems.append(f"card {c} ({cards.kind(c)}) is in {place[0]}")
    if not problems:
        problems += _run_problems(state, cards)
    if len(zones["row"]) > dd.FACE_UP or (zones["compounds"] and len(zones["row"]) < dd.FACE_UP):
        problems.append(f"{len(zones['row'])} compounds face up")
    if len(zones["hand"]) != players or len(state["runs"]) != players:
        problems.append("seat lists differ in length from the player count")
    if not 0 <= int(state["reshuffled"]) <= int(state["options"]["reshuffles"]):
        problems.append(f"{state['reshuffled']} reshuffles")
    turn = state["turn"]
    if state["result"] is None:
        if turn is None or not 0 <= int(turn["seat"]) < players:
            problems.append("the round is being played but nobody has the turn")
        elif not 0 <= int(turn["drawn"]) <= 2 or turn["step"] not in ("draw", "play"):
            problems.append(f"impossible turn record {turn}")
        elif turn["step"] == "draw" and int(turn["drawn"]) == 2:
            problems.append("two cards drawn but still drawing")
        elif int(turn["drawn"]) == 0 and not (
            zones["discard"] and (zones["draw"] or can_reshuffle(state))
        ):
            problems.append("a turn starts with no card to draw from the draw deck")
        elif turn["melded"] and turn["step"] != "play":
            problems.append("a run laid before drawing")
        if any(not hand for hand in zones["hand"]):
            problems.append("a seat has gone out but the round goes on")
    elif turn is not None:
        problems.append("the round is over but a seat has the turn")
    if problems:
        raise RuleViolation("state_invalid", "; ".join(problems))


def redeal_hidden(state: State, seat: int | None, seed: int) -> State:
    """``state`` with every card ``seat`` cannot see resampled (element and wild cards
    among the draw deck and the other hands, compound cards within the compound pile)."""
    zones, rng = dd.redeal_hidden(state["zones"], seat, new_rng(seed))
    return {**state, "zones": zones, "rng": rng}


def deck() -> list[JSON]:
    """Every card: the Basic Deck (ids 1-54) then both expansions (as with decks 'both')."""
    return [dict(f) for f in named_table_cards(DECK_NAMES, basic=True).faces]


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

__all__ = ["GAME", "INFO", "cards_of"]
