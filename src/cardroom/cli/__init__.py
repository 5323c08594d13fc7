"""The `cardroom` command. Exit status: 0 done (and every check passed), 1 a check found a
problem (`audit verify`, `replay`...), 2 a user error (one red `error:` line), 130 aborted."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click
import typer
from rich.console import Console

from cardroom import registry
from cardroom.cli.say import flagged
from cardroom.errors import CardroomError

SHARED_MODULES = ("backup", "compliance", "exclusions", "jackpot", "profile", "regulator",
                  "replay", "report", "room", "room_reports", "w2g")
"""The modules of `cardroom.cli` that add the room's and the tools' commands."""
GAME_MODULES = tuple(m.removeprefix("cardroom.cli.") for g in registry.games()
                     for m in g.commands)
"""Each registered game's command modules (`cardroom.registry`: its `commands`)."""
COMMAND_MODULES = tuple(sorted({*SHARED_MODULES, *GAME_MODULES}))
"""The modules that add their commands to the apps of `cli/apps.py` when imported."""
OWNERS = {"replay": ("replay",), "backup": ("backup",),
          "restore": ("backup",), "serve": ("room",), "tables": ("room",), "audit": ("room",),
          "profile": ("profile",), "jackpot": ("jackpot",), "cage": ("regulator",),
          "compliance": ("compliance",), "exclusions": ("exclusions",),
          **{command: (g.commands[0].removeprefix("cardroom.cli."),)
             for g in registry.games() for command in g.owns}}
"""Top-level commands that one module adds alone (a game's: its registry entry's `owns`): a
command line that starts with one imports only that module (a quicker start: a game's
calculator loads no web server and no simulator); any other command line, `--help`
included, imports them all."""


def commands(first: str = "") -> typer.Typer:
    """The `cardroom` app with the commands a command line starting with `first` needs."""
    from cardroom.cli.apps import app

    for name in OWNERS.get(first, COMMAND_MODULES):
        importlib.import_module(f"cardroom.cli.{name}")
    return app


def __getattr__(name: str) -> Any:
    """`cardroom.cli.app`: the app with every command (for tests and embedding)."""
    if name == "app":
        return commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_err = Console(stderr=True)

# Typer >= 0.17 raises errors from its own bundled copy of click; catch both copies.
_CLICK_ERRORS: tuple[type[Exception], ...] = tuple(
    {click.exceptions.ClickException}
    | {c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"}
)
_ABORTS: tuple[type[BaseException], ...] = tuple({click.exceptions.Abort, typer.Abort})


def main() -> None:
    """Entry point: run the app, turning user errors into a one-line message and exit 2 (1 for
    a refusal because a check failed: `CardroomError.exit_status`), and
    passing on the status a command exits with (without `standalone_mode`, click returns it
    rather than exiting, so it must be handed to `sys.exit` here)."""
    try:
        status = commands(sys.argv[1] if len(sys.argv) > 1 else "")(standalone_mode=False)
    except CardroomError as exc:
        _err.print(flagged("error:", exc), highlight=False, soft_wrap=True)
        sys.exit(exc.exit_status)
    except _ABORTS:
        _err.print("aborted")
        sys.exit(130)
    except _CLICK_ERRORS as exc:
        message = getattr(exc, "format_message", exc.__str__)()
        _err.print(flagged("error:", message), highlight=False, soft_wrap=True)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    sys.exit(status if isinstance(status, int) else 0)


__all__ = ["app", "main"]
