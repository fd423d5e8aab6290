"""Test helpers shared by the two games of the draw-two table (Compound Capture and
Chemistry Canasta): laying cards out by name, playing checked moves, and playing whole
matches with bots under the conformance checks."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import strategies as st

from rules.chemistry.decks.compound import TableCards
from rules.core import GameRules, RuleViolation
from rules.zones import Layout

from .test_conformance import (
    events_name_only_visible_cards,
    layout_follows_play,
    moves_seen,
    views_hide_secrets,
)

State = dict[str, Any]
Move = dict[str, Any]


# ---------------------------------------------------------------- laying out --------
class Pool:
    """The cards of a game by name (a compound's formula, "wild", or an element symbol),
    each name's copies lowest id first; :meth:`take` deals them out."""

    def __init__(self, cards: TableCards[Mapping[str, Any]]) -> None:
        self.cards = cards
        self.free: dict[str, list[int]] = {}
        for c in cards.ids:
            face = cards.face(c)
            name = face.get("formula") or ("wild" if face["kind"] == "wild" else face["symbol"])
            self.free.setdefault(str(name), []).append(c)

    def take(self, names: Sequence[str]) -> list[int]:
        return [self.free[n].pop(0) for n in names]

    def lay_out(
        self,
        table: Layout,
        players: int,
        hands: list[list[int]],
        *,
        draw_top: Sequence[str],
        discard: Sequence[str],
        row: Sequence[str],
        draw: int | None,
        **more: Any,
    ) -> Any:
        """The zones: ``hands`` (ids taken already), the draw deck with ``draw_top`` on
        top (``draw`` cards in all, when given; the rest goes under the discard pile),
        the discard pile bottom first, the ``row``; every card not taken goes to the
        bottom of the draw deck or to the compound pile. ``more``: a game's own zones."""
        top = self.take(draw_top)
        pile = self.take(discard)
        up = self.take(row)
        left = [c for ids in self.free.values() for c in ids]
        compounds = [c for c in left if self.cards.kind(c) == "compound"]
        rest = [c for c in left if self.cards.kind(c) != "compound"]
        if draw is not None:
            rest, pile = rest[: draw - len(top)], rest[draw - len(top) :] + pile
        return table.deal(
            players,
            draw=rest + list(reversed(top)),
            discard=pile,
            hand=hands,
            compounds=compounds,
            row=up,
            **more,
        )


class Moves:
    """Helpers bound to one game: card ids in hand by name, checked moves and refusals,
    and the checks of the match's round plumbing both games share."""

    def __init__(
        self, game: GameRules, cards_of: Callable[[State], TableCards[Mapping[str, Any]]]
    ) -> None:
        self.game = game
        self.cards_of = cards_of

    def ids(self, state: State, seat: int, *names: str) -> list[int]:
        """Card ids of ``seat``'s hand by name, in the order asked (each copy once)."""
        cards = self.cards_of(state)
        pool = list(state["zones"]["hand"][seat])
        out = []
        for name in names:
            for c in pool:
                face = cards.face(c)
                if (face["kind"] == "wild" and name == "wild") or face.get("symbol") == name:
                    out.append(c)
                    pool.remove(c)
                    break
            else:
                raise AssertionError(f"no {name} in hand")
        return out

    def play(self, state: State, seat: int, move: Move) -> tuple[State, list[Any]]:
        """``move`` applied, and the new state checked."""
        new, events = self.game.apply(state, seat, move)
        self.game.check(new)
        return new, events

    def refused(self, state: State, seat: int, move: Move) -> RuleViolation:
        """The refusal of ``move``, which ``can`` refuses as well (unless it is malformed)."""
        with pytest.raises(RuleViolation) as err:
            self.game.apply(state, seat, move)
        assert not self.game.can(state, seat, self.game.parse_move(move)) or err.value.code in {
            "unknown_move",
            "bad_move",
        }
        return err.value

    def draw_two(self, state: State, seat: int = 0) -> State:
        """``seat`` draws its two cards from the draw deck."""
        for _ in range(2):
            state, _ = self.play(state, seat, {"type": "draw", "source": "deck"})
        return state

    def match_to_250(
        self, dealt: Callable[[State], None] = lambda state: None, seed: int = 5
    ) -> State:
        """Greedy bots play a 3-seat match to 250 (of at least two rounds): the dealer
        rotates to the left and the seat left of the new dealer starts (``dealt`` checks a
        game's own fresh round), the hands are turned up exactly when a round ends, the
        match ends with the first round that takes a seat to 250 and the best total wins;
        then every move is refused. The final state."""
        game = self.game
        state = game.setup(3, {}, seed)
        playing = game.layout_of(state)
        rounds = []
        while game.to_act(state):
            seat = game.to_act(state)[0]
            move, state = game.bot_move(state, seat, "greedy")
            if move["type"] == "next_round":
                assert seat == (state["match"]["dealer"] + 1) % 3
            state, events = game.apply(state, seat, move)
            game.check(state)
            layout_follows_play(game, state, playing, state["result"] is not None)
            if any(e["type"] == "round_ended" for e in events):
                hands_shown_only_once_the_round_is_over(game, state)
            rounds += [e for e in events if e["type"] == "round_scored"]
            if move["type"] == "next_round":
                assert game.to_act(state) == [(seat + 1) % 3]  # left of the new dealer starts
                dealt(state)
        m = state["match"]
        assert max(m["totals"]) >= 250 and len(rounds) == len(m["rounds"]) >= 2
        assert all(max(r["totals"]) < 250 for r in m["rounds"][:-1])
        assert [r["dealer"] for r in m["rounds"]] == [(2 + i) % 3 for i in range(len(rounds))]
        out = game.outcome(state)
        assert out.finished and m["totals"][out.winners[0]] == max(m["totals"])
        assert self.refused(state, 0, {"type": "draw", "source": "deck"}).code == "game_over"
        dealer = (m["dealer"] + 1) % 3
        assert self.refused(state, dealer, {"type": "next_round"}).code == "match_over"
        return state

    def next_deal(self, state: State) -> State:
        """``state``: the first round of a 2-seat match (seat 1 dealt) just ended. Only
        seat 0, the next dealer, may move, and only ``next_round``; it deals round 2,
        which seat 1 starts. The state after the deal."""
        assert state["result"] and self.game.to_act(state) == [0]
        assert self.refused(state, 1, {"type": "next_round"}).code == "round_over"
        assert self.refused(state, 0, {"type": "draw", "source": "deck"}).code == "round_over"
        state, events = self.play(state, 0, {"type": "next_round"})
        assert events[0]["type"] == "round_dealt" and events[0]["round"] == 2
        assert state["match"]["dealer"] == 0 and self.game.to_act(state) == [1]
        assert self.refused(state, 1, {"type": "next_round"}).code == "round_in_progress"
        return state

    def unknown_move_and_bots(self, state: State, unknown: str) -> None:
        """A move of type ``unknown``, a bot that does not exist, and a bot for a seat
        whose turn it is not (seat 1, at the start) are refused."""
        with pytest.raises(RuleViolation) as err:
            self.game.apply(state, 0, {"type": unknown})
        assert err.value.code == "unknown_move"
        with pytest.raises(RuleViolation) as err:
            self.game.bot_move(state, 0, "clever")
        assert err.value.code == "unknown_bot"
        with pytest.raises(RuleViolation) as err:
            self.game.bot_move(state, 1, "random")
        assert err.value.code == "not_your_turn"


# ---------------------------------------------------------------- whole matches -----
def checked_moves(
    game: GameRules, state: State, bots: Sequence[str], sample: int
) -> Iterator[tuple[int, Move, State, State, list[Any]]]:
    """Play ``state`` to the end of its match, ``bots`` taking turns move by move, and
    yield ``(seat, move, before, after, events)`` for each move. Before every move the
    invariants hold, the hands are turned up exactly when the round is over, and the
    bot's move passes ``can``; every ``sample``-th move no view
    depends on what its seat cannot see and no event names a card its receiver cannot
    see; at the end the invariants hold."""
    moves = 0
    playing = game.layout_of(state)
    while game.to_act(state):
        game.check(state)
        layout_follows_play(game, state, playing, state["result"] is not None)
        if moves % sample == 0:
            views_hide_secrets(game, state, moves)
            hands_shown_only_once_the_round_is_over(game, state)
        seat = game.to_act(state)[0]
        move, chosen = game.bot_move(state, seat, bots[moves % len(bots)])
        assert game.can(chosen, seat, game.parse_move(move))
        with moves_seen(int(state["players"])) as moved:
            after, events = game.apply(chosen, seat, move)
        if moves % sample == 0:
            events_name_only_visible_cards(game, chosen, after, events, moved)
        moves += 1
        yield seat, move, chosen, after, events
        state = after
    game.check(state)
    layout_follows_play(game, state, playing, True)


def hands_shown_only_once_the_round_is_over(game: GameRules, state: State) -> None:
    """While a round is played a seat sees only its own hand; once it is over (and until
    the next deal) every seat and an observer see every hand, whose cards count against
    the round's score."""
    over = state["result"] is not None
    hands = state["zones"]["hand"]
    for viewer in [None, *range(int(state["players"]))]:
        for s, row in enumerate(game.view(state, viewer)["seats"]):
            shown = row["hand"]["cards"]
            assert row["hand"]["count"] == len(hands[s])
            if over or s == viewer:
                assert shown is not None and [c["id"] for c in shown] == hands[s]
            else:
                assert shown is None, f"seat {viewer} sees seat {s}'s hand during the round"


def check_round_scores(
    game: GameRules, after: State, events: list[Any], points: list[int], totals: list[int]
) -> list[int]:
    """A round just ended in ``events`` and its seats scored ``points`` (recomputed from
    the cards): the round's result, its ``round_scored`` event, the match totals and the
    scores agree, the winners are the seats with the most points, and every hand is
    shown. The new totals."""
    hands_shown_only_once_the_round_is_over(game, after)
    ended = next(e for e in events if e["type"] == "round_ended")
    assert [s["points"] for s in ended["seats"]] == points
    scored = next(e for e in events if e["type"] == "round_scored")
    assert scored["points"] == points
    totals = [t + p for t, p in zip(totals, points, strict=True)]
    assert after["match"]["totals"] == totals
    assert [s["round_points"] for s in game.scores(after)["seats"]] == points
    best = max(points)
    assert ended["winners"] == [s for s, p in enumerate(points) if p == best]
    return totals


def bots_over_http(t: Any, limit: int) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Bots play ``t`` (a ``table`` fixture's game) to its end, seat 0 ``random`` and the
    others ``greedy``: yields ``(moves so far, seat, answer)`` after each move; fails
    after ``limit`` moves."""
    moves = 0
    while t.last["to_act"]:
        seat = t.last["to_act"][0]
        body = t.bot(seat, "greedy" if seat else "random")
        moves += 1
        assert moves < limit
        yield moves, seat, body


def with_decks(options: dict[str, Any], decks: str | None, custom: Any) -> dict[str, Any]:
    """``options`` with the deck choice ``decks``: a built-in one, ``"custom"`` (the
    compounds ``custom``) or ``None`` (the default by player count)."""
    if decks == "custom":
        options["compounds"] = custom
    elif decks is not None:
        options["decks"] = decks
    return options


BOT_LISTS = st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=2)
"""The bots of a playout, taking turns move by move."""
SEEDS = st.integers(0, 2**63 - 1)


def check_match_end(game: GameRules, state: State, options: Mapping[str, Any], rounds: int) -> None:
    """The match is over after ``rounds`` rounds: no more than its round limit, a seat at
    the target unless the limit ended it, the winners the seats with the best total."""
    m = state["match"]
    limit = options.get("max_rounds", 30)
    assert len(m["rounds"]) == rounds <= limit
    target = options.get("target", 250)
    if target is not None and len(m["rounds"]) < limit:
        assert max(m["totals"]) >= target
    out = game.outcome(state)
    assert out.finished and set(out.winners) == {
        s for s, t in enumerate(m["totals"]) if t == max(m["totals"])
    }
