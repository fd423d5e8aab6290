"""The engine contract, checked for every registered game (OpenSpiel-style).

Random playouts to the end at every player count; after every move: invariants
hold, the state round-trips through JSON and the sealed token, views do not
change when what the seat cannot see is resampled, every legal move applies, and
an illegal move is refused with a code. A zone game turns its cards up exactly when
play is over (the game, or a round of a match): then every seat and an observer see
every card each seat holds, and before then the layout is the one of play.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any
from unittest import mock

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import shapes
from rules.core import GameRules, RuleViolation, events_for
from rules.match import NextRoundMove
from rules.registry import GAMES
from rules.wire import MoveForm, Outcome
from rules.zones import Layout, Place, Seen, Zones, named_cards
from service.games.tokens import Envelope, Sealer

from . import contract
from .conftest import KEY_A

SEALER = Sealer((KEY_A,))
MAX_MOVES = 5000
# Short games keep the deep checks affordable; the rules are the same.
QUICK_OPTIONS = {"polymer": {"timer_seconds": 30}}


def round_trips(game: GameRules, state: dict[str, Any]) -> None:
    assert orjson.loads(orjson.dumps(state)) == state, "state is not plain JSON"
    env = Envelope(game.info.slug, game.info.rules_version, "g", 1, state)
    token = SEALER.seal(env)
    assert SEALER.open(token, slug=game.info.slug, rules_version=game.info.rules_version) == env


def views_hide_secrets(game: GameRules, state: dict[str, Any], salt: int) -> None:
    players = int(state["players"])
    if not game.outcome(state).finished:
        # /scores needs no seat credential: it may show nothing hidden from an observer
        score = game.scores(state)
        for k in range(2):
            other = game.redeal_hidden(state, None, salt * 11 + k)
            assert game.scores(other) == score, "scores depend on what an observer cannot see"
    for seat in [None, *range(players)]:
        seen = game.view(state, seat)
        for k in range(2):
            other = game.redeal_hidden(state, seat, salt * 7 + k)
            assert game.view(other, seat) == seen, f"view of {seat} depends on hidden state"
        text = orjson.dumps(seen).decode()
        assert state["rng"]["key"] not in text


def play_is_over(game: GameRules, state: dict[str, Any]) -> bool:
    """The game is over, or a round of a match is: the only move left is to deal the
    next round (``rules.match``)."""
    if game.outcome(state).finished:
        return True
    to_act = game.to_act(state)
    return bool(to_act) and all(
        move["type"] == NEXT_ROUND for seat in to_act for move in game.legal_moves(state, seat)
    )


NEXT_ROUND = shapes.tag_of(shapes.shape(NextRoundMove))


def layout_follows_play(
    game: GameRules, state: dict[str, Any], playing: Layout | None, over: bool
) -> None:
    """A zone game's layout is ``playing`` (the one dealt) while play goes on, and
    ``playing.at_end()`` once it is ``over``: no card is turned up a move earlier, nor
    left face down after (``over`` is the caller's own reading of the state)."""
    layout = game.layout_of(state)
    if layout is None or playing is None:
        return
    if over:
        assert layout == playing.at_end(), "the layout at the end is not the dealt one's end"
    else:
        assert layout == playing, "cards are turned up while play goes on"


def cards_turned_up_when_play_is_over(
    game: GameRules, state: dict[str, Any], playing: Layout | None
) -> None:
    """A zone game's layout follows play (:func:`layout_follows_play`); once play is
    over every seat and an observer see every pile a seat holds (its hand, its
    collected or captured cards), and their views name every card in them."""
    over = play_is_over(game, state)
    layout_follows_play(game, state, playing, over)
    layout = game.layout_of(state)
    if layout is None or playing is None or not over:
        return
    zones = state["zones"]
    held = [p for p in layout.places(zones) if layout.zone(p[0]).per_seat]
    cards = {c for p in held for c in layout.pile(zones, p)}
    for seat in [None, *range(int(state["players"]))]:
        hidden = [p for p in held if not layout.can_see(p, seat)]
        assert not hidden, f"seat {seat} cannot see {hidden} once play is over"
        missing = cards - named_cards(game.view(state, seat))
        assert not missing, f"the view of seat {seat} does not show {missing} at the end"


def legal_moves_apply(game: GameRules, state: dict[str, Any]) -> None:
    for seat in game.to_act(state):
        for move in game.legal_moves(state, seat):
            parsed = game.parse_move(move)
            assert game.can(state, seat, parsed), f"legal move {move} fails verify"
            game.apply(state, seat, move)


def declared(tp: Any, value: Any, what: str) -> None:
    """``value`` has exactly the declared shape (no member missing, none extra)."""
    try:
        shapes.parse(value, tp)
    except shapes.ShapeError as err:
        pytest.fail(f"{what} breaks its declaration: {err}")


def answers_match_the_declarations(game: GameRules, state: dict[str, Any]) -> None:
    """Every view, the scores, the outcome and every legal move have their declared
    shapes (the contract is derived from the same declarations; tests/test_modes.py
    checks real HTTP answers against the contract itself)."""
    wire = game.wire
    for seat in [None, *range(int(state["players"]))]:
        declared(wire.view, game.view(state, seat), f"the view of seat {seat}")
    declared(wire.scores, game.scores(state), "the scores")
    declared(Outcome, game.outcome(state).to_json(), "the outcome")
    moves = union(game.wire.moves)
    for seat in game.to_act(state):
        for move in game.legal_moves(state, seat):
            declared(moves, move, f"legal move {move}")
    forms_build_legal_moves(game, state)


def forms_build_legal_moves(game: GameRules, state: dict[str, Any]) -> None:
    """A game's move forms (``GameRules.move_forms``) are as declared, every move built
    within one is legal (the smallest, the largest and a random one of each form), and
    every listed move of a type that has forms lies within one of them."""
    if game.move_forms is None:
        return
    pick = random.Random(repr(state["rng"]))
    for seat in range(int(state["players"])):
        forms = game.move_forms(state, seat)
        if seat not in game.to_act(state):
            assert forms == [], f"seat {seat} must wait but has forms {forms}"
        for form in forms:
            declared(MoveForm, form, f"a move form of seat {seat}")
            for size in ("least", "most", "any"):
                move = build(form, size, pick)
                try:
                    game.verify(state, seat, game.parse_move(move))
                except RuleViolation as err:
                    pytest.fail(f"{move} built in a form of seat {seat} is refused: {err}")
        typed = {form["type"] for form in forms}
        for move in game.legal_moves(state, seat):
            if move["type"] in typed:
                assert any(fits(move, f) for f in forms), f"{move} is in no form of seat {seat}"


def build(form: Mapping[str, Any], size: str, pick: random.Random) -> dict[str, Any]:
    """A move built within ``form``: every list as short, as long, or as long as chance
    says (a list as long as another follows it), its values drawn from its choices."""
    move: dict[str, Any] = {"type": form["type"]}
    members = sorted(form["members"], key=lambda m: m["same_length_as"] is not None)
    for member in members:
        values = [c["value"] for c in member["choices"]]
        if not member["many"]:
            move[member["name"]] = pick.choice(values)
            continue
        least, most = member["min_items"], member["max_items"]
        if member["same_length_as"] is not None:
            n = len(move[member["same_length_as"]])
        else:
            n = {"least": least, "most": most, "any": pick.randint(least, most)}[size]
        slots = member["slots"] or [values] * n
        move[member["name"]] = assign(slots[:n], member["distinct"], pick)
    return move


def assign(slots: Sequence[Sequence[Any]], distinct: bool, pick: random.Random) -> list[Any]:
    """One value from each slot, in order (no value twice when ``distinct``), chosen at
    random; the search backs up where a choice leaves a later slot with none."""
    if not slots or (distinct and len({v for s in slots for v in s}) < len(slots)):
        return []  # nothing to choose, or fewer values than slots
    for value in pick.sample(list(slots[0]), len(slots[0])):
        rest = [[v for v in s if not (distinct and v == value)] for s in slots[1:]]
        if all(rest):
            tail = assign(rest, distinct, pick)
            if len(tail) == len(rest):
                return [value, *tail]
    return []


def fits(move: Mapping[str, Any], form: Mapping[str, Any]) -> bool:
    """Whether ``move`` lies within ``form`` (a list's items may come in any order)."""
    if move["type"] != form["type"] or not set(move) - {"type"} <= {
        m["name"] for m in form["members"]
    }:
        return False
    for member in form["members"]:
        allowed = {c["value"] for c in member["choices"]}
        given = move.get(member["name"], [] if member["many"] else None)
        if not member["many"]:
            if given not in allowed:
                return False
            continue
        if not member["min_items"] <= len(given) <= member["max_items"]:
            return False
        if not set(given) <= allowed or (member["distinct"] and len(set(given)) < len(given)):
            return False
        other = member["same_length_as"]
        if other is not None and len(given) != len(move[other]):
            return False
        if member["slots"] is not None and not matched(given, member["slots"]):
            return False
    return True


def matched(items: Sequence[Any], slots: Sequence[Sequence[Any]]) -> bool:
    """Whether each item can take a slot of its own that allows it (a matching)."""
    if len(items) != len(slots):
        return False
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j, slot in enumerate(slots):
            if items[i] in slot and j not in seen:
                seen.add(j)
                if j not in owner or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(place(i, set()) for i in range(len(items)))


def events_match_the_declarations(
    game: GameRules, state: dict[str, Any], events: list[Any]
) -> None:
    """Every event, as each seat and an observer get it, has its declared shape; each
    type checked is recorded for the event gate (``tests/test_walked.py``)."""
    kinds = union(game.wire.events)
    for seat in [None, *range(int(state["players"]))]:
        for event in events_for(events, seat):
            declared(kinds, event, f"an event delivered to seat {seat}")
            contract.event_checked(game.info.slug, event["type"])


@functools.cache
def union(types: tuple[type, ...]) -> shapes.OneOf:
    """One of the declared (tagged) types."""
    return shapes.OneOf(options=tuple(shapes.shape(t) for t in types))


def refusals_are_in_scope(game: GameRules, state: dict[str, Any], tried: list[Any]) -> None:
    """A bot asked to move for a seat that cannot answers only with a code declared for
    bot moves; a move refused answers only with a code declared for moves."""
    info = game.info
    for seat in range(int(state["players"])):
        if seat in game.to_act(state):
            continue
        try:
            game.bot_move(state, seat, info.bots[0])
        except RuleViolation as err:
            assert err.code in info.codes_at("bot"), f"bot-move answers {err.code}, undeclared"
    for seat in range(int(state["players"])):
        for move in tried:
            try:
                game.apply(state, seat, move)
            except RuleViolation as err:
                assert err.code in info.codes_at("move"), f"a move answers {err.code}, undeclared"


@contextmanager
def moves_seen(players: int) -> Iterator[dict[int | None, set[int]]]:
    """Record, for each seat (and an observer), the cards it sees move while the block
    runs: every ``Layout.move`` out of or into a pile it sees (a card on a face-up top
    is seen by all). A card played face up and collected face down in the same move
    (a round of Chemistry Battle) is seen on its way; a card taken unseen from a hand
    into a face-down pile is seen only by the hand's owner."""
    seen: dict[int | None, set[int]] = {s: set() for s in [None, *range(players)]}
    real = Layout.move

    def move(self: Layout, zones: Zones, src: Place, dst: Place, cards: Sequence[int]) -> Zones:
        top = self.pile(zones, src)[-1:]
        face_up = (self.zone(dst[0]).seen is Seen.TOP and bool(cards)) or (
            self.zone(src[0]).seen is Seen.TOP and list(cards) == top
        )
        for seat, known in seen.items():
            if face_up or self.can_see(src, seat) or self.can_see(dst, seat):
                known.update(cards)
        return real(self, zones, src, dst, cards)

    with mock.patch.object(Layout, "move", move):
        yield seen


def events_name_only_visible_cards(
    game: GameRules,
    before: dict[str, Any],
    after: dict[str, Any],
    events: list[dict[str, Any]],
    moved: dict[int | None, set[int]] | None = None,
) -> None:
    """No event delivered to a seat names a card that seat could not see before or
    after the move (by the layout of each state: zone games) or, given ``moved``
    (:func:`moves_seen`), as it moved."""
    was, now = game.layout_of(before), game.layout_of(after)
    if was is None or now is None:
        return
    for seat in [None, *range(int(before["players"]))]:
        may_know = was.visible(before["zones"], seat) | now.visible(after["zones"], seat)
        may_know |= (moved or {}).get(seat, set())
        for event in events_for(events, seat):
            leaked = named_cards(event) - may_know
            assert not leaked, f"seat {seat} is told of hidden cards {leaked} in {event}"


def illegal_is_refused(game: GameRules, state: dict[str, Any]) -> None:
    seat = (game.to_act(state) or [0])[0]
    with pytest.raises(RuleViolation) as err:
        game.apply(state, seat, {"type": "no-such-move"})
    assert err.value.code == "unknown_move"
    waiting = [s for s in range(int(state["players"])) if s not in game.to_act(state)]
    for s in waiting:
        for move in game.legal_moves(state, s) or []:
            pytest.fail(f"seat {s} is not to act but has legal move {move}")


def playout(
    game: GameRules,
    players: int,
    seed: int,
    bots: list[str],
    deep: bool,
    options: dict[str, Any] | None = None,
) -> int:
    """Play bots to the end, checking the engine contract after every move."""
    opts = QUICK_OPTIONS.get(game.info.slug, {}) if options is None else options
    state = game.setup(players, opts, seed)
    playing = game.layout_of(state)
    moves = 0
    tried: list[Any] = []
    while not game.outcome(state).finished:
        game.check(state)
        if deep:
            round_trips(game, state)
            cards_turned_up_when_play_is_over(game, state, playing)
            views_hide_secrets(game, state, moves)
            legal_moves_apply(game, state)
            illegal_is_refused(game, state)
            answers_match_the_declarations(game, state)
            refusals_are_in_scope(game, state, tried[-6:])
        to_act = game.to_act(state)
        assert to_act, "the game is not over but nobody may act"
        seat = to_act[moves % len(to_act)]
        move, chosen = game.bot_move(state, seat, bots[moves % len(bots)])
        with moves_seen(players) as moved:
            after, events = game.apply(chosen, seat, move)
        assert all(isinstance(e, dict) and "type" in e for e in events)
        if deep:
            events_name_only_visible_cards(game, chosen, after, events, moved)
            events_match_the_declarations(game, after, events)
            tried.append(move)
        state = after
        moves += 1
        assert moves < MAX_MOVES, "the game does not end"
    game.check(state)
    round_trips(game, state)
    cards_turned_up_when_play_is_over(game, state, playing)
    if deep:
        views_hide_secrets(game, state, moves)
        answers_match_the_declarations(game, state)
        refusals_are_in_scope(game, state, tried[-6:])
    assert game.to_act(state) == []
    outcome = game.outcome(state)
    assert outcome.winners and set(outcome.ranking) == set(range(players))
    assert len(outcome.places) == players and outcome.places[0] == 1
    assert list(outcome.places) == sorted(outcome.places)
    assert set(outcome.winners) == {
        s for s, p in zip(outcome.ranking, outcome.places, strict=True) if p == 1
    }
    return moves


CASES = [
    (slug, players)
    for slug, game in sorted(GAMES.items())
    for players in range(game.info.min_players, game.info.max_players + 1)
]


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_full_playout_with_deep_checks(slug: str, players: int) -> None:
    assert playout(GAMES[slug], players, seed=players, bots=["random", "greedy"], deep=True) > 0


RARE = [
    # game, players, seed, bots, options: the event the fixed mix above does not emit
    (
        "chemistry-canasta",
        5,
        6,
        ["random", "greedy"],
        {"target": 1, "on_tie": "play_on"},
        "match_tied",
    ),
    (
        "compound-capture",
        3,
        0,
        ["random", "greedy"],
        {"target": 1, "on_tie": "play_on"},
        "match_tied",
    ),
    ("metal-vs-nonmetal", 2, 1, ["greedy"], {}, "forced_play"),
    ("polymer", 6, 8, ["greedy", "random"], QUICK_OPTIONS["polymer"], "trade_undone"),
    ("polymerization", 2, 0, ["random"], {}, "reactivation"),
]
"""Deep playouts that emit the events the ones above do not, found by varying bots,
seeds and options: the event gate (``tests/test_walked.py``) needs every declared event
checked somewhere (compound-capture's ``draw_ended`` needs both piles spent, which its
rules tests set up)."""


@pytest.mark.parametrize(("slug", "players", "seed", "bots", "options", "event"), RARE)
def test_deep_playouts_that_emit_the_rare_events(
    slug: str, players: int, seed: int, bots: list[str], options: dict[str, Any], event: str
) -> None:
    earlier = contract.CHECKED_EVENTS.pop(slug, set())
    try:
        assert playout(GAMES[slug], players, seed=seed, bots=bots, deep=True, options=options)
        assert event in contract.CHECKED_EVENTS[slug], f"the playout emitted no {event}"
    finally:
        contract.CHECKED_EVENTS[slug] |= earlier


@pytest.mark.parametrize("slug", sorted(GAMES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_playouts(slug: str, data: st.DataObject) -> None:
    game = GAMES[slug]
    players = data.draw(st.integers(game.info.min_players, game.info.max_players))
    seed = data.draw(st.integers(0, 2**63 - 1))
    bots = data.draw(st.lists(st.sampled_from(game.info.bots), min_size=1, max_size=3))
    playout(game, players, seed, bots, deep=False)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_metadata_is_complete(slug: str) -> None:
    info = GAMES[slug].info
    assert info.slug == slug and info.title and info.summary and info.seed_file
    assert info.min_players <= info.max_players
    assert {"random", "greedy"} <= set(info.bots)
    for option in info.options:
        assert option.description and option.kind


def _raised_codes(package: str) -> set[str]:
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "rules" / package
    files = [root] if root.suffix == ".py" else sorted(root.rglob("*.py"))
    codes: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "RuleViolation"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                code = node.args[0].value
                assert isinstance(code, str), f"{path}: RuleViolation({code!r})"
                codes.add(code)
    return codes


SHARED = [
    "core.py",
    "records.py",
    "match.py",
    "zones.py",
    "chemistry",
    "draw_discard.py",
    "draw_discard_match.py",
]


def test_every_code_raised_is_declared_and_every_declared_code_is_raised() -> None:
    from rules.core import CORE_CODES

    shared = set().union(*(_raised_codes(p) for p in SHARED))
    raised_anywhere = set(shared)
    for slug, game in GAMES.items():
        own = _raised_codes(slug.replace("-", "_"))
        raised_anywhere |= own
        undeclared = own - set(game.info.codes) - set(CORE_CODES)
        assert undeclared == set(), f"{slug} raises undeclared codes {undeclared}"
        unused = set(game.info.codes) - own - shared
        assert unused == set(), f"{slug} declares codes it never raises {unused}"
    assert set(CORE_CODES) <= raised_anywhere | {"unknown_move", "bad_move"}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_internal_codes_on_the_rules_directly(slug: str) -> None:
    game = GAMES[slug]
    state = game.setup(game.info.min_players, QUICK_OPTIONS.get(slug, {}), 1)
    seat = game.to_act(state)[0]
    with pytest.raises(RuleViolation) as err:
        game.bot_move(state, seat, "no-such-bot")
    assert err.value.code == "unknown_bot"
    layout = game.layout_of(state)
    if layout is None:
        broken = {**state, "hands": [list(state["hands"][1]), *state["hands"][1:]]}
    else:  # a zone game: one card held twice (it may have a single seat)
        broken = copy.deepcopy(state)
        zones = broken["zones"]
        place = next(p for p in layout.places(zones) if layout.pile(zones, p))
        pile = layout.pile(zones, place)
        pile.append(pile[0])
    with pytest.raises(RuleViolation) as err:
        game.check(broken)  # seat 0 now holds seat 1's cards: duplicated, others lost
    assert err.value.code == "state_invalid"
