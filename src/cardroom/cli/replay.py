"""`cardroom replay FILE [--json]`: replay a hand history of any game (`cardroom.history`):
every action checked by the game's own engine, the chip movements and the settlement."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from cardroom.cli import options as opt
from cardroom.cli.apps import app
from cardroom.cli.catalog import summary
from cardroom.cli.options import console, print_json
from cardroom.cli.say import flagged
from cardroom.history import load_history, replay


@app.command("replay", short_help=summary("replay"))
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="A hand-history JSON file.")],
    as_json: opt.AsJson = False,
) -> None:
    """Replay a hand history of any game: check every action, print the chips and settlement."""
    report = replay(load_history(file))
    data = report.to_json()
    if as_json:
        print_json(data)
    else:
        console.print(f"[bold]{report.game}[/bold] {file}: {report.actions_applied} of "
                      f"{report.actions_total} actions applied; {report.outcome}",
                      highlight=False)
        t = Table(title="Chip movements")
        for col in ("action", "from", "to", report.unit, "why"):
            t.add_column(col)
        for m in data["movements"]:
            t.add_row(str(m["index"]), _who(m["payer"], report.names, report.house),
                      _who(m["payee"], report.names, report.house), str(m["chips"]),
                      m["reason"])
        console.print(t)
        s = Table(title="Settlement")
        for col in ("seat", "name", "before", "after", "net"):
            s.add_column(col)
        for r in data["settlement"]:
            s.add_row(str(r["seat"]), r["name"], str(r["before"]), str(r["after"]),
                      f"{r['net']:+d}")
        console.print(s)
        if report.failure is not None:
            f = report.failure
            console.print(flagged(f"illegal action {f.index}", f"({f.rule}) {f.action}: "
                                  f"{f.message}"),
                          highlight=False, soft_wrap=True)
        elif report.result_matches is False:
            console.print("[red]the recorded result does not match the replay[/red]")
    if not report.ok:
        raise typer.Exit(1)


def _who(seat: int | None, names: list[str], house: str = "tops") -> str:
    return house if seat is None else f"{seat} {names[seat]}"
