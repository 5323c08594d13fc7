"""Gambling days played in the past, for the regulator's monthly and quarterly reports and the
cash on hand (WAC 230-06-070, 230-05-124, 230-15-050): each day is played now through the room
(the cage sells chips, the floor opens and fills Mini 1 and opens Pan 1, players bet, the Pan
table charges its fee, the tables close and the drop box is counted), then every row it wrote
is moved back by whole days to the gambling day it stands for (`backdate`). The script keeps
its own tally of what it expects (what the players sat down with and stood up with, the
progressive wagers, the Pan hands), never read back from the reports."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import Date, DateTime, select, update
from sqlalchemy.engine import Connection

from cardroom.games.baccarat.rules import JACKPOT_SEED_CENTS
from cardroom.room.books import table_books
from cardroom.room.books.cashier import sell_chips
from cardroom.room.books.regulator import record_cash_count
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import metadata
from cardroom.room.storage.settings import GamblingClock

from .pan_play import pan, play_out
from .people import player
from .rooms import cage_room, rig_top_award

NOT_MOVED = frozenset({"audit_log", "audit_head", "accounts", "sessions", "throttle",
                       "trusted_devices"})
"""Tables whose times stay as they were: the audit chain (its entries are sealed as written)
and the people's log-ins."""
CONTRIBUTION = 20
"""Super-9: "For every 1$ dropped the house will add a minimum of .20 cents to the progressive
jackpot": each $1 progressive wager puts 20 cents on the meter (the default house rules)."""
PAN_FEE = 100
STARTS = 6
"""The script's gambling day began this many hours ago (it never runs across its end)."""


def backdate(conn: Connection, since: datetime, today: date, days: int) -> None:
    """Move every row written since `since` back by `days` days: its moments by that many
    24-hour days (the clock runs in UTC), its gambling days (today's) by as many days."""
    for table in metadata.sorted_tables:
        if table.name in NOT_MOVED:
            continue
        keys = list(table.primary_key.columns)
        for column in table.columns:
            if isinstance(column.type, DateTime):
                shift: timedelta = timedelta(days=days)
                rows = conn.execute(select(*keys, column).where(column >= since)).all()
            elif isinstance(column.type, Date):
                rows = conn.execute(select(*keys, column).where(column >= today)).all()
                shift = timedelta(days=days)
            else:
                continue
            for r in rows:
                *key, value = r
                conn.execute(update(table).where(*(k == v for k, v in zip(keys, key, strict=True)))
                             .values({column.name: value - shift}))


@dataclass
class Expected:
    """What a played day should show, from the script's own tally."""

    day: date
    lost_at_mini: int = 0
    """What the players sat down with at Mini 1 and did not stand up with."""
    progressive_wagers: int = 0
    pan_hands: int = 0
    pan_payers: int = 1

    @property
    def contributions(self) -> int:
        return CONTRIBUTION * self.progressive_wagers

    @property
    def ggr(self) -> int:
        """The house-banked net win (what the players lost at Mini 1: each $1 progressive
        wager stays whole in its tray, the meter's share is the house's own, issue 23) and the
        Pan fees."""
        return self.lost_at_mini + self.pan_fees

    @property
    def pan_fees(self) -> int:
        return PAN_FEE * self.pan_payers * self.pan_hands


class PastDays:
    """A card room (Mini 1 baccarat with its progressive, Pan 1 with a $1 fee a hand) whose
    gambling days are played now and moved into the past."""

    def __init__(self, storage: Storage) -> None:
        now = datetime.now(UTC)
        self.clock = GamblingClock(ZoneInfo("UTC"), (now - timedelta(hours=STARTS)).time()
                                   .replace(microsecond=0))
        self.storage = storage
        self.created = now - timedelta(seconds=1)
        room, p, mini = cage_room(storage)
        assert mini is not None
        self.room, self.p, self.mini = room, p, mini
        with storage.unit() as conn:
            self.p["carol"] = player(conn, "carol")
        self.pan = room.create_table(p["olivia"], "Pan 1", "pan",
                                     {"fee": {"kind": "hand", "cents": PAN_FEE}}).table_id
        self.seed = JACKPOT_SEED_CENTS
        """Mini 1's progressive was seeded by the house when the table was created."""
        self.keys = 0
        self.rng = random.Random(21)

    @property
    def today(self) -> date:
        return self.clock.day_of(datetime.now(UTC))

    def key(self) -> str:
        self.keys += 1
        return f"k{self.keys}"

    def _stack(self, who: Account, t: int) -> int:
        with self.storage.read() as conn:
            return ledger.balance(conn, ledger.stack(t, who.id))

    def play(self, day: date, coups: int, cash_counted: int | None = None,
             top_award: bool = False, short: int = 0) -> Expected:
        """Play a gambling day now and move it to `day` (the room's first day moves the
        tables' creation with it); with `top_award`, the first coup deals the progressive's
        top award to alice's progressive wager (held pending: the progressive takes no other
        wager that day); Mini 1's closing count is `short` of its books."""
        since = self.created if self.keys == 0 else datetime.now(UTC) - timedelta(seconds=1)
        p, room, t = self.p, self.room, self.mini
        out = Expected(day)
        if cash_counted is not None:
            with self.storage.unit() as conn:
                record_cash_count(conn, self.clock, p["cathy"], cash_counted)
        for table in (t, self.pan):
            room.operate(p["fiona"], "table.open", lambda c, table=table: table_books.open_table(
                c, table, p["dan"], p["fiona"], self._closer(c, table)))
        room.operate(p["cathy"], "table.fill", lambda c: table_books.fill(
            c, t, p["cathy"], p["dan"], p["fiona"], 200_000))
        room.operate(p["cathy"], "cage.sell", lambda c: sell_chips(
            c, p["cathy"], p["alice"], 50_000, self.key()))
        room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
            c, p["dan"], t, p["bob"], 30_000, self.key()))
        dropped = 30_000
        for who, amount in (("alice", 50_000), ("bob", 30_000)):
            room.act(p[who], t, {"type": "sit", "buy_in": amount, "key": self.key()})
            out.lost_at_mini += amount
        for coup in range(coups):
            rigged = top_award and coup == 0
            if rigged:
                rig_top_award(room, t)
            for who in ("alice", "bob"):
                bets = {self.rng.choice(("banker", "player")): 1_000 * self.rng.randint(1, 3)}
                if (rigged and who == "alice") or (not top_award and self.rng.random() < 0.5):
                    bets["progressive"] = 100
                    out.progressive_wagers += 1
                room.act(p[who], t, {"type": "bet", "bets": bets, "key": self.key()})
            room.act(p["dan"], t, {"type": "deal"})
        for who in ("alice", "bob"):
            out.lost_at_mini -= self._stack(p[who], t)
            room.act(p[who], t, {"type": "leave", "key": self.key()})
        # Pan: carol and one of the house's proposition players; carol pays the fee
        carol = p["carol"]
        room.operate(p["cathy"], "cage.sell", lambda c: sell_chips(
            c, p["cathy"], carol, 3_000, self.key()))
        room.act(carol, self.pan, {"type": "sit", "buy_in": 2_000, "key": self.key()})
        room.act(carol, self.pan, {"type": "bot", "key": self.key()})
        room.act(carol, self.pan, {"type": "deal"})
        play_out(room, [carol], self.pan)
        out.pan_hands += 1
        assert pan(room, self.pan).hand_id is None
        room.act(carol, self.pan, {"type": "leave", "key": self.key()})
        self._close(t, short)
        self._close(self.pan)
        room.operate(p["cathy"], "drop.count", lambda c: table_books.count_drop(
            c, self.clock, t, self.today, table_books.Dropped(dropped, 0), p["cathy"],
            p["colin"]))
        with self.storage.unit() as conn:
            backdate(conn, since, self.today, (self.today - day).days)
        return out

    @staticmethod
    def _closer(conn: Connection, table: int) -> int:
        last = table_books.last_closer(conn, table)
        return 0 if last is None else last.amount

    def _close(self, table: int, short: int = 0) -> None:
        p = self.p
        with self.storage.read() as conn:
            held = ledger.balance(conn, ledger.tray(table))
        if held < 0:
            self.room.operate(p["cathy"], "table.fill", lambda c: table_books.fill(
                c, table, p["cathy"], p["dan"], p["fiona"], -held))
            held = 0
        self.room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
            c, table, p["dan"], p["fiona"], held - short))
