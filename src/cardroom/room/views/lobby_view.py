"""What the lobby shows of every table, for a player choosing one: its state (open for play,
closed, or awaiting its opener: no house-banked table plays before its opener is signed, WAC
230-15-495), its limits, the seats free of its seats, and the least buy-in that can play."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cardroom.money import Cents
from cardroom.room.play.live_table import LiveTable
from cardroom.room.play.posted_rules import limits_line
from cardroom.room.play.tables import TableRow, parse_rules

State = Literal["open", "closed", "awaiting its opener"]
STATE_WORDS: dict[State, str] = {"open": "Open for play", "closed": "Closed",
                                 "awaiting its opener": "Not opened yet"}
"""A state as a player reads it (an "opener" is the staff's word for the signed slip)."""


@dataclass(frozen=True)
class LobbyTable:
    id: int
    name: str
    game: str
    state: State
    limits: str
    """The first line of its posted limits ("Player and Banker: $5.00 to $300.00.")."""
    least_buy_in: Cents
    seats: int
    free: int
    """Seats free now (0 for a table that is not open)."""

    @property
    def joinable(self) -> bool:
        return self.state == "open"

    @property
    def state_words(self) -> str:
        return STATE_WORDS[self.state]


Seating = tuple[int, int] | None
"""A table's seats and how many are taken; None: the table is not built (taken out of the
registry, or not open)."""


def seating(live: LiveTable[Any, Any, Any] | None) -> Seating:
    """The seating of the room's live table (None when not built)."""
    if live is None:
        return None
    return live.max_seats, live.max_seats - len(live.free_seats())


def state_of(seats: Seating, closed: bool, ever_closed: bool) -> State:
    """A table not built, or one whose inventory was closed, is closed; a table that never
    had its opener signed awaits it."""
    if seats is None or (closed and ever_closed):
        return "closed"
    return "awaiting its opener" if closed else "open"


def lobby_table(row: TableRow, seats: Seating, state: State) -> LobbyTable:
    """One table's line in the lobby (`seats`: its seating, as the process that holds it
    knows it or as the books say)."""
    limits = limits_line(row)
    least = parse_rules(row.game, row.rules).least_buy_in
    total, taken = seats or (0, 0)
    free = total - taken if state == "open" else 0
    return LobbyTable(row.id, row.name, row.game, state, limits, least, total, free)
