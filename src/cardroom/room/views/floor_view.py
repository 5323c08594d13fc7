"""The floor's pit screen (issue 23, "Pages for a shift, not forms"): one card per table with
what a floor supervisor watches: its state (open, closed, awaiting its opener), limits, dealer,
who sits where and the seats free, the hand in play (who is to act and for how long), its books
over the shift so far (drop, fills, credits, win), the second signatures and surveillance
verifications it waits for, and which floor actions apply now.

`gather` reads the books and the live tables (the only I/O); `pit_card` is a pure function of
what was read, so what the page shows is tested without a server. The page polls the cards
(`/floor/pit`, `/floor/tables.json`) and redraws them; nothing here names a card in a hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from cardroom import registry
from cardroom.money import format_money
from cardroom.room.books import table_books
from cardroom.room.books.table_books import SoFar
from cardroom.room.compliance import surveillance
from cardroom.room.compliance.surveillance import Held
from cardroom.room.money.hands import hand_title
from cardroom.room.people import approvals
from cardroom.room.people.approvals import Approval
from cardroom.room.play.posted_rules import limits_line
from cardroom.room.play.protocol_state import HandResult, VoidedHand
from cardroom.room.play.tables import TableRow, banked_games
from cardroom.room.storage.settings import GamblingClock

IRREGULARITIES = {"misdeal": "Misdeal", "exposed-card": "Exposed card",
                  "wrong-card-count": "Wrong card count"}
"""What the floor may record at a table whose game takes `{"type": "irregularity", ...}`
(its live table's `floor_irregularities`), by the protocol's `kind`."""
STATES = {"open": "Open", "closed": "Closed", "awaiting-opener": "Awaiting its opener"}
"""A table's state on the pit screen, and its words."""


@dataclass(frozen=True)
class LastSaid:
    """A table's last hand as the process of the room that holds the table put it in words
    (`live_json`)."""

    hand: int
    words: str


def last_result(last: HandResult | VoidedHand | LastSaid | None) -> str:
    """The table's last hand in a few plain words."""
    if last is None:
        return ""
    if isinstance(last, LastSaid):
        return last.words
    title = hand_title(last.hand, last.number)
    if isinstance(last, VoidedHand):
        return f"{title} voided by {last.by}: {last.reason}"
    words = last.outcome_words()
    return f"{title}: {words}" if words else f"{title} settled"


def live_class(game: str) -> Any:
    """The game's live table class (the registry's `live`)."""
    return registry.load(registry.game(game).live)


# what the room knows of a table now ---------------------------------------------------------
@dataclass(frozen=True)
class Seat:
    number: int
    name: str
    house: bool = False
    """A house player (Pan's proposition players, docs/compliance.md)."""
    away: bool = False
    """Sitting out after missed turns."""


@dataclass(frozen=True)
class Live:
    """What a live table says of itself now (`live_facts`)."""

    seats: tuple[Seat, ...]
    max_seats: int
    hand_id: int | None
    hand_number: int | None
    to_act: str | None
    """The player whose timed decision the hand waits for."""
    seconds_left: int | None
    dealt_by: str
    last: HandResult | VoidedHand | LastSaid | None
    irregularities: bool
    """Whether the floor's irregularity buttons apply (the game's protocol takes them)."""


def live_json(live: Live) -> dict[str, Any]:
    """`Live` as JSON, for the pit screens of the room's other processes (issue 25: each
    table is live at the one process that holds it); its last hand in words."""
    return {"seats": [[s.number, s.name, s.house, s.away] for s in live.seats],
            "max_seats": live.max_seats, "hand_id": live.hand_id,
            "hand_number": live.hand_number, "to_act": live.to_act,
            "seconds_left": live.seconds_left, "dealt_by": live.dealt_by,
            "last": None if live.last is None else [live.last.hand, last_result(live.last)],
            "irregularities": live.irregularities}


def live_of_json(d: dict[str, Any]) -> Live:
    """`live_json` read back (`KeyError`, `TypeError` or `ValueError` when it is not)."""
    last = d["last"]
    return Live(tuple(Seat(int(n), str(name), bool(house), bool(away))
                      for n, name, house, away in d["seats"]),
                int(d["max_seats"]), _maybe_int(d["hand_id"]), _maybe_int(d["hand_number"]),
                None if d["to_act"] is None else str(d["to_act"]),
                _maybe_int(d["seconds_left"]), str(d["dealt_by"]),
                None if last is None else LastSaid(int(last[0]), str(last[1])),
                bool(d["irregularities"]))


def _maybe_int(v: object) -> int | None:
    return None if v is None else int(str(v))


NOT_LIVE = Live((), 0, None, None, None, None, "", None, False)
"""What a table that is not live shows: no seats, no hand, nothing to act on."""


def game_parts(game: str, live: Any) -> tuple[bool, dict[int, str]]:
    """What differs by game on the pit screen: whether the table takes the floor's
    irregularities (its live table's `floor_irregularities`), and the seats of its house
    players (an engine's `bots`: seat -> name)."""
    bots = getattr(getattr(live, "engine", None), "bots", None) or {}
    return (bool(live_class(game).floor_irregularities),
            {int(s): str(n) for s, n in dict(bots).items()})


def live_facts(game: str, live: Any) -> Live:
    """A live table (`room.tables`) read into `Live`."""
    irregular, house = game_parts(game, live)
    seats = [Seat(live.seat_of[a], name, away=a in live.away)
             for a, name in live.seated.items()]
    seats += [Seat(s, name, house=True) for s, name in house.items()]
    turn = live.turn
    hand = live.hand_id
    return Live(tuple(sorted(seats, key=lambda s: s.number)), live.max_seats, hand,
                live.hand_number if hand else None,
                live.seated.get(turn.account) if turn is not None else None,
                live.seconds_left(), live.dealt_by, live.last, irregular)


@dataclass(frozen=True)
class TableFacts:
    """Everything the pit screen shows of one table, as read (`gather`)."""

    row: TableRow
    live: Live | None
    """None: the table is not live (its registry row is closed)."""
    opener: table_books.Slip | None
    """The opener of its open table inventory."""
    closed: bool
    """It may not play now (`table_books.closed_tables`)."""
    ever_inventoried: bool
    banked: bool
    """The house banks its game: it keeps a tray, an inventory and the books below."""
    books: SoFar
    approvals: tuple[Approval, ...]
    held: tuple[Held, ...]
    limits: str


def gather(conn: Connection, live_tables: Mapping[int, Any], clock: GamblingClock,
           now: datetime, rows: list[TableRow], elsewhere: Mapping[int, Live] | None = None
           ) -> list[TableFacts]:
    """Read every table's facts: its books over the shift so far (`table_books.so_far`, from
    the shift's first moment to `now`), the signatures asked for it and its payouts held
    for surveillance; `elsewhere`: what the other processes of the room said of the live
    tables they hold (issue 25)."""
    start, _ = clock.shift_bounds(clock.day_of(now), clock.shift_of(now))
    closed = table_books.closed_tables(conn)
    banked = banked_games()
    asked = approvals.pending(conn, now)
    held = surveillance.waiting(conn)
    out = []
    for row in rows:
        live = live_tables.get(row.id)
        limits = limits_line(row)
        out.append(TableFacts(
            row, (elsewhere or {}).get(row.id) if live is None else live_facts(row.game, live),
            table_books.current_opener(conn, row.id), row.id in closed,
            table_books.last_closer(conn, row.id) is not None, row.game in banked,
            table_books.so_far(conn, row.id, start, now),
            tuple(a for a in asked if a.payload.get("table") == row.id),
            tuple(h for h in held if h.table_id == row.id), limits))
    return out


# what the page shows --------------------------------------------------------------------------
@dataclass(frozen=True)
class PitCard:
    """One table's card on the pit screen."""

    id: int
    name: str
    game: str
    state: str
    """A key of `STATES`."""
    state_note: str
    open_since: datetime | None
    limits: str
    dealer: str
    seats: tuple[Seat, ...]
    max_seats: int | None
    free: tuple[int, ...]
    hand: int | None
    hand_title: str | None
    to_act: str | None
    seconds_left: int | None
    last: str
    last_hand: int | None
    books: SoFar | None
    """None at a table the house does not bank (no tray: Pan's revenue is its fees)."""
    waiting: tuple[str, ...]
    """Second signatures asked for this table, in words."""
    verifications: tuple[str, ...]
    """Payouts held for surveillance at this table, in words."""
    irregularities: bool
    may_open: bool
    may_close: bool
    may_move_chips: bool
    """A fill or a credit applies (its table inventory is open)."""

    @property
    def state_words(self) -> str:
        return STATES[self.state]

    @property
    def free_words(self) -> str:
        """The free seats by number, runs shortened: "2, 4 to 7"."""
        runs: list[list[int]] = []
        for n in self.free:
            if runs and runs[-1][-1] == n - 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        return ", ".join(str(r[0]) if len(r) == 1 else
                         f"{r[0]} and {r[1]}" if len(r) == 2 else f"{r[0]} to {r[-1]}"
                         for r in runs)

    @property
    def players(self) -> int:
        return len(self.seats)

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "game": self.game, "state": self.state,
                "state_words": self.state_words, "state_note": self.state_note,
                "open": self.state == "open", "limits": self.limits, "dealer": self.dealer,
                "players": self.players, "seats": self.max_seats,
                "seated": [{"seat": s.number, "name": s.name, "house": s.house,
                            "away": s.away} for s in self.seats],
                "free": list(self.free), "hand": self.hand,
                "hand_title": self.hand_title, "to_act": self.to_act,
                "seconds_left": self.seconds_left, "last": self.last,
                "last_hand": self.last_hand,
                "books": None if self.books is None else {
                    "drop": self.books.drop, "fills": self.books.fills,
                    "credits": self.books.credits, "win": self.books.win},
                "waiting": list(self.waiting), "verifications": list(self.verifications),
                "irregularities": self.irregularities}


def _state(f: TableFacts) -> tuple[str, str]:
    """The table's state and a note saying why: open (on its opener, or a table the house
    does not bank, which keeps no inventory), awaiting an opener (never opened, or one
    asked and waiting for its signature), or closed."""
    if f.live is None:
        return "closed", "taken off the floor"
    if f.opener is not None:
        return "open", f"opener number {f.opener.number}"
    if not f.banked and not f.closed:
        return "open", "player-dealt: no tray to count"
    asked = [a for a in f.approvals if a.kind == "open"]
    if asked:
        names = " and ".join(s.username for s in asked[0].waiting_on())
        return "awaiting-opener", f"the opener waits for {names}'s signature"
    if not f.ever_inventoried:
        return "awaiting-opener", "never opened: count its tray on an opener"
    return "closed", "its closer is signed"


def _waiting(a: Approval) -> str:
    names = " and ".join(s.username for s in a.waiting_on())
    return f"{a.summary} (asked by {a.asked_by}; waiting for {names})"


def _held(h: Held) -> str:
    return (f"{h.winner}'s payout of {format_money(h.payout.returned)} (hand {h.hand_id}) "
            "waits for surveillance")


def pit_card(f: TableFacts) -> PitCard:
    """What the pit screen shows of one table (see the module's docstring)."""
    state, note = _state(f)
    live = f.live or NOT_LIVE
    taken = {s.number for s in live.seats}
    hand, last = live.hand_id, live.last
    return PitCard(
        id=f.row.id, name=f.row.name, game=registry.title(f.row.game), state=state,
        state_note=note, open_since=f.opener.created_at if f.opener is not None else None,
        limits=f.limits, dealer=(f.opener.dealer if f.opener is not None else None)
        or live.dealt_by, seats=live.seats,
        max_seats=None if f.live is None else live.max_seats,
        free=tuple(n for n in range(1, live.max_seats + 1) if n not in taken), hand=hand,
        hand_title=hand_title(hand, live.hand_number) if hand else None,
        to_act=live.to_act, seconds_left=live.seconds_left,
        last=last_result(last), last_hand=last.hand if last is not None else None,
        books=f.books if f.banked else None, waiting=tuple(_waiting(a) for a in f.approvals),
        verifications=tuple(_held(h) for h in f.held),
        irregularities=live.irregularities,
        may_open=state != "open" and f.live is not None and not any(
            a.kind == "open" for a in f.approvals),
        may_close=f.opener is not None and hand is None,
        may_move_chips=f.opener is not None)
