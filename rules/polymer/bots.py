"""Polymer bots. Each move happens a little later than the last (a think time drawn
from the game's generator), so a table of bots runs the clock down and ends.

A bot always answers with a move that is legal at the state's time (``now_ms``),
which is how the service plays it (at its own clock). When the think time would end
at or after the deadline, the bot thinks faster and acts in the last millisecond
before it (``at = deadline - 1``); only when that millisecond is all that is left
does it wait for the end, answering ``time_up`` at the deadline (Polymer has no
"pass"; on a logical clock that move is how a table of bots ends the game). Before
the start a bot declares its seat ready; for a seat that already is, it answers why
it has no move (``already_ready``), as it does for a seat with nothing to do
(``no_move``) and once time is up (``timer_expired``).

On the service's clock a bot seat thinks a drawn time between two of its moves
(:func:`pace`), and answers what comes to it (an offer, a loan called in) a drawn
think time after it came (:func:`answers`), whatever it did before.

* ``random``: a uniformly random legal move (it repays when called: nothing else is legal).
* ``trading`` (also served as ``greedy``): asks its neighbours for a card that
  lengthens its longest pattern, giving a card its best arrangement does not use;
  accepts offers that make its best arrangement stronger and declines the rest;
  lends a spare card now and then and calls its loans in during the last fifth of
  the time; repays a called loan with the cards it needs least.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from rules.core import Move, RuleViolation, State, left_of, right_of
from rules.rng import RngState, choice, randbelow

from .cards import FACES, card_code, face_of
from .moves import can, legal_moves, matching_give, verify
from .patterns import best_arrangement, longest_possible
from .settle import returned_cards, strength
from .table import blocking_loans, time_is_up, to_act

BOTS = ("random", "greedy", "trading")
THINK_MS = (200, 2000)
"""The think time of a bot on the rules' own logical clock (``choose``)."""
BOT_THINK_MS = (1500, 4000)
"""The service's bot seats' think time on the server's clock, unless the option says."""


def pace(state: State, seat: int, moves: int) -> int:
    """How long (ms) bot seat ``seat`` thinks before its next move on the server's clock,
    after ``moves`` moves of the game: drawn between the options ``bot_think_min_ms``
    and ``bot_think_max_ms`` from the game's own generator key (so a seed replays the
    same waits), without advancing the generator (a wait is drawn whether or not the
    bot had anything to do).

    >>> from rules.rng import new_rng
    >>> options = {"bot_think_min_ms": 1000, "bot_think_max_ms": 1200}
    >>> state = {"options": options, "rng": new_rng(3)}
    >>> waits = [pace(state, 1, n) for n in range(50)]
    >>> 1000 <= min(waits) < max(waits) <= 1200, pace(state, 1, 7) == waits[7]
    (True, True)
    """
    return _think_ms(state, f"pace:{seat}:{moves}")


def answers(state: State, seat: int) -> list[tuple[str, int]]:
    """What waits for bot seat ``seat``'s answer, in the order it answers (a called loan
    before anything else, then the offers made to it, oldest first): each a key and the
    earliest time (ms, the server's clock) it answers: when it came (the call, the
    offer) plus a think time drawn as :func:`pace` draws, for this seat and this key
    (as :func:`choose` does, faster when that would end at or after the deadline: in
    its last millisecond). So a bot answers an offer a person's think time after the
    offer, whatever it did before.

    >>> from rules.rng import new_rng
    >>> state = {"phase": "trading", "options": {"bot_think_min_ms": 1000,
    ...     "bot_think_max_ms": 1200}, "rng": new_rng(3), "loans": [], "offers": [
    ...     {"id": 4, "from": 0, "to": 1, "at_ms": 50_000}], "deadline_ms": 90_000}
    >>> [(key, 51_000 <= at <= 51_200) for key, at in answers(state, 1)], answers(state, 2)
    ([('offer:4', True)], [])
    >>> answers({**state, "deadline_ms": 50_500}, 1)
    [('offer:4', 50499)]
    """
    if state["phase"] != "trading":
        return []
    waiting: list[tuple[str, int]] = []
    for loan in blocking_loans(state, seat):
        called = int(loan.get("called_ms", loan["at_ms"]))  # a call saved before it was timed
        waiting.append((f"call:{loan['id']}:{called}", called))
    waiting += [(f"offer:{o['id']}", int(o["at_ms"])) for o in state["offers"] if o["to"] == seat]
    deadline = state["deadline_ms"]
    out = []
    for key, at in waiting:
        ready = at + _think_ms(state, f"answer:{seat}:{key}")
        if deadline is not None and ready >= int(deadline):
            ready = max(at, int(deadline) - 1)  # it thinks faster: it answers in time
        out.append((key, ready))
    return out


def _think_ms(state: State, label: str) -> int:
    """A think time between the options ``bot_think_min_ms`` and ``bot_think_max_ms``,
    drawn for ``label`` from the game's generator key (without advancing it)."""
    options = state["options"]
    least = options.get("bot_think_min_ms", BOT_THINK_MS[0])
    most = options.get("bot_think_max_ms", BOT_THINK_MS[1])
    digest = hashlib.blake2b(
        label.encode(), key=bytes.fromhex(state["rng"]["key"]), digest_size=8
    ).digest()
    return int(least) + int.from_bytes(digest, "big") % (int(most) - int(least) + 1)


def _think(state: State) -> tuple[RngState, int]:
    """When the bot acts: after a drawn think time, but before the deadline."""
    rng, extra = randbelow(state["rng"], THINK_MS[1] - THINK_MS[0])
    at = int(state["now_ms"]) + THINK_MS[0] + extra
    deadline = state["deadline_ms"]
    if deadline is not None and at >= int(deadline):
        at = max(int(state["now_ms"]), int(deadline) - 1)
    return rng, at


def choose(state: State, seat: int, bot: str) -> tuple[Move, State]:
    if bot not in BOTS:
        raise RuleViolation("unknown_bot", f"There is no bot {bot!r}; choose one of {list(BOTS)}.")
    if state["phase"] == "ended":
        verify(state, seat, {"type": "time_up"})  # raises: the game is over
    if state["phase"] == "waiting":
        verify(state, seat, {"type": "ready"})  # raises for a seat already ready
        return {"type": "ready"}, state
    now = int(state["now_ms"])
    if time_is_up(state, now) or time_is_up(state, now + 1):
        # no time left to act in: wait for the end (the only move that is, or is about
        # to be, legal)
        return {"type": "time_up", "at": max(now, int(state["deadline_ms"]))}, state
    if seat not in to_act(state):
        raise RuleViolation(
            "no_move",
            f"Seat {seat} has nothing it may do now: no card, no offer to answer, "
            "no loan to call. It waits for a repayment or for time to run out.",
        )
    rng, at = _think(state)
    state = {**state, "rng": rng}
    timed = {**state, "now_ms": at}
    if bot == "random":
        moves = legal_moves(timed, seat)
        rng, move = choice(rng, moves)
        return {**move, "at": at}, {**state, "rng": rng}
    move, rng = _trading(timed, seat, rng)
    return {**move, "at": at}, {**state, "rng": rng}


def _least_needed(hand: Sequence[int], count: int) -> list[int]:
    unused = list(best_arrangement(hand).unused)
    if len(unused) >= count:
        return sorted(unused)[:count]
    return returned_cards(hand, [], count)


def _wanted_face(hand: Sequence[int]) -> int | None:
    """A face that would lengthen the longest pattern, preferring higher ranks."""
    base = longest_possible(hand)
    held = set(hand)
    gains = [
        f
        for f in range(FACES)
        if not {f, f + FACES} <= held
        and longest_possible([*hand, f if f not in held else f + FACES]) > base
    ]
    return max(gains, key=lambda f: (f % 13, f)) if gains else None


def _trading(state: State, seat: int, rng: RngState) -> tuple[Move, RngState]:
    hand = state["hands"][seat]
    players = int(state["players"])
    for loan in blocking_loans(state, seat):
        due = min(int(loan["outstanding"]), len(hand))
        return {"type": "repay", "loan": loan["id"], "cards": _least_needed(hand, due)}, rng
    before = strength(hand)
    for offer in state["offers"]:
        if offer["to"] != seat:
            continue
        give = [] if offer["kind"] == "undo" else matching_give(hand, offer["ask"])
        if give is not None:
            move: Move = {"type": "accept", "offer": offer["id"], "give": give}
            after = [c for c in hand if c not in give] + list(offer["give"])
            if can(state, seat, move) and strength(after) > before:
                return move, rng
        return {"type": "decline", "offer": offer["id"]}, rng
    elapsed = int(state["now_ms"]) - int(state["started_ms"])
    late = elapsed >= 0.8 * (int(state["deadline_ms"]) - int(state["started_ms"]))
    for loan in state["loans"]:
        if loan["lender"] == seat and not loan["called"] and late:
            return {"type": "call_loan", "loan": loan["id"]}, rng
    mine = [o for o in state["offers"] if o["from"] == seat]
    if mine:
        return {"type": "withdraw", "offer": mine[0]["id"]}, rng
    rng, roll = randbelow(rng, 10)
    neighbour = (left_of(seat, players), right_of(seat, players))[roll % 2]
    spare = _least_needed(hand, 1) if hand else []
    if roll == 0 and spare and not late:
        return {"type": "lend", "to": neighbour, "cards": spare}, rng
    wanted = _wanted_face(hand)
    if wanted is not None and spare:
        return {
            "type": "offer",
            "to": neighbour,
            "give": spare,
            "ask": [card_code(face_of(wanted))],
        }, rng
    rng, move = choice(rng, legal_moves(state, seat))
    return move, rng
