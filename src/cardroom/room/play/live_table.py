"""One table lifecycle for every game of the room (Baccarat, Super Pan 9, Pai Gow, Pan).

A live table keeps numbered seats (1..`max_seats`, one account each), the players' stacks at
the table (chips not in play, mirroring the ledger's `stack` accounts), the open hand and the
game's state machine (`engine`). What every game does alike is written here once:

- **`transaction()`**: the room runs every action inside it, around the database unit. The
  action changes the engine and the table directly; if it is refused or fails (in the action,
  or at the commit), the table and its engine are put back as they were (`checkpoint` /
  `restore`) and the database rolls back: a refused action changes nothing.
- **seats**: `sit` (buy-in from the wallet), `leave` (cash out), restoring them on a restart
  (`open`).
- **wagers**: `bet` and `change_bets` (issue 13: replace or withdraw the seat's wagers until
  the deal) post through the ledger, keep the open hand's record and audit them alike.
- **the end of a hand**: `void` (the floor: wagers back, who and why logged), `close_hand`
  (the settlement posted, the history recorded, the audit entry, `last` shown to everyone).

Each game adds small hooks, one method each: `from_row` (the table from its registry row),
`in_play`, `on_seat` / `on_leave`, `stake_of` / `place_bets` / `withdraw_bets` (the engine's
side of a wager), `void_engine` (the engine's side of a void) and `history` (the hand's
shared-format history); and its own `deal`, `act` (its own messages, `M`, each read by its
model in `room.protocol`) and `state`: what a viewer may see, built as the game's snapshot
model (`protocol_state`) from the parts every game shares (`envelope`, `viewer_flags`,
`players_view`); `snapshot` is that model's JSON, what the page receives.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, Generic, NoReturn, Self, TypeVar

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection

from cardroom.cards import Card, parse_card
from cardroom.errors import IllegalActionError, WagerError
from cardroom.history import GameReplay
from cardroom.houserules import HouseRules, TurnTimerRules, build_rules
from cardroom.money import Cents
from cardroom.progressive_pool import JackpotPool
from cardroom.room.compliance import exclusions, surveillance
from cardroom.room.compliance.surveillance import Payout
from cardroom.room.money import hands, ledger
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.play.leases import Shared
from cardroom.room.play.protocol import Bet, ChangeBets, Deal, Leave, Message, Sit
from cardroom.room.play.protocol_state import (
    AwaitingVerification,
    CardView,
    HandRef,
    HandResult,
    TablePlayer,
    TableRef,
    TableState,
    TurnView,
    VoidedHand,
)
from cardroom.room.play.tables import TableRow
from cardroom.room.storage import audit
from cardroom.room.storage.schema import hands as hands_table
from cardroom.room.storage.schema import seats
from cardroom.shoe import RandomSource, Shoe, SystemRandom

E = TypeVar("E")
R = TypeVar("R", bound=HandResult)
M = TypeVar("M", bound=Message)
Stake = dict[str, Cents]
"""A seat's wagers on the hand by name ("banker", "wager", "tie", "dragon"...), in cents."""
Pools = dict[str, JackpotPool]


def card_view(card: Card | str) -> CardView:
    """A card as the page draws it: its image code and its text."""
    c = parse_card(card) if isinstance(card, str) else card
    return CardView(code=c.code, text=str(c))


def card_json(card: Card | str) -> dict[str, Any]:
    """`card_view` as JSON, for a replay's steps (`recall`)."""
    return card_view(card).model_dump()


def cards_view(cards: list[str] | tuple[Card, ...] | list[Card] | None
               ) -> list[CardView] | None:
    return None if cards is None else [card_view(c) for c in cards]


def now_utc() -> datetime:
    """The room's clock (a table's `clock`: tests give a table their own)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class Turn:
    """The decision a hand waits for (issue 23, action timers): whose (`account`), which
    turn (`token`: the game's name for it, a new one is a new turn) and until when."""

    account: int
    token: str
    deadline: datetime


@dataclass(frozen=True)
class SealedShoe:
    """A shoe as the sealed row holds it (`text`, encrypted) and where it stood then: a
    shoe with this very order (by identity: an order is never changed in place), salt, cut
    card, position and burned cards has that same text, so it is not encrypted again."""

    order: list[Card]
    at: tuple[bytes, int, int, int]
    text: str

    @staticmethod
    def where(shoe: Shoe) -> tuple[bytes, int, int, int]:
        return shoe.salt, shoe.cut_index, shoe.position, len(shoe.burned)

    def holds(self, shoe: Shoe) -> bool:
        return self.order is shoe.order and self.at == self.where(shoe)


def seat_text(seat: int, username: str) -> str:
    """The `seats.seat` column: the seat number and the name ("3:alice")."""
    return f"{seat}:{username}"


@dataclass
class LiveTable(Generic[E, R, M]):
    """The base of every game's live table; `E` is the game's engine (state machine), `R`
    its settled hand's public result, `M` the messages of its own that `act` reads."""

    table_id: int
    name: str
    source: RandomSource = field(default_factory=SystemRandom)
    seated: dict[int, str] = field(default_factory=dict)  # account -> username
    seat_of: dict[int, int] = field(default_factory=dict)  # account -> seat number
    stacks: dict[int, Cents] = field(default_factory=dict)  # account -> chips not in play
    hand_id: int | None = None
    hand_number: int = 0
    last: R | VoidedHand | None = None  # the last hand's result (or void), shown to all
    before: dict[int, Cents] = field(default_factory=dict)  # stacks before the hand's wagers
    dealt_by: str = ""
    irregularities: list[dict[str, Any]] = field(default_factory=list)
    defaults: list[dict[str, Any]] = field(default_factory=list)
    """The hand's actions taken for a player (`record_default`): by the turn timer, or by the
    dealer or the floor; the settled history lists them (`taken_for`)."""
    clock: Callable[[], datetime] = field(default=now_utc)
    """The clock of the turn timers and of Pan's time fee (tests give a table their own)."""
    turn: Turn | None = None  # the decision the hand waits for, and its deadline
    misses: dict[int, int] = field(default_factory=dict)  # account -> timed-out turns in a row
    away: set[int] = field(default_factory=set)  # accounts sitting out after too many misses
    engine: E = field(init=False)
    shoe_sealed: SealedShoe | None = field(default=None, init=False, repr=False)
    """The shoe as this table's last committed action sealed it (`resume.seal`): put back
    with the rest of the table when an action fails, so it never runs ahead of the books."""

    max_seats: ClassVar[int] = 6
    game: ClassVar[str] = "?"
    rules_model: ClassVar[type[HouseRules]] = HouseRules
    state_model: ClassVar[type[TableState]] = TableState
    """The game's snapshot model (`protocol_state`), which `state` builds."""
    messages: ClassVar[tuple[type[Message], ...]] = ()
    """The messages its table reads (`protocol.read`), each by its `type`."""
    floor_irregularities: ClassVar[bool] = False
    """Whether the floor may record an irregularity here (`{"type": "irregularity"}`)."""

    # the hooks a game writes ---------------------------------------------------------------
    @classmethod
    def from_row(cls, conn: Connection, row: TableRow, source: RandomSource,
                 pools: Pools) -> Self:
        """The table from its registry row, its house rules read as `rules_model` (the seats
        are restored afterwards by `open`)."""
        rules: dict[str, Any] = {
            "rules": build_rules(cls.rules_model, row.rules, f"table {row.name}")}
        return cls(row.id, row.name, source=source, **rules)

    def in_play(self, account_id: int) -> bool:
        """Whether this account has chips in the hand now (it may not leave)."""
        raise NotImplementedError

    def on_seat(self, account_id: int, seat: int, stack: Cents) -> None:
        """Tell the engine about a new (or restored) seat; by default nothing."""

    def on_leave(self, account_id: int, seat: int) -> None:
        """Tell the engine a seat is empty; by default nothing."""

    def shared_objects(self) -> list[object]:
        """Objects the checkpoint shares instead of copying (big, immutable, or shared with
        other tables); each game adds its own."""
        return [self.source]

    def stake_of(self, msg: Bet | ChangeBets) -> Stake:
        """The wagers of a `bet` or `change_bets` message, by name (empty: none)."""
        raise IllegalActionError(f"{self.game} has no wagers to place")

    def place_bets(self, who: Account, seat: int, bets: Stake) -> Stake:
        """The engine takes the seat's wagers (its verify_x refuses what the rules refuse);
        returns the seat's whole stake on the hand as the open hand's record keeps it."""
        raise IllegalActionError(f"{self.game} has no wagers to place")

    def withdraw_bets(self, who: Account, seat: int) -> None:
        """The engine gives back every wager of the seat (before the deal only)."""
        raise IllegalActionError(f"{self.game} has no wagers to change")

    @classmethod
    def void_history(cls, conn: Connection, table: Any, hand_id: int,
                     wagers: dict[str, Stake], actor: str, reason: str,
                     published: dict[str, Any]) -> dict[str, Any]:
        """A voided hand's history in the shared format (`hands.void_history`, which gives
        the table's row); by default in cents, the seats by their table number."""
        return hands.seated_void_history(conn, table, hand_id, wagers, actor, reason,
                                         published)

    def reload_shared(self, conn: Connection) -> None:
        """Read again from the books what this table shares with tables other processes of
        the room hold (issue 25, several processes: a linked jackpot pool); by default
        nothing."""

    def shared_as_held(self, changing: bool) -> Shared | None:
        """What `reload_shared` reads, as this table holds it now: a condition the action's
        `leases.guard` checks against the books (PostgreSQL), its rows locked to the commit
        when the action is `changing` them (`changes_shared`); None: nothing shared."""
        return None

    def changes_shared(self, kind: str) -> bool:
        """Whether a message of this `kind` may change what the table shares with tables of
        other processes (hook; by default every message may)."""
        return True

    def jackpot_paid(self, accounts: set[int]) -> None:
        """A progressive's top award was paid to these accounts (their identity is on file
        now); by default nothing."""

    def void_engine(self, reason: str) -> None:
        """The engine drops the hand in play (its wagers go back through the ledger): the
        engine protocol's `void` (`cardroom.engine.Engine.void`); its log starts afresh."""
        engine: Any = self.engine
        engine.void(reason)
        del engine.events[:]

    def deal(self, conn: Connection, who: Account, msg: Deal) -> None:
        """`{"type": "deal"}`: the game's deal (and, for baccarat, the whole coup)."""
        raise NotImplementedError

    def act(self, conn: Connection, who: Account, msg: M) -> None:
        """Any other message of the game (draw, stand, set a hand, bank...), read by its model
        (`M`, the game's own): the table checks it through its engine."""
        raise NotImplementedError

    def unknown(self, kind: str) -> NoReturn:
        """Refuse a message of a type this game does not read (`protocol.read` gave none)."""
        raise IllegalActionError(f"unknown action {kind[:30]!r}")

    def state(self, viewer: Account | None) -> TableState:
        """What `viewer` may see of the table (never a card it may not see yet), as the game's
        snapshot model (`protocol_state`); `snapshot` is its JSON."""
        raise NotImplementedError

    # restart -----------------------------------------------------------------------------------
    @classmethod
    def open(cls, conn: Connection, row: TableRow, source: RandomSource, pools: Pools) -> Self:
        """The table after a (re)start: built from its row, its seats and stacks from the
        seats table and the ledger, the last hand's number from the hand records. A hand in
        play is taken back afterwards (`Room.recover`: `resume_hand`), or voided (every
        wager back to its stack) where it cannot be."""
        table = cls.from_row(conn, row, source, pools)
        for s in conn.execute(select(seats).where(seats.c.table_id == row.id)):
            table.restore_seat(s.account_id, s.seat,
                               ledger.balance(conn, ledger.stack(row.id, s.account_id)))
            if s.misses:
                table.misses[s.account_id] = s.misses
            if s.sitting_out:
                table.away.add(s.account_id)
        last = conn.execute(select(func.max(hands_table.c.number))
                            .where(hands_table.c.table_id == row.id)).scalar_one_or_none()
        table.hand_number = int(last or 0)
        return table

    def restore_seat(self, account_id: int, text: str, stack: Cents) -> None:
        """A seat row's text is "3:alice" (`seat_text`)."""
        number, _, name = text.partition(":")
        if not number.isdigit() or not name:
            raise IllegalActionError(f"unreadable seat record {text!r} at {self.name}")
        seat = int(number)
        self.seated[account_id] = name
        self.seat_of[account_id] = seat
        self.stacks[account_id] = stack
        self.on_seat(account_id, seat, stack)

    # resuming the hand in play after a restart (issue 25, `room.resume`) ------------------------
    def sealed_shoe(self) -> Shoe | None:
        """The shoe the table deals from across hands, kept with every action (hook: a game
        whose deck lives only in its hand has none)."""
        return None

    def restore_shoe(self, shoe: Shoe) -> None:
        """The table takes its sealed shoe back at a restart (hook of the games that keep
        one)."""

    def sealed_hand(self) -> dict[str, Any] | None:
        """The hand in play as a restart resumes it: its history so far (`hand_so_far`,
        which the game's replayer replays), the stacks before its wagers, who dealt, the
        irregularities, the actions taken for a player, and the game's own fields
        (`sealed_fields`); None between hands."""
        if self.hand_id is None:
            return None
        return {"history": self.hand_so_far(),
                "before": {str(a): c for a, c in self.before.items()},
                "dealt_by": self.dealt_by, "irregularities": self.irregularities,
                "taken_for": self.defaults,
                "table": self.sealed_fields()}

    def hand_so_far(self) -> dict[str, Any]:
        """The hand in play in the shared history format, as far as it went (no result):
        every card dealt and every action, as its game's replayer reads them. Hook."""
        raise NotImplementedError

    def sealed_fields(self) -> dict[str, Any]:
        """The game's own fields of the hand in play that its history does not hold (hook;
        by default none)."""
        return {}

    def resume_hand(self, conn: Connection, hand_id: int, sealed: dict[str, Any],
                    replayed: GameReplay[Any]) -> None:
        """Take back the hand in play from its sealed record and its replay (`adopt`), then
        check it against the ledger: each player's stack is what it was before the hand less
        the stake the hand's record holds."""
        self.hand_id = hand_id
        self.before = {int(a): int(c) for a, c in sealed["before"].items()}
        self.dealt_by = str(sealed.get("dealt_by") or "")
        self.irregularities = list(sealed.get("irregularities") or [])
        self.defaults = list(sealed.get("taken_for") or [])
        self.adopt(replayed, sealed.get("table") or {})
        self.check_stakes(conn, hand_id)

    def adopt(self, replayed: GameReplay[Any], fields: dict[str, Any]) -> None:
        """The engine takes the replayed hand (the seats not in it as they are). Hook."""
        raise NotImplementedError

    def check_stakes(self, conn: Connection, hand_id: int) -> None:
        """A resumed hand agrees with the ledger: every stake the record holds went from its
        player's stack (`before` less the stake)."""
        for aid, bets in hands.open_wagers(conn, hand_id).items():
            if aid in self.before and aid in self.stacks and \
                    self.stacks[aid] != self.before[aid] - sum(bets.values()):
                raise IllegalActionError(f"the ledger's stack of account {aid} does not agree "
                                         "with the hand's record")

    # action timers (issue 23) -------------------------------------------------------------------
    def awaited(self) -> tuple[int, str] | None:
        """The account whose decision the hand waits for now, and a text naming this turn (a
        new text is a new turn with a new deadline); None when no person's decision is due.
        Hook: by default none (a game whose players do not decide in turn has no timer)."""
        return None

    def default_action(self, conn: Connection, account: int, actor: str) -> str:
        """Take the house rules' default action for `account`, whose turn ran out (or whom
        the staff act for), through the engine like any action (so the hand's events and its
        replay have it), audited by `actor`; returns what was done, in words. Hook of the
        games with a timer."""
        raise IllegalActionError(f"{self.game} has no default action")

    def record_default(self, first: int, end: int, actor: str) -> None:
        """The history's actions `first` to `end` (not included) were taken for the player
        whose turn it was, by `actor` ("timer": the turn timer, after the house rules'
        `turn_seconds`; else the staff member), not by the player: the settled history says
        so (`taken_for`, one entry per action), so that a recall shows who acted. A field of
        the room's beside the game's history: the game's replay never reads it."""
        rules = self.timer_rules()
        seconds = rules.turn_seconds if rules is not None and actor == "timer" else None
        self.defaults += [{"action": i, "by": actor, "seconds": seconds}
                          for i in range(first, end)]

    def timer_rules(self) -> TurnTimerRules | None:
        """The table's turn timer settings, where its game has them."""
        rules = getattr(self, "rules", None)
        return rules if isinstance(rules, TurnTimerRules) else None

    def arm_timer(self, conn: Connection) -> None:
        """After every change of the table: the turn the hand waits for gets its deadline,
        `turn_seconds` from now (a turn that goes on keeps its own), kept in the open hand's
        record (`turn`: whose, until when) so the hand's record says who was awaited."""
        rules = self.timer_rules()
        awaited = self.awaited() if rules is not None and self.hand_id is not None else None
        if awaited is None or rules is None or self.hand_id is None:
            self.turn = None
            return
        account, token = awaited
        if self.turn is not None and (self.turn.account, self.turn.token) == (account, token):
            return
        self.turn = Turn(account, token, self.clock() + timedelta(seconds=rules.turn_seconds))
        hands.set_in_open_record(conn, self.hand_id, ("turn",), {
            "account": account, "deadline": self.turn.deadline.isoformat()})

    def seconds_left(self) -> int | None:
        """Whole seconds until the awaited turn runs out (None: no turn is timed)."""
        if self.turn is None:
            return None
        return max(0, int((self.turn.deadline - self.clock()).total_seconds() + 0.999))

    def postpone(self) -> None:
        """The awaited turn's default could not be taken: its deadline moves a whole turn on
        (the floor decides meanwhile)."""
        rules = self.timer_rules()
        if self.turn is not None and rules is not None:
            self.turn = replace(self.turn, deadline=self.clock()
                                + timedelta(seconds=rules.turn_seconds))

    def expired(self) -> bool:
        return self.turn is not None and self.clock() >= self.turn.deadline

    def time_out(self, conn: Connection) -> None:
        """The awaited turn ran out: the house rules' default action is taken for the player
        by "timer" (`take_default`)."""
        if self.turn is None or not self.expired():
            raise IllegalActionError("no turn has run out at this table")
        self.take_default(conn, "timer")

    def act_for(self, conn: Connection, who: Account) -> None:
        """`{"type": "act_for"}`: a dealer or the floor takes the default action for the
        player the hand waits for (one who walked away), before their time runs out: the
        same default as the timer's (`take_default`), by the staff member."""
        if not who.may(Permission.DEAL):
            raise IllegalActionError("only a dealer or the floor may act for a player")
        if self.turn is None:
            raise IllegalActionError("no player's decision is awaited at this table")
        self.take_default(conn, who.username)

    def take_default(self, conn: Connection, actor: str) -> None:
        """The house rules' default action for the player the hand waits for
        (`default_action`, by `actor`: "timer" or the staff member), audited as
        `hand.timeout`; it counts as a miss of the player's, and at the house rules'
        `misses_to_sit_out` misses in a row they sit out (`table.sit-out`): no new hand is
        dealt to them until they are back."""
        rules, turn = self.timer_rules(), self.turn
        assert rules is not None and turn is not None
        hand_id = self.hand_id
        done = self.default_action(conn, turn.account, actor)
        misses = self.misses.get(turn.account, 0) + 1
        self.misses = {**self.misses, turn.account: misses}
        out = misses >= rules.misses_to_sit_out and turn.account in self.seated
        if out:
            self.away = self.away | {turn.account}
        audit.append(conn, actor, "hand.timeout", {
            "table": self.table_id, "hand": hand_id, "account": turn.account,
            "seat": self.seat_of.get(turn.account), "action": done, "misses": misses,
            "deadline": turn.deadline.isoformat()})
        if out:
            audit.append(conn, actor, "table.sit-out", {
                "table": self.table_id, "account": turn.account, "misses": misses})
        self._save_misses(conn, turn.account)
        self.turn = None

    def acted(self, conn: Connection, who: Account) -> None:
        """A player acted on their own turn in time: their misses in a row start again from
        none."""
        if self.misses.get(who.id):
            self.misses = {k: v for k, v in self.misses.items() if k != who.id}
            self._save_misses(conn, who.id)

    def come_back(self, conn: Connection, who: Account) -> None:
        """`{"type": "back"}`: a player who sat out after missed turns is dealt in again."""
        self.require_seated(who)
        if who.id not in self.away:
            raise IllegalActionError("you are not sitting out")
        self.away = self.away - {who.id}
        self.misses = {k: v for k, v in self.misses.items() if k != who.id}
        self._save_misses(conn, who.id)
        audit.append(conn, who.username, "table.back", {"table": self.table_id})

    def _save_misses(self, conn: Connection, account: int) -> None:
        """Keep the seat's misses and sitting out in its row, so a restart keeps them."""
        conn.execute(update(seats).where(seats.c.table_id == self.table_id,
                                         seats.c.account_id == account)
                     .values(misses=self.misses.get(account, 0),
                             sitting_out=account in self.away))


    # the transaction ---------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Every action runs inside: on any exception (a refusal, a failed commit, a defect)
        the table and its engine are restored as they were before, then it re-raises."""
        mark = self.checkpoint()
        try:
            yield
        except BaseException:
            self.restore(mark)
            raise

    def checkpoint(self) -> Any:
        """The table's state: the engine deep-copied (sharing `shared_objects`), the table's
        own fields copied one level deep (a dict, list or set field of a table is changed only
        at its top level: its items are replaced, never changed in place)."""
        state = {k: copy.copy(v) if isinstance(v, dict | list | set) else v
                 for k, v in vars(self).items()}
        state["engine"] = copy.deepcopy(self.engine, {id(o): o for o in self.shared_objects()})
        return state

    def restore(self, mark: Any) -> None:
        vars(self).update(mark)

    # seats ---------------------------------------------------------------------------------------
    def account_at(self, seat: int) -> int | None:
        for aid, s in self.seat_of.items():
            if s == seat:
                return aid
        return None

    def free_seats(self) -> list[int]:
        """The seats no one (no house player either) sits in, for a newcomer and the lobby."""
        return [s for s in range(1, self.max_seats + 1) if self.account_at(s) is None]

    def require_seated(self, who: Account) -> int:
        if who.id not in self.seated:
            raise IllegalActionError("you are not seated at this table")
        return self.seat_of[who.id]

    def sit(self, conn: Connection, who: Account, msg: Sit) -> None:
        who.require(Permission.PLAY)
        exclusions.refuse_seat(conn, who.id)  # RCW 9.46.071: every way into a seat is here
        buy_in, key = msg.buy_in, msg.key
        if who.id in self.seated:
            raise IllegalActionError("you are already seated at this table")
        free = self.free_seats()
        if not free:
            raise IllegalActionError(f"the table is full ({self.max_seats} seats)")
        if buy_in <= 0:
            raise WagerError("a buy-in must be more than nothing")
        posted = ledger.post(conn, f"sit:{self.table_id}:{who.id}:{key}", "buy-in",
                             ledger.move(ledger.wallet(who.id),
                                         ledger.stack(self.table_id, who.id), buy_in),
                             actor=who.username, memo=f"sit at {self.name}")
        if posted.replayed:
            return
        conn.execute(insert(seats).values(table_id=self.table_id, account_id=who.id,
                                          seat=seat_text(free[0], who.username)))
        audit.append(conn, who.username, "table.sit", {"table": self.table_id, "seat": free[0],
                                                       "buy_in": buy_in})
        self.restore_seat(who.id, seat_text(free[0], who.username), buy_in)

    def leave(self, conn: Connection, who: Account, msg: Leave) -> None:
        seat = self.require_seated(who)
        if self.in_play(who.id):
            raise IllegalActionError("you have chips in play: wait for the hand to settle")
        if self.bar_excluded(conn, [who.id]):
            return
        amount = self.stacks[who.id]
        key = f"leave:{self.table_id}:{who.id}:{msg.key}"
        if amount:
            ledger.post(conn, key, "leave", ledger.move(ledger.stack(self.table_id, who.id),
                                                        ledger.wallet(who.id), amount),
                        actor=who.username, memo=f"leave {self.name}")
        conn.execute(delete(seats).where(seats.c.table_id == self.table_id,
                                         seats.c.account_id == who.id))
        audit.append(conn, who.username, "table.leave", {"table": self.table_id,
                                                         "cashed": amount})
        self.on_leave(who.id, seat)
        for d in (self.seated, self.seat_of, self.stacks, self.misses):
            d.pop(who.id, None)
        self.away = self.away - {who.id}

    # wagers --------------------------------------------------------------------------------------
    def open_hand(self, conn: Connection, reserved: hands.NextHand | None = None) -> int:
        """The hand in progress, opened (its record, its number) by its first wager; with
        the id and number `reserved` for it if they were read ahead (`wager_request`)."""
        if self.hand_id is None:
            self.hand_id, self.hand_number = hands.open_hand(conn, self.table_id, reserved)
            self.before, self.irregularities, self.defaults = {}, [], []
            self.new_hand()
        return self.hand_id

    def new_hand(self) -> None:
        """A game's own per-hand records start empty (hook; by default nothing)."""

    def stake(self, conn: Connection, who: Account, key: str, request: dict[str, Any],
              change: Cents, record: Stake, kind: str, detail: dict[str, Any]) -> None:
        """Post `change` from the player's stack into the wagers (negative: back), keep the
        player's whole stake in the open hand's record, and audit it (`kind`, `detail`)."""
        hand_id = self.open_hand(conn)
        if change:
            ledger.post(conn, key, "wager", ledger.move(*self.stake_accounts(who), change),
                        actor=who.username, memo=f"hand {hand_id}", request=request)
        hands.record_wagers(conn, hand_id, who.id, record)
        audit.append(conn, who.username, kind, {"table": self.table_id, "hand": hand_id,
                                                **detail})

    def stake_accounts(self, who: Account) -> tuple[str, str]:
        """The accounts a wager of `who` moves (`stake`): read with its key's look-up."""
        return ledger.stack(self.table_id, who.id), ledger.wagers(self.table_id)

    def staked(self, conn: Connection, who: Account) -> Stake:
        """The seat's wagers on the open hand, as its record keeps them."""
        if self.hand_id is None:
            return {}
        return dict(hands.open_wagers(conn, self.hand_id).get(who.id, {}))

    def wager_request(self, conn: Connection, who: Account, msg: Bet | ChangeBets,
                      prefix: str, opens: bool = False
                      ) -> tuple[int, str, Stake, hands.NextHand | None] | None:
        """A player's `bet` or `change_bets`: their seat, the request's ledger key, its
        wagers, and if it `opens` the hand (a bet with no hand in progress) the id and number
        the hand is to have, read ahead with the key's look-up (`hands.next_hand_ahead`: no
        round trip of their own); None for a retried request (already applied once: the same
        key and wagers)."""
        who.require(Permission.PLAY)
        seat = self.require_seated(who)
        key = f"{prefix}:{self.table_id}:{who.id}:{msg.key}"
        bets = self.stake_of(msg)
        reserved = hands.next_hand_ahead(conn, self.table_id) \
            if opens and self.hand_id is None else None
        if ledger.replayed(conn, key, "wager", {"bets": bets}, self.stake_accounts(who)):
            return None
        return seat, key, bets, None if reserved is None else reserved()

    def bet(self, conn: Connection, who: Account, msg: Bet) -> None:
        """`{"type": "bet", "bets": {name: cents, ...}, "key": K}`: the seat's wagers on the
        coming hand (the first wager opens it)."""
        asked = self.wager_request(conn, who, msg, "bet", opens=True)
        if asked is None:
            return
        seat, key, bets, reserved = asked
        if who.id in self.away:  # a player who sat out after missed turns wagers: back
            self.come_back(conn, who)
        self.open_hand(conn, reserved)
        self.before.setdefault(who.id, self.stacks[who.id])
        record = self.place_bets(who, seat, bets)
        self.stacks[who.id] -= sum(bets.values())
        self.stake(conn, who, key, {"bets": bets}, sum(bets.values()), record, "table.bet",
                   {"bets": bets})

    def change_bets(self, conn: Connection, who: Account, msg: ChangeBets) -> None:
        """`{"type": "change_bets", "bets": {name: cents, ...}, "key": K}` (issue 13): until
        the deal, the seat's wagers are replaced by these; `"bets": {}` withdraws them. The
        difference moves between the stack and the wagers in one balanced transaction,
        audited as `table.bet` with the wagers it replaced."""
        asked = self.wager_request(conn, who, msg, "change")
        if asked is None:
            return
        seat, key, bets, _ = asked
        old = self.staked(conn, who)
        self.withdraw_bets(who, seat)  # the engine refuses a seat with no wager
        self.stacks[who.id] += sum(old.values())
        record = self.place_bets(who, seat, bets) if bets else {}
        self.stacks[who.id] -= sum(bets.values())
        self.stake(conn, who, key, {"bets": bets}, sum(bets.values()) - sum(old.values()), record,
                   "table.bet", {"bets": bets, "replaces": old})
        if not record:  # withdrawn: no longer in this hand's seats
            self.before.pop(who.id, None)

    # the end of a hand -------------------------------------------------------------------------
    def void(self, conn: Connection, who: Account, reason: str) -> None:
        """The floor voids the hand in progress: every wager goes back to its stack, who and
        why logged (`hands.void_hand`); the engine drops the hand (`void_engine`)."""
        who.require(Permission.VOID)
        if self.hand_id is None:
            raise IllegalActionError("no hand is in progress at this table")
        self.void_engine(f"voided by {who.username}: {reason}")
        returned = hands.void_hand(conn, self.hand_id, who.username, reason)
        for aid, total in returned.items():
            if aid in self.stacks:
                self.stacks[aid] += total
        self.end_hand(VoidedHand(hand=self.hand_id, number=self.hand_number, voided=True,
                                 reason=reason,
                                 by=who.username))

    def end_hand(self, last: R | VoidedHand) -> None:
        """The hand is closed (settled or void): `last` is what every viewer sees of it."""
        self.last = last
        self.hand_id = None
        self.irregularities, self.defaults = [], []

    def history_setup(self) -> dict[str, Any]:
        """The room's fields of a hand history's setup (which table, which hand, who dealt)."""
        return {"table": self.name, "table_id": self.table_id, "hand_number": self.hand_number,
                **({"dealt_by": self.dealt_by} if self.dealt_by else {})}

    def close_hand(self, conn: Connection, history: dict[str, Any], result: R,
                   detail: dict[str, Any], postings: ledger.Postings | None = None,
                   actor: str = "dealer", payouts: list[Payout] | None = None,
                   results: dict[int, hands.PlayerResult] | None = None,
                   excluded: Callable[[], dict[int, int]] | None = None) -> None:
        """Settle the hand in progress: `postings` as one balanced transaction, the history
        (the game's document with the room's fields) closes the record, `hand.settled` in
        the audit log (`detail`), and `result` (built by the game with `settled_hand`)
        becomes `last`. `payouts`, each wager's settlement: one whose win is over the
        surveillance figure is held (WAC 230-15-320(4), `surveillance.hold`): what it returns
        goes to the table's held account, out of the winner's stack, and the result says it
        awaits verification. Each player's stake and net result go on their row of the hand
        (`results`, by default `settled_results`), for their hand history. `excluded`: the
        exclusion check of the players seated, if the caller sent it ahead already
        (`exclusion_check_ahead`)."""
        assert self.hand_id is not None
        # read ahead: they go with the ledger's look-up below, no round trip of their own
        wagers = hands.open_wagers_ahead(conn, self.hand_id) if results is None else None
        excluded = excluded or self.exclusion_check_ahead(conn)
        held: list[Payout] = []
        if payouts and postings is not None:
            postings = list(postings)
            held = surveillance.hold(conn, self.table_id, self.hand_id, payouts, postings,
                                     datetime.now(UTC))
        if postings is not None:
            ledger.post(conn, f"hand:{self.hand_id}:settle", "settle", postings,
                        actor="dealer", memo=f"{self.name} hand {self.hand_id}")
        if wagers is not None:  # (the stacks as settled: before a held win leaves them)
            results = self.settled_results(wagers())
        assert results is not None
        for p in held:  # the winner's chips for that wager move on verification only
            self.stacks[p.account] -= p.returned
            self.on_seat(p.account, self.seat_of[p.account], self.stacks[p.account])
        if held:
            history["held_for_surveillance"] = [
                {"account": p.account, "wager": p.wager} for p in held]
            result.awaiting_verification = [
                AwaitingVerification(name=self.seated[p.account], wager=p.wager) for p in held]
        history["hand_id"] = str(self.hand_id)  # the table's count: setup.hand_number
        history["setup"].update(self.history_setup())
        history["status"] = "settled"
        if self.irregularities:
            history["irregularities"] = list(self.irregularities)
        if self.defaults:
            history["taken_for"] = list(self.defaults)
        hands.close_settled(conn, self.hand_id, history)
        hands.record_results(conn, self.hand_id, results)
        audit.append(conn, actor, "hand.settled", {"table": self.table_id,
                                                   "hand": self.hand_id, **detail})
        self.end_hand(result)
        self.bar_excluded(conn, list(self.seated), excluded())

    def exclusion_check_ahead(self, conn: Connection) -> Callable[[], dict[int, int]]:
        """The self-exclusion check of the players seated, read ahead (it goes with the
        unit's next statement that is waited for), for the end of the hand (`close_hand`
        bars those found)."""
        return exclusions.excluded_accounts_ahead(conn, list(self.seated))

    def settled_results(self, wagers: dict[int, Stake]) -> dict[int, hands.PlayerResult]:
        """Each player's stake on the hand (their wagers as the open record keeps them) and
        net result: their stack now, the hand settled by the game, less their stack before
        their first wager (`before`); a win held for verification counts, as the game
        settled it. `wagers`: the open hand's, as its record keeps them (`open_wagers`)."""
        return {a: hands.PlayerResult(
            sum(bets.values()),
            self.stacks[a] - self.before[a] if a in self.before and a in self.stacks else None)
            for a, bets in wagers.items()}

    def bar_excluded(self, conn: Connection, account_ids: list[int],
                     found: dict[int, int] | None = None) -> list[int]:
        """Remove from the table every one of `account_ids` (not in a hand) found on the
        self-exclusion list (a breach, WAC 230-23-030): the chips at stake, winnings just paid
        included, are confiscated (`exclusions.confiscate`) instead of reaching their wallet.
        `found`: what `exclusions.excluded_accounts` found of them, if already read. Returns
        the accounts removed."""
        if found is None:
            found = exclusions.excluded_accounts(conn, account_ids)
        removed = []
        for aid, entry_id in found.items():
            if aid not in self.seated or self.in_play(aid):
                continue
            stack = ledger.stack(self.table_id, aid)
            exclusions.confiscate(conn, aid, [(stack, ledger.balance(conn, stack))],
                                  place=f"table {self.name}", table_id=self.table_id,
                                  entry_id=entry_id,
                                  key=f"{self.table_id}:{aid}:{self.hand_number}")
            conn.execute(delete(seats).where(seats.c.table_id == self.table_id,
                                             seats.c.account_id == aid))
            audit.append(conn, "room", "table.removed", {"table": self.table_id,
                                                         "seat": self.seat_of[aid]})
            self.on_leave(aid, self.seat_of[aid])
            for d in (self.seated, self.seat_of, self.stacks):
                d.pop(aid, None)
            removed.append(aid)
        return removed

    def settled_hand(self) -> dict[str, Any]:
        """The `HandResult` fields of the hand in progress: its id and number."""
        assert self.hand_id is not None
        return {"hand": self.hand_id, "number": self.hand_number}

    # views ---------------------------------------------------------------------------------------
    def snapshot(self, viewer: Account | None) -> dict[str, Any]:
        """What `viewer` may see of the table, as the JSON its page receives: the game's
        model (`state`) dumped, a field the game did not give (`HandRef.phase` in baccarat)
        left out."""
        return self.state(viewer).model_dump(mode="json", exclude_unset=True)

    def envelope(self, phase: str) -> dict[str, Any]:
        """The fields of `TableState` every game but baccarat fills alike: the table, the hand
        (its number and `phase`, `idle` between hands), the last result."""
        timed = {"turn": self.turn_view()} if self.timer_rules() is not None else {}
        return {"type": "state", "game": self.game,
                "table": TableRef(id=self.table_id, name=self.name),
                "hand": HandRef(id=self.hand_id, open=self.hand_id is not None,
                                number=self.hand_number, phase=phase, **timed),
                "last": self.last}

    def turn_view(self) -> TurnView | None:
        """The timed turn as every viewer sees it: whose, and the time left."""
        turn, left = self.turn, self.seconds_left()
        if turn is None or left is None:
            return None
        return TurnView(name=self.seated.get(turn.account, "?"),
                        seat=self.seat_of.get(turn.account), seconds_left=left,
                        deadline=turn.deadline.isoformat())

    def viewer_flags(self, viewer: Account | None) -> dict[str, Any]:
        """The fields of `SeatedYou`: whether and where the viewer sits, whether they may deal
        (a game widens it) and void."""
        return {"seated": viewer is not None and viewer.id in self.seated,
                "seat": self.seat_of.get(viewer.id) if viewer is not None else None,
                "may_deal": viewer is not None and viewer.may(Permission.DEAL),
                "may_void": viewer is not None and viewer.may(Permission.VOID),
                **({"sitting_out": viewer is not None and viewer.id in self.away}
                   if self.timer_rules() is not None else {})}

    def players_view(self, viewer: Account | None) -> list[TablePlayer]:
        """The seated players in seat order: seat, name, stack, whether it is the viewer."""
        return [TablePlayer(seat=self.seat_of[a], name=n, stack=self.stacks[a],
                            you=viewer is not None and a == viewer.id)
                for a, n in sorted(self.seated.items(), key=lambda x: self.seat_of[x[0]])]
