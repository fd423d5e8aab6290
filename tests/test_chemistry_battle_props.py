"""Chemistry Battle property tests: whole games with bots at every player count.

After every move: all 54 cards are held exactly once (hands + table + collected +
kitty), the state passes ``check``, the scores equal a count made here from the
events alone, and every card played is the one an independent model of the
rules says (the chosen card from the hand, else the next card in the order
collected). Every game ends within its round limit, and then every seat's cards
(hand, captured kitty, collected) are shown to every seat and an observer. On sampled
moves: no view changes when what its seat cannot see is resampled, no seat sees another
hand or a kitty card before the end, and the state survives the sealed token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.chemistry_battle import GAME
from rules.chemistry_battle.game import layout
from rules.core import events_for
from rules.zones import named_cards
from service.games.tokens import Envelope, Sealer

from .conftest import KEY_A
from .test_conformance import layout_follows_play, moves_seen

SEALER = Sealer((KEY_A,))
State = dict[str, Any]


class Model:
    """The rules as a learner would track them from the deal and the public events."""

    def __init__(self, state: State) -> None:
        zones = state["zones"]
        self.players = int(state["players"])
        self.top = state["options"]["hand_play"] == "top"
        self.hands = [list(h) for h in zones["hand"]]
        self.kitty = list(zones["kitty"])
        self.queues: list[list[int]] = [[] for _ in range(self.players)]
        self.table: list[int] = []
        self.leader = int(state["leader"])
        self.rounds = 0

    def played(self, seat: int, z: int, source: str) -> None:
        if self.hands[seat]:
            assert source == "hand"
            if self.top:
                assert z == self.hands[seat][0], "a face-down hand is played in order"
            self.hands[seat].remove(z)
        else:
            assert source in ("captured_kitty", "collected")
            assert z == self.queues[seat].pop(0), "collected cards are played in order"
        self.table.append(z)

    def won(self, seat: int, plays: list[tuple[int, int]]) -> None:
        assert [z for _, z in plays] == self.table
        assert seat == plays[[z for _, z in plays].index(max(self.table))][0]
        self.queues[seat] += self.table
        self.table = []
        self.rounds += 1

    def captured(self, seat: int) -> None:
        self.queues[seat] = self.kitty + self.queues[seat]
        self.kitty = []

    def counts(self) -> list[int]:
        return [len(self.hands[s]) + len(self.queues[s]) for s in range(self.players)]


def follow(model: Model, events: list[dict[str, Any]]) -> None:
    for event in events:
        kind = event["type"]
        if kind == "card_played":
            model.played(event["seat"], event["card"]["z"], event["source"])
        elif kind == "round_won":
            model.won(event["seat"], [(p["seat"], p["card"]["z"]) for p in event["plays"]])
        elif kind == "kitty_captured":
            model.captured(event["seat"])
        elif kind == "game_over":
            assert event["counts"] == model.counts()


def conserved(state: State) -> None:
    zones = state["zones"]
    held = (
        [z for h in zones["hand"] for z in h]
        + zones["table"]
        + [z for c in zones["collected"] for z in c]
        + [z for k in zones["collected_kitty"] for z in k]
        + zones["kitty"]
        + zones["set_aside"]
    )
    assert sorted(held) == list(range(1, 55))


def shown_at_the_end(state: State, seen: Mapping[str, Any]) -> None:
    """Once the game is over every seat's cards are counted face up: hand, captured
    kitty cards and collected cards, in the order they lie."""
    zones = state["zones"]
    for s, row in enumerate(seen["seats"]):
        for member, zone in (("hand", "hand"), ("kitty", "collected_kitty")):
            assert [c["id"] for c in row[member]["cards"]] == zones[zone][s]
        assert [c["id"] for c in row["collected"]["cards"]] == zones["collected"][s]


def no_leak(state: State, salt: int) -> None:
    for seat in [None, *range(int(state["players"]))]:
        seen = GAME.view(state, seat)
        for k in range(2):
            assert GAME.view(GAME.redeal_hidden(state, seat, salt * 3 + k), seat) == seen
        if state["end"] is not None:
            shown_at_the_end(state, seen)
            continue
        for s, row in enumerate(seen["seats"]):
            own = s == seat and state["options"]["hand_play"] == "choice"
            assert (row["hand"]["cards"] is not None) == own
            assert row["kitty"]["cards"] is None
        hidden = set(state["zones"]["kitty"]) | {
            z for k in state["zones"]["collected_kitty"] for z in k
        }
        hidden |= {z for s, h in enumerate(state["zones"]["hand"]) if s != seat for z in h}
        if state["options"]["hand_play"] == "top":
            hidden |= {z for h in state["zones"]["hand"] for z in h}
        if state["options"]["collected"] == "face_down":
            hidden |= {z for c in state["zones"]["collected"] for z in c}
            assert all(s["collected"]["cards"] is None for s in seen["seats"])
        # the last round was played face up: its cards are named wherever they went
        assert not named_cards({**seen, "last_round": None}) & hidden


def round_trip(state: State) -> None:
    assert orjson.loads(orjson.dumps(state)) == state
    env = Envelope(GAME.info.slug, GAME.info.rules_version, "g", 1, state)
    assert SEALER.open(SEALER.seal(env), slug=GAME.info.slug, rules_version=2) == env


def playout(players: int, seed: int, bots: list[str], options: dict[str, Any], deep: int) -> State:
    state = GAME.setup(players, options, seed)
    playing = layout(state)
    model = Model(state)
    limit = state["options"]["round_limit"]
    moves = 0
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        move, state = GAME.bot_move(state, seat, bots[moves % len(bots)])
        before = state
        with moves_seen(players) as moved:
            state, events = GAME.apply(state, seat, move)
        GAME.check(state)
        conserved(state)
        layout_follows_play(GAME, state, playing, state["end"] is not None)
        follow(model, events)
        totals = [s["total"] for s in GAME.scores(state)["seats"]]
        if not state["zones"]["table"]:
            assert totals == model.counts()
        was, now = layout(before), layout(state)
        for viewer in [None, *range(players)]:  # events name only cards the viewer may see
            may_know = was.visible(before["zones"], viewer) | now.visible(state["zones"], viewer)
            # the last card of a round is played face up and collected face down at once
            may_know |= moved[viewer]
            if state["last_round"] != before["last_round"]:  # shown from now on
                assert named_cards(GAME.view(state, viewer)["last_round"]) <= may_know
            for event in events_for(events, viewer):
                assert not named_cards(event) - may_know
        if deep and moves % deep == 0:
            no_leak(state, moves)
            round_trip(state)
        moves += 1
        assert limit is None or model.rounds <= limit
    assert state["end"]["reason"] in ("seat_out", "round_limit", "cycle")
    assert model.rounds == state["end"]["round"]
    if state["end"]["reason"] == "round_limit":
        assert model.rounds == limit
    if state["end"]["reason"] == "seat_out":
        assert sorted(s for s, c in enumerate(model.counts()) if c == 0) == state["end"]["out"]
    outcome = GAME.outcome(state)
    best = max(model.counts())
    assert set(outcome.winners) == {s for s, c in enumerate(model.counts()) if c == best}
    for viewer in [None, *range(players)]:
        shown_at_the_end(state, GAME.view(state, viewer))
    round_trip(state)
    return state


OPTIONS = st.fixed_dictionaries(
    {
        "next_leader": st.sampled_from(["winner", "rotate"]),
        "hand_play": st.sampled_from(["choice", "top"]),
        "collected": st.sampled_from(["face_down", "face_up"]),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**63 - 1),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=1, max_size=3),
    options=OPTIONS,
    limit=st.sampled_from([None, 5, 40, 200]),
)
def test_every_game_conserves_the_cards_follows_the_rules_and_ends(
    players: int, seed: int, bots: list[str], options: dict[str, Any], limit: int | None
) -> None:
    # without a limit two or three seats may play thousands of rounds: keep those bounded
    if limit is None and players <= 3:
        limit = 1000
    playout(players, seed, bots, {**options, "round_limit": limit}, deep=0)


def test_deep_checks_at_every_player_count() -> None:
    for players in range(2, 7):
        for options in (
            {},
            {"hand_play": "top", "next_leader": "rotate"},
            {"collected": "face_up"},
        ):
            playout(players, players, ["greedy", "random"], {**options, "round_limit": 60}, 3)


def test_greedy_games_at_six_players_end_by_a_seat_running_out() -> None:
    reasons = {
        playout(6, seed, ["greedy"], {"round_limit": None}, deep=0)["end"]["reason"]
        for seed in range(20)
    }
    assert reasons == {"seat_out"}
