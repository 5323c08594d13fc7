"""The sections every game's dossier has: every wager's figures and the volatility."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from cardroom.analysis.dossier.charts import line_chart
from cardroom.analysis.dossier.model import Section, TableData
from cardroom.analysis.estimate import Z95, Z95_ONE_SIDED
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


def wagers_section(figs: Sequence[Wager], most_cents: dict[str, int] | None,
                   data: dict[str, Any], notes: Sequence[str]) -> Section:
    """Edge per unit and per hand, hold, element of risk, std dev, the largest win at the
    limits (None: the house rules set none), and every award's probability; the numbers go
    to data["wagers"]."""
    rows = []
    award_rows = []
    entries = []
    for f in figs:
        eor = f.element_of_risk
        rows.append((f.name, pct(f.house_edge), pct(f.house_edge), pct(f.house_edge),
                     "-" if eor is None else pct(eor), f"{f.std_dev:.4f}",
                     "no limit set" if most_cents is None else format_money(most_cents[f.name])))
        for a in f.outcomes:
            p = f.chance(a)
            award_rows.append((f.name, a.label.replace("_", " "), f"{float(a.net):+g}",
                               f"{float(p):.10f}", f"1 in {float(1 / p):,.2f}"))
        entries.append({
            "name": f.name, "house_edge": float(f.house_edge),
            "house_edge_exact": frac(f.house_edge), "house_edge_per_hand": float(f.house_edge),
            "hold": float(f.house_edge),
            "element_of_risk": None if eor is None else float(eor),
            "std_dev": f.std_dev,
            "max_payout_cents": None if most_cents is None else most_cents[f.name],
            "awards": [{"label": a.label, "net": frac(a.net),
                        "probability": float(f.chance(a)),
                        "probability_exact": frac(f.chance(a))} for a in f.outcomes],
        })
    data["wagers"] = entries
    return Section("Every wager", (*notes, HOLD_NOTE), (
        TableData("House edge, hold, standard deviation and largest win per wager",
                  ("wager", "edge per unit", "edge per hand", "hold", "element of risk",
                   "std dev per unit", "largest win at the limits"), tuple(rows)),
        TableData("Probability of every award (net result per unit staked)",
                  ("wager", "award", "net", "probability", "frequency"), tuple(award_rows)),
    ))


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
