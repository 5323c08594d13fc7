"""People: accounts with argon2-hashed passwords, roles, sessions with random tokens, and log-in
back-off. Session and device tokens are stored only as their SHA-256, so a copy of the database
cannot be replayed as a log-in.

Log-in guessing is slowed by three back-off buckets (`throttle`), each counted before the
password is checked: the name (from devices it has not logged in from), the client address, and
a *trusted device* (a browser that logged in to this account before and holds its device
cookie). A device's attempts count only in its own bucket, so an attacker who floods a name
(even the owner's) slows down strangers on that name but never its known devices: no lock-out
to hand out. The owner clears a name's back-off from the floor page; both are audited.
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.room.people import throttle
from cardroom.room.people.credentials import check_password, check_unreserved, check_username
from cardroom.room.people.throttle import Backoff
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import AuthError, LoginBackOff, PermissionDenied, Throttled
from cardroom.room.storage.schema import accounts, sessions, trusted_devices

SESSION_LIFETIME = timedelta(hours=12)
DEVICE_LIFETIME = timedelta(days=90)
PER_NAME = Backoff(free=5, first_wait=timedelta(minutes=1), max_wait=timedelta(minutes=30),
                   forget=timedelta(days=1))
"""Password checks on one name from devices it has not logged in from."""
PER_CLIENT = Backoff(free=20, first_wait=timedelta(minutes=1), max_wait=timedelta(hours=1),
                     forget=timedelta(days=1))
"""Password checks from one client address, on any names (a good log-in is given back)."""
PER_DEVICE = Backoff(free=5, first_wait=timedelta(minutes=1), max_wait=timedelta(minutes=30),
                     forget=timedelta(days=1))
"""Password checks from one trusted device of the account."""
REGISTRATIONS = Backoff(free=3, first_wait=timedelta(minutes=10), max_wait=timedelta(hours=6),
                        forget=timedelta(days=1))
"""Accounts opened from one browser (its signed registration cookie), or from one client
address by browsers without one."""
REGISTRATIONS_PER_ADDRESS = Backoff(free=20, first_wait=timedelta(minutes=10),
                                    max_wait=timedelta(hours=6), forget=timedelta(days=1))
"""Every account opened from one client address, whatever the browsers' cookies: the backstop
against a flood that draws a new cookie for each registration."""
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
    CASHIER = "cashier"
    FLOOR = "floor"
    AUDITOR = "auditor"
    OWNER = "owner"
    COMPLIANCE = "compliance"
    """The compliance officer (issue 22): reads patrons' identities, and only they."""


class Permission(StrEnum):
    PLAY = "play"
    CASHIER = "buy your own chips"
    """Self-service chips (only where the house setting `self_service_chips` is on)."""
    CAGE = "run the cage"
    """Sell and redeem chips for players, issue fills, receive credits (the cashier)."""
    COUNT = "count drop boxes"
    DEAL = "deal"
    VOID = "void"
    OPEN_TABLES = "open-tables"
    ADJUST_JACKPOT = "adjust-jackpot"
    READ_ALL = "read-all"
    MANAGE_STAFF = "manage-staff"
    READ_IDENTITIES = "read-identities"
    """Patrons' taxpayer ids and document numbers in clear (the compliance officer only: not
    even the owner, docs/compliance.md)."""
    TITLE_31 = "title-31-records"
    """The currency transaction records: the multiple transaction log, the currency
    transaction reports and their filing (the compliance officer and the owner)."""
    CASES = "suspicious-activity-cases"
    """The suspicious-activity alerts and cases (31 CFR 1021.320): the compliance officer
    only, not even the owner (docs/compliance.md, Suspicious activity)."""


PERMISSIONS: dict[Role, frozenset[Permission]] = {
    Role.PLAYER: frozenset({Permission.PLAY, Permission.CASHIER}),
    Role.DEALER: frozenset({Permission.DEAL}),
    Role.CASHIER: frozenset({Permission.CAGE, Permission.COUNT}),
    Role.FLOOR: frozenset({Permission.DEAL, Permission.VOID, Permission.OPEN_TABLES,
                           Permission.ADJUST_JACKPOT}),
    Role.AUDITOR: frozenset({Permission.READ_ALL}),
    Role.OWNER: frozenset(Permission) - {Permission.READ_IDENTITIES, Permission.CASES},
    Role.COMPLIANCE: frozenset({Permission.READ_IDENTITIES, Permission.TITLE_31,
                                Permission.CASES}),
}


PERMISSION_WORDS: dict[Permission, str] = {
    Permission.PLAY: "play at the tables", Permission.CASHIER: "buy their own chips",
    Permission.CAGE: "run the cage", Permission.COUNT: "count drop boxes",
    Permission.DEAL: "deal", Permission.VOID: "void a hand",
    Permission.OPEN_TABLES: "open tables", Permission.ADJUST_JACKPOT: "adjust the jackpot",
    Permission.READ_ALL: "read every record", Permission.MANAGE_STAFF: "manage the staff",
    Permission.READ_IDENTITIES: "see patrons' taxpayer ids and document numbers",
    Permission.TITLE_31: "keep the currency transaction records",
    Permission.CASES: "read and write the suspicious-activity alerts and cases"}
"""What each permission lets a person do, in words for a refusal."""
ROLE_WORDS: dict[Role, str] = {Role.PLAYER: "a player", Role.DEALER: "a dealer",
                               Role.CASHIER: "a cashier",
                               Role.FLOOR: "a floor supervisor", Role.AUDITOR: "an auditor",
                               Role.OWNER: "the owner",
                               Role.COMPLIANCE: "the compliance officer"}
"""Each role as a person reads it, with its article ("an auditor", never "a auditor")."""


def refusal(role: Role, what: str) -> str:
    """A refusal by role in one sentence: "Sorry: an auditor may not use the cashier."."""
    who = ROLE_WORDS.get(role) or \
        ("an " if role.value[:1] in "aeiou" else "a ") + role.value.replace("-", " ")
    return f"Sorry: {who} may not {what}."


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    role: Role

    def may(self, permission: Permission) -> bool:
        return permission in PERMISSIONS[self.role]

    def require(self, permission: Permission) -> None:
        if not self.may(permission):
            raise PermissionDenied(refusal(self.role, PERMISSION_WORDS.get(permission,
                                                                           permission.value)))


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_new_credentials(username: str, password: str) -> str:
    """The name as stored, or CardroomError when the name or the password is refused (the
    room's own actor and role names are refused for every account, however it is made)."""
    name = check_username(username)
    check_unreserved(name)
    check_password(name, password)
    return name


ACCOUNT_CREATED = ("account.create", "account.register", "setup.owner")
"""The audit actions that record an account made (each names its username and role), so that
`audit verify` can hold the accounts table to the chain (`cardroom.room.trust.records_check`)."""


@dataclass(frozen=True)
class NewCredentials:
    """A name and a password that passed the checks, with the password's argon2 hash."""
    username: str
    password_hash: str


def new_credentials(username: str, password: str, password_hash: str | None = None
                    ) -> NewCredentials:
    """The slow half of opening an account (zxcvbn's judgement and argon2's hash, most of a
    second of CPU), which needs no database: the server runs it before, never inside, the
    room's write transaction. `password_hash` lets a caller reuse one hash (benchmarks)."""
    name = check_new_credentials(username, password)
    return NewCredentials(name, password_hash or hash_password(password))


def insert_account(conn: Connection, made: NewCredentials, role: Role, *,
                   actor: str | None = None, action: str = "account.create",
                   detail: dict[str, Any] | None = None) -> Account:
    """The fast half: the account in the books (CardroomError when the name is taken),
    recorded in the audit chain in the same transaction: `action` (one of `ACCOUNT_CREATED`)
    by `actor` (None: the new account itself) with its username, role and `detail`."""
    if conn.execute(select(accounts.c.id).where(accounts.c.username == made.username)).first():
        raise CardroomError(f"the username {made.username!r} is taken")
    new_id = conn.execute(insert(accounts).values(
        username=made.username, password_hash=made.password_hash, role=role.value,
        active=True, created_at=datetime.now(UTC)).returning(accounts.c.id)).scalar_one()
    audit.append(conn, actor or made.username, action,
                 {"username": made.username, "role": role.value, **(detail or {})})
    return Account(new_id, made.username, role)


def create_account(conn: Connection, username: str, password: str, role: Role,
                   password_hash: str | None = None, *, actor: str | None = None,
                   action: str = "account.create", detail: dict[str, Any] | None = None
                   ) -> Account:
    """Both halves in `conn`'s transaction: for the command line, tests and benchmarks, where
    nothing else waits on the writer. The server's forms call them apart."""
    return insert_account(conn, new_credentials(username, password, password_hash), role,
                          actor=actor, action=action, detail=detail)


def count_accounts(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(accounts)).scalar_one())


def get_account(conn: Connection, account_id: int) -> Account | None:
    r = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
    return Account(r.id, r.username, Role(r.role)) if r and r.active else None


def find_account(conn: Connection, username: str) -> Account | None:
    r = conn.execute(select(accounts).where(accounts.c.username == username.strip().lower())
                     ).first()
    return Account(r.id, r.username, Role(r.role)) if r and r.active else None


def wait_sentence(wait: timedelta) -> str:
    minutes = max(1, math.ceil(wait.total_seconds() / 60))
    return f"{minutes} minute{'s' if minutes > 1 else ''}"


def _name_key(name: str) -> str:
    return f"login-name:{name}"


def _device_key(account_id: int, token: str) -> str:
    return f"login-device:{account_id}:{_token_hash(token)}"


def _trusted_device(conn: Connection, token: str | None, now: datetime) -> int | None:
    """The account a device token was issued to, while it is valid."""
    if not token or len(token) > 100:
        return None
    r = conn.execute(select(trusted_devices).where(
        trusted_devices.c.token_hash == _token_hash(token))).first()
    if r is None:
        return None
    created = r.created_at if r.created_at.tzinfo else r.created_at.replace(tzinfo=UTC)
    return int(r.account_id) if now - created < DEVICE_LIFETIME else None


def password_matches(stored: str | None, password: str) -> bool:
    """Whether `password` is the one hashed in `stored` (the slow argon2 check: call it outside
    the room's write transaction). None (no such account) is checked against a dummy hash, so
    that a wrong name costs as much as a wrong password."""
    try:
        return bool(_hasher.verify(stored or _dummy_hash(), password)) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def authenticate(storage: Storage, username: str, password: str, client: str,
                 device: str | None = None) -> Account:
    """The account for these credentials, or AuthError (the same message for a wrong name or a
    wrong password, and a wait when a bucket is backing off). The attempt is counted before the
    hash is checked, in the same write transaction that decides it may go ahead; a good log-in
    gives it back. `device` is the browser's device cookie, if any."""
    name = username.strip().lower()[:40]
    client = client[:64]
    now = datetime.now(UTC)
    with storage.unit() as conn:
        r = conn.execute(select(accounts).where(accounts.c.username == name)).first()
        if r is not None and device and _trusted_device(conn, device, now) == r.id:
            buckets = [(_device_key(r.id, device), PER_DEVICE)]
        else:
            buckets = [(_name_key(name), PER_NAME), (f"login-client:{client}", PER_CLIENT)]
        wait = throttle.take(conn, buckets, now)
    if wait is not None:
        raise LoginBackOff(f"too many failed log-ins: try again in {wait_sentence(wait)}")
    ok = password_matches(r.password_hash if r else None, password) and bool(r and r.active)
    with storage.unit() as conn:
        if ok and r is not None:
            for key, _ in buckets:
                if key.startswith("login-client:"):
                    throttle.give_back(conn, key)
                else:
                    throttle.clear(conn, key)
            return Account(r.id, r.username, Role(r.role))
        audit.append(conn, name or "?", "login.failed", {"client": client})
        _audit_back_off(conn, name or "?", buckets, client, now)
    raise AuthError("wrong username or password")


def _audit_back_off(conn: Connection, name: str, buckets: list[tuple[str, Backoff]],
                    client: str, now: datetime) -> None:
    """A `login.backoff` entry for each bucket that this failure leaves waiting."""
    for key, policy in buckets:
        until = throttle.held_until(conn, key, policy, now)
        if until is not None:
            audit.append(conn, name, "login.backoff", {
                "bucket": key.split(":", 1)[0].removeprefix("login-"), "client": client,
                "wait_s": int((until - now).total_seconds())})


def held_names(conn: Connection) -> list[tuple[str, datetime]]:
    """Names backing off (from unknown devices), with when the next attempt may come."""
    return throttle.waiting(conn, "login-name:", PER_NAME)


def unlock(conn: Connection, who: Account, username: str) -> None:
    """Clear a name's back-off and its devices' (the owner's remedy); audited."""
    who.require(Permission.MANAGE_STAFF)
    name = username.strip().lower()[:40]
    r = conn.execute(select(accounts.c.id).where(accounts.c.username == name)).first()
    dropped = throttle.clear(conn, _name_key(name))
    if r is not None:
        dropped += throttle.clear(conn, f"login-device:{r.id}:", prefix=True)
    if not dropped:
        raise CardroomError(f"{name!r} is not held back")
    audit.append(conn, who.username, "login.unlock", {"username": name})


def registration_buckets(client: str, device: str | None) -> list[tuple[str, Backoff]]:
    """Where a registration counts (issue 23, "the limit is per device"): in its browser's
    bucket when it carries a device id the server gave it, else in its address's; and always
    in the address's backstop."""
    backstop = (f"register-address:{client[:64]}", REGISTRATIONS_PER_ADDRESS)
    if device:
        return [(f"register-device:{device[:64]}", REGISTRATIONS), backstop]
    return [(f"register:{client[:64]}", REGISTRATIONS), backstop]


def _too_many_registrations(wait: timedelta) -> Throttled:
    return Throttled(f"too many accounts opened from here: try again in {wait_sentence(wait)}")


def registration_allowed(storage: Storage, client: str, device: str | None = None) -> None:
    """Throttled when this browser (`device`, or the address without one) must still wait to
    open an account: read (no writer) and asked before the slow work of a new password, so a
    refusal costs no hashing."""
    with storage.read() as conn:
        wait = throttle.wait_left(conn, registration_buckets(client, device),
                                  datetime.now(UTC))
    if wait is not None:
        raise _too_many_registrations(wait)


def register_player(storage: Storage, made: NewCredentials, client: str,
                    device: str | None = None) -> Account:
    """A new player account from credentials already checked and hashed (`new_credentials`,
    outside the writer); at most a few per browser (`device`) or, without one, per client
    address before a back-off, counted here in the writer (a refused name or password does
    not count)."""
    with storage.unit() as conn:
        wait = throttle.take(conn, registration_buckets(client, device), datetime.now(UTC))
        if wait is not None:
            raise _too_many_registrations(wait)
        account = insert_account(conn, made, Role.PLAYER, action="account.register",
                                 detail={"client": client[:64]})
    return account


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


def trust_device(conn: Connection, account: Account, token: str | None) -> str | None:
    """After a good log-in: a new device token for this browser, or None when the one it holds
    is already this account's."""
    now = datetime.now(UTC)
    if _trusted_device(conn, token, now) == account.id:
        return None
    conn.execute(delete(trusted_devices).where(trusted_devices.c.created_at
                                               < now - DEVICE_LIFETIME))
    token = secrets.token_urlsafe(32)
    conn.execute(insert(trusted_devices).values(token_hash=_token_hash(token),
                                                account_id=account.id, created_at=now))
    return token
