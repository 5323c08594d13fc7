"""The fixtures every test shares (the one conftest at the root of the tests), and the order
the tests are handed to the workers in: the longest first."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from room.storage_fixture import drop_pool

TESTS = Path(__file__).parent
LONGEST_FIRST = ("browser/test_whole_shift_browser.py", "browser/", "test_benches_run.py")
"""Started first (`pytest -n`): the whole shift by clicks (about 2.5 minutes on one core),
the other browser tests (10 to 50 seconds each) and the benches (subprocesses). Started last, a
long test keeps one worker busy after the others have run out of tests."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests in `LONGEST_FIRST`'s order, then the others, each in their usual order
    (a stable sort: a module's tests stay together and in order)."""
    def rank(item: pytest.Item) -> int:
        where = item.path.relative_to(TESTS).as_posix() if item.path.is_relative_to(
            TESTS) else ""
        return next((i for i, p in enumerate(LONGEST_FIRST) if where.startswith(p)),
                    len(LONGEST_FIRST))
    items.sort(key=rank)


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


def pytest_sessionfinish() -> None:
    """This process's pool of migrated PostgreSQL schemas dropped (`storage_fixture`)."""
    drop_pool()
