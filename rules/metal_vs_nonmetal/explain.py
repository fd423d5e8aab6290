"""What a learner is told when an exchange is settled or a power play is made.

Each settled exchange names the ions in play with their total charges; when the
charges cancel, the compound formed (formula, name, equation); when they do not,
which side had more charge and by how much, and the compound the two ions would form.

>>> from rules.chemistry.ions import ion
>>> from .exchange import Side
>>> text = settled_text(
...     "reinforced", Side(0, ion("N3-"), 2), Side(1, ion("Ca2+"), 3), collector=0,
...     collected=5, reinforcements=1, forced=0, partial=False)
>>> print(text)
Seat 0 played N3-; seat 1 answered with 3 Ca2+ (+6), a power play. Seat 0 called for \
reinforcements with 1 more N3-: 2 N3- (-6) against 3 Ca2+ (+6). The charges cancel: \
3 Ca2+ + 2 N3- -> Ca3N2, calcium nitride. Seat 0, the initiating player, collects all \
5 cards.
"""

from __future__ import annotations

from rules.chemistry.ions import Ion
from rules.text import plural

from .exchange import Answer, Side, chemistry, compound_sentence, describe, reinforcement_need


def _answered(first: Side, second: Side, partial: bool, forced: int) -> str:
    how = "could only answer with" if partial else "answered with"
    text = f"Seat {first.seat} played {first.ion.label}; seat {second.seat} {how} "
    played = second.count - forced
    text += f"{played} {second.ion.label}"
    if forced:
        drawn = "card" if forced == 1 else "cards"
        text += f", then drew and had to play {forced} more {second.ion.label} ({drawn})"
    return text + f" ({second.total:+d})"


def settled_text(
    result: str,
    first: Side,
    second: Side,
    *,
    collector: int,
    collected: int,
    reinforcements: int,
    forced: int,
    partial: bool,
    set_aside: int = 0,
) -> str:
    """One paragraph saying what was played, the chemistry, and who collects."""
    chem = chemistry(first, second)
    lead = first.ion.label
    power = abs(second.total) > abs(first.total - first.ion.charge * reinforcements)
    parts = [_answered(first, second, partial, forced) + (", a power play." if power else ".")]
    if result == "reinforced":
        parts.append(
            f"Seat {first.seat} called for reinforcements with {reinforcements} more {lead}: "
            f"{first.text()} against {second.text()}."
        )
    elif result == "power_play":
        needed = reinforcement_text(first, second)
        parts.append(
            f"Seat {first.seat} did not call for reinforcements ({needed}), so the power "
            f"play stands: {second.total:+d} against {first.total:+d}, "
            f"{chem['difference']} more charge."
        )
    elif result == "initiator_higher":
        parts.append(
            f"Seat {first.seat} has more charge: {first.total:+d} against "
            f"{second.total:+d}, {chem['difference']} more."
        )
    parts.append(compound_sentence(first, second, chem))
    if result == "power_play":
        who = f"Seat {collector}, the responding player,"
    else:
        who = f"Seat {collector}, the initiating player,"
    if set_aside:
        cards = "card is" if set_aside == 1 else "cards are"
        parts.append(
            f"{who} collects the {plural(collected, 'card')} it played; seat {first.seat}'s "
            f"{set_aside} {cards} set aside and count for nobody (option power_play_prize)."
        )
    else:
        parts.append(f"{who} collects all {plural(collected, 'card')}.")
    return " ".join(parts)


def reinforcement_text(first: Side, second: Side) -> str:
    need = reinforcement_need(first.ion, abs(first.total), abs(second.total))
    after = first.ion.charge * (first.count + need)
    return (
        f"{need} more {first.ion.label} would have brought its total to {after:+d} "
        f"against {second.total:+d}"
    )


def no_response_text(
    initiator: int, responder: int, lead: Ion, step4: list[Answer], taken: Ion | None
) -> str:
    """Advanced ruling 1, example 2: why nothing could be played and what was taken
    (``taken`` is None when the card goes unseen into a face-down collection)."""
    lower = [a.ion.label for a in step4 if a.ion.magnitude < lead.magnitude]
    ruling = (
        f" nor any {' or '.join(lower)} to play what it has (advanced ruling 1)" if lower else ""
    )
    what = "face down" if taken is None else f"{taken.label} ({taken.name})"
    return (
        f"Seat {responder} holds no answer to {lead.label}: not {describe(step4)} "
        f"(step 4){ruling}. Seat {initiator} takes a random card from its hand, "
        f"{what}, and collects it with its {lead.label}: 2 cards."
    )


def power_play_text(first: Side, second: Side, need: int) -> str:
    """Step 5: a power play, and what would balance it."""
    diff = abs(second.total) - abs(first.total)
    return (
        f"Seat {second.seat} made a power play: {second.text()} against "
        f"{first.text()}, {diff} more charge. Seat {first.seat} may call for "
        f"reinforcements: {need} more {first.ion.label} would bring its total to "
        f"{first.ion.charge * (first.count + need):+d}; otherwise seat {second.seat} "
        "collects."
    )
