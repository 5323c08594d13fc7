"""The toy game's tests: test accounts hash at argon2's smallest cost (as the server tests'),
the storage of every room test (SQLite and PostgreSQL), and High Card registered while each
test runs (`cardroom.registry.registered`)."""

import os

os.environ["CARDROOM_INSECURE_FAST_HASHING"] = "1"

from collections.abc import Iterator

import pytest
from room.hashers import hasher  # noqa: F401
from room.storage_fixture import db_url, storage  # noqa: F401

from cardroom import registry

from . import GAME


@pytest.fixture(autouse=True)
def high_card() -> Iterator[registry.Game]:
    with registry.registered(GAME) as game:
        yield game
