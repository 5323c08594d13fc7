"""Log-in guessing (issue 9, accounts and sessions): every attempt is counted before the slow
password check, so concurrency cannot beat the limit; the back-off slows guessing without
locking the real person out (trusted devices, the owner's unlock), and lock-outs are audited;
new passwords and names follow the policy."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest

from cardroom.errors import CardroomError
from cardroom.room.people import accounts as acc
from cardroom.room.people.throttle import Backoff
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import AuthError, PermissionDenied, Throttled

from .hashers import CountingHasher

PW = "correct horse"


def attempt(storage: Storage, name: str, password: str, client: str,
            device: str | None = None) -> str:
    try:
        acc.authenticate(storage, name, password, client, device)
    except AuthError as exc:
        return str(exc)
    return "ok"


def test_100_concurrent_guesses_get_at_most_the_configured_checks(
        storage: Storage, hasher: CountingHasher) -> None:
    """The figure: 100 concurrent attempts on one account (each from its own address, so only
    the per-account limit applies) reach the password check at most `PER_NAME.free` times."""
    with storage.unit() as conn:
        acc.create_account(conn, "olga", PW, acc.Role.OWNER)
    hasher.checks = 0
    with ThreadPoolExecutor(max_workers=100) as pool:
        answers = list(pool.map(lambda i: attempt(storage, "olga", f"guess {i}", f"10.0.0.{i}"),
                                range(100)))
    assert hasher.checks <= acc.PER_NAME.free
    assert answers.count("wrong username or password") == hasher.checks
    assert all(a.startswith("too many failed log-ins") for a in answers
               if a != "wrong username or password")


def test_backoff_doubles_and_is_forgotten_after_a_quiet_day() -> None:
    policy = Backoff(free=5, first_wait=timedelta(minutes=1), max_wait=timedelta(minutes=30),
                     forget=timedelta(days=1))
    assert [policy.wait(n) for n in (0, 4, 5, 6, 7, 9, 10, 500)] == [
        timedelta(0), timedelta(0), timedelta(minutes=1), timedelta(minutes=2),
        timedelta(minutes=4), timedelta(minutes=16), timedelta(minutes=30),
        timedelta(minutes=30)]
    now = datetime(2026, 11, 23, 12, tzinfo=UTC)
    assert policy.current(9, now - timedelta(hours=23), now) == 9
    assert policy.current(9, now - timedelta(days=1), now) == 0


def test_trusted_device_logs_in_while_the_name_is_flooded(
        storage: Storage, hasher: CountingHasher) -> None:
    """An attacker who floods the owner's name cannot lock the owner out of a browser the
    owner logged in from before; strangers' attempts on the name wait."""
    with storage.unit() as conn:
        olga = acc.create_account(conn, "olga", PW, acc.Role.OWNER)
        device = acc.trust_device(conn, olga, None)
    assert device is not None
    for i in range(12):
        attempt(storage, "olga", f"guess {i}", f"10.9.0.{i}")
    assert attempt(storage, "olga", PW, "10.1.1.1").startswith("too many failed log-ins")
    assert attempt(storage, "olga", PW, "10.1.1.1", device) == "ok"
    with storage.unit() as conn:
        assert acc.trust_device(conn, olga, device) is None  # still this account's device
        assert acc.trust_device(conn, olga, "forged") not in (None, device)


def test_a_device_of_another_account_is_not_trusted(
        storage: Storage, hasher: CountingHasher) -> None:
    with storage.unit() as conn:
        acc.create_account(conn, "olga", PW, acc.Role.OWNER)
        mallory = acc.create_account(conn, "mallory", PW, acc.Role.PLAYER)
        device = acc.trust_device(conn, mallory, None)
    answers = [attempt(storage, "olga", f"guess {i}", "10.2.0.1", device) for i in range(7)]
    assert answers[:5] == ["wrong username or password"] * 5
    assert answers[5].startswith("too many failed log-ins")


def test_one_client_spraying_names_backs_off(storage: Storage, hasher: CountingHasher) -> None:
    """Per-client back-off: guesses spread over many names from one address slow down too; a
    good log-in from that address is given back, so a shared address is not held by it."""
    with storage.unit() as conn:
        acc.create_account(conn, "alice", PW, acc.Role.PLAYER)
    assert attempt(storage, "alice", PW, "10.3.0.1") == "ok"
    for i in range(acc.PER_CLIENT.free - 1):
        assert attempt(storage, f"name{i}", "guess", "10.3.0.1") == "wrong username or password"
    assert attempt(storage, "alice", PW, "10.3.0.1") == "ok"
    assert attempt(storage, "zed", "guess", "10.3.0.1") == "wrong username or password"
    assert attempt(storage, "alice", PW, "10.3.0.1").startswith("too many failed log-ins")
    assert attempt(storage, "alice", PW, "10.3.0.2") == "ok"


def test_backoff_is_audited_and_the_owner_unlocks(
        storage: Storage, hasher: CountingHasher) -> None:
    with storage.unit() as conn:
        olga = acc.create_account(conn, "olga", PW, acc.Role.OWNER)
        fred = acc.create_account(conn, "fred", PW, acc.Role.FLOOR)
        acc.create_account(conn, "alice", PW, acc.Role.PLAYER)
    for i in range(6):
        attempt(storage, "alice", f"guess {i}", f"10.4.0.{i}")
    with storage.read() as conn:
        held = acc.held_names(conn)
        backoffs = [e for e in audit.entries(conn) if e.action == "login.backoff"]
    assert [name for name, _ in held] == ["alice"]
    assert backoffs and backoffs[0].actor == "alice" and backoffs[0].data["bucket"] == "name"
    with storage.unit() as conn, pytest.raises(PermissionDenied):
        acc.unlock(conn, fred, "alice")
    with storage.unit() as conn:
        acc.unlock(conn, olga, "Alice")
    assert attempt(storage, "alice", PW, "10.4.1.1") == "ok"
    with storage.read() as conn:
        assert acc.held_names(conn) == []
        unlocks = [e for e in audit.entries(conn) if e.action == "login.unlock"]
    assert [(e.actor, e.data["username"]) for e in unlocks] == [("olga", "alice")]
    with storage.unit() as conn, pytest.raises(CardroomError, match="not held back"):
        acc.unlock(conn, olga, "alice")


@pytest.mark.parametrize("password", ["password", "12345678", "qwertyuiop", "password123",
                                      "alice_is_great", "Alice2024!", "letmein12345",
                                      "aaaaaaaaaaaa"])
def test_guessable_passwords_are_refused(password: str) -> None:
    """NIST SP 800-63B: common, repetitive or context-specific (the username) passwords."""
    with pytest.raises(CardroomError, match="password"):
        acc.check_new_credentials("alice", password)


@pytest.mark.parametrize("password", ["correct horse", "violet tugboat ember",
                                      "x" * 3 + "Qz9!mR2#vL"])
def test_strong_passwords_are_accepted(password: str) -> None:
    assert acc.check_new_credentials(" Alice", password) == "alice"


@pytest.mark.parametrize("name", ["dealer", "house", "recovery", "anonymous", "owner", "floor",
                                  "auditor", "player", "Admin"])
def test_the_rooms_own_names_cannot_be_opened(name: str, storage: Storage) -> None:
    """The audit log's actors `dealer`, `house`, `recovery`, `anonymous` and the role names
    mean the room itself: no account may be opened under them, by a form or by
    `create_account` itself (the primitive every path ends in)."""
    with storage.unit() as conn, pytest.raises(CardroomError, match="reserved"):
        acc.create_account(conn, name, PW, acc.Role.PLAYER)
    with storage.read() as conn:
        assert acc.count_accounts(conn) == 0


def register(storage: Storage, name: str, client: str, device: str | None = None) -> str:
    """As the registration form does: the back-off asked first, the password checked and
    hashed outside the writer, then the account in the books."""
    acc.registration_allowed(storage, client, device)
    return acc.register_player(storage, acc.new_credentials(name, PW), client,
                               device).username


def test_registration_backs_off_per_device_not_per_shared_address(storage: Storage) -> None:
    """Issue 23: "the limit is per device": browsers with their own device ids behind one
    address (the room's Wi-Fi) each open their accounts; one browser is held after
    `REGISTRATIONS.free`; a browser without an id counts in the address's own bucket."""
    for phone in ("phone-a", "phone-b"):
        for i in range(acc.REGISTRATIONS.free):
            register(storage, f"{phone.replace('-', '')}{i}", "10.6.0.1", phone)
    with pytest.raises(Throttled, match="too many accounts opened from here"):
        register(storage, "phonea9", "10.6.0.1", "phone-a")
    assert register(storage, "phonec0", "10.6.0.1", "phone-c") == "phonec0"
    for i in range(acc.REGISTRATIONS.free):  # no cookie: the address's own bucket
        register(storage, f"bare{i}", "10.6.0.1")
    with pytest.raises(Throttled):
        register(storage, "bare9", "10.6.0.1")


def test_the_address_backstop_holds_a_flood_that_draws_a_new_device_each_time(
        storage: Storage) -> None:
    """Issue 23 (docs/security.md): every account opened from one address counts in its
    backstop, so a flood that throws its device cookie away after each registration is held
    after `REGISTRATIONS_PER_ADDRESS.free`, while another address is not."""
    free = acc.REGISTRATIONS_PER_ADDRESS.free
    assert free > acc.REGISTRATIONS.free
    for i in range(free):
        register(storage, f"flood{i}", "10.7.0.1", f"device-{i}")
    with pytest.raises(Throttled):
        register(storage, "flood99", "10.7.0.1", "device-new")
    assert register(storage, "other0", "10.7.0.2", "device-new") == "other0"


def test_registration_buckets_name_the_device_or_the_address() -> None:
    assert [k for k, _ in acc.registration_buckets("10.0.0.9", "d1")] == [
        "register-device:d1", "register-address:10.0.0.9"]
    assert [k for k, _ in acc.registration_buckets("10.0.0.9", None)] == [
        "register:10.0.0.9", "register-address:10.0.0.9"]


def test_registration_backs_off_per_client(storage: Storage, hasher: CountingHasher) -> None:
    for i in range(acc.REGISTRATIONS.free):
        register(storage, f"player{i}", "10.5.0.1")
    hashed = hasher.hashes
    with pytest.raises(Throttled, match="too many accounts opened from here"):
        register(storage, "player9", "10.5.0.1")
    assert hasher.hashes == hashed  # refused before any slow work (issue 26)
    with pytest.raises(Throttled, match="too many accounts opened from here"):
        acc.register_player(storage, acc.new_credentials("player9", PW), "10.5.0.1")
    assert register(storage, "player9", "10.5.0.2") == "player9"
    with pytest.raises(CardroomError, match="taken"):  # a refused one does not count
        register(storage, "player9", "10.5.0.3")
    register(storage, "player10", "10.5.0.3")
