"""The `cardroom` command imports only what a command line needs (issue 24, "Start-up"): the
help lists every command from the table of contents (`cli.catalog`) without importing a
command module, a command line imports only its command's module, and the heavy libraries
(numba, dask, matplotlib, SQLAlchemy, the web server) load only where a command uses them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner

from cardroom.cli import catalog, load_all

CARDROOM = Path(sys.executable).parent / "cardroom"
HEAVY = ("numba", "dask", "matplotlib", "sqlalchemy", "fastapi", "uvicorn", "numpy")
"""Libraries the help never needs (numpy: every game's math)."""


def loaded_by(argv: list[str], prefixes: tuple[str, ...]) -> list[str]:
    """The modules starting with one of `prefixes` that running `cardroom ARGV` imports, in a
    fresh interpreter (the command's output thrown away)."""
    code = f'''
import contextlib, io, json, sys
sys.argv = ["cardroom", *{argv!r}]
from cardroom.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main()
    except SystemExit:
        pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {prefixes!r}
                        or m.startswith({prefixes!r}))))
'''
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def listed(group: Any, path: str = "") -> dict[str, str]:
    """Command line -> the help its group's listing shows, for every command under `group`
    (typer's click: groups are the ones with commands) as the modules define them."""
    shown: dict[str, str] = {}
    for name, sub in group.commands.items():
        line = f"{path} {name}".strip()
        shown[line] = sub.short_help or sub.help
        if catalog.under(line):  # a shared group (`cli/apps.py`): its commands are listed too
            shown |= listed(sub, line)
    return shown


def test_the_table_lists_exactly_the_commands_the_modules_add_with_their_help() -> None:
    """Every module imported: the commands of `cardroom` and of its shared groups are the
    table's, each with the table's one-line help (taken from it, not a second copy)."""
    real = listed(typer.main.get_command(load_all()))
    assert real == {line: entry.summary for line, entry in catalog.entries().items()}


def test_the_help_lists_in_the_tables_order_the_same_whether_loaded_or_not() -> None:
    """`cardroom --help` in a fresh process (nothing loaded) shows what the fully loaded app's
    help shows."""
    cold = subprocess.run([str(CARDROOM), "--help"], capture_output=True, text=True,
                          timeout=120, check=True, env={**os.environ, "COLUMNS": "100"}).stdout
    warm = CliRunner().invoke(load_all(), ["--help"], env={"COLUMNS": "100"},
                                             prog_name="cardroom").output
    assert cold == warm
    for command in catalog.under(""):
        assert f" {command} " in cold, command


def test_the_help_imports_no_command_module_and_no_heavy_library() -> None:
    for argv in (["--help"], ["analyze", "--help"], ["report"]):
        loaded = loaded_by(argv, ("cardroom", *HEAVY))
        assert [m for m in loaded if m.startswith(("cardroom.cli.", *HEAVY))] == [
            "cardroom.cli.apps", "cardroom.cli.catalog", "cardroom.cli.lazy",
            "cardroom.cli.say"], argv
        assert not [m for m in loaded if m.startswith(("cardroom.games", "cardroom.room",
                                                       "cardroom.analysis"))], argv


def test_importing_the_command_line_loads_no_heavy_library() -> None:
    code = ("import sys, cardroom.cli; "
            f"print([m for m in sys.modules if m.split('.')[0] in {HEAVY!r}])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "[]"


def test_a_pai_gow_command_loads_neither_the_room_nor_the_other_games() -> None:
    loaded = loaded_by(["pai-gow", "set", "As Kd JK 9c 7h 5s 2d", "--json"],
                       ("cardroom.cli.", "cardroom.room", "cardroom.server", "fastapi",
                        "sqlalchemy", "dask"))
    assert loaded == ["cardroom.cli.apps", "cardroom.cli.catalog", "cardroom.cli.lazy",
                      "cardroom.cli.options", "cardroom.cli.pai_gow",
                      "cardroom.cli.say"]  # say: printing a message as written (no markup)


def test_the_pai_gow_calculator_loads_no_database_no_web_server_no_charts() -> None:
    """`cardroom pai-gow calc` (numba's kernels: its own) imports no SQLAlchemy, dask,
    matplotlib, FastAPI, room, server or other game."""
    loaded = loaded_by(["pai-gow", "calc", "Ah Kh Qh Jh Th 3c 2d", "--direct", "--json"],
                       ("sqlalchemy", "dask", "matplotlib", "fastapi", "uvicorn",
                        "cardroom.room", "cardroom.server", "cardroom.games", "numba"))
    assert "numba" in loaded
    assert [m for m in loaded if m != "numba" and not m.startswith(
        ("numba.", "cardroom.games.pai_gow"))] == ["cardroom.games"]


def test_a_report_on_books_at_the_newest_revision_loads_no_alembic_and_no_numpy(
        tmp_path: Path) -> None:
    """Books already made: the command reads their revision and migrates nothing (alembic's
    scripts were a fifth of such a command's time), and money in cents needs no arrays; on
    books not made yet it migrates."""
    books = tmp_path / "books.db"
    argv = ["report", "games", "--database", str(books)]
    assert "alembic" in loaded_by(argv, ("alembic",))
    assert loaded_by(argv, ("alembic", "numpy")) == []


def test_a_mistyped_command_is_refused_as_by_the_full_command() -> None:
    """A name the table does not know loads its whole group, so that the error line and its
    suggestion are the full command's; exit 2."""
    done = subprocess.run([str(CARDROOM), "analyze", "bacarat"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: No such command 'bacarat'. Did you mean 'baccarat'?"
