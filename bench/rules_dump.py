"""One sha256 of everything the rules and a move's envelope produce, for every game:
a change meant to keep results identical must leave it as it was.

    PYTHONHASHSEED=0 .venv/bin/python -m bench.rules_dump [--seeds 3]

Plays seeded games of each game at every seat count (element-draft also with bismuth
counted and a custom word list, Polymer with its 30 s timer), the random and greedy
bots taking turns, through ``service.games.play.apply_move``, the situations' marks and
a real :class:`Sealer`, and hashes after every move: the mover's legal moves, the events
(raw, and as each seat and an observer get them), every seat's and the observer's view
and situation, the state, ``to_act``, the outcome, the sealed plaintext of the envelope
as a hosted game stores it and the log; the scores every fifth move and at the end; and
the record's replay. Prints one digest per game and one for all. Run it from each
checkout (``git archive main | tar -x -C /tmp/base``, then from there with this venv) and
compare.
"""

from __future__ import annotations

import argparse
import hashlib
from dataclasses import dataclass, replace
from typing import Any

import orjson
from cryptography.fernet import Fernet

from rules.core import GameRules, events_for
from rules.records import Log, replay
from rules.registry import GAMES
from service.games.play import apply_move
from service.games.tokens import Envelope, Sealer
from service.sessions import situations

DUMP = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "element-draft": [
        {},
        {"bismuth_radioactive": True},
        {"words": ["bacon", "scone", "chore", "hones", "nicer"]},
    ],
    "polymer": [{"timer_seconds": 30}],
}
MAX_MOVES = 3000


@dataclass(frozen=True)
class Rules:
    """What ``apply_move`` reads of a game's API."""

    game: GameRules


def dumped(value: Any) -> bytes:
    return orjson.dumps(value, option=DUMP, default=repr)


def play(
    game: GameRules, players: int, seed: int, options: dict[str, Any], sealer: Sealer
) -> tuple[int, bytes]:
    """One game to its end: the moves made, and the digest of everything it produced."""
    h = hashlib.sha256()
    state = game.setup(players, options, seed)
    log = Log(players, dict(options), seed, {})
    env = Envelope(game.info.slug, game.info.rules_version, f"g{seed}", 0, state, {}, log)
    env = situations.marked(game, None, env, None)
    api: Any = Rules(game)
    bots = ["random", "greedy"] if "greedy" in game.info.bots else ["random"]
    moves = 0
    while not game.outcome(env.state).finished and moves < MAX_MOVES:
        to_act = game.to_act(env.state)
        seat = to_act[(moves * 7 + seed) % len(to_act)]
        h.update(dumped(game.legal_moves(env.state, seat)))
        move, chosen = game.bot_move(env.state, seat, bots[moves % len(bots)])
        after, events = apply_move(api, replace(env, state=chosen), seat, move)
        env = situations.marked(game, env, after, seat)
        h.update(dumped(events))
        for s in [*range(players), None]:
            h.update(dumped(events_for(events, s)))
            h.update(dumped(game.view(env.state, s)))
            if s is not None:
                h.update(dumped(game.situation_of(env.state, s)))
        h.update(dumped([env.state, game.to_act(env.state), game.outcome(env.state).to_json()]))
        token = sealer.seal(env.without_steps())
        h.update(sealer.recent.get(token) or b"")
        h.update(dumped(env.log.compact() if env.log is not None else None))
        if moves % 5 == 0:
            h.update(dumped(game.scores(env.state)))
        moves += 1
    h.update(dumped(game.scores(env.state)))
    if env.log is not None:
        done = replay(game, Log.expand(orjson.loads(orjson.dumps(env.log.compact()))))
        refused = done.refused.code if done.refused is not None else None
        h.update(dumped([done.steps, done.state, done.outcome.to_json(), done.scores, refused]))
    return moves, h.digest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--seeds", type=int, default=3, help="games per game, seat count and options"
    )
    args = parser.parse_args()
    sealer = Sealer((Fernet.generate_key().decode(),))
    total = hashlib.sha256()
    for slug, game in sorted(GAMES.items()):
        h = hashlib.sha256()
        moves = 0
        for players in range(game.info.min_players, game.info.max_players + 1):
            for options in OPTIONS.get(slug, [{}]):
                for seed in range(args.seeds):
                    made, digest = play(game, players, seed * 1009 + players, options, sealer)
                    moves += made
                    h.update(digest)
        print(f"{slug}: {moves} moves, {h.hexdigest()}", flush=True)
        total.update(h.digest())
    print(f"all: {total.hexdigest()}")


if __name__ == "__main__":
    main()
