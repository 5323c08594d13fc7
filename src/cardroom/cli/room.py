"""`cardroom serve`, `cardroom tables create`, `cardroom audit verify|anchor|seal`: the card
room's commands. Exit status: 0 all is well, 1 a check found a problem, 2 a user error."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cardroom.cli import options as opt
from cardroom.cli.apps import app
from cardroom.errors import CardroomError

if TYPE_CHECKING:
    from cardroom.room.db import Storage

tables_app = typer.Typer(help="Open tables in the card room.", no_args_is_help=True)
audit_app = typer.Typer(help="Check the card room's audit log and books.", no_args_is_help=True)
app.add_typer(tables_app, name="tables")
app.add_typer(audit_app, name="audit")
_out = Console()

@app.command("serve")
def serve(host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
          port: Annotated[int, typer.Option(help="port to listen on", min=1, max=65535)] = 8000,
          database: opt.Database = None, audit_key_file: opt.KeyFile = None,
          anchors: Annotated[Path | None, typer.Option(
              "--anchors", help="write a signed anchor of the audit chain's head here at "
              "start and every day (keep it off the database's host)")] = None,
          secure_cookies: Annotated[bool, typer.Option(
              "--secure-cookies", help="mark cookies Secure and send HSTS: use when the room is "
              "reached over HTTPS (a TLS proxy in front, see docs/server.md)")] = False,
          self_service_chips: Annotated[bool, typer.Option(
              "--self-service-chips", help="players buy and cash out their own chips on the "
              "cashier page: for demonstration and free-play rooms only (a real room's "
              "players buy chips at the cage or at a table)")] = False) -> None:
    """Open the card room: web pages and table WebSockets, schema created or migrated first."""
    import uvicorn

    from cardroom.profile import profile_in_force
    from cardroom.room.room import Room
    from cardroom.room.settings import GamblingClock, RoomSettings
    from cardroom.server.app import create_app
    from cardroom.server.frames import MAX_FRAME_BYTES

    law = profile_in_force()  # a bad CARDROOM_PROFILE stops the room before it opens
    room = Room.open(database, audit_key_file=audit_key_file,
                     settings=RoomSettings(self_service_chips, GamblingClock.from_env()))
    sock = listen(host, port)
    if anchors is not None:
        threading.Thread(target=_anchor_daily, args=(room.storage, anchors), daemon=True,
                         name="audit-anchors").start()
    _out.print(f"card room open on http://{host}:{port}/ ({len(room.tables)} tables; "
               f"profile {law.name}: {law.title})", highlight=False)
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


ANCHOR_EVERY_S = 24 * 3600


def _anchor_daily(storage: Storage, directory: Path) -> None:
    """`serve --anchors`: anchor now and then every day; a check that fails is reported (and
    anchors nothing) each time until the log is sound again."""
    from cardroom.room.anchors import anchor_now

    while True:
        done = anchor_now(storage, directory)
        if not isinstance(done, Path):
            _out.print(f"[red]audit anchor refused:[/red] {'; '.join(done.problems)}",
                       highlight=False, soft_wrap=True)
        time.sleep(ANCHOR_EVERY_S)


@tables_app.command("create")
def tables_create(
    name: Annotated[str, typer.Argument(help="the table's name")],
    game: Annotated[str, typer.Option(help="the game (e.g. baccarat)")] = "baccarat",
    rules: opt.RulesFile = None,
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
    as_json: opt.AsJson = False,
) -> None:
    """Open a table for a game with its house rules (the defaults when no file is given),
    checked against the regulatory profile; every limit of the table and the modifications
    the rules name are printed, so none is opened silently."""
    from cardroom.cli.options import modifications_json, print_modifications
    from cardroom.cli.profile import limits_json, print_limits
    from cardroom.room.accounts import Account, Role
    from cardroom.room.integrity import open_keyed
    from cardroom.room.tables import create_table, parse_rules

    storage = open_keyed(database, audit_key_file)
    operator = Account(0, "cli-operator", Role.OWNER)
    with storage.unit() as conn:
        row = create_table(conn, operator, name, game, rules)
    posted = parse_rules(row.game, row.rules)
    if as_json:
        print(json.dumps({"id": row.id, "name": row.name, "game": row.game,
                          **limits_json(posted), **modifications_json(posted)}))
    else:
        _out.print(f"opened table {row.id}: {row.name} ({row.game})")
        print_limits(posted)
        print_modifications(posted)




@audit_app.command("verify")
def audit_verify(
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
    anchors: Annotated[Path | None, typer.Option(
        "--anchors", help="a folder of anchor files (`cardroom audit anchor`) the log must "
        "still agree with")] = None,
    as_json: opt.AsJson = False,
) -> None:
    """Check the audit chain and its MACs, the ledger against the chain, the books and any
    anchors, all as of one moment; exit 1 on any problem."""
    from cardroom.room import integrity
    from cardroom.room.anchors import check_anchors
    from cardroom.room.audit_key import key_path, load_key
    from cardroom.room.db import open_database

    key = load_key(key_path(audit_key_file))
    storage = open_database(database, key)
    with storage.snapshot() as conn:
        report = integrity.check(conn, key)
        anchored, anchor_problems = (0, []) if anchors is None else \
            check_anchors(conn, anchors, key)
    problems = [*report.problems, *anchor_problems]
    if as_json:
        print(json.dumps({"entries": report.entries, "anchors": anchored, "ok": not problems,
                          "problems": problems}))
    elif problems:
        for p in problems:
            _out.print(f"[red]problem:[/red] {p}", highlight=False, soft_wrap=True)
        _out.print(f"[red]{len(problems)} problems[/red] in {report.entries} entries")
    else:
        _out.print(f"audit log intact: {report.entries} entries, every MAC valid; the ledger "
                   f"agrees with the chain and balances"
                   + (f"; {anchored} anchors hold" if anchors is not None else ""))
    if problems:
        raise typer.Exit(1)


@audit_app.command("anchor")
def audit_anchor(
    directory: Annotated[Path, typer.Argument(help="where to write the anchor file (keep it "
                                                   "off the database's host)")],
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
) -> None:
    """Check everything, then record the chain's head in a signed anchor file; exit 1 (and
    write nothing) if the check finds a problem."""
    from cardroom.room.anchors import anchor_now
    from cardroom.room.audit_key import key_path, load_key
    from cardroom.room.db import open_database

    key = load_key(key_path(audit_key_file))
    done = anchor_now(open_database(database, key), directory)
    if not isinstance(done, Path):
        for p in done.problems:
            _out.print(f"[red]problem:[/red] {p}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    _out.print(f"anchored the audit chain's head in {done}", highlight=False)


@audit_app.command("seal")
def audit_seal(database: opt.Database = None, audit_key_file: opt.KeyFile = None) -> None:
    """Adopt a room written before it had an audit key: check its chain and ledger, then MAC
    the entries and record the ledger in the chain as they stand; exit 1 if they are not
    sound."""
    from cardroom.room import integrity
    from cardroom.room.audit import ChainBroken
    from cardroom.room.audit_key import key_path, load_or_create_key
    from cardroom.room.db import open_database

    key, _ = load_or_create_key(key_path(audit_key_file))
    storage = open_database(database, key)
    try:
        with storage.unit() as conn:
            done = integrity.seal(conn, key) if integrity.needs_seal(conn) else None
    except ChainBroken as exc:
        _out.print(f"[red]problem:[/red] {exc}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    if done is None:
        _out.print("nothing to seal: every entry already carries a MAC")
    else:
        _out.print(f"sealed {done['unkeyed_entries']} entries and recorded "
                   f"{len(done['ledger_recorded'])} ledger transactions in the chain")


__all__ = ["audit_anchor", "audit_seal", "audit_verify", "serve", "tables_create"]
