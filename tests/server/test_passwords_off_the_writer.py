"""The room's one writer is never held by the slow work of a new password (issue 26, "The
room's one writer held by anonymous requests"): while a registration, a hiring or the first
run is stuck in argon2, a seated player's bet (and any other write) goes ahead. Before, the
password was judged and hashed inside the write transaction: sixty registrations stalled a bet
from 40 ms to 5.5 s."""

from __future__ import annotations

import threading
from collections.abc import Callable

import httpx
import pytest
from argon2 import PasswordHasher

from cardroom.room.people import accounts as acc
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.server.app import create_app

from .forms import FormClient, csrf_token, log_in, said, seated_player

NEW_PASSWORD = "a phrase of unrelated words"


class StuckHasher:
    """argon2 at its smallest cost whose hashing waits until released: a slow production hash,
    as slow as the test needs."""

    def __init__(self) -> None:
        self.inner = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
        self.entered, self.released = threading.Event(), threading.Event()

    def hash(self, password: str) -> str:
        self.entered.set()
        self.released.wait(30)
        return self.inner.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        return self.inner.verify(stored, password)


def while_stuck(monkeypatch: pytest.MonkeyPatch, post: Callable[[], httpx.Response],
                write: Callable[[], object]) -> httpx.Response:
    """Send the form in a thread; once it is stuck in argon2, `write` must finish within 5 s;
    then let the hash go and give the form's answer."""
    stuck = StuckHasher()
    monkeypatch.setattr(acc, "_hasher", stuck)
    answer: list[httpx.Response] = []
    form = threading.Thread(target=lambda: answer.append(post()))
    form.start()
    try:
        assert stuck.entered.wait(10), "the form never reached the password hash"
        writer = threading.Thread(target=write)
        writer.start()
        writer.join(5)
        assert not writer.is_alive(), "the write waited for a password being hashed"
    finally:
        stuck.released.set()
        form.join(30)
    return answer[0]


def seated_table(room: Room) -> Callable[[], object]:
    """Alice seated at a baccarat table: her bet, as a write to try."""
    alice, table = seated_player(room)
    return lambda: room.act(alice, table, {"type": "bet", "bets": {"banker": 1_000},
                                           "key": "b"})


def test_a_registration_stuck_in_argon2_does_not_block_a_bet(
        room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    bet = seated_table(room)
    browser = FormClient(create_app(room))
    token = csrf_token(browser, "/register")
    r = while_stuck(monkeypatch, lambda: browser.post(
        "/register", data={"username": "newbie", "password": NEW_PASSWORD, "csrf": token},
        follow_redirects=False), bet)
    assert r.status_code == 303
    with room.storage.read() as conn:
        assert acc.find_account(conn, "newbie") is not None


@pytest.mark.parametrize("path", ["/staff/hire", "/floor/staff"])
def test_a_hiring_stuck_in_argon2_does_not_block_a_bet(
        room: Room, monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    bet = seated_table(room)
    owner = FormClient(create_app(room))
    log_in(owner, "olga")
    token = csrf_token(owner, "/staff")
    r = while_stuck(monkeypatch, lambda: owner.post(path, data={
        "username": "dana", "password": NEW_PASSWORD, "role": "dealer", "csrf": token},
        follow_redirects=False), bet)
    assert "dealer dana created" in said(r)["message"]


def test_the_first_run_stuck_in_argon2_does_not_hold_the_writer(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    room = Room(storage)
    room.start()
    browser = FormClient(create_app(room))
    token = csrf_token(browser, "/setup")

    def write() -> None:
        with storage.unit() as conn:
            audit.append(conn, "house", "probe", {})

    r = while_stuck(monkeypatch, lambda: browser.post(
        "/setup", data={"username": "olga", "password": NEW_PASSWORD, "csrf": token},
        follow_redirects=False), write)
    assert r.status_code == 303 and r.headers["location"] == "/home"  # the owner's page
