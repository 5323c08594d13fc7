"""Commands loaded when a command line names them (click's "lazily loading subcommands"): the
groups of `cli/apps.py` list their commands from `cli.catalog` and import a command's module
only to run it, so `cardroom --help` imports no command module and `cardroom pai-gow calc`
imports only the Pai Gow one."""

from __future__ import annotations

import importlib

import typer
from typer import _click as click  # Typer >= 0.17 runs its own copy of click
from typer.core import TyperCommand, TyperGroup

from cardroom.cli import catalog


def _group(ctx: click.Context, name: str | None) -> str:
    """The group's command line in the table: "" for `cardroom` itself."""
    return "" if ctx.parent is None else name or ""


def _line(group: str, name: str) -> str:
    return f"{group} {name}" if group else name


class LazyGroup(TyperGroup):
    """A group whose commands are listed from the table and imported when one is run."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        listed = catalog.under(_group(ctx, self.name))
        return [*listed, *(name for name in self.commands if name not in listed)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command if loaded, else a stand-in with its help (enough to list it)."""
        found = self.commands.get(cmd_name)
        entry = catalog.entries().get(_line(_group(ctx, self.name), cmd_name))
        if found is None and entry is not None:
            return TyperCommand(cmd_name, help=entry.summary, short_help=entry.summary)
        return found

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """Import the named command's module first; a name not in the table loads the whole
        group, so that the error and its "did you mean" are those of the full command."""
        if args and args[0] not in self.commands:
            self._load(ctx, args[0])
        return super().resolve_command(ctx, args)

    def _load(self, ctx: click.Context, name: str) -> None:
        from cardroom.cli.apps import app

        group = _group(ctx, self.name)
        entries = catalog.entries()
        wanted = entries.get(_line(group, name))
        names = [name] if wanted is not None else catalog.under(group)
        for each in names:
            for module in entries[_line(group, each)].modules:
                importlib.import_module(module)
        built = typer.main.get_command(app)
        if group:
            built = built.commands[group]  # type: ignore[attr-defined]
        self.commands.update({n: c for n, c in built.commands.items()  # type: ignore[attr-defined]
                              if n not in self.commands})
