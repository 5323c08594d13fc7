"""The forms that need a second person's signature, asked on one session and signed on the
signer's own (`room.approvals`; docs/security.md, "Second signatures"): what each kind of
request does when its last signer accepts it, who signs which part, and the one way a route asks.
Every request is rehearsed when it is asked (done and rolled back, on copies of the jackpot
pools the room holds in memory), so that a closed table, a wrong slip number or a meter taken
below nothing is said to the person asking, not to the signer later."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any

from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.money import format_money
from cardroom.room.books import table_books
from cardroom.room.money.jackpot import DEFAULT_POOL
from cardroom.room.money.jackpot import adjust as adjust_jackpot
from cardroom.room.people import approvals
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.people.approvals import Approval, Part
from cardroom.room.play import progressive
from cardroom.room.play.tables import get_table
from cardroom.room.room import Room
from cardroom.room.storage.errors import NotFound

DEALER = Part("dealer", Permission.DEAL, "the dealer")
FLOOR = Part("floor", Permission.OPEN_TABLES, "the floor supervisor")
COUNTER = Part("second", Permission.COUNT, "the second counter")
APPROVER = Part("second", Permission.ADJUST_JACKPOT, "the second approver")
VERIFIER = Part("second", None, "the second verifier")

Work = Callable[[Room, Connection, dict[str, Any], Account, dict[str, Account]], str]


@dataclass(frozen=True)
class Kind:
    action: str
    """The audit's name of the form's action (a refusal is audited under it)."""
    work: Work


def _slip(kind: str) -> Work:
    move = table_books.fill if kind == "fill" else table_books.credit

    def work(room: Room, conn: Connection, p: dict[str, Any], asker: Account,
             signers: dict[str, Account]) -> str:
        slip = move(conn, p["table"], asker, signers["dealer"], signers["floor"], p["amount"],
                    p["number"])
        return f"{slip.form} number {slip.number}: {format_money(slip.amount)}"
    return work


def _open(room: Room, conn: Connection, p: dict[str, Any], asker: Account,
          signers: dict[str, Account]) -> str:
    opening = table_books.open_table(conn, p["table"], signers["dealer"], asker, p["counted"],
                                     p["number"])
    said = f"opener number {opening.opener.number}: {format_money(p['counted'])}"
    if opening.error is not None:
        said += (f"; notification of error number {opening.error.number}: "
                 f"{opening.error.note}")
    return said


def _close(room: Room, conn: Connection, p: dict[str, Any], asker: Account,
           signers: dict[str, Account]) -> str:
    slip = table_books.close_table(conn, p["table"], signers["dealer"], asker, p["counted"],
                                   p["number"])
    return f"closer number {slip.number}: {format_money(slip.amount)}" + "".join(
        f"; notification of error number {e.number}: {e.note}"
        for e in table_books.errors_of(conn, slip))


def _count(room: Room, conn: Connection, p: dict[str, Any], asker: Account,
           signers: dict[str, Account]) -> str:
    c = table_books.count_drop(conn, room.settings.clock, p["table"],
                               date.fromisoformat(p["day"]),
                               table_books.Dropped(p["cash"], p["debit"], p["markers"]),
                               asker, signers["second"])
    return (f"counted {format_money(c.counted.total)} (cash {format_money(c.counted.cash)}, "
            f"debit card {format_money(c.counted.debit)}); the books say "
            f"{format_money(c.expected)}; variance {format_money(c.variance)}")


def _adjust(room: Room, conn: Connection, p: dict[str, Any], asker: Account,
            signers: dict[str, Account]) -> str:
    adjust_jackpot(conn, asker, signers["second"], DEFAULT_POOL, room.pool(DEFAULT_POOL),
                   p["amount"], p["reason"], p["key"])
    return f"the meter is adjusted by {format_money(p['amount'])}"


def _settings(room: Room, conn: Connection, p: dict[str, Any], asker: Account,
              signers: dict[str, Account]) -> str:
    progressive.change_settings(conn, asker, signers["second"], p["pool"], room.pool(p["pool"]),
                                progressive.Settings(**p["settings"]), p["reason"])
    return f"the settings of the pool {p['pool']} are changed"


def _verify(room: Room, conn: Connection, p: dict[str, Any], asker: Account,
            signers: dict[str, Account]) -> str:
    hit = progressive.verify(conn, asker, signers["second"], p["hit"], p["note"])
    return f"the top award of hand {hit.hand_id} is verified"


KINDS: dict[str, Kind] = {
    "fill": Kind("table.fill", _slip("fill")), "credit": Kind("table.credit", _slip("credit")),
    "open": Kind("table.open", _open), "close": Kind("table.close", _close),
    "count": Kind("drop.count", _count),
    "jackpot.adjust": Kind("jackpot.adjust", _adjust),
    "jackpot.settings": Kind("jackpot.settings", _settings),
    "jackpot.verify": Kind("jackpot.verify", _verify)}


def settings_payload(pool: str, settings: progressive.Settings, reason: str) -> dict[str, Any]:
    return {"pool": pool, "settings": asdict(settings), "reason": reason}


def table_name(room: Room, table_id: int) -> str:
    with room.storage.read() as conn:
        row = get_table(conn, table_id)
    if row is None:
        raise NotFound(f"there is no table {table_id}")
    return row.name


class _Rehearsed(Exception):
    """Rolls a rehearsal back."""


Form = Callable[[], tuple[str, dict[str, Any]]]
"""A form read: what the signers sign, in words (the table, the amounts), and its values."""


def ask(room: Room, who: Account, kind: str, form: Form, named: dict[Part, str]) -> str:
    """Ask the people `named` for their signatures on `who`'s `form`, read here (raising,
    audited, one sentence when refused); what the person asking is told."""
    spec = KINDS[kind]
    try:
        summary, payload = form()
        stand_in = copy.copy(room)
        stand_in.pools = copy.deepcopy(room.pools)
        with room.storage.unit() as conn:
            signers = approvals.signers_of(conn, who, named)
            spec.work(stand_in, conn, payload, who, signers)
            raise _Rehearsed
    except _Rehearsed:
        pass
    except CardroomError as exc:
        room.refused(who, spec.action, str(exc))
        raise

    def work(conn: Connection) -> Approval:
        return approvals.ask(conn, who, kind, summary, payload,
                             approvals.signers_of(conn, who, named))
    found = room.operate(who, spec.action, work)
    return f"{summary}: waiting for the signature of " + " and ".join(
        s.username for s in found.signers) + " on their own screen"


def accept(room: Room, who: Account, approval_id: int) -> str:
    """`who` signs a request; the last signature does the form's work (one transaction)."""
    def complete(conn: Connection, approval: Approval, asked_by: Account,
                 signers: dict[str, Account]) -> str:
        return KINDS[approval.kind].work(room, conn, approval.payload, asked_by, signers)

    found, outcome = room.operate(who, "approval.sign", lambda conn: approvals.accept(
        conn, who, approval_id, complete), {"approval": approval_id})
    if outcome is None:
        return f"signed: {found.summary}; waiting for " + " and ".join(
            s.username for s in found.waiting_on())
    return f"signed and done: {outcome}"
