"""The room's time zone: every time a page shows a person (hand history, audit, floor) is in
it, to the second.

Setting: `CARDROOM_TIME_ZONE`, an IANA zone name ("America/Los_Angeles" for a Washington
room); unset, the server's own local zone. Times are stored in UTC; only what is shown is
converted. A name the system does not know is refused when the room starts, not at the first
page."""

from __future__ import annotations

import os
from datetime import UTC, datetime, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cardroom.errors import CardroomError

ENV_TIME_ZONE = "CARDROOM_TIME_ZONE"


@cache
def _zone(name: str) -> tzinfo:
    if not name:
        local = datetime.now(UTC).astimezone().tzinfo
        assert local is not None
        return local
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise CardroomError(f"{ENV_TIME_ZONE}={name!r} is not a time zone this system knows "
                            "(write it as, for example, America/Los_Angeles)") from None


def room_zone() -> tzinfo:
    """The room's time zone (`CARDROOM_TIME_ZONE`, else the server's local zone)."""
    return _zone(os.environ.get(ENV_TIME_ZONE, "").strip())


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
