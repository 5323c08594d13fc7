"""The fixtures every test shares (the one conftest at the root of the tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _audit_key_file(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Commands that open the room keep their audit key in a temporary file, never in the
    user's data directory (`CARDROOM_AUDIT_KEY_FILE`, inherited by subprocesses too)."""
    before = os.environ.get("CARDROOM_AUDIT_KEY_FILE")
    os.environ["CARDROOM_AUDIT_KEY_FILE"] = str(tmp_path_factory.mktemp("key") / "audit.key")
    yield
    if before is None:
        del os.environ["CARDROOM_AUDIT_KEY_FILE"]
    else:
        os.environ["CARDROOM_AUDIT_KEY_FILE"] = before
