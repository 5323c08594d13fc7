"""The installed `cardroom` console script exits non-zero when a check fails: 1 for a failed
check, 2 for a user error (docs/security.md, "Exit status"). Run as a subprocess, because the
in-process runner does not go through the entry point that used to drop the status."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

from fixture_files import FIXTURES

SP9 = FIXTURES / "super_pan_9" / "round-push-tie-bet-and-dealer-draw.json"
CARDROOM = Path(sys.executable).parent / "cardroom"


def cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CARDROOM), *args], capture_output=True, text=True, timeout=120,
                          check=False)


def test_replay_of_a_tampered_history_exits_1(tmp_path: Path) -> None:
    """Two actions swapped: the replay refuses the first illegal one, and says so by status."""
    data = json.loads(SP9.read_text(encoding="utf-8"))
    good = cardroom("replay", str(SP9))
    assert good.returncode == 0, good.stderr
    bad = copy.deepcopy(data)
    bad["actions"][3], bad["actions"][4] = bad["actions"][4], bad["actions"][3]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    r = cardroom("replay", str(path))
    assert r.returncode == 1 and "illegal action 3" in r.stdout


def test_audit_verify_of_an_altered_entry_exits_1(tmp_path: Path) -> None:
    db, key = str(tmp_path / "room.sqlite3"), str(tmp_path / "audit.key")
    made = cardroom("tables", "create", "Mini 1", "--database", db, "--audit-key-file", key)
    assert made.returncode == 0, made.stderr
    assert cardroom("audit", "verify", "--database", db, "--audit-key-file", key
                    ).returncode == 0
    import sqlite3

    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE audit_log SET actor = 'mallory'")
    r = cardroom("audit", "verify", "--database", db, "--audit-key-file", key)
    assert r.returncode == 1 and "entry 1 was altered" in r.stdout


def test_a_missing_key_file_is_a_user_error_exit_2(tmp_path: Path) -> None:
    r = cardroom("audit", "verify", "--database", str(tmp_path / "room.sqlite3"),
                 "--audit-key-file", str(tmp_path / "nowhere.key"))
    assert r.returncode == 2 and r.stderr.startswith("error: no audit key file at")


def test_a_bad_hand_among_several_to_calc_is_a_user_error_exit_2() -> None:
    """`pai-gow calc` checks every hand before it counts (or builds its table for) any."""
    r = cardroom("pai-gow", "calc", "Qs Qd 8c 8h 5s 3d 2c", "As Kd 9c")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "error: a Pai Gow hand has 7 cards, not 3\n"
