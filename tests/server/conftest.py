"""Test accounts hash with argon2 at its smallest cost (`CARDROOM_INSECURE_FAST_HASHING`, read
by `cardroom.room.people.accounts` on first use; tests only, the room's own default is unchanged);
and the started self-service room the app's tests share (a module may define its own)."""

import os
from collections.abc import Iterator

os.environ["CARDROOM_INSECURE_FAST_HASHING"] = "1"

import pytest
from room.hashers import hasher  # noqa: F401
from room.storage_fixture import db_url, migrated_schema, storage  # noqa: F401

from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom


@pytest.fixture
def room(storage: Storage) -> Room:  # noqa: F811 (storage: the fixture above)
    r = Room(storage, SeededRandom(11), settings=SELF_SERVICE)
    r.start()
    return r


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema, migrated (a room of several processes is PostgreSQL only:
    `room_processes`)."""
    yield from migrated_schema()
