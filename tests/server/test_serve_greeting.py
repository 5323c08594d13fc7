"""What `cardroom serve` (the installed console script) tells the person who starts it, and
what it needs installed (issue 23, "Set-up as a newcomer meets it")."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import httpx

from .serve_process import served

ROOT = Path(__file__).resolve().parents[2]


def test_serve_says_where_the_books_and_the_key_are_and_who_the_first_visit_makes(
        tmp_path: Path) -> None:
    """Issue 23: serve printed only its address. It names the books and the audit key, says
    to back the key up apart from the books, and, until the owner exists, that the first
    visit creates the owner; once an account exists it no longer says so."""
    books = tmp_path / "room.sqlite3"
    key = os.environ["CARDROOM_AUDIT_KEY_FILE"]
    said: list[str] = []
    with served(str(books), said) as base:
        assert httpx.get(base + "/", follow_redirects=False).headers["location"] == "/setup"
    text = "\n".join(said)
    assert f"the books (database): {books}" in text
    assert re.search(rf"the audit key: {re.escape(key)}; back it up apart from the books", text)
    assert f"no account yet: the first visit to {base}/ creates the owner's account" in text
    from cardroom.room.people.accounts import Role, create_account
    from cardroom.room.trust.keying import open_keyed
    storage = open_keyed(str(books))
    with storage.unit() as conn:
        create_account(conn, "olga", "correct horse battery", Role.OWNER)
    storage.engine.dispose()
    again: list[str] = []
    with served(str(books), again):
        pass
    assert "the audit key: " in "\n".join(again) and "no account yet" not in "\n".join(again)


def test_serving_imports_no_dev_only_package(tmp_path: Path) -> None:
    """Issue 23: serving needs only the runtime dependencies (`pip install -e .`): opening a
    room and building its app, as `cardroom serve` does, imports no package of the `[dev]`
    extras (test runners, type checker, browser tooling)."""
    code = (
        "import json, sys\n"
        "from cardroom.cli import main\n"
        "from cardroom.cli.room import where_things_are\n"
        "import uvicorn\n"
        "from cardroom.room.room import Room\n"
        "from cardroom.server.app import create_app\n"
        f"room = Room.open({str(tmp_path / 'room.sqlite3')!r})\n"
        "create_app(room)\n"
        "where_things_are(room, None, None, 'http://x/')\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300, check=False)
    assert r.returncode == 0, r.stderr
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["dev"]
    dev = {re.split(r"[<>=\[ ;]", d)[0].lower().replace("_", "-") for d in extras}
    dists = packages_distributions()
    loaded = {m: {d.lower().replace("_", "-") for d in dists.get(m, [])}
              for m in json.loads(r.stdout)}
    assert "pytest" in dev and "playwright" in dev  # the list is read, not empty
    assert {m: d & dev for m, d in loaded.items() if d & dev} == {}
