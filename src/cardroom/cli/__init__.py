"""The `cardroom` command. Exit status: 0 done (and every check passed), 1 a check found a
problem (`audit verify`, `replay`...), 2 a user error (one red `error:` line), 130 aborted."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click
import typer
from rich.console import Console

from cardroom.cli import catalog
from cardroom.cli.say import flagged
from cardroom.errors import CardroomError


def load_all() -> typer.Typer:
    """The `cardroom` app with every command imported (for tests and embedding; a command line
    imports only the command it runs: `cli.lazy`)."""
    from cardroom.cli.apps import app

    for module in catalog.modules():
        importlib.import_module(module)
    return app


def __getattr__(name: str) -> Any:
    """`cardroom.cli.app`: the app with every command (`load_all`)."""
    if name == "app":
        return load_all()
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
        from cardroom.cli.apps import app

        status = app(standalone_mode=False)
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
