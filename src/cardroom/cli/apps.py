"""The `cardroom` command's Typer apps; each game's module adds its commands to them."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="cardroom",
    help="Run and analyse the games of a Washington-style card room.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
analyze_app = typer.Typer(help="Exact game math by enumeration over the finite shoe.",
                          no_args_is_help=True)
simulate_app = typer.Typer(help="Monte Carlo over real shuffled shoes, with 95% intervals.",
                           no_args_is_help=True)
play_app = typer.Typer(help="Play a game in the terminal.", no_args_is_help=True)
report_app = typer.Typer(help="Reports for a regulator or an operator (HTML and JSON).",
                         no_args_is_help=True)
app.add_typer(analyze_app, name="analyze")
app.add_typer(simulate_app, name="simulate")
app.add_typer(play_app, name="play")
app.add_typer(report_app, name="report")
