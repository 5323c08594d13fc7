"""The `cardroom` command. Exit status: 0 done (and every check passed), 1 a check found a
problem (`audit verify`, `replay`...), 2 a user error (one red `error:` line), 130 aborted."""

from __future__ import annotations

import sys

import click
import typer
from rich.console import Console

from cardroom.cli import baccarat as _baccarat  # noqa: F401  (registers its commands)
from cardroom.cli import baccarat_sim as _baccarat_sim  # noqa: F401  (registers its commands)
from cardroom.cli import backup as _backup  # noqa: F401  (cardroom backup, cardroom restore)
from cardroom.cli import pai_gow as _pai_gow  # noqa: F401  (registers its commands)
from cardroom.cli import pan as _pan  # noqa: F401
from cardroom.cli import replay as _replay  # noqa: F401  (cardroom replay FILE, any game)
from cardroom.cli import report as _report  # noqa: F401  (cardroom report math GAME)
from cardroom.cli import room as _room  # noqa: F401  (registers its commands)
from cardroom.cli import room_reports as _room_reports  # noqa: F401  (games, cage, slips)
from cardroom.cli import super_pan_9 as _super_pan_9  # noqa: F401
from cardroom.cli.app import app
from cardroom.errors import CardroomError

_err = Console(stderr=True)

# Typer >= 0.17 raises errors from its own bundled copy of click; catch both copies.
_CLICK_ERRORS: tuple[type[Exception], ...] = tuple(
    {click.exceptions.ClickException}
    | {c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"}
)
_ABORTS: tuple[type[BaseException], ...] = tuple({click.exceptions.Abort, typer.Abort})


def main() -> None:
    """Entry point: run the app, turning user errors into a one-line message and exit 2, and
    passing on the status a command exits with (without `standalone_mode`, click returns it
    rather than exiting, so it must be handed to `sys.exit` here)."""
    try:
        status = app(standalone_mode=False)
    except CardroomError as exc:
        _err.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except _ABORTS:
        _err.print("aborted")
        sys.exit(130)
    except _CLICK_ERRORS as exc:
        message = getattr(exc, "format_message", exc.__str__)()
        _err.print(f"[red]error:[/red] {message}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    sys.exit(status if isinstance(status, int) else 0)


__all__ = ["app", "main"]
