"""The owner manages staff accounts, roles and lock-outs from one place; every change is audited
(before and after), every refusal audited and changing nothing."""

from __future__ import annotations

import pytest

from cardroom.errors import CardroomError
from cardroom.room.people import staff
from cardroom.room.people.accounts import Role, authenticate, new_credentials
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import AuthError, PermissionDenied

from .people import PW
from .rooms import cage_room


def test_the_owner_hires_changes_roles_locks_and_reinstates(storage: Storage) -> None:
    room, p, _ = cage_room(storage)
    owner = p["olivia"]
    made = room.operate(owner, "staff.hire",
                        lambda c: staff.hire(c, owner, new_credentials("carmen", PW), "cashier"))
    assert made.role is Role.CASHIER
    row = room.operate(owner, "staff.role", lambda c: staff.change_role(c, owner, "dan",
                                                                        "floor"))
    assert row.role is Role.FLOOR
    room.operate(owner, "staff.lock", lambda c: staff.lock(c, owner, "dan", "left the room"))
    with pytest.raises(AuthError):
        authenticate(storage, "dan", PW, "1.2.3.4")
    room.operate(owner, "staff.reinstate", lambda c: staff.reinstate(c, owner, "dan"))
    assert authenticate(storage, "dan", PW, "1.2.3.4").role is Role.FLOOR
    with storage.read() as conn:
        rows = {r.username: r for r in staff.staff(conn)}
        log = [(e.action, e.data) for e in audit.entries(conn) if e.action.startswith(
            "account.") and e.actor == owner.username != e.data["username"]]
    assert "alice" not in rows and rows["carmen"].role is Role.CASHIER
    assert log == [
        ("account.create", {"username": "carmen", "role": "cashier"}),
        ("account.role", {"username": "dan", "before": "dealer", "after": "floor"}),
        ("account.lock", {"username": "dan", "reason": "left the room"}),
        ("account.reinstate", {"username": "dan"})]


def test_staff_changes_refused_change_nothing_and_are_audited(storage: Storage) -> None:
    room, p, _ = cage_room(storage)
    owner = p["olivia"]
    cases = [
        (p["fiona"], lambda c: staff.change_role(c, p["fiona"], "dan", "owner"),
         PermissionDenied, "a floor supervisor may not manage the staff"),
        (owner, lambda c: staff.change_role(c, owner, "olivia", "player"), CardroomError,
         "you cannot change your own role"),
        (owner, lambda c: staff.change_role(c, owner, "dan", "boss"), CardroomError,
         "'boss' is not a role: choose one of player, dealer, cashier, floor, auditor, owner"),
        (owner, lambda c: staff.lock(c, owner, "olivia", "why not"), CardroomError,
         "you cannot lock yourself out"),
        (owner, lambda c: staff.lock(c, owner, "dan", " "), CardroomError,
         "say why the account is locked out"),
        (owner, lambda c: staff.reinstate(c, owner, "dan"), CardroomError,
         "dan is not locked out"),
        (owner, lambda c: staff.lock(c, owner, "nobody", "x"), CardroomError,
         "there is no account named 'nobody'"),
    ]
    with storage.read() as conn:
        before = staff.staff(conn, players=True)
    for who, work, error, sentence in cases:
        with pytest.raises(error, match=sentence):
            room.operate(who, "staff.change", work)
    with storage.read() as conn:
        assert staff.staff(conn, players=True) == before
        refusals = [e for e in audit.entries(conn) if e.action == "refused"]
    assert len(refusals) == len(cases)
