"""`cardroom serve` run as the installed console script, for the tests that need the real
server process: uvicorn's own headers, and the hold the server keeps on its books."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

CARDROOM = Path(sys.executable).with_name("cardroom")
START_S = 90.0


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return int(probe.getsockname()[1])


@contextmanager
def served(database: str, said: list[str] | None = None) -> Iterator[str]:
    """A server over `database` on a free port of 127.0.0.1, once it answers: its base URL.
    Stopped (SIGTERM, as systemd stops it) at the end; what it printed is added to `said`."""
    port = free_port()
    server = subprocess.Popen([str(CARDROOM), "serve", "--port", str(port), "--database",
                               database], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_S
        while True:
            if server.poll() is not None:
                raise AssertionError(f"cardroom serve stopped: {server.communicate()}")
            try:
                httpx.get(base + "/login", timeout=5)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=60)
        if said is not None:
            said += out.splitlines()
