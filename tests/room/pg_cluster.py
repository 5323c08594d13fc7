"""A throwaway PostgreSQL cluster of the test's own (issue 25, "the database itself"): made
with `initdb` in a temporary folder, on a free port, run as the `postgres` system user when
the tests run as root, so that a test may restart it, or stream a standby from it and
promote that, or replicate logically from it to a head office (`wal_level=logical`, which the
shared server on 127.0.0.1:5432 does not run and is not ours to change), without touching the
shared server."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import create_engine, text

BIN = Path("/usr/lib/postgresql/15/bin")
SETTINGS = ("listen_addresses = '127.0.0.1'", "unix_socket_directories = ''",
            "fsync = off", "full_page_writes = off", "shared_buffers = 16MB",
            "max_connections = 40", "wal_level = logical", "max_wal_senders = 10",
            "max_replication_slots = 10", "wal_retrieve_retry_interval = 200ms",
            "max_worker_processes = 16", "max_logical_replication_workers = 12",
            "hot_standby = on", "logging_collector = off")
"""Quick to start and stop (no fsync: the machine does not lose power in a test), and ready
to stream a standby or to publish logically, with worker slots for every subscription a
module's tests make (PostgreSQL's default of 4 logical replication workers left a third
subscription's table copies queued for tens of seconds)."""


def _as_postgres() -> list[str]:
    """The prefix that runs a server tool as the `postgres` user (initdb and the server
    refuse root)."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(*args: str) -> None:
    """Run a server tool, its output kept for the failure's message."""
    done = subprocess.run([*_as_postgres(), *args], capture_output=True, text=True, timeout=60,
                          check=False)
    if done.returncode:
        raise RuntimeError(f"{args[0]} failed: {done.stdout[-800:]}{done.stderr[-800:]}")


@dataclass
class Cluster:
    """One cluster: its data folder and port; `url` is its `postgres` database."""

    data: Path
    port: int = field(default_factory=free_port)

    @property
    def url(self) -> str:
        return self.url_of("postgres")

    def url_of(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def conninfo(self, database: str) -> str:
        """The libpq connection string of `database` (a subscription's `CONNECTION`)."""
        return f"host=127.0.0.1 port={self.port} dbname={database} user=postgres"

    def create(self, database: str, schema: str | None = None) -> str:
        """A new database (with `schema` in it); its URL, `search_path` the schema."""
        engine = create_engine(self.url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{database}"'))
        engine.dispose()
        if schema is None:
            return self.url_of(database)
        engine = create_engine(self.url_of(database))
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        engine.dispose()
        return f"{self.url_of(database)}?options=-csearch_path%3D{schema}"

    def start(self) -> None:
        run(str(BIN / "pg_ctl"), "-D", str(self.data), "-o", f"-p {self.port}", "-w",
            "-l", str(self.data / "server.log"), "start")

    def stop(self, mode: str = "fast") -> None:
        run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        """A restart as an operator's: every session ended (`fast`), the server up again."""
        run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-o", f"-p {self.port}",
            "-w", "-l", str(self.data / "server.log"), "restart")

    def promote(self) -> None:
        run(str(BIN / "pg_ctl"), "-D", str(self.data), "-w", "promote")


class Clusters:
    """The clusters of a test, under one temporary folder owned by `postgres`; `close`
    stops them and removes it."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="cardroom-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self.made: list[Cluster] = []

    def primary(self) -> Cluster:
        """A new cluster, started (trust for local TCP, replication allowed): a copy of one
        `initdb` made once for all of them (initdb takes seconds, a copy much less)."""
        template = self.root / "template"
        if not template.exists():
            run(str(BIN / "initdb"), "-D", str(template), "-U", "postgres", "--auth=trust",
                "--no-sync", "-E", "UTF8", "--locale=C")
            with (template / "postgresql.conf").open("a") as conf:
                conf.write("\n".join(SETTINGS) + "\n")
        c = Cluster(self.root / f"c{len(self.made)}")
        run("cp", "-a", str(template), str(c.data))
        self.made.append(c)
        c.start()
        return c

    def standby(self, of: Cluster) -> Cluster:
        """A streaming standby of `of` (`pg_basebackup -R`), started."""
        c = Cluster(self.root / f"c{len(self.made)}")
        run(str(BIN / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(of.port), "-U",
            "postgres", "-D", str(c.data), "-R", "-X", "stream", "--no-sync")
        self.made.append(c)
        c.start()
        return c

    def close(self) -> None:
        for c in self.made:
            if (c.data / "postmaster.pid").exists():
                with contextlib.suppress(RuntimeError):
                    c.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def wait_until_caught_up(room: str, head_office: str, subscription: str,
                         timeout: float = 300.0) -> None:
    """Until the head office has every table of the subscription copied and has confirmed
    the room's last change (the room's current WAL position)."""
    room_engine, ho_engine = create_engine(room), create_engine(head_office)
    deadline = time.monotonic() + timeout
    try:
        with room_engine.connect() as conn:
            target = conn.execute(text("SELECT pg_current_wal_lsn()")).scalar_one()
        while time.monotonic() < deadline:
            with ho_engine.connect() as conn:
                copying = conn.execute(text(
                    "SELECT count(*) FROM pg_subscription_rel r JOIN pg_subscription s "
                    "ON s.oid = r.srsubid WHERE s.subname = :n AND r.srsubstate <> 'r'"),
                    {"n": subscription}).scalar_one()
            with room_engine.connect() as conn:
                flushed = conn.execute(text(
                    "SELECT confirmed_flush_lsn >= CAST(:t AS pg_lsn) FROM pg_replication_slots "
                    "WHERE slot_name = :n"), {"t": target, "n": subscription}).scalar()
            if copying == 0 and flushed:
                return
            time.sleep(0.2)
        with ho_engine.connect() as conn:
            errors = conn.execute(text(
                "SELECT apply_error_count, sync_error_count FROM pg_stat_subscription_stats "
                "WHERE subname = :n"), {"n": subscription}).first()
        raise AssertionError(f"{subscription} did not catch up in {timeout} s (copying "
                             f"{copying} tables; errors applying, copying: {errors})")
    finally:
        room_engine.dispose()
        ho_engine.dispose()
