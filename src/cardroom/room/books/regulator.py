"""The reports a Washington card room files with the Gambling Commission, and its minimum cash
on hand (docs/compliance.md, "Reports to the regulator"; docs/operations.md):

- the **monthly records** (WAC 230-06-070) and the **quarterly license report** (WAC 230-05-124)
  of gross gambling receipts as WAC 230-05-112 defines them for card games: the net win of the
  house-banked games plus the Pan fees, before any deduction; the prizes (progressive top awards
  hit); the progressive accrual adjustment (the change over the period of what the room owes
  players on its progressive meters). Each figure is the sum of the daily games reports
  (`operations_report.games_report`) of the period's gambling days, per game and per month; the
  period's totals are set against what the ledger moved in the same hours, and each daily report
  against its own tables. The due dates are the profile's (`Profile.quarterly_report`,
  `Profile.monthly_records`).
- the **minimum cash on hand** (WAC 230-15-050): the cage records its cash count at the opening of
  a gambling day (`record_cash_count`), and `cash_on_hand` computes the requirement of the profile
  in force on that day and flags a shortfall, or a count not made within 3 hours of opening.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal, NamedTuple

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from cardroom import registry
from cardroom.errors import CardroomError
from cardroom.money import Cents, form_amount, format_money
from cardroom.profile import Profile, profile_in_force
from cardroom.room.books import table_books
from cardroom.room.books.operations_report import Line, games_report
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.play.tables import banked_games
from cardroom.room.storage import audit, schema
from cardroom.room.storage.settings import GamblingClock

ACCOUNTS, ENTRIES, TXS = schema.ledger_accounts, schema.ledger_entries, schema.ledger_transactions
PeriodKind = Literal["month", "quarter", "year"]
LIABILITY_PREFIXES = ("jackpot:", "jackpot-pending:")
"""The accounts of what the room owes players on its progressives: each meter (the top award a
hit would pay now) and the top awards hit and not yet paid. The hidden reserve, which seeds
the next meter, is not yet owed to anyone (docs/compliance.md)."""


# the period ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Period:
    """A calendar month, quarter or year of gambling days."""

    kind: PeriodKind
    first: date
    last: date

    @property
    def label(self) -> str:
        if self.kind == "month":
            return f"{self.first:%Y-%m}"
        if self.kind == "quarter":
            return f"{self.first.year} Q{(self.first.month - 1) // 3 + 1}"
        return str(self.first.year)

    def days(self) -> list[date]:
        return [self.first + timedelta(days=i) for i in range((self.last - self.first).days + 1)]

    def months(self) -> list[Period]:
        out, first = [], self.first
        while first <= self.last:
            out.append(month(first.year, first.month))
            first = out[-1].last + timedelta(days=1)
        return out

    def due(self, profile: Profile) -> tuple[date, str]:
        """When the report of this period is due, and the section that says so: a quarter's
        license report, or a month's records (ready by then)."""
        cap = profile.quarterly_report if self.kind == "quarter" else profile.monthly_records
        return cap.on(self.last).due(self.last), cap.section


def month(year: int, number: int) -> Period:
    if not 1 <= number <= 12:
        raise CardroomError(f"there is no month {number}: give a month from 1 to 12")
    first = date(year, number, 1)
    nxt = date(year + (number == 12), number % 12 + 1, 1)
    return Period("month", first, nxt - timedelta(days=1))


def quarter(year: int, number: int) -> Period:
    if not 1 <= number <= 4:
        raise CardroomError(f"there is no quarter {number}: give a quarter from 1 to 4")
    return Period("quarter", month(year, 3 * number - 2).first, month(year, 3 * number).last)


def year(number: int) -> Period:
    return Period("year", date(number, 1, 1), date(number, 12, 31))


def parse_month(text: str) -> Period:
    """`YYYY-MM`, as a person types it."""
    try:
        y, m = (int(part) for part in text.strip().split("-"))
        return month(y, m)
    except (ValueError, CardroomError):
        raise CardroomError(f"{text.strip()[:20]!r} is not a month: write it as YYYY-MM, "
                            "e.g. 2025-01") from None


# the figures ---------------------------------------------------------------------------------
FIGURES = ("win", "commission", "net_win", "fees", "ggr", "prizes",
           "progressive_contributions")
"""A game's figures for a month or a period, in cents, in the order shown."""
FEES_KEY = "_".join(registry.fees_name().lower().split())
"""The fees' name in the reports' JSON: their name for people in snake case ("pan_fees")."""


def figure_key(name: str) -> str:
    """A figure's key in the reports' JSON (cents)."""
    return f"{FEES_KEY if name == 'fees' else name}_cents"


@dataclass
class GameFigures:
    """One game's figures over some gambling days: sums of its daily report lines."""

    game: str
    win: Cents = 0
    """The tables' win (closer - opener + credits - fills + drop): the house-banked games'
    win at the tray, each $1 progressive wager whole in it (the house adds the contribution
    from its own funds, `progressive.record_coup`)."""
    commission: Cents = 0
    fees: Cents = 0
    """The fees the games collect at their tables (`registry.fees_name`)."""
    prizes: Cents = 0
    """Progressive top awards hit (the daily report's jackpot awards)."""
    progressive_contributions: Cents = 0
    hands: int = 0

    @property
    def net_win(self) -> Cents:
        """The house-banked games' net win: the tables' win and the commission."""
        return self.win + self.commission

    @property
    def ggr(self) -> Cents:
        """Gross gambling receipts (WAC 230-05-112): the net win of the house-banked games
        and the fees the games collect (Pan's), before any deduction."""
        return self.net_win + self.fees

    def add_line(self, line: Line) -> None:
        self.win += line.win
        self.commission += line.commission
        self.fees += line.fees
        self.prizes += line.jackpot_awards
        self.progressive_contributions += line.jackpot_contributions
        self.hands += line.hands

    def add(self, other: GameFigures) -> None:
        for name in ("win", "commission", "fees", "prizes", "progressive_contributions",
                     "hands"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game, **{figure_key(n): getattr(self, n) for n in FIGURES},
                "hands": self.hands}


def total_of(figures: Iterable[GameFigures], name: str = "all games") -> GameFigures:
    out = GameFigures(name)
    for f in figures:
        out.add(f)
    return out


class DailyCheck(NamedTuple):
    """One gambling day's games report as the period sums it."""

    day: date
    ggr: Cents
    reconciled: bool
    unreconciled_tables: tuple[str, ...]


@dataclass
class MonthFigures:
    period: Period
    games: dict[str, GameFigures]
    days: list[DailyCheck]
    liability_start: Cents
    liability_end: Cents
    due: date
    due_section: str

    @property
    def total(self) -> GameFigures:
        return total_of(self.games.values())

    @property
    def accrual(self) -> Cents:
        """The progressive accrual adjustment: what the room owes more (or, negative, less)
        on its progressives at the month's end than at its start."""
        return self.liability_end - self.liability_start

    def as_json(self) -> dict[str, Any]:
        return {"month": self.period.label, "records_ready_by": self.due.isoformat(),
                "records_rule": self.due_section,
                "games": [g.as_json() for g in self.games.values()],
                "total": self.total.as_json(),
                "progressive": {"liability_start_cents": self.liability_start,
                                "liability_end_cents": self.liability_end,
                                "accrual_adjustment_cents": self.accrual},
                "days": [{"gambling_day": d.day.isoformat(), "ggr_cents": d.ggr,
                          "reconciled": d.reconciled} for d in self.days]}


class LedgerFigures(NamedTuple):
    """What the ledger moved in the period's hours: the trays by play (the win), the
    commission account and the fee accounts (Pan's)."""

    win: Cents
    commission: Cents
    fees: Cents

    @property
    def ggr(self) -> Cents:
        """The three together: the receipts as the ledger has them."""
        return sum(self)


@dataclass
class PeriodReport:
    period: Period
    months: list[MonthFigures]
    ledger: LedgerFigures
    profile: str
    due: date
    due_section: str

    @property
    def games(self) -> dict[str, GameFigures]:
        out: dict[str, GameFigures] = {}
        for m in self.months:
            for game, figures in m.games.items():
                out.setdefault(game, GameFigures(game)).add(figures)
        return out

    @property
    def total(self) -> GameFigures:
        return total_of(m.total for m in self.months)

    @property
    def accrual(self) -> Cents:
        return sum(m.accrual for m in self.months)

    @property
    def activity(self) -> bool:
        return any(m.days for m in self.months)

    @property
    def differences(self) -> list[str]:
        """Each way the report does not reconcile, as a sentence (none when it does)."""
        out = []
        total = self.total
        for what, reports, books in (("the win", total.win, self.ledger.win),
                                     ("the commission", total.commission,
                                      self.ledger.commission),
                                     (f"the {registry.fees_name()}", total.fees,
                                      self.ledger.fees)):
            if reports != books:
                out.append(f"{what}: the daily reports say {format_money(reports)}, the "
                           f"ledger {format_money(books)} (a difference of "
                           f"{format_money(reports - books)})")
        for m in self.months:
            for d in m.days:
                if not d.reconciled:
                    out.append(f"the games report of {d.day.isoformat()} does not reconcile "
                               f"with the ledger at {', '.join(d.unreconciled_tables)}")
        return out

    @property
    def reconciled(self) -> bool:
        return not self.differences

    def as_json(self) -> dict[str, Any]:
        return {"report": self.period.kind, "period": self.period.label,
                "from": self.period.first.isoformat(), "to": self.period.last.isoformat(),
                "profile": self.profile, "due": self.due.isoformat(),
                "due_rule": self.due_section, "activity": self.activity,
                "months": [m.as_json() for m in self.months],
                "games": [g.as_json() for g in self.games.values()],
                "total": self.total.as_json(),
                "progressive_accrual_adjustment_cents": self.accrual,
                "ledger": {"win_cents": self.ledger.win,
                           "commission_cents": self.ledger.commission,
                           figure_key("fees"): self.ledger.fees,
                           "ggr_cents": self.ledger.ggr},
                "reconciled": self.reconciled, "differences": self.differences}


# computing them ------------------------------------------------------------------------------
def _window(clock: GamblingClock, period: Period) -> tuple[datetime, datetime]:
    return clock.bounds(period.first)[0], clock.bounds(period.last)[1]


def active_days(conn: Connection, clock: GamblingClock, period: Period) -> list[date]:
    """The gambling days of the period on which the books moved: a ledger transaction, a
    slip, a hand settled or a drop box counted (the other days' games reports are empty)."""
    start, end = _window(clock, period)
    moments: set[datetime] = set()
    for column in (TXS.c.created_at, schema.table_slips.c.created_at,
                   schema.hands.c.closed_at):
        moments.update(r[0] for r in conn.execute(
            select(column).where(column >= start, column < end).distinct()))
    days = {clock.day_of(m if m.tzinfo else m.replace(tzinfo=UTC)) for m in moments}
    days.update(r[0] for r in conn.execute(select(schema.drop_counts.c.gambling_day).where(
        schema.drop_counts.c.gambling_day >= period.first,
        schema.drop_counts.c.gambling_day <= period.last).distinct()))
    return sorted(d for d in days if period.first <= d <= period.last)


def _game_figures(conn: Connection, clock: GamblingClock, days: list[date]
                  ) -> tuple[dict[str, GameFigures], list[DailyCheck]]:
    games: dict[str, GameFigures] = {}
    checks = []
    for day in days:
        report = games_report(conn, clock, day)
        for line in report.lines:
            games.setdefault(line.game, GameFigures(line.game)).add_line(line)
        day_total = GameFigures("day")
        for line in report.lines:
            day_total.add_line(line)
        checks.append(DailyCheck(day, day_total.ggr, report.reconciled,
                                 tuple(x.table for x in report.lines if not x.reconciled)))
    return games, checks


def liability_at(conn: Connection, at: datetime) -> Cents:
    """What the room owed players on its progressives at a moment (`LIABILITY_PREFIXES`)."""
    named = ACCOUNTS.c.name
    return int(conn.execute(
        ledger.entry_rows(func.coalesce(func.sum(ENTRIES.c.amount), 0))
        .where(TXS.c.created_at < at,
               named.startswith(LIABILITY_PREFIXES[0], autoescape=True)
               | named.startswith(LIABILITY_PREFIXES[1], autoescape=True))).scalar_one())


def ledger_figures(conn: Connection, clock: GamblingClock, period: Period) -> LedgerFigures:
    """What the ledger moved in the period's hours: the win at the trays (play: every kind
    but those that move a tray's chips otherwise, `table_books.NOT_MOVED_BY_PLAY`; and the
    closing counts' variances, which the daily reports' win holds since a closer is the
    count), the commission, the Pan fees."""
    start, end = _window(clock, period)
    named = ACCOUNTS.c.name
    rows = conn.execute(
        ledger.entry_rows(named, TXS.c.kind, func.sum(ENTRIES.c.amount))
        .where(TXS.c.created_at >= start,
               TXS.c.created_at < end,
               named.startswith(ledger.TRAY_PREFIX, autoescape=True)
               | (named == ledger.HOUSE_COMMISSION)
               | named.startswith(ledger.FEES_PREFIX, autoescape=True))
        .group_by(named, TXS.c.kind))
    win = commission = fees = 0
    for name, kind, amount in rows:
        if name.startswith(ledger.TRAY_PREFIX):
            won = kind not in table_books.NOT_MOVED_BY_PLAY or kind in table_books.CLOSING_VARIANCES
            win += int(amount) if won else 0
        elif name == ledger.HOUSE_COMMISSION:
            commission += int(amount)
        else:
            fees += int(amount)
    return LedgerFigures(win, commission, fees)


def period_report(conn: Connection, clock: GamblingClock, period: Period,
                  profile: Profile | None = None) -> PeriodReport:
    """The month's records or the quarter's license report (see the module's docstring)."""
    profile = profile or profile_in_force()
    months = []
    for m in period.months():
        games, checks = _game_figures(conn, clock, active_days(conn, clock, m))
        start, end = _window(clock, m)
        due, section = m.due(profile)
        months.append(MonthFigures(m, dict(sorted(games.items())), checks,
                                   liability_at(conn, start), liability_at(conn, end), due,
                                   section))
    due, section = period.due(profile)
    return PeriodReport(period, months, ledger_figures(conn, clock, period), profile.name,
                        due, section)


def gross_receipts(conn: Connection, clock: GamblingClock, period: Period) -> tuple[Cents, bool]:
    """The period's gross gambling receipts, and whether the room had any activity in it."""
    days = active_days(conn, clock, period)
    games, _ = _game_figures(conn, clock, days)
    return total_of(games.values()).ggr, bool(days)


_CLOSED_YEARS: dict[tuple[str, int, str, str], tuple[Cents, bool]] = {}
"""The receipts of years whose books are closed, per database (the cage page asks for last
year's at every visit under the 2025 figure: a year of daily reports is computed once)."""


def closed_year_receipts(conn: Connection, clock: GamblingClock, number: int
                         ) -> tuple[Cents, bool]:
    """`gross_receipts` of a calendar year that has ended (remembered per database); a year
    not yet over is computed afresh."""
    if clock.bounds(date(number, 12, 31))[1] > datetime.now(UTC):
        return gross_receipts(conn, clock, year(number))
    key = (conn.engine.url.render_as_string(hide_password=True), number, str(clock.zone),
           clock.day_starts.isoformat())
    if key not in _CLOSED_YEARS:
        _CLOSED_YEARS[key] = gross_receipts(conn, clock, year(number))
    return _CLOSED_YEARS[key]


def report_rows(report: PeriodReport) -> list[dict[str, Any]]:
    """The report as flat CSV rows: each game per month, each month's total (game `all
    games`, with the progressive's accrual), and the period's."""
    rows = []
    blank = {"liability_start_cents": "", "liability_end_cents": "",
             "accrual_adjustment_cents": ""}
    for m in report.months:
        for g in m.games.values():
            rows.append({"period": m.period.label, **g.as_json(), **blank})
        rows.append({"period": m.period.label, **m.total.as_json(),
                     **m.as_json()["progressive"]})
    rows.append({"period": report.period.label, **report.total.as_json(), **blank,
                 "accrual_adjustment_cents": report.accrual})
    return rows


# minimum cash on hand ------------------------------------------------------------------------
COUNT_WITHIN = timedelta(hours=3)
"""WAC 230-15-050: the cash on hand is there within 3 hours of opening."""


class CashCount(NamedTuple):
    day: date
    amount: Cents
    counted_by: str
    counted_at: datetime


def cash_count(conn: Connection, day: date) -> CashCount | None:
    counts = schema.cage_cash_counts
    r = conn.execute(select(counts).where(counts.c.gambling_day == day)).first()
    if r is None:
        return None
    at = r.counted_at if r.counted_at.tzinfo else r.counted_at.replace(tzinfo=UTC)
    return CashCount(r.gambling_day, int(r.amount), r.counted_by, at)


def record_cash_count(conn: Connection, clock: GamblingClock, who: Account, amount: Cents,
                      day: date | None = None) -> CashCount:
    """The cage's count of its cash at the opening of a gambling day (today's by default),
    once a day, audited."""
    who.require(Permission.CAGE)
    form_amount(amount, "the cash counted", allow_zero=True)
    now = datetime.now(UTC)
    today = clock.day_of(now)
    day = day or today
    if day != today:
        raise CardroomError(f"the cash is counted on its own gambling day: today is "
                            f"{today.isoformat()}, not {day.isoformat()}")
    if cash_count(conn, day) is not None:
        raise CardroomError(f"the cage's cash for {day.isoformat()} is already counted")
    conn.execute(insert(schema.cage_cash_counts).values(gambling_day=day, amount=amount,
                                                 counted_by=who.username, counted_at=now))
    audit.append(conn, who.username, "cage.cash_count",
                 {"gambling_day": day.isoformat(), "amount": amount})
    return CashCount(day, amount, who.username, now)


def _banked_sessions(conn: Connection, clock: GamblingClock, day: date
                     ) -> list[tuple[int, datetime]]:
    """(table, opened at) of each house-banked table inventory open at some moment of the
    day."""
    start, end = clock.bounds(day)
    banked = banked_games()
    tables = {int(r.id) for r in conn.execute(select(schema.room_tables.c.id).where(
        schema.room_tables.c.game.in_(banked)))}
    inventory = [s for s in table_books.slips(conn, series="inventory") if s.valid]
    closed = {s.opener_id: s.created_at for s in inventory if s.kind == "closer"}
    return [(s.table_id, s.created_at) for s in inventory
            if s.kind == "opener" and s.table_id in tables and s.created_at < end
            and closed.get(s.id, end) >= start]


def largest_prize(conn: Connection, at: datetime) -> tuple[Cents, str]:
    """The largest single prize the room offers at a moment: the largest progressive meter
    (the top award a hit would pay), with the pool's name (none: 0 and "")."""
    named = ACCOUNTS.c.name
    rows = conn.execute(
        ledger.entry_rows(named, func.sum(ENTRIES.c.amount))
        .where(TXS.c.created_at < at,
               named.startswith(LIABILITY_PREFIXES[0], autoescape=True))
        .group_by(named)).all()
    if not rows:
        return 0, ""
    name, cents = max(rows, key=lambda r: (int(r[1]), r[0]))
    return int(cents), str(name).removeprefix(LIABILITY_PREFIXES[0])


@dataclass(frozen=True)
class CashOnHand:
    """The minimum cash on hand of one gambling day (WAC 230-15-050) and the cage's count."""

    day: date
    section: str
    rule: str
    """The profile's figure in force on the day, in words."""
    tables: int
    per_table: Cents
    plus_what: str
    plus: Cents
    opened_at: datetime | None
    """The first house-banked table opened on the day (None: none was open)."""
    count: CashCount | None
    checked_at: datetime

    @property
    def required(self) -> Cents:
        return self.tables * self.per_table + self.plus if self.tables else 0

    @property
    def window_ends(self) -> datetime | None:
        return None if self.opened_at is None else self.opened_at + COUNT_WITHIN

    @property
    def problems(self) -> list[str]:
        """A shortfall, or a count not made within 3 hours of opening (one sentence each)."""
        if self.window_ends is None:
            return []
        out = []
        if self.count is None:
            if self.checked_at > self.window_ends:
                out.append(f"no cash count was recorded within 3 hours of opening "
                           f"({self.section})")
        else:
            if self.count.counted_at > self.window_ends:
                out.append(f"the cash was counted more than 3 hours after opening "
                           f"({self.section})")
            if self.count.amount < self.required:
                out.append(f"the cash on hand, {format_money(self.count.amount)}, is "
                           f"{format_money(self.required - self.count.amount)} short of the "
                           f"{format_money(self.required)} required ({self.section})")
        return out

    @property
    def short(self) -> bool:
        return self.count is not None and self.count.amount < self.required

    def as_json(self) -> dict[str, Any]:
        return {"gambling_day": self.day.isoformat(), "rule": self.section,
                "figure": self.rule, "house_banked_tables": self.tables,
                "per_table_cents": self.per_table, "plus": self.plus_what,
                "plus_cents": self.plus, "required_cents": self.required,
                "opened_at": None if self.opened_at is None else self.opened_at.isoformat(),
                "count_due_by": (None if self.window_ends is None
                                 else self.window_ends.isoformat()),
                "counted_cents": None if self.count is None else self.count.amount,
                "counted_by": None if self.count is None else self.count.counted_by,
                "counted_at": (None if self.count is None
                               else self.count.counted_at.isoformat()),
                "shortfall_cents": (max(0, self.required - self.count.amount)
                                    if self.count is not None else None),
                "problems": self.problems, "ok": not self.problems}


def cash_rows(cash: CashOnHand) -> list[dict[str, Any]]:
    """The cash on hand as two more rows of the cage report's CSV."""
    counted = cash.count.amount if cash.count is not None else ""
    return [{"gambling_day": cash.day.isoformat(), "line": line, "what": what, "count": "",
             "amount_cents": amount} for line, what, amount in (
        ("cash_on_hand_required", f"cash on hand required ({cash.section})", cash.required),
        ("cash_on_hand_counted", "cash counted at opening", counted))]


def cash_on_hand(conn: Connection, clock: GamblingClock, day: date,
                 profile: Profile | None = None, now: datetime | None = None) -> CashOnHand:
    """The requirement of the profile's figure in force on `day` (a past day is judged by the
    figure of its own date), the cage's count, and what is wrong with it."""
    profile = profile or profile_in_force()
    cap = profile.cash_on_hand
    figure = cap.on(day)
    sessions = _banked_sessions(conn, clock, day)
    start, end = clock.bounds(day)
    opened = min((max(at, start) for _, at in sessions), default=None)
    count = cash_count(conn, day)
    if figure.plus == "largest-prize":
        at = count.counted_at if count is not None else min(end, (opened or start)
                                                            + COUNT_WITHIN)
        plus, pool = largest_prize(conn, at)
        what = (f"the largest single prize: the top award of {pool}" if pool
                else "the largest single prize: no progressive")
    else:
        last_year = year(day.year - 1)
        receipts, active = closed_year_receipts(conn, clock, last_year.first.year)
        assert figure.receipts_percent is not None
        if active or figure.new_room_cents is None:
            plus = -(-max(0, receipts) * figure.receipts_percent // 100)  # rounded up
            what = (f"{figure.receipts_percent}% of {last_year.label}'s gross gambling "
                    f"receipts ({format_money(receipts)})")
        else:
            plus = figure.new_room_cents
            what = f"a new room: no gambling receipts in {last_year.label}"
    return CashOnHand(day, cap.section, figure.words(), len({t for t, _ in sessions}),
                      figure.per_table_cents, what, plus, opened, count,
                      now or datetime.now(UTC))
