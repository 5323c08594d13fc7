"""`cardroom profile show` and `cardroom tables create` under the regulatory profile (issue 21),
through the installed console script: refusals are one `error:` line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from cardroom.room.people.accounts import Account, Role
from cardroom.room.play.tables import create_table
from cardroom.room.trust.keying import open_keyed

from .console import cardroom


def test_profile_show_prints_every_cap_with_its_section() -> None:
    r = cardroom("profile", "show")
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert out.startswith("Washington state-licensed card room (profile washington")
    for words in ("a single house-banked wager: WAC 230-15-140 from 2009-01-01: $300.00",
                  "house-banked tables in one establishment: RCW 9.46.0282 in force: 15",
                  "doubling of Pan conditions: WAC 230-15-135(4) in force: prohibited",
                  "WAC 230-15-320(4) in force: $3,000.00",
                  "WAC 230-15-050 before 2025-01-01: $1,000.00 per house-banked table"):
        assert words in out


def test_profile_show_json_gives_the_caps_in_cents_and_the_chosen_profile() -> None:
    data = json.loads(cardroom("profile", "show", "--json").stdout)
    assert data["name"] == "washington"
    assert data["house_banked_wager"]["section"] == "WAC 230-15-140"
    assert data["house_banked_wager"]["periods"][0]["cents"] == 30_000
    tribal = json.loads(cardroom("profile", "show", "--json",
                                 profile="tribal-compact-example").stdout)
    assert tribal["pan_doubling"]["periods"][0]["allowed"] is True


def test_an_unknown_profile_is_one_error_line_exit_2() -> None:
    r = cardroom("profile", "show", profile="nevada")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: CARDROOM_PROFILE='nevada' names no profile")
    assert r.stderr.count("\n") == 1


def test_tables_create_prints_every_limit_and_json_gives_them_in_cents(tmp_path: Path) -> None:
    db, key = str(tmp_path / "room.sqlite3"), str(tmp_path / "audit.key")
    r = cardroom("tables", "create", "Mini 1", "--database", db, "--audit-key-file", key)
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    for limit in ("table_min_cents = $5.00", "table_max_cents = $300.00",
                  "tie_max_cents = $100.00", "bonus_max_cents = $100.00",
                  "table_max_cents = $300.00 (a single house-banked wager: at most $300.00; "
                  "WAC 230-15-140)"):
        assert limit in out
    made = cardroom("tables", "create", "Pai Gow 1", "--game", "pai-gow", "--json",
                    "--database", db, "--audit-key-file", key)
    data = json.loads(made.stdout)
    assert data["limits"] == {"min_wager_cents": 500, "max_wager_cents": 30_000}
    assert data["caps"] == [{"setting": "max_wager_cents", "value": 30_000,
                             "section": "WAC 230-15-140", "limit": "at most $300.00"}]
    pan = json.loads(cardroom("tables", "create", "Pan 1", "--game", "pan", "--json",
                              "--database", db, "--audit-key-file", key).stdout)
    assert pan["limits"] == {"chip_cents": 100}


def test_wac_230_15_140_tables_create_refuses_a_maximum_over_the_cap_exit_2(
        tmp_path: Path) -> None:
    db, key = str(tmp_path / "room.sqlite3"), str(tmp_path / "audit.key")
    rules = tmp_path / "high.toml"
    rules.write_text("table_max_cents = 30025\n", encoding="utf-8")  # one quarter chip over
    r = cardroom("tables", "create", "High", "--rules", str(rules), "--database", db,
                 "--audit-key-file", key)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"error: {rules}: table_max_cents = $300.25 is refused under "
                               "WAC 230-15-140")
    rules.write_text("table_max_cents = 30000\n", encoding="utf-8")
    ok = cardroom("tables", "create", "High", "--rules", str(rules), "--database", db,
                  "--audit-key-file", key)
    assert ok.returncode == 0, ok.stderr


def test_wac_230_15_135_a_pan_double_condition_table_is_refused_by_the_state_profile(
        tmp_path: Path) -> None:
    db, key = str(tmp_path / "room.sqlite3"), str(tmp_path / "audit.key")
    rules = tmp_path / "doubles.toml"
    rules.write_text("allow_double_condition = true\n", encoding="utf-8")
    args = ("tables", "create", "Pan doubles", "--game", "pan", "--rules", str(rules),
            "--database", db, "--audit-key-file", key)
    r = cardroom(*args)
    assert r.returncode == 2 and "refused under WAC 230-15-135(4)" in r.stderr
    assert cardroom(*args, profile="tribal-compact-example").returncode == 0


def test_rcw_9_46_0282_a_sixteenth_house_banked_table_is_refused_exit_2(tmp_path: Path) -> None:
    """RCW 9.46.0282: at most fifteen house-banked tables in one establishment; Pan (not
    house-banked) does not count."""
    db, key = str(tmp_path / "room.sqlite3"), str(tmp_path / "audit.key")
    args = ("--database", db, "--audit-key-file", key)
    assert cardroom("tables", "create", "Pan 1", "--game", "pan", *args).returncode == 0
    storage = open_keyed(db, Path(key))  # the room's own key: the books stay keyed
    owner = Account(0, "owner", Role.OWNER)
    with storage.unit() as conn:
        for n in range(14):
            create_table(conn, owner, f"T{n}", ("baccarat", "super-pan-9", "pai-gow")[n % 3])
    storage.engine.dispose()
    assert cardroom("tables", "create", "T15", "--game", "pai-gow", *args).returncode == 0
    r = cardroom("tables", "create", "T16", "--game", "super-pan-9", *args)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: a house-banked table number 16 is refused under "
                               "RCW 9.46.0282")
    assert cardroom("tables", "create", "Pan 2", "--game", "pan", *args).returncode == 0


def test_serve_refuses_an_unknown_profile_before_the_room_opens(tmp_path: Path) -> None:
    r = cardroom("serve", "--database", str(tmp_path / "room.sqlite3"), "--port", "1",
                 profile=str(tmp_path / "nowhere.toml"))
    assert r.returncode == 2 and "card room open" not in r.stdout
    assert r.stderr.startswith(f"error: {tmp_path / 'nowhere.toml'}: no such profile file")
    assert not (tmp_path / "room.sqlite3").exists()
