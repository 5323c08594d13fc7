"""Playing the same moves through the card room and through a bare engine (issue 20, "a
rule lives in the engine, not in the room"): a table opened for the players, each move's
refusal (a sentence, or None), and the loop that plays every move on both sides and compares
them after each one (the table's tray a whole number of its smallest chip after each one too,
issue 23). The property tests of each game (`test_room_matches_engine.py`,
`test_pan_room_matches_engine.py`) draw the moves and say how each is sent and applied."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cardroom.errors import CardroomError
from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import hands, ledger
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage.settings import SELF_SERVICE

from .rooms import playing_table

SIT = 20_000
"""Each player's buy-in at each example's table ($200)."""

Move = tuple[Any, ...]
Refusal = str | None

_keys = itertools.count()


def key() -> str:
    """A fresh idempotency key."""
    return f"k{next(_keys)}"


def open_table(made: Room, people: dict[str, Account], game: str, rules: dict[str, Any],
               players: Sequence[str] = ("alice", "bob")) -> int:
    """A new table of `game`; each of `players` buys chips and sits down, in order (seats 1,
    2, ...)."""
    t = playing_table(made, people["olivia"], f"{game} {key()}", game, rules).table_id
    for name in players:
        with made.storage.unit() as conn:
            buy_chips(conn, SELF_SERVICE, people[name], SIT, key())
        made.act(people[name], t, {"type": "sit", "buy_in": SIT, "key": key()})
    return t


def attempt(act: Callable[[], object]) -> Refusal:
    """None if the move is taken, else the sentence it is refused with."""
    try:
        act()
    except CardroomError as exc:
        return str(exc)
    return None


def room_stacks(live: Any) -> dict[int, int]:
    """The chips in front of each seat, not in play, as the room's books hold them."""
    return {live.seat_of[a]: chips for a, chips in live.stacks.items()}


def tray_in_chips(made: Room, t: int) -> bool:
    """Whether the table's tray holds a whole number of its smallest chip in the books (issue
    23: a tray holds chips, never cents; WAC 230-15-500)."""
    with made.storage.read() as conn:
        held = ledger.balance(conn, ledger.tray(t))
    return held % made.table(t).rules.smallest_chip == 0


def play(made: Room, people: dict[str, Account], t: int, bare: Any, moves: Iterable[Move],
         message: Callable[[Move, Any], tuple[str, dict[str, Any]]],
         apply: Callable[[Any, Move], object], same: Callable[[Any, Any], None],
         recorded: Callable[[Any, int], list[dict[str, Any]]] | None) -> None:
    """Each move through the room and through `bare`: the same refusal, then `same` state;
    a hand the room closes has in its record the actions `recorded(bare, start)` gives
    (`start`: how many of the bare engine's events came before the hand; None: the game's
    record is not compared here)."""
    live = made.table(t)
    start = 0
    for move in moves:
        who, msg = message(move, bare)
        hand = live.hand_id
        in_room = attempt(lambda: made.act(people[who], t, msg))  # noqa: B023
        kept = copy.deepcopy(bare)
        in_engine = attempt(lambda: apply(bare, move))  # noqa: B023
        if in_engine is not None:  # the room's transaction: a refused move changes nothing
            bare = kept
        assert in_room == in_engine, (move, in_room, in_engine)
        same(live, bare)
        assert tray_in_chips(made, t), move
        if hand is not None and live.hand_id is None and live.last is not None:
            with made.storage.read() as conn:
                record = hands.hand_record(conn, live.last.hand)
            if "actions" in record and recorded is not None:
                assert record["actions"] == recorded(bare, start), move
            start = len(bare.events)
