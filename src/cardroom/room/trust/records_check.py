"""Rows outside the chain that change money or power, held to the chain's record of them.

The ledger is compared with its `ledger.tx` records (`cardroom.room.trust.integrity`); these rows
are
not ledger rows, yet an edit to them moves money or power: a slip's amount (the table's
paperwork and the reports read it), who signed it and whether it stands; an account's role
and whether it may log in; a table's counted drop (its win in the reports). Every change the
room makes to them is an audit entry in the same transaction, so the chain replayed gives
each row as it must be, and a row that differs, that the chain never recorded, or that the
chain recorded and is gone, was changed in the database (issue 26, "Rows outside the chain
that change money or power"). docs/security.md lists the other rows and how each is covered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from cardroom.room.people.accounts import ACCOUNT_CREATED
from cardroom.room.storage import audit
from cardroom.room.storage.schema import accounts, drop_counts, table_slips

SlipKey = tuple[str, int]
"""A slip as its series and number name it."""
SIGNERS = ("cashier", "dealer", "floor")
DROP_COUNT = "drop.count"


@dataclass
class ChainRecords:
    """Collects the slips and accounts as the chain records them, while the chain is walked."""
    slips: dict[SlipKey, dict[str, Any]] = field(default_factory=dict)
    people: dict[str, tuple[str, bool]] = field(default_factory=dict)
    """Username: (role, active)."""
    counts: dict[tuple[int, str], tuple[int, int, int, int, str, str]] = field(
        default_factory=dict)
    """(table, gambling day): (cash, debit card slips, markers, expected, first counter,
    second counter); a count recorded before the room took debit cards has none."""
    problems: list[str] = field(default_factory=list)

    def __call__(self, e: audit.AuditEntry) -> None:
        if not (e.action.startswith("slip.") or e.action.startswith("account.")
                or e.action in ACCOUNT_CREATED or e.action == DROP_COUNT):
            return
        try:
            self._see(e.action, e.actor, e.data)
        except (ValueError, KeyError, TypeError, AttributeError):
            self.problems.append(f"entry {e.seq} is not a readable {e.action} record")

    def _see(self, action: str, actor: str, d: dict[str, Any]) -> None:
        if action == DROP_COUNT:
            first, second = d["counters"]
            self.counts[(int(d["table"]), str(d["day"]))] = (
                int(d["cash"]), int(d.get("debit", 0)), int(d["markers"]), int(d["expected"]),
                str(first), str(second))
        elif action == "slip.void":
            self.slips[(str(d["series"]), int(d["number"]))]["status"] = "void"
        elif action.startswith("slip."):
            self.slips[(str(d["series"]), int(d["number"]))] = {
                "kind": action.removeprefix("slip."), "table": int(d["table"]),
                "amount": int(d["amount"]), "status": "valid",
                **{s: d.get(s) for s in SIGNERS}}
        elif action in ACCOUNT_CREATED:  # before issue 26, register and setup named no one
            name = str(d.get("username") or actor)
            default = "player" if action == "account.register" else "owner"
            self.people[name] = (str(d.get("role", default)), True)
        elif action == "account.role":
            name = str(d["username"])
            self.people[name] = (str(d["after"]), self.people.get(name, ("", True))[1])
        elif action in ("account.lock", "account.reinstate"):
            name = str(d["username"])
            self.people[name] = (self.people.get(name, ("", True))[0],
                                 action == "account.reinstate")


def problems(conn: Connection, seen: ChainRecords) -> list[str]:
    """Every slip and account row that is not as the chain records it (a full check only:
    the records are replayed from the first entry)."""
    return [*seen.problems, *_slip_problems(conn, seen), *_account_problems(conn, seen),
            *_count_problems(conn, seen)]


def _slip_problems(conn: Connection, seen: ChainRecords) -> list[str]:
    out: list[str] = []
    held: dict[SlipKey, dict[str, Any]] = {
        (r.series, int(r.number)): {"kind": r.kind, "table": int(r.table_id),
                                    "amount": int(r.amount), "status": r.status,
                                    **{s: getattr(r, s) for s in SIGNERS}}
        for r in conn.execute(select(table_slips))}
    for (series, number), row in sorted(held.items()):
        name = f"slip {series} {number}"
        recorded = seen.slips.get((series, number))
        if recorded is None:
            out.append(f"{name} is not in the audit chain: inserted in the database directly")
        elif row != recorded:
            changed = ", ".join(k for k in row if row[k] != recorded.get(k))
            out.append(f"{name} differs from the audit chain's record of it ({changed}): "
                       "edited in the database")
    for series, number in sorted(seen.slips.keys() - held.keys()):
        out.append(f"slip {series} {number} is in the audit chain but was deleted")
    return out


def _account_problems(conn: Connection, seen: ChainRecords) -> list[str]:
    out: list[str] = []
    for r in conn.execute(select(accounts.c.username, accounts.c.role, accounts.c.active)
                          .order_by(accounts.c.id)):
        recorded = seen.people.get(r.username)
        if recorded is None:
            out.append(f"account {r.username} ({r.role}) is not in the audit chain: inserted "
                       "in the database directly")
        elif recorded[0] != r.role:
            out.append(f"account {r.username} is {r.role} but the audit chain's record makes "
                       f"it {recorded[0]}: its role was changed in the database")
        elif recorded[1] != bool(r.active):
            out.append(f"account {r.username} is {'active' if r.active else 'locked out'} but "
                       "the audit chain's record says otherwise: changed in the database")
    return out


def _count_problems(conn: Connection, seen: ChainRecords) -> list[str]:
    out: list[str] = []
    held = {(int(r.table_id), r.gambling_day.isoformat()): (
        int(r.cash), int(r.debit), int(r.markers), int(r.expected), r.first_counter,
        r.second_counter) for r in conn.execute(select(drop_counts))}
    for (table, day), row in sorted(held.items()):
        recorded = seen.counts.get((table, day))
        if recorded is None:
            out.append(f"the drop count of table {table} for {day} is not in the audit chain: "
                       "inserted in the database directly")
        elif row != recorded:
            out.append(f"the drop count of table {table} for {day} differs from the audit "
                       "chain's record of it: edited in the database")
    for table, day in sorted(seen.counts.keys() - held.keys()):
        out.append(f"the drop count of table {table} for {day} is in the audit chain but was "
                   "deleted")
    return out
