"""`cardroom analyze baccarat --counting`: the card-counting exposure of the Super-9 side bets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table

from cardroom.cli.options import console, print_json
from cardroom.games.baccarat.rules import BaccaratRules

if TYPE_CHECKING:
    from cardroom.analysis.baccarat_counting import CountingReport

DEFAULT_COUPS = 100_000_000
DEFAULT_STATES = 200


def run_counting(rules: BaccaratRules, coups: int, states: int, seed: int | None, workers: int,
                 scheduler: str | None, as_json: bool) -> None:
    from cardroom.analysis.baccarat_counting import counting_report

    report = counting_report(rules, coups, seed, states=states, workers=workers,
                             scheduler=scheduler, progress=not as_json)
    if as_json:
        print_json(report.to_json())
        return
    print_counting(report)


def _pct(x: float) -> str:
    return f"{x * 100:+.4f}%"


def print_counting(report: CountingReport) -> None:
    from cardroom.analysis.baccarat_counting import SIDE_BETS, WAGERS

    rules = report.rules
    console.print(f"[bold]Card counting, Super-9 Mini-Baccarat[/bold]: {rules.decks} decks, "
                  f"pay table {rules.paytable}, progressive valued with the top award at the "
                  f"seed ${rules.jackpot_seed_cents / 100:,.2f}", highlight=False)
    eor = Table(title="Effects of removal: change in the player's expectation per unit when one "
                      "card is taken from the full shoe (each rank: the same in all four suits)")
    eor.add_column("card")
    for w in WAGERS:
        eor.add_column(w, justify="right")
    by_rank: dict[str, list[str]] = {}
    for card, effects in report.effects.by_card.items():
        row = [_pct(float(effects[w])) for w in WAGERS]
        rank = card.rank.symbol
        if by_rank.get(rank, row) != row:
            rank = str(card)
        by_rank.setdefault(rank, row)
    for name, row in by_rank.items():
        eor.add_row(name, *row)
    eor.add_row("off the top", *[_pct(float(report.effects.base[w])) for w in WAGERS],
                end_section=True)
    console.print(eor)
    counts = Table(title="Best linear count per side bet (tags by value: 0 = ten and pictures)")
    for col in ("wager", *(str(v) for v in range(10)), "betting correlation"):
        counts.add_column(col, justify="right")
    for c in report.counts:
        counts.add_row(c.wager, *(str(t) for t in c.tags), f"{c.betting_correlation:.3f}")
    console.print(counts)
    sim = Table(title=f"A counter who bets only at a positive count: {report.coups:,} coups "
                      f"from {report.shoes:,} shoes (seed {report.seed})")
    for col in ("wager", "counter's edge", "95% CI", "coups bet", "units per 100 coups",
                "shown beatable from"):
        sim.add_column(col, justify="right")
    for r in report.counters:
        low, high = r.ci
        sim.add_row(r.wager, "never bet" if r.edge is None else _pct(float(r.edge)),
                    "" if r.edge is None else f"{_pct(low)} .. {_pct(high)}",
                    f"{r.fraction_bet:.3%}", f"{r.units_per_100_coups:+.4f}",
                    "-" if r.needed_penetration is None else f"{r.needed_penetration:.1%}")
    console.print(sim)
    check = Table(title="Cross-check on sampled shoe states: the count's estimate against the "
                        "exact depleted-shoe edge")
    for col in ("wager", "states", "correlation", "mean abs error", "bet decision agrees",
                "exact edge where the count bets"):
        check.add_column(col, justify="right")
    for x in report.checks:
        check.add_row(x.wager, str(x.states), f"{x.correlation:.3f}",
                      _pct(x.mean_abs_error).lstrip("+"), f"{x.decisions_agree:.1%}",
                      "-" if x.exact_mean_when_bet is None else _pct(x.exact_mean_when_bet))
    console.print(check)
    assert [r.wager for r in report.counters] == list(SIDE_BETS)
    for r in report.counters:
        console.print(r.answer(), highlight=False, soft_wrap=True)
