"""Opening books already at this program's revision runs no migration (`db.migrate`): the
revision the migrations end at is read from their file names (`db.newest_revision`), which
these tests hold to alembic's own head, so that a command on made books loads no alembic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text

from cardroom.room.storage.db import (
    MIGRATIONS,
    make_engine,
    migrate,
    newest_revision,
    open_database,
    stored_revision,
)
from cardroom.room.storage.errors import StorageError


def scripts() -> ScriptDirectory:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(cfg)


def test_the_newest_file_is_alembic_s_head_and_every_file_is_numbered_by_its_revision() -> None:
    """A new migration whose file is not numbered after the last, or whose revision is not its
    number, fails here, not in the field (books at an older head would be taken for up to
    date, or books at the head migrated again at every start)."""
    found = scripts()
    assert [newest_revision()] == list(found.get_heads())
    for revision in found.walk_revisions():
        assert revision.path is not None
        assert Path(revision.path).name[:4] == revision.revision[:4]


def test_books_made_are_at_the_newest_revision_and_migrated_once(tmp_path: Path) -> None:
    """New books: no revision yet, then the newest; opened again, no statement of alembic's
    runs (nothing is upgraded)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'books.db'}")
    assert stored_revision(engine) is None
    migrate(engine)
    assert stored_revision(engine) == newest_revision()
    migrate(engine)
    assert stored_revision(engine) == newest_revision()
    engine.dispose()


def test_books_of_a_newer_version_are_refused_with_alembic_s_reason(tmp_path: Path) -> None:
    """Books a newer program migrated (a revision this one does not have): a `StorageError`
    naming the books and alembic's reason, nothing changed."""
    books = tmp_path / "books.db"
    open_database(str(books)).engine.dispose()
    engine = make_engine(f"sqlite:///{books}")
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(StorageError, match=r"^cannot migrate the database .*books\.db: "
                                           r"Can't locate revision identified by '9999'$"):
        open_database(str(books))
    assert stored_revision(engine) == "9999"
    engine.dispose()


def test_the_command_on_books_of_a_newer_version_says_so_and_exits_2(tmp_path: Path) -> None:
    """Through the installed console script: one `error:` line naming the books and alembic's
    reason, exit 2, the books left at their revision."""
    books = tmp_path / "books.db"
    open_database(str(books)).engine.dispose()
    engine = make_engine(f"sqlite:///{books}")
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    done = subprocess.run([str(Path(sys.executable).parent / "cardroom"), "report", "games",
                           "--database", str(books)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"error: cannot migrate the database {books}: "
        "Can't locate revision identified by '9999'"]
    assert stored_revision(engine) == "9999"
    engine.dispose()
