"""What the `/audit` page needs beside the route: the filter read from the query string, and
the room's verification progress, so that a page load checks only what was written since the
last sound check (a full check on request)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.engine import Connection

from cardroom import registry
from cardroom.digits import whole_number
from cardroom.money import format_money
from cardroom.room.money.ledger import FEES_PREFIX
from cardroom.room.play.recall import wager_name
from cardroom.room.storage import audit
from cardroom.room.trust import integrity

AUDIT_PAGE = 100
"""Entries per page."""
_MAX_SEQ = 2**63 - 1


def query_day(text: str, what: str) -> date | None:
    """A date from a page's filter (none when empty); a ValueError says how to write it."""
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"The {what} date must be written as year-month-day, "
                         "for example 2026-03-01.") from None


def query_number(text: str, what: str) -> int | None:
    """A whole number from a page's query (none when empty); a ValueError otherwise."""
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
                        table=query_number(q.get("table", "").strip(), "table number"),
                        since=query_day(q.get("since", "").strip(), "from"),
                        until=query_day(q.get("until", "").strip(), "to"),
                        chain=query_number(q.get("chain", "").strip(), "chain"))


CENT_FIELDS = frozenset({"amount", "buy_in", "cents", "chip_cents", "seed", "stake", "posted",
                         "meter", "dealer_wager", "wager", "bets", "refund", "returned",
                         "cash_out", "cashed_out", "balance", "stack", "net", "nets", "won",
                         "commission", "cashed"})
"""Detail fields that hold money in cents: shown as dollars (and any field named `*_cents`)."""
BY_ACCOUNT = frozenset({"nets", "returned", "wagers"})
"""Detail maps keyed by account id: shown by the person's name."""
LABELS = {"tx": "transaction", "seq": "entry", "kind": "what", "client": "from address",
          "chip_cents": "chip", "buy_in": "buy-in", "entries": "moved"}


@dataclass(frozen=True)
class Names:
    """What an audit detail's ids stand for: table id -> name, account id -> username."""

    tables: Mapping[int, str]
    people: Mapping[int, str]

    def table(self, table_id: int | str) -> str:
        return self.tables.get(int(table_id), f"table {table_id}")

    def person(self, account_id: int | str) -> str:
        return self.people.get(int(account_id), f"account {account_id}")

    def account(self, name: str) -> str:
        """A ledger account (`room.ledger`: "stack:2:7", "house:commission") in words."""
        kind, _, rest = name.partition(":")
        ids = rest.split(":")
        if kind == "wallet" and rest.isdigit():
            return f"{self.person(rest)}'s chips"
        if kind == "stack" and len(ids) == 2 and all(i.isdigit() for i in ids):
            return f"{self.person(ids[1])}'s stack at {self.table(ids[0])}"
        if kind in ("tray", "wagers") and rest.isdigit():
            return f"the {'tray' if kind == 'tray' else 'wagers in play'} at {self.table(rest)}"
        if kind == "held" and rest.isdigit():
            return f"the payouts held for surveillance at {self.table(rest)}"
        game, _, table = name.removeprefix(FEES_PREFIX).partition(":")
        if name.startswith(FEES_PREFIX) and table.isdigit():
            found = registry.find(game)
            fees = found.fees_name if found is not None and found.fees_name else "fees"
            return f"the {fees} of {self.table(table)}"
        return "the house's " + _words(rest) if kind == "house" else \
            f"{_words(kind)} {_words(rest)}".strip()


def _words(key: str) -> str:
    return LABELS.get(key, key.removesuffix("_cents").replace("_", " ").replace("-", " ")
                      .replace(":", " "))


def _money(key: str) -> bool:
    return key in CENT_FIELDS or key.endswith("_cents")


def _item(key: str, item: str, names: Names) -> str:
    """A map's key in words: a person for an account id, a wager by its name on the layout."""
    if key in BY_ACCOUNT and item.isdigit():
        return names.person(item)
    return wager_name(item) if key == "bets" else _words(item)


def _scalar(key: str, value: Any, names: Names) -> str | None:
    """A single value in words by what its key says it is (a table, money, a game), or None
    when the key says nothing about it."""
    if key == "table" and isinstance(value, int):
        return names.table(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if _money(key) and isinstance(value, int):
        return format_money(value)
    if key == "game" and isinstance(value, str):
        return registry.title(value)
    return None


def _value(key: str, value: Any, names: Names) -> str:
    if (known := _scalar(key, value, names)) is not None:
        return known
    if key == "entries" and isinstance(value, list):  # a ledger transaction: [[account, cents]]
        return "; ".join(f"{names.account(str(a))} {'+' if c > 0 else ''}{format_money(c)}"
                         for a, c in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{_item(key, str(k), names)} "
                         f"{_value(key if _money(key) else str(k), v, names)}"
                         for k, v in value.items()) or "none"
    if isinstance(value, list):
        return ", ".join(_value(key, v, names) for v in value) or "none"
    if value is None:
        return "none"
    return str(value)


def detail_fields(entry: audit.AuditEntry, names: Names) -> list[tuple[str, str]]:
    """An entry's detail as readable fields: labels in words, money in dollars, tables and
    people by name, ledger accounts in words, lists and maps written out."""
    try:
        data = entry.data
    except ValueError:
        return [("detail", entry.detail)]
    return [(_words(k), _value(k, v, names)) for k, v in data.items()]


def page_start(text: str | None) -> audit.Position | None:
    """Where a page starts (`audit.find`), as its link writes it (`page_link`): each chain's
    position as `chain:seq`, comma-separated; a bare number is the room chain's (the links
    of before the writer chains). A ValueError says what is wrong."""
    text = (text or "").strip()
    if not text:
        return None
    start: audit.Position = {}
    for part in text.split(","):
        chain, _, seq = part.rpartition(":")
        number = query_number(seq, "page position")
        start[query_number(chain, "page position") or audit.ROOM_CHAIN] = number or 0
    return start


def page_link(start: audit.Position) -> str:
    """`page_start`'s text for `start`."""
    return ",".join(f"{chain}:{seq}" for chain, seq in sorted(start.items()))


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
