"""Records replay: for every game, a random bot game's record plays through the rules to
the same outcome and scores; a record with one move changed is refused at that move,
with the rules' own code (issue 19)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import GameRules
from rules.records import Log, Step, replay
from rules.registry import GAMES

T0 = 1_795_400_000_000
QUICK = {"polymer": {"timer_seconds": 20}}


def recorded(game: GameRules, players: int, seed: int, bot: str) -> tuple[Log, dict[str, Any]]:
    """A whole game of bots, written down step by step as the service does."""
    options = QUICK.get(game.info.slug, {})
    state = game.setup(players, options, seed)
    log = Log(players=players, options=options, seed=seed, bots={})
    if game.clock is not None:
        state = game.clock.started(state, T0)
        log = log.add(Step(system="start", at=T0))
    for _ in range(5000):
        if game.outcome(state).finished:
            break
        to_act = game.to_act(state)
        if not to_act:  # a real-time game whose seats all wait: time runs out
            state, _ = game.clock.expire(state)  # type: ignore[union-attr]
            log = log.add(Step(system="time_up"))
            continue
        seat = to_act[0]
        at = None
        if game.clock is not None:  # as the service does: the bot acts at the server's time
            at = int(state["now_ms"]) + 700
            deadline = game.clock.deadline(state)
            if deadline is not None and at >= deadline:
                state, _ = game.clock.expire(state)
                log = log.add(Step(system="time_up"))
                continue
            state = game.clock.prepare(state, at)
        move, state = game.bot_move(state, seat, bot)
        shown = {k: v for k, v in move.items() if k != "at"}
        if game.clock is not None:
            move = game.clock.stamp(shown, at)  # type: ignore[arg-type]
        state, _ = game.apply(state, seat, move)
        log = log.add(Step(seat=seat, move=shown, bot=bot, at=at))
    return log, state


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_bot_game_replays_to_the_same_end(slug: str, bot: str) -> None:
    game = GAMES[slug]
    log, state = recorded(game, game.info.min_players, seed=3, bot=bot)
    done = replay(game, log)
    assert done.refused is None, done.refused
    assert done.state == state
    assert done.outcome == game.outcome(state) and done.outcome.finished
    assert done.scores == game.scores(state)
    # and the record survives its compact form (a token or the store keeps that)
    assert Log.expand(log.compact()) == log


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_changed_move_is_refused_at_that_move(slug: str) -> None:
    game = GAMES[slug]
    log, _ = recorded(game, game.info.min_players, seed=5, bot="random")
    moves = [i for i, step in enumerate(log.steps) if step.move]
    index = moves[len(moves) // 2]
    step = log.steps[index]
    before = replay(game, log.with_steps(log.steps[:index])).state
    if game.clock is not None:
        before = game.clock.prepare(before, int(step.at or 0))
    # a move the record makes elsewhere, which the rules refuse here
    other = next(
        s.move
        for s in log.steps
        if s.move and not game.can(before, step.seat, game.parse_move(s.move))  # type: ignore[arg-type]
    )
    spoiled = log.replace_step(index, Step(seat=step.seat, move=other, at=step.at))
    done = replay(game, spoiled)
    assert done.refused is not None and done.refused.index == index
    assert done.refused.code in game.info.codes_at("move")
    assert len(done.steps) == index


def test_a_bot_step_whose_move_is_not_the_bots_choice_is_refused() -> None:
    game = GAMES["chemistry-battle"]
    log, _ = recorded(game, 2, seed=1, bot="greedy")
    step = log.steps[0]
    legal = game.legal_moves(game.setup(2, {}, 1), step.seat)  # type: ignore[arg-type]
    other = next(m for m in legal if m != step.move)
    done = replay(game, log.replace_step(0, Step(seat=step.seat, move=other, bot="greedy")))
    assert done.refused is not None and (done.refused.index, done.refused.code) == (0, "bad_record")
