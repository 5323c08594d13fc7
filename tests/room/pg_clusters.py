"""Throwaway PostgreSQL clusters with `wal_level=logical` (the shared server at 127.0.0.1:5432
runs `replica` and is not ours to change): `initdb` in a temporary folder and `pg_ctl` on a
free port, as the `postgres` system user when the tests run as root."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine, text

BIN = Path("/usr/lib/postgresql/15/bin")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """One cluster: `start`, `stop` (the link down), `url(database)`, `conninfo(database)`."""

    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="cardroom-office-pg-"))
        self.data = self.base / "data"
        self.port = _free_port()
        if os.geteuid() == 0:
            shutil.chown(self.base, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "--no-sync", "-E", "UTF8")

    def _run(self, tool: str, *args: str) -> None:
        command = [str(BIN / tool), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = (f"-p {self.port} -c wal_level=logical -c listen_addresses=127.0.0.1 "
                   f"-c unix_socket_directories={self.base} -c fsync=off "
                   "-c max_replication_slots=10 -c max_wal_senders=10 "
                   "-c wal_retrieve_retry_interval=200ms")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.base / "log"), "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def conninfo(self, database: str) -> str:
        return f"host=127.0.0.1 port={self.port} dbname={database} user=postgres"

    def create(self, database: str, schema: str | None = None) -> str:
        """A new database (with `schema` in it); its URL, `search_path` the schema."""
        engine = create_engine(self.url(), isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{database}"'))
        engine.dispose()
        if schema is None:
            return self.url(database)
        engine = create_engine(self.url(database))
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        engine.dispose()
        return f"{self.url(database)}?options=-csearch_path%3D{schema}"


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
