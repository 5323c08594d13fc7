"""`cardroom report w2g --year YYYY [--json|--csv]` through the installed console script (issue
21; compliance.md, "Taxes on jackpots"; docs/compliance.md, "Form W-2G"): every form's fields,
the winner's taxpayer id in clear read with the identity key file, the export audited; a bad
year or a missing identity key is one `error:` line and exit 2. On SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

from room.jackpot_winners import deal_top_award, identify_winner, jackpot_room, write_key_file

from cardroom.room.compliance import w2g
from cardroom.room.storage.audit import entries
from cardroom.room.trust.keying import open_keyed

from .console import cardroom


def test_w2g_report_lists_every_forms_fields_as_json_and_csv(db_url: str, tmp_path: Path
                                                             ) -> None:
    """A $6,000 share paid with $1,440 withheld (24% from $5,000) is one form of this year:
    payer, winner's name, address and taxpayer id, date won, type of wager, gross winnings,
    tax withheld, cashier, window; the CSV has the same columns (`w2g.FIELDS`); last year has
    none; the export is audited without the taxpayer id."""
    key_file, identity_file = tmp_path / "audit.key", tmp_path / "identity.key"
    write_key_file(identity_file)
    storage = open_keyed(db_url, key_file)
    room, p, t = jackpot_room(storage, table="Window 3")
    identify_winner(storage, p, "alice")
    hit = deal_top_award(room, storage, p, t, 600_000, ("alice",))
    room.jackpot_surveillance(p["audrey"], hit.id, "camera 2")
    room.pay_jackpot(p["olivia"], hit.id)
    storage.engine.dispose()
    year = datetime.now(UTC).year
    args = ("report", "w2g", "--database", db_url, "--audit-key-file", str(key_file),
            "--identity-key-file", str(identity_file))

    out = cardroom(*args, "--year", str(year), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    [form] = data["forms"]
    assert data["fields"] == list(w2g.FIELDS) and list(form) == list(w2g.FIELDS)
    assert form["winner_name"].startswith("Alice")
    assert (form["winner_tin"], form["box10_window"]) == ("123456789", "Window 3")
    assert "Tacoma WA" in form["winner_address"]
    assert (form["box1_reportable_winnings"], form["box4_federal_tax_withheld"]) == (
        600_000, 144_000)
    assert form["box3_type_of_wager"] == "Super-9 baccarat progressive jackpot (top award share)"
    assert form["box2_date_won"].startswith(str(year)) and form["box8_cashier"] == "olivia"
    assert data["totals"] == {"forms": 1, "box1_reportable_winnings": 600_000,
                              "box4_federal_tax_withheld": 144_000}

    rows = list(csv.DictReader(io.StringIO(cardroom(*args, "--year", str(year),
                                                    "--csv").stdout)))
    assert [r["winner_tin"] for r in rows] == ["123456789"]
    assert rows[0]["box4_federal_tax_withheld"] == "144000"
    text = cardroom(*args, "--year", str(year))
    assert text.returncode == 0 and "1 form(s): gross winnings $6,000.00, federal income " \
        "tax withheld $1,440.00" in " ".join(text.stdout.split())
    assert json.loads(cardroom(*args, "--year", str(year - 1), "--json").stdout)["forms"] == []

    again = open_keyed(db_url, key_file)
    with again.read() as conn:
        exports = [e.data for e in entries(conn) if e.action == "w2g.export"]
    again.engine.dispose()
    assert len(exports) == 4 and all("123456789" not in str(d) for d in exports)


def test_w2g_report_refuses_a_bad_year_and_a_missing_identity_key(db_url: str,
                                                                  tmp_path: Path) -> None:
    """One `error:` line and exit 2: a year that is not one, an identity key file that is
    not there (the taxpayer ids cannot be read without it)."""
    key_file = tmp_path / "audit.key"
    open_keyed(db_url, key_file).engine.dispose()
    write_key_file(tmp_path / "identity.key")
    args = ("report", "w2g", "--database", db_url, "--audit-key-file", str(key_file))
    bad = cardroom(*args, "--identity-key-file", str(tmp_path / "identity.key"),
                   "--year", "26")
    assert bad.returncode == 2 and bad.stderr.startswith("error: 26 is not a year")
    missing = cardroom(*args, "--identity-key-file", str(tmp_path / "none.key"),
                       "--year", "2026")
    assert missing.returncode == 2 and missing.stderr.startswith("error: ")
    assert len(missing.stderr.strip().splitlines()) == 1 and missing.stdout == ""
