"""A Super-9 Mini-Baccarat table in the card room: the engine's `BaccaratTable` plays the coup
(limits, tableau, settlement, jackpot arithmetic); this module moves the money in the ledger,
keeps hand records and builds what each viewer may see.

Every action is prepared in a database transaction first; the engine is changed only when the
transaction has committed (`apply`), or, for the deal, restored from a checkpoint if it fails.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, insert
from sqlalchemy.engine import Connection

from cardroom.cards import Card
from cardroom.errors import IllegalActionError
from cardroom.games.baccarat.coup import CardDealt
from cardroom.games.baccarat.jackpot import JackpotPool
from cardroom.games.baccarat.replay import coup_history
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.table import (
    BaccaratTable,
    CardsBurned,
    CoupSettled,
    ShoeShuffled,
)
from cardroom.games.baccarat.wagers import WagerKind
from cardroom.money import Cents
from cardroom.room import audit, hands, ledger
from cardroom.room.accounts import Account, Permission
from cardroom.room.jackpot import save_pool
from cardroom.room.messages import MalformedMessage, field_cents, field_key
from cardroom.room.schema import seats
from cardroom.shoe import RandomSource, SystemRandom

MAX_SEATS = 7
Apply = Callable[[], None]


def card_json(card: Card) -> dict[str, Any]:
    return {"code": card.code, "text": str(card)}


def parse_bets(msg: dict[str, Any]) -> dict[WagerKind, Cents]:
    raw = msg.get("bets")
    if not isinstance(raw, dict) or not raw or len(raw) > len(WagerKind):
        raise MalformedMessage("the bets must name each wager with its amount")
    return {WagerKind.parse(str(k)): field_cents(raw, k, "a bet") for k in raw}


@dataclass
class BaccaratLive:
    table_id: int
    name: str
    rules: BaccaratRules
    pool_name: str
    pool: JackpotPool | None
    source: RandomSource = field(default_factory=SystemRandom)
    seated: dict[int, str] = field(default_factory=dict)
    hand_id: int | None = None
    hand_number: int = 0
    last: dict[str, Any] | None = None
    engine: BaccaratTable = field(init=False)
    _pending: tuple[Any, ...] | None = None
    _commitment: tuple[object, str] | None = None

    game = "baccarat"

    def __post_init__(self) -> None:
        self.engine = BaccaratTable(self.rules, source=self.source, pool=self.pool)
        if not self.rules.jackpot:
            self.engine.pool = None

    def restore_seat(self, account_id: int, username: str, stack: Cents) -> None:
        self.seated[account_id] = username
        self.engine.balances[username] = stack

    # actions: each prepares in `conn` and returns what to apply after the commit ----------
    def sit(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        who.require(Permission.PLAY)
        buy_in, key = field_cents(msg, "buy_in", "the buy-in"), field_key(msg)
        if who.id in self.seated:
            raise IllegalActionError("you are already seated at this table")
        if len(self.seated) >= MAX_SEATS:
            raise IllegalActionError(f"the table is full ({MAX_SEATS} seats)")
        self.engine.verify_sit(who.username, buy_in)
        posted = ledger.post(conn, f"sit:{self.table_id}:{who.id}:{key}", "buy-in",
                             [(ledger.wallet(who.id), -buy_in),
                              (ledger.stack(self.table_id, who.id), buy_in)],
                             actor=who.username, memo=f"sit at {self.name}")
        if posted.replayed:
            return lambda: None
        conn.execute(insert(seats).values(table_id=self.table_id, account_id=who.id,
                                          seat=who.username))
        audit.append(conn, who.username, "table.sit", {"table": self.table_id,
                                                       "buy_in": buy_in})

        def apply() -> None:
            self.engine.sit(who.username, buy_in)
            self.seated[who.id] = who.username
        return apply

    def leave(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        if who.id not in self.seated:
            raise IllegalActionError("you are not seated at this table")
        if who.username in self.engine.bets:
            raise IllegalActionError("your wagers are in play: wait for the coup")
        amount = self.engine.balances[who.username]
        key = f"leave:{self.table_id}:{who.id}:{field_key(msg)}"
        if amount:
            ledger.post(conn, key, "leave", [(ledger.stack(self.table_id, who.id), -amount),
                                             (ledger.wallet(who.id), amount)],
                        actor=who.username, memo=f"leave {self.name}")
        conn.execute(delete(seats).where(seats.c.table_id == self.table_id,
                                         seats.c.account_id == who.id))
        audit.append(conn, who.username, "table.leave", {"table": self.table_id,
                                                         "cashed": amount})

        def apply() -> None:
            self.seated.pop(who.id, None)
            self.engine.balances.pop(who.username, None)
        return apply

    def bet(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        who.require(Permission.PLAY)
        if who.id not in self.seated:
            raise IllegalActionError("you are not seated at this table")
        key = f"bet:{self.table_id}:{who.id}:{field_key(msg)}"
        bets = parse_bets(msg)
        request = {"bets": {k.value: v for k, v in bets.items()}}
        if ledger.replayed(conn, key, "wager", request):
            return lambda: None  # a retried request: already applied once
        self.engine.verify_place_bets(who.username, bets)
        total = sum(bets.values())
        hand_id = self.hand_id
        number = self.hand_number
        if hand_id is None:
            hand_id, number = hands.open_hand(conn, self.table_id)
        ledger.post(conn, key, "wager", [(ledger.stack(self.table_id, who.id), -total),
                                         (ledger.wagers(self.table_id), total)],
                    actor=who.username, memo=f"hand {hand_id}", request=request)
        hands.record_wagers(conn, hand_id, who.id, {k.value: v for k, v in bets.items()})
        audit.append(conn, who.username, "table.bet", {
            "table": self.table_id, "hand": hand_id,
            "bets": {k.value: v for k, v in bets.items()}})

        def apply() -> None:
            self.hand_id, self.hand_number = hand_id, number
            self.engine.place_bets(who.username, bets)
        return apply

    def void(self, conn: Connection, who: Account, reason: str) -> Apply:
        who.require(Permission.VOID)
        if self.hand_id is None:
            raise IllegalActionError("no hand is in progress at this table")
        hand_id = self.hand_id
        returned = hands.void_hand(conn, hand_id, who.username, reason)

        def apply() -> None:
            for account_id, total in returned.items():
                self.engine.balances[self.seated[account_id]] += total
            self.engine.bets = {}
            self.hand_id = None
            self.last = {"hand": hand_id, "voided": True, "reason": reason,
                         "by": who.username}
        return apply

    def deal(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        """Deal and settle the coup. Seated players with wagers down may call for the deal
        (a self-dealt mini table); dealers and the floor may too."""
        if not (who.may(Permission.DEAL) or who.username in self.engine.bets):
            raise IllegalActionError("only a dealer or a player with wagers down may deal")
        self.engine.verify_deal()
        assert self.hand_id is not None
        mark = self._checkpoint()
        try:
            settled = self.engine.deal()
            history = self._history(who, mark, settled)
            self._post_settlement(conn, settled, mark[4])
            hands.close_settled(conn, self.hand_id, history)
            retired = history["setup"]["shoe"].get("retired")
            if retired is not None:
                audit.append(conn, "dealer", "shoe.retired", {"table": self.table_id,
                                                              **retired})
            audit.append(conn, who.username, "hand.settled", {
                "table": self.table_id, "hand": self.hand_id,
                "player": [str(c) for c in settled.player],
                "banker": [str(c) for c in settled.banker],
                "jackpot_award": settled.jackpot_award.name.lower()})
        except BaseException:
            self._restore(mark)
            raise
        hand_id = self.hand_id
        self._pending = mark

        def apply() -> None:
            self._pending = None
            self.last = self._public_result(hand_id, settled)
            self.hand_id = None
            del self.engine.events[:]
            if self.engine.pool is not None:
                del self.engine.pool.events[:]
        return apply

    def act(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        """Baccarat has no decisions: any other message is unknown."""
        raise IllegalActionError(f"unknown action {str(msg.get('type'))[:30]!r}")

    def abort(self) -> None:
        """The transaction of a prepared deal failed to commit: put the engine back."""
        if self._pending is not None:
            self._restore(self._pending)
            self._pending = None

    # settlement in the ledger ------------------------------------------------------------
    def _post_settlement(self, conn: Connection, settled: CoupSettled,
                         pool_before: tuple[Cents, Cents, Cents]) -> None:
        t = self.table_id
        by_name = {name: aid for aid, name in self.seated.items()}
        pool_acct, tray = ledger.jackpot(self.pool_name), ledger.tray(t)
        postings: list[tuple[str, Cents]] = []
        jackpot_wagers = 0
        for seat, s in settled.settlements:
            aid = by_name[seat]
            postings += [(ledger.wagers(t), -s.stake), (ledger.stack(t, aid), s.returned),
                         (ledger.HOUSE_COMMISSION, s.commission), (tray, -s.won)]
            if s.kind is WagerKind.PROGRESSIVE:
                jackpot_wagers += 1
                if s.outcome == "jackpot":
                    share = s.won + s.stake
                    postings += [(pool_acct, -share), (tray, share)]
        pool = self.engine.pool
        if pool is not None and jackpot_wagers:
            contribution = jackpot_wagers * pool.contribution_per_wager
            postings += [(tray, -contribution), (pool_acct, contribution)]
            reseeded = pool.seeded_total - pool_before[2]
            if reseeded:
                postings += [(ledger.JACKPOT_SEED, -reseeded), (pool_acct, reseeded)]
        assert self.hand_id is not None
        ledger.post(conn, f"hand:{self.hand_id}:settle", "settle", postings, actor="dealer",
                    memo=f"{self.name} hand {self.hand_number}")
        if pool is not None and jackpot_wagers:
            save_pool(conn, self.pool_name, pool)

    # checkpoint of the engine for a failed deal -------------------------------------------
    def _checkpoint(self) -> tuple[Any, ...]:
        e, pool = self.engine, self.engine.pool
        pool_state = (pool.meter, pool.posted, pool.seeded_total) if pool else (0, 0, 0)
        return (len(e.events), dict(e.balances), {k: dict(v) for k, v in e.bets.items()},
                (e.shoe, e.shoe.position if e.shoe else 0, e.coups_after_cut, e.coup_number),
                pool_state, len(pool.events) if pool else 0)

    def _restore(self, mark: tuple[Any, ...]) -> None:
        e, pool = self.engine, self.engine.pool
        del e.events[mark[0]:]
        e.balances, e.bets = mark[1], mark[2]
        e.shoe, position, e.coups_after_cut, e.coup_number = mark[3]
        if e.shoe is not None:
            e.shoe.position = position
        if pool is not None:
            pool.meter, pool.posted, pool.seeded_total = mark[4]
            del pool.events[mark[5]:]

    # records and views ---------------------------------------------------------------------
    def _history(self, who: Account, mark: tuple[Any, ...], settled: CoupSettled
                 ) -> dict[str, Any]:
        """The coup in the shared hand-history format (`cardroom.games.baccarat.replay`),
        with the room's fields beside it."""
        shoe: dict[str, Any] = {}
        dealt: list[Card] = []
        for ev in self.engine.events[mark[0]:]:
            if isinstance(ev, ShoeShuffled):
                shoe = {"commitment": ev.commitment, "cut_index": ev.cut_index, "new": True}
            elif isinstance(ev, CardsBurned):
                shoe["burned"] = {"exposed": str(ev.exposed), "count": ev.count}
            elif isinstance(ev, CardDealt):
                dealt.append(ev.card)
        if not shoe and self.engine.shoe is not None:
            shoe = {"commitment": self.engine.shoe.commitment, "new": False}
        if shoe.get("new") and mark[3][0] is not None:  # the shoe it replaced is out of play
            shoe["retired"] = mark[3][0].retired()
        by_name = {name: aid for aid, name in self.seated.items()}
        bets: dict[str, dict[WagerKind, Cents]] = mark[2]
        before = [(name, mark[1][name] + sum(b.values())) for name, b in bets.items()]
        pool = mark[4]
        history = coup_history(
            self.rules, before, list(bets.items()), dealt, settled,
            [self.engine.balances[name] for name, _ in before], shoe=shoe,
            jackpot={"meter": pool[0], "posted": pool[1], "seeded_total": pool[2]}
            if self.engine.pool is not None else None,
            hand_id=f"{self.name}#{self.hand_number}",
            extra_setup={"table": self.name, "table_id": self.table_id,
                         "hand_number": self.hand_number, "dealt_by": who.username},
            seat_fields=[{"account": by_name[name]} for name, _ in before]).to_json()
        history["status"] = "settled"
        return history

    def _public_result(self, hand_id: int, settled: CoupSettled) -> dict[str, Any]:
        from cardroom.games.baccarat.coup import hand_total

        p, b = hand_total(settled.player), hand_total(settled.banker)
        return {"hand": hand_id, "number": self.hand_number,
                "player": [card_json(c) for c in settled.player],
                "banker": [card_json(c) for c in settled.banker],
                "player_total": p, "banker_total": b,
                "winner": "tie" if p == b else ("player" if p > b else "banker"),
                "jackpot_award": settled.jackpot_award.name.lower(),
                "settlements": [{"seat": seat, "kind": s.kind.value, "stake": s.stake,
                                 "outcome": s.outcome, "won": s.won,
                                 "commission": s.commission, "returned": s.returned}
                                for seat, s in settled.settlements]}

    def snapshot(self, viewer: Account | None) -> dict[str, Any]:
        """What `viewer` may see: public table state, never the shoe's order."""
        public = self._public()
        public["seats"] = [{**seat, "you": viewer is not None and aid == viewer.id}
                           for aid, seat in zip(self._seat_order(), public["seats"],
                                                strict=True)]
        return {**public, "you": self._you(viewer)}

    def snapshot_texts(self, viewers: Sequence[Account | None]) -> list[str]:
        """`dumps(snapshot(v))` for each viewer (the same content, keys in another order), the
        public part built and encoded once: only the viewer's own seat flag and `you` differ."""
        public = self._public()
        seat_rows = public.pop("seats")
        order = self._seat_order()
        rest = _dumps(public)[1:]
        plain = [_dumps({**row, "you": False}) for row in seat_rows]
        seats_plain = "[" + ",".join(plain) + "]"
        index = {aid: i for i, aid in enumerate(order)}
        out = []
        for viewer in viewers:
            i = index.get(viewer.id) if viewer is not None else None
            if i is None:
                seats_text = seats_plain
            else:
                mine = plain.copy()
                mine[i] = _dumps({**seat_rows[i], "you": True})
                seats_text = "[" + ",".join(mine) + "]"
            out.append(f'{{"you":{_dumps(self._you(viewer))},"seats":{seats_text},{rest}')
        return out

    def _seat_order(self) -> list[int]:
        return [aid for aid, _ in sorted(self.seated.items(), key=lambda x: x[1])]

    def _you(self, viewer: Account | None) -> dict[str, bool]:
        e = self.engine
        return {"seated": viewer is not None and viewer.id in self.seated,
                "may_deal": viewer is not None and (viewer.may(Permission.DEAL) or (
                    viewer.username in e.bets)),
                "may_void": viewer is not None and viewer.may(Permission.VOID)}

    def _shoe_commitment(self) -> str | None:
        """The shoe's commitment (a SHA-256 over the whole order), computed once per shoe."""
        shoe = self.engine.shoe
        if shoe is None:
            return None
        if self._commitment is None or self._commitment[0] is not shoe:
            self._commitment = (shoe, shoe.commitment)
        return self._commitment[1]

    def _public(self) -> dict[str, Any]:
        """Everything every viewer sees alike (seats without the viewer's flag)."""
        e = self.engine
        r = self.rules
        pool = e.pool
        return {
            "type": "state", "game": self.game,
            "table": {"id": self.table_id, "name": self.name},
            "limits": {"table_min": r.table_min_cents, "table_max": r.table_max_cents,
                       "tie_min": r.tie_min_cents, "tie_max": r.tie_max_cents,
                       "bonus_min": r.bonus_min_cents, "bonus_max": r.bonus_max_cents,
                       "jackpot_wager": 100 if r.jackpot else None},
            "jackpot": {"posted": pool.posted, "meter": pool.meter} if pool else None,
            "hand": {"id": self.hand_id, "open": self.hand_id is not None},
            "seats": [{"name": name, "stack": e.balances.get(name, 0),
                       "bets": {k.value: v for k, v in e.bets.get(name, {}).items()}}
                      for _, name in sorted(self.seated.items(), key=lambda x: x[1])],
            "shoe": {"remaining": e.shoe.remaining if e.shoe else None,
                     "commitment": self._shoe_commitment()},
            "last": self.last,
        }


def _dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))
