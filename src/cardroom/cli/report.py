"""`cardroom report math GAME --out FILE.html [--json]`: the regulator's math dossier."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardroom.cli.app import report_app
from cardroom.cli.options import console, print_json, rules_with_overrides
from cardroom.errors import CardroomError
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.super_pan_9.rules import SuperPan9Rules
from cardroom.money import parse_money

GAMES = ("baccarat", "super-pan-9")
BACCARAT_ONLY = ("paytable", "jackpot_seed", "jackpot_contribution")
DOSSIER_COUPS = 10_000_000
"""The counter's coups in a dossier (kept under a minute on two cores); a regulator's run
passes --coups 100000000."""


@report_app.command("math")
def report_math(
    game: Annotated[str, typer.Argument(help=f"The game: {', '.join(GAMES)}.")],
    out: Annotated[Path | None, typer.Option(help="Write the dossier to this HTML file.")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the numbers as JSON.")] = False,
    decks: Annotated[int | None, typer.Option(help="Decks in the shoe.")] = None,
    paytable: Annotated[int | None, typer.Option(help="Baccarat: Super-9 pay table 1-3.")]
    = None,
    commission: Annotated[str | None, typer.Option(help="Commission, e.g. 5% or 0.05.")] = None,
    tie_pays: Annotated[int | None, typer.Option(help="Tie pays N to 1.")] = None,
    jackpot_seed: Annotated[str | None, typer.Option(help="Baccarat: jackpot seed in dollars.")]
    = None,
    jackpot_contribution: Annotated[str | None, typer.Option(
        help="Baccarat: share of each $1 added to the meter, e.g. 0.20.")] = None,
    coups: Annotated[int, typer.Option(help="Baccarat: coups the card counter sees.")]
    = DOSSIER_COUPS,
    seed: Annotated[int | None, typer.Option(help="Seed of the simulations (reported).")]
    = None,
    workers: Annotated[int, typer.Option(help="Local processes for the simulations.")] = 1,
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address.")] = None,
    rules: Annotated[Path | None, typer.Option("--rules", help="House-rules TOML file.")]
    = None,
) -> None:
    """Every wager's figures, volatility, the designer's claims and the game's own sections, as
    one self-contained HTML file (SVG charts inline) and, with --json, the same numbers."""
    if game not in GAMES:
        raise CardroomError(f"no dossier for {game!r}: choose one of {', '.join(GAMES)}")
    if out is None and not as_json:
        raise CardroomError("say where to write the dossier (--out FILE.html) or ask for --json")
    if out is not None:
        _check_writable(out)
    from cardroom.analysis.dossier.html import render

    if game == "super-pan-9":
        given = {"paytable": paytable, "jackpot_seed": jackpot_seed,
                 "jackpot_contribution": jackpot_contribution}
        for name in BACCARAT_ONLY:
            if given[name] is not None:
                raise CardroomError(f"--{name.replace('_', '-')} is a baccarat option; "
                                    "Super Pan 9 has no such setting")
        from cardroom.analysis.dossier import super_pan_9

        dossier = super_pan_9.build(rules_with_overrides(
            SuperPan9Rules, rules, decks=decks, commission=commission, tie_pays=tie_pays))
    else:
        from cardroom.analysis.dossier import baccarat

        settings = rules_with_overrides(
            BaccaratRules, rules, decks=decks, paytable=paytable, commission=commission,
            tie_pays=tie_pays, jackpot_contribution=jackpot_contribution,
            jackpot_seed_cents=None if jackpot_seed is None else parse_money(jackpot_seed),
            jackpot=False if decks not in (None, 8) else None)
        dossier = baccarat.build(settings, coups, seed, workers, scheduler,
                                 progress=not as_json)
    if out is not None:
        out.write_text(render(dossier), encoding="utf-8")
        if not as_json:
            console.print(f"dossier written to {out}", highlight=False)
    if as_json:
        print_json(dossier.data)


def _check_writable(path: Path) -> None:
    """Refuse, before any work, a path that cannot be written."""
    if path.is_dir():
        raise CardroomError(f"cannot write the dossier to {path}: it is a folder")
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise CardroomError(f"cannot write the dossier to {path}: {exc.strerror}") from None
