"""Accounts: argon2 hashes, roles, session tokens, log-in rate limits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from cardroom.errors import CardroomError
from cardroom.room.people import accounts as acc
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import AuthError, LoginBackOff, PermissionDenied
from cardroom.room.storage.schema import accounts, sessions


def test_password_is_stored_as_argon2(storage: Storage) -> None:
    with storage.unit() as conn:
        acc.create_account(conn, "Alice", "correct horse", acc.Role.PLAYER)
        stored = conn.execute(select(accounts.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2") and "correct horse" not in stored
    who = acc.authenticate(storage, "alice", "correct horse", "1.2.3.4")
    assert who.username == "alice" and who.role is acc.Role.PLAYER


def test_bad_credentials_one_message(storage: Storage) -> None:
    with storage.unit() as conn:
        acc.create_account(conn, "alice", "correct horse", acc.Role.PLAYER)
    for name in ("alice", "nobody"):
        with pytest.raises(AuthError, match="wrong username or password"):
            acc.authenticate(storage, name, "wrong password", "c")


def test_login_back_off_after_five_failures(storage: Storage) -> None:
    with storage.unit() as conn:
        acc.create_account(conn, "alice", "correct horse", acc.Role.PLAYER)
    for _ in range(acc.PER_NAME.free):
        with pytest.raises(AuthError, match="wrong username or password"):
            acc.authenticate(storage, "alice", "guess", "c")
    with pytest.raises(LoginBackOff, match="too many failed log-ins: try again in 1 minute"):
        acc.authenticate(storage, "alice", "correct horse", "c")
    with storage.read() as conn:
        actions = [e.action for e in audit.entries(conn)]
    assert actions.count("login.failed") == 5 and actions.count("login.backoff") == 1


def test_sessions_random_expiring_and_closable(storage: Storage) -> None:
    with storage.unit() as conn:
        alice = acc.create_account(conn, "alice", "correct horse", acc.Role.PLAYER)
        t1, t2 = acc.open_session(conn, alice), acc.open_session(conn, alice)
        assert t1 != t2 and len(t1) >= 40
        assert acc.session_account(conn, t1) == alice
        assert conn.execute(select(sessions.c.token_hash)).scalars().all() != [t1, t2]
        with pytest.raises(AuthError):
            acc.session_account(conn, t1 + "x")
        acc.close_session(conn, t1)
        with pytest.raises(AuthError):
            acc.session_account(conn, t1)
        conn.execute(update(sessions).values(expires_at=datetime.now(UTC) - timedelta(1)))
        with pytest.raises(AuthError, match="expired"):
            acc.session_account(conn, t2)


def test_roles_and_permissions(storage: Storage) -> None:
    with storage.unit() as conn:
        auditor = acc.create_account(conn, "audrey", "correct horse", acc.Role.AUDITOR)
    assert auditor.may(acc.Permission.READ_ALL)
    for p in (acc.Permission.PLAY, acc.Permission.CASHIER, acc.Permission.VOID):
        with pytest.raises(PermissionDenied):
            auditor.require(p)
    owner = acc.Account(9, "o", acc.Role.OWNER)
    withheld = {acc.Permission.READ_IDENTITIES, acc.Permission.CASES}
    assert all(owner.may(p) for p in acc.Permission if p not in withheld)
    assert not any(owner.may(p) for p in withheld)  # 31 CFR 1021.320(e): not the cases
    # issue 22: patrons' taxpayer ids and document numbers are for the compliance officer only
    assert not owner.may(acc.Permission.READ_IDENTITIES)
    assert acc.Account(8, "c", acc.Role.COMPLIANCE).may(acc.Permission.READ_IDENTITIES)


def test_bad_new_credentials(storage: Storage) -> None:
    with storage.unit() as conn:
        with pytest.raises(CardroomError, match="username"):
            acc.create_account(conn, "a b", "correct horse", acc.Role.PLAYER)
        with pytest.raises(CardroomError, match="password"):
            acc.create_account(conn, "bob", "short", acc.Role.PLAYER)
        acc.create_account(conn, "bob", "violet tugboat", acc.Role.PLAYER)
        with pytest.raises(CardroomError, match="taken"):
            acc.create_account(conn, "BOB", "violet tugboat", acc.Role.PLAYER)
