"""The Super Pan 9 dossier: every wager, volatility, the rules' stated pays, the optimal strategy,
the house edge for every commission 0-5% and deck count 1-8, and the Tie Bet at 6 to 9 to 1."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from cardroom.analysis.dossier.charts import line_chart
from cardroom.analysis.dossier.model import Dossier, Section, TableData
from cardroom.analysis.dossier.provenance import Origin, stamp
from cardroom.analysis.dossier.sections import pct, volatility_section, wagers_section
from cardroom.analysis.super_pan_9 import SuperPan9Analysis, analyse, tie_result
from cardroom.analysis.wager import Wager, frac
from cardroom.games.super_pan_9.rules import SuperPan9Rules
from cardroom.money import format_money

COMMISSIONS = tuple(Fraction(k, 100) for k in range(6))
DECKS = tuple(range(1, 9))
TIE_PAYS = (6, 7, 8, 9)
RULES_TIE_PAYS = 8
"""Rule 9: the Tie Bet "pays 8 to 1"."""


def wager_figures(report: SuperPan9Analysis) -> list[Wager]:
    """The main wager (optimal strategy) and the Tie Bet from the exact probabilities."""
    m, t = report.optimal, report.tie
    main = Wager.from_probabilities("main", [("win", 1 - report.commission, m.win),
                                             ("push", Fraction(0), m.push),
                                             ("lose", Fraction(-1), m.loss)])
    tie = Wager.from_probabilities("tie", [("win", t.pays * (1 - t.commission), t.probability),
                                           ("lose", Fraction(-1), 1 - t.probability)])
    return [main, tie]


def max_payouts_cents(rules: SuperPan9Rules) -> dict[str, int]:
    """The most each wager can win (net of commission) at the table's limits."""
    main = rules.max_wager_cents - rules.commission_policy.charge(rules.max_wager_cents)
    tie_win = rules.tie_max_cents * rules.tie_pays
    return {"main": main, "tie": tie_win - rules.tie_commission_policy.charge(tie_win)}


def build(rules: SuperPan9Rules, origin: Origin | None = None) -> Dossier:
    """`origin`: the command line that asked for it (None: a Python call)."""
    report = analyse(rules.decks, rules.commission, rules.tie_pays, rules.commission_on_tie_bet)
    figs = wager_figures(report)
    data: dict[str, Any] = {"game": "super-pan-9", "rules": rules.model_dump(mode="json")}
    sections = (
        _wagers_section(rules, figs, data),
        volatility_section(figs, figs, data),
        _claims_section(report, data),
        _strategy_section(report, data),
        _grid_section(rules, data),
        _tie_section(rules, report, data),
    )
    cover = (
        ("Game", "Super Pan 9"),
        ("Shoe", f"{rules.decks} deck(s) of 36 cards (sevens to tens and jokers removed)"),
        ("Commission", f"{float(rules.commission) * 100:g}% on winning bets"
                       f"{', Tie Bet included' if rules.commission_on_tie_bet else ''}"),
        ("Tie Bet", f"{rules.tie_pays} to 1"),
        ("Limits", f"{format_money(rules.min_wager_cents)}-{format_money(rules.max_wager_cents)}"
                   f", Tie Bet up to {format_money(rules.tie_max_cents)}"),
        ("Method", "exact enumeration over the finite shoe by composition (integer counts, "
                   "fractions); the player draws by the optimal strategy"),
    )
    return Dossier("super-pan-9", "Math dossier: Super Pan 9", cover, sections,
                   stamp("super-pan-9", origin), data)


def _wagers_section(rules: SuperPan9Rules, figs: list[Wager],
                    data: dict[str, Any]) -> Section:
    most = max_payouts_cents(rules)
    exposure = max(most.values())
    data["max_hand_exposure_cents"] = exposure
    notes = (
        "Each wager is one hand's bet: its edge per unit and per hand are the same; the main "
        "wager's includes the commission on winning bets.",
        f"Maximum exposure of one hand: {format_money(exposure)}: a tie pushes the main wager, "
        "so the main wager and the Tie Bet never both win; the larger of the two at its limit.",
    )
    return wagers_section(figs, most, data, notes)


def _claims_section(report: SuperPan9Analysis, data: dict[str, Any]) -> Section:
    be = report.tie.break_even_pays
    right = Fraction(RULES_TIE_PAYS) < be
    data["claims"] = [{"name": "tie", "stated_pays": RULES_TIE_PAYS,
                       "break_even_pays": float(be), "break_even_pays_exact": frac(be),
                       "favours_house": right}]
    verdict = "right" if right else "wrong"
    edge = tie_result(report.tie.probability, RULES_TIE_PAYS, report.tie.commission).house_edge
    notes = ("The Super Pan 9 rules state no house edge. They state the Tie Bet's pay, 8 to 1 "
             "(rule 9), which a house game must keep below its break-even pay; and that the "
             "house may charge up to 5% on winning bets (rule 8).",)
    return Section("The rules' stated figures", notes, (
        TableData("The Tie Bet's stated pay against its exact break-even",
                  ("wager", "stated pay", "exact break-even pay", "house keeps an edge"),
                  (("tie", f"{RULES_TIE_PAYS} to 1", f"{float(be):.6f} to 1",
                    f"{verdict}: edge {pct(edge)}"),)),
    ))


def _strategy_section(report: SuperPan9Analysis, data: dict[str, Any]) -> Section:
    by_total = report.table.by_total
    rows = tuple((str(t), "draw" if draw else "stand") for t, draw in by_total.items())
    data["strategy"] = {"by_total": {str(t): "draw" if d else "stand"
                                     for t, d in by_total.items()},
                        "exceptions": [list(r.cards) for r in report.table.exceptions]}
    close = sorted(report.results, key=lambda r: abs(r.gain_from_drawing(report.commission)))[:6]
    close_rows = tuple((" ".join(map(str, r.cards)), str(r.total),
                        "draw" if report.strategy[r.cards] else "stand",
                        pct(r.gain_from_drawing(report.commission), 3)) for r in close)
    notes = (f"The optimal decision for each of the {len(report.results)} three-card holdings "
             f"(by composition), commission included: {len(report.table.exceptions)} "
             "holding(s) differ from the table by total.",)
    return Section("The optimal strategy", notes, (
        TableData("Strategy to post, by three-card total", ("total", "decision"), rows),
        TableData("The closest decisions", ("holding (values)", "total", "decision",
                                            "gain from drawing"), close_rows),
    ))


def _grid_section(rules: SuperPan9Rules, data: dict[str, Any]) -> Section:
    grid: dict[int, list[Fraction]] = {}
    for decks in DECKS:
        grid[decks] = [analyse(decks, c, rules.tie_pays).optimal.house_edge for c in COMMISSIONS]
    data["edge_by_decks_and_commission"] = {
        str(d): {f"{int(c * 100)}%": float(e) for c, e in zip(COMMISSIONS, edges, strict=True)}
        for d, edges in grid.items()}
    rows = tuple((str(d), *(pct(e) for e in edges)) for d, edges in grid.items())
    chart = line_chart("Main wager house edge by commission (optimal strategy)",
                       "commission (%)", "house edge (%)",
                       [(f"{d} deck(s)", [float(c) * 100 for c in COMMISSIONS],
                         [float(e) * 100 for e in grid[d]]) for d in (1, 2, 4, 8)], hline=0)
    return Section("House edge for every commission and deck count", (
        "The main wager's exact house edge for an optimal player, 1 to 8 decks, commission 0% "
        "to 5% on winning bets.",), (
        TableData("Main wager house edge", ("decks", *(f"{int(c * 100)}%" for c in COMMISSIONS)),
                  rows),), (chart,))


def _tie_section(rules: SuperPan9Rules, report: SuperPan9Analysis,
                 data: dict[str, Any]) -> Section:
    p = report.tie.probability
    rows = []
    entries = []
    for pays in TIE_PAYS:
        t = tie_result(p, pays, report.tie.commission)
        rows.append((f"{pays} to 1", pct(t.house_edge),
                     "player" if t.house_edge < 0 else "house"))
        entries.append({"pays": pays, "house_edge": float(t.house_edge),
                        "house_edge_exact": frac(t.house_edge)})
    be = report.tie.break_even_pays
    data["tie_bet"] = {"probability": float(p), "probability_exact": frac(p),
                       "by_pays": entries, "break_even_pays": float(be),
                       "break_even_pays_exact": frac(be)}
    notes = (f"A tie happens with probability {float(p):.6f} ({rules.decks} decks, optimal "
             f"play); the Tie Bet breaks even at {float(be):.4f} to 1.",)
    return Section("The Tie Bet at every pay from 6 to 9 to 1", notes, (
        TableData("Tie Bet house edge by pay", ("pays", "house edge", "favours"),
                  tuple(rows)),))
