"""Surveillance before payment (WAC 230-15-320(4)): any winning wager, jackpot or bonus
payout over the profile's surveillance figure ($3,000 in Washington) is verified by
surveillance (camera on the hand, the wager, the payout and the winner) before it is paid.

One mechanism serves the progressive's top-award shares (`cardroom.room.play.progressive`: their
surveillance check) and every other wager's payout (here):

- **who**: `require_duty` — a person with the surveillance duty: the floor (who may adjust the
  jackpot), the owner or the auditor; never the winner (`not_a_winner`); always with a note of
  what surveillance saw (`require_note`).
- **the figure**: `threshold` — the profile's `surveillance` figure on the payout's gambling
  day. "Over" is over, not at: $3,000.00 exactly is paid at once.
- **a wager's payout** (`hold`, called by `LiveTable.close_hand` for every game's settlement):
  a wager whose win (what the bank pays, before any commission, not counting the returned
  stake) is over the figure is settled like every other wager except that what it returns to
  the player (stake and win, less commission) goes to the table's `held:T` account instead of
  the player's stack. The rest of the hand settles normally and the table deals on.
  `verify` pays the held chips to the winner's wallet; `refuse` voids that wager: the stake
  goes to the player's wallet, the win back to the bank that paid it, the commission back.
  Both are ledger transactions keyed by the hand (`hand:<id>:held:<n>:...`) and audited
  (`payout.held`, `payout.verify`, `payout.refuse`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.money import Cents
from cardroom.profile import profile_in_force
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.storage import audit
from cardroom.room.storage.errors import NotFound, PermissionDenied
from cardroom.room.storage.schema import accounts, held_payouts, room_tables
from cardroom.room.storage.settings import GamblingClock

HELD, PAID, REFUSED = "held", "paid", "refused"


# the one mechanism: who, what they write, the figure ------------------------------------------
def threshold(at: datetime) -> Cents:
    """The profile's surveillance figure on the gambling day of `at` (WAC 230-15-320(4)
    under the state profile): a payout above it waits for surveillance."""
    day: date = GamblingClock.from_env().day_of(at)
    return Cents(profile_in_force().surveillance.on(day).cents)


def require_duty(who: Account) -> None:
    """Only a person with the surveillance duty records a surveillance check: the floor, the
    owner or the auditor."""
    if not (who.may(Permission.ADJUST_JACKPOT) or who.may(Permission.READ_ALL)):
        raise PermissionDenied(f"refused: a {who.role.value} may not record a surveillance "
                               "check")


def not_a_winner(who: Account, winners: Iterable[int], what: str) -> None:
    if who.id in set(winners):
        raise PermissionDenied(f"refused: a winner of the {what} may not verify or pay it")


def require_note(note: str) -> str:
    """What surveillance saw, required with every check (kept to 400 characters)."""
    if not note.strip():
        raise CardroomError("write what surveillance saw (camera, time, who reviewed it)")
    return note.strip()[:400]


# a wager's payout ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Payout:
    """One wager's settlement, as a game's live table hands it to `close_hand`."""

    account: int
    wager: str
    """The wager's name at the table ("banker", "bonus", "wager"...)."""
    stake: Cents
    won: Cents
    """What the bank pays on the wager, before commission (negative: a loss)."""
    commission: Cents
    bank: str
    """The ledger account that paid `won`: the table's tray, or a player-banker's stack."""

    @property
    def returned(self) -> Cents:
        """What the settlement gives back to the player: the stake and the win, less
        commission."""
        return self.stake + self.won - self.commission

    def postings(self, table_id: int) -> ledger.Postings:
        """The wager's settlement entries (the one builder for every game): the stake out of
        the table's wagers in play, what is returned to the player's stack, the commission to
        the house and the win out of the bank (a loss into it)."""
        return [(ledger.wagers(table_id), -self.stake),
                (ledger.stack(table_id, self.account), self.returned),
                (ledger.HOUSE_COMMISSION, self.commission), (self.bank, -self.won)]


@dataclass(frozen=True)
class Held:
    id: int
    table_id: int
    table: str
    hand_id: int
    account_id: int
    winner: str
    payout: Payout
    at: datetime
    status: str
    decided_by: str | None
    decided_at: datetime | None
    note: str | None


def over(payouts: Iterable[Payout], at: datetime) -> list[Payout]:
    """The payouts that wait for surveillance: a win over the figure of the day."""
    figure = threshold(at)
    return [p for p in payouts if p.won > figure]


def hold(conn: Connection, table_id: int, hand_id: int, payouts: list[Payout],
         postings: ledger.Postings, at: datetime) -> list[Payout]:
    """Route each payout over the figure into the table's held account: adds to `postings`
    (the hand's settlement, posted by the caller) and records each held payout, audited.
    Returns the held payouts (the caller takes them out of the players' stacks)."""
    held = over(payouts, at)
    for p in held:
        postings += ledger.move(ledger.stack(table_id, p.account), ledger.held(table_id),
                                p.returned)
        hid = conn.execute(insert(held_payouts).values(
            table_id=table_id, hand_id=hand_id, account_id=p.account, wager=p.wager,
            stake=p.stake, won=p.won, commission=p.commission, bank=p.bank, at=at,
            status=HELD).returning(held_payouts.c.id)).scalar_one()
        audit.append(conn, "dealer", "payout.held", {
            "held": hid, "table": table_id, "hand": hand_id, "account": p.account,
            "wager": p.wager, "stake": p.stake, "won": p.won, "commission": p.commission,
            "returned": p.returned})
    return held


def _held(row: Any) -> Held:
    payout = Payout(int(row.account_id), str(row.wager), int(row.stake), int(row.won),
                    int(row.commission), str(row.bank))
    at = row.at if row.at.tzinfo else row.at.replace(tzinfo=UTC)
    return Held(int(row.id), int(row.table_id), str(row.table_name), int(row.hand_id),
                int(row.account_id), str(row.username), payout, at, str(row.status),
                row.decided_by, row.decided_at, row.note)


def _query() -> Any:
    return (select(held_payouts, room_tables.c.name.label("table_name"), accounts.c.username)
            .join(room_tables, room_tables.c.id == held_payouts.c.table_id)
            .join(accounts, accounts.c.id == held_payouts.c.account_id)
            .order_by(held_payouts.c.id))


def get(conn: Connection, held_id: int) -> Held:
    row = conn.execute(_query().where(held_payouts.c.id == held_id)).first()
    if row is None:
        raise NotFound(f"there is no held payout {held_id}")
    return _held(row)


def waiting(conn: Connection) -> list[Held]:
    """The queue: every payout still held, oldest first."""
    return [_held(r) for r in conn.execute(_query().where(held_payouts.c.status == HELD))]


def decided(conn: Connection, limit: int = 50) -> list[Held]:
    """The latest payouts verified or refused, newest first."""
    return [_held(r) for r in conn.execute(
        _query().where(held_payouts.c.status != HELD)
        .order_by(None).order_by(held_payouts.c.id.desc()).limit(limit))]


def _decide(conn: Connection, who: Account, held_id: int, note: str) -> tuple[Held, str]:
    require_duty(who)
    h = get(conn, held_id)
    not_a_winner(who, [h.account_id], "payout")
    if h.status != HELD:
        raise CardroomError(f"payout {held_id} is already {h.status}")
    return h, require_note(note)


def _record(conn: Connection, who: Account, h: Held, status: str, note: str) -> Held:
    conn.execute(update(held_payouts).where(held_payouts.c.id == h.id).values(
        status=status, decided_by=who.username, decided_at=datetime.now(UTC), note=note))
    audit.append(conn, who.username, f"payout.{'verify' if status == PAID else 'refuse'}", {
        "held": h.id, "table": h.table_id, "hand": h.hand_id, "account": h.account_id,
        "wager": h.payout.wager, "returned": h.payout.returned, "note": note})
    return get(conn, h.id)


def verify(conn: Connection, who: Account, held_id: int, note: str) -> Held:
    """Surveillance saw the hand, the wager, the payout and the winner: the held chips go to
    the winner's wallet."""
    h, note = _decide(conn, who, held_id, note)
    p = h.payout
    ledger.post(conn, f"hand:{h.hand_id}:held:{h.id}:paid", "payout-verified",
                ledger.move(ledger.held(h.table_id), ledger.wallet(h.account_id), p.returned),
                actor=who.username, memo=f"hand {h.hand_id}: {p.wager} verified by surveillance")
    return _record(conn, who, h, PAID, note)


def refuse(conn: Connection, who: Account, held_id: int, note: str) -> Held:
    """Surveillance found the payout wrong: the wager is void. Its stake goes to the
    player's wallet, the win back to the bank that paid it (a player-banker's wallet), the
    commission back out of the house's."""
    h, note = _decide(conn, who, held_id, note)
    p = h.payout
    bank = p.bank
    if bank.startswith("stack:"):  # a player-bank: they may have left the table
        bank = ledger.wallet(int(bank.rsplit(":", 1)[1]))
    ledger.post(conn, f"hand:{h.hand_id}:held:{h.id}:refused", "payout-refused",
                [(ledger.held(h.table_id), -p.returned), (ledger.wallet(h.account_id), p.stake),
                 (bank, p.won), (ledger.HOUSE_COMMISSION, -p.commission)],
                actor=who.username, memo=f"hand {h.hand_id}: {p.wager} refused by surveillance")
    return _record(conn, who, h, REFUSED, note)
