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
