"""Age (issue 21; WAC 230-06-010, -011): nobody under the profile's minimum age (18 under the
state profile) is sold chips at the cage, seated at a table or paid at the cage, and a player
who only registered online sits only once the cage has seen their identity (issue 22). Judged
on the gambling day: refused the day before the eighteenth birthday, served on it. Runs on
SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

import pytest

from cardroom.room.books.cashier import buy_chips, redeem_chips, sell_chips
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.people.patrons import IdentityNeeded, UnderAge
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import SELF_SERVICE

from .cage_books import opened, refused
from .people import PW, player

BIRTHDAY = date(2026, 3, 2)
BORN = date(2008, 3, 2)
"""Eighteen on `BIRTHDAY`."""


def eighteen_years_before(day: date) -> date:
    try:
        return day.replace(year=day.year - 18)
    except ValueError:  # 29 February: eighteen on 1 March of a common year
        return date(day.year - 18, 3, 1) - timedelta(days=1)


def test_wac_230_06_010_no_chips_sold_the_day_before_the_eighteenth_birthday(
        storage: Storage) -> None:
    """WAC 230-06-010: the cage refuses to sell chips to a person under 18 on the gambling day
    before their eighteenth birthday, in one sentence, changing nothing; on the birthday the
    sale goes through and records the patron."""
    room, p, _ = opened(storage)
    with storage.unit() as conn:
        kid = player(conn, "kid", born=BORN)
    refused(room, p["cathy"], lambda c: sell_chips(
        c, p["cathy"], kid, 5_000, "s1", day=BIRTHDAY - timedelta(days=1)),
        r"^Refused: nobody under 18 may be sold chips in this room\.$", UnderAge)
    room.operate(p["cathy"], "cage.sell", lambda c: sell_chips(
        c, p["cathy"], kid, 5_000, "s1", day=BIRTHDAY))
    with storage.read() as conn:
        sale = [e for e in audit.entries(conn) if e.action == "cage.sell"][-1]
    assert sale.data["player"] == "kid" and isinstance(sale.data["patron"], int)


def test_wac_230_06_010_no_payment_to_a_person_under_18(storage: Storage) -> None:
    """WAC 230-06-010: nobody under 18 is paid at the cage (a redemption) the day before the
    birthday; on the birthday they are."""
    room, p, _ = opened(storage)
    with storage.unit() as conn:
        kid = player(conn, "kid", born=BORN)
    room.operate(p["cathy"], "cage.sell", lambda c: sell_chips(
        c, p["cathy"], kid, 5_000, "s1", day=BIRTHDAY))
    refused(room, p["cathy"], lambda c: redeem_chips(
        c, p["cathy"], kid, 5_000, "r1", day=BIRTHDAY - timedelta(days=1)),
        r"^Refused: nobody under 18 may be paid in this room\.$", UnderAge)
    room.operate(p["cathy"], "cage.redeem", lambda c: redeem_chips(
        c, p["cathy"], kid, 5_000, "r1", day=BIRTHDAY))


def test_the_cage_sells_only_to_a_player_whose_identity_it_has_seen(storage: Storage) -> None:
    """Issue 21 (a date of birth recorded at the first chip sale) and issue 22: a player with
    no patron is refused at the cage until the cashier links them to one."""
    room, p, _ = opened(storage)
    with storage.unit() as conn:
        online = create_account(conn, "nora", PW, Role.PLAYER)
    refused(room, p["cathy"], lambda c: sell_chips(c, p["cathy"], online, 5_000, "s1"),
            "the cage has not yet seen this player's identity", IdentityNeeded)


def _seat(room: Room, who_name: str, born: date | None, table: int) -> None:
    with room.storage.unit() as conn:
        if born is None:
            who = create_account(conn, who_name, PW, Role.PLAYER)
        else:
            who = player(conn, who_name, born=born)
    room.act(who, table, {"type": "sit", "buy_in": 10_000, "key": "s"})


@pytest.mark.parametrize(("days_after", "seated"), [(1, False), (0, True)])
def test_wac_230_06_010_seated_on_the_eighteenth_birthday_not_the_day_before(
        storage: Storage, days_after: int, seated: bool) -> None:
    """WAC 230-06-010: a table refuses a player who turns 18 tomorrow, in one sentence, and
    seats one who turns 18 today (the room's gambling day)."""
    room, p, t = opened(storage)
    today = room.settings.clock.day_of(datetime.now(UTC))
    born = eighteen_years_before(today) + timedelta(days=days_after)
    with storage.unit() as conn:
        kid = player(conn, "kid", born=born)
    if seated:
        room.operate(p["cathy"], "cage.sell", lambda c: sell_chips(
            c, p["cathy"], kid, 20_000, "s1", day=today))
        room.act(kid, t, {"type": "sit", "buy_in": 10_000, "key": "s"})
        assert kid.id in room.table(t).seated
    else:
        with pytest.raises(UnderAge, match=r"^Refused: nobody under 18 may be seated at a "
                                           r"table in this room\.$"):
            room.act(kid, t, {"type": "sit", "buy_in": 10_000, "key": "s"})
        assert kid.id not in room.table(t).seated


def test_an_online_player_sits_only_after_the_cage_has_seen_them(storage: Storage) -> None:
    """Issue 21: players who only registered online cannot play until the cage has seen
    their identity (a linked patron with a date of birth)."""
    room, _, t = opened(storage)
    assert t is not None
    with pytest.raises(IdentityNeeded, match="the cage has not yet seen"):
        _seat(room, "nora", None, t)


def test_a_self_service_demo_room_asks_no_identity(storage: Storage) -> None:
    """Decision (docs/compliance.md): a self-service room (demonstration or free play, no
    real money, so no gambling under RCW 9.46.0237) asks no identity at the seat."""
    room, _, t = opened(storage)
    assert t is not None
    room.settings = replace(SELF_SERVICE, clock=room.settings.clock)
    with storage.unit() as conn:
        nora = create_account(conn, "nora", PW, Role.PLAYER)
        buy_chips(conn, SELF_SERVICE, nora, 20_000, "b1")
    room.act(nora, t, {"type": "sit", "buy_in": 10_000, "key": "s"})
    assert nora.id in room.table(t).seated
