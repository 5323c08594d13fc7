"""The `cardroom` command's Typer apps; each game's module adds its commands to them. Their
commands are listed from `cli.catalog` and loaded when run (`cli.lazy`)."""

from __future__ import annotations

import typer

from cardroom.cli.catalog import summary
from cardroom.cli.lazy import LazyGroup

app = typer.Typer(
    name="cardroom",
    cls=LazyGroup,
    help="Run and analyse the games of a Washington-style card room.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
analyze_app = typer.Typer(cls=LazyGroup, help=summary("analyze"), no_args_is_help=True)
simulate_app = typer.Typer(cls=LazyGroup, help=summary("simulate"), no_args_is_help=True)
play_app = typer.Typer(cls=LazyGroup, help=summary("play"), no_args_is_help=True)
report_app = typer.Typer(cls=LazyGroup, help=summary("report"), no_args_is_help=True)
app.add_typer(analyze_app, name="analyze")
app.add_typer(simulate_app, name="simulate")
app.add_typer(play_app, name="play")
app.add_typer(report_app, name="report")
