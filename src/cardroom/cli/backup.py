"""`cardroom backup` and `cardroom restore`: copy the card room's books while it plays, and put
a copy back (docs/security.md, "Durability, backup and restore")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cardroom.cli import options as opt
from cardroom.cli.apps import app
from cardroom.cli.catalog import summary

_out = Console()


@app.command("backup", short_help=summary("backup"))
def backup(out: Annotated[Path, typer.Option("--out", help="the backup file to write (must "
                                              "not exist yet)")],
           database: opt.Database = None) -> None:
    """Copy the room's books to a new file while the tables play on (SQLite's online backup,
    or pg_dump for PostgreSQL)."""
    from cardroom.room.backup import backup as take_backup

    done = take_backup(database, out)
    _out.print(f"backed up the card room ({done.kind}) to {out}: {out.stat().st_size:,} "
               f"bytes, sha256 {done.sha256}", highlight=False, soft_wrap=True)


@app.command("restore", short_help=summary("restore"))
def restore(file: Annotated[Path, typer.Argument(help="a file written by `cardroom backup`")],
            database: opt.Database = None,
            audit_key_file: opt.KeyFile = None,
            force: Annotated[bool, typer.Option(
                "--force", help="replace the card room the database already holds")] = False,
            ) -> None:
    """Put a backup in place (stop the server first); hands open at the backup are voided and
    their wagers returned, as at a restart. Give the audit key file the room used (it is not
    in the backup): the restore's entries are signed with it."""
    from cardroom.room.backup import restore as put_back

    done = put_back(file, database, force, audit_key_file)
    voided = (f"; voided {len(done.voided)} hand(s) open at the backup, wagers returned"
              if done.voided else "")
    source = done.backup
    _out.print(f"restored {file} ({source.kind}, sha256 {source.sha256}){voided}. Check it "
               "with `cardroom audit verify`.", highlight=False, soft_wrap=True)


__all__ = ["backup", "restore"]
