"""The command line's table of contents: every command's name, the module that adds it and its
one-line help, known without importing that module (issue 24, "Start-up"). `cardroom --help`
lists the commands from here, and a command line imports only the module of the command it
names (`cli.lazy`); each command takes its one-line help from here (``short_help=summary(...)``,
a group's ``help``), so the help is written once, and tests/cli/test_command_loading.py checks
that this table lists exactly the commands the modules add.

A game's commands are its registry entry's `lines` (`cardroom.registry`), the room's and the
tools' are `SHARED`; the order here is the order `--help` lists them in.

>>> summary("analyze")
'Exact game math by enumeration over the finite shoe.'
>>> under("report")[:2]
['games', 'cage']
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom import registry

SHARED: dict[str, tuple[str, str]] = {
    "backup": ("backup", "Copy the room's books to a new file while the tables play on."),
    "restore": ("backup", "Put a backup in place (stop the server first)."),
    "replay": ("replay", "Replay a hand history of any game: check every action, print the "
               "chips and settlement."),
    "serve": ("room", "Open the card room: web pages and table WebSockets, schema created or "
              "migrated first."),
    "analyze": ("apps", "Exact game math by enumeration over the finite shoe."),
    "simulate": ("apps", "Monte Carlo over real shuffled shoes, with 95% intervals."),
    "play": ("apps", "Play a game in the terminal."),
    "report": ("apps", "Reports for a regulator or an operator (HTML and JSON)."),
    "report games": ("room_reports", "The daily games report per table and game; exit 1 if "
                     "a table's win does not reconcile with the ledger."),
    "report cage": ("room_reports", "The cage's day: chips, cash, fills, credits, the drop; "
                    "exit 1 if it does not reconcile."),
    "report reconcile": ("room_reports", "The day's reports together explain every ledger "
                         "movement of the day; exit 1 if one does not."),
    "report slips": ("room_reports", "Every numbered slip, voids included; exit 1 if a series "
                     "has a gap in its numbers."),
    "report mtl": ("compliance", "The multiple transaction log of a gaming day."),
    "report ctr": ("compliance", "The currency transaction reports; exit 1 if one is "
                   "overdue."),
    "report month": ("regulator", "The monthly records (WAC 230-06-070); exit 1 if they do not "
                     "reconcile with the ledger."),
    "report quarter": ("regulator", "The quarterly license report (WAC 230-05-124); exit 1 if "
                       "it does not reconcile with the ledger."),
    "report math": ("report", "A game's math dossier: every wager's figures as one HTML file "
                    "(and JSON)."),
    "report jackpot": ("report", "The progressive controller reconciled with the ledger; exit "
                       "1 when it fails or a deposit is overdue."),
    "report w2g": ("w2g", "Every Form W-2G of a year, taxpayer ids in clear (the regulator's "
                   "export)."),
    "compliance": ("compliance", "The Title 31 records (currency transactions, reports, "
                   "suspicious-activity alerts and cases) for the compliance officer."),
    "exclusions": ("exclusions", "The statewide self-exclusion list (RCW 9.46.071)."),
    "jackpot": ("jackpot", "The progressive's funds: deposits to its bank account."),
    "profile": ("profile", "The regulatory profile the room runs under."),
    "cage": ("regulator", "The cage's records."),
    "tables": ("room", "Open tables in the card room."),
    "audit": ("room", "Check the card room's audit log and books."),
}
"""The room's and the tools' commands: command line -> (its module in `cardroom.cli`, its
one-line help); "apps" marks the groups of `cli/apps.py`, which every command line loads."""


@dataclass(frozen=True)
class Entry:
    """One command of the table: the modules that add it (imported to run it) and its help."""

    modules: tuple[str, ...]
    summary: str


def entries() -> dict[str, Entry]:
    """Every command line of the table, the room's first, then each game's (registry order)."""
    shared = {line: Entry((f"cardroom.cli.{module}",), text)
              for line, (module, text) in SHARED.items()}
    games = {line: Entry(g.commands, text) for g in registry.games() for line, text in g.lines}
    return shared | games


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
