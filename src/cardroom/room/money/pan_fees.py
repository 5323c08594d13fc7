"""Collecting a Pan table's fee (WAC 230-15-070 to -085): the house does not bank Pan, it
charges the one fee the table's house rules name (`cardroom.games.pan.fees`). Each fee is one
balanced ledger transaction from the player's table stack to the table's own fee account
(`house:fees:pan:<table>`, apart from every other house account, WAC 230-15-075), recorded as
it is collected and audited (`fee.collected`); the daily report sums them per table and day.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from cardroom.games.pan.events import ChipsMoved
from cardroom.games.pan.fees import PanFee
from cardroom.money import Cents, format_money
from cardroom.room.money import ledger
from cardroom.room.storage import audit
from cardroom.room.storage.pipeline import on_driver
from cardroom.room.storage.schema import (
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
    pan_fee_periods,
)
from cardroom.room.storage.settings import GamblingClock
from cardroom.room.storage.upsert import upsert

GAME = "pan"
"""Pan's name in the registry, the table rows and its fee accounts (`ledger.fees`)."""
PREFIX = ledger.fees_prefix(GAME)


@dataclass(frozen=True)
class Charge:
    account: int
    cents: Cents
    kind: str


@dataclass(frozen=True)
class DealFees:
    """What the deal collects: the charges, the players who cannot pay (not dealt in), and
    when each time-fee payer's period ends."""

    charges: tuple[Charge, ...] = ()
    short: tuple[int, ...] = ()
    paid_until: Mapping[int, datetime] | None = None


def due_before_deal(fee: PanFee | None, accounts: Iterable[int], stacks: Mapping[int, Cents],
                    chip: Cents, paid_until: Mapping[int, datetime], now: datetime
                    ) -> DealFees:
    """The fees due from the players about to be dealt in: a fee per hand from each, a time
    fee from each whose paid period is over (or who has none). A player whose stack after the
    fee would hold less than one chip (the tops) cannot pay and is not dealt in. House bots
    (negative accounts) pay no fee: their chips are the house's own."""
    if fee is None or fee.kind == "rake":
        return DealFees()
    assert fee.cents is not None
    charges, short, until = [], [], {}
    for a in accounts:
        if a < 0 or (fee.kind == "time" and a in paid_until and now < paid_until[a]):
            continue
        if stacks.get(a, 0) - fee.cents < chip:
            short.append(a)
            continue
        charges.append(Charge(a, fee.cents, fee.kind))
        if fee.kind == "time":
            assert fee.every_minutes is not None
            until[a] = now + timedelta(minutes=fee.every_minutes)
    return DealFees(tuple(charges), tuple(short), until)


def rake_due(fee: PanFee | None, events: Iterable[object], accounts: Mapping[int, int],
             chip: Cents) -> list[Charge]:
    """The rake of a finished hand: the fee's rate of the tops each player collected from the
    pot (chips returned to doubles players who paid them are no winnings), rounded down, from
    the player who collected them. House bots pay none (their chips are the house's)."""
    if fee is None or fee.kind != "rake":
        return []
    won: dict[int, Cents] = {}
    for ev in events:
        if isinstance(ev, ChipsMoved) and ev.payer is None and ev.payee is not None \
                and not ev.reason.startswith("double tops returned"):
            a = accounts[ev.payee]
            won[a] = won.get(a, 0) + ev.chips * chip
    return [Charge(a, rake, "rake") for a, cents in won.items()
            if a > 0 and (rake := fee.rake_on(cents)) > 0]


def collect(conn: Connection, table_id: int, table_name: str, hand_id: int,
            charges: Sequence[Charge]) -> None:
    """Post each fee (the player's stack to the table's fee account) and audit it; their
    ledger look-ups sent together (`ledger.look_ahead`: one round trip for all)."""
    postings = [(charge, f"fee:{table_id}:{charge.kind}:{hand_id}:{charge.account}",
                 ledger.move(ledger.stack(table_id, charge.account),
                             ledger.fees(GAME, table_id), charge.cents))
                for charge in charges]
    ledger.look_ahead(conn, [(key, [name for name, _ in moves]) for _, key, moves in postings])
    for charge, key, moves in postings:
        ledger.post(conn, key, f"fee-{charge.kind}", moves, actor="dealer",
                    memo=f"{table_name} hand {hand_id}: {charge.kind} fee "
                         f"{format_money(charge.cents)}")
        audit.append(conn, "dealer", "fee.collected", {
            "table": table_id, "hand": hand_id, "account": charge.account,
            "kind": charge.kind, "cents": charge.cents})


def save_periods(conn: Connection, table_id: int, paid_until: Mapping[int, datetime]) -> None:
    """Store the periods the deal's time fees paid for (in the deal's transaction), so that a
    restart neither charges a period twice nor skips one (WAC 230-15-080)."""
    if paid_until:
        on_driver(conn, _SAVE_PERIOD[conn.dialect.name],
                  [{"table": table_id, "account": account, "until": until}
                   for account, until in paid_until.items()])


_SAVE_PERIOD = upsert(pan_fee_periods, ("table_id", "account_id"), {
    "table_id": bindparam("table"), "account_id": bindparam("account"),
    "paid_until": bindparam("until")})
"""A period paid for, made or replaced: one statement nothing waits for."""


def load_periods(conn: Connection, table_id: int) -> dict[int, datetime]:
    """The table's paid periods as stored, for the table built again after a restart."""
    return {int(r.account_id): r.paid_until if r.paid_until.tzinfo
            else r.paid_until.replace(tzinfo=UTC)
            for r in conn.execute(select(pan_fee_periods)
                                  .where(pan_fee_periods.c.table_id == table_id))}


@dataclass(frozen=True)
class FeeLine:
    """Fees of one kind collected at one table on one day (UTC)."""

    day: date
    table_id: int
    kind: str
    cents: Cents
    count: int


def fees_collected(conn: Connection) -> list[FeeLine]:
    """Every Pan fee in the ledger, summed per gambling day (the room's clock, as every
    report counts days), table and kind, newest day first."""
    clock = GamblingClock.from_env()
    rows = conn.execute(
        ledger.entry_rows(ledger_accounts.c.name, ledger_transactions.c.kind,
                          ledger_transactions.c.created_at, ledger_entries.c.amount)
        .where(ledger_accounts.c.name.startswith(PREFIX, autoescape=True)))
    sums: dict[tuple[date, int, str], list[int]] = {}
    for r in rows:
        key = (clock.day_of(r.created_at), int(r.name[len(PREFIX):]),
               str(r.kind).removeprefix("fee-"))
        total = sums.setdefault(key, [0, 0])
        total[0] += int(r.amount)
        total[1] += 1
    return [FeeLine(d, t, k, c, n) for (d, t, k), (c, n) in
            sorted(sums.items(), key=lambda kv: (-kv[0][0].toordinal(), kv[0][1], kv[0][2]))]
