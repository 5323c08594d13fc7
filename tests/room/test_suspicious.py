"""Suspicious activity (issue 22, "Suspicious activity"; 31 CFR 1021.320): the room raises an
alert right after a currency transaction commits (structuring, a big buy-in with little play,
one person transacting for others, a patron on the exclusion list) and for a whole gaming day;
the compliance officer opens a case from alerts or by hand, with its narrative and evidence,
due 30 days from detection, and records one decision. Only the compliance role reads or writes
them; nothing is ever deleted and `audit verify` holds every row. Runs on SQLite and
PostgreSQL."""

from __future__ import annotations

import ast
import inspect
import json
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import delete, update

from cardroom.profile import profile_in_force
from cardroom.room.compliance import currency, suspicious
from cardroom.room.compliance.suspicious import CaseError, Play
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.storage.schema import (
    compliance_alerts,
    compliance_case_entries,
    compliance_cases,
)
from cardroom.room.trust import integrity

from .cage_books import opened
from .cash_days import NINE, drop, identify, patron_for, redeem, sell, today
from .people import player

PW = "a long enough password"


class Undone(Exception):
    """Rolls a tampering back."""


def officer(room: Room) -> Account:
    with room.storage.unit() as conn:
        return create_account(conn, "connie", PW, Role.COMPLIANCE)


def kinds(room: Room, who: Account) -> dict[str, suspicious.Alert]:
    with room.storage.read() as conn:
        return {a.kind: a for a in suspicious.alerts(conn, who)}


def test_the_figures_are_profile_data_with_their_sections() -> None:
    """31 CFR 1021.320(a)(2) ($5,000) and (b)(3) (30 days from detection) are the profile's,
    with the room's red-flag figures beside them: "just under" is within 10% below the log
    floor or the report threshold, several is two, a big buy-in is $5,000."""
    cap = profile_in_force().suspicious_activity
    r = cap.on(date(2026, 11, 26))
    assert "31 CFR 1021.320" in cap.section
    assert (r.sar_cents, r.due_days, r.near_percent, r.near_count) == (500_000, 30, 10, 2)
    assert r.near(1_000_000) == (900_000, 1_000_000) and r.near(300_000) == (270_000, 300_000)
    assert suspicious.due_on(date(2026, 11, 26)) == date(2026, 12, 26)


def test_two_9000_buys_raise_a_structuring_alert_after_the_sale(storage: Storage) -> None:
    """31 CFR 1021.320(a)(2)(i): the patron buys $9,000 at the cage (no alert: one buy), is
    held at the threshold at the table until identified (31 CFR 1010.312), then the $9,000
    completes and, once committed, raises a structuring alert naming both buys; the day's
    scan finds the same alert and raises no second one."""
    room, p, t = opened(storage)
    connie = officer(room)
    pid = patron_for(room, p)
    sell(room, p, NINE, "s1")
    assert kinds(room, connie) == {}
    identify(room, p, pid)
    drop(room, p, t, NINE, "d1")
    alert = kinds(room, connie)["structuring"]
    with storage.read() as conn:
        ids = [x.id for x in currency.patron_day(conn, pid, today())]
    assert (alert.patron_id, alert.gaming_day, list(alert.transactions)) == (pid, today(), ids)
    assert "2 cash buys just under the report threshold of $10,000.00" in alert.summary
    assert alert.detected_by == suspicious.SYSTEM
    with storage.unit() as conn:
        assert [a.id for a in suspicious.scan_day(conn, connie, today())] == [alert.id]
        assert integrity.check(conn).problems == ()


def test_buys_just_under_on_consecutive_days_are_structuring() -> None:
    """31 CFR 1021.320(a)(2)(i): $2,900 yesterday and $2,900 and $2,800 today, each just under
    the $3,000 log floor, $8,600 in all: structuring on today; two on yesterday alone would
    not be today's; a buy at the floor (logged) is not just under it, one of exactly the
    $10,000 threshold (not over it) is."""
    def buy(i: int, amount: int, day: date) -> currency.Transaction:
        at = datetime(day.year, day.month, day.day, 20, tzinfo=UTC)
        return currency.Transaction(i, i, 1, "alice", 7, "Alice", "in", "chip-purchase",
                                    amount, "cage", None, None, "cathy", at, day)

    day = date(2026, 11, 26)
    before = day - timedelta(days=1)
    window = [buy(1, 290_000, before), buy(2, 290_000, day), buy(3, 280_000, day)]
    found = suspicious.structuring((7, None), day, window)
    assert found is not None and found.transactions == (1, 2, 3)
    assert "on 2026-11-25 and 2026-11-26" in found.summary
    assert suspicious.structuring((7, None), day, window[:1]) is None
    assert suspicious.structuring((7, None), day, [buy(1, 290_000, before),
                                                   buy(2, 290_000, before)]) is None
    assert suspicious.structuring((7, None), day, [buy(1, 300_000, day),
                                                   buy(2, 300_000, day)]) is None
    at_threshold = suspicious.structuring((7, None), day, [buy(1, 1_000_000, before),
                                                           buy(2, 1_000_000, day)])
    assert at_threshold is not None and "report threshold" in at_threshold.summary


def test_a_big_buy_in_cashed_out_with_little_play_raises_an_alert(storage: Storage) -> None:
    """31 CFR 1021.320(a)(2)(iii), the red flag of buying in big and cashing out with little
    play: alice buys $6,000, sits with $1,000, stakes $100 on one hand, leaves and redeems
    $5,000 or more; her wagers ($100) are read from the ledger and her hand from the hand
    records. Bob, who staked a fifth of his cash in, raises none (`little_play` alone)."""
    room, p, t = opened(storage)
    connie = officer(room)
    patron_for(room, p)
    sell(room, p, 600_000, "s1")
    room.act(p["alice"], t, {"type": "sit", "buy_in": 100_000, "key": "sit"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 10_000}, "key": "b1"})
    room.act(p["alice"], t, {"type": "deal"})
    room.act(p["alice"], t, {"type": "leave", "key": "out"})
    with storage.read() as conn:
        staked = suspicious.play(conn, (None, p["alice"].id), today())
        pid = next(iter(currency.day_totals(conn, today()))).patron_id
        wallet = ledger.balance(conn, ledger.wallet(p["alice"].id))
    assert staked.wagered == 10_000 and len(staked.hands) == 1
    redeem(room, p, wallet, "r1")
    alert = kinds(room, connie)["little-play"]
    assert alert.patron_id == pid and alert.hands == staked.hands
    assert "wagered $100.00 in 1 hands" in alert.summary
    day = today()
    bob = [currency.Transaction(1, 1, 2, "bob", None, None, "in", "chip-purchase", 600_000,
                                "cage", None, None, "cathy", datetime.now(UTC), day),
           currency.Transaction(2, 2, 2, "bob", None, None, "out", "chip-redemption",
                                600_000, "cage", None, None, "cathy", datetime.now(UTC), day)]
    assert suspicious.little_play((None, 2), day, bob, Play(120_000, ())) is None
    assert suspicious.little_play((None, 2), day, bob, Play(119_999, ())) is not None


def test_three_patrons_buying_just_under_the_floor_at_one_desk_is_one_agent(
        storage: Storage) -> None:
    """31 CFR 1021.320(a)(2)(i), one person transacting for others: three patrons' $2,900 buys
    at the cage by one cashier within 15 minutes raise one alert naming the three; no one of
    them alone is structuring."""
    room, p, _ = opened(storage)
    connie = officer(room)
    with storage.unit() as conn:
        p["carol"] = player(conn, "carol")
    for i, who in enumerate(("alice", "bob", "carol")):
        sell(room, p, 290_000, f"s{i}", who=who)
    found = kinds(room, connie)
    assert set(found) == {"agent"}
    assert found["agent"].patron_id is None and len(found["agent"].transactions) == 3
    assert "Alice, Bob, Carol" in found["agent"].summary
    assert "at the cage by cathy" in found["agent"].summary


def test_a_patron_on_the_exclusion_list_raises_an_alert(storage: Storage,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """RCW 9.46.071 with 31 CFR 1021.320: cash of a patron on the self-exclusion list (the
    list, `suspicious.is_excluded`, answered here as the list would) raises an alert."""
    room, p, _ = opened(storage)
    connie = officer(room)
    pid = patron_for(room, p)
    monkeypatch.setattr(suspicious, "is_excluded", lambda conn, patron: patron == pid)
    sell(room, p, 10_000, "s1")
    assert kinds(room, connie)["excluded"].patron_id == pid


def test_an_alert_that_fails_never_fails_the_sale(storage: Storage,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """31 CFR 1021.320 alerts run after the sale has committed: if computing them fails, the
    sale stands (and the day's scan raises the alert later)."""
    room, p, t = opened(storage)
    connie = officer(room)
    pid = patron_for(room, p, identity=True)

    def broken(storage: Storage, transaction_id: int) -> list[suspicious.Alert]:
        raise RuntimeError("the alert engine is down")

    monkeypatch.setattr(suspicious, "after_transaction", broken)
    sell(room, p, NINE, "s1")
    drop(room, p, t, NINE, "d1")
    assert kinds(room, connie) == {}
    with storage.unit() as conn:
        assert len(currency.patron_day(conn, pid, today())) == 2
        assert [a.kind for a in suspicious.scan_day(conn, connie, today())] == ["structuring"]


def test_a_case_from_alerts_is_due_in_30_days_and_decided_once(storage: Storage) -> None:
    """31 CFR 1021.320(b)(3): a case opened from the structuring alert carries its
    transactions as evidence, is due 30 days from detection, takes narrative entries, a hand
    and a transaction linked by hand, and one decision: not filed needs its reasons, filed its
    BSA reference, and a decided case is not decided again. Overdue is open past the due
    date."""
    room, p, t = opened(storage)
    connie = officer(room)
    pid = patron_for(room, p, identity=True)
    sell(room, p, NINE, "s1")
    drop(room, p, t, NINE, "d1")
    alert = kinds(room, connie)["structuring"]
    detected = alert.detected_at.astimezone(room.settings.clock.zone).date()
    with storage.unit() as conn:
        case = suspicious.open_case(conn, connie, "Two $9,000 buys an hour apart.",
                                    alert_ids=[alert.id])
        assert (case.patron_id, case.subject, case.detected_on, case.due) == (
            pid, "Alice", detected, detected + timedelta(days=30))
        assert [x.id for x in case.transactions] == list(alert.transactions)
        assert [a.id for a in case.alerts] == [alert.id]
        case = suspicious.add_note(conn, connie, case.id, "Asked the cage: no ID given.")
        assert [e.text for e in case.narrative] == ["Two $9,000 buys an hour apart.",
                                                     "Asked the cage: no ID given."]
        with pytest.raises(CaseError, match="no hand number 999"):
            suspicious.add_evidence(conn, connie, case.id, "hand", 999)
        with pytest.raises(CaseError, match="reasons for not filing"):
            suspicious.decide(conn, connie, case.id, False, "  ")
        assert not case.overdue(case.due) and case.overdue(case.due + timedelta(days=1))
        assert suspicious.cases(conn, connie, case.due + timedelta(days=1)) == [case]
        done = suspicious.decide(conn, connie, case.id, True, "BSA 31000999")
        assert (done.status, done.reference, done.decided_by) == ("filed", "BSA 31000999",
                                                                  "connie")
        assert not done.overdue(done.due + timedelta(days=1))
        with pytest.raises(CaseError, match="already decided"):
            suspicious.decide(conn, connie, case.id, False, "second thoughts")
        dora = create_account(conn, "dora", PW, Role.PLAYER)
        by_hand = suspicious.open_case(conn, connie, "Seen handing cash to others.",
                                       player=dora, detected_on=date(2026, 11, 1))
        assert (by_hand.subject, by_hand.due) == ("dora (no patron on file)", date(2026, 12, 1))
        assert integrity.check(conn).problems == ()


def test_only_the_compliance_role_reads_or_writes_alerts_and_cases(storage: Storage) -> None:
    """31 CFR 1021.320(e), a SAR's confidentiality: the owner, the cashier, the auditor and
    the player are refused every read and write; a cashier may flag a player by hand but
    cannot read what came of it; the audit trail holds only numbers and digests."""
    room, p, _ = opened(storage)
    connie = officer(room)
    patron_for(room, p)
    with storage.unit() as conn:
        suspicious.flag(conn, p["cathy"], p["alice"], "Gave chips to two others at once.")
        [alert] = suspicious.alerts(conn, connie)
        case = suspicious.open_case(conn, connie, "Looking into it.", alert_ids=[alert.id])
        for who in ("olivia", "cathy", "audrey", "alice"):
            for read in (lambda c, w: suspicious.alerts(c, w),
                         lambda c, w: suspicious.cases(c, w),
                         lambda c, w: suspicious.get_case(c, w, case.id),
                         lambda c, w: suspicious.scan_day(c, w, today()),
                         lambda c, w: suspicious.add_note(c, w, case.id, "x"),
                         lambda c, w: suspicious.open_case(c, w, "x", alert_ids=[alert.id])):
                with pytest.raises(PermissionDenied):
                    read(conn, p[who])
        with pytest.raises(PermissionDenied):
            suspicious.flag(conn, p["alice"], p["bob"], "x")
        trail = [e for e in audit.entries(conn) if e.action.startswith("compliance.")]
    assert alert.kind == "by-hand" and "flagged by cathy" in alert.summary
    assert trail and all(set(json.loads(e.detail)) <= {"alert", "case", "entry", "digest"}
                         for e in trail)
    assert not any("Alice" in e.detail or "Looking" in e.detail for e in trail)


def test_no_delete_path_and_the_audit_chain_holds_every_row(storage: Storage) -> None:
    """31 CFR 1021.320(d) and 1010.430(d), records kept five years: the module has no delete
    (no function named for it, no DELETE statement), a case's only update is its decision, and
    `audit verify` reports a row edited, inserted or deleted in the database."""
    tree = ast.parse(inspect.getsource(suspicious))
    names = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert not {n for n in names if any(w in n for w in ("delete", "remove", "purge", "drop"))}
    calls = {n.func.id for n in ast.walk(tree)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert "delete" not in calls and "update" in calls
    room, p, t = opened(storage)
    connie = officer(room)
    patron_for(room, p, identity=True)
    sell(room, p, NINE, "s1")
    drop(room, p, t, NINE, "d1")
    with storage.unit() as conn:
        [alert] = suspicious.alerts(conn, connie)
        case = suspicious.open_case(conn, connie, "Open.", alert_ids=[alert.id])
        assert integrity.check(conn).problems == ()
    for tamper, found in (
            (update(compliance_alerts).values(summary="nothing"), "alert 1 differs"),
            (update(compliance_cases).values(status="not-filed"), f"case {case.id} differs"),
            (delete(compliance_case_entries).where(compliance_case_entries.c.kind == "alert"),
             "is in the audit trail but not in the books")):
        with pytest.raises(Undone), storage.unit() as conn:
            conn.execute(tamper)
            assert any(found in x for x in integrity.check(conn).problems), found
            raise Undone
    with storage.read() as conn:
        assert integrity.check(conn).problems == ()
