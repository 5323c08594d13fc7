"""The house's settings for running the room: whether players may sell themselves chips, and
the clock the books are kept by (the gambling day and its shifts).

The gambling day and the shifts are the room's, not UTC's: a card room's day runs from a fixed
hour in its own time zone to the same hour the next morning (by default 06:00 to 06:00,
Pacific time, for a Washington room), and the day has three eight-hour shifts starting at that
hour (day, swing, graveyard). They are read from the environment (`CARDROOM_TIMEZONE`,
`CARDROOM_DAY_STARTS`), so the server, every report command, the jackpot meters and the audit
filter keep the same day; the pages show times in the same zone (`room/storage/timezone.py`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cardroom.errors import CardroomError

TIMEZONE_ENV = "CARDROOM_TIMEZONE"
DAY_STARTS_ENV = "CARDROOM_DAY_STARTS"
DEFAULT_TIMEZONE = "America/Los_Angeles"
DEFAULT_DAY_STARTS = time(6, 0)
SHIFTS = ("day", "swing", "graveyard")
"""The three shifts of a gambling day, eight hours each, the first starting with the day."""
SHIFT_HOURS = 8


@dataclass(frozen=True)
class GamblingClock:
    """When a gambling day (and each of its shifts) begins and ends."""

    zone: ZoneInfo = field(default_factory=lambda: ZoneInfo(DEFAULT_TIMEZONE))
    day_starts: time = DEFAULT_DAY_STARTS

    @classmethod
    def from_env(cls) -> GamblingClock:
        name = os.environ.get(TIMEZONE_ENV, DEFAULT_TIMEZONE)
        try:
            zone = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise CardroomError(f"{TIMEZONE_ENV}={name!r} is not a time zone the system "
                                "knows (e.g. America/Los_Angeles)") from None
        starts = os.environ.get(DAY_STARTS_ENV)
        if not starts:
            return cls(zone)
        try:
            return cls(zone, time.fromisoformat(starts))
        except ValueError:
            raise CardroomError(f"{DAY_STARTS_ENV}={starts!r} is not a time of day such as "
                                "06:00") from None

    def day_of(self, at: datetime) -> date:
        """The gambling day a moment belongs to."""
        local = _aware(at).astimezone(self.zone)
        start = datetime.combine(local.date(), self.day_starts, self.zone)
        return local.date() if local >= start else local.date() - timedelta(days=1)

    def bounds(self, day: date) -> tuple[datetime, datetime]:
        """The gambling day's first moment and the next day's, in UTC."""
        start = datetime.combine(day, self.day_starts, self.zone)
        end = datetime.combine(day + timedelta(days=1), self.day_starts, self.zone)
        return start.astimezone(UTC), end.astimezone(UTC)

    def shift_bounds(self, day: date, shift: str) -> tuple[datetime, datetime]:
        """A shift's first moment and the next shift's (the last ends with the day), in UTC."""
        start, end = self.bounds(day)
        i = SHIFTS.index(shift)
        first = start + timedelta(hours=SHIFT_HOURS * i)
        return first, end if i == len(SHIFTS) - 1 else start + timedelta(
            hours=SHIFT_HOURS * (i + 1))

    def shift_of(self, at: datetime) -> str:
        """The shift a moment belongs to (by the hours since its gambling day began)."""
        start, _ = self.bounds(self.day_of(at))
        hours = (_aware(at) - start).total_seconds() / 3600
        return SHIFTS[min(int(hours // SHIFT_HOURS), len(SHIFTS) - 1)]


def _aware(at: datetime) -> datetime:
    """A stored moment (SQLite returns them naive, in UTC) with its time zone."""
    return at if at.tzinfo else at.replace(tzinfo=UTC)


@dataclass(frozen=True)
class RoomSettings:
    """`self_service_chips`: players buy and cash out their own chips on the cashier page
    (for demonstration and free-play rooms only; off by default: a real room's players buy
    chips from the cage or at a table). Set with `cardroom serve --self-service-chips`."""

    self_service_chips: bool = False
    clock: GamblingClock = field(default_factory=lambda: GamblingClock.from_env())


SELF_SERVICE = RoomSettings(self_service_chips=True)
"""A demonstration room: players sell themselves chips."""
