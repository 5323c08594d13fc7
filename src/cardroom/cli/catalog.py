"""The command line's table of contents: every command's name, the module that adds it and its
one-line help, known without importing that module (issue 24, "Start-up"). `cardroom --help`
lists the commands from here, and a command line imports only the module of the command it
names (`cli.lazy`); each command takes its one-line help from here (``short_help=summary(...)``,
a group's ``help``), so the help is written once, and tests/cli/test_command_loading.py checks
that this table lists exactly the commands the modules add.

A game's commands are its registry entry's `lines` (`cardroom.registry`), the room's and the
tools' are the data table `data/commands.toml`; the order there is the order `--help` lists
them in.

>>> summary("analyze")
'Exact game math by enumeration over the finite shoe.'
>>> under("report")[:2]
['games', 'cage']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cardroom import registry
from cardroom.data import load_table


@cache
def shared() -> dict[str, tuple[str, str]]:
    """The room's and the tools' commands (`data/commands.toml`, a data table): command line ->
    (its module in `cardroom.cli`, its one-line help); "apps" marks the groups of
    `cli/apps.py`, which every command line loads."""
    return {line: (row["module"], row["help"])
            for line, row in load_table("commands.toml").items()}


@dataclass(frozen=True)
class Entry:
    """One command of the table: the modules that add it (imported to run it) and its help."""

    modules: tuple[str, ...]
    summary: str


def entries() -> dict[str, Entry]:
    """Every command line of the table, the room's first, then each game's (registry order)."""
    room = {line: Entry((f"cardroom.cli.{module}",), text)
            for line, (module, text) in shared().items()}
    games = {line: Entry(g.commands, text) for g in registry.games() for line, text in g.lines}
    return room | games


def summary(line: str) -> str:
    """The one-line help of a command line ("report math", "pai-gow")."""
    return entries()[line].summary


def under(group: str) -> list[str]:
    """The names of the commands directly under `group` ("" for `cardroom` itself), in order."""
    prefix = f"{group} " if group else ""
    return [line.removeprefix(prefix) for line in entries()
            if line.startswith(prefix) and " " not in line.removeprefix(prefix)]


def modules() -> list[str]:
    """Every module that adds commands, each once."""
    return list(dict.fromkeys(m for e in entries().values() for m in e.modules))
