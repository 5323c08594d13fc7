"""Errors of the card room; each is a `CardroomError`, so the CLI and server show its message."""

from __future__ import annotations

from cardroom.errors import CardroomError


class LedgerError(CardroomError):
    """A transaction that would unbalance the books or take a balance below zero."""


class IdempotencyConflict(LedgerError):
    """An idempotency key reused for a different request."""


class AuthError(CardroomError):
    """Bad credentials, an expired or forged session, or too many log-in attempts."""


class Throttled(CardroomError):
    """Too many attempts from one name, browser or address: backing off (HTTP 429)."""


class LoginBackOff(AuthError, Throttled):
    """Too many failed log-ins: the name, browser or address is backing off."""


class PermissionDenied(CardroomError):
    """The account's role does not allow this action."""


class NotFound(CardroomError):
    """No such table, hand or account."""


class StorageError(CardroomError):
    """The books cannot be opened: a malformed database URL, an unreachable server."""


TRY_AGAIN = "the room could not reach its database just now: nothing was changed, try again"
UNCONFIRMED = ("the room could not confirm that with its database: try again (a request sent "
               "again is never applied twice)")


BUSY = "the room was busy with that just now: nothing was changed, try again"


class WriteConflict(CardroomError):
    """The database chose this unit's transaction to end a deadlock, or could not order it
    with another (SQLSTATE 40P01, 40001): it rolled back, and the same work done again
    meets the rows as they are now (a table's action is made again by `Room._play`)."""

    def __init__(self) -> None:
        super().__init__(BUSY)


class DatabaseUnavailable(CardroomError):
    """The database did not answer (restarting, switching to its standby, out of reach):
    the transaction rolled back and the same request may be sent again. `unknown`: the
    database went away at the commit itself, so whether it was written is not known (the
    room takes the table back from its committed books, `Room.applying`)."""

    def __init__(self, unknown: bool = False) -> None:
        super().__init__(UNCONFIRMED if unknown else TRY_AGAIN)
        self.unknown = unknown
