"""Issue 23, "Figures to reach": every staff page (`staff_pages.STAFF_PAGES`: the floor, the
inventories, the jackpot controller, surveillance, signatures, the cage, the reports, the
reports to the regulator, self-exclusion, the audit, the staff, every hand and a hand's
recall, the compliance pages), on a room with a day's books, opened by the member of staff
whose page it is: no page scrolls sideways at a 375-pixel phone, none logs a console error.
Screenshots of both widths go to $CARDROOM_SCREENSHOTS when it is set (`scripts/screenshots
staff` writes them to docs/screenshots)."""

from __future__ import annotations

import os
from pathlib import Path

from room.people import IDENTITY_KEY

from cardroom.room.storage.settings import RoomSettings

from .room_flows import browser_at, phone_width, seeded_room
from .staff_pages import STAFF_PAGES, cast_day, staff_pages


def test_no_staff_page_scrolls_sideways_at_375(tmp_path: Path) -> None:
    shots = os.environ.get("CARDROOM_SCREENSHOTS")
    rooms = seeded_room(tmp_path, 5, RoomSettings(), IDENTITY_KEY)
    room = next(rooms)
    numbers = cast_day(room)
    wide: dict[str, int] = {}
    errors: dict[str, list[str]] = {}
    seen = []
    with browser_at(room) as (base, browser):
        for name, page in staff_pages(browser, base, numbers, errors):
            seen.append(name)
            width = phone_width(page, f"staff-{name}", Path(shots) if shots else None)
            if width > 375:
                wide[name] = width
    next(rooms, None)
    assert seen == [name for name, _, _ in STAFF_PAGES]
    assert wide == {}, f"pages wider than a 375-pixel phone: {wide}"
    assert errors == {}
