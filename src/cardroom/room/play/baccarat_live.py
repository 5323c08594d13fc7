"""A Super-9 Mini-Baccarat table in the card room: the engine's `BaccaratTable` plays the coup
(limits, tableau, settlement, jackpot arithmetic); this module moves the money in the ledger,
keeps hand records and builds what each viewer may see (`BaccaratState`). The lifecycle
(seats, wagers, void, the transaction every action runs in) is `room.live_table.LiveTable`'s.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Never, Self

from sqlalchemy import select
from sqlalchemy.engine import Connection

from cardroom.cards import Card
from cardroom.errors import IllegalActionError
from cardroom.games.baccarat.coup import CardDealt, hand_total
from cardroom.games.baccarat.history import Player, bets_history, coup_history
from cardroom.games.baccarat.replay import Replay as CoupReplay
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import (
    BaccaratTable,
    CardsBurned,
    CoupSettled,
    ShoeShuffled,
)
from cardroom.games.baccarat.wagers import WagerKind
from cardroom.history import GameReplay
from cardroom.houserules import build_rules
from cardroom.money import Cents
from cardroom.progressive_pool import JackpotPool
from cardroom.room.compliance import w2g
from cardroom.room.compliance.surveillance import Payout
from cardroom.room.money import hands, ledger
from cardroom.room.money.jackpot import DEFAULT_POOL, as_held, load_pool, reload_pool
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.play import protocol
from cardroom.room.play.baccarat_protocol import (
    BaccaratBet,
    BaccaratChangeBets,
    BaccaratLimits,
    BaccaratResult,
    BaccaratSeat,
    BaccaratSettlement,
    BaccaratState,
    JackpotView,
    RoadMark,
)
from cardroom.room.play.leases import Shared
from cardroom.room.play.live_table import LiveTable, Pools, Stake, card_view
from cardroom.room.play.messages import message_text
from cardroom.room.play.progressive import CoupAwards, PoolState, record_coup
from cardroom.room.play.protocol import Bet, ChangeBets, Deal
from cardroom.room.play.protocol_state import HandRef, ShoeView, TableRef, You
from cardroom.room.play.tables import TableRow
from cardroom.room.storage import audit
from cardroom.room.storage.schema import jackpot_pools
from cardroom.shoe import RandomSource, Shoe

MAX_SEATS = 7


POOL_READ_ONLY = frozenset({"sit", "leave", "bet", "change_bets"})
"""The messages of a baccarat table that do not change its linked pool
(`BaccaratLive.changes_shared`)."""


@dataclass
class BaccaratLive(LiveTable[BaccaratTable, BaccaratResult, Never]):
    """Baccarat has no decisions: no message of its own (`act`)."""

    rules: BaccaratRules = field(kw_only=True)
    pool_name: str = DEFAULT_POOL
    pool: JackpotPool | None = None  # shared by every jackpot table of the room
    road: list[RoadMark] = field(default_factory=list)  # this shoe's results, in order
    awaiting_identity: set[int] = field(default_factory=set)
    """The players whose top-award share waits for the cage to record their identity (Form
    W-2G: `room.w2g`); told so on their own view only, with no figure."""

    max_seats = MAX_SEATS
    game = "baccarat"
    rules_model = BaccaratRules
    state_model = BaccaratState
    messages = (protocol.Sit, protocol.Leave, BaccaratBet, BaccaratChangeBets,
                protocol.Deal, protocol.Void)

    def __post_init__(self) -> None:
        self.engine = BaccaratTable(self.rules, source=self.source,
                                    pool=self.pool if self.rules.jackpot else None)

    @classmethod
    def from_row(cls, conn: Connection, row: TableRow, source: RandomSource,
                 pools: Pools) -> Self:
        """The table from its row; linked tables (the same house rule `jackpot_pool`) share
        one pool object."""
        rules = build_rules(BaccaratRules, row.rules, f"table {row.name}")
        pool = None
        if rules.jackpot:
            pool = pools.get(rules.pool_name)
            if pool is None:
                pool = pools[rules.pool_name] = load_pool(
                    conn, rules.pool_name, rules.jackpot_seed_cents,
                    rules.contribution_cents_per_dollar)
        return cls(row.id, row.name, source=source, rules=rules, pool_name=rules.pool_name,
                   pool=pool)

    # the checkpoint shares the pool with the other tables: it is restored in place ------------
    def shared_objects(self) -> list[object]:
        e = self.engine
        return [self.source, self.rules, *([e.pool] if e.pool else []),
                *([e.shoe.order] if e.shoe else [])]

    def checkpoint(self) -> Any:
        p = self.engine.pool
        return super().checkpoint(), (PoolState.of(p), len(p.events)) if p else None

    def restore(self, mark: Any) -> None:
        state, pool_mark = mark
        super().restore(state)
        p = self.engine.pool
        if p is not None and pool_mark is not None:
            pool_state, n = pool_mark
            pool_state.restore(p)
            del p.events[n:]

    # the hooks ---------------------------------------------------------------------------------
    def in_play(self, account_id: int) -> bool:
        return self.seat_of.get(account_id) in self.engine.bets

    def on_seat(self, account_id: int, seat: int, stack: Cents) -> None:
        self.engine.restore_seat(seat, stack)

    def on_leave(self, account_id: int, seat: int) -> None:
        self.engine.leave(seat)

    @classmethod
    def void_history(cls, conn: Connection, table: Any, hand_id: int,
                     wagers: dict[str, Stake], actor: str, reason: str,
                     published: dict[str, Any]) -> dict[str, Any]:
        """The seats by their place in the coup (from 0), and the progressive's pool as it
        stands (the void moved nothing)."""
        name = json.loads(table.rules_json).get("jackpot_pool") or DEFAULT_POOL
        pool = conn.execute(select(jackpot_pools).where(jackpot_pools.c.name == name)).first()
        jackpot = {} if pool is None else {"jackpot": {
            "meter": pool.meter, "posted": pool.posted, "seeded_total": pool.seeded_total}}
        history: dict[str, Any] = hands.seated_void_history(
            conn, table, hand_id, wagers, actor, reason, {**published, **jackpot}, by_place=True)
        return history

    def reload_shared(self, conn: Connection) -> None:
        """The linked pool as the books hold it (tables of other processes add to it)."""
        if self.pool is not None:
            reload_pool(conn, self.pool_name, self.pool)

    def shared_as_held(self, changing: bool) -> Shared | None:
        """The linked pool as this process holds it (`jackpot.as_held`)."""
        return None if self.pool is None else as_held(self.pool_name, self.pool, changing)

    def changes_shared(self, kind: str) -> bool:
        """Only a coup dealt changes the pool (its contributions and awards): a seat or a
        bet reads it (a progressive wager is refused while a hit awaits payment)."""
        return kind not in POOL_READ_ONLY

    def jackpot_paid(self, accounts: set[int]) -> None:
        """The table stops saying that the cage needs these winners' identity (W-2G)."""
        self.awaiting_identity -= accounts

    def stake_of(self, msg: Bet | ChangeBets) -> Stake:
        """The wagers by their names (an alias read as its wager's own)."""
        assert isinstance(msg.bets, dict)  # baccarat's `bet` and `change_bets` name them
        return {WagerKind.parse(name).value: cents for name, cents in msg.bets.items()}

    def place_bets(self, who: Account, seat: int, bets: Stake) -> Stake:
        self.engine.place_bets(seat, {WagerKind(k): v for k, v in bets.items()})
        return bets

    def withdraw_bets(self, who: Account, seat: int) -> None:
        self.engine.withdraw_bets(seat)


    # the coup ------------------------------------------------------------------------------------
    def deal(self, conn: Connection, who: Account, msg: Deal) -> None:
        """Deal and settle the coup. Seated players with wagers down may call for the deal
        (a self-dealt mini table); dealers and the floor may too."""
        e, pool = self.engine, self.engine.pool
        if not (who.may(Permission.DEAL) or self.seat_of.get(who.id) in e.bets):
            raise IllegalActionError("only a dealer or a player with wagers down may deal")
        start, shoe_before, bets = len(e.events), e.shoe, list(e.bets.items())
        pool_before = PoolState.of(pool) if pool else None
        settled = e.deal()  # the engine's check refuses a deal with no wager down
        assert self.hand_id is not None
        self.dealt_by = who.username
        history = self.history(start, shoe_before, bets, pool_before, settled)
        retired = history["setup"]["shoe"].get("retired")
        if retired is not None:
            audit.append(conn, "dealer", "shoe.retired", {"table": self.table_id, **retired})
        # a top award is paid once verified; a wager's win over the surveillance figure too
        postings, awards, payouts = self._settlement(settled)
        if pool is not None and pool_before is not None and awards.wagers:
            hit = record_coup(conn, self.pool_name, pool, pool_before, self.table_id,
                              self.hand_id, awards)
            if hit is not None:
                history["jackpot_hit"] = hit  # paid once verified: see the hit
                self.awaiting_identity |= {m.account_id for m in w2g.missing_identity(
                    conn, dict(awards.shares), datetime.now(UTC))}
        for aid, seat in self.seat_of.items():
            self.stacks[aid] = e.balances[seat]
        held = pool is not None and pool.hold_top_award
        by_seat = self._accounts()
        p, b = hand_total(settled.player), hand_total(settled.banker)
        result = BaccaratResult(
            **self.settled_hand(),
            player=[card_view(c) for c in settled.player],
            banker=[card_view(c) for c in settled.banker],
            player_total=p, banker_total=b,
            winner="tie" if p == b else ("player" if p > b else "banker"),
            jackpot_award=settled.jackpot_award.name.lower(),
            settlements=[BaccaratSettlement(seat=self.seated[by_seat[seat]],
                                            kind=s.kind.value, stake=s.stake,
                                            outcome=s.outcome, won=s.won,
                                            commission=s.commission, returned=s.returned,
                                            pending=s.outcome == "jackpot" and held)
                         for seat, s in settled.settlements])
        self.close_hand(conn, history, result, {
            "player": [str(c) for c in settled.player],
            "banker": [str(c) for c in settled.banker],
            "jackpot_award": settled.jackpot_award.name.lower()},
            postings=postings, actor=who.username, payouts=payouts)
        self._score(any(isinstance(ev, ShoeShuffled) for ev in e.events[start:]), result)
        del e.events[:]
        if pool is not None:
            del pool.events[:]

    def _score(self, new_shoe: bool, result: BaccaratResult) -> None:
        """The shoe's scoreboard (the bead plate and big road a baccarat table posts): one
        entry per coup of this shoe, started again with each new shoe; not kept over a
        restart of the room."""
        if new_shoe:
            self.road = []
        self.road.append(RoadMark(winner=result.winner, player=result.player_total,
                                  banker=result.banker_total))

    def _settlement(self, settled: CoupSettled
                    ) -> tuple[ledger.Postings, CoupAwards, list[Payout]]:
        """The coup's postings (wagers, stacks, commission, the tray that banks the game),
        its progressive wagers for the controller (`progressive.record_coup`: the
        contribution, and a top award held pending until verified) and each other wager's
        payout (`close_hand` holds one over the surveillance figure)."""
        t = self.table_id
        by_seat = self._accounts()
        tray = ledger.tray(t)  # the table's chip tray banks the game (the cage's books)
        postings: ledger.Postings = []
        wagers, coin_in = 0, 0
        levels: dict[str, tuple[int, Cents]] = {}
        shares: dict[int, Cents] = {}
        payouts: list[Payout] = []
        for seat, s in settled.settlements:
            aid = by_seat[seat]
            if s.kind is WagerKind.PROGRESSIVE:
                wagers, coin_in = wagers + 1, coin_in + s.stake
                if s.returned:
                    hits, won = levels.get(s.outcome.replace(" ", "_"), (0, 0))
                    levels[s.outcome.replace(" ", "_")] = (hits + 1, won + s.returned)
                if s.outcome == "jackpot":  # "for 1": the house takes the wager; the share
                    shares[aid] = s.returned  # waits for verification (the controller)
                    postings += ledger.move(ledger.wagers(t), tray, s.stake)
                    continue
            payout = Payout(aid, s.kind.value, s.stake, s.won, s.commission, tray)
            postings += payout.postings(t)
            payouts.append(payout)
        return postings, CoupAwards(wagers, coin_in, levels, shares), payouts

    def history(self, start: int, shoe_before: Shoe | None,
                bets: list[tuple[int, dict[WagerKind, Cents]]],
                pool: PoolState | None, settled: CoupSettled) -> dict[str, Any]:
        """The coup in the shared hand-history format (`cardroom.games.baccarat.replay`),
        from the engine's events since `start`."""
        shoe: dict[str, Any] = {}
        dealt: list[Card] = []
        for ev in self.engine.events[start:]:
            if isinstance(ev, ShoeShuffled):
                shoe = {"commitment": ev.commitment, "cut_index": ev.cut_index, "new": True}
            elif isinstance(ev, CardsBurned):
                shoe["burned"] = {"exposed": str(ev.exposed), "count": ev.count}
            elif isinstance(ev, CardDealt):
                dealt.append(ev.card)
        if not shoe and self.engine.shoe is not None:
            shoe = {"commitment": self.engine.shoe.commitment, "new": False}
        if shoe.get("new") and shoe_before is not None:  # the shoe it replaced is out of play
            shoe["retired"] = shoe_before.retired()
        players, accounts = self._players(bets)
        # a top award the pool holds until verified (then paid to the wallet): the coup paid it
        pool_now = self.engine.pool
        held = {seat: s.returned for seat, s in settled.settlements if s.outcome == "jackpot"
                and pool_now is not None and pool_now.hold_top_award}
        return coup_history(
            self.rules, players, bets, dealt, settled,
            [self.engine.balances[seat] + held.get(seat, 0) for seat, _, _ in players],
            shoe=shoe, jackpot=self._jackpot(pool), seat_fields=accounts).to_json()

    def _accounts(self) -> dict[int, int]:
        """The account seated at each seat number."""
        return {seat: aid for aid, seat in self.seat_of.items()}

    def _players(self, bets: list[tuple[int, dict[WagerKind, Cents]]]
                 ) -> tuple[list[Player], list[dict[str, Any]]]:
        """The coup's players as its history names them (seat, name, stack before the coup)
        and each one's account, in the order their wagers went down."""
        by_seat = self._accounts()
        aids = [by_seat[seat] for seat, _ in bets]
        return ([(seat, self.seated[aid], self.before[aid])
                 for (seat, _), aid in zip(bets, aids, strict=True)],
                [{"account": aid} for aid in aids])

    def _jackpot(self, pool: PoolState | None) -> dict[str, Cents] | None:
        """The pool as a coup's history records it (before the coup)."""
        pool_now = self.engine.pool
        if pool is None:
            return None
        return {"meter": pool.meter, "posted": pool.posted, "seeded_total": pool.seeded_total,
                **({"maximum": pool_now.maximum}
                   if pool_now is not None and pool_now.maximum else {})}

    # resuming after a restart (issue 25) ---------------------------------------------------------
    def sealed_shoe(self) -> Shoe | None:
        """The shoe is dealt through to its cut card across coups."""
        return self.engine.shoe

    def restore_shoe(self, shoe: Shoe) -> None:
        self.engine.shoe = shoe

    def hand_so_far(self) -> dict[str, Any]:
        """A coup in play is its wagers (the deal settles it in the same action)."""
        by_seat = self._accounts()
        bets = [(seat, b) for seat, b in self.engine.bets.items() if seat in by_seat]
        players, accounts = self._players(bets)
        pool = self.engine.pool
        return bets_history(self.rules, players, bets,
                            jackpot=self._jackpot(PoolState.of(pool) if pool else None),
                            seat_fields=accounts).to_json()

    def adopt(self, replayed: GameReplay[Any], fields: dict[str, Any]) -> None:
        """The replayed coup's wagers go down again (the stacks are the ledger's), each at
        the seat of the player the history names."""
        assert isinstance(replayed, CoupReplay)
        seat_of = {name: self.seat_of[aid] for aid, name in self.seated.items()}
        self.engine.bets = {seat_of[replayed.names[i]]: b
                            for i, b in replayed.table.bets.items()}

    def state(self, viewer: Account | None) -> BaccaratState:
        """What `viewer` may see: public table state, never the shoe's order."""
        e, r, pool = self.engine, self.rules, self.engine.pool
        return BaccaratState(
            type="state", game="baccarat", table=TableRef(id=self.table_id, name=self.name),
            hand=HandRef(id=self.hand_id, open=self.hand_id is not None),
            you=self._you(viewer),
            limits=BaccaratLimits(
                table_min=r.table_min_cents, table_max=r.table_max_cents,
                tie_min=r.tie_min_cents, tie_max=r.tie_max_cents, bonus_min=r.bonus_min_cents,
                bonus_max=r.bonus_max_cents, jackpot_wager=100 if r.jackpot else None,
                tie_pays=r.tie_pays,
                commission=f"{r.commission.numerator}/{r.commission.denominator}",
                smallest_chip=r.smallest_chip_cents),
            jackpot=JackpotView(posted=pool.posted, meter=pool.meter, pending=pool.locked,
                                maximum=pool.maximum or None)
            if pool else None,
            seats=[BaccaratSeat(name=name, stack=e.balances.get(self.seat_of[aid], 0),
                                bets={k.value: v for k, v in
                                      e.bets.get(self.seat_of[aid], {}).items()},
                                you=viewer is not None and aid == viewer.id)
                   for aid, name in sorted(self.seated.items(), key=lambda x: x[1])],
            shoe=ShoeView(remaining=e.shoe.remaining if e.shoe else None,
                          commitment=e.shoe.commitment if e.shoe else None),
            last=self.last,
            road=self.road)

    def snapshot_texts(self, viewers: Sequence[Account | None]) -> list[str]:
        """`dumps(snapshot(v))` for each viewer (the same content, keys in another order), the
        public part built and encoded once: only the viewer's own seat flag and `you` differ."""
        public = self.state(None).model_dump(mode="json", exclude_unset=True)
        del public["you"]
        seat_rows = public.pop("seats")
        rest = message_text(public)[1:]
        plain = [message_text(row) for row in seat_rows]
        seats_plain = "[" + ",".join(plain) + "]"
        index = {aid: i for i, aid in enumerate(self._seat_order())}
        out = []
        for viewer in viewers:
            i = index.get(viewer.id) if viewer is not None else None
            if i is None:
                seats_text = seats_plain
            else:
                mine = plain.copy()
                mine[i] = message_text({**seat_rows[i], "you": True})
                seats_text = "[" + ",".join(mine) + "]"
            you = message_text(self._you(viewer).model_dump(mode="json"))
            out.append(f'{{"you":{you},"seats":{seats_text},{rest}')
        return out

    def _seat_order(self) -> list[int]:
        return [aid for aid, _ in sorted(self.seated.items(), key=lambda x: x[1])]

    def _you(self, viewer: Account | None) -> You:
        e = self.engine
        return You(seated=viewer is not None and viewer.id in self.seated,
                   may_deal=viewer is not None and (viewer.may(Permission.DEAL) or (
                       self.seat_of.get(viewer.id) in e.bets)),
                   may_void=viewer is not None and viewer.may(Permission.VOID),
                   see_the_cage=viewer is not None and viewer.id in self.awaiting_identity)

