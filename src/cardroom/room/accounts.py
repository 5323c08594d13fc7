"""People: accounts with argon2-hashed passwords, roles, sessions with random tokens, and a
log-in rate limit. Session tokens are stored only as their SHA-256, so a copy of the database
cannot be replayed as a log-in."""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.room import audit
from cardroom.room.db import Storage
from cardroom.room.errors import AuthError, PermissionDenied
from cardroom.room.schema import accounts, login_failures, sessions

SESSION_LIFETIME = timedelta(hours=12)
FAILURE_WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_USER = 5
MAX_FAILURES_PER_CLIENT = 20
_USERNAME = re.compile(r"^[a-z0-9_]{3,30}$")
FAST_HASHING_ENV = "CARDROOM_INSECURE_FAST_HASHING"
"""Set to 1 by the test suites only: argon2 at its smallest cost, so a test's accounts hash in
microseconds. Never set it for a real room; production uses argon2-cffi's defaults (RFC 9106's
low-memory profile). Read when the first password is hashed or checked."""


def _make_hasher() -> PasswordHasher:
    if os.environ.get(FAST_HASHING_ENV) == "1":
        return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    return PasswordHasher()


class _LazyHasher:
    """The process's hasher, built on first use (after the test suites set their switch)."""

    def __init__(self) -> None:
        self._hasher: PasswordHasher | None = None

    def hash(self, password: str) -> str:
        return self._get().hash(password)

    def verify(self, stored: str, password: str) -> bool:
        return self._get().verify(stored, password)

    def _get(self) -> PasswordHasher:
        if self._hasher is None:
            self._hasher = _make_hasher()
        return self._hasher


_dummy: list[str] = []


def _dummy_hash() -> str:
    """Checked for an unknown name, so that a wrong name costs as much as a wrong password."""
    if not _dummy:
        _dummy.append(_hasher.hash("not a password of anyone"))
    return _dummy[0]


_hasher: _LazyHasher | PasswordHasher = _LazyHasher()


class Role(StrEnum):
    PLAYER = "player"
    DEALER = "dealer"
    FLOOR = "floor"
    AUDITOR = "auditor"
    OWNER = "owner"


class Permission(StrEnum):
    PLAY = "play"
    CASHIER = "cashier"
    DEAL = "deal"
    VOID = "void"
    OPEN_TABLES = "open-tables"
    ADJUST_JACKPOT = "adjust-jackpot"
    READ_ALL = "read-all"
    MANAGE_STAFF = "manage-staff"


PERMISSIONS: dict[Role, frozenset[Permission]] = {
    Role.PLAYER: frozenset({Permission.PLAY, Permission.CASHIER}),
    Role.DEALER: frozenset({Permission.DEAL}),
    Role.FLOOR: frozenset({Permission.DEAL, Permission.VOID, Permission.OPEN_TABLES,
                           Permission.ADJUST_JACKPOT}),
    Role.AUDITOR: frozenset({Permission.READ_ALL}),
    Role.OWNER: frozenset(Permission),
}


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    role: Role

    def may(self, permission: Permission) -> bool:
        return permission in PERMISSIONS[self.role]

    def require(self, permission: Permission) -> None:
        if not self.may(permission):
            raise PermissionDenied(f"refused: a {self.role.value} may not {permission.value}")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_new_credentials(username: str, password: str) -> str:
    name = username.strip().lower()
    if not _USERNAME.match(name):
        raise CardroomError("a username is 3-30 lowercase letters, digits or underscores")
    if not 8 <= len(password) <= 200:
        raise CardroomError("a password needs 8 to 200 characters")
    return name


def create_account(conn: Connection, username: str, password: str, role: Role,
                   password_hash: str | None = None) -> Account:
    """`password_hash` lets a caller reuse one hash (benchmarks); normal callers omit it."""
    name = check_new_credentials(username, password)
    if conn.execute(select(accounts.c.id).where(accounts.c.username == name)).first():
        raise CardroomError(f"the username {name!r} is taken")
    new_id = conn.execute(insert(accounts).values(
        username=name, password_hash=password_hash or hash_password(password),
        role=role.value, active=True, created_at=datetime.now(UTC))
        .returning(accounts.c.id)).scalar_one()
    return Account(new_id, name, role)


def count_accounts(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(accounts)).scalar_one())


def get_account(conn: Connection, account_id: int) -> Account | None:
    r = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
    return Account(r.id, r.username, Role(r.role)) if r and r.active else None


def find_account(conn: Connection, username: str) -> Account | None:
    r = conn.execute(select(accounts).where(accounts.c.username == username.strip().lower())
                     ).first()
    return Account(r.id, r.username, Role(r.role)) if r and r.active else None


def throttled(conn: Connection, username: str, client: str) -> bool:
    since = datetime.now(UTC) - FAILURE_WINDOW
    per_user = conn.execute(select(func.count()).select_from(login_failures).where(
        login_failures.c.username == username, login_failures.c.at >= since)).scalar_one()
    per_client = conn.execute(select(func.count()).select_from(login_failures).where(
        login_failures.c.client == client, login_failures.c.at >= since)).scalar_one()
    return per_user >= MAX_FAILURES_PER_USER or per_client >= MAX_FAILURES_PER_CLIENT


def authenticate(storage: Storage, username: str, password: str, client: str) -> Account:
    """The account for these credentials, or AuthError (the same message for a wrong name or a
    wrong password). Failures are recorded (committed even though the log-in fails); too many
    in the window refuse even good credentials."""
    name = username.strip().lower()[:40]
    with storage.read() as conn:
        if throttled(conn, name, client[:64]):
            raise AuthError("too many failed log-ins: try again in 15 minutes")
        r = conn.execute(select(accounts).where(accounts.c.username == name)).first()
    try:
        _hasher.verify(r.password_hash if r else _dummy_hash(), password)
        ok = r is not None and bool(r.active)
    except (VerificationError, InvalidHashError):
        ok = False
    with storage.unit() as conn:
        if not ok or r is None:
            conn.execute(insert(login_failures).values(username=name, client=client[:64],
                                                       at=datetime.now(UTC)))
            audit.append(conn, name or "?", "login.failed", {"client": client[:64]})
        else:
            conn.execute(delete(login_failures).where(login_failures.c.username == name))
    if not ok or r is None:
        raise AuthError("wrong username or password")
    return Account(r.id, r.username, Role(r.role))


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def open_session(conn: Connection, account: Account) -> str:
    token = secrets.token_urlsafe(32)
    now = datetime.now(UTC)
    conn.execute(insert(sessions).values(token_hash=_token_hash(token), account_id=account.id,
                                         created_at=now, expires_at=now + SESSION_LIFETIME))
    return token


def session_account(conn: Connection, token: str | None) -> Account:
    if not token or len(token) > 100:
        raise AuthError("please log in")
    r = conn.execute(select(sessions.c.account_id, sessions.c.expires_at)
                     .where(sessions.c.token_hash == _token_hash(token))).first()
    if r is None:
        raise AuthError("your session is not valid: please log in")
    expires = r.expires_at if r.expires_at.tzinfo else r.expires_at.replace(tzinfo=UTC)
    if expires <= datetime.now(UTC):
        raise AuthError("your session has expired: please log in again")
    account = get_account(conn, r.account_id)
    if account is None:
        raise AuthError("this account is closed")
    return account


def close_session(conn: Connection, token: str) -> None:
    conn.execute(delete(sessions).where(sessions.c.token_hash == _token_hash(token)))
