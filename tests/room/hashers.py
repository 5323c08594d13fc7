"""A password hasher for tests that time or count the slow argon2 work: argon2 at its smallest
cost, made as slow as asked, counting its checks (the `hasher` fixture puts it in the room)."""

from __future__ import annotations

import threading
import time

import pytest
from argon2 import PasswordHasher

from cardroom.room.people import accounts as acc


class CountingHasher:
    """argon2 at its smallest cost, made slow like the production one, counting the checks
    and the hashes."""

    def __init__(self, delay_s: float) -> None:
        self.inner = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
        self.delay_s = delay_s
        self.checks = 0
        self.hashes = 0
        self.lock = threading.Lock()

    def hash(self, password: str) -> str:
        with self.lock:
            self.hashes += 1
        return self.inner.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        with self.lock:
            self.checks += 1
        time.sleep(self.delay_s)
        return self.inner.verify(stored, password)


@pytest.fixture
def hasher(monkeypatch: pytest.MonkeyPatch) -> CountingHasher:
    h = CountingHasher(delay_s=0.02)
    monkeypatch.setattr(acc, "_hasher", h)
    monkeypatch.setattr(acc, "_dummy", [])
    return h
