"""Co-signatures: another member of staff confirms a slip or an approval with their own password,
on the form of the person logged in (the dealer and the floor on a fill or a credit, the dealer on
an opener or a closer, the second counter, the jackpot's second approver).

A signature is not a log-in, and strangers cannot freeze it. Its wrong passwords count in a
bucket of their own, per signer and per staff account asking (`sign:NAME:ACCOUNT`), which only
a logged-in member of staff whose role may send that form can fill: failed log-ins (the name
bucket anyone can fill) never touch it, and a colleague who guesses wrong holds back only the
signatures they themselves ask for. The bucket counts failures, not attempts: a correct
signature is never refused because others are being checked at the same moment. Checks in one
bucket take turns (a lock per bucket in the server process), so guesses sent at once still each
read every failure before them: at most `SIGNATURES.free` wrong passwords, then the back-off.
"""

from __future__ import annotations

import threading
import zlib
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from cardroom.room import audit, throttle
from cardroom.room.accounts import (
    Account,
    Role,
    password_matches,
    signature_key,
    wait_sentence,
)
from cardroom.room.db import Storage
from cardroom.room.errors import AuthError, LoginBackOff
from cardroom.room.schema import accounts
from cardroom.room.throttle import Backoff

SIGNATURES = Backoff(free=5, first_wait=timedelta(minutes=1), max_wait=timedelta(minutes=30),
                     forget=timedelta(days=1))
"""Wrong passwords for one signer on the forms of one member of staff (a good signature
clears them)."""
_TURNS = tuple(threading.Lock() for _ in range(64))
"""Checks in one bucket take turns; buckets share these locks by a hash of their key (a few
unrelated signatures may wait for each other, for one argon2 check)."""


def countersign(storage: Storage, requester: Account, username: str, password: str
                ) -> Account:
    """The signer's account, or AuthError: a wrong name or password (the same words), or a
    wait when this requester has sent too many wrong passwords for this signer. The password
    is checked outside the room's write transaction; only a failure writes."""
    name = username.strip().lower()[:40]
    key = signature_key(name, requester.id)
    with _TURNS[zlib.crc32(key.encode()) % len(_TURNS)]:
        now = datetime.now(UTC)
        with storage.read() as conn:
            r = conn.execute(select(accounts).where(accounts.c.username == name)).first()
            wait = throttle.wait_left(conn, [(key, SIGNATURES)], now)
            failed = throttle.counted(conn, key, SIGNATURES, now)
        if wait is not None:
            raise LoginBackOff("too many wrong passwords for this signature: try again in "
                               f"{wait_sentence(wait)}")
        if password_matches(r.password_hash if r else None, password) and r and r.active:
            if failed:
                with storage.unit() as conn:
                    throttle.clear(conn, key)
            return Account(r.id, r.username, Role(r.role))
        with storage.unit() as conn:
            throttle.count_failure(conn, key, SIGNATURES, now)
            until = throttle.held_until(conn, key, SIGNATURES, now)
            if until is not None:
                audit.append(conn, requester.username, "signature.backoff",
                             {"signer": name, "wait_s": int((until - now).total_seconds())})
    raise AuthError("wrong username or password")
