"""What the `/audit` page needs beside the route: the filter read from the query string, and
the room's verification progress, so that a page load checks only what was written since the
last sound check (a full check on request)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.engine import Connection

from cardroom.digits import whole_number
from cardroom.money import format_money
from cardroom.room import audit, integrity

AUDIT_PAGE = 100
"""Entries per page."""
_MAX_SEQ = 2**63 - 1


def _day(text: str, what: str) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"The {what} date must be written as year-month-day, "
                         "for example 2026-03-01.") from None


def _number(text: str, what: str) -> int | None:
    if not text:
        return None
    number = whole_number(text)
    if number is None or number > _MAX_SEQ:
        raise ValueError(f"The {what} must be a whole number.")
    return number


def audit_filter(q: Mapping[str, str]) -> audit.Filter:
    """The filter the page's form asks for; a ValueError says in a sentence what is wrong."""
    return audit.Filter(actor=q.get("actor", "").strip()[:40] or None,
                        kind=q.get("kind", "").strip()[:60] or None,
                        table=_number(q.get("table", "").strip(), "table number"),
                        since=_day(q.get("since", "").strip(), "from"),
                        until=_day(q.get("until", "").strip(), "to"))


CENT_FIELDS = frozenset({"amount", "buy_in", "cents", "chip_cents", "seed", "stake", "posted",
                         "meter", "dealer_wager", "wager", "bets", "refund", "returned",
                         "cash_out", "cashed_out", "balance", "stack"})
"""Detail fields that hold money in cents: shown as dollars."""
LABELS = {"tx": "transaction", "seq": "entry", "kind": "what", "client": "from address",
          "chip_cents": "chip", "buy_in": "buy-in"}


def _words(key: str) -> str:
    return LABELS.get(key, key.replace("_", " ").replace("-", " "))


def _value(key: str, value: Any, tables: Mapping[int, str]) -> str:
    if key == "table" and isinstance(value, int):
        return tables.get(value, f"table {value}")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key in CENT_FIELDS and isinstance(value, int):
        return format_money(value)
    if isinstance(value, dict):
        inner = (lambda k: key) if key in CENT_FIELDS else str
        return ", ".join(f"{_words(str(k))} {_value(inner(k), v, tables)}"
                         for k, v in value.items()) or "none"
    if isinstance(value, list):
        return ", ".join(_value(key, v, tables) for v in value) or "none"
    if value is None:
        return "none"
    return str(value)


def detail_fields(entry: audit.AuditEntry, tables: Mapping[int, str]) -> list[tuple[str, str]]:
    """An entry's detail as readable fields: labels in words, money in dollars, tables by
    name (`tables`: id -> name), lists and maps written out."""
    try:
        data = entry.data
    except ValueError:
        return [("detail", entry.detail)]
    return [(_words(k), _value(k, v, tables)) for k, v in data.items()]


def page_start(text: str | None) -> int | None:
    return _number((text or "").strip(), "page position")


class AuditProgress:
    """The last sound check of this room's chain and books, shared by every page load."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reached: integrity.Checkpoint | None = None
        self.last_full: datetime | None = None

    def check(self, conn: Connection, key: bytes | None, full: bool) -> integrity.Report:
        """Check from the last sound checkpoint (everything when `full` or when there is
        none); a sound result becomes the next checkpoint, a problem clears it (so every load
        checks everything, and shows the problem, until it is resolved). Call in one
        snapshot."""
        with self._lock:
            since = None if full else self._reached
        report = integrity.check(conn, key, since)
        with self._lock:
            if since is None:
                self.last_full = datetime.now(UTC)
            if not report.ok:
                self._reached = None
            elif self._reached is None or report.reached.chain.seq >= self._reached.chain.seq:
                self._reached = report.reached
        return report
