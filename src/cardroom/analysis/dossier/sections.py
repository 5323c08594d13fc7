"""The sections every game's dossier has: every wager's figures and the volatility."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardroom.analysis.dossier.charts import line_chart
from cardroom.analysis.dossier.model import Section, TableData
from cardroom.analysis.estimate import Z95, Z95_ONE_SIDED, around, proportion_half_width
from cardroom.analysis.wager import HORIZONS, Wager, frac
from cardroom.money import format_money

HOLD_NOTE = ("Hold is the house's expected win as a share of the money wagered, a push counted "
             "as wagered (the per-hand edge); the element of risk divides the edge by the "
             "chance that the wager is decided. A negative edge favours the player.")
VOLATILITY_NOTE = ("The house's total result in units after n one-unit wagers, 95% band by the "
                   f"normal approximation: n x edge ± {Z95:.6f} sd √n ({Z95:.6f} is the normal "
                   "distribution's 97.5th percentile). The house is ahead with 95% confidence "
                   f"(one-sided) from ({Z95_ONE_SIDED:.6f} sd / edge)² hands (its 95th "
                   "percentile), never when the wager favours the player.")
CHART_HANDS = [int(10 ** (k / 4)) for k in range(8, 21)]
"""100 to 100,000 hands, four points a decade."""


def pct(x: Fraction | float, places: int = 4) -> str:
    return f"{float(x) * 100:.{places}f}%"


@dataclass(frozen=True)
class Simulated:
    """The wagers' figures are rates observed over `hands` simulated hands, not exact: the
    dossier labels them so, each with its 95% interval (`edge_half_width` from the run)."""

    hands: int
    edge_half_width: float


def wagers_section(figs: Sequence[Wager], most_cents: dict[str, int] | None,
                   data: dict[str, Any], notes: Sequence[str],
                   simulated: Simulated | None = None) -> Section:
    """Edge per unit and per hand, hold, element of risk, std dev, the largest win at the
    limits (None: the house rules set none), and every award's probability; the numbers go
    to data["wagers"]. Exact figures carry `*_exact` fractions; simulated ones (`simulated`)
    carry `*_simulated` observed ratios with `*_ci95` intervals instead."""
    rows = []
    award_rows = []
    entries = []
    half = None if simulated is None else simulated.edge_half_width
    for f in figs:
        eor = f.element_of_risk
        edge = _with_interval(f.house_edge, half)
        rows.append((f.name, edge, edge, edge,
                     "-" if eor is None else _with_interval(
                         eor, None if half is None else half / float(1 - f.push)),
                     f"{f.std_dev:.4f}",
                     "no limit set" if most_cents is None else format_money(most_cents[f.name])))
        awards = []
        for a in f.outcomes:
            p = f.chance(a)
            p_half = None if simulated is None else proportion_half_width(a.count, f.total)
            award_rows.append((f.name, a.label.replace("_", " "), f"{float(a.net):+g}",
                               f"{float(p):.10f}" if p_half is None else _with_interval(p, p_half),
                               f"1 in {float(1 / p):,.2f}"))
            awards.append({"label": a.label, "net": frac(a.net), "probability": float(p),
                           **_figure("probability", p, p_half)})
        entries.append({
            "name": f.name, "house_edge": float(f.house_edge),
            **_figure("house_edge", f.house_edge, half),
            "house_edge_per_hand": float(f.house_edge), "hold": float(f.house_edge),
            "element_of_risk": None if eor is None else float(eor),
            "std_dev": f.std_dev,
            "max_payout_cents": None if most_cents is None else most_cents[f.name],
            "awards": awards,
        })
    data["wagers"] = entries
    how = "" if simulated is None else f" (SIMULATION over {simulated.hands:,} hands, 95%)"
    return Section("Every wager", (*notes, HOLD_NOTE), (
        TableData("House edge, hold, standard deviation and largest win per wager" + how,
                  ("wager", "edge per unit", "edge per hand", "hold", "element of risk",
                   "std dev per unit", "largest win at the limits"), tuple(rows)),
        TableData("Probability of every award (net result per unit staked)" + how,
                  ("wager", "award", "net", "probability", "frequency"), tuple(award_rows)),
    ))


def _with_interval(x: Fraction, half: float | None) -> str:
    """An exact figure as a percentage, or a simulated one with its 95% half-width."""
    return pct(x) if half is None else f"{pct(x, 3)} ± {pct(half, 3)}"


def _figure(key: str, x: Fraction, half: float | None) -> dict[str, Any]:
    """`key`_exact as a fraction, or for a simulated rate `key`_simulated (the observed ratio)
    and `key`_ci95."""
    if half is None:
        return {f"{key}_exact": frac(x)}
    return {f"{key}_simulated": frac(x), f"{key}_ci95": list(around(float(x), half))}


def volatility_section(figs: Sequence[Wager], charted: Sequence[Wager],
                       data: dict[str, Any], notes: Sequence[str] = ()) -> Section:
    """The 95% bands after 1,000-100,000 hands and the hands until the house is ahead, with a
    chart of the bands per 100 units for the `charted` wagers; numbers in data["volatility"]."""
    rows = []
    entries = []
    for f in figs:
        bands = [f.band(n) for n in HORIZONS]
        ahead = f.hands_to_be_ahead
        rows.append((f.name, *(f"{lo:+,.0f} to {hi:+,.0f}" for lo, hi in bands),
                     "never" if ahead is None else f"{ahead:,}"))
        entries.append({"name": f.name, "bands": {str(n): list(b) for n, b in
                                                  zip(HORIZONS, bands, strict=True)},
                        "hands_to_be_ahead": ahead})
    data["volatility"] = entries
    series = [(f"{f.name}: {side}", CHART_HANDS, [f.band(n)[i] / n * 100 for n in CHART_HANDS])
              for f in charted for i, side in ((0, "lower 95%"), (1, "upper 95%"))]
    chart = line_chart("House result per 100 units wagered: 95% band", "hands",
                       "units per 100 wagered", series, logx=True, hline=0)
    return Section("Volatility", (VOLATILITY_NOTE, *notes), (
        TableData("95% band of the house's result (units), and hands until it is ahead",
                  ("wager", *(f"after {n:,} hands" for n in HORIZONS),
                   "hands to be ahead (95%)"), tuple(rows)),), (chart,))
