"""The daily reports a Washington card room keeps, computed from the ledger and the slips:

- the **games report** (`games_report`): per table and game, the drop (and its tenders: cash,
  debit card slips, markers of the days before the room refused credit), fills, credits, opener,
  closer, win and hold % of the gambling day, with the Pan fees, commission, jackpot
  contributions and awards and the hands played beside them; per shift; totals for the room.
  Win = closer - opener + credits - fills + drop (the table-games identity), and each table's
  win is reconciled against what the ledger's play moved into and out of its tray;
- the **cage report** (`cage_report`): the chips sold (by tender: cash, debit card, check) and
  redeemed, by cashier, the cash in and out, the fills issued and credits received, the drop
  counted tender by tender, reconciled against the cage's account in the ledger;
- the **slips report** (`slips_report`): every numbered slip, voids included, and the check
  that no series has a gap.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from cardroom.money import Cents
from cardroom.room.books import table_books
from cardroom.room.money import ledger, tenders
from cardroom.room.storage.schema import (
    hands,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
    room_tables,
    table_slips,
)
from cardroom.room.storage.settings import SHIFTS, GamblingClock

SETTLEMENT_KINDS = ("settle", "jackpot-contribution", "jackpot-hit", "payout-refused")
"""A hand's transactions (keys `hand:<id>:...`): its wagers, the progressive's contribution
and top award (the controller posts them apart, `cardroom.room.play.progressive`), and a held
payout surveillance refused (its commission given back, `cardroom.room.compliance.surveillance`)."""
FIGURES = ("drop", "fills", "credits", "opener", "closer", "win", "fees", "commission",
           "jackpot_contributions", "jackpot_awards", "hands", "house_players", "variance")
"""The money figures of a games report line, in the order they are shown (hands is a count;
house_players is what the house's proposition players at Pan won, negative when they lost;
variance is what closing counts found over, negative short of, the books)."""
TENDER_FIGURES = ("drop_cash", "drop_debit", "drop_markers")
"""The drop of a line by tender (`Line.tenders`)."""


@dataclass
class Line:
    """One table's (or the room's) figures for the day, or for one shift."""

    table_id: int | None
    table: str
    game: str
    drop: Cents = 0
    drop_cash: Cents = 0
    drop_debit: Cents = 0
    drop_markers: Cents = 0
    """The drop by tender (counted, or in the books until counted); markers only on days
    before the room refused credit."""
    fills: Cents = 0
    credits: Cents = 0
    opener: Cents = 0
    closer: Cents = 0
    fees: Cents = 0
    commission: Cents = 0
    jackpot_contributions: Cents = 0
    jackpot_awards: Cents = 0
    hands: int = 0
    house_players: Cents = 0
    """What the house's proposition players (Pan's house bots) won from the other players
    through play (negative: lost), from their stacks in the ledger (docs/compliance.md)."""
    variance: Cents = 0
    """What the closing counts were over (negative: short of) the books' trays, recorded on
    notifications of error (`table_books.closing_variance`): part of the win by the identity,
    not of what play moved."""
    ledger_win: Cents = 0
    """What the ledger's play moved into the trays over the same inventories."""
    drop_in_books: Cents = 0
    """What the ledger says went into the drop box (the drop, until the box is counted)."""
    counted: bool = False
    sessions: int = 0
    still_open: bool = False

    def tenders(self, dropped: table_books.Dropped) -> None:
        self.drop_cash, self.drop_debit, self.drop_markers = \
            dropped.cash, dropped.debit, dropped.markers

    @property
    def win(self) -> Cents:
        return self.closer - self.opener + self.credits - self.fills + self.drop

    @property
    def hold(self) -> float | None:
        """Win as a share of the drop (None with no drop)."""
        return self.win / self.drop if self.drop else None

    @property
    def reconciled(self) -> bool:
        """The win from the slips and the count is the win the ledger's play recorded (with
        the closing counts' recorded variance), and the counted drop is what the ledger put
        into the box."""
        return self.win == self.ledger_win + self.variance and self.drop == self.drop_in_books

    def add(self, other: Line) -> None:
        for name in (*FIGURES[:5], *FIGURES[6:], *TENDER_FIGURES, "ledger_win",
                     "drop_in_books", "sessions"):
            if name != "win":
                setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_json(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "table": self.table, "game": self.game,
                **{name: getattr(self, name) for name in FIGURES},
                **{name: getattr(self, name) for name in TENDER_FIGURES},
                "hold_percent": None if self.hold is None else round(100 * self.hold, 2),
                "ledger_win": self.ledger_win, "drop_in_books": self.drop_in_books,
                "drop_counted": self.counted, "inventories": self.sessions,
                "still_open": self.still_open, "reconciled": self.reconciled}


@dataclass
class GamesReport:
    day: date
    lines: list[Line]
    shifts: dict[str, list[Line]] = field(default_factory=dict)

    @property
    def total(self) -> Line:
        room = Line(None, "room", "all games")
        for line in self.lines:
            room.add(line)
            room.counted = all(x.counted or not x.drop_in_books for x in self.lines)
        return room

    @property
    def reconciled(self) -> bool:
        return all(line.reconciled for line in self.lines)

    def as_json(self) -> dict[str, Any]:
        return {"report": "games", "gambling_day": self.day.isoformat(),
                "tables": [x.as_json() for x in self.lines],
                "shifts": {s: [x.as_json() for x in lines] for s, lines in self.shifts.items()},
                "total": self.total.as_json(), "reconciled": self.reconciled}


def _tables(conn: Connection) -> list[tuple[int, str, str]]:
    return [(r.id, r.name, r.game) for r in
            conn.execute(select(room_tables.c.id, room_tables.c.name, room_tables.c.game)
                         .order_by(room_tables.c.id))]


def _sessions(conn: Connection, start: datetime, end: datetime
              ) -> list[tuple[table_books.Slip, table_books.Slip]]:
    """Each (opener, closer) of a table inventory closed in the window."""
    inventory = table_books.slips(conn, series="inventory")
    closers = [s for s in inventory
               if s.kind == "closer" and s.valid and start <= s.created_at < end]
    openers = {s.id: s for s in inventory if s.kind == "opener"}
    return [(openers[c.opener_id], c) for c in closers if c.opener_id in openers]


def _slip_total(conn: Connection, table_id: int, kind: str, start: datetime, end: datetime
                ) -> Cents:
    return int(conn.execute(select(func.coalesce(func.sum(table_slips.c.amount), 0)).where(
        table_slips.c.table_id == table_id, table_slips.c.kind == kind,
        table_slips.c.status == "valid", table_slips.c.created_at >= start,
        table_slips.c.created_at < end)).scalar_one())


def _session_line(conn: Connection, table: tuple[int, str, str], opener: table_books.Slip,
                  closer: table_books.Slip) -> Line:
    t, name, game = table
    start, end = opener.created_at, closer.created_at + timedelta(microseconds=1)
    moved = table_books.tray_movements(conn, t, start, end)
    dropped = table_books.dropped(conn, t, start, end)
    line = Line(t, name, game, drop=dropped.total,
                fills=_slip_total(conn, t, "fill", start, end),
                credits=_slip_total(conn, t, "credit", start, end), opener=opener.amount,
                closer=closer.amount, ledger_win=table_books.won_by_play(moved),
                drop_in_books=dropped.total, sessions=1,
                variance=table_books.closing_variance(conn, closer))
    line.tenders(dropped)
    return line


def _house_by_table(conn: Connection, start: datetime, end: datetime
                    ) -> dict[int, dict[str, Cents]]:
    """Commission and the jackpot's net from each table's settlements in the window (a
    settlement's key names its hand, the hand its table)."""
    rows = conn.execute(
        ledger.entry_rows(ledger_transactions.c.id, ledger_transactions.c.key,
                          ledger_accounts.c.name, ledger_entries.c.amount)
        .where(ledger_transactions.c.kind.in_(SETTLEMENT_KINDS),
               ledger_transactions.c.created_at >= start,
               ledger_transactions.c.created_at < end,
               (ledger_accounts.c.name == ledger.HOUSE_COMMISSION)
               | (ledger_accounts.c.name == ledger.JACKPOT_SEED)
               | ledger_accounts.c.name.startswith("jackpot:", autoescape=True))).all()
    hand_ids = {int(r.key.split(":")[1]) for r in rows}
    table_of = dict(conn.execute(select(hands.c.id, hands.c.table_id)
                                 .where(hands.c.id.in_(hand_ids))).all()) if hand_ids else {}
    pool_net: dict[int, tuple[int, Cents]] = {}
    out: dict[int, dict[str, Cents]] = {}
    for r in rows:
        t = int(table_of[int(r.key.split(":")[1])])
        figures = out.setdefault(t, {"commission": 0, "jackpot_contributions": 0,
                                     "jackpot_awards": 0})
        if r.name == ledger.HOUSE_COMMISSION:
            figures["commission"] += int(r.amount)
        else:
            before = pool_net.get(r.id, (t, 0))[1]
            pool_net[r.id] = (t, before + int(r.amount))
    for t, net in pool_net.values():
        key = "jackpot_contributions" if net >= 0 else "jackpot_awards"
        out[t][key] += abs(net)
    return out


def _account_moves(conn: Connection, names: list[str], start: datetime, end: datetime
                   ) -> dict[str, Cents]:
    rows = conn.execute(
        ledger.entry_rows(ledger_accounts.c.name, func.sum(ledger_entries.c.amount))
        .where(ledger_accounts.c.name.in_(names), ledger_transactions.c.created_at >= start,
               ledger_transactions.c.created_at < end)
        .group_by(ledger_accounts.c.name))
    return {str(n): int(v) for n, v in rows}


def _house_players(conn: Connection, start: datetime, end: datetime) -> dict[int, Cents]:
    """What each Pan table's house players won (negative: lost) through play in the window:
    every movement of their stacks (`stack:<table>:-<seat>`) but their buy-ins and cash-outs
    (`ledger.house_players`)."""
    rows = conn.execute(
        ledger.entry_rows(ledger_accounts.c.name, func.sum(ledger_entries.c.amount))
        .where(ledger_accounts.c.name.like("stack:%:-%"),
               ledger_transactions.c.kind.not_in(("buy-in", "leave")),
               ledger_transactions.c.created_at >= start,
               ledger_transactions.c.created_at < end)
        .group_by(ledger_accounts.c.name))
    out: dict[int, Cents] = {}
    for name, amount in rows:
        t = int(str(name).split(":")[1])
        out[t] = out.get(t, 0) + int(amount)
    return out


def _window_lines(conn: Connection, tables: list[tuple[int, str, str]], start: datetime,
                  end: datetime) -> dict[int, Line]:
    """Each table's figures over one window (a gambling day or one of its shifts): the table
    inventories closed in it, and the fees, commission, jackpot, hands and house players'
    result by the moment they happened."""
    sessions = _sessions(conn, start, end)
    house = _house_by_table(conn, start, end)
    fees = _account_moves(conn, [ledger.fees(game, t) for t, _, game in tables], start, end)
    players = _house_players(conn, start, end)
    played: dict[int, int] = dict(conn.execute(
        select(hands.c.table_id, func.count()).where(
            hands.c.status == "settled", hands.c.closed_at >= start, hands.c.closed_at < end)
        .group_by(hands.c.table_id)).all())
    lines: dict[int, Line] = {}
    for table in tables:
        t, name, game = table
        line = Line(t, name, game)
        for opener, closer in sessions:
            if closer.table_id == t:
                line.add(_session_line(conn, table, opener, closer))
        line.fees = fees.get(ledger.fees(game, t), 0)
        for name_, cents in house.get(t, {}).items():
            setattr(line, name_, cents)
        line.hands = int(played.get(t, 0))
        line.house_players = players.get(t, 0)
        lines[t] = line
    return lines


def _active(line: Line) -> bool:
    return bool(line.sessions or line.hands or line.drop or line.fees or line.still_open
                or line.house_players or line.commission)


def games_report(conn: Connection, clock: GamblingClock, day: date) -> GamesReport:
    """The games report of one gambling day (see the module's docstring). Each shift's lines
    carry every figure of the day's lines over the shift's hours (issue 23): the inventories
    closed in the shift, and its fees, commission, jackpot, hands and house players; the drop
    box is counted once a day, so a shift's drop is the books' and is marked counted when the
    day's box was."""
    start, end = clock.bounds(day)
    tables = _tables(conn)
    counts = {t: table_books.drop_count(conn, t, day) for t, _, _ in tables}
    lines: list[Line] = []
    for t, line in _window_lines(conn, tables, start, end).items():
        count = counts[t]
        if count is not None:
            line.drop, line.counted = count.counted.total, True
            line.tenders(count.counted)
        opener_now = table_books.current_opener(conn, t)
        line.still_open = opener_now is not None and opener_now.created_at < end
        if _active(line):
            lines.append(line)
    shifts: dict[str, list[Line]] = {}
    for shift in SHIFTS:
        part = _window_lines(conn, tables, *clock.shift_bounds(day, shift))
        for t, line in part.items():
            line.counted = counts[t] is not None
        if active := [x for x in part.values() if _active(x)]:
            shifts[shift] = active
    return GamesReport(day, lines, shifts)


# the cage --------------------------------------------------------------------------------------
CAGE_KINDS = {"cage-sale": "chips sold for cash",
              "cage-sale-debit": "chips sold for debit card",
              "cage-sale-check": "chips sold for checks", "cage-redeem": "chips redeemed",
              "buy-chips": "self-service buys", "cash-out": "self-service cash-outs",
              "fill": "fills issued", "credit": "credits received",
              "fill-void": "fills voided", "credit-void": "credits voided"}
BY_CASHIER = (*tenders.SALE_KINDS.values(), "cage-redeem", "fill", "credit")
"""What each cashier's line of the cage report shows."""


@dataclass
class CageReport:
    day: date
    moves: dict[str, tuple[int, Cents]]
    """Per kind (`CAGE_KINDS`): how many and how much, as the cage saw it (+ into the cage)."""
    by_cashier: dict[str, dict[str, Cents]]
    drop: table_books.Dropped
    """The drop boxes counted for the day, by tender (markers: historical)."""
    cage_account_moved: Cents
    outstanding: Cents
    """Chips outside the cage at the end of the report (what `house:cage` is short)."""

    @property
    def cash_in(self) -> Cents:
        """Cash only (a debit card or a check is not cash): the cash sales and self-service
        buys."""
        return self.moves.get(tenders.SALE_KINDS["cash"], (0, 0))[1] \
            + self.moves.get("buy-chips", (0, 0))[1]

    @property
    def cash_out(self) -> Cents:
        return self.moves.get("cage-redeem", (0, 0))[1] + self.moves.get("cash-out", (0, 0))[1]

    @property
    def reconciled(self) -> bool:
        """Each move's chips leave or enter the cage's account in the ledger: the sum of
        the lines is what `house:cage` moved."""
        chips = {**{kind: -1 for kind in tenders.SALE_KINDS.values()}, "buy-chips": -1,
                 "cage-redeem": 1, "cash-out": 1, "fill": -1, "credit": 1, "fill-void": 1,
                 "credit-void": -1}
        return sum(sign * self.moves.get(k, (0, 0))[1] for k, sign in chips.items()) \
            == self.cage_account_moved

    def as_json(self) -> dict[str, Any]:
        return {"report": "cage", "gambling_day": self.day.isoformat(),
                "moves": {k: {"what": CAGE_KINDS[k], "count": n, "amount": c}
                          for k, (n, c) in self.moves.items()},
                "by_cashier": self.by_cashier, "cash_in": self.cash_in,
                "cash_out": self.cash_out, "drop_cash_counted": self.drop.cash,
                "drop_debit_counted": self.drop.debit,
                "drop_markers_counted": self.drop.markers,
                "cage_account_moved": self.cage_account_moved,
                "chips_outstanding": self.outstanding, "reconciled": self.reconciled}


def cage_report(conn: Connection, clock: GamblingClock, day: date) -> CageReport:
    start, end = clock.bounds(day)
    rows = conn.execute(
        ledger.entry_rows(ledger_transactions.c.kind, ledger_transactions.c.actor,
                          ledger_entries.c.amount)
        .where(ledger_accounts.c.name == ledger.HOUSE_CAGE,
               ledger_transactions.c.created_at >= start,
               ledger_transactions.c.created_at < end))
    moves: dict[str, tuple[int, Cents]] = {}
    by_cashier: dict[str, dict[str, Cents]] = {}
    moved = 0
    for r in rows:
        amount = int(r.amount)
        moved += amount
        if r.kind not in CAGE_KINDS:
            continue
        n, c = moves.get(r.kind, (0, 0))
        moves[r.kind] = (n + 1, c + abs(amount))
        if r.kind in BY_CASHIER:
            mine = by_cashier.setdefault(r.actor, {})
            mine[r.kind] = mine.get(r.kind, 0) + abs(amount)
    counts = [box.counted for t, _, _ in _tables(conn)
              if (box := table_books.drop_count(conn, t, day)) is not None]
    drop = table_books.Dropped(*(sum(getattr(x, tender) for x in counts)
                                 for tender in ("cash", "debit", "markers")))
    return CageReport(day, moves, by_cashier, drop, moved,
                      -ledger.balance(conn, ledger.HOUSE_CAGE))


# the slips -------------------------------------------------------------------------------------
@dataclass
class SlipsReport:
    slips: list[table_books.Slip]
    gaps: dict[str, list[int]]
    tables: dict[int, str]

    def as_json(self) -> dict[str, Any]:
        return {"report": "slips",
                "slips": [{**s.as_json(), "table_name": self.tables.get(s.table_id, "")}
                          for s in self.slips],
                "gaps": self.gaps, "complete": not self.gaps}


def slips_report(conn: Connection) -> SlipsReport:
    return SlipsReport(table_books.slips(conn), table_books.gaps(conn),
                       {t: name for t, name, _ in _tables(conn)})


def hold_history(conn: Connection, clock: GamblingClock, last: date, days: int = 30
                 ) -> tuple[list[date], dict[str, list[float | None]]]:
    """Hold % of each table over the `days` gambling days ending with `last`."""
    span = [last - timedelta(days=days - 1 - i) for i in range(days)]
    series: dict[str, list[float | None]] = {}
    for i, day in enumerate(span):
        for line in games_report(conn, clock, day).lines:
            values = series.setdefault(line.table, [None] * days)
            values[i] = None if line.hold is None else 100 * line.hold
    return span, series


def hold_chart(conn: Connection, clock: GamblingClock, last: date, days: int = 30) -> str:
    """The hold % of each table over the last `days` gambling days, as SVG (matplotlib on
    the server, the dossier's chart helper)."""
    from cardroom.analysis.dossier.charts import line_chart

    span, series = hold_history(conn, clock, last, days)
    xs = [float(i - days + 1) for i in range(days)]
    lines = [(name, xs, [math.nan if v is None else v for v in values])
             for name, values in sorted(series.items())]
    if not any(v == v for _, _, ys in lines for v in ys):  # no drop on any day: an empty frame
        lines = [("no drop in these days", [xs[0], xs[-1]], [0.0, 0.0])]
    return line_chart(f"Hold % by table, {span[0].isoformat()} to {last.isoformat()}",
                      f"gambling days before {last.isoformat()}", "hold %", lines, hline=0.0,
                      points=True, xlim=(xs[0] - 0.5, xs[-1] + 0.5),
                      ylim=hold_span([v for _, _, ys in lines for v in ys if v == v]))


def hold_span(values: list[float]) -> tuple[float, float]:
    """The hold axis: zero and every value, with a margin of a tenth of the span and at least
    5 points, so that one day, or days all at the same hold, still read as percentages."""
    low, high = min([0.0, *values]), max([0.0, *values])
    margin = max((high - low) / 10, 5.0)
    return low - margin, high + margin


def to_csv(rows: list[dict[str, Any]]) -> str:
    """Rows of a report as CSV (a header from the first row's keys)."""
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()


MONEY_COLUMNS = frozenset({*(f for f in FIGURES if f != "hands"), *TENDER_FIGURES,
                           "ledger_win", "drop_in_books", "amount"})
"""The figures of the reports that are money: their CSV columns are named `<figure>_cents`
(issue 23: a CSV column says its unit; the JSON keeps the plain names, documented as cents)."""


def in_cents(row: dict[str, Any]) -> dict[str, Any]:
    """A report row for CSV: each money column's name ends in `_cents`."""
    return {f"{k}_cents" if k in MONEY_COLUMNS else k: v for k, v in row.items()}


def games_rows(report: GamesReport) -> list[dict[str, Any]]:
    """The games report as flat CSV rows: each table (shift `all`), each table per shift, and
    the room's total; money in cents (`drop_cents`, ...)."""
    day = report.day.isoformat()
    lines = [("all", x) for x in report.lines]
    lines += [(shift, x) for shift, xs in report.shifts.items() for x in xs]
    lines.append(("all", report.total))
    return [in_cents({"gambling_day": day, "shift": shift, **x.as_json()})
            for shift, x in lines]


WHAT = {"drop_markers_counted": f"drop counted: {tenders.MARKERS_LABEL}"}


def cage_rows(report: CageReport) -> list[dict[str, Any]]:
    data = report.as_json()
    day = data["gambling_day"]
    rows = [{"gambling_day": day, "line": k, "what": v["what"], "count": v["count"],
             "amount_cents": v["amount"]} for k, v in data["moves"].items()]
    rows += [{"gambling_day": day, "line": k, "what": WHAT.get(k, k.replace("_", " ")),
              "count": "", "amount_cents": data[k]}
             for k in ("cash_in", "cash_out", "drop_cash_counted", "drop_debit_counted",
                       "drop_markers_counted", "chips_outstanding")]
    return rows


def slips_rows(report: SlipsReport) -> list[dict[str, Any]]:
    """The numbered slips as CSV rows, the amount in cents (`amount_cents`)."""
    return [in_cents(s) for s in report.as_json()["slips"]]
