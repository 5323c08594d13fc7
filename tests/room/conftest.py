"""Test accounts hash with argon2 at its smallest cost (`CARDROOM_INSECURE_FAST_HASHING`, read
by `cardroom.room.people.accounts` on first use; tests only, the room's own default is
unchanged)."""

import os

os.environ["CARDROOM_INSECURE_FAST_HASHING"] = "1"

from room.hashers import hasher  # noqa: F401
from room.storage_fixture import db_url, storage  # noqa: F401
