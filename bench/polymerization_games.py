"""In-process full games of the polymer-chain game per second, and deck statistics.

    .venv/bin/python -m bench.polymerization_games [--games N] [--players P]
    .venv/bin/python -m bench.polymerization_games --stats [--games N]

Plays whole games through the rules API (bot_move + apply, as the service does),
with greedy bots and with random bots. ``--stats`` plays greedy games at 2, 3 and 4
players and reports what the deck design is checked against (docs/rules/
polymerization.md, "The deck"): how often a start is blocked for want of a value-1
monomer, how many jokers are played, chains taken, how games end.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from rules.polymerization import GAME
from rules.polymerization.cards import INITIATOR, MONOMER, face


def stats(players: int, games: int, bots: list[str], options: dict[str, Any]) -> dict[str, Any]:
    c: Counter[str] = Counter()
    for seed in range(games):
        state = GAME.setup(players, options, seed)
        for dealt in state["zones"]["hand"]:
            faces = [face(x) for x in dealt]
            if any(f.kind == INITIATOR for f in faces) and not any(
                f.kind == MONOMER and f.value == 1 for f in faces
            ):
                c["deal_blocked"] += 1
        moves = 0
        while to_act := GAME.to_act(state):
            seat = to_act[0]
            if state["phase"] == "play":
                c["turns"] += 1
                hand = [face(x) for x in state["zones"]["hand"][seat]]
                has_init = any(f.kind == INITIATOR for f in hand)
                ones = sum(1 for f in hand if f.kind == MONOMER and f.value == 1)
                if has_init and ones == 0:
                    c["turns_initiator_without_one"] += 1
                if has_init:
                    c["turns_with_initiator"] += 1
                mine = [x for x in state["chains"] if x["owner"] == seat]
                if any(x["state"] == "growing" for x in mine):
                    c["turns_with_growing_chain"] += 1
                kinds = {m["type"] for m in GAME.legal_moves(state, seat)}
                if kinds == {"discard"}:
                    c["turns_only_discard"] += 1
            move, state = GAME.bot_move(state, seat, bots[moves % len(bots)])
            state, events = GAME.apply(state, seat, move)
            moves += 1
            for e in events:
                kind = e["type"]
                c[f"event_{kind}"] += 1
                if kind == "card_discarded":
                    f = face(e["cards"][0]["id"])
                    c[f"discarded_{f.kind}"] += 1
                if kind == "termination":
                    c[f"termination_{e['mechanism']}"] += 1
                if kind == "initiation":
                    c["chains_initiated"] += len(e["chains"])
        c["moves"] += moves
        c[f"end_{state['end_reason']}"] += 1
        table = GAME.scores(state)["seats"]
        best = max(t["monomers"] for t in table)
        c["winner_monomers"] += best
        c["seats_scoring_zero"] += sum(1 for t in table if t["monomers"] == 0)
        c["terminated_chains"] += sum(len(t["chains"]) for t in table)
        c["terminated_units"] += sum(t["monomers"] for t in table)
        c["left_growing"] += sum(1 for ch in state["chains"] if ch["state"] == "growing")
        c["left_capped"] += sum(1 for ch in state["chains"] if ch["state"] == "capped")
    g = games
    jokers = (
        c["event_tempo_capping"]
        + c["event_chain_transfer"]
        + c["event_copolymerization"]
        + c["event_termination"]
    )
    return {
        "players": players,
        "turns/game": c["turns"] / g,
        "dealt initiator, no 1 %": 100 * c["deal_blocked"] / (g * players),
        "initiator, no 1 % (turns)": 100
        * c["turns_initiator_without_one"]
        / max(1, c["turns_with_initiator"]),
        "growing chain % of turns": 100 * c["turns_with_growing_chain"] / max(1, c["turns"]),
        "only discard % of turns": 100 * c["turns_only_discard"] / max(1, c["turns"]),
        "chains started/game": (c["chains_initiated"] + c["event_chain_transfer"]) / g,
        "jokers played/game": jokers / g,
        "  termination": c["event_termination"] / g,
        "  CTA": c["event_chain_transfer"] / g,
        "  TEMPO": c["event_tempo_capping"] / g,
        "  copolymer": c["event_copolymerization"] / g,
        "chains taken/game": c["event_chain_taken"] / g,
        "terminated chains/game": c["terminated_chains"] / g,
        "units per terminated chain": c["terminated_units"] / max(1, c["terminated_chains"]),
        "winner's monomers": c["winner_monomers"] / g,
        "seats scoring 0 %": 100 * c["seats_scoring_zero"] / (g * players),
        "discards % of rounds": 100 * c["event_card_discarded"] / max(1, c["turns"]),
        "chains left growing/game": c["left_growing"] / g,
        "ended by empty hand %": 100 * c["end_hand_emptied"] / g,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--stats", action="store_true", help="deck statistics instead of speed")
    args = parser.parse_args()
    if args.stats:
        rows = [stats(p, args.games, ["greedy"], {}) for p in (2, 3, 4)]
        print(f"greedy bots, {args.games} games per player count, default options")
        for key in rows[0]:
            print(f"{key:28}" + "".join(f"{row[key]:>9.1f}" for row in rows))
        return
    from .games import measure

    measure("polymerization", args.players, args.games, {})


if __name__ == "__main__":
    main()
