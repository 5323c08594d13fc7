"""The scripted gambling day of issue 12 (10 tables of all four games, 200 players; open,
fills, credits, drop, count, close), played through the room layer with its own tallies: the
figure of `test_scripted_day.py`, and each room's day of the head-office figure
(`test_head_office.py`)."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from cardroom.room.books import table_books
from cardroom.room.books.cashier import redeem_chips, sell_chips
from cardroom.room.books.checks import Check
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role
from cardroom.room.play.pan_live import PanLive
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import GamblingClock
from cardroom.shoe import SeededRandom

from .people import person, player

PW = "correct horse"
PLAYERS = 200
TABLES = (("Mini 1", "baccarat"), ("Mini 2", "baccarat"), ("Mini 3", "baccarat"),
          ("Mini 4", "baccarat"), ("Pan 9 one", "super-pan-9"), ("Pan 9 two", "super-pan-9"),
          ("Pai Gow one", "pai-gow"), ("Pai Gow two", "pai-gow"), ("Pan 1", "pan"),
          ("Pan 2", "pan"))
HANDS = {"baccarat": 120, "super-pan-9": 40, "pai-gow": 40, "pan": 1}
"""Hands per table and wave (two waves; Pan's long hands in the first only): 1,282 in all."""
PAN_RULES: dict[str, Any] = {"fee": {"kind": "hand", "cents": 100}}
BANK = {"baccarat": 2_000_000, "super-pan-9": 1_000_000, "pai-gow": 1_000_000, "pan": 50_000}


class Day:
    """The script and its own books."""

    def __init__(self, storage: Storage, share: int = 1, seed: int = 12) -> None:
        """`share`: play one hand in `share` of the script's (the figure's full day on
        SQLite; PostgreSQL runs the same day with fewer hands, to keep the suite fast)."""
        self.share = share
        now = datetime.now(UTC)
        # the gambling day started six hours ago, so the script never runs across its end
        self.clock = GamblingClock(day_starts=(now - timedelta(hours=6)).astimezone(
            GamblingClock().zone).time())
        self.day = self.clock.day_of(now)
        self.room = Room(storage, SeededRandom(seed))
        self.room.start()
        self.rng = random.Random(seed)
        cast = [("olivia", Role.OWNER), ("fiona", Role.FLOOR), ("gus", Role.FLOOR),
                ("dan", Role.DEALER), ("dora", Role.DEALER), ("cathy", Role.CASHIER),
                ("colin", Role.CASHIER)]
        with storage.unit() as conn:
            self.p = {n: person(conn, n, PW, r) for n, r in cast}
            self.players = [player(conn, f"guest{i:03d}", PW)
                            for i in range(PLAYERS)]
        self.tables = {self.room.create_table(self.p["olivia"], name, game,
                                              PAN_RULES if game == "pan" else None).table_id:
                       game for name, game in TABLES}
        self.redeemed = 0
        self.sold: Counter[str] = Counter()
        """Chips sold at the cage, per tender."""
        self.slips: Counter[str] = Counter()
        self.fills: Counter[int] = Counter()
        self.credits: Counter[int] = Counter()
        self.drop: Counter[int] = Counter()
        self.drop_debit: Counter[int] = Counter()
        """The part of each table's drop paid by debit card (the rest is cash)."""
        self.sat: Counter[int] = Counter()
        self.stood: Counter[int] = Counter()
        self.hands: Counter[int] = Counter()
        self.fees: Counter[int] = Counter()
        self.keys = 0

    def key(self) -> str:
        self.keys += 1
        return f"k{self.keys}"

    def act(self, who: Account, t: int, msg: dict[str, Any]) -> None:
        self.room.act(who, t, msg)

    # the floor and the cage ---------------------------------------------------------------
    def open_all(self) -> None:
        for t, game in self.tables.items():
            opening = self.room.operate(
                self.p["fiona"], "table.open", lambda c, t=t: table_books.open_table(
                    c, t, self.p["dan"], self.p["fiona"], 0))
            assert opening.error is None
            self.fill(t, BANK[game])

    def fill(self, t: int, amount: int) -> None:
        cashier = self.p[self.rng.choice(("cathy", "colin"))]
        self.room.operate(cashier, "table.fill", lambda c: table_books.fill(
            c, t, cashier, self.p["dora"], self.p["gus"], amount))
        self.fills[t] += amount
        self.slips["fill"] += 1

    def credit(self, t: int) -> None:
        with self.room.storage.read() as conn:
            held = ledger.balance(conn, ledger.tray(t))
        amount = held // 4
        if amount <= 0:
            return
        cashier = self.p["cathy"]
        self.room.operate(cashier, "table.credit", lambda c: table_books.credit(
            c, t, cashier, self.p["dan"], self.p["fiona"], amount))
        self.credits[t] += amount
        self.slips["credit"] += 1

    def chips_for(self, who: Account, t: int, amount: int) -> None:
        """Three players in four buy at the cage (cash, a debit card, or a check); the fourth
        at the table, for the drop (cash or a debit card)."""
        if self.rng.random() < 0.75:
            cashier = self.p[self.rng.choice(("cathy", "colin"))]
            tender = self.rng.choice(("cash", "cash", "debit", "check"))
            today = datetime.now(self.clock.zone).date()
            check = Check("personal", f"{self.keys}", who.username, "First Bank", today) \
                if tender == "check" else None
            self.room.operate(cashier, "cage.sell", lambda c: sell_chips(
                c, cashier, who, amount, self.key(), tender, check, today))
            self.sold[tender] += amount
        else:
            tender = "debit" if self.rng.random() < 0.2 else "cash"
            self.room.operate(self.p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
                c, self.p["dan"], t, who, amount, self.key(), tender))
            self.drop[t] += amount
            self.drop_debit[t] += amount if tender == "debit" else 0

    def sit(self, who: Account, t: int, amount: int) -> None:
        self.chips_for(who, t, amount)
        self.act(who, t, {"type": "sit", "buy_in": amount, "key": self.key()})
        self.sat[t] += amount

    def stand(self, who: Account, t: int) -> None:
        with self.room.storage.read() as conn:
            held = ledger.balance(conn, ledger.stack(t, who.id))
        self.act(who, t, {"type": "leave", "key": self.key()})
        self.stood[t] += held
        if held and self.rng.random() < 0.5:
            cashier = self.p["colin"]
            self.room.operate(cashier, "cage.redeem", lambda c: redeem_chips(
                c, cashier, who, held, self.key()))
            self.redeemed += held

    def close_all(self) -> dict[int, int]:
        closers = {}
        for t in self.tables:
            with self.room.storage.read() as conn:
                counted = ledger.balance(conn, ledger.tray(t))  # the dealer counts right
            if counted < 0:
                self.fill(t, -counted)
                counted = 0
            self.room.operate(self.p["fiona"], "table.close",
                              lambda c, t=t, n=counted: table_books.close_table(
                                  c, t, self.p["dan"], self.p["fiona"], n))
            closers[t] = counted
        return closers

    def count_all(self) -> None:
        for t in self.tables:
            self.room.operate(self.p["cathy"], "drop.count", lambda c, t=t: table_books.count_drop(
                c, self.clock, t, self.day, table_books.Dropped(
                    self.drop[t] - self.drop_debit[t], self.drop_debit[t]),
                self.p["cathy"], self.p["colin"]))

    # the games -----------------------------------------------------------------------------
    def play(self, t: int, game: str, seated: list[Account], wave: int) -> None:
        hands = HANDS[game] if game == "pan" else HANDS[game] // self.share
        for _ in range(hands if game != "pan" or wave == 0 else 0):
            {"baccarat": self.baccarat, "super-pan-9": self.super_pan_9,
             "pai-gow": self.pai_gow, "pan": self.pan}[game](t, seated)
            self.hands[t] += 1

    def baccarat(self, t: int, seated: list[Account]) -> None:
        for who in seated[:3]:
            spot = self.rng.choice(("banker", "player"))
            self.act(who, t, {"type": "bet", "bets": {spot: 500 * self.rng.randint(1, 2)},
                              "key": self.key()})
        self.act(self.p["dan"], t, {"type": "deal"})

    def super_pan_9(self, t: int, seated: list[Account]) -> None:
        for who in seated[:3]:
            self.act(who, t, {"type": "bet", "bets": {"wager": 500 * self.rng.randint(1, 2)},
                              "key": self.key()})
        self.act(self.p["dan"], t, {"type": "deal"})
        live = self.room.table(t)
        by_seat = {live.seat_of[w.id]: w for w in seated}  # type: ignore[attr-defined]
        while live.hand_id is not None:
            seat = live.engine.to_act  # type: ignore[attr-defined]
            self.act(by_seat[seat], t, {"type": self.rng.choice(("draw", "stand"))})

    def pai_gow(self, t: int, seated: list[Account]) -> None:
        for who in seated[:3]:
            self.act(who, t, {"type": "bet", "bets": {"wager": 500 * self.rng.randint(1, 2)},
                              "key": self.key()})
        self.act(self.p["dan"], t, {"type": "deal"})
        live = self.room.table(t)
        for who in seated[:3]:
            for spot in live.snapshot(who)["you"]["to_set"]:
                self.act(who, t, {"type": "house_way", "spot": spot})
        assert live.hand_id is None

    def pan(self, t: int, seated: list[Account]) -> None:
        live = self.room.table(t)
        assert isinstance(live, PanLive)
        self.act(seated[0], t, {"type": "deal"})
        self.fees[t] += PAN_RULES["fee"]["cents"] * len(seated)  # each guest pays $1 (bots
        # are the house's and pay nothing)
        for _ in range(3000):
            if live.hand_id is None:
                return
            for who in seated:
                snap = live.snapshot(who)
                legal = [c for c in snap["play"]["legal"] if not c.startswith(("force", "foul"))]
                if legal:
                    move = next((m for m in ("play", "draw") if m in legal), None) or next(
                        (c for c in legal if c.startswith("discard")), legal[0])
                    self.act(who, t, {"type": "pan", "command": move, "seq": snap["seq"]})
                    break
            else:
                raise AssertionError("nobody may act but the hand is not over")
        raise AssertionError("the hand did not finish")


def play_day(storage: Storage, share: int, seed: int = 12) -> tuple[Day, dict[int, int]]:
    """The day played in `storage` (`Day`'s `share`); the script and each table's closer."""
    d = Day(storage, share, seed)
    d.open_all()
    guests = iter(d.players)
    for wave in range(2):
        for t, game in d.tables.items():
            seated = [next(guests) for _ in range(3 if game != "pan" else 1)]
            for who in seated:
                d.sit(who, t, 150_000 if game != "pan" else 3_000)
            if game == "pan":  # two of the house's proposition players join the guest
                for _ in range(2):
                    d.act(seated[0], t, {"type": "bot", "key": d.key()})
            d.play(t, game, seated, wave)
            for who in seated:
                d.stand(who, t)
            if wave == 0 and game != "pan":
                d.credit(t)
                d.fill(t, 100_000)
    for who in guests:  # the rest of the 200 buy chips and cash them in again
        d.chips_for(who, next(iter(d.tables)), 10_000)
    closers = d.close_all()
    d.count_all()
    return d, closers

