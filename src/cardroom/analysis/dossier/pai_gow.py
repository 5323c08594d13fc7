"""The Pai Gow Poker dossier, by simulation (labelled, with 95% intervals: 154 million player
hands against 53 million dealer hands each are not enumerated here): the player's house way
against the dealer's, the optimal player against the house way, the player-banker against 1-6
opponents, the wheel option, and the commission's rounding (exact, given the simulated win and
loss rates)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from cardroom.analysis.dossier.model import Dossier, Section, TableData
from cardroom.analysis.dossier.provenance import Origin, stamp
from cardroom.analysis.dossier.sections import (
    Simulated,
    pct,
    volatility_section,
    wagers_section,
)
from cardroom.analysis.estimate import around
from cardroom.analysis.pai_gow_optimal import DealerTable, dealer_table
from cardroom.analysis.pai_gow_sim import MAX_OTHERS, SimReport, simulate
from cardroom.analysis.wager import Outcome, Wager, frac
from cardroom.games.pai_gow.houseway import house_way
from cardroom.games.pai_gow.rules import PaiGowRules
from cardroom.money import Rounding, format_money, round_div

BETS_CENTS = (500, 700, 1_000, 1_300, 2_500, 10_000)
PUBLISHED_SOURCE = ("the project's reference digest of published figures "
                    "(shared/reference/published-figures.md, \"Pai Gow Poker\"), which names no "
                    "primary publication")
PUBLISHED_COMMISSION = Fraction(5, 100)
"""The published figures are for a 5% commission: at any other they are not cited."""
PUBLISHED_HOUSE_WAY = ("Published simulations of house way against house way with 5% "
                       "commission put the player's house edge at about 2.7% to 2.9%; source: "
                       f"{PUBLISHED_SOURCE}.")
PUBLISHED_OPTIMAL = ("Published simulations put optimal setting about 0.2% below the house way; "
                     f"source: {PUBLISHED_SOURCE}.")
UNITS_CENTS = (1, 25, 100)


def _ci(value: float, half: float) -> str:
    return f"{pct(value, 3)} ± {pct(half, 3)}"


def build(rules: PaiGowRules, hands: int, seed: int, workers: int = 1,
          scheduler: str | None = None, progress: bool = False,
          table: DealerTable | None = None, origin: Origin | None = None) -> Dossier:
    """`table`: the house way's full-deck table for the optimal player (by default the cached
    one, counted once with a progress bar if the cache lacks it); `origin`: the command line
    that asked for it (None: a Python call)."""
    way = house_way(rules.house_way)
    if table is None:
        table = dealer_table(way, rules.wheel_second, progress=progress)

    def run(wheel_second: bool = rules.wheel_second, banking: bool = False,
            others: int = 0, strategy: str = "house-way") -> SimReport:
        return simulate(hands, seed, way, rules.commission, wheel_second, workers, scheduler,
                        progress, banking=banking, others=others, strategy=strategy,
                        table=table)

    optimal = run(strategy="optimal")
    base = optimal.house_way_report()  # the same hands: one run gives both
    other_wheel = run(wheel_second=not rules.wheel_second)
    banked = [run(banking=True, others=k) for k in range(MAX_OTHERS + 1)]
    data: dict[str, Any] = {"game": "pai-gow", "rules": rules.model_dump(mode="json"),
                            "hands": hands, "seed": seed, "simulation": True}
    p = base.player
    fig = Wager.exact("player", [Outcome("win", 1 - rules.commission, p.win),
                                 Outcome("push", Fraction(0), p.push),
                                 Outcome("lose", Fraction(-1), p.loss)], p.total)
    edge, half = base.house_edge
    data["house_edge_ci95"] = list(around(edge, half))
    published = rules.commission == PUBLISHED_COMMISSION
    sections = (
        wagers_section([fig], None, data, (
            f"SIMULATION: {hands:,} hands (seed {seed}), the player setting by the house way "
            f"({way.title}) against the dealer's; house edge {_ci(edge, half)} (95%)."
            + (f" {PUBLISHED_HOUSE_WAY}" if published else ""),
            "Every figure of this section is a rate observed in the simulation, shown with "
            "its 95% interval (the JSON names them *_simulated, beside *_ci95 intervals).",
            "Maximum exposure of one hand: the player's wager less commission; the house "
            "rules set no table limit."), Simulated(hands, half)),
        volatility_section([fig], [fig], data, ("From the simulated rates.",)),
        _optimal_section(optimal, data, published),
        _banking_section(banked, data),
        _wheel_section(rules, base, other_wheel, data),
        _rounding_section(rules, base, data),
    )
    cover = (
        ("Game", "Pai Gow Poker, 53 cards (one joker)"),
        ("House way", way.title),
        ("Commission", f"{float(rules.commission) * 100:g}% of winnings, rounded "
                       f"{rules.commission_rounding.value} to {rules.smallest_chip_cents}¢"),
        ("Wheel", "A-2-3-4-5 second highest" if rules.wheel_second else "A-2-3-4-5 lowest"),
        ("Method", f"simulation over {hands:,} hands per figure, 95% intervals (labelled)"),
    )
    return Dossier("pai-gow", "Math dossier: Pai Gow Poker (simulation)", cover, sections,
                   stamp("pai-gow", origin, (("every simulation run (the same hands for each "
                                               "figure)", seed),)), data)


def _optimal_section(report: SimReport, data: dict[str, Any], published: bool) -> Section:
    edge, gain, hw = report.house_edge, report.optimal_gain, report.house_way_edge
    assert gain is not None and hw is not None  # an optimal run pairs every hand
    data["optimal"] = {name: {"value": v, "ci95_half_width": h} for name, (v, h) in (
        ("house_edge", edge), ("house_way_same_hands", hw), ("gain_over_house_way", gain))}
    return Section("The optimal player against the house way (simulation)", (
        "SIMULATION on the same hands as above: the player sets each hand to maximise his "
        "expected result against the dealer's house way over the full 53-card deck (the "
        "dealer's 154,143,080 possible hands counted once and cached: about 48 s on two cores "
        "the first time, then read from the cache); it ignores the removal of the player's own "
        "seven cards. The gain is paired hand by hand against the house way.",
        *([PUBLISHED_OPTIMAL] if published else [])), (
        TableData("House edge by the player's setting (95%)", ("player sets by", "house edge"), (
            ("the optimal setter", _ci(*edge)), ("the house way, same hands", _ci(*hw)),
            ("gain of the optimal setter", _ci(*gain)))),))


def _banking_section(banked: list[SimReport], data: dict[str, Any]) -> Section:
    rows = []
    entries = []
    for r in banked:
        result, half = r.bank_result
        cost, cost_half = r.house_edge
        rows.append((str(r.others + 1), f"{result:+.4f} ± {half:.4f}", _ci(cost, cost_half)))
        entries.append({"opponents": r.others + 1, "bank_result_per_banked_hand": result,
                        "ci95_half_width": half, "player_cost_per_hand": cost})
    data["banking"] = entries
    return Section("The player-banker against 1 to 6 opponents (simulation)", (
        "The player banks every other hand against the house dealer and 0-5 other players "
        "setting by the house way, each wagering one unit; commission on the bank's net win. "
        "The bank's result is per banked hand in units; the cost per hand is the player's loss "
        "over all his hands, banked and not, per unit of his wager.",), (
        TableData("The bank's result by opponents", (
            "opponents", "bank result per banked hand (units)", "player's cost per hand"),
            tuple(rows)),))


def _wheel_section(rules: PaiGowRules, base: SimReport, other: SimReport,
                   data: dict[str, Any]) -> Section:
    rows = []
    entries = []
    for second, report in sorted(((rules.wheel_second, base), (not rules.wheel_second, other))):
        edge, half = report.house_edge
        name = "second highest" if second else "lowest"
        rows.append((f"A-2-3-4-5 {name}", _ci(edge, half)))
        entries.append({"wheel_second_highest": second, "house_edge": edge,
                        "ci95_half_width": half})
    data["wheel"] = entries
    return Section("The wheel option (simulation)", (
        "The same seed deals the same cards under both rankings of A-2-3-4-5.",), (
        TableData("House edge by the wheel's rank", ("wheel", "house edge (95%)"),
                  tuple(rows)),))


def rounded_edge(p_win: Fraction, p_loss: Fraction, bet_cents: int, rate: Fraction,
                 rounding: Rounding, unit_cents: int) -> Fraction:
    """The house edge per unit on a bet of `bet_cents` whose commission (rate x winnings) is
    rounded to whole units of `unit_cents` in the given direction."""
    charge = round_div(bet_cents * rate.numerator, rate.denominator * unit_cents,
                       rounding) * unit_cents
    return p_loss - p_win * (1 - Fraction(charge, bet_cents))


def _rounding_section(rules: PaiGowRules, base: SimReport, data: dict[str, Any]) -> Section:
    p = base.player
    p_win, p_loss = Fraction(p.win, p.total), Fraction(p.loss, p.total)
    rows = []
    entries = []
    for unit in UNITS_CENTS:
        for rounding in Rounding:
            edges = [rounded_edge(p_win, p_loss, b, rules.commission, rounding, unit)
                     for b in BETS_CENTS]
            rows.append((f"{rounding.value} to {unit}¢", *(pct(e, 3) for e in edges)))
            entries.append({"rounding": rounding.value, "unit_cents": unit,
                            "by_bet": {str(b): frac(e) for b, e in
                                       zip(BETS_CENTS, edges, strict=True)}})
    data["commission_rounding"] = {"p_win": frac(p_win), "p_loss": frac(p_loss),
                                   "policies": entries}
    return Section("The effect of commission rounding", (
        "The house edge per unit on one bet when the commission on its winnings is rounded: "
        "exact for the simulated win and loss rates. Rounding up to a coarse unit charges "
        "small bets more than the posted rate; rounding down charges less (house rules accept "
        "only rounding down, so the commission never exceeds the posted rate).",), (
        TableData("House edge by bet and rounding", (
            "commission rounded", *(format_money(b) for b in BETS_CENTS)), tuple(rows)),))
