"""Card zones: where every card is, and who may see it.

A game with hands and piles keeps its cards in ``state["zones"]``: a mapping from a
zone's name to one pile (a list of card ids, bottom first, so the top card is the
last) or, for a per-seat zone, one pile per seat. A :class:`Layout` declares each
zone's visibility once; from it come

- what a seat may see (:meth:`Layout.visible`, :meth:`Layout.pile_view`),
- the resampling of everything a seat cannot see (:meth:`Layout.redeal_hidden`), which
  the conformance tests use to prove views leak nothing, and
- the per-seat filtering of card movements in events (:meth:`Layout.moved`): the
  faces go only to the seats that can see where the cards came from or went to, and
- the table once the game (or a round of a match) is over (:meth:`Layout.at_end`):
  each zone declares who sees it then (``at_end``), so the views, the event faces and
  the resampling all follow from the one layout a game gives for the state.

Card ids are integers; identical copies of a face (two decks, eight Na+ cards) have
different ids. A game shows a card with a card object that carries its ``id``.

>>> layout = Layout((Zone("draw", Seen.HIDDEN), Zone("discard", Seen.TOP),
...                  Zone("hand", Seen.OWNER, per_seat=True, ordered=False)))
>>> zones = layout.deal(2, draw=[1, 2, 3, 4, 5, 6], hand=[[], []])
>>> zones, drawn = layout.draw(zones, ("draw", None), ("hand", 0), 2)
>>> drawn, zones["hand"], zones["draw"]
([6, 5], [[5, 6], []], [1, 2, 3, 4])
>>> sorted(layout.visible(zones, 0)), sorted(layout.visible(zones, 1))
([5, 6], [])
>>> event = layout.moved({"type": "drew", "seat": 0}, drawn, ("draw", None), ("hand", 0), 2)
>>> event["count"], event["private"]
(2, {0: {'cards': [6, 5]}})

Once play is over the hands go on the table; the draw pile stays face down:

>>> layout = Layout((Zone("draw", Seen.HIDDEN),
...                  Zone("hand", Seen.OWNER, per_seat=True, ordered=False, at_end=Seen.PUBLIC)))
>>> zones = layout.deal(2, draw=[1, 2], hand=[[3], [4]])
>>> ended = layout.at_end()
>>> sorted(layout.visible(zones, None)), sorted(ended.visible(zones, None))
([], [3, 4])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, TypeAlias, TypeVar

from rules.rng import RngState, shuffled
from rules.state import JSON, Event
from rules.wire import Pile

Zones: TypeAlias = dict[str, Any]
"""``zone name -> pile`` or ``zone name -> [pile per seat]``; a pile is a list of ids."""

Place: TypeAlias = tuple[str, int | None]
"""A pile's address: ``("draw", None)`` or ``("hand", 2)``."""

C = TypeVar("C")
"""A game's card as its views show it."""


class Seen(StrEnum):
    """Who may see the faces of a zone's cards (everyone may always count them)."""

    PUBLIC = "public"
    """Every face, in order, for everyone (a board, a face-up discard pile)."""
    OWNER = "owner"
    """The owning seat sees the faces; the others see the count (a hand)."""
    HIDDEN = "hidden"
    """Nobody sees the faces or the order (a face-down draw pile, cards set aside)."""
    TOP = "top"
    """Everyone sees the top card; the cards under it are hidden."""


@dataclass(frozen=True)
class Zone:
    """One zone of a game: a single pile, or one pile per seat when ``per_seat``.

    ``ordered`` says whether the order of the pile is part of the game (a draw pile, a
    collected pile played in order) or not (a hand, kept sorted).

    ``at_end`` says who sees the zone once the game (or a round of a match) is over,
    where that differs from ``seen``: what the players then put on the table (hands
    counted against a score, face-down piles turned over). ``None``: as during play (a
    draw pile nobody turns over).
    """

    name: str
    seen: Seen
    per_seat: bool = False
    ordered: bool = True
    at_end: Seen | None = None


@dataclass(frozen=True)
class Layout:
    """The zones of a game and who may see what in each."""

    zones: tuple[Zone, ...]

    def __post_init__(self) -> None:
        names = [z.name for z in self.zones]
        if len(set(names)) != len(names):
            raise ValueError(f"zone names repeat: {names}")

    # -------------------------------------------------------------- structure ------
    def zone(self, name: str) -> Zone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise KeyError(name)

    def deal(self, players: int, **piles: Any) -> Zones:
        """Zones holding ``piles`` (by zone name); zones not named start empty."""
        unknown = set(piles) - {z.name for z in self.zones}
        if unknown:
            raise KeyError(f"no such zones: {sorted(unknown)}")
        out: Zones = {}
        for zone in self.zones:
            given = piles.get(zone.name)
            if zone.per_seat:
                seats = given if given is not None else [[] for _ in range(players)]
                if len(seats) != players:
                    raise ValueError(f"{zone.name}: one pile per seat")
                out[zone.name] = [self._norm(zone, p) for p in seats]
            else:
                out[zone.name] = self._norm(zone, given or [])
        return out

    @staticmethod
    def _norm(zone: Zone, pile: Iterable[int]) -> list[int]:
        return list(pile) if zone.ordered else sorted(pile)

    def at_end(self) -> Layout:
        """This layout once the game (or a round of a match) is over: every zone seen
        as its ``at_end`` says. A game's layout of a state (``GameRules.layout``) is
        this one from the move that ends play until a new round is dealt, so views,
        event faces and :meth:`redeal_hidden` show what is then on the table."""
        return Layout(tuple(replace(z, seen=z.at_end) if z.at_end else z for z in self.zones))

    def only(self, *names: str) -> Layout:
        """The zones named (for resampling one kind of card among its own zones)."""
        return Layout(tuple(self.zone(name) for name in names))

    def places(self, zones: Mapping[str, Any]) -> Iterator[Place]:
        """Every pile's address."""
        for zone in self.zones:
            if zone.per_seat:
                for seat in range(len(zones[zone.name])):
                    yield zone.name, seat
            else:
                yield zone.name, None

    @staticmethod
    def pile(zones: Mapping[str, Any], place: Place) -> list[int]:
        name, seat = place
        pile: list[int] = zones[name] if seat is None else zones[name][seat]
        return pile

    def cards(self, zones: Mapping[str, Any]) -> list[int]:
        """Every card id in every zone (for conservation checks)."""
        return [c for place in self.places(zones) for c in self.pile(zones, place)]

    def conservation_problems(self, zones: Mapping[str, Any], deck: Iterable[int]) -> list[str]:
        """Why the zones do not hold each card of ``deck`` exactly once (empty when they do)."""
        held = Counter(self.cards(zones))
        expected = Counter(deck)
        problems = []
        twice = sorted(c for c, n in held.items() if n > 1)
        if twice:
            problems.append(f"cards held twice: {twice}")
        lost = sorted(set(expected) - set(held))
        if lost:
            problems.append(f"cards lost: {lost}")
        added = sorted(set(held) - set(expected))
        if added:
            problems.append(f"cards that are not in the deck: {added}")
        return problems

    # -------------------------------------------------------------- who sees what --
    def can_see(self, place: Place, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: an observer) sees every face in the pile at ``place``."""
        zone = self.zone(place[0])
        if zone.seen is Seen.PUBLIC:
            return True
        if zone.seen is Seen.OWNER:
            return seat is not None and place[1] == seat
        return False

    def visible_part(self, zones: Mapping[str, Any], place: Place, seat: int | None) -> list[int]:
        """The cards of the pile at ``place`` whose faces ``seat`` sees."""
        pile = self.pile(zones, place)
        if self.can_see(place, seat):
            return list(pile)
        if self.zone(place[0]).seen is Seen.TOP and pile:
            return [pile[-1]]
        return []

    def visible(self, zones: Mapping[str, Any], seat: int | None) -> set[int]:
        """Every card whose face ``seat`` may see now."""
        return {c for p in self.places(zones) for c in self.visible_part(zones, p, seat)}

    def pile_view(
        self,
        zones: Mapping[str, Any],
        place: Place,
        seat: int | None,
        show: Callable[[int], JSON],
    ) -> JSON:
        """A pile as ``seat`` sees it: always its ``count``; ``cards`` (bottom first)
        where it sees them, else ``None``; ``top`` for a pile whose top is public."""
        pile = self.pile(zones, place)
        zone = self.zone(place[0])
        out: JSON = {"count": len(pile)}
        out["cards"] = [show(c) for c in pile] if self.can_see(place, seat) else None
        if zone.seen is Seen.TOP:
            out["top"] = show(pile[-1]) if pile else None
        return out

    def pile_for(
        self,
        zones: Mapping[str, Any],
        place: Place,
        seat: int | None,
        show: Callable[[int], C],
    ) -> Pile[C]:
        """A pile as ``seat`` sees it, built as the declared :class:`rules.wire.Pile` of the
        game's cards (``show``): its ``count``, and ``cards`` (bottom first) where it sees
        them, else ``None``. A pile whose top is public adds its ``top`` to this (see
        :meth:`pile_view`).

        >>> layout = Layout((Zone("hand", Seen.OWNER, per_seat=True, ordered=False),))
        >>> zones = layout.deal(2, hand=[[1], [3, 2]])
        >>> layout.pile_for(zones, ("hand", 1), 0, str), layout.pile_for(zones, ("hand", 1), 1, str)
        ({'count': 2, 'cards': None}, {'count': 2, 'cards': ['2', '3']})
        """
        pile = self.pile(zones, place)
        return {
            "count": len(pile),
            "cards": [show(c) for c in pile] if self.can_see(place, seat) else None,
        }

    # -------------------------------------------------------------- moving cards ---
    def move(self, zones: Zones, src: Place, dst: Place, cards: Sequence[int]) -> Zones:
        """New zones with ``cards`` taken out of ``src`` and put on top of ``dst``.

        The rules verify a move before applying it, so a card missing from ``src``
        here is a bug, not a player's mistake: it raises ``ValueError``.
        """
        out = dict(zones)
        source = list(self.pile(zones, src))
        for card in cards:
            try:
                source.remove(card)
            except ValueError:
                raise ValueError(f"card {card} is not in {src}") from None
        out = self._set(out, src, source)
        target = [*self.pile(out, dst), *cards]
        return self._set(out, dst, self._norm(self.zone(dst[0]), target))

    def draw(self, zones: Zones, src: Place, dst: Place, count: int) -> tuple[Zones, list[int]]:
        """Move the top ``count`` cards of ``src`` (or all it has) to ``dst``, top first."""
        pile = self.pile(zones, src)
        taken = list(reversed(pile[len(pile) - min(count, len(pile)) :]))
        return self.move(zones, src, dst, taken), taken

    def _set(self, zones: Zones, place: Place, pile: list[int]) -> Zones:
        name, seat = place
        if seat is None:
            zones[name] = pile
        else:
            seats = list(zones[name])
            seats[seat] = pile
            zones[name] = seats
        return zones

    # -------------------------------------------------------------- events ---------
    def moved(
        self,
        event: Mapping[str, object],
        cards: Sequence[int],
        src: Place,
        dst: Place,
        players: int,
        show: Callable[[int], Any] = int,
        key: str = "cards",
    ) -> Event:
        """``event`` describing ``cards`` moving from ``src`` to ``dst``.

        Everyone learns the ``count``; the faces (``show(card)`` under ``key``) go to
        everyone when either end is public (or the cards land on a public top), and
        otherwise only to the seats that see one end (a drawn card: its drawer).
        Private parts are merged per seat by the service (``private``).

        ``event`` may be built as its declared ``TypedDict`` with its ``count`` already
        (``len(cards)``): the count set here then keeps its place among the members.
        """
        faces = [show(c) for c in cards]
        out: Event = {**event, "count": len(cards)}
        public = self.can_see(src, None) or self.can_see(dst, None)
        if self.zone(dst[0]).seen is Seen.TOP and cards:
            public = True  # cards put on a TOP pile land face up
        if self.zone(src[0]).seen is Seen.TOP and len(cards) == 1:
            public = True  # the one card taken off a TOP pile is its face-up top
        if public:
            out[key] = faces
            return out
        seers = [s for s in range(players) if self.can_see(src, s) or self.can_see(dst, s)]
        if seers:
            return with_private(out, {s: {key: faces} for s in seers})
        return out

    # -------------------------------------------------------------- leak tests -----
    def redeal_hidden(
        self, zones: Mapping[str, Any], seat: int | None, rng: RngState
    ) -> tuple[Zones, RngState]:
        """Zones with every card ``seat`` cannot see shuffled among the places it cannot
        see into, each pile keeping its size (and a TOP pile its top card).

        A view that changes under this resampling depends on something the seat may
        not know: the conformance test checks that it never does.
        """
        hidden: list[tuple[Place, int]] = []  # (place, how many of its bottom cards)
        pool: list[int] = []
        for place in self.places(zones):
            pile = self.pile(zones, place)
            seen = len(self.visible_part(zones, place, seat))
            if self.can_see(place, seat):
                continue
            count = len(pile) - seen
            hidden.append((place, count))
            pool.extend(pile[:count])
        rng, pool = shuffled(rng, pool)
        out: Zones = dict(zones)
        for place, count in hidden:
            pile = self.pile(zones, place)
            fresh, pool = pool[:count], pool[count:]
            out = self._set(out, place, self._norm(self.zone(place[0]), fresh + pile[count:]))
        return out, rng


def emitted(event: Mapping[str, object]) -> Event:
    """``event``, built as its declared ``TypedDict`` (so mypy checks every member), as
    the rules emit it: a plain :data:`~rules.state.Event` (a copy, in the same order).

    >>> emitted({"type": "passed", "seat": 1})
    {'type': 'passed', 'seat': 1}
    """
    return dict(event)


def with_private(event: Mapping[str, object], private: Mapping[int, Mapping[str, object]]) -> Event:
    """``event`` (built as its declared ``TypedDict``, without the members only some seats
    may see) with those members per seat under ``private``, last: the service merges
    each seat's part into what that seat is sent and drops the others'
    (:func:`rules.core.events_for`). The declaration marks such members ``NotRequired``.

    >>> with_private({"type": "card_selected", "seat": 0}, {0: {"card": 8}})
    {'type': 'card_selected', 'seat': 0, 'private': {0: {'card': 8}}}
    """
    out = emitted(event)
    out["private"] = {seat: dict(part) for seat, part in private.items()}
    return out


CARD_KEYS = frozenset({"card", "cards", "top"})
"""Where views and events name cards: a card id, or a card object with its ``id``,
under one of these keys (alone or in a list)."""


def named_cards(value: Any) -> set[int]:
    """Every card id that a view or an event names (see :data:`CARD_KEYS`).

    >>> sorted(named_cards({"type": "won", "cards": [3, {"id": 4, "z": 4}], "top": None}))
    [3, 4]
    """
    found: set[int] = set()

    def cards(node: Any) -> None:
        if isinstance(node, bool):
            return
        if isinstance(node, int):
            found.add(node)
        elif isinstance(node, dict) and isinstance(node.get("id"), int):
            found.add(node["id"])
        elif isinstance(node, list):
            for item in node:
                cards(item)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, item in node.items():
                if key in CARD_KEYS:
                    cards(item)
                walk(item)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(value)
    return found
