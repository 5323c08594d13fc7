"""`cardroom exclusions import` and `cardroom exclusions check` through the installed console
script, on SQLite and PostgreSQL (RCW 9.46.071; WAC 230-23-030: list updates within 48 hours):
`check` exits 1 while the list is missing or stale, 0 once a current one is imported; a bad
file is one `error:` line and exit 2; `audit verify` passes after."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

CARDROOM = Path(sys.executable).parent / "cardroom"
LISTED = ('name,date of birth,identifiers,period\n"Hopper, Grace",1980-12-09,'
          "driver-licence:WDL-GH-1980,5\nAlan Turing,1912-06-23,,10\n")


def cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CARDROOM), *args], capture_output=True, text=True, timeout=120,
                          check=False)


def test_stale_list_check_exits_1_and_a_current_import_clears_it(db_url: str,
                                                                tmp_path: Path) -> None:
    keys = ["--database", db_url, "--audit-key-file", str(tmp_path / "audit.key")]
    ids = ["--identity-key-file", str(tmp_path / "identity.key")]
    none = cardroom("exclusions", "check", "--database", db_url)
    assert none.returncode == 1 and "No self-exclusion list" in none.stdout
    path = tmp_path / "state.csv"
    path.write_text(LISTED, encoding="utf-8")
    old = (datetime.now(UTC) - timedelta(hours=49)).isoformat()
    made = cardroom("exclusions", "import", str(path), "--list-date", old, *keys, *ids)
    assert made.returncode == 0, made.stderr
    assert "2 people (2 added, 0 removed)" in made.stdout
    stale = cardroom("exclusions", "check", "--database", db_url)
    assert stale.returncode == 1 and "out of date" in stale.stdout
    assert "more than 48 hours" in stale.stdout
    fresh = tmp_path / "fresh.csv"
    fresh.write_text(f"# list date: {datetime.now(UTC).isoformat()}\n" + LISTED,
                     encoding="utf-8")
    again = cardroom("exclusions", "import", str(fresh), *keys, *ids, "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["added"] == 0
    same = cardroom("exclusions", "import", str(fresh), *keys, *ids)
    assert same.returncode == 0 and "already imported" in same.stdout
    ok = cardroom("exclusions", "check", "--database", db_url, "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["stale"] is False
    bad = tmp_path / "bad.csv"
    bad.write_text(LISTED.replace("1912-06-23", "23/06/1912"), encoding="utf-8")
    refused = cardroom("exclusions", "import", str(bad), "--list-date", old, *keys, *ids)
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        "error: Line 3 of the list has no date of birth the room can read (write it as "
        "1980-12-09)."]
    verified = cardroom("audit", "verify", *keys[:4])
    assert verified.returncode == 0, verified.stdout
