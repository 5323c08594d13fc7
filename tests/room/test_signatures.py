"""Co-signatures (issue 26, "Staff signatures that strangers can freeze"): failed log-ins never
hold a signature back, correct signatures sent at once are never refused (failures are counted,
not attempts in flight), and a member of staff who guesses backs off for that signer on their
own forms only, after at most `SIGNATURES.free` checks however many guesses are sent at once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from cardroom.room import accounts as acc
from cardroom.room import audit, staff
from cardroom.room.accounts import Account, Role
from cardroom.room.db import Storage
from cardroom.room.errors import AuthError
from cardroom.room.signatures import SIGNATURES, countersign

from .hashers import CountingHasher

PW = "correct horse"


def cast(storage: Storage) -> dict[str, Account]:
    with storage.unit() as conn:
        return {n: acc.create_account(conn, n, PW, r) for n, r in [
            ("olga", Role.OWNER), ("dan", Role.DEALER), ("fred", Role.FLOOR),
            ("cathy", Role.CASHIER)]}


def sign(storage: Storage, requester: Account, name: str, password: str) -> str:
    try:
        return countersign(storage, requester, name, password).username
    except AuthError as exc:
        return str(exc)


def test_failed_log_ins_from_anywhere_do_not_hold_back_a_signature(
        storage: Storage, hasher: CountingHasher) -> None:
    """Six wrong log-ins for dan froze the floor's opener ("the dealer's signature: too many
    failed log-ins"); the log-in still backs off, the signature does not."""
    people = cast(storage)
    for i in range(6):
        try:
            acc.authenticate(storage, "dan", f"guess {i}", f"10.0.0.{i}")
        except AuthError as exc:
            said = str(exc)
    assert said.startswith("too many failed log-ins")
    assert sign(storage, people["fred"], "dan", PW) == "dan"


def test_20_concurrent_correct_signatures_are_all_accepted(
        storage: Storage, hasher: CountingHasher) -> None:
    """20 signatures at once with the right password got 51 refusals when attempts in flight
    were counted; now none."""
    people = cast(storage)
    with ThreadPoolExecutor(max_workers=20) as pool:
        signed = list(pool.map(lambda _: sign(storage, people["cathy"], "dan", PW), range(20)))
    assert signed == ["dan"] * 20


def test_concurrent_guesses_back_off_for_that_requester_only(
        storage: Storage, hasher: CountingHasher) -> None:
    people = cast(storage)
    hasher.checks = 0
    with ThreadPoolExecutor(max_workers=20) as pool:
        said = list(pool.map(lambda i: sign(storage, people["cathy"], "dan", f"guess {i}"),
                             range(20)))
    assert hasher.checks == SIGNATURES.free
    assert said.count("wrong username or password") == SIGNATURES.free
    assert all(s.startswith("too many wrong passwords for this signature: try again in")
               for s in said if s != "wrong username or password")
    assert sign(storage, people["cathy"], "dan", PW).startswith("too many wrong passwords")
    assert sign(storage, people["fred"], "dan", PW) == "dan"  # another requester's forms
    with storage.read() as conn:
        held = [e.data for e in audit.entries(conn) if e.action == "signature.backoff"]
    assert held == [{"signer": "dan", "wait_s": 60}]
    with storage.unit() as conn:
        acc.unlock(conn, people["olga"], "dan")  # the owner's remedy clears it
    assert sign(storage, people["cathy"], "dan", PW) == "dan"


def test_a_locked_out_or_unknown_signer_is_refused_in_the_same_words(
        storage: Storage, hasher: CountingHasher) -> None:
    people = cast(storage)
    with storage.unit() as conn:
        acc.create_account(conn, "dora", PW, Role.DEALER)
        staff.lock(conn, people["olga"], "dora", "left the room")
    assert sign(storage, people["fred"], "dora", PW) == "wrong username or password"
    assert sign(storage, people["fred"], "nobody", PW) == "wrong username or password"
