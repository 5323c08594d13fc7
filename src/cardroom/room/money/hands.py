"""Hand records: open a hand when its first wager goes down, keep its wagers, close it settled
(with its history) or voided (wagers returned, who and why logged).

A closed hand's record is its history in the shared format (`cardroom.history`), with the
room's fields beside it (`status`; a void's `voided_by` and `reason`). While a hand is open
its row keeps the wagers down (`wagers`), so a void or a restart can return them."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Literal, NamedTuple

from sqlalchemy import (
    BigInteger,
    DateTime,
    Integer,
    bindparam,
    cast,
    func,
    insert,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection

from cardroom import registry
from cardroom.history import VOID, HandHistory
from cardroom.money import Cents
from cardroom.room.money import ledger
from cardroom.room.storage import audit
from cardroom.room.storage.errors import NotFound
from cardroom.room.storage.pipeline import ahead, deferred, on_driver
from cardroom.room.storage.schema import (
    accounts,
    hand_players,
    hands,
    room_tables,
    seats,
    table_slips,
)
from cardroom.room.storage.settings import GamblingClock
from cardroom.room.storage.upsert import insert_new


def hand_title(hand_id: int, number: int | None = None) -> str:
    """A hand as people read it (issue 20: one number per hand, the same everywhere): its
    number in the room, the one in `/hands/<id>`, the audit log and the books; beside it,
    labelled, the table's own count (`number`). The table pages write the same words
    (`handTitle`, static/table-client.js).

    >>> hand_title(27, 15)
    "Hand 27 (table's hand 15)"
    """
    return f"Hand {hand_id}" + (f" (table's hand {number})" if number else "")


_NEW_RECORD = json.dumps({"status": "open", "wagers": {}})
"""An open hand's working record as it starts."""
_OPEN_HAND = insert(hands).from_select(
    ["table_id", "number", "status", "opened_at", "history"],
    select(bindparam("table", type_=Integer),
           func.coalesce(func.max(hands.c.number), 0) + 1,
           literal("open"), bindparam("at", type_=DateTime(timezone=True)),
           literal(_NEW_RECORD))
    .where(hands.c.table_id == bindparam("table"))).returning(hands.c.id, hands.c.number)
"""A hand's record, numbered after the table's last: one statement (one round trip)."""


NextHand = tuple[int, int]
"""A hand's id and its number at its table (issue 20)."""
_INSERT_HAND = deferred(text(
    "INSERT INTO hands (id, table_id, number, status, opened_at, history) "
    "VALUES (:id, :table, :number, 'open', :at, :history)"))


_NEXT_HAND = select(func.nextval(func.pg_get_serial_sequence("hands", "id")),
                    func.coalesce(func.max(hands.c.number), 0) + 1).where(
    hands.c.table_id == bindparam("table"))


def next_hand_ahead(conn: Connection, table_id: int) -> Callable[[], NextHand] | None:
    """PostgreSQL: the id (from the table's sequence) and the number (after the table's
    last) the table's next hand is to have, read ahead (`pipeline.ahead`: with the unit's
    next waited statement, a wager's key look-up), so that `open_hand` with them waits for
    nothing. Only the table's holder opens its hands, under the writer lock, so the number
    stands to the commit; an id not used (a retried wager, a refused one) is a gap in the
    ids, as a rolled-back hand always left. None on SQLite (its round trips are calls)."""
    if conn.dialect.name != "postgresql":
        return None
    rows = ahead(conn, _NEXT_HAND, {"table": table_id})

    def reserved() -> NextHand:
        (hand_id, number), = rows()
        return int(hand_id), int(number)
    return reserved


def open_hand(conn: Connection, table_id: int, reserved: NextHand | None = None) -> NextHand:
    """A new open hand at the table: its id and its number at the table (issue 20); with
    the id and number `reserved` for it (`next_hand_ahead`), written without a wait."""
    at = datetime.now(UTC)
    if reserved is not None:
        conn.execute(_INSERT_HAND, {"id": reserved[0], "table": table_id, "number": reserved[1],
                                    "at": at, "history": _NEW_RECORD})
        return reserved
    row = conn.execute(_OPEN_HAND, {"table": table_id, "at": at}).one()
    return int(row.id), int(row.number)


# Built once: a wager's statements run on every bet.
_SELECT_HISTORY = select(hands.c.history).where(hands.c.id == bindparam("hand"))
_SET_IN_RECORD = {
    "postgresql": deferred(text(
        "UPDATE hands SET history = CAST(jsonb_set(CAST(history AS JSONB), "
        "CAST(:path AS TEXT[]), CAST(:value AS JSONB)) AS TEXT) WHERE id = :hand")),
    "sqlite": deferred(text(
        "UPDATE hands SET history = json_set(history, :path, json(:value)) WHERE id = :hand"))}
"""One field of an open hand's record set by the database (nothing read first, nothing
waited for: the record is JSON, read back with `json.loads`), each dialect's JSON path."""
_ADD_SETUP = deferred(text(
    "UPDATE hands SET history = CAST(jsonb_set(CAST(history AS JSONB), ARRAY['setup'], "
    "COALESCE(CAST(history AS JSONB) -> 'setup', '{}') || CAST(:setup AS JSONB)) AS TEXT) "
    "WHERE id = :hand AND status = 'open'"))
"""PostgreSQL: fields added to an open hand's published setup, as `set_in_open_record`."""
_ADD_PLAYER = insert_new(hand_players, {"hand_id": bindparam("hand"),
                                        "account_id": bindparam("acct")})
"""The hand's player row, unless it is there already: one statement either way."""


def record_wagers(conn: Connection, hand_id: int, account_id: int,
                  bets: dict[str, Cents]) -> None:
    """Keep the open hand's wagers in its row so a void (or a restart) can return them."""
    set_in_open_record(conn, hand_id, ("wagers", str(account_id)), bets)
    add_players(conn, hand_id, [account_id])


def add_players(conn: Connection, hand_id: int, account_ids: list[int]) -> None:
    """The hand's player rows of `account_ids` (those not there yet), in one statement that
    nothing waits for."""
    if account_ids:
        on_driver(conn, _ADD_PLAYER[conn.dialect.name],
                  [{"hand": hand_id, "acct": account_id} for account_id in account_ids])


def set_in_open_record(conn: Connection, hand_id: int, path: tuple[str, ...],
                       value: Any) -> None:
    """Set the field at `path` of an open hand's working record (`open_record`) to `value`,
    by the database, in one statement nothing waits for (issue 25: a wager, a turn's
    deadline cost no round trip on PostgreSQL; on SQLite the record is neither read nor
    written out whole)."""
    postgres = conn.dialect.name == "postgresql"
    assert all(name.isidentifier() or name.isdigit() for name in path)  # (a plain JSON path)
    on_driver(conn, _SET_IN_RECORD[conn.dialect.name], {
        "hand": hand_id, "value": json.dumps(value),
        "path": list(path) if postgres else "$" + "".join(f'."{name}"' for name in path)})


def open_record(conn: Connection, hand_id: int) -> dict[str, Any]:
    """An open hand's working record (its `wagers`: per account, what a void returns)."""
    data: dict[str, Any] = json.loads(conn.execute(
        select(hands.c.history).where(hands.c.id == hand_id)).scalar_one())
    return data


def save_open_record(conn: Connection, hand_id: int, data: dict[str, Any]) -> None:
    conn.execute(update(hands).where(hands.c.id == hand_id, hands.c.status == "open")
                 .values(history=json.dumps(data)))


def open_wagers(conn: Connection, hand_id: int) -> dict[int, dict[str, Cents]]:
    """An open hand's wagers as its record keeps them (per account, per bet)."""
    return open_wagers_ahead(conn, hand_id)()


def open_wagers_ahead(conn: Connection, hand_id: int
                      ) -> Callable[[], dict[int, dict[str, Cents]]]:
    """`open_wagers`, read ahead (`pipeline.ahead`): the read goes with the unit's next
    statement that is waited for, the wagers are read when the returned function is called
    (a deal's settlement: they go with the ledger's look-up, issue 25)."""
    rows = ahead(conn, _SELECT_HISTORY, {"hand": hand_id})

    def wagers() -> dict[int, dict[str, Cents]]:
        (history,), = rows()
        return {int(k): v for k, v in json.loads(history)["wagers"].items()}
    return wagers


class PlayerResult(NamedTuple):
    """A player's part in a closed hand, in cents: what they staked and what the hand
    won (+) or lost (-) them (None where the table cannot tell)."""
    wagered: Cents
    net: Cents | None


def record_results(conn: Connection, hand_id: int, results: dict[int, PlayerResult]) -> None:
    """Keep each player's stake and net result on their row of the closed hand."""
    if results:
        conn.execute(_SET_RESULT, [{"hand": hand_id, "acct": account_id, "wagered": wagered,
                                    "net": net}
                                   for account_id, (wagered, net) in results.items()])


_SET_RESULT = deferred(update(hand_players).where(
    hand_players.c.hand_id == bindparam("hand"),
    hand_players.c.account_id == bindparam("acct")).values(
    wagered=bindparam("wagered"), net=bindparam("net")))
_CLOSE_SETTLED = deferred(update(hands).where(hands.c.id == bindparam("hand")).values(
    status="settled", closed_at=bindparam("at"), history=bindparam("history")))


def close_settled(conn: Connection, hand_id: int, history: dict[str, Any]) -> None:
    conn.execute(_CLOSE_SETTLED, {"hand": hand_id, "at": datetime.now(UTC),
                                  "history": json.dumps(history)})


def void_hand(conn: Connection, hand_id: int, actor: str, reason: str) -> dict[int, Cents]:
    """Return every wager of an open hand to its owner's table stack; log who and why."""
    row = conn.execute(select(hands).where(hands.c.id == hand_id)).first()
    if row is None or row.status != "open":
        raise NotFound(f"hand {hand_id} is not in progress")
    returned: dict[int, Cents] = {}
    postings: ledger.Postings = []
    for account_id, bets in open_wagers(conn, hand_id).items():
        total = sum(bets.values())
        returned[account_id] = total
        postings += ledger.move(ledger.wagers(row.table_id),
                                ledger.stack(row.table_id, account_id), total)
    if any(returned.values()):  # a stake record can be empty (a player-bank's own seat)
        ledger.post(conn, f"hand:{hand_id}:void", "void", postings, actor=actor,
                    memo=f"void hand {hand_id}: {reason}")
    data = json.loads(row.history)
    data.update(void_history(conn, row.table_id, hand_id, data.get("wagers", {}), actor,
                             reason, data.get("setup") or {}))
    data.update(status="voided", voided_by=actor, reason=reason)
    conn.execute(update(hands).where(hands.c.id == hand_id).values(
        status="voided", closed_at=datetime.now(UTC), voided_by=actor, void_reason=reason,
        history=json.dumps(data)))
    record_results(conn, hand_id, {a: PlayerResult(total, 0) for a, total in returned.items()})
    audit.append(conn, actor, "hand.void", {"hand": hand_id, "table": row.table_id,
                                            "reason": reason,
                                            "returned": {str(k): v for k, v in
                                                         returned.items()}})
    return returned


def publish_setup(conn: Connection, hand_id: int, setup: dict[str, Any]) -> None:
    """Keep `setup` (what players may read now, e.g. a retired shoe) in the open hand's
    record: its history carries it however the hand ends, settled or void."""
    if conn.dialect.name == "postgresql":  # (by the database, nothing waited for)
        conn.execute(_ADD_SETUP, {"hand": hand_id, "setup": json.dumps(setup)})
        return
    data = open_record(conn, hand_id)
    data["setup"] = {**data.get("setup", {}), **setup}
    save_open_record(conn, hand_id, data)


def void_history(conn: Connection, table_id: int, hand_id: int,
                 wagers: dict[str, dict[str, Cents]], actor: str,
                 reason: str, published: dict[str, Any] | None = None) -> dict[str, Any]:
    """A voided hand's history in the shared format: the seats with a wager down (their
    stacks with the wagers back), no card (what was dealt stays hidden, and a recovery
    cannot know what was seen), the one `void` action (who, why, what went back) and the
    result: every stack as before; its setup keeps what the open hand had `published`
    (`publish_setup`). Written by the table's game (its live table's `void_history`); empty
    for a game the registry does not list."""
    table = conn.execute(select(room_tables).where(room_tables.c.id == table_id)).first()
    game = None if table is None else registry.find(table.game)
    if table is None or game is None:
        return {}
    live: Any = registry.load(game.live)
    history: dict[str, Any] = live.void_history(conn, table, hand_id, wagers, actor, reason,
                                                published or {})
    return history


def seated_void_history(conn: Connection, table: Any, hand_id: int,
                        wagers: dict[str, dict[str, Cents]], actor: str, reason: str,
                        published: dict[str, Any], by_place: bool = False) -> dict[str, Any]:
    """`void_history` for a game whose amounts are cents and whose seats are numbered at the
    table ("3:alice"; `by_place`: by their place in the hand instead, from 0)."""
    table_id = table.id
    seated = {r.account_id: r.seat for r in conn.execute(
        select(seats).where(seats.c.table_id == table_id))}
    people = []
    for index, key in enumerate(sorted(wagers, key=int)):
        acct = int(key)
        name = conn.execute(select(accounts.c.username)
                            .where(accounts.c.id == acct)).scalar_one()
        seat = str(seated.get(acct, "")).partition(":")[0]  # seated games: "3:alice"
        number = index if by_place else (int(seat) if seat.isdigit() else index + 1)
        people.append({"seat": number, "name": name,
                       "chips": ledger.balance(conn, ledger.stack(table_id, acct))})
    names = [p["name"] for p in people]
    setup: dict[str, Any] = {"unit": "cents", **published}
    returned = [{"seat": p["seat"], "name": p["name"], "wagers": wagers[k]}
                for p, k in zip(people, sorted(wagers, key=int), strict=True)]
    history = HandHistory(
        game=table.game, hand_id=str(hand_id), rules=json.loads(table.rules_json),
        seats=people, pack=[], setup=setup,
        actions=[{"type": VOID, "by": actor, "reason": reason, "returned": returned}],
        result={"chips": [p["chips"] for p in people], "names": names, "voided": True})
    return history.to_json()


def open_hands_by_table(conn: Connection) -> list[tuple[int, int]]:
    """Every hand in play and its table, oldest first."""
    return [(r.id, r.table_id) for r in conn.execute(
        select(hands.c.id, hands.c.table_id).where(hands.c.status == "open")
        .order_by(hands.c.id))]


def hand_record(conn: Connection, hand_id: int) -> dict[str, Any]:
    row = conn.execute(select(hands).where(hands.c.id == hand_id)).first()
    if row is None:
        raise NotFound(f"there is no hand {hand_id}")
    data: dict[str, Any] = json.loads(row.history or "{}")
    data.update(hand=row.id, table_id=row.table_id, number=row.number, status=row.status,
                opened_at=row.opened_at.isoformat())
    return data


def hand_players_of(conn: Connection, hand_id: int) -> set[int]:
    return set(conn.execute(select(hand_players.c.account_id)
                            .where(hand_players.c.hand_id == hand_id)).scalars())


def dealt_at(conn: Connection, name: str, table_id: int, start: datetime, end: datetime
             ) -> bool:
    """Whether `name` was a dealer of the table between `start` and `end` (a gaming day): dealt
    one of its hands (the history's `setup.dealt_by`), or signed one of its slips as dealer
    (an opener, a closer, a fill or a credit)."""
    signed = conn.execute(select(table_slips.c.id).where(
        table_slips.c.table_id == table_id, table_slips.c.dealer == name,
        table_slips.c.created_at >= start, table_slips.c.created_at < end).limit(1)).first()
    if signed is not None:
        return True
    for history in conn.execute(select(hands.c.history).where(
            hands.c.table_id == table_id, hands.c.opened_at >= start, hands.c.opened_at < end,
            hands.c.history.is_not(None))).scalars():
        if (json.loads(history).get("setup") or {}).get("dealt_by") == name:
            return True
    return False


@dataclass(frozen=True)
class HandFilter:
    """What a reader of the hand history looks for: each given field narrows the hands."""
    game: str | None = None
    table: int | None = None
    since: date | None = None
    until: date | None = None
    """Gambling days of the room's clock (`settings.GamblingClock`), inclusive."""
    outcome: Literal["won", "lost"] | None = None
    """The net result: above nothing (won) or below it (lost); a push or a void is neither."""


@dataclass(frozen=True)
class HandsPage:
    rows: list[dict[str, Any]]
    """Newest first: `id`, `table_id`, `number`, `status`, `opened_at`, `table` (its name),
    `game`, `wagered` and `net` (cents; None while in play or for older hands)."""
    total: int
    """How many hands match the filter, on every page."""


def find_hands(conn: Connection, account_id: int | None, wanted: HandFilter,
               clock: GamblingClock, page: int = 1, per_page: int = 25) -> HandsPage:
    """One page of the hands of one player (or of the room, for `None`: every player's
    stakes and nets summed), filtered and counted in the database."""
    per = select(hand_players.c.hand_id,  # a sum of bigints is numeric in PostgreSQL
                 cast(func.sum(hand_players.c.wagered), BigInteger).label("wagered"),
                 cast(func.sum(hand_players.c.net), BigInteger).label("net")
                 ).group_by(hand_players.c.hand_id)
    if account_id is not None:
        per = per.where(hand_players.c.account_id == account_id)
    mine = per.subquery()
    q = select(hands.c.id, hands.c.table_id, hands.c.number, hands.c.status, hands.c.opened_at,
               room_tables.c.name.label("table"), room_tables.c.game, mine.c.wagered,
               mine.c.net).select_from(hands.join(room_tables,
                                                  room_tables.c.id == hands.c.table_id)
                                       .join(mine, mine.c.hand_id == hands.c.id,
                                             isouter=account_id is None))
    if wanted.game is not None:
        q = q.where(room_tables.c.game == wanted.game)
    if wanted.table is not None:
        q = q.where(hands.c.table_id == wanted.table)
    if wanted.since is not None:
        q = q.where(hands.c.opened_at >= clock.bounds(wanted.since)[0])
    if wanted.until is not None:
        q = q.where(hands.c.opened_at < clock.bounds(wanted.until)[1])
    if wanted.outcome is not None:
        q = q.where(mine.c.net > 0 if wanted.outcome == "won" else mine.c.net < 0)
    total = conn.execute(select(func.count()).select_from(q.subquery())).scalar_one()
    rows = conn.execute(q.order_by(hands.c.id.desc()).limit(per_page)
                        .offset((max(page, 1) - 1) * per_page))
    return HandsPage([dict(r._mapping) for r in rows], int(total))
