"""The owner's staff management: accounts, roles and lock-outs, from one place, each change
audited with who made it and the values before and after. Only an account that may manage
staff (the owner) makes changes; a refusal changes nothing (the caller audits it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.room.people.accounts import (
    Account,
    NewCredentials,
    Permission,
    Role,
    held_names,
    insert_account,
)
from cardroom.room.storage import audit
from cardroom.room.storage.errors import NotFound
from cardroom.room.storage.schema import accounts, sessions


@dataclass(frozen=True)
class StaffRow:
    id: int
    username: str
    role: Role
    active: bool
    held_until: datetime | None
    """When a name backing off after failed log-ins may try again (None: not held)."""


def staff(conn: Connection, players: bool = False) -> list[StaffRow]:
    """Every staff account (and the players' too with `players`), by name."""
    held = dict(held_names(conn))
    q = select(accounts).order_by(accounts.c.username)
    if not players:
        q = q.where(accounts.c.role != Role.PLAYER.value)
    return [StaffRow(r.id, r.username, Role(r.role), bool(r.active), held.get(r.username))
            for r in conn.execute(q)]


def _row(conn: Connection, username: str) -> StaffRow:
    name = username.strip().lower()[:40]
    r = conn.execute(select(accounts).where(accounts.c.username == name)).first()
    if r is None:
        raise NotFound(f"there is no account named {name!r}")
    return StaffRow(r.id, r.username, Role(r.role), bool(r.active), None)


def _role(text: str) -> Role:
    try:
        return Role(text.strip().lower())
    except ValueError:
        raise CardroomError(f"{text[:20]!r} is not a role: choose one of "
                            f"{', '.join(r.value for r in Role)}") from None


def _owners_left(conn: Connection, without: int) -> int:
    return int(conn.execute(select(func.count()).select_from(accounts).where(
        accounts.c.role == Role.OWNER.value, accounts.c.active.is_(True),
        accounts.c.id != without)).scalar_one())


def hire(conn: Connection, owner: Account, new: NewCredentials, role: str) -> Account:
    """A new account with a role (a staff member, or a player), from credentials checked and
    hashed before the write transaction (`accounts.new_credentials`)."""
    owner.require(Permission.MANAGE_STAFF)
    return insert_account(conn, new, _role(role), actor=owner.username)


def change_role(conn: Connection, owner: Account, username: str, role: str) -> StaffRow:
    owner.require(Permission.MANAGE_STAFF)
    row, new = _row(conn, username), _role(role)
    if row.id == owner.id:
        raise CardroomError("you cannot change your own role: another owner does that")
    if row.role is new:
        raise CardroomError(f"{row.username} is already a {new.value}")
    if row.role is Role.OWNER and not _owners_left(conn, row.id):
        raise CardroomError(f"{row.username} is the last owner: make another owner first")
    conn.execute(update(accounts).where(accounts.c.id == row.id).values(role=new.value))
    conn.execute(delete(sessions).where(sessions.c.account_id == row.id))
    audit.append(conn, owner.username, "account.role", {
        "username": row.username, "before": row.role.value, "after": new.value})
    return _row(conn, row.username)


def lock(conn: Connection, owner: Account, username: str, reason: str) -> StaffRow:
    """Lock an account out: it cannot log in, and its sessions end now."""
    owner.require(Permission.MANAGE_STAFF)
    row, reason = _row(conn, username), reason.strip()
    if not reason:
        raise CardroomError("say why the account is locked out")
    if row.id == owner.id:
        raise CardroomError("you cannot lock yourself out")
    if not row.active:
        raise CardroomError(f"{row.username} is already locked out")
    if row.role is Role.OWNER and not _owners_left(conn, row.id):
        raise CardroomError(f"{row.username} is the last owner: make another owner first")
    conn.execute(update(accounts).where(accounts.c.id == row.id).values(active=False))
    conn.execute(delete(sessions).where(sessions.c.account_id == row.id))
    audit.append(conn, owner.username, "account.lock",
                 {"username": row.username, "reason": reason[:400]})
    return _row(conn, row.username)


def reinstate(conn: Connection, owner: Account, username: str) -> StaffRow:
    """Let a locked-out account log in again."""
    owner.require(Permission.MANAGE_STAFF)
    row = _row(conn, username)
    if row.active:
        raise CardroomError(f"{row.username} is not locked out")
    conn.execute(update(accounts).where(accounts.c.id == row.id).values(active=True))
    audit.append(conn, owner.username, "account.reinstate", {"username": row.username})
    return _row(conn, row.username)
