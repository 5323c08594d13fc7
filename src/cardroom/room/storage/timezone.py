"""The room's time zone: every time a page shows a person (hand history, audit, floor) is in
it, to the second.

The zone is the gambling clock's (`CARDROOM_TIMEZONE`, an IANA zone name, by default
America/Los_Angeles: `room/storage/settings.py`), so a time shown on a page falls in the gambling
day the
reports count it in. Times are stored in UTC; only what is shown is converted. A name the
system does not know is refused when the room starts, not at the first page."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo

from cardroom.room.storage.settings import GamblingClock


def room_zone() -> tzinfo:
    """The room's time zone: the gambling clock's."""
    return GamblingClock.from_env().zone


def room_time(moment: datetime | str | None) -> str:
    """A stored moment (a datetime, or ISO text; naive means UTC) as the room shows it:
    "2026-03-01 14:05:09 PST". Empty for none."""
    if moment is None or moment == "":
        return ""
    at = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    local = at.astimezone(room_zone())
    return local.strftime("%Y-%m-%d %H:%M:%S ") + (local.tzname() or "")


def zone_name() -> str:
    """The zone as the pages name it: its IANA name, or the server's abbreviation."""
    zone = room_zone()
    return getattr(zone, "key", None) or datetime.now(zone).tzname() or "local time"
