"""The Mini-Baccarat / Super-9 dossier: every wager, volatility, the designer's claims, every
pay table, the progressive against its meter, and the card-counting exposure."""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations
from typing import Any

from cardroom.analysis.baccarat import (
    BaccaratReport,
    CoupCounts,
    WagerMath,
    analyze,
    shared_break_even_cents,
)
from cardroom.analysis.baccarat_counting import LABELS, CountingReport, counting_report
from cardroom.analysis.baccarat_depleted import DepletedShoe, full_composition
from cardroom.analysis.dossier.charts import bar_chart, line_chart
from cardroom.analysis.dossier.model import Dossier, Section, TableData
from cardroom.analysis.dossier.provenance import Origin, stamp
from cardroom.analysis.dossier.sections import pct, volatility_section, wagers_section
from cardroom.analysis.wager import frac
from cardroom.errors import WagerError
from cardroom.games.baccarat.coup import Hand
from cardroom.games.baccarat.limits import check_bets
from cardroom.games.baccarat.paytables import nine_pay_table, nine_pay_tables, progressive_schedule
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.wagers import ProgressiveAward, WagerKind, fixed_award_for_one
from cardroom.money import format_money

CONTRIBUTIONS = (Fraction(1, 5), Fraction(1, 4), Fraction(3, 10), Fraction(2, 5), Fraction(1, 2))
SHARERS = tuple(range(1, 8))
"""Jackpot bettors who can share a top award: one to the seven seats of a table."""
SEEDS_CENTS = (250_000, 500_000, 1_000_000, 2_500_000, 5_000_000)
"""The seeds compared: the document's $2,500 minimum and above (a lower seed is refused)."""


def max_payout_cents(rules: BaccaratRules) -> dict[str, int]:
    """The most one wager can win (net) at the table's limits; the progressive's for-1 awards
    only (its top award is the posted meter)."""
    pay = nine_pay_table(rules.paytable)
    top = rules.table_max_cents
    sched = progressive_schedule()
    return {
        "player": top,
        "banker": top - rules.commission_policy.charge(top),
        "tie": rules.tie_max_cents * rules.tie_pays,
        "player_9": rules.bonus_max_cents * max(pay.player_suited, pay.player_unsuited),
        "banker_9": rules.bonus_max_cents * max(pay.banker_suited, pay.banker_unsuited),
        "progressive": sched.wager_cents * (sched.both_suited_ace_eight - 1),
    }


def max_hand_exposure_cents(rules: BaccaratRules) -> int:
    """The house's largest net payout on one seat's hand: every combination of wagers that the
    table's own limits accept (`limits.check_bets`, each wager at its maximum, the progressive
    at $1 with its for-1 awards), over every pair of final totals with nines suited or not;
    a losing wager counts against the payout, a push nothing. The top award is not included:
    it is paid from the meter."""
    pay = nine_pay_table(rules.paytable)
    sched = progressive_schedule()
    stake = {WagerKind.PLAYER: rules.table_max_cents, WagerKind.BANKER: rules.table_max_cents,
             WagerKind.TIE: rules.tie_max_cents, WagerKind.PLAYER_9: rules.bonus_max_cents,
             WagerKind.BANKER_9: rules.bonus_max_cents,
             WagerKind.PROGRESSIVE: sched.wager_cents}
    legal = _accepted_combinations(stake, rules)
    most = max_payout_cents(rules)
    best = 0
    for pt, bt, p_suited, b_suited in _final_hands():
        net = {
            WagerKind.PLAYER: most["player"] if pt > bt else
            (0 if pt == bt else -stake[WagerKind.PLAYER]),
            WagerKind.BANKER: most["banker"] if bt > pt else
            (0 if pt == bt else -stake[WagerKind.BANKER]),
            WagerKind.TIE: most["tie"] if pt == bt else -stake[WagerKind.TIE],
            WagerKind.PLAYER_9: _nine_net(pt, p_suited, rules, pay.player_unsuited,
                                          pay.player_suited),
            WagerKind.BANKER_9: _nine_net(bt, b_suited, rules, pay.banker_unsuited,
                                          pay.banker_suited),
            WagerKind.PROGRESSIVE: sched.wager_cents * (
                (sched.both_suited_ace_eight if p_suited and b_suited
                 else sched.one_suited_nine if p_suited or b_suited else 0) - 1),
        }
        best = max(best, *(sum(net[kind] for kind in kinds) for kinds in legal))
    return best


def _accepted_combinations(stake: dict[WagerKind, int],
                           rules: BaccaratRules) -> list[tuple[WagerKind, ...]]:
    """Every combination of wagers, each at its stake, that `limits.check_bets` accepts."""
    legal = []
    for k in range(1, len(stake) + 1):
        for kinds in combinations(stake, k):
            try:
                check_bets({kind: stake[kind] for kind in kinds}, rules)
            except WagerError:
                continue
            legal.append(kinds)
    return legal


def _final_hands() -> Iterator[tuple[int, int, bool, bool]]:
    """(Player total, Banker total, Player's nine suited, Banker's nine suited): a total other
    than nine is never counted suited."""
    for pt in range(10):
        for bt in range(10):
            for p_suited in (False, True) if pt == 9 else (False,):
                for b_suited in (False, True) if bt == 9 else (False,):
                    yield pt, bt, p_suited, b_suited


def _nine_net(total: int, suited: bool, rules: BaccaratRules, unsuited_odds: int,
              suited_odds: int) -> int:
    if total != 9:
        return -rules.bonus_max_cents
    return rules.bonus_max_cents * (suited_odds if suited else unsuited_odds)


def progressive_return(counts: CoupCounts, jackpot_cents: int) -> Fraction:
    """A lone $1 bettor's expected return (per $1) with the top award at `jackpot_cents`."""
    by_award = counts.progressive()
    wager = progressive_schedule().wager_cents
    ret = Fraction(0)
    for award, k in by_award.items():
        value = (Fraction(jackpot_cents, wager) if award is ProgressiveAward.JACKPOT
                 else Fraction(fixed_award_for_one(award)))
        ret += value * Fraction(k, counts.total)
    return ret


def build(rules: BaccaratRules, coups: int, seed: int | None, workers: int = 1,
          scheduler: str | None = None, progress: bool = False,
          origin: Origin | None = None) -> Dossier:
    """`origin`: the command line that asked for it (None: a Python call)."""
    counts = DepletedShoe().counts(full_composition(rules.decks), rules.decks)
    report = analyze(rules, counts=counts)
    figs = [w for w in report.wagers if rules.jackpot or w.name != "progressive"]
    counting = counting_report(rules, coups, seed, states=50, workers=workers,
                               scheduler=scheduler, progress=progress)
    data: dict[str, Any] = {"game": "baccarat", "rules": rules.model_dump(mode="json")}
    sections = [
        _wagers_section(rules, figs, data),
        volatility_section(figs, figs[:3], data),
        _claims_section(report, data),
        _paytables_section(rules, counts, data),
        *([_progressive_section(rules, counts, report, data)] if rules.jackpot else []),
        _outcomes_section(report, data),
        _counting_section(counting, data),
    ]
    cover = (
        ("Game", "Mini-Baccarat with the Super-9 wagers"),
        ("Shoe", f"{rules.decks} decks, cut card {rules.cut_card_from_end} cards from the end"),
        ("Banker commission", f"{float(rules.commission) * 100:g}% "
                              f"(rounded {rules.commission_rounding.value})"),
        ("Tie", f"{rules.tie_pays} to 1"),
        ("Super-9 pay table", str(rules.paytable)),
        ("Progressive", f"seed {format_money(rules.jackpot_seed_cents)}, "
                        f"{rules.contribution_cents_per_dollar}¢ of each $1 to the meter"
                        if rules.jackpot else "not offered"),
        ("Limits", f"table {format_money(rules.table_min_cents)}-"
                   f"{format_money(rules.table_max_cents)}, tie up to "
                   f"{format_money(rules.tie_max_cents)}, Player-9/Banker-9 up to "
                   f"{format_money(rules.bonus_max_cents)}"),
        ("Method", "exact enumeration of every coup over the finite shoe (integer counts, "
                   "fractions); card counting by simulation over real shoes, labelled"),
    )
    return Dossier("baccarat", "Math dossier: Mini-Baccarat and Super-9", cover,
                   tuple(sections), stamp("baccarat", origin, (
                       ("card-counting simulation and its sampled shoe states",
                        counting.seed),)), data)


def _wagers_section(rules: BaccaratRules, figs: list[WagerMath],
                    data: dict[str, Any]) -> Section:
    exposure = max_hand_exposure_cents(rules)
    data["max_hand_exposure_cents"] = exposure
    notes = [
        "Each wager is one hand's bet, so its edge per unit wagered and per hand are the same; "
        "the Banker's includes the commission.",
        f"Maximum exposure of one hand: {format_money(exposure)} (every combination of wagers "
        "the table's limits accept, each at its maximum)."]
    if rules.jackpot:
        notes[-1] = notes[-1][:-2] + (
            "), plus the posted jackpot on the progressive, whose top award is paid from the "
            "meter and limited to what is posted.")
        notes.append(
            "The progressive's edge is one minus the fixed for-1 awards, minus the contribution "
            "to the meter, minus the chance of the top award times the seed (one jackpot wager "
            "per coup); its standard deviation and volatility value the top award at the seed, "
            "whose rare large awards make the normal band rough.")
    return wagers_section(figs, max_payout_cents(rules), data, notes)


def _claims_section(report: BaccaratReport, data: dict[str, Any]) -> Section:
    rows = []
    entries = []
    for w in report.wagers:
        if w.claimed_edge_percent is None:
            continue
        rows.append((w.name, f"{w.claimed_edge_percent}%", pct(w.house_edge, 6),
                     _verdict(w.claim_agrees)))
        entries.append({"name": w.name, "claimed_percent": str(w.claimed_edge_percent),
                        "exact": frac(w.house_edge), "agrees": bool(w.claim_agrees)})
    data["claims"] = entries
    notes = ("The designer's house edges from the Super-9 rules document, each compared with "
             "the exact figure at the precision the claim states: a claim written to two "
             "places agrees when it is the exact figure rounded to two places, down or up "
             "(it differs by less than 0.01 point; compared exactly, as fractions).",)
    return Section("The designer's claims", notes, (
        TableData("Claims under the analysed pay table", ("wager", "claimed", "exact",
                                                          "verdict"), tuple(rows)),))


def _verdict(agrees: bool | None) -> str:
    if agrees is None:
        return "-"
    return "agrees to the precision stated" if agrees else "wrong"


def _paytables_section(rules: BaccaratRules, counts: CoupCounts,
                       data: dict[str, Any]) -> Section:
    rows = []
    entries = []
    for number, table in sorted(nine_pay_tables().items()):
        r = analyze(rules.model_copy(update={"paytable": number}), counts=counts)
        for name, unsuited, suited in (("player_9", table.player_unsuited, table.player_suited),
                                       ("banker_9", table.banker_unsuited, table.banker_suited)):
            w = r.wager(name)
            claim = w.claimed_edge_percent
            rows.append((f"table {number}", name, f"{unsuited} to 1", f"{suited} to 1",
                         pct(w.house_edge), "-" if claim is None else f"{claim}%",
                         _verdict(w.claim_agrees)))
            entries.append({"paytable": number, "wager": name, "house_edge": float(w.house_edge),
                            "house_edge_exact": frac(w.house_edge),
                            "claimed_percent": None if claim is None else str(claim),
                            "agrees": w.claim_agrees})
    data["paytables"] = entries
    return Section("Every Super-9 pay table", (NINES_NOTE,), (
        TableData("Player-9 and Banker-9 under pay tables 1-3", (
            "pay table", "wager", "nine pays", "suited nine pays", "house edge", "claimed",
            "verdict"), tuple(rows)),
        _nines_table(counts, data)))


NINES_NOTE = ("Player-9 and Banker-9 pay on the hand's final total of nine, \"a two card total "
              "of 9 or three card total of 9\", at the suited pay when every card of the hand "
              "is one suit. Their nines by how they are made, exactly (a two-card nine is a "
              "natural and always the final hand):")


def _nines_table(counts: CoupCounts, data: dict[str, Any]) -> TableData:
    player, banker = counts.nines(Hand.PLAYER), counts.nines(Hand.BANKER)
    rows = tuple((kind, f"{p / counts.total:.10f}", f"1 in {counts.total / p:,.2f}",
                  f"{banker[kind] / counts.total:.10f}", f"1 in {counts.total / banker[kind]:,.2f}")
                 for kind, p in player.items())
    data["nines"] = {hand.name.lower(): {
        kind: {"sequences": k, "probability": k / counts.total,
               "probability_exact": frac(Fraction(k, counts.total))}
        for kind, k in counts.nines(hand).items()} for hand in (Hand.PLAYER, Hand.BANKER)}
    return TableData("Nines by how they are made (probability per coup)", (
        "nine", "Player", "Player frequency", "Banker", "Banker frequency"), rows)


def _progressive_section(rules: BaccaratRules, counts: CoupCounts, report: BaccaratReport,
                         data: dict[str, Any]) -> Section:
    w = report.wager("progressive")
    be = w.break_even_jackpot_cents
    assert be is not None
    seed = rules.jackpot_seed_cents
    top = max(int(be * 3 // 2), seed * 2)
    meters = [seed + (top - seed) * k // 40 for k in range(41)]
    returns = [float(progressive_return(counts, m)) * 100 for m in meters]
    chart = line_chart("A lone bettor's return against the posted jackpot", "posted jackpot ($)",
                       "return per $1 (%)", [("return", [m / 100 for m in meters], returns)],
                       marks=[(f"break-even {format_money(math.ceil(be))}", float(be) / 100)],
                       hline=100)
    contribution_rows = []
    seed_rows = []
    entries_c = []
    entries_s = []
    for c in CONTRIBUTIONS:
        edge = analyze(replace_rules(rules, jackpot_contribution=c),
                       counts=counts).wager("progressive").house_edge
        contribution_rows.append((f"{int(c * 100)}¢", pct(edge)))
        entries_c.append({"contribution": frac(c), "house_edge": float(edge)})
    for s in SEEDS_CENTS:
        edge = analyze(replace_rules(rules, jackpot_seed_cents=s),
                       counts=counts).wager("progressive").house_edge
        seed_rows.append((format_money(s), pct(edge)))
        entries_s.append({"seed_cents": s, "house_edge": float(edge)})
    shared_rows = []
    entries_shared = []
    for k in SHARERS:
        shared = shared_break_even_cents(counts, k)
        assert shared is not None  # the lone break-even exists
        exact, least = shared
        shared_rows.append((str(k), f"{float(exact) / 100:,.4f}", format_money(least)))
        entries_shared.append({"sharers": k, "jackpot_cents_exact": frac(exact),
                               "least_posted_cents": least})
    data["progressive"] = {
        "break_even_jackpot_cents": math.ceil(be), "break_even_jackpot_cents_exact": frac(be),
        "return_at_seed": float(progressive_return(counts, seed)),
        "break_even_by_sharers": entries_shared,
        "by_contribution": entries_c, "by_seed": entries_s,
    }
    notes = (
        f"Break-even top award: {format_money(math.ceil(be))} (exactly {float(be) / 100:,.4f} "
        "dollars): a lone jackpot bettor's expected return is 100% there, the for-1 awards at "
        "their pays and the top award at that amount. Above it the wager favours the player; "
        "the floor should watch the posted meter against it.",
        "When several bettors hit the top award they share it equally (the rules): every seat "
        "plays the same coup, so every seat with a jackpot wager on it hits, and each gets the "
        "posted amount divided by their number, rounded down to the cent. The break-even "
        "grows in proportion (table below, 1 to 7 seats).",
        f"At the seed a lone bettor gets back "
        f"{pct(progressive_return(counts, seed), 2)} of each $1.",
        "The house edge charges the contribution (returned to players through the meter) and "
        "the seed (the house's cost of each top award).",
    )
    return Section("The progressive", notes, (
        TableData("Break-even top award by the number of jackpot bettors who share it", (
            "bettors sharing", "exact break-even ($)", "least posted jackpot not behind"),
            tuple(shared_rows)),
        TableData("House edge by contribution to the meter (seed as analysed)",
                  ("per $1 to the meter", "house edge"), tuple(contribution_rows)),
        TableData("House edge by seed (contribution as analysed)", ("seed", "house edge"),
                  tuple(seed_rows)),
    ), (chart,))


def replace_rules(rules: BaccaratRules, **changes: Any) -> BaccaratRules:
    """The same house rules with some settings changed, validated again."""
    return BaccaratRules.model_validate({**rules.model_dump(), **changes})


def _outcomes_section(report: BaccaratReport, data: dict[str, Any]) -> Section:
    c = report.counts
    rows = tuple((name, f"{k:,}", f"{k / c.total:.15f}") for name, k in (
        ("Banker wins", c.banker_wins), ("Player wins", c.player_wins), ("Tie", c.ties)))
    data["outcomes"] = {"sequences": c.total, "banker": c.banker_wins, "player": c.player_wins,
                        "tie": c.ties}
    notes = ("Every coup counted as an ordered sequence of six cards (a coup that ends after "
             "four or five cards counts every continuation), the way published tables count.",)
    return Section("Outcomes of the coup", notes, (
        TableData(f"{c.total:,} six-card sequences", ("outcome", "sequences", "probability"),
                  rows),))


def _counting_section(report: CountingReport, data: dict[str, Any]) -> Section:
    data["counting"] = report.to_json()
    side = [c.wager for c in report.counts]
    ranks: dict[str, dict[str, Fraction]] = {}
    for card, eff in report.effects.by_card.items():
        ranks.setdefault(card.rank.symbol, eff)
    eor_rows = tuple((rank, *(pct(eff[w]) for w in side)) for rank, eff in ranks.items())
    tag_rows = tuple((c.wager, *(str(t) for t in c.tags), f"{c.betting_correlation:.3f}")
                     for c in report.counts)
    sim_rows = []
    for r in report.counters:
        low, high = r.ci
        sim_rows.append((r.wager, "never bet" if r.edge is None else pct(r.edge, 3),
                         "-" if r.edge is None else f"{low * 100:+.3f}% to {high * 100:+.3f}%",
                         f"{r.fraction_bet:.3%}", f"{r.units_per_100_coups:+.4f}"))
    check_rows = tuple((c.wager, str(c.states), f"{c.correlation:.3f}",
                        pct(c.mean_abs_error, 3), f"{c.decisions_agree:.1%}")
                       for c in report.checks)
    depth_chart = line_chart(
        "Counter's win per 100 coups dealt, by cut-card depth (simulation)", "penetration (%)",
        "units per 100 coups",
        [(LABELS[r.wager], [p * 100 for p, _, _, _ in r.by_depth],
          [0.0 if e is None else float(e) * b / max(n, 1) * 100
           for _, b, e, n in r.by_depth]) for r in report.counters], hline=0)
    eor_chart = bar_chart("Effect of removing one card on the player's expectation",
                          "% per unit", list(ranks),
                          [(w, [float(eff[w]) * 100 for eff in ranks.values()])
                           for w in side])
    notes = (
        *(r.answer() for r in report.counters),
        f"Simulation over {report.coups:,} coups from {report.shoes:,} real shuffled shoes "
        f"(seed {report.seed}): a counter who bets a side bet only when his count says it "
        "favours him. Exact effects of removal; the count's estimates are checked against the "
        "exact edge of the depleted shoe on sampled shoe states.",
    )
    return Section("Card-counting exposure", notes, (
        TableData("Effects of removal (player's expectation per unit; each rank the same in "
                  "every suit)", ("card", *side), eor_rows),
        TableData("Best linear count (tags by value; 0 = ten and pictures)",
                  ("wager", *(str(v) for v in range(10)), "betting correlation"), tag_rows),
        TableData("The counter at the house's cut card (simulation, 95% intervals)",
                  ("wager", "counter's edge", "95% interval", "coups bet",
                   "units per 100 coups"), tuple(sim_rows)),
        TableData("Cross-check on sampled shoe states: the count against the exact edge",
                  ("wager", "states", "correlation", "mean abs error", "bet decision agrees"),
                  check_rows),
    ), (eor_chart, depth_chart))

