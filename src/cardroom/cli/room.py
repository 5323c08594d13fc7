"""`cardroom serve`, `cardroom tables create`, `cardroom audit verify|anchor|seal|rekey`: the
card room's commands. Exit status: 0 all is well, 1 a check found a problem, 2 a user error."""

from __future__ import annotations

import gc
import ipaddress
import json
import multiprocessing
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass, replace
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cardroom import registry
from cardroom.cli import options as opt
from cardroom.cli.apps import app
from cardroom.cli.catalog import summary
from cardroom.cli.say import escape, flagged
from cardroom.errors import CardroomError

if TYPE_CHECKING:
    from cardroom.room.room import Room
    from cardroom.room.storage.db import Storage

tables_app = typer.Typer(help=summary("tables"), no_args_is_help=True)
audit_app = typer.Typer(help=summary("audit"), no_args_is_help=True)
app.add_typer(tables_app, name="tables")
app.add_typer(audit_app, name="audit")
_out = Console()

SEVERAL_NEED_POSTGRESQL = ("several processes serve one room only on PostgreSQL: a SQLite "
                           "room is served by one process (leave out --workers and --advertise)")
MAX_WORKERS = 64
"""The most processes `serve --workers` starts on one machine."""


@dataclass(frozen=True)
class Serving:
    """What one `cardroom serve` process is started with (picklable: a worker's whole start)."""

    host: str
    port: int
    database: str | None
    audit_key_file: Path | None
    anchors: Path | None
    secure_cookies: bool
    self_service_chips: bool
    proxies: list[str]
    accept_failed_audit: bool
    advertise: str | None
    """Set: one process of several on the room, reached by the others at this host (and
    its own port); None: the room's one process."""


@app.command("serve", short_help=summary("serve"))
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
              "players buy chips at the cage or at a table)")] = False,
          trusted_proxy: Annotated[list[str] | None, typer.Option(
              "--trusted-proxy", help="the address (or network, e.g. 10.0.0.0/24) of a proxy "
              "in front of the room whose X-Forwarded-For names the client; repeat for "
              "several. From anyone else the header is ignored")] = None,
          workers: opt.Workers = None,
          advertise: Annotated[str | None, typer.Option(
              "--advertise", help="serve as one of several processes on the room "
              "(PostgreSQL only), reached by the others at this host and --port (this "
              "machine's address on the room's private network)")] = None,
          accept_failed_audit: opt.AcceptFailedAudit = False) -> None:
    """Open the card room: web pages and table WebSockets, schema created or migrated first.
    With --workers N (PostgreSQL only) N processes serve the room, the i-th on port+i, each
    table held by one of them under a lease; the documented proxy goes in front
    (docs/deployment.md)."""
    from cardroom.profile import profile_in_force

    proxies = trusted_proxies(trusted_proxy or [])
    profile_in_force()  # a bad CARDROOM_PROFILE stops the room before it opens
    workers = 1 if workers is None else workers
    if not 1 <= workers <= MAX_WORKERS:
        raise CardroomError(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")
    if (workers > 1 or advertise is not None) and is_sqlite(database):
        raise CardroomError(SEVERAL_NEED_POSTGRESQL)
    if port + workers - 1 > 65535:
        raise CardroomError(f"--workers {workers} from --port {port} needs ports past 65535")
    first = Serving(host, port, database, audit_key_file, anchors, secure_cookies,
                    self_service_chips, proxies, accept_failed_audit, advertise)
    if workers == 1:
        run_server(first)
    else:
        run_workers(first, workers)


def is_sqlite(database: str | None) -> bool:
    """Whether the books are a SQLite file (a malformed address is left to the opening, which
    says what is wrong with it)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from cardroom.room.storage.db import database_url

    try:
        return make_url(database_url(database)).get_backend_name() == "sqlite"
    except (ArgumentError, ValueError):
        return False


def run_server(s: Serving) -> None:
    """One `cardroom serve` process, until it is stopped."""
    import uvicorn

    from cardroom.profile import profile_in_force
    from cardroom.room.play.leases import new_holder
    from cardroom.room.room import Room
    from cardroom.room.storage.serving import serving
    from cardroom.room.storage.settings import GamblingClock, RoomSettings
    from cardroom.server.app import create_app
    from cardroom.server.frames import MAX_FRAME_BYTES

    law = profile_in_force()
    with serving(s.database):  # held until the server stops: no restore under it
        sock = listen(s.host, s.port)
        holder = None if s.advertise is None else new_holder(address(s.advertise, s.port))
        room = Room.open(s.database, audit_key_file=s.audit_key_file,
                         settings=RoomSettings(s.self_service_chips, GamblingClock.from_env()),
                         accept_failed_audit=s.accept_failed_audit, holder=holder)
        if s.advertise is not None:  # one of several processes: its own audit chain
            room.storage.write_as(address(s.advertise, s.port))
        if s.anchors is not None:
            threading.Thread(target=_anchor_daily, args=(room.storage, s.anchors),
                             daemon=True, name="audit-anchors").start()
        held = "" if holder is None else " held here"
        _out.print(f"card room open on http://{s.host}:{s.port}/ ({len(room.tables)} tables"
                   f"{held}; profile {law.name}: {law.title})", highlight=False, soft_wrap=True)
        for line in where_things_are(room, s.database, s.audit_key_file,
                                     f"http://{s.host}:{s.port}/"):
            _out.print(line, highlight=False, soft_wrap=True)  # a path is never cut in two
        config = uvicorn.Config(create_app(room, secure_cookies=s.secure_cookies,
                                           trusted_proxies=s.proxies),
                                log_level="warning", ws_max_size=MAX_FRAME_BYTES,
                                server_header=False,  # no `server: uvicorn` banner
                                proxy_headers=False)  # the app believes only `--trusted-proxy`
        gc.freeze()  # what the start built lives as long as the process: never traversed again
        uvicorn.Server(config).run(sockets=[sock])


def address(host: str, port: int) -> str:
    """host:port as a URL writes it (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


LOOPBACK = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}
"""Where a process listening on every address is reached from its own machine."""


def worker(first: Serving, i: int) -> Serving:
    """The i-th process of `serve --workers`: port+i; reached by the others at --advertise,
    else at the address it listens on (127.0.0.1 when it listens on every address); only
    the first writes the daily anchors."""
    reach = first.advertise or LOOPBACK.get(first.host, first.host)
    return replace(first, port=first.port + i, advertise=reach,
                   anchors=first.anchors if i == 0 else None)


def _run_worker(s: Serving) -> None:
    """A worker's process: its error is one `error:` line and its exit status, as `serve`'s."""
    try:
        run_server(s)
    except CardroomError as exc:
        _out.print(flagged("error:", exc), highlight=False, soft_wrap=True)
        sys.exit(exc.exit_status)


def run_workers(first: Serving, count: int) -> None:
    """`serve --workers N`: N processes on one PostgreSQL room (`worker`), each a `Room` with
    a holder id of its own and a heartbeat. One killed (by a signal) is started again, its
    tables taken by the others as soon as its leases expire; one that stops on an error (its
    `error:` line above) stops them all, as one process would. Stopped (SIGTERM, Ctrl-C),
    every worker is stopped in good order (its leases let go)."""
    spawn = multiprocessing.get_context("spawn")

    def start(i: int) -> BaseProcess:
        proc = spawn.Process(target=_run_worker, args=(worker(first, i),),
                             name=f"cardroom-worker-{i}")
        proc.start()
        return proc

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    running = [start(i) for i in range(count)]
    try:
        while True:
            time.sleep(0.5)
            for i, proc in enumerate(running):
                if proc.exitcode is None:
                    continue
                if proc.exitcode >= 0:
                    raise CardroomError(f"worker {i} stopped (exit status {proc.exitcode}): "
                                        "see its error above")
                _out.print(f"worker {i} was killed (signal {-proc.exitcode}): started again",
                           highlight=False)
                running[i] = start(i)
    finally:
        for proc in running:
            proc.terminate()
        for proc in running:
            proc.join(30)


def where_things_are(room: Room, database: str | None, key_file: Path | None,
                     address: str) -> list[str]:
    """What `serve` tells the person who starts it (issue 23): where the books and the audit
    key are, that the key is backed up apart from the books, and, in a room without an
    account yet, that the first visit creates the owner."""
    from cardroom.room.people import accounts
    from cardroom.room.storage.audit_key import key_path
    from cardroom.room.storage.db import default_database_path, safe_name

    books = str(default_database_path()) if database is None else safe_name(database)
    lines = [f"the books (database): {escape(books)}",
             f"the audit key: {escape(str(key_path(key_file)))}; back it up apart from the "
             "books (see `cardroom backup`): without it the books cannot be verified, and "
             "whoever holds both can rewrite them unseen"]
    with room.storage.read() as conn:
        if accounts.count_accounts(conn) == 0:
            lines.append(f"no account yet: the first visit to {address} creates the owner's "
                         "account")
    return lines


def trusted_proxies(given: list[str]) -> list[str]:
    """Each `--trusted-proxy` as an IP address or network, or one clear error (uvicorn would
    take a typing error for a host name and trust nothing, or the wrong thing)."""
    proxies = []
    for text in given:
        try:
            proxies.append(str(ipaddress.ip_network(text.strip(), strict=False)))
        except ValueError:
            raise CardroomError(f"--trusted-proxy {text[:60]!r} is not an IP address or "
                                "network") from None
    return proxies


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
    from cardroom.room.trust.anchors import anchor_now

    while True:
        done = anchor_now(storage, directory)
        if not isinstance(done, Path):
            _out.print(flagged("audit anchor refused:", "; ".join(done.problems)),
                       highlight=False, soft_wrap=True)
        time.sleep(ANCHOR_EVERY_S)


@tables_app.command("create")
def tables_create(
    name: Annotated[str, typer.Argument(help="the table's name")],
    game: Annotated[str, typer.Option(help=f"the game: {', '.join(registry.names())}")]
    = registry.names()[0],
    rules: opt.RulesFile = None,
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
    as_json: opt.AsJson = False,
    accept_failed_audit: opt.AcceptFailedAudit = False,
) -> None:
    """Open a table for a game with its house rules (the defaults when no file is given),
    checked against the regulatory profile; every limit of the table and the modifications
    the rules name are printed, so none is opened silently."""
    from cardroom.cli.operator import operator_storage, terminal_operator
    from cardroom.cli.options import modifications_json, print_modifications
    from cardroom.cli.profile import limits_json, print_limits
    from cardroom.room.play.tables import create_table, parse_rules

    storage = operator_storage(database, audit_key_file,
                               accept_failed_audit=accept_failed_audit)
    operator = terminal_operator()
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
    from cardroom.room.storage.audit_key import key_path, load_key
    from cardroom.room.storage.db import open_database
    from cardroom.room.trust import integrity
    from cardroom.room.trust.anchors import check_anchors
    from cardroom.room.trust.keying import unvouched

    key = load_key(key_path(audit_key_file))
    storage = open_database(database, key)
    with storage.snapshot() as conn:
        report = integrity.check(conn, key)
        anchored, anchor_problems = (0, []) if anchors is None else \
            check_anchors(conn, anchors, key)
        blind = unvouched(conn)
    problems = [*report.problems, *anchor_problems]
    notes = [f"entries 1-{e.data.get('through')} were re-keyed at {e.at} without the old key "
             f"(entry {e.seq}): the audit key vouches only for what came after" for e in blind]
    if as_json:
        print(json.dumps({"entries": report.entries, "anchors": anchored, "ok": not problems,
                          "problems": problems, "notes": notes}))
    else:
        for n in notes:
            _out.print(f"[yellow]note:[/yellow] {escape(n)}", highlight=False, soft_wrap=True)
        for p in problems:
            _out.print(flagged("problem:", p), highlight=False, soft_wrap=True)
        _out.print(f"[red]{len(problems)} problems[/red] in {report.entries} entries"
                   if problems else
                   f"audit log intact: {report.entries} entries, every MAC valid; the ledger "
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
    from cardroom.room.storage.audit_key import key_path, load_key
    from cardroom.room.storage.db import open_database
    from cardroom.room.trust.anchors import anchor_now

    key = load_key(key_path(audit_key_file))
    done = anchor_now(open_database(database, key), directory)
    if not isinstance(done, Path):
        for p in done.problems:
            _out.print(flagged("problem:", p), highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    _out.print(f"anchored the audit chain's head in {done}", highlight=False)


@audit_app.command("seal")
def audit_seal(database: opt.Database = None, audit_key_file: opt.KeyFile = None,
               new_key: Annotated[bool, typer.Option(
                   "--new-key", help="make the audit key file now for books written before "
                   "the room had one (never for books that were ever keyed)")] = False) -> None:
    """Key new books, or adopt a room written before it had an audit key: check its chain and
    ledger, then MAC the entries and record the ledger in the chain as they stand; exit 1 if
    they are not sound, or if the books were ever keyed (missing MACs there are tampering)."""
    from cardroom.room.storage.audit import ChainBroken
    from cardroom.room.trust.keying import adopt

    try:
        done = adopt(database, audit_key_file, new_key)
    except ChainBroken as exc:
        _out.print(flagged("problem:", exc), highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    if done is None:
        _out.print("nothing to seal: every entry already carries a MAC")
    else:
        _out.print(f"sealed {done['unkeyed_entries']} entries and recorded "
                   f"{len(done['ledger_recorded'])} ledger transactions in the chain")


@audit_app.command("rekey")
def audit_rekey(
    database: opt.Database = None,
    audit_key_file: Annotated[Path | None, typer.Option(
        "--audit-key-file", help="the NEW audit key (default: $CARDROOM_AUDIT_KEY_FILE, else "
        "audit.key beside the default database); made, mode 0600, if absent")] = None,
    old_key_file: Annotated[Path | None, typer.Option(
        "--old-key-file", help="the key the books are keyed with now: they must verify under "
        "it before they are re-keyed")] = None,
    without_old_key: Annotated[bool, typer.Option(
        "--without-old-key", help="the old key is lost: re-key anyway, recording in the chain "
        "that nothing vouches for the entries written before")] = False,
) -> None:
    """Move the books to a new audit key: verify them under the old key, record an
    `audit.rekeyed` entry and MAC every entry under the new key; exit 1 (and change nothing)
    if they do not verify."""
    from cardroom.room.storage.audit import ChainBroken
    from cardroom.room.trust.keying import rekey

    if (old_key_file is None) == (not without_old_key):
        raise CardroomError("give the old key with --old-key-file, or say --without-old-key "
                            "if it is lost (one of the two)")
    try:
        done = rekey(database, audit_key_file, old_key_file)
    except ChainBroken as exc:
        _out.print(flagged("problem:", exc), highlight=False, soft_wrap=True)
        raise typer.Exit(1) from None
    if done.vouched:
        _out.print(f"re-keyed: entries 1-{done.through} verified under the old key and now "
                   f"MACed under the new one (fingerprint {done.key[:12]}); entry {done.entry} "
                   "records it", highlight=False)
    else:
        _out.print(f"[red]WARNING: re-keyed WITHOUT the old key.[/red] Nothing proves entries "
                   f"1-{done.through} were not rewritten before now; they are MACed under the "
                   f"new key (fingerprint {done.key[:12]}) as they stand, entry {done.entry} "
                   "records that the past is not vouched for, and audit verify says so every "
                   "time.", highlight=False, soft_wrap=True)


__all__ = ["audit_anchor", "audit_rekey", "audit_seal", "audit_verify", "serve",
           "tables_create"]
