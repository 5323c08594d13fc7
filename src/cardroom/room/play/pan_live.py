"""A Pan table in the card room: players against each other, bots filling seats. The engine
(`cardroom.games.pan`) checks every decision and moves the chips; this module keeps the ledger
in step with it, keeps the hand record, and builds what each viewer may see; the table across
hands (the bots' turns, the offers they answer, the next pack, the carried tops, the void) is
the one Pan table driver, `games.pan.driver.PanTable`, as the terminal's and the simulation's.

Money: a Pan chip is `chip_cents` of the table's house rules. A seat's chips are its table
stack (`stack:<table>:<account>`; a bot, a house proposition player funded by the table's
`house:players:<table>`, has `stack:<table>:-<seat>`); the tops (and tops carried to the next
hand) are in `wagers:<table>`. After every step of play (a player's action, each bot's turn)
the chips the engine moved (tops, conditions, outs) are posted as one balanced transaction, so
the books follow the hand as conditions are paid. The open hand's row keeps, per account, what
would put every stack back as it was before the hand: a void (the floor, or the restart after
a crash) posts exactly that.

Protocol (besides sit, leave, deal, void): `{"type": "bot", "key": K}` seats a bot (between
hands); `{"type": "pan", "action": {"kind": "meld", "cards": ["3c", "4c", "5c"]}, "seq": N}`
is a decision as a typed action (`cardroom.games.pan.commands.PanAction`: the player's
snapshot lists the legal ones under `play.actions`, each with a button label), or
`{"type": "pan", "command": "meld 3c 4c 5c", "seq": N}` the same in the terminal's command
grammar (a seat named by its table seat number, as the engine knows it: `settle 3 2`, `foul
3`); `seq` is the table's `seq` in the snapshot the player acted on: a stale or repeated
message is refused. The table's log tells every action, the bots' too, in plain words
(`games.pan.events.event_line`), naming players, never seat indexes.

Double condition: `sit` may carry `"doubles": true` (where the house rules allow it, with
twice the minimum buy-in); `{"type": "raise_condition"}` is the floor moving a game where
every player plays doubles to the next condition. The choice is kept in the seat's row
("3:alice:doubles"), and the tops a redeal carries over in the settled hand's record
(`tops_carry_out`), so a restart keeps both.

Foul rule 5, a player left alone after fouls: a bot plays on face up (5B); a person chooses,
with the `pan` commands `face up` (5B) or `settle SEAT CHIPS [SEAT CHIPS ...]` (5A, an offer:
a bot among the foul hands answers at once, a person with `accept settlement` or
`decline settlement`; the settlement is made when every foul hand asked has agreed).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NoReturn, Self

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from cardroom.cards import Card
from cardroom.errors import IllegalActionError, WagerError
from cardroom.games.pan.bots import Bot, SoundBot
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.commands import (
    Kind,
    PanAction,
    action_from_json,
    command_text,
    parse_command,
)
from cardroom.games.pan.driver import PanTable
from cardroom.games.pan.engine import Phase, SeatSpec, SeatState
from cardroom.games.pan.errors import PanRuleError
from cardroom.games.pan.events import ChipsMoved, ToppedUp, event_line
from cardroom.games.pan.history import at_seats, history_of, recorded
from cardroom.games.pan.replay import Replay as PanReplay
from cardroom.games.pan.rules import MAX_SEATS, MIN_SEATS, PanRules
from cardroom.games.pan.table import dealer_at
from cardroom.history import VOID, GameReplay, HandHistory
from cardroom.houserules import build_rules, check_profile
from cardroom.money import Cents, format_money
from cardroom.room.money import hands, ledger, pan_fees
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.play import protocol
from cardroom.room.play.live_table import LiveTable, Pools, card_view
from cardroom.room.play.pan_protocol import Bot as AddBot
from cardroom.room.play.pan_protocol import (
    PanActionView,
    PanCommand,
    PanNet,
    PanOffer,
    PanPlay,
    PanPlayer,
    PanResult,
    PanSeat,
    PanSit,
    PanState,
    PanYou,
    RaiseCondition,
)
from cardroom.room.play.pan_protocol import PanRules as PanRulesView
from cardroom.room.play.protocol import Deal, Leave, Sit
from cardroom.room.play.tables import TableRow
from cardroom.room.storage import audit
from cardroom.room.storage.schema import accounts as accounts_table
from cardroom.room.storage.schema import hands as hands_table
from cardroom.room.storage.schema import room_tables
from cardroom.room.storage.schema import seats as seats_table
from cardroom.shoe import RandomSource, fisher_yates

GAME = "pan"
DOUBLES = ":doubles"
"""The suffix of a doubles player's seat row ("3:alice:doubles")."""


CloseReads = tuple[Callable[[], dict[int, int]], Callable[[], hands.NextHand] | None]
"""A hand's close's reads sent ahead (`PanLive._reads_of_the_close`): the exclusion check of
the players seated, and the table's next hand's id and number (None on SQLite)."""


def shuffled_pack(rules: PanRules, source: RandomSource) -> list[Card]:
    """A fresh pack for a table's first hand (tests give a table a stacked one instead)."""
    return fisher_yates(pan_pack(rules), source)


def bot_id(seat: int) -> int:
    """A bot's stand-in account number: minus its seat (real accounts are positive)."""
    return -seat


@dataclass
class PanGame(PanTable):
    """Everything the checkpoint must restore together: the table (`PanTable`: the hand, the
    next pack, the carried tops, a settlement on offer), the seats, the bots, the rotation."""

    accounts: dict[int, int] = field(default_factory=dict)  # seat -> account (or bot id)
    bots: dict[int, str] = field(default_factory=dict)  # seat -> bot name
    brains: dict[int, Bot] = field(default_factory=dict)
    last_dealer_seat: int | None = None  # the last hand's dealer
    winner_seat: int | None = None  # the last hand's winner: first hand next
    synced: dict[int, int] = field(default_factory=dict)  # chips per seat in the ledger
    events_seen: int = 0
    doubles: set[int] = field(default_factory=set)  # accounts that chose double condition

    def players(self) -> dict[int, Bot | None]:
        """The bot of each seat of the hand in play (by its table seat number, as the engine
        knows it), None for a person."""
        return {seat: self.brains.get(seat) if a < 0 else None
                for seat, a in self.accounts.items()}

    def seat_of(self, account: int) -> int:
        """The seat `account` plays in the hand in play."""
        return next(seat for seat, a in self.accounts.items() if a == account)


@dataclass
class PanLive(LiveTable[PanGame, PanResult, AddBot | RaiseCondition | PanCommand]):
    rules: PanRules = field(default_factory=PanRules)
    seq: int = 0
    log: list[str] = field(default_factory=list)  # what happened, public, newest last
    new_pack: Callable[[PanRules, RandomSource], list[Card]] = shuffled_pack
    fee_paid_until: dict[int, datetime] = field(default_factory=dict)
    """Time fee: the end of the period each account has paid for at this table (kept when
    the player leaves, so sitting down again within it costs nothing)."""
    next_hand: hands.NextHand | None = None
    """The id and number of the table's next hand, read ahead with the last hand's close
    (`_reads_of_the_close`), so that the deal opens it without a wait (PostgreSQL; None at
    the table's first hand and in a process that took the table over: the deal reads them).
    Only the table's holder opens its hands, and a process that loses the table forgets it,
    so the number stands; an id not used is a gap in the ids, as a rolled-back hand left."""

    max_seats = MAX_SEATS
    game = GAME
    rules_model = PanRules
    state_model = PanState
    messages = (PanSit, protocol.Leave, protocol.Deal, protocol.Void, AddBot,
                RaiseCondition, PanCommand, protocol.Back, protocol.ActFor)

    @classmethod
    def void_history(cls, conn: Connection, table: Any, hand_id: int,
                     wagers: dict[str, dict[str, Cents]], actor: str, reason: str,
                     published: dict[str, Any]) -> dict[str, Any]:
        """Pan's: amounts in whole chips (`chip_cents`, as the deal published it), a seat
        per player of the hand in the table's seat order (a house bot, a negative account, is
        "bot-N" with no account), what went back the chips each had paid in net, and the tops
        carried into the hand kept for the next one (`tops_carry_out`)."""
        rules = json.loads(table.rules_json)
        chip = int(published.get("chip_cents") or build_rules(PanRules, rules).chip_cents)
        seated = {r.account_id: r.seat for r in conn.execute(
            select(seats_table).where(seats_table.c.table_id == table.id))}

        def table_seat(acct: int) -> int | None:  # None: no seat row left (the recovery)
            seat = str(seated.get(acct, "")).partition(":")[0]
            return -acct if acct < 0 else int(seat) if seat.isdigit() else None

        people, returned = [], []
        for index, acct in enumerate(sorted((int(k) for k in wagers),
                                            key=lambda a: table_seat(a) or 0)):
            name = f"bot-{-acct}" if acct < 0 else conn.execute(
                select(accounts_table.c.username).where(accounts_table.c.id == acct)).scalar_one()
            chips = ledger.balance(conn, ledger.stack(table.id, acct)) // chip
            people.append({"seat": index, "name": name, "account": acct if acct > 0 else None,
                           "table_seat": table_seat(acct), "chips": chips})
            returned.append({"seat": index, "name": name, "chips": sum(
                wagers[str(acct)].values()) // chip})
        carried = list(published.get("carried_tops") or (0, 0))
        setup = {**published, "unit": "chips", "chip_cents": chip, "carried_tops": carried,
                 "tops_carry_out": carried}
        history = HandHistory(
            game=GAME, hand_id=str(hand_id), rules=rules, seats=people, pack=[], setup=setup,
            actions=[{"type": VOID, "by": actor, "reason": reason, "returned": returned}],
            result={"chips": [p["chips"] for p in people], "winner": None, "voided": True,
                    "reason": f"voided by {actor}: {reason}"})
        return history.to_json()

    def __post_init__(self) -> None:
        self.engine = PanGame(self.source)

    @property
    def chip(self) -> Cents:
        return self.rules.chip_cents

    def shared_objects(self) -> list[object]:
        """Besides what every table shares: a finished hand and the next pack, which nothing
        changes any more (the next deal replaces them)."""
        g, h = self.engine, self.engine.hand
        done = [h] if h is not None and h.phase is Phase.COMPLETE else []
        return [self.source, self.rules, self.new_pack, self.clock,
                *([h.pack, h.rules] if h else []),
                *done, *([g.next_pack] if g.next_pack is not None else [])]

    def in_play(self, account_id: int) -> bool:
        h = self.engine.hand
        return h is not None and h.phase is not Phase.COMPLETE and \
            account_id in self.engine.accounts.values()

    def account_at(self, seat: int) -> int | None:
        if seat in self.engine.bots:
            return bot_id(seat)
        return super().account_at(seat)

    @classmethod
    def from_row(cls, conn: Connection, row: TableRow, source: RandomSource,
                 pools: Pools) -> Self:
        """The table from its registry row; bots and carried tops come back from the ledger, the
        time-fee periods from `pan_fees`."""
        live = super().from_row(conn, row, source, pools)
        prefix = f"stack:{row.id}:-"
        for name, amount in ledger.balances(conn, prefix).items():
            seat = name[len(prefix):]
            if seat.isdigit() and amount > 0:
                live.restore_bot(int(seat), amount)
        pot = ledger.balance(conn, ledger.wagers(row.id)) // live.chip
        live.engine.carried = carried_tops(conn, row.id, pot)
        live.fee_paid_until = pan_fees.load_periods(conn, row.id)
        return live

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Every action that goes through moves the table's `seq` on (a stale `pan` message,
        one that answers an older `seq`, is refused)."""
        with super().transaction():
            yield
            self.seq += 1

    # seats --------------------------------------------------------------------------------
    def sit(self, conn: Connection, who: Account, msg: Sit) -> None:
        doubles = isinstance(msg, PanSit) and msg.doubles
        if doubles and not self.rules.allow_double_condition:
            raise IllegalActionError("this table plays straight condition only: no double "
                                     "condition")
        least = self.rules.buy_in_chips * (2 if doubles else 1)
        if msg.buy_in % self.chip or msg.buy_in < least * self.chip:
            raise WagerError(f"a Pan buy-in is whole chips of {format_money(self.chip)}, at least "
                             f"{least} chips" + (" (twice the minimum buy-in for double "
                                                 "condition)" if doubles else ""))
        super().sit(conn, who, msg)
        if doubles:
            self._mark_doubles(conn, who.id, True)
            self.engine.doubles.add(who.id)

    def _mark_doubles(self, conn: Connection, account_id: int, doubles: bool) -> None:
        """Keep the choice of double condition in the seat's row, for a restart."""
        row = seats_table.c
        text = conn.execute(select(row.seat).where(row.table_id == self.table_id,
                                                   row.account_id == account_id)).scalar_one()
        plain = text.removesuffix(DOUBLES)
        conn.execute(update(seats_table).where(row.table_id == self.table_id,
                                               row.account_id == account_id)
                     .values(seat=plain + DOUBLES if doubles else plain))

    def restore_seat(self, account_id: int, text: str, stack: Cents) -> None:
        """A seat row ends with ":doubles" where its player chose double condition."""
        super().restore_seat(account_id, text.removesuffix(DOUBLES), stack)
        if text.endswith(DOUBLES):
            self.engine.doubles.add(account_id)

    def on_leave(self, account_id: int, seat: int) -> None:
        self.engine.doubles.discard(account_id)

    def leave(self, conn: Connection, who: Account, msg: Leave) -> None:
        super().leave(conn, who, msg)
        if not self.seated:
            self._bots_cash_out(conn)

    def _bots_cash_out(self, conn: Connection) -> None:
        """The last player left: the house's bots leave too, their chips back to the house's
        account of its players at this table."""
        for seat in self.engine.bots:
            amount = ledger.balance(conn, ledger.stack(self.table_id, bot_id(seat)))
            if amount:
                ledger.post(conn, f"bot-out:{self.table_id}:{seat}:{self.seq}", "leave",
                            ledger.move(ledger.stack(self.table_id, bot_id(seat)),
                                        ledger.house_players(self.table_id), amount),
                            actor="house",
                            memo=f"bot leaves {self.name}")
            self.stacks.pop(bot_id(seat), None)
        audit.append(conn, "house", "table.bots-leave", {"table": self.table_id})
        self.engine.bots.clear()
        self.engine.brains.clear()

    def add_bot(self, conn: Connection, who: Account, msg: AddBot) -> None:
        """A seated player or the floor seats a bot between hands, funded by the house."""
        if not (who.id in self.seated or who.may(Permission.OPEN_TABLES)):
            raise IllegalActionError("only a seated player or the floor may seat a bot")
        if self.hand_id is not None:
            raise IllegalActionError("a hand is in play: seat bots between hands")
        free = self.free_seats()
        if not free:
            raise IllegalActionError(f"the table is full ({self.max_seats} seats)")
        seat, key = free[0], msg.key
        buy_in = self.rules.buy_in_chips * self.chip
        posted = ledger.post(conn, f"bot:{self.table_id}:{who.id}:{key}", "buy-in",
                             ledger.move(ledger.house_players(self.table_id),
                                         ledger.stack(self.table_id, bot_id(seat)), buy_in),
                             actor=who.username, memo=f"house bot sits at {self.name}")
        if posted.replayed:
            return
        audit.append(conn, who.username, "table.bot", {"table": self.table_id, "seat": seat,
                                                       "buy_in": buy_in})
        self.restore_bot(seat, buy_in)
        self.log.append(f"bot-{seat} sits down with {self.rules.buy_in_chips} chips")

    def raise_condition(self, conn: Connection, who: Account) -> None:
        """Double condition play: "If all players are playing doubles, at the discretion of
        the floorman, the game may be changed to the next higher condition": between hands,
        the floor doubles the chip's value; every player then plays single condition at it
        (stacks keep their value), and no doubles are offered ("no condition bigger than
        double condition")."""
        who.require(Permission.OPEN_TABLES)
        if self.hand_id is not None:
            raise IllegalActionError("a hand is in play: change the condition between hands")
        players = [a for s in range(1, self.max_seats + 1)
                   if (a := self.account_at(s)) is not None]
        if len(players) < MIN_SEATS or any(a not in self.engine.doubles for a in players):
            raise IllegalActionError("the game moves to the next condition only when every "
                                     "player at the table plays double condition")
        if any(self.engine.carried):
            raise IllegalActionError("tops carried from a redeal must be played first")
        chip = 2 * self.chip
        rules = check_profile(build_rules(
            PanRules, {**self.rules.model_dump(mode="json"), "chip_cents": chip,
                       "allow_double_condition": False}, f"table {self.name}"),
            f"table {self.name}")
        conn.execute(update(room_tables).where(room_tables.c.id == self.table_id)
                     .values(rules_json=json.dumps(rules.model_dump(mode="json"))))
        for a in players:
            self._mark_doubles(conn, a, False)
        audit.append(conn, who.username, "table.condition", {"table": self.table_id,
                                                             "chip_cents": chip})
        self.rules = rules
        self.engine.doubles.clear()
        self.log.append(f"the floor moves the game to the next condition: a chip is now "
                        f"{format_money(chip)}, every player at single condition")

    def restore_bot(self, seat: int, stack: Cents) -> None:
        self.engine.bots[seat] = f"bot-{seat}"
        self.engine.brains[seat] = SoundBot()
        self.stacks[bot_id(seat)] = stack

    def name_of(self, account: int) -> str:
        if account < 0:
            return self.engine.bots.get(-account, f"bot-{-account}")
        return self.seated.get(account, "?")

    def unknown(self, kind: str) -> NoReturn:
        """A wager (`bet`, `change_bets`) is refused with why Pan has none."""
        if kind in ("bet", "change_bets"):
            raise IllegalActionError("Pan has no wagers: the tops are taken from every seat "
                                     "when the hand is dealt")
        super().unknown(kind)

    # the deal -------------------------------------------------------------------------------
    def deal(self, conn: Connection, who: Account, msg: Deal) -> None:
        """Start a hand: a seated player, a dealer or the floor may; two or more seats with a
        chip play (a player short of the tops sits out)."""
        if not (who.id in self.seated or who.may(Permission.DEAL)):
            raise IllegalActionError("only a seated player or a dealer may start the hand")
        if self.hand_id is not None:
            raise IllegalActionError("a hand is in play")
        g = self.engine
        occupied = sorted(s for s in range(1, self.max_seats + 1)
                          if (a := self.account_at(s)) is not None
                          and self.stacks.get(a, 0) >= self.chip and a not in self.away)
        fees = pan_fees.due_before_deal(
            self.rules.fee, [a for s in occupied if (a := self.account_at(s)) is not None],
            self.stacks, self.chip, self.fee_paid_until, self.clock())
        occupied = [s for s in occupied if self.account_at(s) not in fees.short]
        short = [f"{self.name_of(a)} cannot pay the table's fee and is not dealt in"
                 for a in fees.short]
        if len(occupied) < MIN_SEATS:
            raise IllegalActionError(f"Pan needs {MIN_SEATS} players with chips: seat a bot "
                                     "or wait for another player" + "".join(
                                         f" ({line})" for line in short))
        paid = {c.account: c.cents for c in fees.charges}
        accounts = [a for s in occupied if (a := self.account_at(s)) is not None]
        for a, cents in paid.items():
            self.stacks[a] -= cents
        # double condition: chosen when sitting; a doubles player short of twice the minimum
        # buy-in plays this hand at single condition
        twice = 2 * self.rules.buy_in_chips
        specs = {s: SeatSpec(self.name_of(a), self.stacks[a] // self.chip,
                             a in g.doubles and self.stacks[a] // self.chip >= twice)
                 for s, a in zip(occupied, accounts, strict=True)}
        pack: list[Card] | None = None  # the pack the last hand left
        if g.last_dealer_seat is None or g.next_pack is None:
            dealer = self.source.randbelow(len(occupied))
            pack = self.new_pack(self.rules, self.source)
        else:
            # the winner first hand, wherever players sat down or left (Pan rotation)
            dealer = dealer_at(occupied, g.winner_seat, g.last_dealer_seat)
        dealt = g.deal(self.rules, specs, occupied[dealer], pack)
        g.accounts = dict(zip(occupied, accounts, strict=True))
        g.synced, g.events_seen = {seat: s.chips for seat, s in specs.items()}, 0
        hand_id, number = hands.open_hand(conn, self.table_id, self.next_hand)
        self.hand_id, self.hand_number, self.next_hand = hand_id, number, None
        # published now: a void of this hand (the floor, or recovery) keeps them
        hands.publish_setup(conn, hand_id, {"dealer": dealer, "chip_cents": self.chip,
                                            "carried_tops": list(dealt.carried_tops)})
        pan_fees.collect(conn, self.table_id, self.name, hand_id, fees.charges)
        pan_fees.save_periods(conn, self.table_id, fees.paid_until or {})
        hands.add_players(conn, hand_id, [a for a in accounts if a > 0])
        audit.append(conn, who.username, "hand.dealt", {
            "table": self.table_id, "hand": hand_id,
            "seats": [self.name_of(a) for a in accounts], "dealer": dealer})
        self.fee_paid_until.update(fees.paid_until or {})
        self.log[:] = [*short, *(f"{self.name_of(c.account)} pays the {c.kind} fee of "
                                 f"{format_money(c.cents)}" for c in fees.charges),
                       f"{hands.hand_title(hand_id, number)}: "
                       f"{self.name_of(accounts[dealer])} deals"]
        self._play_on(conn)

    # decisions ---------------------------------------------------------------------------------
    def act(self, conn: Connection, who: Account,
            msg: AddBot | RaiseCondition | PanCommand) -> None:
        if isinstance(msg, AddBot):
            return self.add_bot(conn, who, msg)
        if isinstance(msg, RaiseCondition):
            return self.raise_condition(conn, who)
        if msg.seq != self.seq:
            raise IllegalActionError("that was a stale action: the table has moved on since "
                                     "you chose; nothing was done, look again and choose")
        g, hand = self.engine, self.engine.hand
        if hand is None or self.hand_id is None or hand.phase is Phase.COMPLETE:
            raise IllegalActionError("no hand is in play at this table")
        if who.id not in g.accounts.values():
            raise IllegalActionError("you are not playing this hand")
        if msg.action is not None:
            chosen = action_from_json(msg.action)
        else:
            assert msg.command is not None  # the model reads one of the two
            chosen = parse_command(hand, msg.command)
        me = g.seat_of(who.id)
        acted = len(hand.actions)
        try:
            g.act(me, chosen, g.players())
        except PanRuleError as exc:
            raise IllegalActionError(_named_seats(str(exc), hand.seats)) from None
        if (line := _settlement_line(hand.seats, me, chosen)) is not None:
            self.log.append(line)
        audit.append(conn, who.username, "pan.action", {
            "table": self.table_id, "hand": self.hand_id, "action": recorded(
                hand, hand.actions[-1]) if len(hand.actions) > acted else chosen.kind.value})
        self._play_on(conn)

    def _play_on(self, conn: Connection) -> None:
        """After a person's action (or the deal): the chips it moved are posted, the bots
        play (`PanTable.play`, each step posted) until a person's decision is due, and a hand
        that is over is closed. A person's action that ended the hand sends the close's reads
        (`_reads_of_the_close`: the exclusion check, the next hand's id and number) ahead of
        the posting, so that they travel with the posting's look-up instead of being a round
        trip of their own."""
        g, hand = self.engine, self.engine.hand
        assert hand is not None and self.hand_id is not None
        hand_id = self.hand_id
        ahead = self._reads_of_the_close(conn) if hand.phase is Phase.COMPLETE else None
        self.log += self._sync(conn, hand_id)
        g.play(g.players(), after=lambda _: self.log.extend(self._sync(conn, hand_id)))
        del self.log[:-40]
        self._stacks_from_engine()
        if hand.phase is Phase.COMPLETE:
            self._finish(conn, ahead)

    def _reads_of_the_close(self, conn: Connection) -> CloseReads:
        """What the close of the hand reads, sent ahead (with the unit's next waited
        statement): the exclusion check of the players seated, and the id and number of the
        table's next hand, kept for its deal (`next_hand`; None on SQLite)."""
        return self.exclusion_check_ahead(conn), hands.next_hand_ahead(conn, self.table_id)

    # action timers (issue 23) -----------------------------------------------------------------
    def awaited(self) -> tuple[int, str] | None:
        """The person the hand waits for (`to_act`: the next to declare, a player who must
        discard, the player in turn; bots never wait); one turn lasts until a discard or a
        declaration moves play on."""
        g, hand = self.engine, self.engine.hand
        if hand is None or hand.phase is Phase.COMPLETE or hand.to_act is None:
            return None
        account = g.accounts[hand.to_act]
        if account < 0:
            return None
        return account, f"{self.hand_id}:{hand.to_act}:{hand.phase}:{len(hand.discards)}"

    def default_action(self, conn: Connection, account: int, actor: str) -> str:
        """The default play of a player whose turn ran out (`default_play`), step by step
        until the turn has moved on, each through the engine like any action (so the hand's
        history and its replay have it) and audited as `pan.action` by `actor`."""
        g, hand = self.engine, self.engine.hand
        assert hand is not None and self.hand_id is not None
        me = g.seat_of(account)
        done: list[str] = []
        first = len(hand.actions)
        for _ in range(MAX_DEFAULT_STEPS):
            chosen = default_play(g.legal(me)) if hand.to_act == me else None
            if chosen is None or hand.phase is Phase.COMPLETE:
                break
            acted = len(hand.actions)
            g.act(me, chosen, g.players())
            audit.append(conn, actor, "pan.action", {
                "table": self.table_id, "hand": self.hand_id, "action": recorded(
                    hand, hand.actions[-1]) if len(hand.actions) > acted else chosen.kind.value})
            done.append(chosen.kind.value)
        if not done:
            raise IllegalActionError("no default play fits this turn: the floor decides")
        self.record_default(first, len(hand.actions), actor)
        self.log.append(f"{self.name_of(account)}'s time ran out: " + ", ".join(done)
                        if actor == "timer" else
                        f"{actor} plays the default for {self.name_of(account)}: "
                        + ", ".join(done))
        self._play_on(conn)
        return ", ".join(done)

    # the books ----------------------------------------------------------------------------
    def _sync(self, conn: Connection, hand_id: int) -> list[str]:
        """Post the chips the engine moved since the last step (one balanced transaction),
        and keep what a void would post to put every stack back. Returns public lines."""
        g, hand = self.engine, self.engine.hand
        assert hand is not None
        t, c = self.table_id, self.chip
        names = hand.names()
        lines = [line for ev in hand.events[g.events_seen:]
                 if (line := event_line(ev, names)) is not None]
        g.events_seen = len(hand.events)
        postings: ledger.Postings = []
        for seat, a in g.accounts.items():
            before, after = g.synced[seat], hand.seats[seat].chips
            if after != before:
                postings += ledger.move(ledger.wagers(t), ledger.stack(t, a), (after - before) * c)
            g.synced[seat] = after
        if postings:
            ledger.post(conn, f"pan:{hand_id}:{len(hand.events)}", "pan", postings,
                        actor="dealer", memo=f"{self.name} hand {hand_id}: "
                        + "; ".join(lines)[:300])
            refunds = {str(a): {"pan": (hand.seats[s].start_chips - hand.seats[s].chips) * c}
                       for s, a in g.accounts.items()}
            hands.set_in_open_record(conn, hand_id, ("wagers",), refunds)
        return lines

    def _results(self, raked: dict[int, Cents]) -> dict[int, hands.PlayerResult]:
        """Each player's part in the hand for their history: the chips they paid in (their
        tops, the conditions and outs they paid) and the chips the hand gained or cost them, less
        the rake, in cents (house players have no history)."""
        g, hand = self.engine, self.engine.hand
        assert hand is not None
        paid = dict.fromkeys(hand.seats, 0)
        for ev in hand.events:
            if isinstance(ev, ToppedUp):
                paid[ev.seat] += ev.single + ev.double
            elif isinstance(ev, ChipsMoved) and ev.payer is not None:
                paid[ev.payer] += ev.chips
        return {a: hands.PlayerResult(
            paid[i] * self.chip, (s.chips - s.start_chips) * self.chip - raked.get(a, 0))
            for i, s in hand.seats.items() if (a := g.accounts[i]) > 0}

    def _stacks_from_engine(self) -> None:
        g, hand = self.engine, self.engine.hand
        if hand is None:
            return
        for seat, a in g.accounts.items():
            s = hand.seats[seat]
            if a in self.stacks:
                self.stacks[a] = self.stacks[a] % self.chip + s.chips * self.chip
            elif a < 0:
                self.stacks[a] = s.chips * self.chip

    def _finish(self, conn: Connection, ahead: CloseReads | None = None) -> None:
        """The hand is over: its history closes the record, the rake is collected; the next
        hand's dealer is made ready (its pack and carried tops: `PanTable.play`). `ahead`:
        the close's reads if they were sent ahead already; else they are sent now, to go
        with the rake's look-up, if any."""
        excluded, next_hand = ahead or self._reads_of_the_close(conn)
        g, hand = self.engine, self.engine.hand
        assert hand is not None and self.hand_id is not None
        doc = history_of(hand).to_json()
        for seat, number in zip(doc["seats"], hand.ring, strict=True):
            a = g.accounts[number]
            seat["account"] = a if a > 0 else None
            seat["table_seat"] = number
        doc["setup"].update(unit="chips", chip_cents=self.chip,
                            tops_carry_out=list(hand.tops_carry))
        raked: dict[int, Cents] = {}
        rake = pan_fees.rake_due(self.rules.fee, hand.events, g.accounts, self.chip)
        pan_fees.collect(conn, self.table_id, self.name, self.hand_id, rake)
        for charge in rake:
            self.stacks[charge.account] -= charge.cents
            raked[charge.account] = raked.get(charge.account, 0) + charge.cents
            self.log.append(f"{self.name_of(charge.account)} pays the rake of "
                            f"{format_money(charge.cents)}")
        winner = hand.winner
        names = hand.names()
        self.close_hand(conn, doc, PanResult(
            **self.settled_hand(), reason=hand.end_reason,
            winner=None if winner is None else hand.seats[winner].name,
            # the winner's spreads lie face up on the table; every payment of the hand
            winner_spreads=[] if winner is None else
            [[card_view(c) for c in m.cards] for m in hand.seats[winner].melds],
            payments=[line for ev in hand.events if isinstance(ev, ChipsMoved)
                      and (line := event_line(ev, names)) is not None],
            net=[PanNet(name=s.name, chips=s.chips - s.start_chips,
                        cents=(s.chips - s.start_chips) * self.chip)
                 for s in hand.seats.values()]), {
            "winner": doc["result"]["winner"], "reason": hand.end_reason,
            "chips": doc["result"]["chips"]}, results=self._results(raked), excluded=excluded)
        g.last_dealer_seat, g.winner_seat = hand.dealer, winner
        self.next_hand = None if next_hand is None else next_hand()
        for seat in [s for s in g.bots if self.stacks.get(bot_id(s), 0) < self.chip]:
            g.bots.pop(seat, None)
            g.brains.pop(seat, None)
            self.stacks.pop(bot_id(seat), None)

    # resuming after a restart (issue 25) ---------------------------------------------------------
    def hand_so_far(self) -> dict[str, Any]:
        """The hand in play with every card as it lies (its pack, the stock's order and every
        reshuffle's): what the replay needs to deal on exactly as this table would; sealed,
        never shown (`history_of(whole=True)`)."""
        hand = self.engine.hand
        assert hand is not None
        return history_of(hand, whole=True).to_json()

    def sealed_fields(self) -> dict[str, Any]:
        """The table's side of the hand: who sits in each of its seats, the settlement on
        offer, who put up carried tops, the `seq` and the public log; its seats by their place
        in the hand, as its history names them (`hand_so_far`), and their table seats."""
        g, hand = self.engine, self.engine.hand
        assert hand is not None
        place = hand.place
        return {"order": list(hand.ring), "accounts": [g.accounts[s] for s in hand.ring],
                "carried_by": g.carried_by,
                "offer": None if g.offer is None else {str(place[k]): v
                                                       for k, v in g.offer.items()},
                "agreed": sorted(place[s] for s in g.agreed), "log": self.log,
                "seq": self.seq + 1}  # sealed inside the action: `transaction` moves it on

    def adopt(self, replayed: GameReplay[Any], fields: dict[str, Any]) -> None:
        """The replayed hand is the table's, replayed again at the table's seats (`at_seats`),
        its books in step (every chip it moved was posted when it moved), the discard last
        reacted to its top discard."""
        assert isinstance(replayed, PanReplay) and replayed.hand is not None
        g = self.engine
        order = [int(s) for s in fields["order"]]
        g.hand = hand = at_seats(replayed.history, order)
        g.accounts = dict(zip(order, (int(a) for a in fields["accounts"]), strict=True))
        g.synced = {seat: s.chips for seat, s in hand.seats.items()}
        g.events_seen = len(hand.events)
        g.last_top = hand.discards[-1] if hand.discards else None
        offer = fields.get("offer")
        g.offer = None if offer is None else {order[int(k)]: int(v) for k, v in offer.items()}
        g.agreed = {order[int(a)] for a in fields.get("agreed") or []}
        g.carried_by = dict(fields.get("carried_by") or {})
        for seat, a in g.accounts.items():
            if a < 0 and seat not in g.bots:  # a bot whose stack the hand emptied
                self.restore_bot(seat, 0)
        self.seq = int(fields.get("seq") or 0)
        self.log = [str(line) for line in fields.get("log") or []]

    def check_stakes(self, conn: Connection, hand_id: int) -> None:
        """Every chip the hand moved was posted as it moved: each seat's chips in the hand
        are its stack's whole chips."""
        g, hand = self.engine, self.engine.hand
        assert hand is not None
        for seat, a in g.accounts.items():
            if self.stacks.get(a, 0) // self.chip != hand.seats[seat].chips:
                raise IllegalActionError(f"the ledger's stack of {self.name_of(a)} does not "
                                         "agree with the hand's record")

    # irregularities -----------------------------------------------------------------------------
    def void_engine(self, reason: str) -> None:
        """The engine voids the hand (`PanTable.void`, the engine protocol's `void`): every
        stack as it was before the hand (the tops it paid, conditions and all: the ledger's
        void posts it), the carried tops kept; the next pack is made as after any hand."""
        g = self.engine
        g.void(reason)
        g.hand, g.accounts = None, {}

    def void(self, conn: Connection, who: Account, reason: str) -> None:
        super().void(conn, who, reason)
        self.log.append(f"hand voided by {who.username}: {reason}")

    # views --------------------------------------------------------------------------------------
    def _offer_view(self) -> list[PanOffer] | None:
        """The settlement on offer (foul rule 5A): who is asked to pay what, who agreed."""
        g, hand = self.engine, self.engine.hand
        if g.offer is None or hand is None:
            return None
        return [PanOffer(seat=p, name=hand.seats[p].name, chips=c, agreed=p in g.agreed)
                for p, c in g.offer.items()]

    def state(self, viewer: Account | None) -> PanState:
        """What `viewer` may see: the engine's snapshot for their seat (their own hand; every
        meld, the drawn card and the discards; other hands only when played face up)."""
        g, hand = self.engine, self.engine.hand
        me = g.seat_of(viewer.id) if viewer is not None and hand is not None \
            and viewer.id in g.accounts.values() else None
        play: PanPlay | None = None
        if hand is not None and self.hand_id is not None:
            snap = hand.snapshot(me)
            legal = [] if me is None else g.legal(me)
            names = hand.names()
            seats = [PanSeat(**s | {
                "table_seat": s["seat"], "bot": g.accounts[s["seat"]] < 0,
                "hand": None if s["hand"] is None else [card_view(c) for c in s["hand"]],
                "melds": [[card_view(c) for c in m] for m in s["melds"]]})
                for s in snap["seats"]]
            play = PanPlay(**snap | {
                "seats": seats, "to_act": hand.to_act,
                "drawn": card_view(snap["drawn"]) if snap["drawn"] else None,
                "top_discard": card_view(snap["top_discard"]) if snap["top_discard"] else None,
                "actions": [PanActionView(**a.to_json(names)) for a in legal],
                "legal": [t for a in legal if (t := command_text(a)) is not None],
                "settlement": self._offer_view()})
        pot = sum(self.engine.carried) if hand is None or self.hand_id is None else None
        return PanState(
            **self.envelope(play.phase if play else "idle"),
            you=PanYou(**self.viewer_flags(viewer) | {
                "may_deal": self.hand_id is None and viewer is not None and (
                    viewer.id in self.seated or viewer.may(Permission.DEAL))}, hand_seat=me),
            seq=self.seq,
            rules=PanRulesView(chip_cents=self.chip, buy_in_chips=self.rules.buy_in_chips,
                               outs_chips=self.rules.outs_chips,
                               double_condition=self.rules.allow_double_condition),
            players=[PanPlayer(seat=s, name=self.name_of(a), stack=self.stacks.get(a, 0),
                               bot=a < 0, you=viewer is not None and a == viewer.id,
                               doubles=a in self.engine.doubles)
                     for s in range(1, self.max_seats + 1)
                     if (a := self.account_at(s)) is not None],
            play=play, carried_tops=pot, log=self.log[-20:])


MAX_DEFAULT_STEPS = 4
"""At most this many default steps for one timed-out turn (draw, then discard: two)."""
DEFAULT_PLAY = (Kind.PASS, Kind.PLAY, Kind.TAKE_TOPS, Kind.DRAW, Kind.FACE_UP,
                Kind.DECLINE_SPLIT)
"""The default play, first that is legal: rule 9 ("Players are required to declare play or
pass in order") is met by passing; in play the player draws (then discards the drawn card,
`default_play`); left alone after fouls, face up (foul rule 5B); an offer to split the tops
is declined (pays rule 2: "If one player refuses ... action continues")."""


def default_play(legal: list[PanAction]) -> PanAction | None:
    """The house's default play for a player whose turn ran out (issue 23): the first legal
    kind of `DEFAULT_PLAY`; with a card drawn, discard it (or, where it may not be discarded,
    the first use of it the engine lists); a forced discard, the first card. None: no
    default fits (the floor decides)."""
    plain = [a for a in legal if not a.choose]
    for kind in DEFAULT_PLAY:
        if (a := next((a for a in plain if a.kind is kind), None)) is not None:
            return a
    for fits in (lambda a: a.kind is Kind.DISCARD and a.drawn, lambda a: a.drawn,
                 lambda a: a.kind is Kind.DISCARD):
        if (a := next((a for a in plain if fits(a)), None)) is not None:
            return a
    return None


_SEAT = re.compile(r"\bseat (\d+)('s)?")


def _named_seats(text: str, seats: Mapping[int, SeatState]) -> str:
    """An engine refusal for people: "seat 2" becomes the player's name."""
    def name(m: re.Match[str]) -> str:
        i = int(m.group(1))
        return (seats[i].name + (m.group(2) or "")) if i in seats else m.group(0)
    return _SEAT.sub(name, text)


def _settlement_line(seats: Mapping[int, SeatState], me: int, a: PanAction) -> str | None:
    """The log's line for a settlement offered, accepted or declined by `me` (foul rule
    5A)."""
    name = seats[me].name
    if a.kind is Kind.ACCEPT_SETTLEMENT:
        return f"{name} accepts the settlement"
    if a.kind is Kind.DECLINE_SETTLEMENT:
        return f"{name} declines the settlement"
    if a.kind is not Kind.SETTLE:
        return None
    return f"{name} offers a settlement: " + ", ".join(
        f"{seats[p].name} pays {c} chip{'s' if c != 1 else ''}" for p, c in a.payments)


def carried_tops(conn: Connection, table_id: int, pot: int) -> tuple[int, int]:
    """The tops carried to the next hand, single and double: as the last settled hand left
    them (a void leaves the carried tops as they were), when they agree with the chips in
    the table's tops account; otherwise all of them as single tops."""
    doc = conn.execute(select(hands_table.c.history).where(
        hands_table.c.table_id == table_id, hands_table.c.status == "settled")
        .order_by(hands_table.c.id.desc()).limit(1)).scalar_one_or_none()
    carry = json.loads(doc).get("setup", {}).get("tops_carry_out") if doc else None
    if isinstance(carry, list) and len(carry) == 2 and sum(carry) == pot:
        return int(carry[0]), int(carry[1])
    return pot, 0


__all__ = ["GAME", "PanLive", "shuffled_pack"]
