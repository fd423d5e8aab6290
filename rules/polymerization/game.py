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
    Dynamics,
    GameInfo,
    GameRules,
    Move,
    Option,
    RuleViolation,
    State,
    check_deal_shape,
    check_players,
    check_seat,
    is_int,
    resolve_options,
)
from rules.rng import choice, new_rng, shuffled

from .bots import choose
from .cards import DECK_SIZE, MAX_DECKS, MONOMER, all_ids, card_json, deck_listing, face
from .chains import CAPPED, GROWING, PROPAGATION_MODES, STATES, TERMINATED, chain_view
from .effects import apply
from .layout import LAYOUT
from .moves import legal_moves, parse_move, verify
from .scoring import RANKING, SCORING, outcome, scores
from .seed import DEAL as SEED_DEAL

HAND_SIZES: Mapping[int, int] = {2: 15, 3: 13, 4: 11}

CODES: Mapping[str, str] = {
    "not_your_turn": "Another seat is to play; wait for your turn.",
    "draw_first": "A turn starts by taking a card from the stack (move 'draw').",
    "already_drawn": "You have drawn this turn; play a round or discard.",
    "stack_empty": "The stack is empty: there is nothing to draw.",
    "not_in_hand": "A card named in the move is not in your hand.",
    "card_repeated": "The same card is named twice in one move.",
    "wrong_card": "A card is not of the kind this move needs (initiator, monomer, joker).",
    "too_many_cards": "A round uses at most three cards.",
    "monomer_needed": "The move needs at least one monomer card.",
    "value_one_needed": "A new chain starts with a monomer of value 1.",
    "radical_count": "A single-radical initiator starts one chain; AIBN starts two.",
    "wrong_monomer": "A chain grows with one monomer until a copolymer card changes it.",
    "breaks_sequence": "The monomers' values do not follow the chain (pair, triplet, series).",
    "no_such_chain": "There is no chain with that id on the table.",
    "not_your_chain": "The move is only allowed on your own chains.",
    "chain_capped": "The chain is capped with TEMPO: dormant, it cannot grow or be taken.",
    "chain_terminated": "The chain is terminated: it can no longer be changed or taken.",
    "chain_not_capped": "Only a chain capped with TEMPO can be reactivated.",
    "same_monomer": "The copolymer card changes a chain to a different monomer.",
    "two_chains_needed": "Termination takes exactly two different growing chains.",
    "own_chain_needed": "One of the two chains a termination joins must be yours.",
    "wrong_mechanism": "The termination card is printed with the other mechanism.",
}

OPTIONS = (
    Option(
        "decks",
        "int",
        2,
        "How many of the two identical 55-card decks are shuffled together: 2 (the seed's "
        "set, 110 cards) or 1 (a shorter game).",
        choices=(1, 2),
    ),
    Option(
        "deal",
        "list[list[int]] | null",
        None,
        "Fix the hands: one list of card ids per seat (any sizes, no card twice); the other "
        "cards are shuffled into the stack. For lessons and tests; null deals 15/13/11.",
    ),
    Option(
        "propagation",
        "str",
        "follow",
        "What may follow what. 'follow': each monomer card has the value of the card before "
        "it (a pair or triplet, never four in a row) or the next of the series 1, 2, 3 "
        "(after 3 comes 1). 'meld': the cards of one round, on their own, are one card, a "
        "pair or triplet of one value, or an ascending series (1-2, 2-3, 1-2-3).",
        choices=PROPAGATION_MODES,
    ),
    Option(
        "units_per_card",
        "str",
        "value",
        "What a monomer card counts as: 'value' (a card of value v is v repeat units, the "
        "number of monomers of a chain is the sum of its values) or 'one' (each card is "
        "one monomer; the value only governs play).",
        choices=("value", "one"),
    ),
    Option(
        "aibn_single_start",
        "bool",
        False,
        "Let AIBN start a single chain too (one of its two radicals is lost). The seed's "
        "AIBN starts two chains.",
    ),
    Option(
        "termination_scope",
        "str",
        "mine_and_any",
        "Which two growing chains a termination card may join: 'mine_and_any' (one of yours "
        "and any other, an opponent's being taken), 'own' (both yours) or 'any'.",
        choices=("mine_and_any", "own", "any"),
    ),
    Option(
        "termination_mechanism",
        "str",
        "printed",
        "'printed': each termination card is combination or disproportionation as printed; "
        "'either': any termination card may be played either way.",
        choices=("printed", "either"),
    ),
    Option(
        "capped_count",
        "bool",
        False,
        "Count TEMPO-capped (dormant) chains at the end as if terminated. By default only "
        "terminated chains count.",
    ),
    Option(
        "end",
        "str",
        "immediate",
        "When a player empties its hand: 'immediate' (the game ends at once, as the seed "
        "says) or 'equal_turns' (the turns go on to the last seat of the lap, so that every "
        "seat has played as many turns).",
        choices=("immediate", "equal_turns"),
    ),
    Option(
        "empty_stack",
        "str",
        "play_on",
        "When the stack is empty: 'play_on' (turns go on without drawing until a hand is "
        "empty) or 'end' (the game ends when a seat should draw and cannot).",
        choices=("play_on", "end"),
    ),
    Option(
        "scoring",
        "str",
        "monomers",
        "'monomers': the number of monomers in your terminated chains; 'molar_mass': Mn and "
        "PDI of your terminated chains, ranked by `ranking`.",
        choices=SCORING,
    ),
    Option(
        "ranking",
        "str",
        "mn_then_pdi",
        "With molar_mass scoring: 'mn_then_pdi' (higher Mn wins, lower PDI breaks a tie), "
        "'pdi_then_mn' (lower PDI wins, higher Mn breaks a tie) or 'pareto' (a player "
        "beaten on neither Mn nor PDI shares first place).",
        choices=RANKING,
    ),
    Option(
        "end_groups",
        "bool",
        False,
        "Add the end groups (initiator fragments, H, TEMPO...) to each chain's molar mass "
        "Mi. By default Mi is the repeat units' mass only.",
    ),
)

INFO = GameInfo(
    slug="polymerization",
    title="Polymerization: the polymer-chain game",
    seed_file="004_ab56cc3f959f1e78.txt",
    min_players=2,
    max_players=4,
    dynamics=Dynamics.TURN_BASED,
    has_chance=True,
    rules_version=1,
    summary="Start radical polymer chains with initiators, grow them with monomer cards, "
    "secure or steal them with termination, CTA, TEMPO and copolymer jokers; terminated "
    "chains score by monomers or by Mn and PDI.",
    options=OPTIONS,
    player_counts={
        p: {"hand_size": h, "deck_size": DECK_SIZE * MAX_DECKS} for p, h in HAND_SIZES.items()
    },
    codes=CODES,
)


# ---------------------------------------------------------------- setup ------------
def _check_options(opts: dict[str, Any]) -> None:
    for option in OPTIONS:
        value = opts[option.name]
        if option.kind == "bool" and not isinstance(value, bool):
            raise RuleViolation(
                "bad_option", f"{option.name} must be true or false, not {value!r}."
            )
        if option.choices and (isinstance(value, bool) or value not in option.choices):
            raise RuleViolation(
                "bad_option",
                f"{option.name} must be one of {list(option.choices)}, not {value!r}.",
            )


def _check_deal(deal: object, players: int, decks: int) -> list[list[int]]:
    hands = check_deal_shape(deal, players, equal=False, rule=SEED_DEAL)
    top = DECK_SIZE * decks
    seen: set[int] = set()
    for s, cards in enumerate(hands):
        for card in cards:
            if not is_int(card) or not 1 <= card <= top:
                raise RuleViolation(
                    "bad_deal", f"deal[{s}] has {card!r}; card ids run from 1 to {top}."
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
    _check_options(opts)
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
def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (or an observer) sees: its own hand, every chain, the counts, the
    discard top; never another hand, the stack's order or the cards under the top."""
    if seat is not None:
        check_seat(state, seat)
    players = int(state["players"])
    opts = state["options"]
    zones = state["zones"]
    per_card, mode = opts["units_per_card"], opts["propagation"]
    chains = [chain_view(c, per_card, mode) for c in state["chains"]]
    seats = []
    for s in range(players):
        mine = [c for c in chains if c["owner"] == s]
        seats.append(
            {
                "seat": s,
                "hand_count": len(zones["hand"][s]),
                "growing": [c["id"] for c in mine if c["state"] == GROWING],
                "capped": [c["id"] for c in mine if c["state"] == CAPPED],
                "terminated": [c["id"] for c in mine if c["state"] == TERMINATED],
                "monomers": sum(c["units"] for c in mine if c["state"] == TERMINATED),
            }
        )
    discard = zones["discard"]
    out: dict[str, Any] = {
        "game": INFO.slug,
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
        "seats": seats,
        "rules": {k: v for k, v in opts.items() if k != "deal"},
        "you": None,
    }
    if seat is not None:
        mine = zones["hand"][seat]
        out["you"] = {
            "seat": seat,
            "hand": {"count": len(mine), "cards": [card_json(c) for c in mine]},
        }
    return out


# ---------------------------------------------------------------- bots -------------
def bot_move(state: State, seat: int, bot: str) -> tuple[Move, State]:
    if bot not in INFO.bots:
        raise RuleViolation("unknown_bot", f"No bot {bot!r}; choose one of {list(INFO.bots)}.")
    legal = legal_moves(state, seat)
    if not legal:
        verify(state, seat, {"type": "draw"})  # raises why this seat has nothing to do
        raise AssertionError("a seat in turn always has a move")  # pragma: no cover
    if bot == "random":
        rng, move = choice(state["rng"], legal)
        return move, {**state, "rng": rng}
    return choose(state, seat, legal), state


# ---------------------------------------------------------------- invariants -------
def check(state: State) -> None:
    """Cards conserved (every card in one place, chains hold exactly the table and the
    set-aside cards), chains well formed, phase and turn consistent."""
    problems: list[str] = []
    players = int(state["players"])
    zones = state["zones"]
    decks = int(state["options"]["decks"])
    problems += LAYOUT.conservation_problems(zones, all_ids(decks))
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
    if problems:
        raise RuleViolation("state_invalid", "; ".join(problems))


def redeal_hidden(state: State, seat: int | None, seed: int) -> State:
    zones, rng = LAYOUT.redeal_hidden(state["zones"], seat, new_rng(seed))
    return {**state, "zones": zones, "rng": rng}


def deck() -> list[dict[str, Any]]:
    return deck_listing()


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
