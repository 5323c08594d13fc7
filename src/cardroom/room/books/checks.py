"""Checks the cage takes for chips (WAC 230-06-005) and the register of those returned unpaid
(WAC 230-15-730(4)(a): checks accepted, returned as uncollected, and written off).

WAC 230-06-005 takes a check in place of cash only if it is fully negotiable and is (1)(a)
from the player's own personal account, dated the same day, or (1)(b) issued by a government
agency or a business (a payroll check). It refuses (2)(a) third-party personal checks and
counter checks, and (2)(b) any check from a player who owes the room for a returned personal
check; (3) a check taken against these rules is credit. The cashier records, off the check,
its kind, number, drawer, bank and date (`Check`); the register keeps who took it and when,
and, for a returned check, who recorded the return, why, and how it was settled (repaid or
written off)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.money import Cents, format_money
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.storage import audit
from cardroom.room.storage.errors import NotFound
from cardroom.room.storage.schema import accounts, cage_checks

KINDS = {"personal": "personal check", "payroll": "payroll or business check",
         "government": "government check"}
"""WAC 230-06-005(1): the checks a room may take (a personal check from the player's own
account; one issued by a business or a government agency), and how a person calls each."""
REFUSED_KINDS = {"third-party": "a third-party personal check", "counter": "a counter check"}
"""WAC 230-06-005(2)(a): checks a room may never take."""
SETTLEMENTS = {"repaid": "repaid", "written-off": "written off"}
FIELDS = {"number": 20, "drawer": 80, "bank": 80}
"""What the cashier copies off the check, and the most characters each keeps."""


@dataclass(frozen=True)
class Check:
    """What the cashier reads off a check: its kind (`KINDS`), number, the drawer (whose
    account it is drawn on), the bank, and the date written on it."""

    kind: str
    number: str
    drawer: str
    bank: str
    dated: date


def acceptable(check: Check, today: date) -> Check:
    """The check, its fields trimmed, if WAC 230-06-005(1)-(2)(a) lets the room take it on
    `today` (the room's calendar date); else refused in one sentence citing the rule."""
    if check.kind in REFUSED_KINDS:
        raise CardroomError(f"refused: the room takes no {REFUSED_KINDS[check.kind][2:]} "
                            "(WAC 230-06-005(2)(a)); taking one would be credit")
    if check.kind not in KINDS:
        raise CardroomError("a check at the cage is a personal check from the player's own "
                            "account, a payroll or business check, or a government check "
                            "(WAC 230-06-005(1))")
    fields = {}
    for name, most in FIELDS.items():
        value = " ".join(str(getattr(check, name)).split())
        if not value:
            raise CardroomError(f"write the check's {name} as it is on the check")
        if len(value) > most:
            raise CardroomError(f"the check's {name} is longer than {most} characters")
        fields[name] = value
    if check.kind == "personal" and check.dated != today:
        raise CardroomError(f"refused: a personal check must be dated the day it is taken "
                            f"({today.isoformat()}), not {check.dated.isoformat()} "
                            "(WAC 230-06-005(1)(a)); a check dated later is credit")
    return Check(check.kind, fields["number"], fields["drawer"], fields["bank"], check.dated)


@dataclass(frozen=True)
class Recorded:
    """A check in the register."""

    id: int
    player: str
    check: Check
    amount: Cents
    accepted_by: str
    accepted_at: datetime
    status: str
    """`accepted`, `returned`, `repaid` or `written-off`."""
    returned_by: str | None
    returned_at: datetime | None
    return_reason: str | None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "player": self.player, "kind": self.check.kind,
                "number": self.check.number, "drawer": self.check.drawer,
                "bank": self.check.bank, "dated": self.check.dated.isoformat(),
                "amount": self.amount, "accepted_by": self.accepted_by,
                "accepted_at": _aware(self.accepted_at).isoformat(), "status": self.status,
                "returned_by": self.returned_by,
                "returned_at": None if self.returned_at is None
                else _aware(self.returned_at).isoformat(),
                "return_reason": self.return_reason}


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def owes(conn: Connection, player: Account) -> Recorded | None:
    """The player's returned personal check not yet repaid, if any (one written off as
    uncollectible is still owed)."""
    found = [c for c in register(conn, player_id=player.id)
             if c.status in ("returned", "written-off") and c.check.kind == "personal"]
    return found[0] if found else None


def refuse_if_owing(conn: Connection, player: Account) -> None:
    """WAC 230-06-005(2)(b): no check from a player who owes the room for a returned
    personal check."""
    unpaid = owes(conn, player)
    if unpaid is not None:
        raise CardroomError(f"refused: {player.username} owes the room for returned check "
                            f"number {unpaid.check.number} ({format_money(unpaid.amount)}), "
                            "so the cage takes no check from them until it is repaid "
                            "(WAC 230-06-005(2)(b))")


def record(conn: Connection, cashier: Account, player: Account, check: Check, amount: Cents,
           tx_id: int) -> None:
    """Enter a check the cage took for chips (ledger transaction `tx_id`) in the register."""
    conn.execute(insert(cage_checks).values(
        tx_id=tx_id, account_id=player.id, kind=check.kind, number=check.number,
        drawer=check.drawer, bank=check.bank, dated=check.dated, amount=amount,
        accepted_by=cashier.username, accepted_at=datetime.now(UTC), status="accepted"))


def register(conn: Connection, *, player_id: int | None = None,
             status: str | None = None) -> list[Recorded]:
    """The checks the cage took, newest first (one player's, or those of one status)."""
    q = (select(cage_checks, accounts.c.username)
         .join(accounts, accounts.c.id == cage_checks.c.account_id)
         .order_by(cage_checks.c.id.desc()))
    if player_id is not None:
        q = q.where(cage_checks.c.account_id == player_id)
    if status is not None:
        q = q.where(cage_checks.c.status == status)
    return [Recorded(r.id, r.username, Check(r.kind, r.number, r.drawer, r.bank, r.dated),
                     int(r.amount), r.accepted_by, r.accepted_at, r.status, r.returned_by,
                     r.returned_at, r.return_reason) for r in conn.execute(q)]


def _find(conn: Connection, check_id: int) -> Recorded:
    found = [c for c in register(conn) if c.id == check_id]
    if not found:
        raise NotFound(f"there is no check {check_id} in the register")
    return found[0]


def returned(conn: Connection, cashier: Account, check_id: int, reason: str) -> Recorded:
    """The bank returned the check unpaid: it enters the returned-check register."""
    cashier.require(Permission.CAGE)
    reason = " ".join(reason.split())
    if not reason:
        raise CardroomError("say why the bank returned the check")
    check = _find(conn, check_id)
    if check.status != "accepted":
        raise CardroomError(f"check number {check.check.number} is already "
                            f"{check.status.replace('-', ' ')}")
    conn.execute(update(cage_checks).where(cage_checks.c.id == check_id).values(
        status="returned", returned_by=cashier.username, returned_at=datetime.now(UTC),
        return_reason=reason[:400]))
    audit.append(conn, cashier.username, "check.returned", {
        "check": check_id, "number": check.check.number, "player": check.player,
        "amount": check.amount, "reason": reason[:400]})
    return _find(conn, check_id)


def settle(conn: Connection, cashier: Account, check_id: int, how: str) -> Recorded:
    """A returned check is repaid by the player, or written off as uncollectible."""
    cashier.require(Permission.CAGE)
    if how not in SETTLEMENTS:
        raise CardroomError("a returned check is settled as repaid or written off")
    check = _find(conn, check_id)
    if check.status != "returned":
        raise CardroomError(f"check number {check.check.number} is not a returned check "
                            "awaiting settlement")
    conn.execute(update(cage_checks).where(cage_checks.c.id == check_id).values(
        status=how, settled_by=cashier.username, settled_at=datetime.now(UTC)))
    audit.append(conn, cashier.username, f"check.{how}", {
        "check": check_id, "number": check.check.number, "player": check.player,
        "amount": check.amount})
    return _find(conn, check_id)
