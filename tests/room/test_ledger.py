"""The double-entry ledger: balanced transactions, never negative, idempotency keys."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from cardroom.room.compliance.surveillance import Payout
from cardroom.room.money import ledger
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import IdempotencyConflict, LedgerError
from cardroom.room.storage.schema import ledger_accounts


def test_balanced_transaction_moves_money(storage: Storage) -> None:
    with storage.unit() as conn:
        ledger.post(conn, "k1", "buy-chips", [(ledger.HOUSE_CAGE, -10_000),
                                              (ledger.wallet(1), 10_000)], actor="t")
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.wallet(1)) == 10_000
        assert ledger.balance(conn, ledger.HOUSE_CAGE) == -10_000
        assert ledger.trial_balance(conn).ok


def test_unbalanced_transaction_is_refused_and_changes_nothing(storage: Storage) -> None:
    with pytest.raises(LedgerError, match="unbalanced"), storage.unit() as conn:
        ledger.post(conn, "k1", "bad", [(ledger.HOUSE_CAGE, -100), (ledger.wallet(1), 99)],
                    actor="t")
    with storage.read() as conn:
        assert ledger.balances(conn) == {}


def test_a_transaction_that_moves_no_money_is_refused_and_changes_nothing(
        storage: Storage) -> None:
    """Double entry: a transaction is at least two entries; postings that net to nothing (a
    stake of zero handed back) are refused, never written as an empty transaction."""
    with pytest.raises(LedgerError, match="must move money"), storage.unit() as conn:
        ledger.post(conn, "k0", "void", [(ledger.wagers(1), 0), (ledger.stack(1, 2), 0)],
                    actor="t")
    with storage.read() as conn:
        assert ledger.balances(conn) == {} and ledger.trial_balance(conn).ok


def test_protected_account_never_goes_negative(storage: Storage) -> None:
    with storage.unit() as conn:
        ledger.post(conn, "k1", "buy", [(ledger.HOUSE_CAGE, -500), (ledger.wallet(1), 500)],
                    actor="t")
    with pytest.raises(LedgerError, match="not enough"), storage.unit() as conn:
        ledger.post(conn, "k2", "out", [(ledger.wallet(1), -501), (ledger.HOUSE_CAGE, 501)],
                    actor="t")
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.wallet(1)) == 500


def test_database_constraint_backs_the_check(storage: Storage) -> None:
    """Even a direct write cannot make a player's balance negative (CHECK constraint)."""
    with storage.unit() as conn:
        ledger.post(conn, "k1", "buy", [(ledger.HOUSE_CAGE, -500), (ledger.wallet(1), 500)],
                    actor="t")
    with pytest.raises(Exception, match=r"(?i)check|constraint"), storage.unit() as conn:
        conn.execute(update(ledger_accounts).where(ledger_accounts.c.name == ledger.wallet(1))
                     .values(balance=-1))


def test_retried_request_is_applied_once(storage: Storage) -> None:
    entries = [(ledger.HOUSE_CAGE, -700), (ledger.wallet(2), 700)]
    with storage.unit() as conn:
        first = ledger.post(conn, "same", "buy", entries, actor="t")
    with storage.unit() as conn:
        again = ledger.post(conn, "same", "buy", entries, actor="t")
    assert again.replayed and again.tx_id == first.tx_id and not first.replayed
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.wallet(2)) == 700


def test_key_reused_for_another_request_is_refused(storage: Storage) -> None:
    with storage.unit() as conn:
        ledger.post(conn, "k", "buy", [(ledger.HOUSE_CAGE, -700), (ledger.wallet(2), 700)],
                    actor="t")
    with pytest.raises(IdempotencyConflict), storage.unit() as conn:
        ledger.post(conn, "k", "buy", [(ledger.HOUSE_CAGE, -800), (ledger.wallet(2), 800)],
                    actor="t")


def test_floats_are_not_money(storage: Storage) -> None:
    with pytest.raises(Exception, match="whole number of cents"), storage.unit() as conn:
        ledger.post(conn, "k", "buy", [(ledger.HOUSE_CAGE, -1.5), (ledger.wallet(2), 1.5)],  # type: ignore[list-item]
                    actor="t")


def test_trial_balance_detects_a_tampered_balance(storage: Storage) -> None:
    with storage.unit() as conn:
        ledger.post(conn, "k", "buy", [(ledger.HOUSE_CAGE, -700), (ledger.wallet(2), 700)],
                    actor="t")
        conn.execute(update(ledger_accounts).where(ledger_accounts.c.name == ledger.wallet(2))
                     .values(balance=900))
    with storage.read() as conn:
        tb = ledger.trial_balance(conn)
        assert not tb.ok and tb.mismatched_accounts == (ledger.wallet(2),) and tb.total == 200
        assert conn.execute(select(ledger_accounts.c.name)).scalars().all()


def test_a_move_takes_the_amount_from_one_account_and_gives_it_to_the_other() -> None:
    """The one builder of a two-account movement: $25.00 bought at the cage is -2,500 cents
    for the cage and +2,500 for the player's chips; a negative amount moves the other way."""
    assert ledger.move(ledger.HOUSE_CAGE, ledger.wallet(7), 2_500) == [
        ("house:cage", -2_500), ("wallet:7", 2_500)]
    assert ledger.move(ledger.HOUSE_CAGE, ledger.wallet(7), -300) == [
        ("house:cage", 300), ("wallet:7", -300)]


def test_a_settled_wager_posts_stake_return_commission_and_bank() -> None:
    """The one builder of a wager's settlement entries (`Payout.postings`), worked by hand:
    a $10.00 Banker wager that wins even money less 5% commission leaves the wagers in play
    (-1,000), returns 1,950 to the stack, puts 50 in commission and takes 1,000 from the tray;
    a lost $5.00 wager leaves the wagers (-500) for the tray (+500), nothing returned."""
    win = Payout(3, "banker", 1_000, 1_000, 50, ledger.tray(2))
    assert sorted(win.postings(2)) == [
        ("house:commission", 50), ("stack:2:3", 1_950), ("tray:2", -1_000),
        ("wagers:2", -1_000)]
    loss = Payout(3, "player", 500, -500, 0, ledger.tray(2))
    assert sorted(loss.postings(2)) == [
        ("house:commission", 0), ("stack:2:3", 0), ("tray:2", 500), ("wagers:2", -500)]
    assert sum(a for _, a in win.postings(2)) == sum(a for _, a in loss.postings(2)) == 0
