"""`cardroom simulate baccarat`: Monte Carlo over real shoes beside the exact figures."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.table import Table

from cardroom.cli import options as opt
from cardroom.cli.apps import simulate_app
from cardroom.cli.baccarat import (
    Commission,
    JackpotContribution,
    JackpotSeed,
    Paytable,
    TiePays,
    what_if_rules,
)
from cardroom.cli.options import (
    console,
    local_workers,
    modifications_json,
    print_json,
    print_modifications,
)

PROGRESS_FROM = 10_000_000
"""Runs of at least this many coups show a progress bar (on stderr, when it is a terminal)."""


def _frac(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


def _pct(x: float | Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


@simulate_app.command("baccarat")
def simulate_baccarat(
    hands: Annotated[int, typer.Option(help="Coups to deal (at least 2).")],
    seed: opt.RunSeed = None,
    workers: opt.Workers = None,
    scheduler: opt.Scheduler = None,
    decks: opt.Decks = None,
    paytable: Paytable = None,
    commission: Commission = None,
    tie_pays: TiePays = None,
    jackpot_seed: JackpotSeed = None,
    jackpot_contribution: JackpotContribution = None,
    rules: opt.RulesFile = None,
    as_json: opt.AsJson = False,
) -> None:
    """Deal real shuffled shoes to the cut card; every wager's observed house edge with a 95%
    confidence interval, beside the exact value."""
    from cardroom.analysis.baccarat_sim import simulate
    from cardroom.analysis.parallel import check_count

    n_workers = local_workers(workers, scheduler)
    check_count(hands, "hands", 2)
    settings = what_if_rules(rules, decks, paytable, commission, tie_pays, jackpot_seed,
                             jackpot_contribution)
    report = simulate(settings, hands, seed, workers=n_workers, scheduler=scheduler,
                      progress=hands >= PROGRESS_FROM, exact=True)
    where = f"Dask scheduler {scheduler}" if scheduler else f"{n_workers} local worker(s)"
    if as_json:
        wagers: list[dict[str, Any]] = []
        for w in report.wagers:
            assert w.exact is not None and isinstance(w.house_edge, Fraction)
            wagers.append({
                "name": w.name,
                "house_edge": float(w.house_edge),
                "house_edge_observed_exact": _frac(w.house_edge),
                "ci95_low": w.ci_low,
                "ci95_high": w.ci_high,
                "std_error": w.std_error,
                "exact_house_edge": float(w.exact),
                "exact_house_edge_exact": _frac(w.exact),
                "exact_within_ci": w.exact_within_ci,
            })
        print_json({"game": "baccarat", "decks": settings.decks, "hands": report.hands,
                    "seed": report.seed, "shoes": report.shoes, "run_on": where,
                    "outcomes": report.winners, "wagers": wagers,
                    **modifications_json(settings)})
        return
    print_modifications(settings)
    console.print(f"Mini-Baccarat / Super-9, {settings.decks} decks: {report.hands:,} coups "
                  f"from {report.shoes:,} shoes (seed {report.seed}, {where})", highlight=False)
    table = Table(title="House edge per unit staked")
    for col in ("wager", "observed", "95% CI", "exact", "exact in CI"):
        table.add_column(col, justify="left" if col == "wager" else "right", no_wrap=True)
    for w in report.wagers:
        assert w.exact is not None
        inside = "[green]yes[/green]" if w.exact_within_ci else "[bold red]no[/bold red]"
        table.add_row(w.name, _pct(w.house_edge), f"{_pct(w.ci_low)} .. {_pct(w.ci_high)}",
                      _pct(w.exact), inside)
    console.print(table)
    won = report.winners
    console.print(", ".join(f"{k} {v:,} ({v / report.hands:.6f})" for k, v in won.items()),
                  highlight=False)
    console.print("Exact values are off the top of a full shoe; the simulation deals to the cut "
                  "card. The progressive's edge counts a jackpot at the seed "
                  "(1 - contribution - E[for-1 award + seed on a jackpot]).", markup=False,
                  highlight=False)
