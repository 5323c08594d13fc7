"""The card room: storage, live tables, the shared jackpot pool, and the rule that every
refused request changes nothing and is written to the audit log."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from cardroom import registry
from cardroom.errors import CardroomError
from cardroom.money import Cents
from cardroom.progressive_pool import JackpotPool
from cardroom.room.books import table_books
from cardroom.room.compliance import surveillance
from cardroom.room.money import hands, ledger
from cardroom.room.money.jackpot import reload_pool, stored_pools
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account, Permission, get_account
from cardroom.room.play import leases, progressive, protocol, recall, resume, tables
from cardroom.room.play.live_table import LiveTable
from cardroom.room.play.messages import message_type
from cardroom.room.play.protocol_state import HandResult
from cardroom.room.play.refusals import RefusalLog
from cardroom.room.play.tables import TableRow
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import (
    DatabaseUnavailable,
    NotFound,
    PermissionDenied,
    WriteConflict,
)
from cardroom.room.storage.identity_key import (
    IdentityKey,
    IdentityKeyError,
    load_or_create_identity_key,
)
from cardroom.room.storage.schema import room_tables
from cardroom.room.storage.settings import RoomSettings
from cardroom.room.trust.keying import open_keyed
from cardroom.shoe import RandomSource, SystemRandom

AnyTable = LiveTable[Any, Any, Any]
"""A live table of any game (`room.live_table.LiveTable`)."""


T = TypeVar("T")
SHARED_TRIES = 3
"""How many times an action is made when a linked pool keeps changing under it at other
processes' tables (`Room._play`) before it is refused with "try again"."""
PLAY = frozenset({"sit", "bet", "change_bets", "deal"})
"""What a table whose inventory is closed refuses (a player may still leave)."""


def table_classes() -> dict[str, type[AnyTable]]:
    """The live table of each registered game (`cardroom.registry`, loaded lazily: a game's
    table module imports the room's helpers)."""
    found: dict[str, type[AnyTable]] = {}
    for game in registry.games():
        live = registry.load(game.live)
        assert isinstance(live, type) and issubclass(live, LiveTable)
        found[game.name] = live
    return found


def reads_every_hand(who: Account) -> bool:
    """Who may list and recall every hand of the room: a reader of every record, the floor
    (who decides disputes by replaying the hand, issue 23) and the compliance officer (whose
    cases hold hands as evidence, 31 CFR 1021.320)."""
    return who.may(Permission.READ_ALL) or who.may(Permission.OPEN_TABLES) or \
        who.may(Permission.CASES)


@dataclass
class Room:
    storage: Storage
    source: RandomSource = field(default_factory=SystemRandom)
    tables: dict[int, AnyTable] = field(default_factory=dict)
    pools: dict[str, JackpotPool] = field(default_factory=dict)
    _loading: threading.Lock = field(default_factory=threading.Lock, repr=False)
    settings: RoomSettings = field(default_factory=RoomSettings)
    closed: set[int] = field(default_factory=set)
    """Tables whose table inventory is closed: no play until the floor opens them."""
    identity: IdentityKey | None = None
    """The key patrons' taxpayer ids and document numbers are encrypted with
    (`cardroom.room.storage.identity_key`, a file outside the database); None: not loaded."""
    stale_pools: bool = False
    """A commit's outcome was lost with the database (`applying`): the jackpot pools are read
    again from the books before the next action."""
    holder: str | None = None
    """Issue 25: this process's id when several processes share the room, each table held
    by one of them under a lease (`room.leases`); None: the one process of the room holds
    every table, no lease asked."""
    fences: dict[int, int] = field(default_factory=dict)
    """The fencing number of each table this process holds (with `holder`)."""
    leaving: set[int] = field(default_factory=set)
    """Tables this process, over its fair share, hands over at the end of their hand in play
    (`leave_between_hands`, after each action); chosen again at every heartbeat (`balance`)."""

    @classmethod
    def open(cls, database: str | None, source: RandomSource | None = None,
             audit_key_file: Path | None = None,
             settings: RoomSettings | None = None, accept_failed_audit: bool = False,
             identity_key_file: Path | None = None, holder: str | None = None) -> Room:
        """The room on `database`, its audit chain MACed with the room's audit key, and never
        on books that fail the audit check unless `accept_failed_audit` (`keying.open_keyed`:
        the key file made only for new books); with its identity key (made if absent,
        `identity_key.key_path`); with a `holder`, one of several processes of the room,
        holding the tables it takes under their leases."""
        identity, _ = load_or_create_identity_key(identity_key_file)
        room = cls(open_keyed(database, audit_key_file, accept_failed_audit=accept_failed_audit),
                   source or SystemRandom(),
                   settings=settings or RoomSettings(), identity=identity, holder=holder)
        room.start()
        return room

    # start-up and crash recovery -------------------------------------------------------------
    def start(self) -> list[int]:
        """Resume every hand a stop left in play, or void it where it cannot be replayed
        (`recover`), load the other tables, and take the default of any turn whose time ran
        out while the room was down (as the timer would have). Returns the hands voided.
        A process of several (`holder`) takes its share of the tables nobody holds
        (`claim`); the others count it from its first heartbeat (`keep_leases`). Every jackpot
        pool the books hold is read first, so the linked tables share it and a process that
        holds none of them still shows its meter."""
        with self.storage.read() as conn:
            for name, pool in stored_pools(conn).items():
                self.pools.setdefault(name, pool)
        if self.holder is not None:
            return self.claim()
        voided = self.recover()
        with self.storage.unit() as conn:
            for row in tables.list_tables(conn):
                if row.status == "open" and row.id not in self.tables:
                    self.tables[row.id] = self._build(conn, row)
            self.closed = table_books.closed_tables(conn)
        for table_id in self.timed_out():
            self.time_out(table_id)
        return voided

    def recover(self, resumable: bool = True) -> list[int]:
        """Issue 25: each hand left in play resumes from its committed actions, exactly where
        it was (`resume.resume`: the same cards to come, the same bets, the same turn and
        deadline), audited `hand.resumed`; one whose record cannot be replayed is voided as
        before (every wager back to its stack), why audited (`hand.not-resumed`). Not
        `resumable` (books restored from a backup: the players saw play go on after it),
        every one is voided. Returns the hands voided; the resumed tables are loaded."""
        voided: list[int] = []
        resumed: list[int] = []
        with self.storage.read() as conn:
            open_ids = [(h, tables.get_table(conn, t))
                        for h, t in hands.open_hands_by_table(conn)]
        for hand_id, row in open_ids:
            live = self._take_back(hand_id, row, resumable)
            if live is None:
                voided.append(hand_id)
                continue
            self.tables[live.table_id] = live
            resumed.append(hand_id)
        if open_ids:
            with self.storage.unit() as conn:
                audit.append(conn, "recovery", "room.recovered",
                             {"voided": voided, "resumed": resumed})
        return voided

    def _take_back(self, hand_id: int, row: TableRow | None, resumable: bool = True
                   ) -> AnyTable | None:
        """The table of a hand left in play, the hand resumed from its committed actions
        (`resume.resume`), audited `hand.resumed`; None where it cannot be: the hand voided
        (every wager back), why audited `hand.not-resumed`. Neither the database away
        (`DatabaseUnavailable`) nor a lost lease (`LeaseLost`) is a reason to void: they
        raise."""
        try:
            with self.storage.unit() as conn:
                if not resumable:
                    raise resume.ResumeFailed("the books were restored from a backup")
                if row is None or row.status != "open":
                    raise resume.ResumeFailed("its table is no longer open")
                self._fenced(conn, row.id)
                live = self._build(conn, row)
                resume.resume(conn, live, hand_id, self.identity)
                audit.append(conn, "recovery", "hand.resumed",
                             {"hand": hand_id, "table": row.id})
            return live
        except (DatabaseUnavailable, leases.LeaseLost):
            raise
        except CardroomError as exc:
            with self.storage.unit() as conn:
                self._fenced(conn, row.id if row else None)
                audit.append(conn, "recovery", "hand.not-resumed", {
                    "hand": hand_id, "table": row.id if row else None,
                    "why": str(exc)[:400]})
                hands.void_hand(conn, hand_id, "recovery", resume.NOT_RESUMED)
                if row is not None:
                    resume.forget(conn, row.id)
            return None

    # several processes on one room (issue 25: `holder`, `room.leases`) -------------------------
    def _fenced(self, conn: Connection, table_id: int | None) -> None:
        """Inside a write of a table's play: this process still holds its lease (nothing to
        check for the one process of a room); `LeaseLost` otherwise, the write rolled back."""
        if self.holder is not None and table_id is not None:
            leases.check(conn, table_id, self.holder, self.fences.get(table_id, 0))

    def claim(self) -> list[int]:
        """Take the tables another process handed to this one (`leases.hand_over`) and, up
        to this process's fair share (`leases.share`), the open tables nobody holds or whose
        holder stopped beating; each loaded with its hand in play resumed (`take_over`).
        Returns the hands voided."""
        assert self.holder is not None, "a room of one process holds every table"
        with self.storage.read() as conn:
            ids = _open_ids(conn)
            held = leases.holders(conn)
            counts = leases.spread(leases.alive(conn) | {self.holder}, held, ids)
        handed = [t for t in ids if held.get(t) == self.holder and t not in self.tables]
        free = [t for t in ids if t not in held]
        room = leases.share(len(ids), len(counts)) - counts.get(self.holder, 0)
        voided: list[int] = []
        for table_id in handed + free:
            if table_id in free and room <= 0:
                break
            try:
                with self._loading:  # never while `table` takes the same one over
                    if table_id not in self.tables:
                        voided += self.take_over(table_id)
                        room -= table_id in free
            except leases.LeaseLost:  # another process was quicker
                continue
        return voided

    def over_share(self) -> int:
        """How many tables this process of several holds over its fair share, handed one by
        one to the live process with the fewest (`leases.surplus`): the heartbeat hands that
        many over."""
        assert self.holder is not None, "a room of one process holds every table"
        with self.storage.read() as conn:
            ids = _open_ids(conn)
            held = leases.holders(conn)
            counts = leases.spread(leases.alive(conn), held, ids)
        if any(t not in held for t in ids):
            return 0  # the processes under their share take the free tables first (`claim`)
        return leases.surplus(counts, self.holder)

    def hand_over(self, table_id: int) -> bool:
        """Hand the table to the live process with the fewest tables, if this one still
        holds two more (`leases.hand_over`, decided under a lock), and only between two
        hands: never a hand in play. The caller holds the table still (`Hub`: no action of
        it half-way). The receiver loads it from the books, as `take_over` does; this
        process forgets it. Whether the table left this process (handed over, or found
        taken over meanwhile)."""
        assert self.holder is not None, "a room of one process holds every table"
        live = self.tables.get(table_id)
        if live is None or live.hand_id is not None:
            return False
        try:
            with self.storage.unit() as conn:
                if leases.hand_over(conn, table_id, self.holder, self.fences.get(table_id, 0),
                                    _open_ids(conn)) is None:
                    return False
        except leases.LeaseLost:
            pass  # taken over meanwhile: it has left this process all the same
        self._drop(table_id)
        return True

    def balance(self, viewers: Callable[[int], int],
                hold: Callable[[int], AbstractContextManager[object]]) -> list[int]:
        """One heartbeat's balancing of a process of several over its fair share
        (`over_share`), decided here for every caller (the server's `Hub`, the chaos bench):
        as many tables handed over (`hand_over`), each held still by the caller's `hold`
        (none of its actions half-way) and between two hands: first those with no hand in
        play and the fewest `viewers`; if too few are, the rest at the end of their hand in
        play (`leaving`, `leave_between_hands`). Returns the tables handed over now."""
        over = self.over_share()
        ranked = sorted(self.tables, key=lambda t: (viewers(t), -t))
        handed: list[int] = []
        for table_id in ranked:
            live = self.tables.get(table_id)
            if over <= 0 or live is None or live.hand_id is not None:
                continue
            with hold(table_id):
                gone = self.hand_over(table_id)
            now = self.tables.get(table_id)
            if gone:
                over -= 1
                handed.append(table_id)
            elif now is not None and now.hand_id is None:
                over = 0  # the spread no longer calls for it (another process moved first)
        playing = [t for t in ranked if t in self.tables and self.tables[t].hand_id is not None]
        self.leaving = set(playing[:max(over, 0)])
        return handed

    def leave_between_hands(self, table_id: int) -> bool:
        """After an action of a table chosen to leave (`balance`), the caller holding it
        still: hand it over now if that action ended its hand. Whether it left."""
        live = self.tables.get(table_id)
        return table_id in self.leaving and live is not None and live.hand_id is None \
            and self.hand_over(table_id)

    def take_over(self, table_id: int) -> list[int]:
        """Issue 25: take the table's lease (free or expired: its fencing number grows) and
        load the table from the books alone, as a restart of its holder would: its hand in
        play resumed from its committed actions (`_take_back`), its seats, stacks,
        shoe and jackpot pool as committed, the closed tables read again; a turn whose time
        ran out meanwhile takes its default. `LeaseLost` when another process holds it.
        Returns the hands voided (one that could not be replayed)."""
        assert self.holder is not None, "a room of one process holds every table"
        with self.storage.unit() as conn:
            fence = leases.take(conn, table_id, self.holder)
            row = tables.get_table(conn, table_id)
            open_hand = [h for h, t in hands.open_hands_by_table(conn) if t == table_id]
            closed = table_books.closed_tables(conn)
        if fence is None:
            self._drop(table_id)
            raise leases.LeaseLost(leases.MOVED)
        self.fences[table_id] = fence
        if row is None or row.status != "open":
            raise NotFound(f"there is no open table {table_id}")
        live = self._take_back(open_hand[0], row) if open_hand else None
        voided = open_hand[:1] if open_hand and live is None else []
        if live is None:
            with self.storage.unit() as conn:
                self._fenced(conn, table_id)
                live = self._build(conn, row)
        self.closed = closed
        self.tables[table_id] = live
        if live.expired():
            self.time_out(table_id)
        return voided

    def keep_leases(self) -> list[int]:
        """The heartbeat of a process of several (every `leases.HEARTBEAT_SECONDS`): renew
        its leases and say it is alive (`leases.beat`), let go of the tables taken over from
        it while it stalled, read the closed tables again, and take the tables handed to it
        and its share of those nobody holds (`claim`). Returns the hands voided. The renewal
        and the beat write no audit entry and no ledger row, so they run in a short
        transaction of their own outside the writer lock (`leases.renew` says why the fencing
        holds without it): a beat never waits for the room's writers, nor they for it.
        The beat also anchors this process's audit chain where units moved it since its
        last anchor and none followed (`Storage.anchor_tail`): an idle process's tail is
        anchored within a beat or two of its last unit."""
        assert self.holder is not None, "a room of one process holds every table"
        with self.storage.read() as conn, conn.begin():
            lost = leases.renew(conn, self.holder, self.fences)
            leases.beat(conn, self.holder)
            self.closed = table_books.closed_tables(conn)
        self.storage.anchor_tail()
        for table_id in lost:
            self._drop(table_id)
        return self.claim()

    def release_leases(self) -> None:
        """A process of several stopping in good order: its leases expire now
        (`leases.release`), so the others take its tables at their next heartbeat, and it
        no longer counts in their shares (`leases.leave`); its audit chain's tail is
        anchored now (`Storage.anchor_tail`), not at its restart."""
        assert self.holder is not None, "a room of one process holds every table"
        with self.storage.unit() as conn:
            leases.release(conn, self.holder)
            leases.leave(conn, self.holder)
        self.storage.anchor_tail(at_once=True)
        self.tables.clear()
        self.fences.clear()

    def _drop(self, table_id: int) -> None:
        """Forget a table another process holds now (its state there is the true one)."""
        self.tables.pop(table_id, None)
        self.fences.pop(table_id, None)
        self.leaving.discard(table_id)

    def _build(self, conn: Connection, row: TableRow) -> AnyTable:
        table = table_classes().get(row.game)
        if table is None:
            raise CardroomError(f"no live table for the game {row.game!r} yet")
        live = table.open(conn, row, self.source, self.pools)
        resume.restore_shoe(conn, live, self.identity)
        if self.holder is not None:  # the linked pool as other processes left it
            live.reload_shared(conn)
        return live

    def create_table(self, who: Account, name: str, game: str,
                     rules: dict[str, Any] | str | None = None) -> AnyTable:
        with self.storage.unit() as conn:
            row = tables.create_table(conn, who, name, game, rules)
            live = self._build(conn, row)
            closed = table_books.closed_tables(conn)
        self.tables[row.id] = live
        self.closed = closed
        return live

    def table(self, table_id: int) -> AnyTable:
        """The live table; one not in memory (opened since the room started by another
        process on the same database: `cardroom tables create` while the server runs; or
        dropped after a commit whose outcome the database lost, `applying`) is taken from
        the committed books on first use, its hand in play resumed (`_take_back`)."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if self.holder is not None:
            with self._loading:
                if table_id not in self.tables:
                    self.take_over(table_id)
            return self.tables[table_id]
        with self._loading:
            live = self.tables.get(table_id)
            if live is None:
                live = self._load(table_id)
        return live

    def _load(self, table_id: int) -> AnyTable:
        with self.storage.read() as conn:
            row = tables.get_table(conn, table_id)
            hand = next((h for h, t in hands.open_hands_by_table(conn) if t == table_id), None)
        if row is None or row.status != "open":
            raise NotFound(f"there is no open table {table_id}")
        live = self._take_back(hand, row) if hand is not None else None
        with self.storage.unit() as conn:
            if live is None:
                live = self._build(conn, row)
            closed = table_books.closed_tables(conn)
        self.tables[table_id] = live
        self.closed = closed
        return live

    @contextmanager
    def applying(self, live: AnyTable) -> Iterator[Connection]:
        """One change of the table `live` in one transaction (`LiveTable.transaction` around
        `Storage.unit`): refused or failed, the table is as it was. The database gone at
        the commit itself (`DatabaseUnavailable.unknown`: written or not, no one can say),
        the table is dropped from memory and taken back from the committed books at its
        next use, and the jackpot pools are read again before the next change: what the
        room holds in memory is never ahead of, or behind, its books."""
        if self.stale_pools:
            self.reload_pools()
        try:
            with live.transaction(), self.storage.unit() as conn:
                yield conn
        except DatabaseUnavailable as exc:
            if exc.unknown:
                self.tables.pop(live.table_id, None)
                self.stale_pools = True
            raise
        except DBAPIError as exc:  # a lost lease or a changed pool (`leases.guard`)
            refused = leases.refusal(exc)
            if refused is None:
                raise
            raise refused from exc

    def reload_pools(self) -> None:
        """Every jackpot pool in memory takes the committed state of its books, in place
        (the linked tables share each pool object)."""
        with self.storage.read() as conn:
            for name, pool in self.pools.items():
                reload_pool(conn, name, pool)
        self.stale_pools = False

    def load_new_tables(self) -> None:
        """Load every open table this room has not built yet (the lobby lists them live); a
        process of several takes only those nobody holds (`claim`)."""
        if self.holder is not None:
            self.claim()
            return
        with self.storage.read() as conn:
            ids = [r.id for r in tables.list_tables(conn) if r.status == "open"]
        for table_id in ids:
            if table_id not in self.tables:
                self.table(table_id)

    # the progressive controller -------------------------------------------------------------
    def pool(self, name: str) -> JackpotPool:
        try:
            return self.pools[name]
        except KeyError:
            raise NotFound(f"there is no jackpot pool named {name[:40]} in this room") from None

    def change_jackpot_settings(self, first: Account, second: Account, name: str,
                                settings: progressive.Settings, reason: str) -> None:
        pool = self.pool(name)
        with self.storage.unit() as conn:
            progressive.change_settings(conn, first, second, name, pool, settings, reason)

    def verify_jackpot(self, floor: Account, second: Account, hit_id: int, note: str
                       ) -> progressive.Hit:
        with self.storage.unit() as conn:
            return progressive.verify(conn, floor, second, hit_id, note)

    def jackpot_surveillance(self, who: Account, hit_id: int, note: str) -> progressive.Hit:
        with self.storage.unit() as conn:
            return progressive.record_surveillance(conn, who, hit_id, note)

    def pay_jackpot(self, who: Account, hit_id: int) -> progressive.Hit:
        """Pay a verified top award (`progressive.pay`); its winners' tables stop saying that
        the cage needs their identity (Form W-2G)."""
        with self.storage.unit() as conn:
            hit = progressive.get_hit(conn, hit_id)
            paid = progressive.pay(conn, who, hit_id, self.pool(hit.pool))
        for live in self.tables.values():
            live.jackpot_paid(set(paid.shares))
        return paid

    # payouts held for surveillance (WAC 230-15-320(4)) -----------------------------------
    def decide_payout(self, who: Account, held_id: int, note: str, verified: bool
                      ) -> surveillance.Held:
        """Surveillance verifies (paid to the winner's wallet) or refuses (the wager void) a
        held payout; a refusal of the request is audited. The table's last result stops
        saying that this payout awaits verification."""
        decide = surveillance.verify if verified else surveillance.refuse
        held = self.operate(who, "payout.verify" if verified else "payout.refuse",
                            lambda conn: decide(conn, who, held_id, note), {"held": held_id})
        live = self.tables.get(held.table_id)
        last = live.last if live is not None else None
        if isinstance(last, HandResult) and last.hand == held.hand_id:
            assert live is not None
            live.last = last.model_copy(update={"awaiting_verification": [
                a for a in last.awaiting_verification
                if (a.name, a.wager) != (held.winner, held.payout.wager)]})
        return held

    # play -----------------------------------------------------------------------------------
    def act(self, who: Account, table_id: int, msg: object,
            refusals: RefusalLog | None = None) -> AnyTable:
        """Apply one client message; a refusal raises, changes nothing, and is audited (through
        the connection's `refusals`, which bounds how many entries a flood of them writes)."""
        live: AnyTable | None = None
        try:
            kind = message_type(msg)
            assert isinstance(msg, dict)
            live = self.table(table_id)
            read = protocol.read(live.game, msg)
            if kind in PLAY and table_id in self.closed:
                raise CardroomError(f"{live.name} is closed: the floor opens it with a table "
                                    "inventory before play")
            if read is None:
                live.unknown(kind)
            self._play(live, functools.partial(self._message, live, who, kind, read),
                       changing=live.changes_shared(kind))
        except DatabaseUnavailable:
            raise  # not audited: the audit log is in the database that did not answer
        except CardroomError as exc:
            if isinstance(exc, leases.LeaseLost):
                self._drop(table_id)
            if refusals is None:
                self.refused(who, f"table.{_kind(msg)}", str(exc), {"table": table_id})
            else:
                refusals.refused(f"table.{_kind(msg)}", str(exc), {"table": table_id})
            raise
        return live

    def _message(self, live: AnyTable, who: Account, kind: str, read: protocol.Message,
                 conn: Connection) -> None:
        """The work of one client message at `live` in its transaction (`act`)."""
        if kind == "sit":
            self.require_of_age(conn, who, "seat")
        awaited = live.turn.account if live.turn is not None else None
        _handle(live, conn, who, read)
        if who.id == awaited:  # the player acted on their own turn, in time
            live.acted(conn, who)
        live.arm_timer(conn)
        resume.seal(conn, live, self.identity)

    def _play(self, live: AnyTable, work: Callable[[Connection], T],
              changing: bool = True) -> T:
        """One change of the table `live` (`applying`), its lease and shared state first
        (`_shared_state`; `changing`: the change may write the shared state). Where a
        linked pool changed at another process's table since this process read it
        (`leases.SharedMoved`: nothing was written, the table as it was), the pool is read
        again and the change made again; so too where the database ended a deadlock with it
        (`WriteConflict`); at most `SHARED_TRIES` times."""
        for attempt in range(SHARED_TRIES):
            try:
                with self.applying(live) as conn:
                    self._shared_state(conn, live, changing, reload=attempt > 0)
                    return work(conn)
            except (leases.SharedMoved, WriteConflict):
                if attempt == SHARED_TRIES - 1:
                    raise
        raise AssertionError("unreachable: the last try returns or raises")

    def _shared_state(self, conn: Connection, live: AnyTable, changing: bool,
                      reload: bool = False) -> None:
        """First in a table's action of a process of several: its lease checked and what
        other processes' tables change with it (a linked jackpot pool) as the books hold it.
        On PostgreSQL one statement that costs no round trip checks both (`leases.guard`)
        and the pool is read only when it changed (`reload`, after `SharedMoved`), its row
        locked to the commit only by an action `changing` it; on SQLite the lease is
        checked (`_fenced`) and the pool read at every action."""
        if self.holder is None:
            return
        if reload or not self.storage.is_postgres:
            live.reload_shared(conn)
        if not self.storage.is_postgres:
            self._fenced(conn, live.table_id)
            return
        leases.guard(conn, live.table_id, self.holder, self.fences.get(live.table_id, 0),
                     live.shared_as_held(changing))

    def identity_key(self) -> IdentityKey:
        """The room's identity key; IdentityKeyError if the room was opened without one."""
        if self.identity is None:
            raise IdentityKeyError("the room was started without its identity key: patrons' "
                                   "identities cannot be read or written")
        return self.identity

    def require_of_age(self, conn: Connection, who: Account, what: str) -> None:
        """Issue 21 (WAC 230-06-010): in a real room a player sits, buys or is paid only once
        the cage has seen their identity (a linked patron) and they are of the profile's
        minimum age on the gambling day; a self-service room (demonstration or free play:
        no real money) asks neither (docs/compliance.md)."""
        if not self.settings.self_service_chips:
            day = self.settings.clock.day_of(datetime.now(UTC))
            patrons.require_patron_of_age(conn, who.id, day, what)
    def timed_out(self) -> list[int]:
        """The tables whose awaited turn has run out (issue 23, action timers)."""
        return [t for t, live in list(self.tables.items()) if live.expired()]

    def time_out(self, table_id: int) -> bool:
        """If the table's awaited turn has run out, the house rules' default action is taken
        for the player (`LiveTable.time_out`) and the next turn timed, in one transaction;
        whether it was. A failure is audited as a refusal of the timer and changes nothing."""
        live = self.table(table_id)
        if not live.expired():
            return False
        try:
            self._play(live, functools.partial(self._time_out, live))
        except DatabaseUnavailable:
            return False  # the next tick tries again
        except leases.LeaseLost:
            self._drop(table_id)
            return False
        except CardroomError as exc:
            self.refused(None, "table.timeout", str(exc), {"table": table_id})
            live.postpone()  # tried again a whole turn later, not at every tick
            return False
        return True

    def _time_out(self, live: AnyTable, conn: Connection) -> None:
        """The default action of the turn that ran out, in its transaction (`time_out`)."""
        live.time_out(conn)
        live.arm_timer(conn)
        resume.seal(conn, live, self.identity)

    def operate(self, who: Account | None, action: str, work: Callable[[Connection], T],
                detail: dict[str, Any] | None = None) -> T:
        """One operation of the cage or the floor in one write transaction: refused (raising,
        changing nothing) and audited as `refused`, or done; the tables' open or closed
        inventories are read again afterwards."""
        try:
            with self.storage.unit() as conn:
                done = work(conn)
                closed = table_books.closed_tables(conn)
        except CardroomError as exc:
            self.refused(who, action, str(exc), detail)
            raise
        self.closed = closed
        return done

    def bar_excluded(self) -> int:
        """Remove from every table the seated people now on the self-exclusion list (after an
        import or an enrolment: WAC 230-23-030), their chips confiscated (`LiveTable.
        bar_excluded`); anyone in a hand is removed when it settles. Returns how many."""
        removed = 0
        for live in list(self.tables.values()):
            removed += len(self._play(live, functools.partial(_bar_seated, live)))
        return removed

    def refused(self, who: Account | None, action: str, reason: str,
                detail: dict[str, Any] | None = None) -> None:
        with self.storage.unit() as conn:
            audit.append(conn, who.username if who else "anonymous", "refused",
                         {"action": action[:60], "reason": reason[:400], **(detail or {})})

    # records --------------------------------------------------------------------------------
    def wallet(self, who: Account) -> Cents:
        with self.storage.read() as conn:
            return ledger.balance(conn, ledger.wallet(who.id))

    def history(self, who: Account, mine: bool = True,
                wanted: hands.HandFilter | None = None, page: int = 1,
                per_page: int = 25) -> hands.HandsPage:
        """One page of the viewer's hands (the whole room's, for those who read every hand:
        `reads_every_hand`), newest first, filtered by `wanted`."""
        if not mine and not reads_every_hand(who):
            raise PermissionDenied("you may list only the hands you played")
        with self.storage.read() as conn:
            return hands.find_hands(conn, who.id if mine else None, wanted or hands.HandFilter(),
                                    self.settings.clock, page, per_page)

    def recall(self, who: Account, hand_id: int) -> recall.Replay:
        """A player may recall the hands they played; the floor, the auditor (and owner) and
        the compliance officer (whose cases hold hands as evidence, 31 CFR 1021.320) any
        hand; a dealer the hands of a table they dealt at that gaming day (`hands.dealt_at`),
        since the floor decides disputes by replaying the hand with the dealer (issue 23). Staff
        see the hand whole, as the tray and the cards on the layout showed it; a player sees it
        as he saw it (`recall.file_withheld`)."""
        with self.storage.read() as conn:
            record = hands.hand_record(conn, hand_id)
            staff = reads_every_hand(who) or \
                (who.may(Permission.DEAL) and self._dealt(conn, who, record))
            if not staff and who.id not in hands.hand_players_of(conn, hand_id):
                raise PermissionDenied(
                    "you may recall only the hands of the tables you dealt that day"
                    if who.may(Permission.DEAL) else "you may recall only the hands you played")
            record["table"] = record.get("table") or conn.execute(
                select(room_tables.c.name).where(room_tables.c.id == record["table_id"])
            ).scalar_one()
        return replace(recall.replay(record), seen_by=None if staff else who.id)

    def _dealt(self, conn: Connection, who: Account, record: dict[str, Any]) -> bool:
        """Whether `who` dealt at the hand's table on the hand's gaming day."""
        clock = self.settings.clock
        start, end = clock.bounds(clock.day_of(datetime.fromisoformat(record["opened_at"])))
        return hands.dealt_at(conn, who.username, record["table_id"], start, end)

    def account(self, account_id: int) -> Account | None:
        with self.storage.read() as conn:
            return get_account(conn, account_id)


def _handle(live: AnyTable, conn: Connection, who: Account, msg: protocol.Message) -> None:
    """The message, read by its model, to the table's handler of it: the lifecycle's own, or
    the game's `act` for the rest."""
    match msg:
        case protocol.Sit():  # a game's own `sit` (Pan's) is a subclass
            live.sit(conn, who, msg)
        case protocol.Leave():
            live.leave(conn, who, msg)
        case protocol.ChangeBets():  # each game's `change_bets` derives from its `bet`
            live.change_bets(conn, who, msg)
        case protocol.Bet():
            live.bet(conn, who, msg)
        case protocol.Deal():
            live.deal(conn, who, msg)
        case protocol.Void():
            live.void(conn, who, msg.reason)
        case protocol.Back():
            live.come_back(conn, who)
        case protocol.ActFor():
            live.act_for(conn, who)
        case _:
            live.act(conn, who, msg)


def _open_ids(conn: Connection) -> list[int]:
    """The room's open tables, in their order (those a process of several may hold)."""
    return [r.id for r in tables.list_tables(conn) if r.status == "open"]


def _bar_seated(live: AnyTable, conn: Connection) -> list[int]:
    """`LiveTable.bar_excluded` of everyone seated at `live` (`Room.bar_excluded`)."""
    return live.bar_excluded(conn, list(live.seated))


def _kind(msg: object) -> str:
    if isinstance(msg, dict) and isinstance(msg.get("type"), str):
        return str(msg["type"])[:30]
    return "malformed"

