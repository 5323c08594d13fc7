"""What every browser test shares: test accounts hash with argon2 at its smallest cost
(`CARDROOM_INSECURE_FAST_HASHING`, read by `cardroom.room.people.accounts` on first use; tests only,
the room's own default is unchanged); each test is skipped where Debian's chromium is missing;
and `room`, a seeded room on SQLite (the module's `SEED`, by default 5)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.room.room import Room

from .room_flows import seeded_room, skip_without_chromium

os.environ["CARDROOM_INSECURE_FAST_HASHING"] = "1"
HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(skip_without_chromium())


@pytest.fixture
def room(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Room]:
    yield from seeded_room(tmp_path, getattr(request.module, "SEED", 5))
