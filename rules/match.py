"""Matches: rounds played until a seat reaches a target score.

Seeds such as Compound Capture say "Multiple rounds can be played until one player
reaches 250 points". A game that has matches keeps ``state["match"]`` (plain JSON,
built here) and calls these functions; nothing here knows the game's rules:

- :func:`new_match` at setup (round 1, the first dealer, the target, zero totals);
- :func:`end_round` when a round ends, with that round's points per seat: adds them
  to the totals, records the round, and decides whether the match is over;
- between rounds the state's phase is the game's own ``"round_over"``; the seat in
  :func:`next_round_seat` moves ``{"type": "next_round"}``, which the game verifies
  with :func:`verify_next_round` and applies by dealing again with the dealer that
  :func:`next_round` rotates to the left;
- :func:`outcome` ranks seats by their totals, with shared places.

``target`` ``None`` plays a single round. When several seats reach the target in the
same round the highest total wins; a tie on the highest total is either shared
(``on_tie="share"``) or broken by playing further rounds until one seat leads
(``on_tie="play_on"``); each game says which, as an option.

``max_rounds`` (optional) ends the match after that many rounds even if no seat has
reached the target (a tie is then shared). A game whose rounds can score nothing, or
less than nothing, for every seat needs it to prove that every match ends.

>>> m = new_match(3, target=50, dealer=0)
>>> m, events = end_round(m, [30, 10, 25])
>>> m["over"], m["totals"], events[0]["type"]
(False, [30, 10, 25], 'round_scored')
>>> next_round_seat(m), next_round(m)["dealer"]
(1, 1)
>>> m, events = end_round(next_round(m), [20, 0, 25])
>>> m["over"], [e["type"] for e in events], outcome(m).winners
(True, ['round_scored', 'game_over'], (0, 2))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, TypedDict

from rules.core import JSON, Code, Event, Outcome, RuleViolation, left_of, rank_seats
from rules.shapes import F, Seat
from rules.wire import GameOver
from rules.zones import emitted

ON_TIE = ("share", "play_on")

CODES: Mapping[str, Code] = {
    "round_in_progress": Code.move(
        "The round is still being played; next_round only starts a new one."
    ),
    "round_over": Code.turn("The round is over: the next dealer moves next_round to deal again."),
    "match_over": Code.turn("The match is over; no more rounds are dealt."),
}

# ---------------------------------------------------------------- options (declared) -
Target = Annotated[
    int | None,
    F(
        "Play rounds until a seat reaches this total (1-10000); null plays one round.",
        default=250,
        minimum=1,
        maximum=10_000,
    ),
]
"""The ``target`` option; the default is the seeds' 250 (a game may refine it)."""
TieRule = Annotated[
    Literal["share", "play_on"],
    F(
        "When seats share the highest total once the target is reached: 'share' the win, "
        "or 'play_on' with more rounds until one seat leads.",
        name="OnTie",
    ),
]
OnTie = Annotated[TieRule, F(default="share")]
MaxRounds = Annotated[
    int,
    F(
        "The match ends after this many rounds (1-1000) even if no seat has reached the "
        "target; the highest total then wins.",
        default=30,
        minimum=1,
        maximum=1000,
    ),
]


# ---------------------------------------------------------------- shapes (declared) --
class NextRoundMove(TypedDict):
    """Deal the next round (the seat left of the last dealer, once a round is over)."""

    type: Literal["next_round"]


Totals = Annotated[list[int], F("Totals per seat, in seat order.")]


class RoundRecord(TypedDict):
    """A finished round: its dealer, each seat's points and the totals after it."""

    round: Annotated[int, F("Round number.", minimum=1)]
    dealer: Annotated[Seat, F("Its dealer.")]
    points: Annotated[list[int], F("Points per seat, in seat order.")]
    totals: Totals


class Match(TypedDict):
    """The match: rounds played until a seat reaches the target (all of it public)."""

    round: Annotated[int, F("The round being played (or just finished).", minimum=1)]
    dealer: Annotated[Seat, F("Its dealer.")]
    target: Annotated[int | None, F("Total that ends the match; null: one round.")]
    on_tie: Annotated[TieRule, F("Tie rule.")]
    totals: Totals
    rounds: Annotated[list[RoundRecord], F("Finished rounds.")]
    over: Annotated[bool, F("The match has ended.")]
    max_rounds: Annotated[int | None, F("Round limit.")]


class RoundScoredEvent(RoundRecord):
    """A round ended and was scored."""

    type: Literal["round_scored"]
    target: Annotated[int | None, F("The match target.")]


class MatchTiedEvent(TypedDict):
    """Seats reached the target tied on the best total: play goes on."""

    type: Literal["match_tied"]
    leaders: Annotated[list[Seat], F("Seats tied on the best total.")]
    totals: Totals


class MatchOverEvent(GameOver):
    """The match is over: the final outcome, totals and why it ended."""

    totals: Annotated[list[int], F("Final totals, in seat order.")]
    reason: Annotated[Literal["target", "one_round", "max_rounds"], F("Why the match ended.")]


EVENTS = (RoundScoredEvent, MatchTiedEvent, MatchOverEvent)
"""The events of :func:`end_round`."""


def new_match(
    players: int,
    *,
    target: int | None,
    dealer: int,
    on_tie: str = "share",
    max_rounds: int | None = None,
) -> JSON:
    """The match record of a new game: round 1 dealt by ``dealer``."""
    m: JSON = {
        "round": 1,
        "dealer": dealer,
        "target": target,
        "on_tie": on_tie,
        "totals": [0] * players,
        "rounds": [],
        "over": False,
    }
    if max_rounds is not None:
        m["max_rounds"] = max_rounds
    return m


def _leaders(totals: Sequence[int]) -> list[int]:
    best = max(totals)
    return [s for s, t in enumerate(totals) if t == best]


def end_round(match: Mapping[str, Any], points: Sequence[int]) -> tuple[JSON, list[Event]]:
    """Record a finished round's ``points`` per seat; decide whether the match is over."""
    if len(points) != len(match["totals"]):
        raise ValueError("one score per seat")
    totals = [t + p for t, p in zip(match["totals"], points, strict=True)]
    record: RoundRecord = {
        "round": match["round"],
        "dealer": match["dealer"],
        "points": list(points),
        "totals": totals,
    }
    target = match["target"]
    reached = target is None or max(totals) >= target
    tied = len(_leaders(totals)) > 1
    limit = match.get("max_rounds")
    last = limit is not None and int(match["round"]) >= limit
    decided = reached and not (tied and match["on_tie"] == "play_on")
    over = decided or last
    new = {**match, "totals": totals, "rounds": [*match["rounds"], record], "over": over}
    scored: RoundScoredEvent = {"type": "round_scored", **record, "target": target}
    events = [emitted(scored)]
    if over:
        events.append(emitted(_over(outcome(new), totals, decided=decided, target=target)))
    elif reached:
        play_on: MatchTiedEvent = {
            "type": "match_tied",
            "leaders": _leaders(totals),
            "totals": totals,
        }
        events.append(emitted(play_on))
    return new, events


def _over(
    final: Outcome, totals: list[int], *, decided: bool, target: int | None
) -> MatchOverEvent:
    """The ``game_over`` event: the final outcome (:meth:`rules.core.Outcome.to_json`),
    the totals and why the match ended."""
    shown = final.to_json()
    return {
        "type": "game_over",
        "finished": shown["finished"],
        "winners": shown["winners"],
        "ranking": shown["ranking"],
        "places": shown["places"],
        "tie_break": shown["tie_break"],
        "totals": totals,
        "reason": "max_rounds" if not decided else "target" if target is not None else "one_round",
    }


def next_round_seat(match: Mapping[str, Any]) -> int:
    """The seat that deals the next round (and moves ``next_round``): left of the dealer."""
    return left_of(int(match["dealer"]), len(match["totals"]))


def next_round(match: Mapping[str, Any]) -> JSON:
    """The match record for the next round: its number, and the dealer rotated left."""
    if match["over"]:
        raise RuleViolation("match_over", "The match is over; no more rounds are dealt.")
    return {**match, "round": int(match["round"]) + 1, "dealer": next_round_seat(match)}


def verify_next_round(match: Mapping[str, Any], round_finished: bool, seat: int) -> None:
    """Refuse ``next_round`` unless the round is over, the match is not, and ``seat`` deals."""
    if match["over"]:
        raise RuleViolation("match_over", "The match is over; no more rounds are dealt.")
    if not round_finished:
        raise RuleViolation(
            "round_in_progress",
            "This round is still being played; next_round is only for dealing a new one.",
        )
    dealer = next_round_seat(match)
    if seat != dealer:
        raise RuleViolation(
            "round_over",
            f"The round is over: seat {dealer}, the next dealer, deals the next round.",
            dealer=dealer,
        )


def outcome(match: Mapping[str, Any]) -> Outcome:
    """The match's outcome: seats ranked by total, equal totals sharing a place."""
    if not match["over"]:
        return Outcome(finished=False)
    totals = match["totals"]
    ranking, places = rank_seats(range(len(totals)), totals.__getitem__)
    winners = tuple(s for s, p in zip(ranking, places, strict=True) if p == 1)
    return Outcome(
        finished=True,
        winners=winners,
        ranking=ranking,
        places=places,
        tie_break="shared" if len(winners) > 1 else None,
    )


def round_record(kept: Mapping[str, Any]) -> RoundRecord:
    """A finished round as the match keeps it (:func:`end_round`), copied."""
    return {
        "round": kept["round"],
        "dealer": kept["dealer"],
        "points": kept["points"],
        "totals": kept["totals"],
    }


def view(match: Mapping[str, Any]) -> Match:
    """The match as every seat sees it (all of it is public)."""
    return {
        "round": match["round"],
        "dealer": match["dealer"],
        "target": match["target"],
        "on_tie": match["on_tie"],
        "totals": list(match["totals"]),
        "rounds": [round_record(r) for r in match["rounds"]],
        "over": match["over"],
        "max_rounds": match.get("max_rounds"),
    }
