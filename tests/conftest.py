"""The fixtures every test shares (the one conftest at the root of the tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _audit_key_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Commands that open the room keep their audit key and their identity key in temporary
    files, never in the user's data directory (`CARDROOM_AUDIT_KEY_FILE`,
    `CARDROOM_IDENTITY_KEY_FILE`, inherited by subprocesses too)."""
    keys = {"CARDROOM_AUDIT_KEY_FILE": "audit.key", "CARDROOM_IDENTITY_KEY_FILE": "identity.key"}
    before = {env: os.environ.get(env) for env in keys}
    folder = tmp_path_factory.mktemp("key")
    for env, name in keys.items():
        os.environ[env] = str(folder / name)
    yield
    for env, value in before.items():
        if value is None:
            del os.environ[env]
        else:
            os.environ[env] = value
