"""`X-Forwarded-For` is believed only from the proxies `cardroom serve --trusted-proxy` names
(issue 26): before, uvicorn believed it from 127.0.0.1 by default, so a client on the room's
own host picked a new address for every registration and escaped the per-address back-off.
Through the installed console script, a real server on a free loopback port."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from cardroom.room.people.accounts import REGISTRATIONS
from cardroom.server import registrar

CARDROOM = str(Path(sys.executable).parent / "cardroom")
TOKEN = re.compile(r'name="csrf" value="([0-9a-f]+)"')


def serving(tmp_path: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    server = subprocess.Popen([CARDROOM, "serve", "--port", str(port), "--database",
                               str(tmp_path / "room.sqlite3"), *options],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise AssertionError("the server did not start")


def register_from(url: str, addresses: list[str]) -> list[int]:
    """One registration per claimed address (`X-Forwarded-For`), each from a new browser."""
    codes = []
    for i, address in enumerate(addresses):
        with httpx.Client(base_url=url) as browser:
            found = TOKEN.search(browser.get("/register").text)
            assert found
            browser.cookies.delete(registrar.COOKIE)  # counted by address: no device id
            r = browser.post("/register", headers={"X-Forwarded-For": address}, data={
                "username": f"player{i}", "password": "a phrase of unrelated words",
                "csrf": found.group(1)})
            codes.append(r.status_code)
    return codes


@pytest.mark.parametrize(("options", "refused"), [((), 1),
                                                  (("--trusted-proxy", "127.0.0.1"), 0)])
def test_forwarded_for_is_believed_only_from_a_trusted_proxy(
        tmp_path: Path, options: tuple[str, ...], refused: int) -> None:
    """Without `--trusted-proxy` every registration counts against the real peer, 127.0.0.1,
    whatever the header claims; behind a trusted proxy each claimed client is its own."""
    server, url = serving(tmp_path, *options)
    try:
        claims = [f"203.0.113.{i}" for i in range(REGISTRATIONS.free + 1)]
        codes = register_from(url, claims)
    finally:
        server.terminate()
        server.wait(10)
    assert codes.count(429) == refused
    assert codes.count(303) == len(claims) - refused  # to the lobby, logged in
