"""`cardroom serve`, `cardroom tables create`, `cardroom audit verify`: the card room's commands."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cardroom.cli.app import app
from cardroom.errors import CardroomError

tables_app = typer.Typer(help="Open tables in the card room.", no_args_is_help=True)
audit_app = typer.Typer(help="Check the card room's audit log and books.", no_args_is_help=True)
app.add_typer(tables_app, name="tables")
app.add_typer(audit_app, name="audit")
_out = Console()

Database = Annotated[str | None, typer.Option(
    "--database", help="SQLite file path or postgresql://... URL (default: a file under the "
    "user data directory)")]


@app.command("serve")
def serve(host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
          port: Annotated[int, typer.Option(help="port to listen on", min=1, max=65535)] = 8000,
          database: Database = None,
          secure_cookies: Annotated[bool, typer.Option(
              "--secure-cookies", help="mark cookies Secure and send HSTS: use when the room is "
              "reached over HTTPS (a TLS proxy in front, see docs/server.md)")] = False) -> None:
    """Open the card room: web pages and table WebSockets, schema created or migrated first."""
    import uvicorn

    from cardroom.room.room import Room
    from cardroom.server.app import create_app
    from cardroom.server.frames import MAX_FRAME_BYTES

    room = Room.open(database)
    sock = listen(host, port)
    _out.print(f"card room open on http://{host}:{port}/ ({len(room.tables)} tables)")
    config = uvicorn.Config(create_app(room, secure_cookies=secure_cookies),
                            log_level="warning", ws_max_size=MAX_FRAME_BYTES)
    uvicorn.Server(config).run(sockets=[sock])


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the room says it is open (a port in use or a host
    that does not resolve is one clear error, not a traceback after the greeting)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family)
    except OSError as exc:
        raise CardroomError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


@tables_app.command("create")
def tables_create(
    name: Annotated[str, typer.Argument(help="the table's name")],
    game: Annotated[str, typer.Option(help="the game (e.g. baccarat)")] = "baccarat",
    rules: Annotated[Path | None, typer.Option(help="house-rules TOML file")] = None,
    database: Database = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON only")] = False,
) -> None:
    """Open a table for a game with its house rules (the defaults when no file is given)."""
    from cardroom.room.accounts import Account, Role
    from cardroom.room.db import open_database
    from cardroom.room.tables import create_table

    storage = open_database(database)
    operator = Account(0, "cli-operator", Role.OWNER)
    with storage.unit() as conn:
        row = create_table(conn, operator, name, game, rules)
    if as_json:
        print(json.dumps({"id": row.id, "name": row.name, "game": row.game}))
    else:
        _out.print(f"opened table {row.id}: {row.name} ({row.game})")


@audit_app.command("verify")
def audit_verify(database: Database = None,
                 as_json: Annotated[bool, typer.Option("--json", help="print JSON only")] = False
                 ) -> None:
    """Check the audit log's hash chain and that the ledger balances; exit 1 if not."""
    from cardroom.room import audit, ledger
    from cardroom.room.db import open_database

    storage = open_database(database)
    with storage.read() as conn:
        result = audit.verify(conn)
        books = ledger.trial_balance(conn)
    if as_json:
        print(json.dumps({"entries": result.entries, "ok": result.ok and books.ok,
                          "problems": list(result.problems), "ledger_balanced": books.ok}))
    else:
        if result.ok:
            _out.print(f"audit log intact: {result.entries} entries")
        for p in result.problems:
            _out.print(f"[red]audit:[/red] {p}", highlight=False)
        _out.print("ledger balances" if books.ok else "[red]ledger does not balance[/red]")
    if not (result.ok and books.ok):
        raise typer.Exit(1)


__all__ = ["audit_verify", "serve", "tables_create"]
