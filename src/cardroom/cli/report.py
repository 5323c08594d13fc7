"""`cardroom report math GAME --out FILE.html [--json]`: the regulator's math dossier;
`cardroom report jackpot [--date DAY] [--json|--csv]`: the progressive controller's report."""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardroom import registry
from cardroom.cli import options as opt
from cardroom.cli.apps import report_app
from cardroom.cli.catalog import summary
from cardroom.cli.options import console, local_workers, print_json
from cardroom.cli.say import escape, flagged
from cardroom.errors import CardroomError
from cardroom.money import format_money

if TYPE_CHECKING:
    from cardroom.analysis.dossier.model import Dossier
    from cardroom.analysis.dossier.provenance import Origin



def dossier_games() -> list[str]:
    """The games with a math dossier (their registry entry's `dossier`)."""
    return [g.name for g in registry.games() if g.dossier is not None]


@dataclass(frozen=True)
class DossierRun:
    """What `report math GAME` was given, for the game's dossier builder (its registry
    entry's `dossier`: ``build(run) -> Dossier``), which first names the settings it takes
    (`only`: the others are refused, never ignored)."""

    game: str
    rules: Path | None
    given: dict[str, Any]
    n_workers: int
    scheduler: str | None
    seed: int | None
    as_json: bool
    out: Path | None

    def only(self, *names: str) -> None:
        """Refuse a setting given that this game's dossier does not take."""
        for name, value in self.given.items():
            if value is not None and name not in names:
                raise CardroomError(f"--{name.replace('_', '-')} does not apply to the "
                                    f"{self.game} dossier")

    @property
    def progress(self) -> bool:
        return not self.as_json

    def origin(self, *run: tuple[str, object]) -> Origin:
        """The command that reproduces the dossier: every setting given, the run size and the
        seed spelled out (a drawn seed included), so that defaults changing later cannot
        change its figures."""
        from cardroom.analysis.dossier.provenance import Origin

        settings = [(name, value) for name, value in self.given.items()
                    if value is not None and name not in dict(run)]
        command = ["cardroom", "report", "math", self.game,
                   *(["--rules", str(self.rules)] if self.rules else [])]
        for name, value in [*settings, *run]:
            command += [f"--{name.replace('_', '-')}", str(value)]
        command += [*(["--out", str(self.out)] if self.out is not None else []),
                    *(["--json"] if self.as_json else [])]
        return Origin(tuple(command), self.rules)


def dossier_help(option: str) -> str:
    """An option's help: what it sets in each game's dossier that takes it (the registry's
    `dossier_options`), in the registry's order."""
    return "; ".join(text.format(coups=opt.DOSSIER_COUPS, hands=opt.DOSSIER_HANDS)
                     for game in registry.games()
                     for name, text in game.dossier_options if name == option) + "."


@report_app.command("math", short_help=summary("report math"))
def report_math(
    game: Annotated[str, typer.Argument(help=f"The game: {', '.join(dossier_games())}.")],
    out: Annotated[Path | None, typer.Option(help="Write the dossier to this HTML file.")]
    = None,
    as_json: opt.AsJson = False,
    decks: Annotated[int | None, typer.Option(help="Decks in the shoe.")] = None,
    paytable: Annotated[int | None, typer.Option(help=dossier_help("paytable"))] = None,
    commission: Annotated[str | None, typer.Option(help="Commission, e.g. 5% or 0.05.")] = None,
    tie_pays: Annotated[int | None, typer.Option(help="Tie pays N to 1.")] = None,
    jackpot_seed: Annotated[str | None, typer.Option(help=dossier_help("jackpot_seed"))] = None,
    jackpot_contribution: Annotated[str | None, typer.Option(
        help=dossier_help("jackpot_contribution"))] = None,
    coups: Annotated[int | None, typer.Option(help=dossier_help("coups"))] = None,
    hands: Annotated[int | None, typer.Option(help=dossier_help("hands"))] = None,
    hands_per_hour: Annotated[int | None, typer.Option(
        help=dossier_help("hands_per_hour"))] = None,
    seed: opt.RunSeed = None,
    workers: opt.Workers = None,
    scheduler: opt.Scheduler = None,
    rules: opt.RulesFile = None,
) -> None:
    """Every wager's figures, volatility, the designer's claims and the game's own sections, as
    one self-contained HTML file (SVG charts inline) and, with --json, the same numbers."""
    n_workers = local_workers(workers, scheduler)
    if game not in dossier_games():
        raise CardroomError(f"no dossier for {game!r}: choose one of "
                            f"{', '.join(dossier_games())}")
    if out is None and not as_json:
        raise CardroomError("say where to write the dossier (--out FILE.html) or ask for --json")
    if out is not None:
        _check_writable(out)
    from cardroom.analysis.dossier.html import render
    from cardroom.analysis.parallel import worker_pool

    given = {"decks": decks, "paytable": paytable, "commission": commission,
             "tie_pays": tie_pays, "jackpot_seed": jackpot_seed,
             "jackpot_contribution": jackpot_contribution, "coups": coups, "hands": hands,
             "hands_per_hour": hands_per_hour}
    prepare = registry.load(str(registry.game(game).dossier))  # checked above
    assert callable(prepare)
    # the game's builder checks the settings and reads the rules first, then builds
    build = prepare(DossierRun(game, rules, given, n_workers, scheduler, seed, as_json, out))
    with worker_pool(n_workers):  # a dossier's runs share their worker processes
        dossier: Dossier = build()
    if out is not None:
        out.write_text(render(dossier), encoding="utf-8")
        if not as_json:
            console.print(f"dossier written to {out}", highlight=False)
    if as_json:
        print_json(dossier.to_json())


def _check_writable(path: Path) -> None:
    """Refuse, before any work, a path that cannot be written."""
    if path.is_dir():
        raise CardroomError(f"cannot write the dossier to {path}: it is a folder")
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise CardroomError(f"cannot write the dossier to {path}: {exc.strerror}") from None


# `cardroom report jackpot` (issue 12: the progressive controller) ---------------------------
@report_app.command("jackpot", short_help=summary("report jackpot"))
def report_jackpot(
    day: Annotated[str | None, typer.Option(
        "--date", help="The gambling day, YYYY-MM-DD (default: every day so far).")] = None,
    database: opt.Database = None,
    as_json: opt.AsJson = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV rows instead.")] = False,
) -> None:
    """The progressive controller: settings, current and posted amounts, meters per table and
    award level, the settings history, hits and payments, reconciled with the ledger, and the
    deposits of its funds; exit 1 when the reconciliation fails or a deposit is overdue (WAC
    230-15-455: at least weekly)."""
    from cardroom.room.play import progressive
    from cardroom.room.storage.db import open_database

    if as_json and as_csv:
        raise CardroomError("choose --json or --csv, not both")
    storage = open_database(database)
    with storage.snapshot() as conn:
        data = progressive.report(conn, _report_day(day))
    if as_json:
        print_json(data)
    elif as_csv:
        _jackpot_csv(data)
    else:
        _jackpot_text(data)
    if any(p["problems"] or p["funds"]["overdue"] for p in data["pools"]):
        raise typer.Exit(1)


def _report_day(text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CardroomError(f"{text[:20]!r} is not a date: write it as YYYY-MM-DD") from None


def _jackpot_csv(data: dict[str, Any]) -> None:
    from cardroom.room.play.progressive import CSV_FIELDS, csv_rows

    out = csv.DictWriter(sys.stdout, CSV_FIELDS, lineterminator="\n")
    out.writeheader()
    out.writerows(csv_rows(data))


def _jackpot_text(data: dict[str, Any]) -> None:
    from rich.table import Table

    if not data["pools"]:
        console.print("no progressive pool yet (one opens with the first jackpot table)")
    for p in data["pools"]:
        s = p["settings"]
        console.print(
            f"[bold]{p['pool']}[/bold]: meter {format_money(p['meter'])}, posted "
            f"{format_money(p['posted'])} ({p['posted_on'] or 'not posted yet'}), hidden "
            f"reserve {format_money(p['reserve'])}; reset {format_money(s['seed'])}, "
            f"{s['contribution']} cents of each $1, hidden {s['reserve_rate']} cents up to "
            f"{format_money(s['reserve_limit'])}; "
            + (f"maximum prize {format_money(s['maximum'])}" if s["maximum"]
               else "no maximum prize"), highlight=False)
        meters = Table("table", "wagers", "coin-in", "contributed", "to the reserve")
        for t in [*p["tables"], {"table": "all", **p["totals"]}]:
            meters.add_row(t["table"], str(t["wagers"]), format_money(t["coin_in"]),
                           format_money(t["contributed"]), format_money(t["reserved"]))
        console.print(meters)
        levels = Table("award", "hits", "won")
        for lv in p["levels"]:
            levels.add_row(lv["level"].replace("_", " "), str(lv["hits"]),
                           format_money(lv["won"]))
        console.print(levels)
        for h in p["hits"]:
            console.print(f"hit {h['id']} at {h['table']} (hand {h['hand_id']}): "
                          f"{format_money(h['amount'])}, {h['status']}", highlight=False)
        for c in p["changes"]:
            console.print(escape(f"{c['at'][:16]} {c['kind']} by {' and '.join(c['by'])}: "
                                 f"{c['reason']} ({c['before']} -> {c['after']})"),
                          highlight=False)
        for d in p["deposits"]:
            console.print(escape(f"deposit {d['deposited_on']}: {format_money(d['amount'])} "
                                 f"by {d['deposited_by']} (reference {d['reference']})"),
                          highlight=False)
        funds = p["funds"]
        if funds["overdue"]:
            console.print(flagged("overdue:", funds["status"]), highlight=False, soft_wrap=True)
        else:
            console.print(escape(funds["status"]), highlight=False)
        for problem in p["problems"]:
            console.print(flagged("problem:", problem), highlight=False, soft_wrap=True)
        if not p["problems"]:
            console.print("reconciled with the ledger", highlight=False)
