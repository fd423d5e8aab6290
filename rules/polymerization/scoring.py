"""Scores: monomers in terminated chains, or Mn, Mw and PDI, with the arithmetic shown.

For a seat's counted chains i (one molecule each, N_i = 1, molar mass M_i):

    Mn = sum(N_i M_i) / sum(N_i)      Mw = sum(N_i M_i^2) / sum(N_i M_i)      PDI = Mw / Mn

>>> mn_mw_pdi([1000.0, 3000.0])
(2000.0, 2500.0, 1.25)
>>> mn_mw_pdi([])
(None, None, None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.core import Outcome, State, rank_seats

from .chains import CAPPED, TERMINATED, molar_mass, units
from .wire import Arithmetic, Ranking, ScoredChain, Scores, Scoring, SeatScore

PLACES = 6
"""Mn, Mw and PDI are rounded to 10^-6 before they are compared or shown."""


def mn_mw_pdi(masses: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    """Number- and weight-average molar mass and dispersity of chains of ``masses``."""
    if not masses:
        return None, None, None
    n = len(masses)
    s1 = sum(masses)
    s2 = sum(m * m for m in masses)
    mn = s1 / n
    mw = s2 / s1
    return round(mn, PLACES), round(mw, PLACES), round(mw / mn, PLACES)


def counted(chain: Mapping[str, Any], capped_count: bool) -> bool:
    """Whether a chain scores: terminated ones always, capped ones if the option says."""
    return chain["state"] == TERMINATED or (capped_count and chain["state"] == CAPPED)


def seat_breakdown(state: State, seat: int) -> SeatScore:
    """One seat's counted chains with units and M_i, and the Mn / Mw / PDI arithmetic."""
    opts = state["options"]
    per_card, end_groups = opts["units_per_card"], opts["end_groups"]
    chains: list[ScoredChain] = []
    for chain in state["chains"]:
        if chain["owner"] != seat or not counted(chain, opts["capped_count"]):
            continue
        mass = molar_mass(chain, per_card, end_groups)
        chains.append(
            {
                "id": chain["id"],
                "state": chain["state"],
                "mechanism": chain["mechanism"],
                "units": units(chain, per_card),
                "mi": mass["mi"],
                "terms": mass["terms"],
                "end_groups": mass["end_groups"],
            }
        )
    masses = [c["mi"] for c in chains]
    mn, mw, pdi = mn_mw_pdi(masses)
    s1 = round(sum(masses), PLACES)
    s2 = round(sum(m * m for m in masses), PLACES)
    return {
        "seat": seat,
        "monomers": sum(c["units"] for c in chains),
        "chains": chains,
        "sum_n": len(chains),
        "sum_nm": s1,
        "sum_nm2": s2,
        "mn": mn,
        "mw": mw,
        "pdi": pdi,
        "arithmetic": arithmetic(masses, mn, mw, pdi),
    }


def _num(x: float) -> str:
    return f"{x:.2f}"


def arithmetic(
    masses: Sequence[float], mn: float | None, mw: float | None, pdi: float | None
) -> Arithmetic:
    """The three formulas with this seat's numbers in them, for a learner to check.

    >>> arithmetic([1000.0, 3000.0], *mn_mw_pdi([1000.0, 3000.0]))["pdi"]
    'PDI = Mw / Mn = 2500.00 / 2000.00 = 1.250'
    """
    if not masses or mn is None or mw is None or pdi is None:
        none = "no terminated chain yet: undefined"
        return {"mn": f"Mn: {none}", "mw": f"Mw: {none}", "pdi": f"PDI: {none}"}
    ones = " + ".join("1" for _ in masses)
    return {
        "mn": f"Mn = ({' + '.join(_num(m) for m in masses)}) / ({ones}) = {_num(mn)} g/mol",
        "mw": "Mw = ("
        + " + ".join(f"{_num(m)}^2" for m in masses)
        + ") / ("
        + " + ".join(_num(m) for m in masses)
        + f") = {_num(mw)} g/mol",
        "pdi": f"PDI = Mw / Mn = {_num(mw)} / {_num(mn)} = {pdi:.3f}",
    }


def scores(state: State) -> Scores:
    """Every seat's breakdown; ``final`` once the game is over."""
    opts = state["options"]
    return {
        "final": state["phase"] == "over",
        "scoring": opts["scoring"],
        "ranking": opts["ranking"],
        "seats": [seat_breakdown(state, s) for s in range(int(state["players"]))],
    }


def _pareto_fronts(table: Sequence[Mapping[str, Any]]) -> list[int]:
    """Front number per seat (1 = nobody has both a higher-or-equal Mn and a lower-or-equal
    PDI and is strictly better in one); seats without chains share the last front."""

    def dominates(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
        if a["mn"] is None:
            return False
        if b["mn"] is None:
            return True
        return bool(
            a["mn"] >= b["mn"]
            and a["pdi"] <= b["pdi"]
            and (a["mn"], -a["pdi"]) != (b["mn"], -b["pdi"])
        )

    left = set(range(len(table)))
    front = [0] * len(table)
    k = 0
    while left:
        k += 1
        top = {s for s in left if not any(dominates(table[o], table[s]) for o in left)}
        for s in top:
            front[s] = k
        left -= top
    return front


def ranking_key(state: State) -> tuple[Callable[[int], tuple[Any, Any]], str | None]:
    """The key seats are ranked by, ``(first criterion, second criterion)``, higher is
    better, and the name of the second criterion (the tie-break), if there is one."""
    opts = state["options"]
    table = [seat_breakdown(state, s) for s in range(int(state["players"]))]
    # typed as declared: mypy refuses a comparison with a name the wire does not declare
    scoring: Scoring = opts["scoring"]
    if scoring == "monomers":
        return (lambda s: (table[s]["monomers"], 0)), None
    rule: Ranking = opts["ranking"]
    if rule == "pareto":
        fronts = _pareto_fronts(table)
        return (lambda s: (-fronts[s], 0)), None

    def mn(s: int) -> float:
        value = table[s]["mn"]
        return 0.0 if value is None else float(value)

    def low_pdi(s: int) -> tuple[bool, float]:
        value = table[s]["pdi"]  # no chain: no PDI, below every real one
        return (value is not None, 0.0 if value is None else -float(value))

    if rule == "pdi_then_mn":
        return (lambda s: (low_pdi(s), mn(s))), "higher_mn"
    return (lambda s: (mn(s), low_pdi(s))), "lower_pdi"


def outcome(state: State) -> Outcome:
    """Seats ranked by the scoring rule; equal keys share a place."""
    if state["phase"] != "over":
        return Outcome(finished=False)
    key, second = ranking_key(state)
    ranking, places = rank_seats(range(int(state["players"])), key)
    winners = tuple(s for s, p in zip(ranking, places, strict=True) if p == 1)
    tie_break = None
    if len(winners) > 1:
        tie_break = "shared"
    elif second is not None and key(ranking[0])[0] == key(ranking[1])[0]:
        tie_break = second  # the first criterion tied; the second decided
    return Outcome(
        finished=True, winners=winners, ranking=ranking, places=places, tie_break=tie_break
    )
