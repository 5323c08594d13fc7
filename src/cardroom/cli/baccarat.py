"""`cardroom analyze baccarat` and `cardroom play baccarat`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from cardroom.cli.app import analyze_app
from cardroom.cli.options import console, print_json, rules_with_overrides
from cardroom.games.baccarat.rules import BaccaratRules

RulesFile = Annotated[Path | None, typer.Option("--rules", help="House-rules TOML file.")]


@analyze_app.command("baccarat")
def analyze_baccarat(
    decks: Annotated[int | None, typer.Option(help="Decks in the shoe (1-8).")] = None,
    paytable: Annotated[int | None, typer.Option(help="Super-9 pay table 1, 2 or 3.")] = None,
    commission: Annotated[str | None, typer.Option(help="Banker commission, e.g. 5% or 0.05.")]
    = None,
    tie_pays: Annotated[int | None, typer.Option(help="Tie pays N to 1.")] = None,
    jackpot_seed: Annotated[str | None, typer.Option(help="Jackpot seed in dollars.")] = None,
    jackpot_contribution: Annotated[
        str | None, typer.Option(help="Share of each $1 added to the meter, e.g. 0.20.")] = None,
    rules: RulesFile = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON only.")] = False,
) -> None:
    """Exact probabilities and house edges of every wager, by enumeration of the shoe."""
    from cardroom.analysis.baccarat import analyze
    from cardroom.money import parse_money

    settings = rules_with_overrides(
        BaccaratRules, rules, decks=decks, paytable=paytable, commission=commission,
        tie_pays=tie_pays, jackpot_contribution=jackpot_contribution,
        jackpot_seed_cents=None if jackpot_seed is None else parse_money(jackpot_seed),
        jackpot=False if decks not in (None, 8) else None,
    )
    report = analyze(settings)
    if as_json:
        print_json(report.to_json())
        return
    c = report.counts
    head = Table(title=f"Mini-Baccarat, {settings.decks} decks: outcomes "
                       f"({c.total:,} six-card sequences)")
    for col in ("outcome", "sequences", "probability"):
        head.add_column(col, justify="right" if col != "outcome" else "left")
    for name, count in (("Banker wins", c.banker_wins), ("Player wins", c.player_wins),
                        ("Tie", c.ties)):
        head.add_row(name, f"{count:,}", f"{count / c.total:.15f}")
    console.print(head)
    table = Table(title=f"Wagers (pay table {settings.paytable}, commission "
                        f"{float(settings.commission) * 100:g}%, tie {settings.tie_pays} to 1)")
    for col in ("wager", "award", "probability", "house edge", "std dev", "claimed"):
        table.add_column(col)
    for w in report.wagers:
        claim = "" if w.claimed_edge_percent is None else f"{w.claimed_edge_percent}%"
        if w.claim_holds is False:
            claim = f"[bold red]{claim} ≠ {w.exact_percent_2dp}%[/bold red]"
        elif w.claim_holds:
            claim = f"[green]{claim} ✓[/green]"
        first = True
        for o in w.outcomes:
            table.add_row(
                w.name if first else "", o.label.replace("_", " "), f"{o.count / w.total:.10f}",
                f"{float(w.house_edge) * 100:.4f}%" if first else "",
                f"{w.std_dev:.4f}" if first else "", claim if first else "",
            )
            first = False
        table.add_section()
    console.print(table)
    for w in report.wagers:
        console.print(f"exact house edge, {w.name}: "
                      f"{w.house_edge.numerator}/{w.house_edge.denominator}", highlight=False)
        if w.note:
            console.print(f"note ({w.name}): {w.note}")
    console.print("Progressive edge = 1 - fixed for-1 awards - contribution - P(top award) x "
                  "seed; a top award is valued at the seed in its std dev.")
