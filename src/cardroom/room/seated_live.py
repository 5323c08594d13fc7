"""What the house-banked tables with player decisions share (Super Pan 9, Pai Gow): numbered
seats, buy-in and leaving through the ledger, and the engine checkpoint that keeps the engine
and the books in step.

Every action is prepared inside a database transaction: the engine acts (its own verify_x
checks everything first) and the postings are written; the room's own mirrors (stacks, seats,
the last result) change only in `apply`, after the commit. If the transaction fails, `abort`
puts back the engine as it was before the action (a deep copy taken first; the shoe's order,
the rules and the random source are shared, never copied).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sqlalchemy import delete, insert
from sqlalchemy.engine import Connection

from cardroom.cards import Card, parse_card
from cardroom.errors import IllegalActionError, WagerError
from cardroom.money import Cents
from cardroom.room import audit, ledger
from cardroom.room.accounts import Account, Permission
from cardroom.room.messages import field_cents, field_key
from cardroom.room.schema import seats
from cardroom.shoe import RandomSource, SystemRandom

Apply = Callable[[], None]
E = TypeVar("E")


def card_json(card: Card | str) -> dict[str, Any]:
    """A card as the page draws it: its image code and its text."""
    c = parse_card(card) if isinstance(card, str) else card
    return {"code": c.code, "text": str(c)}


def cards_json(cards: list[str] | tuple[Card, ...] | list[Card] | None
               ) -> list[dict[str, Any]] | None:
    return None if cards is None else [card_json(c) for c in cards]


def seat_text(seat: int, username: str) -> str:
    """The `seats.seat` column of these tables: the seat number and the name ("3:alice")."""
    return f"{seat}:{username}"


@dataclass
class SeatedLive(Generic[E]):
    """Seats 1..`max_seats`, each account at one seat; `stacks` mirrors the ledger's table
    stacks (chips not in play); `engine` is the game's state machine."""

    table_id: int
    name: str
    source: RandomSource = field(default_factory=SystemRandom)
    seated: dict[int, str] = field(default_factory=dict)  # account -> username
    seat_of: dict[int, int] = field(default_factory=dict)  # account -> seat number
    stacks: dict[int, Cents] = field(default_factory=dict)  # account -> chips not in play
    hand_id: int | None = None
    hand_number: int = 0
    last: dict[str, Any] | None = None
    engine: E = field(init=False)
    _pending: E | None = None

    max_seats = 6
    game = "?"

    # what a game adds -----------------------------------------------------------------------
    def in_play(self, account_id: int) -> bool:
        """Whether this account has chips in the hand now (it may not leave)."""
        raise NotImplementedError

    def on_seat(self, account_id: int, seat: int, stack: Cents) -> None:
        """Tell the engine about a new (or restored) seat; by default nothing."""

    def on_leave(self, account_id: int, seat: int) -> None:
        """Tell the engine a seat is empty; by default nothing."""

    def shared_objects(self) -> list[object]:
        """Objects the engine checkpoint shares instead of copying (big, or not copyable)."""
        return [self.source]

    # seats ------------------------------------------------------------------------------------
    def account_at(self, seat: int) -> int | None:
        for aid, s in self.seat_of.items():
            if s == seat:
                return aid
        return None

    def restore_seat(self, account_id: int, username: str, stack: Cents) -> None:
        """After a restart: `username` is the stored seat text ("3:alice")."""
        number, _, name = username.partition(":")
        if not number.isdigit() or not name:
            raise IllegalActionError(f"unreadable seat record {username!r} at {self.name}")
        seat = int(number)
        self.seated[account_id] = name
        self.seat_of[account_id] = seat
        self.stacks[account_id] = stack
        self.on_seat(account_id, seat, stack)

    def sit(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        who.require(Permission.PLAY)
        buy_in, key = field_cents(msg, "buy_in", "the buy-in"), field_key(msg)
        if who.id in self.seated:
            raise IllegalActionError("you are already seated at this table")
        free = [s for s in range(1, self.max_seats + 1) if self.account_at(s) is None]
        if not free:
            raise IllegalActionError(f"the table is full ({self.max_seats} seats)")
        if buy_in <= 0:
            raise WagerError("a buy-in must be more than nothing")
        seat = free[0]
        posted = ledger.post(conn, f"sit:{self.table_id}:{who.id}:{key}", "buy-in",
                             [(ledger.wallet(who.id), -buy_in),
                              (ledger.stack(self.table_id, who.id), buy_in)],
                             actor=who.username, memo=f"sit at {self.name}")
        if posted.replayed:
            return lambda: None
        conn.execute(insert(seats).values(table_id=self.table_id, account_id=who.id,
                                          seat=seat_text(seat, who.username)))
        audit.append(conn, who.username, "table.sit", {"table": self.table_id, "seat": seat,
                                                       "buy_in": buy_in})

        def apply() -> None:
            self.restore_seat(who.id, seat_text(seat, who.username), buy_in)
        return apply

    def leave(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        if who.id not in self.seated:
            raise IllegalActionError("you are not seated at this table")
        if self.in_play(who.id):
            raise IllegalActionError("you have chips in play: wait for the hand to settle")
        amount = self.stacks[who.id]
        key = f"leave:{self.table_id}:{who.id}:{field_key(msg)}"
        if amount:
            ledger.post(conn, key, "leave", [(ledger.stack(self.table_id, who.id), -amount),
                                             (ledger.wallet(who.id), amount)],
                        actor=who.username, memo=f"leave {self.name}")
        conn.execute(delete(seats).where(seats.c.table_id == self.table_id,
                                         seats.c.account_id == who.id))
        audit.append(conn, who.username, "table.leave", {"table": self.table_id,
                                                         "cashed": amount})
        seat = self.seat_of[who.id]

        def apply() -> None:
            self.on_leave(who.id, seat)
            for d in (self.seated, self.seat_of, self.stacks):
                d.pop(who.id, None)
        return apply

    def require_seated(self, who: Account) -> int:
        if who.id not in self.seated:
            raise IllegalActionError("you are not seated at this table")
        return self.seat_of[who.id]

    # the engine checkpoint -----------------------------------------------------------------------
    def checkpoint(self) -> E:
        memo = {id(o): o for o in self.shared_objects()}
        return copy.deepcopy(self.engine, memo)

    def prepared(self, mark: E, after: Apply) -> Apply:
        """The engine has acted for a transaction not yet committed: keep `mark` until then."""
        self._pending = mark

        def apply() -> None:
            self._pending = None
            after()
        return apply

    def abort(self) -> None:
        """The transaction of a prepared action failed: put the engine back as it was."""
        if self._pending is not None:
            self.engine = self._pending
            self._pending = None

    def common_view(self, viewer: Account | None) -> dict[str, Any]:
        return {
            "type": "state", "game": self.game,
            "table": {"id": self.table_id, "name": self.name},
            "hand": {"id": self.hand_id, "open": self.hand_id is not None,
                     "number": self.hand_number},
            "you": {"seated": viewer is not None and viewer.id in self.seated,
                    "seat": self.seat_of.get(viewer.id) if viewer is not None else None,
                    "may_deal": viewer is not None and viewer.may(Permission.DEAL),
                    "may_void": viewer is not None and viewer.may(Permission.VOID)},
            "last": self.last,
        }
