"""The audit key: a secret kept outside the database that the audit chain's MACs are keyed with.

Whoever can write the database but cannot read this file cannot forge an entry, recompute the
chain after a rewrite, or move the head back: the MACs would not match. The file holds 32
random bytes as 64 hex digits; it is created once with mode 0600 and refused if others may
read it (as ssh refuses a private key).
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from cardroom.errors import CardroomError

ENV_KEY_FILE = "CARDROOM_AUDIT_KEY_FILE"
KEY_BYTES = 32


class AuditKeyError(CardroomError):
    """A missing, unreadable, malformed or world-readable audit key file."""


def default_key_path() -> Path:
    """Beside the default SQLite database, under the user data directory."""
    from cardroom.room.storage.db import default_database_path

    return default_database_path().parent / "audit.key"


def key_path(option: Path | None) -> Path:
    """The key file: the option if given, else `$CARDROOM_AUDIT_KEY_FILE`, else the default."""
    if option is not None:
        return option
    env = os.environ.get(ENV_KEY_FILE)
    return Path(env) if env else default_key_path()


def load_key(path: Path, what: str = "audit key",
             error: type[CardroomError] = AuditKeyError) -> bytes:
    """The key in `path`; an AuditKeyError (`error`) names what is wrong with the file (the
    `what` key file: the identity key, `cardroom.room.storage.identity_key`, is kept the same
    way)."""
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise error(f"no {what} file at {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read the {what} file {path}: {exc}") from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise error(f"the {what} file {path} may be read by others: run chmod 600 {path}")
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise error(f"the {what} file {path} does not hold {KEY_BYTES * 2} hex digits")
    return key


def load_or_create_key(path: Path, what: str = "audit key",
                       error: type[CardroomError] = AuditKeyError) -> tuple[bytes, bool]:
    """The key in `path`, made (mode 0600, never overwriting) if absent; and whether it was."""
    if path.exists():
        return load_key(path, what, error), False
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(KEY_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return load_key(path, what, error), False
    except OSError as exc:
        raise error(f"cannot create the {what} file {path}: {exc}") from None
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.hex() + "\n")
    return key, True
