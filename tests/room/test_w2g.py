"""Form W-2G for jackpot shares (issue 21, "Payouts that need more than the dealer";
../shared/reference/compliance.md, "Taxes on jackpots"; the profile's `w2g` figure, dated, in
data/profiles/washington.toml): a share of $600 or more at 300 to 1 or more (any top-award share
of $600 or more: it is paid on a $1 wager) waits until the winner's name, address, taxpayer id
and identity document are recorded; 24% is withheld from $5,000, to its own ledger account; the
fixed awards (10, 125, 250 for 1) need no form. On SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from cardroom.cards import parse_cards
from cardroom.room.compliance import w2g
from cardroom.room.money import ledger
from cardroom.room.money.jackpot import DEFAULT_POOL
from cardroom.room.people import patrons
from cardroom.room.play import progressive
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import w2g_forms

from .jackpot_winners import KEY, PLAYERS, TIN, deal_top_award, identify_winner, jackpot_room
from .rooms import rig_coup, state_profile_with, unexplained_today

DAY = date(2026, 11, 26)


def test_w2g_rule_state_profile_600_at_300_to_1_and_24_percent_from_5000() -> None:
    """compliance.md, "Taxes on jackpots" (profile `w2g`): a form from $600 at 300 to 1; a
    top-award share is paid on a $1 wager, so $600 needs one and $599.99 does not; the
    fixed 250-for-1 award ($250 on $1) never does, nor $600 on a $3 wager (200 to 1); 24%
    withheld from $5,000, nothing below."""
    assert w2g.needs_form(60_000, 100, DAY) and not w2g.needs_form(59_999, 100, DAY)
    assert not w2g.needs_form(25_000, 100, DAY)
    assert not w2g.needs_form(60_000, 300, DAY) and w2g.needs_form(90_000, 300, DAY)
    assert w2g.withholding(499_999, DAY) == 0 and w2g.withholding(500_000, DAY) == 120_000
    assert w2g.withholding(600_000, DAY) == 144_000 and w2g.withholding(60_001, DAY) == 0


def test_w2g_figures_are_the_profiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                      ) -> None:
    """The law is data: under a profile whose W-2G figure is $1,200 and 25% from $6,000 (a
    copy of the state's), a $700 share needs no form and $6,000 has $1,500 withheld."""
    changed = state_profile_with(
        tmp_path, "report_cents = 60000\nodds_to_one = 300\nwithhold_cents = 500000\n"
                  "withhold_percent = 24",
        "report_cents = 120000\nodds_to_one = 300\nwithhold_cents = 600000\n"
        "withhold_percent = 25")
    monkeypatch.setenv("CARDROOM_PROFILE", str(changed))
    assert not w2g.needs_form(70_000, 100, DAY) and w2g.needs_form(120_000, 100, DAY)
    assert w2g.withholding(599_999, DAY) == 0 and w2g.withholding(600_000, DAY) == 150_000


def test_w2g_a_700_share_waits_for_the_identity_then_is_paid_with_no_withholding(
        storage: Storage) -> None:
    """compliance.md, "Taxes on jackpots": four $700 shares of a top award ($700 on a $1
    wager: a W-2G each) are refused payment while a winner has no patron, or a patron without
    a taxpayer id, the refusal naming what the cage must record; once recorded they are paid
    in full (under $5,000: nothing withheld) and a form is listed for each."""
    room, p, t = jackpot_room(storage)
    hit = deal_top_award(room, storage, p, t, 70_000, PLAYERS)
    assert room.table(t).snapshot(p["alice"])["you"]["see_the_cage"] is True
    assert room.table(t).snapshot(p["fiona"])["you"]["see_the_cage"] is False  # hers only
    with pytest.raises(w2g.IdentityForForm, match=r"(?i)needs a W-2G: before it is paid the "
                       r"cage must record the (patron record|taxpayer id) of alice"):
        room.pay_jackpot(p["olivia"], hit.id)
    for name in ("alice", "bob", "carol"):
        identify_winner(storage, p, name)
    identify_winner(storage, p, "dave", tin=None)
    with pytest.raises(w2g.IdentityForForm) as refused:
        room.pay_jackpot(p["olivia"], hit.id)
    assert re.search(r"the cage must record the taxpayer id of Dave( Winner)?\.$",
                     str(refused.value))
    with storage.read() as conn:
        assert progressive.get_hit(conn, hit.id).status == "verified"  # nothing moved
        [shown] = progressive.report(conn)["pools"][0]["hits"]
    [(player, what)] = [(m["player"], m["what"]) for m in shown["identity_needed"]]
    assert player == "dave" and what.startswith("the taxpayer id of Dave")
    with storage.unit() as conn:
        dave = patrons.patron_of(conn, p["dave"].id)
        assert dave is not None
        patrons.set_taxpayer_id(conn, p["olivia"], dave.id, "987-65-4321", KEY)
    wallets = {n: room.wallet(p[n]) for n in PLAYERS}
    room.pay_jackpot(p["olivia"], hit.id)
    assert {n: room.wallet(p[n]) - wallets[n] for n in PLAYERS} == dict.fromkeys(PLAYERS,
                                                                                  70_000)
    assert room.table(t).snapshot(p["alice"])["you"]["see_the_cage"] is False
    with storage.read() as conn:
        found = w2g.forms(conn, datetime.now(UTC).year, KEY)
        assert ledger.balance(conn, w2g.WITHHOLDING) == 0
        assert ledger.trial_balance(conn).ok and progressive.reconcile(conn, DEFAULT_POOL) == []
    assert [(f.player, f.box1_reportable_winnings, f.box4_federal_tax_withheld)
            for f in found] == [(n, 70_000, 0) for n in PLAYERS]
    alice = found[0]
    assert alice.winner_name.startswith("Alice") and alice.winner_tin == "123456789"
    assert alice.box10_window == "Mini 1" and alice.box8_cashier == "olivia"
    assert alice.box11_first_id.startswith("driver's licence Washington ")
    assert alice.box11_first_id.endswith(", expires 2099-01-01")
    assert found[3].winner_tin == "987654321"


def test_w2g_a_6000_share_has_1440_withheld_to_its_own_account(storage: Storage) -> None:
    """compliance.md, "Taxes on jackpots" (24% withheld when the win is $5,000 or more): a
    $6,000 top award to one identified winner, checked by surveillance (over $3,000, WAC
    230-15-320(4)), is paid $4,560 to the wallet and $1,440 to `house:w2g-withholding`; the
    ledger balances, the jackpot report reconciles and shows what was withheld."""
    room, p, t = jackpot_room(storage)
    identify_winner(storage, p, "alice")
    hit = deal_top_award(room, storage, p, t, 600_000, ("alice",))
    assert room.table(t).snapshot(p["alice"])["you"]["see_the_cage"] is False
    room.jackpot_surveillance(p["audrey"], hit.id, "camera 2, reviewed by audrey")
    before = room.wallet(p["alice"])
    room.pay_jackpot(p["olivia"], hit.id)
    assert room.wallet(p["alice"]) - before == 456_000
    with storage.read() as conn:
        assert ledger.balance(conn, w2g.WITHHOLDING) == 144_000
        assert ledger.balance(conn, ledger.jackpot_pending(DEFAULT_POOL)) == 0
        assert ledger.trial_balance(conn).ok
        report = progressive.report(conn)
        [form] = w2g.forms(conn, datetime.now(UTC).year, KEY)
    assert report["pools"][0]["problems"] == []
    assert report["pools"][0]["hits"][0]["withheld"] == 144_000
    assert (form.box1_reportable_winnings, form.box4_federal_tax_withheld) == (600_000, 144_000)
    assert form.winner_tin == TIN.replace("-", "")
    assert unexplained_today(room) == []  # the withholding is the jackpot report's (issue 23)


def test_w2g_a_tampered_form_fails_the_jackpot_reconciliation(storage: Storage) -> None:
    """The tax withheld on the pool's forms is reconciled with what its payments posted to
    the withholding account: a form changed afterwards is reported."""
    room, p, t = jackpot_room(storage)
    identify_winner(storage, p, "alice")
    hit = deal_top_award(room, storage, p, t, 600_000, ("alice",))
    room.jackpot_surveillance(p["audrey"], hit.id, "camera 2")
    room.pay_jackpot(p["olivia"], hit.id)
    with storage.unit() as conn:
        conn.execute(w2g_forms.update().values(withheld=100_000))
    with storage.read() as conn:
        assert progressive.reconcile(conn, DEFAULT_POOL) == [
            f"{DEFAULT_POOL}: tax withheld (W-2G): the controller shows $1,000.00 but the "
            "ledger $1,440.00"]


def test_w2g_the_fixed_250_for_1_award_needs_no_form(storage: Storage) -> None:
    """compliance.md, "Taxes on jackpots": the fixed awards (10, 125, 250 for 1) need no
    form; Super-9: "Both player and banker have 2 card suited Ace-8 ..... 250 for 1": paid at
    once, $250 on a $1 wager, no identity asked, nothing withheld, no form."""
    room, p, t = jackpot_room(storage)
    room.act(p["bob"], t, {"type": "sit", "buy_in": 50_000, "key": "s-bob"})
    room.act(p["bob"], t, {"type": "bet", "key": "b-bob",
                           "bets": {"player": 500, "progressive": 100}})
    rig_coup(room, t, parse_cards("Ah As 8h 8s"))
    room.act(p["bob"], t, {"type": "deal"})
    snap = room.table(t).snapshot(p["bob"])
    [award] = [s for s in snap["last"]["settlements"] if s["kind"] == "progressive"]
    assert award["returned"] == 25_000 and not award.get("pending")
    assert snap["you"]["see_the_cage"] is False
    with storage.read() as conn:
        assert progressive.pending_hits(conn, DEFAULT_POOL) == []
        assert conn.execute(select(w2g_forms)).first() is None
        assert ledger.balance(conn, w2g.WITHHOLDING) == 0
        assert w2g.forms(conn, datetime.now(UTC).year, KEY) == []
