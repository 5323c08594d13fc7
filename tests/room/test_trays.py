"""Issue 23, "Books that must not lie": a table's tray holds chips, never cents. Chips enter or
leave a tray only to pay and collect wagers, for players' cash, or by fill and credit, at equal
value (WAC 230-15-500), and the tray is counted into the opener and the closer (-495, -535):
every amount that moves through it is a whole number of the table's smallest chip (its house
rules, `smallest_chip_cents`; docs/house-rules.md). Wagers are placed in that chip, commission
is rounded down to it (never above the posted rate, the rest waived), and the progressive's
contribution goes from the house straight to the pool, never through the tray. The tray of
random hands of every banked game stays whole after each move: `matching.play`, the property
tests of `test_room_matches_engine.py`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cardroom.errors import CardroomError
from cardroom.room.books import table_books
from cardroom.room.money import ledger
from cardroom.room.storage.db import Storage

from .cage_books import opened, refused
from .rooms import make_room, open_for_play, progressive_coup, unexplained_today

QUARTERS = "this table's \\$0\\.25 chips"


@pytest.mark.parametrize(("what", "work", "match"), [
    ("fill", lambda c, t, p: table_books.fill(c, t, p["cathy"], p["dan"], p["fiona"], 1_037),
     f"a fill of \\$10\\.37 is not a whole number of {QUARTERS}: make it \\$10\\.25 or "
     "\\$10\\.50"),
    ("credit", lambda c, t, p: table_books.credit(c, t, p["cathy"], p["dan"], p["fiona"], 10),
     f"a credit of \\$0\\.10 is not a whole number of {QUARTERS}: make it \\$0\\.25"),
    ("closer", lambda c, t, p: table_books.close_table(c, t, p["dan"], p["fiona"], 499_999),
     f"the closing count of \\$4,999\\.99 is not a whole number of {QUARTERS}"),
    ("drop", lambda c, t, p: table_books.drop_buy_in(c, p["dan"], t, p["alice"], 2_005, "d1"),
     f"a buy-in of chips of \\$20\\.05 is not a whole number of {QUARTERS}"),
])
def test_wac_230_15_500_no_slip_count_or_drop_moves_part_of_a_chip(
        storage: Storage, what: str, work: Any, match: str) -> None:
    """WAC 230-15-500 (chips enter or leave the tray at equal value), -510 to -535 (fills,
    credits, the closer): an amount that no chips of the table's smallest one make (a quarter,
    the default) is refused in one sentence, changing nothing."""
    room, p, t = opened(storage)
    refused(room, p["fiona"], lambda c: work(c, t, p), match)


def test_wac_230_15_495_an_opening_count_is_in_the_table_chips(storage: Storage) -> None:
    """WAC 230-15-495: the opener records the tray as counted, so in its chips ($1 here)."""
    room, p, t = make_room(storage, "baccarat", seed=7, table="Mini 1",
                           rules={"smallest_chip_cents": 100}, opened=False)
    assert t is not None
    with pytest.raises(CardroomError, match="the opening count of \\$250\\.50 is not a whole "
                                            "number of this table's \\$1\\.00 chips"):
        room.operate(p["fiona"], "table.open", lambda c: table_books.open_table(
            c, t, p["olivia"], p["fiona"], 25_050))


@pytest.mark.parametrize(("game", "rules", "bet", "sentence"), [
    ("baccarat", {"smallest_chip_cents": 100}, {"type": "bet", "bets": {"banker": 1_037}},
     "refused: the Banker wager of $10.37 is not a whole number of this table's $1.00 chips: "
     "make it $10.00 or $11.00"),
    ("super-pan-9", {"smallest_chip_cents": 100},
     {"type": "bet", "bets": {"wager": 1_000, "tie": 150}},
     "a tie bet of $1.50 is not a whole number of this table's $1.00 chips: make it $1.00 or "
     "$2.00"),
    ("pai-gow", {}, {"type": "bet", "bets": {"wager": 1_010}},
     "a wager of $10.10 is not a whole number of this table's $0.25 chips: make it $10.00 or "
     "$10.25"),
])
def test_wagers_are_placed_in_the_table_chips(storage: Storage, game: str,
                                              rules: dict[str, Any], bet: dict[str, Any],
                                              sentence: str) -> None:
    """A wager is chips from the player's stack into play and, lost, into the tray: one that
    no number of the table's smallest chip makes is refused in one plain sentence (issue 23:
    "a bet of $10.37 at a $1-chip table is refused")."""
    room, p, t = make_room(storage, game, seed=3, table="T", rules=rules)
    assert t is not None
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    with storage.read() as conn:
        before = ledger.balances(conn)
    with pytest.raises(CardroomError) as info:
        room.act(p["alice"], t, {**bet, "key": "b"})
    assert str(info.value) == sentence
    with storage.read() as conn:
        assert ledger.balances(conn) == before


def test_the_progressive_contribution_goes_from_the_house_not_through_the_tray(
        storage: Storage) -> None:
    """Super-9: "For every 1$ dropped the house will add a minimum of .20 cents": each $1
    jackpot wager is a whole chip in the tray (it loses "for 1" unless an award hits), and the
    20 cents the house adds go from `house:bank` to the pool's meter, so the tray holds what a
    count finds. Two players on Player ($5) and the jackpot ($1): by hand, the house adds 2 x
    20 cents = 40 cents, and the tray takes or pays whole chips only. The day reconciles."""
    room, p, t = make_room(storage, "baccarat", seed=7, table="Mini 1")
    assert t is not None
    open_for_play(room, t)
    with storage.read() as conn:
        bank, meter = (ledger.balance(conn, ledger.HOUSE_BANK),
                       ledger.balance(conn, ledger.jackpot("super9")))
    progressive_coup(room, p, t)
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.HOUSE_BANK) == bank - 40
        assert ledger.balance(conn, ledger.jackpot("super9")) == meter + 40
        tray = table_books.tray_movements(conn, t, datetime(2000, 1, 1, tzinfo=UTC),
                                          datetime.now(UTC) + timedelta(days=1))
    assert "jackpot-contribution" not in tray
    assert all(v % 25 == 0 for v in tray.values())
    assert unexplained_today(room) == []


FIVE_DOLLAR_TABLES = {
    "baccarat": {"smallest_chip_cents": 500, "table_min_cents": 1_000, "tie_min_cents": 500,
                 "bonus_min_cents": 500, "jackpot": False},
    "super-pan-9": {"smallest_chip_cents": 500, "min_wager_cents": 1_000,
                    "tie_min_cents": 500},
    "pai-gow": {"smallest_chip_cents": 500, "min_wager_cents": 1_000},
}
"""A table whose smallest chip is $5, every limit a whole number of it, per banked game."""


@pytest.mark.parametrize(("game", "rules"), FIVE_DOLLAR_TABLES.items())
def test_the_snapshot_tells_viewers_the_table_chip(storage: Storage, game: str,
                                                   rules: dict[str, Any]) -> None:
    """Wagers are placed in the table's smallest chip (WAC 230-15-500: chips at equal value),
    so the table tells whoever watches it which chip that is (`limits.smallest_chip`): the
    page builds its chip rack from it, a $5 table offering no $1 chip it would refuse."""
    room, p, t = make_room(storage, game, seed=7, table="Five", rules=rules)
    assert t is not None
    for viewer in (p["alice"], None):
        assert room.table(t).snapshot(viewer)["limits"]["smallest_chip"] == 500
