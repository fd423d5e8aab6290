"""What each seat sees, and what the bots choose."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from rules.core import RuleViolation
from rules.polymerization import GAME
from rules.polymerization.bots import THREAT_UNITS, threatened
from rules.polymerization.cards import face

from .polymerization_helpers import (
    A2,
    A3,
    COPO,
    CTA,
    FENTON,
    M1,
    M2,
    M3,
    N1,
    N3,
    S1,
    S2,
    S3,
    TEMPO,
    deal,
    drawn,
    next_draw,
    pass_turn,
    play,
)


def test_a_seat_sees_its_own_hand_every_chain_and_the_counts() -> None:
    state = deal([[FENTON[0], S1[0], S2[0]], [M1[0]]])
    state, _ = play(state, 0, {"type": "initiate", "card": FENTON[0], "monomers": [[S1[0], S2[0]]]})
    state = pass_turn(state, 1)
    mine, theirs, observer = GAME.view(state, 0), GAME.view(state, 1), GAME.view(state, None)
    assert mine["you"]["hand"]["count"] == len(mine["you"]["hand"]["cards"]) == 5
    assert M1[0] in [c["id"] for c in theirs["you"]["hand"]["cards"]]
    assert observer["you"] is None
    for view in (mine, theirs, observer):
        (shown,) = view["chains"]
        assert (shown["owner"], shown["state"], shown["units"]) == (0, "growing", 3)
        assert shown["accepts"] == [2, 3] and shown["ends"] == ["HO"]
        assert [c["id"] for c in shown["cards"]] == [FENTON[0], S1[0], S2[0]]
        assert view["stack"] == {"count": len(state["zones"]["stack"])}
        assert (
            view["discard"]["count"] == 1
            and view["discard"]["top"]["id"] == state["zones"]["discard"][-1]
        )
        assert [s["hand_count"] for s in view["seats"]] == [5, 5]
        assert view["seats"][0]["growing"] == [1]
        assert "deal" not in view["rules"] and view["rules"]["scoring"] == "monomers"
    # another seat's hand is a count only, to a seat and to an observer
    assert mine["seats"][1]["hand"] == {"count": 5, "cards": None}
    assert [s["hand"] for s in observer["seats"]] == [{"count": 5, "cards": None}] * 2
    assert mine["seats"][0]["hand"] == mine["you"]["hand"]


def test_views_and_legal_moves_for_a_seat_out_of_range() -> None:
    state = GAME.setup(2, {}, 1)
    for call in (lambda: GAME.view(state, 2), lambda: GAME.legal_moves(state, -1)):
        with pytest.raises(RuleViolation) as err:
            call()
        assert err.value.code == "seat_out_of_range"


def test_legal_moves_list_one_move_per_choice_of_faces() -> None:
    state = deal([[FENTON[0], FENTON[1], S1[0], S1[1], S2[0]], [M1[0]]])
    state = drawn(next_draw(state, N3[0]), 0)
    moves = GAME.legal_moves(state, 0)
    starts = [m for m in moves if m["type"] == "initiate"]
    # one fenton (lowest id) with: S1; S1 S1; S1 S2
    assert {str(m["monomers"]) for m in starts} == {
        str([[S1[0]]]),
        str([[S1[0], S1[1]]]),
        str([[S1[0], S2[0]]]),
    }
    assert all(m["card"] == FENTON[0] for m in starts)
    assert GAME.legal_moves(state, 1) == []


def test_random_bot_uses_the_games_random_state() -> None:
    state = drawn(GAME.setup(2, {}, 4), 0)
    move, after = GAME.bot_move(state, 0, "random")
    assert after["rng"] != state["rng"] and move in GAME.legal_moves(state, 0)
    assert GAME.bot_move(state, 0, "random")[0] == move  # replayable


def test_bots_refuse_unknown_names_and_seats_not_in_turn() -> None:
    state = GAME.setup(2, {}, 4)
    with pytest.raises(RuleViolation) as err:
        GAME.bot_move(state, 1, "greedy")
    assert err.value.code == "not_your_turn"
    with pytest.raises(RuleViolation) as err:
        GAME.bot_move(state, 0, "clever")
    assert err.value.code == "unknown_bot"


def long_chain(hand: list[int], other: list[int] | None = None) -> dict[str, Any]:
    """Seat 0 owns chain 1 of 6 units (styrene 1, 2, 3), seat 0 to play, drawn."""
    state = deal([[FENTON[0], S1[0], S2[0], S3[0], *hand], other or []])
    state, _ = play(state, 0, {"type": "initiate", "card": FENTON[0], "monomers": [[S1[0], S2[0]]]})
    state = pass_turn(state, 1)
    state, _ = play(state, 0, {"type": "propagate", "chain": 1, "cards": [S3[0]]})
    state = pass_turn(state, 1)
    return drawn(state, 0)


def test_greedy_secures_its_threatened_chain_with_a_cta() -> None:
    state = long_chain([CTA[0], N1[0], TEMPO[0], S3[1]])
    assert threatened(state, 0) is not None and THREAT_UNITS <= 6
    move, _ = GAME.bot_move(state, 0, "greedy")
    assert move["type"] == "transfer" and move["chain"] == 1


def test_greedy_caps_its_threatened_chain_when_tempo_is_all_it_has() -> None:
    state = long_chain([TEMPO[0], S3[1]])
    move, _ = GAME.bot_move(state, 0, "greedy")
    assert move == {"type": "cap", "card": TEMPO[0], "chain": 1}


def test_greedy_steals_the_most_valuable_chain() -> None:
    state = deal(
        [[COPO[0], A2[0], A3[0], FENTON[2], N1[0]], [FENTON[0], S1[0], S2[0], FENTON[1], M1[0]]]
    )
    state = pass_turn(state, 0)
    state, _ = play(state, 1, {"type": "initiate", "card": FENTON[0], "monomers": [[S1[0], S2[0]]]})
    state = pass_turn(state, 0)
    state, _ = play(state, 1, {"type": "initiate", "card": FENTON[1], "monomers": [[M1[0]]]})
    state = drawn(state, 0)
    move, _ = GAME.bot_move(state, 0, "greedy")
    # taking chain 1 (3 units) and adding the most units (3 + 3, its methyl methacrylate 3s)
    # beats taking chain 2 (1 unit) or starting a chain of its own
    assert move == {"type": "copolymerize", "card": COPO[0], "chain": 1, "monomers": [M3[3], M3[4]]}


def test_greedy_grows_its_own_chain_when_not_threatened() -> None:
    state = deal([[FENTON[0], S1[0], S2[0], S2[1], S3[0]], [M2[0]]])
    state, _ = play(state, 0, {"type": "initiate", "card": FENTON[0], "monomers": [[S1[0]]]})
    state = pass_turn(state, 1)
    state = drawn(state, 0)
    move, _ = GAME.bot_move(state, 0, "greedy")
    assert move["type"] == "propagate" and move["chain"] == 1 and len(move["cards"]) == 3


def test_greedy_discards_its_least_useful_card_when_it_cannot_grow() -> None:
    state = deal([[S3[0], TEMPO[0]], [M1[0]]], bare=(0,))
    state = drawn(next_draw(state, M2[0]), 0)
    assert state["zones"]["hand"][0] == sorted([S3[0], TEMPO[0], M2[0]])
    move, _ = GAME.bot_move(state, 0, "greedy")
    assert move == {"type": "discard", "card": S3[0]}  # keeps the joker and the lower value


# ------------------------------------------------------------ legal moves complete -----
def signature(move: dict[str, Any]) -> str:
    """A move with card ids replaced by their faces (identical copies are one choice)."""

    def show(card: int) -> tuple[str, str, int]:
        f = face(card)
        return (f.kind, f.key, f.value)

    out = dict(move)
    for key in ("card",):
        if key in out:
            out[key] = show(out[key])
    for key in ("cards", "monomers"):
        if key in out:
            out[key] = [[show(c) for c in x] if isinstance(x, list) else show(x) for x in out[key]]
    return repr(sorted(out.items()))


def brute_force(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every move of the right shape made of the seat's cards and the table's chains."""
    hand = state["zones"]["hand"][seat]
    monomers = [c for c in hand if face(c).kind == "monomer"]
    chains = [c["id"] for c in state["chains"]]
    runs: dict[str, list[int]] = {}
    for n in range(4):
        for seq in itertools.permutations(monomers, n):
            runs.setdefault(signature({"cards": list(seq)}), list(seq))
    sequences = list(runs.values())
    moves: list[dict[str, Any]] = [{"type": "discard", "card": c} for c in hand]
    for card in hand:
        kind = face(card).kind
        rest = [s for s in sequences if card not in s]
        if kind == "initiator":
            moves += [{"type": "initiate", "card": card, "monomers": [s]} for s in rest if s]
            moves += [
                {"type": "initiate", "card": card, "monomers": [[a], [b]]}
                for a in monomers
                for b in monomers
                if a != b
            ]
        for chain_id in chains:
            if kind == "tempo":
                moves.append({"type": "cap", "card": card, "chain": chain_id})
            if kind in ("cta", "copolymer"):
                verb = "transfer" if kind == "cta" else "copolymerize"
                moves += [
                    {"type": verb, "card": card, "chain": chain_id, "monomers": s}
                    for s in rest
                    if 1 <= len(s) <= 2
                ]
            if kind == "termination":
                moves += [
                    {
                        "type": "terminate",
                        "card": card,
                        "chains": [chain_id, other],
                        "mechanism": mechanism,
                    }
                    for other in chains
                    for mechanism in ("combination", "disproportionation")
                ]
    for chain_id in chains:
        moves += [{"type": "propagate", "chain": chain_id, "cards": s} for s in sequences]
        moves += [{"type": "reactivate", "chain": chain_id, "cards": s} for s in sequences]
    return moves


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (1, {}),
        (2, {"propagation": "meld"}),
        (3, {"aibn_single_start": True, "termination_mechanism": "either"}),
        (4, {"termination_scope": "any"}),
        (5, {"termination_scope": "own", "decks": 1}),
    ],
)
def test_legal_moves_are_every_legal_choice(seed: int, options: dict[str, Any]) -> None:
    """Brute force: every move of the right shape that verify accepts is listed (up to
    identical copies), and nothing else."""
    state = GAME.setup(2 + seed % 3, options, seed)
    checked = 0
    moves = 0
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        if state["phase"] == "play" and moves % 5 == 0:
            listed = {signature(m) for m in GAME.legal_moves(state, seat)}
            legal = {signature(m) for m in brute_force(state, seat) if GAME.can(state, seat, m)}
            assert listed == legal, listed ^ legal
            checked += 1
        move, state = GAME.bot_move(state, seat, "greedy" if moves % 3 else "random")
        state, _ = GAME.apply(state, seat, move)
        moves += 1
    assert checked > 5
