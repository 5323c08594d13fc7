"""The operator at the terminal: the account a command run from the shell acts as, and the
room's keyed storage opened in that name, built here once for every command that writes.
Imported inside the commands, so that `cardroom --help` loads no database code."""

from __future__ import annotations

from pathlib import Path

from cardroom.room.people.accounts import Account, Role
from cardroom.room.storage.db import Storage
from cardroom.room.trust.keying import open_keyed

OPERATOR = "cli-operator"
"""The name the audit log gives to whoever ran a command at the room's terminal."""


def terminal_operator() -> Account:
    """The terminal's operator: the owner's powers (whoever holds the machine's shell holds
    the books), under its own name in the audit log."""
    return Account(0, OPERATOR, Role.OWNER)


def operator_storage(database: str | None, audit_key_file: Path | None, *,
                     accept_failed_audit: bool = False, create: bool = True) -> Storage:
    """The room's storage for a command's writes, keyed and checked (`open_keyed`), in the
    operator's name."""
    return open_keyed(database, audit_key_file, create=create,
                      accept_failed_audit=accept_failed_audit, actor=OPERATOR)
