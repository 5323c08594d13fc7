"""Bad arguments and unreachable databases through the installed `cardroom` console script (a
real process, as an operator runs it): one `error:` line on stderr and exit status 2, never a
traceback, and `serve` never says the room is open when it cannot listen."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

CARDROOM = str(Path(sys.executable).parent / "cardroom")
UNREACHABLE = "postgresql://nobody@127.0.0.1:1/x"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CARDROOM, *args], capture_output=True, text=True, timeout=120,
                          check=False)


def assert_one_error_line(r: subprocess.CompletedProcess[str], says: str) -> None:
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], r.stderr
    assert "Traceback" not in r.stdout + r.stderr and "card room open" not in r.stdout


@pytest.mark.parametrize(("args", "says"), [
    (("tables", "create", "T", "--database", UNREACHABLE), "cannot open the database"),
    (("audit", "verify", "--database", UNREACHABLE), "cannot open the database"),
    (("serve", "--database", UNREACHABLE), "cannot open the database"),
    (("tables", "create", "T", "--database", "postgresql://::bad"),
     "is not a database path or URL"),
    (("tables", "create", "T", "--database", "nosuchdriver://x/y"),
     "is not a database path or URL"),
    (("serve", "--port", "99999"), "--port"),
    (("serve", "--port", "0"), "--port"),
    (("serve", "--trusted-proxy", "nginx"), "--trusted-proxy 'nginx' is not an IP address"),
])
def test_bad_argument_is_one_error_line_and_exit_2(args: tuple[str, ...], says: str) -> None:
    assert_one_error_line(run(*args), says)


def test_unwritable_database_path(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    r = run("tables", "create", "T", "--database", str(blocker / "room.sqlite3"))
    assert_one_error_line(r, "cannot open the database")


def test_serve_on_a_port_in_use_says_so_before_opening(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        r = run("serve", "--port", str(port), "--database", str(tmp_path / "r.sqlite3"))
    assert_one_error_line(r, f"cannot listen on 127.0.0.1:{port}")


def test_brackets_in_an_error_are_printed_as_written(tmp_path: Path) -> None:
    """Issue 20: Rich read "[[modifications]]" as markup and printed "add a [] entry"; every
    message is printed as written, brackets and all (a file name with brackets too)."""
    rules = tmp_path / "rules.toml"
    rules.write_text("tie_pays = 9\n", encoding="utf-8")
    r = run("analyze", "baccarat", "--rules", str(rules))
    assert_one_error_line(r, 'add a [[modifications]] entry with settings = ["tie_pays"]')
    odd = tmp_path / "[bold]hand[/bold].json"
    r = run("replay", str(odd))
    assert_one_error_line(r, "[bold]hand[/bold].json")
