"""Second signatures, each given by its signer on their own session (issue 23; docs/security.md,
"Second signatures"): the person logged in fills in a form that needs other people's signatures
(the dealer and the floor on a fill or a credit, the dealer on an opener or a closer, the second
counter, the jackpot's second approver) and names them; the form waits as a request until each
named signer, logged in as themselves, reads what they sign and accepts it. The last acceptance
does the form's work in the same transaction (`accept`'s `complete`), audited with every name.
A signer may decline, the person who asked may withdraw, and a request not signed within
`EXPIRES` lapses. No one types a password on another person's screen.

Who may sign which part is the form's own rule (`Part`): a permission the signer holds, never
the person who asked, and never one person for two parts. The form checks its rules again when
it is done (`table_books`, `progressive`), with the accounts as they are then.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.room.people.accounts import Account, Permission, Role, find_account, get_account
from cardroom.room.storage import audit
from cardroom.room.storage.errors import NotFound, PermissionDenied
from cardroom.room.storage.schema import accounts, approval_signers, approvals

EXPIRES = timedelta(minutes=30)
"""How long a request waits for its signatures before it lapses (the form is filled in again)."""


@dataclass(frozen=True)
class Part:
    """One signature a form needs: its name on the slip, who may give it (a permission, or
    None for any member of staff) and the words for that person."""
    name: str
    permission: Permission | None
    title: str


@dataclass(frozen=True)
class Signer:
    part: str
    username: str
    account_id: int
    signed_at: datetime | None


@dataclass(frozen=True)
class Approval:
    id: int
    kind: str
    asked_by: str
    summary: str
    payload: dict[str, Any]
    created_at: datetime
    expires_at: datetime
    status: str
    closed_by: str | None
    outcome: str | None
    signers: tuple[Signer, ...]

    def state(self, now: datetime) -> str:
        """pending, done, declined, withdrawn, or expired (pending past its time)."""
        return "expired" if self.status == "pending" and now >= self.expires_at else \
            self.status

    def waiting_on(self) -> list[Signer]:
        return [s for s in self.signers if s.signed_at is None]

    def signer(self, account_id: int) -> Signer | None:
        return next((s for s in self.signers if s.account_id == account_id), None)


class Complete(Protocol):
    def __call__(self, conn: Connection, approval: Approval, asked_by: Account,
                 signers: dict[str, Account]) -> str: ...


Close = Callable[[Connection, Account, int], "Approval"]
"""`decline` or `withdraw`, as a route calls them."""


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _signer(conn: Connection, who: Account, part: Part, name: str) -> Account:
    signer = find_account(conn, name)
    if signer is None or signer.role is Role.PLAYER:
        raise NotFound(f"there is no member of staff named {name.strip()[:40]!r} to sign as "
                       f"{part.title}")
    if signer.id == who.id:
        raise CardroomError(f"you cannot sign as {part.title} as well: name another person, "
                            "who accepts it on their own screen")
    if part.permission is not None and not signer.may(part.permission):
        raise PermissionDenied(f"refused: {signer.username} is a {signer.role.value} and may "
                               f"not sign as {part.title}")
    return signer


def signers_of(conn: Connection, who: Account, named: dict[Part, str]) -> dict[str, Account]:
    """The accounts named for each part, by the parts' rules (one sentence when refused)."""
    found = {part.name: _signer(conn, who, part, name) for part, name in named.items()}
    titles = {part.name: part.title for part in named}
    seen: dict[int, str] = {}
    for part, signer in found.items():
        if signer.id in seen:
            raise CardroomError(f"{titles[seen[signer.id]]} and {titles[part]} must be two "
                                f"different people: {signer.username} cannot sign twice")
        seen[signer.id] = part
    return found


def ask(conn: Connection, who: Account, kind: str, summary: str, payload: dict[str, Any],
        signers: dict[str, Account], now: datetime | None = None) -> Approval:
    """Record a request for `signers`' signatures (`signers_of`); audited."""
    now = now or datetime.now(UTC)
    new_id = conn.execute(insert(approvals).values(
        kind=kind, asked_by=who.id, summary=summary[:400], payload=json.dumps(payload),
        created_at=now, expires_at=now + EXPIRES, status="pending")
        .returning(approvals.c.id)).scalar_one()
    for part, signer in signers.items():
        conn.execute(insert(approval_signers).values(approval_id=new_id, part=part,
                                                     account_id=signer.id))
    audit.append(conn, who.username, "approval.ask", {
        "approval": new_id, "kind": kind, "summary": summary[:400],
        "signers": {part: s.username for part, s in signers.items()}})
    return get(conn, new_id)


def _approval(conn: Connection, r: Any) -> Approval:
    rows = conn.execute(select(approval_signers.c.part, approval_signers.c.account_id,
                               approval_signers.c.signed_at, accounts.c.username)
                        .join(accounts, accounts.c.id == approval_signers.c.account_id)
                        .where(approval_signers.c.approval_id == r.id)
                        .order_by(approval_signers.c.part))
    signers = tuple(Signer(s.part, s.username, s.account_id,
                           _aware(s.signed_at) if s.signed_at else None) for s in rows)
    asker = conn.execute(select(accounts.c.username).where(accounts.c.id == r.asked_by)
                         ).scalar_one()
    return Approval(r.id, r.kind, asker, r.summary, json.loads(r.payload),
                    _aware(r.created_at), _aware(r.expires_at), r.status, r.closed_by,
                    r.outcome, signers)


def get(conn: Connection, approval_id: int) -> Approval:
    r = conn.execute(select(approvals).where(approvals.c.id == approval_id)).first()
    if r is None:
        raise NotFound(f"there is no request for a signature numbered {approval_id}")
    return _approval(conn, r)


def waiting_for(conn: Connection, who: Account, now: datetime | None = None) -> list[Approval]:
    """The requests `who` has yet to sign, oldest first (expired ones are left out)."""
    now = now or datetime.now(UTC)
    rows = conn.execute(select(approvals).join(
        approval_signers, approval_signers.c.approval_id == approvals.c.id).where(
        approval_signers.c.account_id == who.id, approval_signers.c.signed_at.is_(None),
        approvals.c.status == "pending", approvals.c.expires_at > now)
        .order_by(approvals.c.id))
    return [_approval(conn, r) for r in rows]


def count_waiting(conn: Connection, who: Account, now: datetime | None = None) -> int:
    """How many requests wait for `who`'s signature (the menu's count)."""
    now = now or datetime.now(UTC)
    return int(conn.execute(select(func.count()).select_from(approvals).join(
        approval_signers, approval_signers.c.approval_id == approvals.c.id).where(
        approval_signers.c.account_id == who.id, approval_signers.c.signed_at.is_(None),
        approvals.c.status == "pending", approvals.c.expires_at > now)).scalar_one())


def pending(conn: Connection, now: datetime | None = None) -> list[Approval]:
    """Every request still waiting for a signature, oldest first (the floor's pit screen
    shows each table's)."""
    now = now or datetime.now(UTC)
    rows = conn.execute(select(approvals).where(approvals.c.status == "pending",
                                                approvals.c.expires_at > now)
                        .order_by(approvals.c.id))
    return [_approval(conn, r) for r in rows]


def asked_by(conn: Connection, who: Account, limit: int = 20) -> list[Approval]:
    """`who`'s own requests, newest first."""
    rows = conn.execute(select(approvals).where(approvals.c.asked_by == who.id)
                        .order_by(approvals.c.id.desc()).limit(limit))
    return [_approval(conn, r) for r in rows]


def _open(conn: Connection, approval_id: int, now: datetime) -> Approval:
    """The request, still waiting for signatures (one sentence when it is not)."""
    found = get(conn, approval_id)
    state = found.state(now)
    if state != "pending":
        raise CardroomError(f"this request is {state}: nothing was signed")
    return found


def _close(conn: Connection, found: Approval, who: Account, status: str, outcome: str,
           now: datetime) -> None:
    conn.execute(update(approvals).where(approvals.c.id == found.id).values(
        status=status, closed_by=who.username, closed_at=now, outcome=outcome[:400]))


def accept(conn: Connection, who: Account, approval_id: int, complete: Complete,
           now: datetime | None = None) -> tuple[Approval, str | None]:
    """`who` signs their part; when it is the last, `complete` does the form's work here, in
    the same transaction (a refusal of the work refuses the signature too). Returns the
    request and, when it was done, what was done."""
    now = now or datetime.now(UTC)
    found = _open(conn, approval_id, now)
    mine = found.signer(who.id)
    if mine is None:
        raise PermissionDenied("refused: this request does not ask for your signature")
    if mine.signed_at is not None:
        raise CardroomError("you have signed this request already")
    conn.execute(update(approval_signers).where(
        approval_signers.c.approval_id == found.id, approval_signers.c.part == mine.part)
        .values(signed_at=now))
    names = {s.part: s.username for s in found.signers}
    audit.append(conn, who.username, "approval.sign", {
        "approval": found.id, "kind": found.kind, "part": mine.part})
    if len(found.waiting_on()) > 1:
        return get(conn, found.id), None
    asker = get_account(conn, conn.execute(select(approvals.c.asked_by).where(
        approvals.c.id == found.id)).scalar_one())
    if asker is None:
        raise CardroomError(f"{found.asked_by}, who asked, can no longer sign: the request "
                            "cannot be done")
    signers = {s.part: _current(conn, s) for s in found.signers}
    outcome = complete(conn, found, asker, signers)
    _close(conn, found, who, "done", outcome, now)
    audit.append(conn, who.username, "approval.done", {
        "approval": found.id, "kind": found.kind, "asked_by": found.asked_by,
        "signers": names, "outcome": outcome[:400]})
    return get(conn, found.id), outcome


def _current(conn: Connection, signer: Signer) -> Account:
    account = get_account(conn, signer.account_id)
    if account is None:
        raise CardroomError(f"{signer.username} is locked out: the request cannot be done")
    return account


def decline(conn: Connection, who: Account, approval_id: int, reason: str = "",
            now: datetime | None = None) -> Approval:
    """A named signer refuses to sign: the request is closed, nothing is done; audited."""
    now = now or datetime.now(UTC)
    found = _open(conn, approval_id, now)
    if found.signer(who.id) is None:
        raise PermissionDenied("refused: this request does not ask for your signature")
    _close(conn, found, who, "declined", reason.strip() or "declined", now)
    audit.append(conn, who.username, "approval.decline", {
        "approval": found.id, "kind": found.kind, "asked_by": found.asked_by,
        "reason": reason.strip()[:400]})
    return get(conn, found.id)


def withdraw(conn: Connection, who: Account, approval_id: int,
             now: datetime | None = None) -> Approval:
    """The person who asked takes the request back before it is done; audited."""
    now = now or datetime.now(UTC)
    found = _open(conn, approval_id, now)
    if found.asked_by != who.username:
        raise PermissionDenied("refused: only the person who asked may withdraw a request")
    _close(conn, found, who, "withdrawn", "withdrawn", now)
    audit.append(conn, who.username, "approval.withdraw",
                 {"approval": found.id, "kind": found.kind})
    return get(conn, found.id)
