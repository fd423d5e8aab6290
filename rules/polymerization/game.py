"""The polymer-chain game: initiators, monomers, jokers, Mn / Mw / PDI.

Players grow radical polymer chains from initiator and monomer cards, protect them
(TEMPO, termination, chain transfer) and take each other's growing chains with
jokers; only terminated chains score, by the number of monomers or by Mn and PDI.

>>> state = GAME.setup(2, {}, seed=1)
>>> len(state["zones"]["hand"][0]), len(state["zones"]["stack"])
(15, 80)
>>> state, events = GAME.apply(state, 0, {"type": "draw"})
>>> [e["type"] for e in events], state["phase"], GAME.to_act(state)
(['card_drawn'], 'play', [0])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import (
    Code,
    Dynamics,
    GameInfo,
    GameRules,
    Move,
    RuleViolation,
    Source,
    State,
    check_deal_shape,
    check_players,
    check_seat,
    options_of,
    resolve_options,
)
from rules.rng import new_rng, shuffled
from rules.shapes import quote
from rules.wire import Wire

from . import wire
from .bots import choose
from .cards import DECK_SIZE, MAX_DECKS, MONOMER, all_ids, deck_listing, face
from .chains import CAPPED, GROWING, STATES, TERMINATED
from .layout import LAYOUT, layout
from .moves import ACTIONS, EVENTS, FUNCTIONS
from .scoring import counted, mn_mw_pdi, outcome, scores
from .seed import DEAL as SEED_DEAL
from .shown import card_json, chain_view, initiator_table, monomer_table

HAND_SIZES: Mapping[int, int] = {2: 15, 3: 13, 4: 11}

CODES: Mapping[str, Code] = {
    "not_your_turn": Code.turn("Another seat is to play; wait for your turn."),
    "draw_first": Code.move("A turn starts by taking a card from the stack (move 'draw')."),
    "already_drawn": Code.move("You have drawn this turn; play a round or discard."),
    "stack_empty": Code.move("The stack is empty: there is nothing to draw."),
    "not_in_hand": Code.move("A card named in the move is not in your hand."),
    "card_repeated": Code.move("The same card is named twice in one move."),
    "wrong_card": Code.move(
        "A card is not of the kind this move needs (initiator, monomer, joker)."
    ),
    "too_many_cards": Code.move("A round uses at most three cards."),
    "monomer_needed": Code.move("The move needs at least one monomer card."),
    "value_one_needed": Code.move("A new chain starts with a monomer of value 1."),
    "radical_count": Code.move("A single-radical initiator starts one chain; AIBN starts two."),
    "wrong_monomer": Code.move("A chain grows with one monomer until a copolymer card changes it."),
    "breaks_sequence": Code.move(
        "The monomers' values do not follow the chain (pair, triplet, series)."
    ),
    "no_such_chain": Code.move("There is no chain with that id on the table."),
    "not_your_chain": Code.move("The move is only allowed on your own chains."),
    "chain_capped": Code.move(
        "The chain is capped with TEMPO: dormant, it cannot grow or be taken."
    ),
    "chain_terminated": Code.move("The chain is terminated: it can no longer be changed or taken."),
    "chain_not_capped": Code.move("Only a chain capped with TEMPO can be reactivated."),
    "same_monomer": Code.move("The copolymer card changes a chain to a different monomer."),
    "two_chains_needed": Code.move("Termination takes exactly two different growing chains."),
    "own_chain_needed": Code.move("One of the two chains a termination joins must be yours."),
    "wrong_mechanism": Code.move("The termination card is printed with the other mechanism."),
}

INFO = GameInfo(
    slug="polymerization",
    title="Polymerization: the polymer-chain game",
    seed_file="004_ab56cc3f959f1e78.txt",
    source=Source(
        title=None,
        publisher=None,
        origin=(
            "Untitled rules (GOAL, THE CARDS, STARTING THE GAME ... SCORING) for a card game of "
            "radical polymerisation played with two decks of 55 cards; their card pictures are "
            "missing and they name no title, author or publisher."
        ),
    ),
    min_players=2,
    max_players=4,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=1,
    summary="Start radical polymer chains with initiators, grow them with monomer cards, "
    "secure or steal them with termination, CTA, TEMPO and copolymer jokers; terminated "
    "chains score by monomers or by Mn and PDI.",
    options=options_of(wire.Options),
    player_counts={
        p: {"hand_size": h, "deck_size": DECK_SIZE * MAX_DECKS} for p, h in HAND_SIZES.items()
    },
    codes=CODES,
)

WIRE = Wire(
    options=wire.Options,
    moves=ACTIONS.shapes,
    view=wire.View,
    scores=wire.Scores,
    events=EVENTS,
    card=wire.DeckCard,
    example={
        "players": 2,
        "options": {"deal": [[41, 1, 5, 8, 46, 31], [42, 11, 15, 52, 49, 21]]},
        "seed": 1,
    },
)


# ---------------------------------------------------------------- setup ------------
def _check_deal(deal: object, players: int, decks: int) -> list[list[int]]:
    hands = check_deal_shape(deal, players, equal=False, rule=SEED_DEAL)
    top = DECK_SIZE * decks
    seen: set[int] = set()
    for s, cards in enumerate(hands):
        for card in cards:
            if not 1 <= card <= top:  # the declaration allows two decks' ids
                raise RuleViolation(
                    "bad_deal", f"deal[{s}] has {quote(card)}; card ids run from 1 to {top}."
                )
            if card in seen:
                raise RuleViolation("bad_deal", f"Card {card} is dealt twice.")
            seen.add(card)
    if len(seen) >= top:
        raise RuleViolation("bad_deal", "A deal must leave cards for the stack.")
    return [sorted(h) for h in hands]


def setup(players: int, options: Mapping[str, Any], seed: int) -> State:
    players = check_players(INFO, players)
    opts = resolve_options(INFO, options)
    decks = int(opts["decks"])
    rng = new_rng(seed)
    if opts["deal"] is not None:
        hands = _check_deal(opts["deal"], players, decks)
        dealt = {c for h in hands for c in h}
        rng, stack = shuffled(rng, [c for c in all_ids(decks) if c not in dealt])
        opts["deal"] = hands
    else:
        size = HAND_SIZES[players]
        rng, order = shuffled(rng, list(all_ids(decks)))
        hands = [order[s * size : (s + 1) * size] for s in range(players)]
        stack = order[players * size :]
    return {
        "players": players,
        "options": opts,
        "rng": rng,
        "zones": LAYOUT.deal(players, stack=stack, hand=hands),
        "chains": [],
        "next_chain": 1,
        "turn": 0,
        "phase": "draw",
        "turns": 0,
        "ending": None,
        "end_reason": None,
    }


# ---------------------------------------------------------------- turns ------------
def to_act(state: State) -> list[int]:
    return [] if state["phase"] == "over" else [int(state["turn"])]


# ---------------------------------------------------------------- views ------------
def _seat_view(state: State, s: int, seat: int | None, chains: list[wire.Chain]) -> wire.SeatView:
    """Seat ``s`` as ``seat`` sees it (its hand's cards only where ``seat`` may)."""
    opts = state["options"]
    zones = state["zones"]
    mine = [c for c in chains if c["owner"] == s]
    # Mn, Mw and PDI as play goes, of the chains /scores counts, from their Mi
    scored = [c for c in mine if counted(c, opts["capped_count"])]
    mn, mw, pdi = mn_mw_pdi([c["mi"] for c in scored])
    hand = zones["hand"][s]
    seen = layout(state).can_see(("hand", s), seat)
    return {
        "seat": s,
        "hand_count": len(hand),
        "hand": {"count": len(hand), "cards": [card_json(c) for c in hand] if seen else None},
        "growing": [c["id"] for c in mine if c["state"] == GROWING],
        "capped": [c["id"] for c in mine if c["state"] == CAPPED],
        "terminated": [c["id"] for c in mine if c["state"] == TERMINATED],
        "monomers": sum(c["units"] for c in mine if c["state"] == TERMINATED),
        "counted": [c["id"] for c in scored],
        "mn": mn,
        "mw": mw,
        "pdi": pdi,
    }


def _rules(opts: Mapping[str, Any]) -> wire.Rules:
    """The options the game was set up with, but a fixed deal."""
    return {
        "decks": opts["decks"],
        "propagation": opts["propagation"],
        "units_per_card": opts["units_per_card"],
        "aibn_single_start": opts["aibn_single_start"],
        "termination_scope": opts["termination_scope"],
        "termination_mechanism": opts["termination_mechanism"],
        "capped_count": opts["capped_count"],
        "end": opts["end"],
        "empty_stack": opts["empty_stack"],
        "scoring": opts["scoring"],
        "ranking": opts["ranking"],
        "end_groups": opts["end_groups"],
    }


def view(state: State, seat: int | None) -> wire.View:
    """What ``seat`` (or an observer) sees: its own hand, every chain, the counts, the
    discard top; never the stack's order or the cards under the top, nor another hand
    before the game is over. Built as the declared ``View`` (mypy checks every member)."""
    if seat is not None:
        check_seat(state, seat)
    players = int(state["players"])
    opts = state["options"]
    zones = state["zones"]
    per_card, mode = opts["units_per_card"], opts["propagation"]
    chains = [chain_view(c, per_card, mode, opts["end_groups"]) for c in state["chains"]]
    discard = zones["discard"]
    you: wire.You | None = None
    if seat is not None:
        mine = zones["hand"][seat]
        you = {
            "seat": seat,
            "hand": {"count": len(mine), "cards": [card_json(c) for c in mine]},
        }
    return {
        "game": "polymerization",
        "players": players,
        "turn": state["turn"],
        "phase": state["phase"],
        "turns_played": state["turns"],
        "finished": state["phase"] == "over",
        "end_reason": state["end_reason"],
        "hand_emptied_by": state["ending"],
        "stack": {"count": len(zones["stack"])},
        "discard": {
            "count": len(discard),
            "top": card_json(discard[-1]) if discard else None,
        },
        "chains": chains,
        "seats": [_seat_view(state, s, seat, chains) for s in range(players)],
        "monomers": monomer_table(),
        "initiators": initiator_table(),
        "rules": _rules(opts),
        "you": you,
    }


# ---------------------------------------------------------------- bots -------------
def greedy(state: State, seat: int, legal: list[Move]) -> tuple[Move, State]:
    return choose(state, seat, legal), state


# ---------------------------------------------------------------- invariants -------
def invariants(state: State) -> list[str]:
    """Chains hold exactly the table and the set-aside cards and are well formed; phase
    and turn agree (that every card is in one place comes from the layout)."""
    problems: list[str] = []
    players = int(state["players"])
    zones = state["zones"]
    on_table: list[int] = []
    aside: list[list[int]] = [[] for _ in range(players)]
    ids = [c["id"] for c in state["chains"]]
    if len(set(ids)) != len(ids) or any(i >= state["next_chain"] for i in ids):
        problems.append("chain ids repeat or run ahead of next_chain")
    for chain in state["chains"]:
        cards = chain["cards"]
        if chain["state"] not in STATES or not 0 <= chain["owner"] < players:
            problems.append(f"chain {chain['id']} has a bad state or owner")
            continue
        if not any(face(c).kind == MONOMER for c in cards):
            problems.append(f"chain {chain['id']} has no monomer")
        if chain["state"] == TERMINATED:
            aside[chain["owner"]] += cards
        else:
            on_table += cards
    if sorted(on_table) != list(zones["table"]):
        problems.append("the table's cards are not exactly those of the chains on it")
    for s in range(players):
        if sorted(aside[s]) != list(zones["set_aside"][s]):
            problems.append(f"seat {s}'s set-aside cards are not those of its terminated chains")
    phase = state["phase"]
    if phase not in ("draw", "play", "over") or not 0 <= state["turn"] < players:
        problems.append("bad phase or turn")
    if phase == "draw" and not zones["stack"]:
        problems.append("a draw step with an empty stack")
    if phase != "over" and state["ending"] is None and not all(zones["hand"]):
        problems.append("a hand is empty but the game goes on")
    return problems


# The random bot, the card-conservation check and redeal_hidden come from the layout
# and the actions.
GAME = GameRules(
    info=INFO,
    wire=WIRE,
    setup=setup,
    to_act=to_act,
    view=view,
    scores=scores,
    outcome=outcome,
    **FUNCTIONS,
    bots={"greedy": greedy},
    cards=lambda state: all_ids(int(state["options"]["decks"])),
    invariants=invariants,
    deck=deck_listing,
    layout=layout,
)
