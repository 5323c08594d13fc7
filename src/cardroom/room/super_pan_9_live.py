"""A Super Pan 9 table in the card room. The engine (`cardroom.games.super_pan_9`) checks every
wager and decision and settles each hand; this module moves the money through the ledger, keeps
the hand record and builds what each viewer may see (the engine's own per-seat snapshot).

A round: seated players wager (and tie bet) -> a dealer, the floor or a player with a wager
deals -> each seat draws one card or stands, in seat order (rule 6) -> when the last seat has
acted the dealer reveals, draws on 0-5 (rule 7) and every wager is settled in one balanced
transaction (rules 4, 8, 9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Connection

from cardroom.errors import IllegalActionError
from cardroom.games.super_pan_9 import IrregularityKind, Phase, SuperPan9Rules, SuperPan9Table
from cardroom.games.super_pan_9.events import (
    DealerDrew,
    DealerRevealed,
    RoundSettled,
    ShoeShuffled,
)
from cardroom.games.super_pan_9.rules import MAX_SEATS
from cardroom.history import HandHistory
from cardroom.houserules import build_rules
from cardroom.money import Cents, format_money
from cardroom.room import audit, hands, ledger
from cardroom.room.accounts import Account, Permission
from cardroom.room.messages import MalformedMessage, field_cents, field_key
from cardroom.room.seated_live import Apply, SeatedLive, cards_json
from cardroom.room.tables import TableRow
from cardroom.shoe import RandomSource, Shoe

GAME = "super-pan-9"


def parse_bets(msg: dict[str, Any]) -> tuple[Cents, Cents]:
    """`{"bets": {"wager": cents, "tie": cents}}`: the main wager and the optional Tie Bet."""
    raw = msg.get("bets")
    if not isinstance(raw, dict) or "wager" not in raw or set(raw) - {"wager", "tie"}:
        raise MalformedMessage('the bets must be a wager, with or without a Tie '
                               'Bet')
    tie = field_cents(raw, "tie", "the Tie Bet") if "tie" in raw else 0
    return field_cents(raw, "wager", "the wager"), tie


@dataclass
class SuperPan9Live(SeatedLive[SuperPan9Table]):
    rules: SuperPan9Rules = field(default_factory=SuperPan9Rules)
    dealt_by: str = ""
    actions: list[dict[str, Any]] = field(default_factory=list)
    before: dict[int, Cents] = field(default_factory=dict)  # chips at the table before
    deal_start: int = 0
    irregularities: list[dict[str, Any]] = field(default_factory=list)
    pending_returns: dict[int, Cents] = field(default_factory=dict)  # not yet in `stacks`
    retired: Shoe | None = None  # the shoe this round's deal replaced, published with it

    max_seats = MAX_SEATS
    game = GAME

    def __post_init__(self) -> None:
        self.engine = SuperPan9Table(self.rules, source=self.source)

    def shared_objects(self) -> list[object]:
        shoe = self.engine.shoe
        return [self.source, self.rules, *([shoe.order] if shoe is not None else [])]

    def in_play(self, account_id: int) -> bool:
        seat = self.seat_of.get(account_id)
        return seat is not None and seat in self.engine.seats and \
            self.engine.phase is not Phase.COMPLETE

    # wagers ---------------------------------------------------------------------------------
    def bet(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        who.require(Permission.PLAY)
        seat = self.require_seated(who)
        key = f"bet:{self.table_id}:{who.id}:{field_key(msg)}"
        wager, tie = parse_bets(msg)
        request = {"bets": {"wager": wager, "tie": tie}}
        if ledger.replayed(conn, key, "wager", request):
            return lambda: None  # a retried request: already applied once
        mark = self.checkpoint()
        try:
            if self.engine.phase is Phase.COMPLETE:
                self.engine.new_round()  # the last round's showdown stays in `last`
            self.engine.verify_place_wager(seat, wager, tie)
            if wager + tie > self.stacks[who.id]:
                raise IllegalActionError(f"your stack has {format_money(self.stacks[who.id])}: "
                                         f"it cannot cover {format_money(wager + tie)}")
            self.engine.place_wager(seat, wager, tie)
        except BaseException:
            self.engine = mark
            raise
        hand_id, number = self.hand_id, self.hand_number
        if hand_id is None:
            hand_id, number = hands.open_hand(conn, self.table_id)
        bets = {"wager": wager, **({"tie": tie} if tie else {})}
        ledger.post(conn, key, "wager", [(ledger.stack(self.table_id, who.id), -(wager + tie)),
                                         (ledger.wagers(self.table_id), wager + tie)],
                    actor=who.username, memo=f"hand {hand_id}", request=request)
        hands.record_wagers(conn, hand_id, who.id, bets)
        audit.append(conn, who.username, "table.bet", {"table": self.table_id,
                                                       "hand": hand_id, "bets": bets})
        first = self.hand_id is None

        def after() -> None:
            if first:
                self.actions, self.before = [], {}
            self.hand_id, self.hand_number = hand_id, number
            self.before[who.id] = self.stacks[who.id]
            self.stacks[who.id] -= wager + tie
            self.actions.append({"type": "wager", "seat": seat, "amount": wager, "tie": tie})
        return self.prepared(mark, after)

    # the deal and the decisions -------------------------------------------------------------
    def deal(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        """Seated players with a wager may call for the deal, as may a dealer or the floor."""
        seat = self.seat_of.get(who.id)
        if not (who.may(Permission.DEAL) or (seat is not None and seat in self.engine.seats)):
            raise IllegalActionError("only a dealer or a player with a wager may deal")
        self.engine.verify_deal()
        assert self.hand_id is not None
        mark = self.checkpoint()
        try:
            start = len(self.engine.events)
            dealt = self.engine.deal()
            shuffled = [e for e in self.engine.events[start:] if isinstance(e, ShoeShuffled)]
            audit.append(conn, who.username, "hand.dealt", {
                "table": self.table_id, "hand": self.hand_id,
                "seats": [s for s, _ in dealt.hands],
                "shoe": self.engine.shoe.commitment if self.engine.shoe else None,
                "new_shoe": bool(shuffled)})
            retired = mark.shoe if shuffled else None
            if retired is not None:
                audit.append(conn, "dealer", "shoe.retired", {"table": self.table_id,
                                                              **retired.retired()})
            shoe = self.engine.shoe
            assert shoe is not None
            deal_start = shoe.position - 3 * (len(dealt.hands) + 1)
        except BaseException:
            self.engine = mark
            raise

        def after() -> None:
            self.dealt_by, self.deal_start, self.last = who.username, deal_start, None
            self.retired = retired
            self.actions.append({"type": "deal"})
        return self.prepared(mark, after)

    def act(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        """`draw` or `stand` (rule 6) for the seat in turn. A player acts for their own seat;
        a dealer or the floor may only stand a seat whose player does not act."""
        kind = str(msg.get("type"))
        if kind == "irregularity":
            return self.irregularity(conn, who, msg)
        if kind not in ("draw", "stand"):
            raise IllegalActionError(f"unknown action {kind[:30]!r}")
        seat = self.seat_of.get(who.id)
        if seat is None or seat not in self.engine.seats:
            if not who.may(Permission.DEAL):
                raise IllegalActionError("you have no hand at this table")
            if kind == "draw":
                raise IllegalActionError("a dealer may stand a seat that does not act, never "
                                         "draw for it")
            turn = self.engine.to_act
            if turn is None:
                raise IllegalActionError("no seat is to act now")
            seat = turn
        self.engine.verify_act(seat)
        mark = self.checkpoint()
        try:
            if kind == "draw":
                self.engine.draw(seat)
            else:
                self.engine.stand(seat)
            audit.append(conn, who.username, f"hand.{kind}", {
                "table": self.table_id, "hand": self.hand_id, "seat": seat})
            finish: Apply | None = None
            if self.engine.phase is Phase.DEALER:
                finish = self._finish(conn, [*self.actions, {"type": kind, "seat": seat}])
        except BaseException:
            self.engine = mark
            raise

        def after() -> None:
            self.actions.append({"type": kind, "seat": seat})
            if finish is not None:
                finish()
        return self.prepared(mark, after)

    # the dealer's turn and the settlement ---------------------------------------------------
    def _finish(self, conn: Connection, actions: list[dict[str, Any]]) -> Apply:
        """Rule 7: the dealer reveals and draws on 0-5; rules 4, 8, 9: every wager settles
        in one balanced transaction of the ledger."""
        start = len(self.engine.events)
        settled = self.engine.finish_dealer()
        for ev in self.engine.events[start:]:
            if isinstance(ev, DealerRevealed):
                actions.append({"type": "reveal", "cards": [str(c) for c in ev.cards]})
            elif isinstance(ev, DealerDrew):
                actions.append({"type": "dealer_draw"})
        t = self.table_id
        postings: list[tuple[str, Cents]] = []
        after: dict[int, Cents] = {}
        settlements = []
        for s in settled.seats:
            aid = self.account_at(s.seat)
            assert aid is not None
            st = s.settlement
            stake = st.wager + st.tie_wager
            commission = st.commission + st.tie_commission
            if self.engine.seats[s.seat].voided:  # returned when the irregularity was recorded
                settlements.append({"seat": s.seat, "name": self.seated[aid], "account": aid,
                                    "outcome": st.outcome.value, "voided": True,
                                    "wager": st.wager, "tie_wager": st.tie_wager,
                                    "net": 0, "returned": st.returned})
                after[aid] = self.stacks[aid] + self.pending_returns.get(aid, 0)
                continue
            postings += [(ledger.wagers(t), -stake), (ledger.stack(t, aid), st.returned),
                         (ledger.HOUSE_COMMISSION, commission),
                         (ledger.tray(t), -(st.net + commission))]
            after[aid] = self.stacks[aid] + st.returned
            settlements.append({
                "seat": s.seat, "name": self.seated[aid], "account": aid,
                "outcome": st.outcome.value, "total": s.player_total, "wager": st.wager,
                "commission": st.commission, "tie_wager": st.tie_wager,
                "tie_commission": st.tie_commission, "net": st.net, "returned": st.returned})
        assert self.hand_id is not None
        ledger.post(conn, f"hand:{self.hand_id}:settle", "settle", postings, actor="dealer",
                    memo=f"{self.name} hand {self.hand_number}")
        history = self._history(actions, settled, settlements, after)
        hands.close_settled(conn, self.hand_id, history)
        audit.append(conn, "dealer", "hand.settled", {
            "table": t, "hand": self.hand_id, "dealer": [str(c) for c in
                                                         self.engine.dealer_cards],
            "dealer_total": settled.dealer_total,
            "nets": {str(x["account"]): x["net"] for x in settlements}})
        hand_id, number = self.hand_id, self.hand_number
        public = self._public(None)

        def apply() -> None:
            self.stacks.update(after)
            self.last = {"hand": hand_id, "number": number, "settlements": settlements,
                         "dealer_total": settled.dealer_total, "seats": public["seats"],
                         "dealer": public["dealer"]}
            self.hand_id = None
            self.irregularities = []
            del self.engine.events[:]
        return apply

    def _history(self, actions: list[dict[str, Any]], settled: RoundSettled,
                 settlements: list[dict[str, Any]], after: dict[int, Cents]
                 ) -> dict[str, Any]:
        """The round in the shared hand-history format (`cardroom.history`), amounts in
        cents; the pack is exactly the cards dealt, in the order they left the shoe."""
        shoe = self.engine.shoe
        assert shoe is not None
        order = sorted(self.before, key=lambda a: self.seat_of[a])
        doc = HandHistory(
            game=GAME, rules=self.rules.model_dump(mode="json"),
            seats=[{"seat": self.seat_of[a], "name": self.seated[a], "account": a,
                    "chips": self.before[a]} for a in order],
            pack=[str(c) for c in shoe.order[self.deal_start:shoe.position]],
            actions=actions,
            setup={"unit": "cents", "table": self.name, "table_id": self.table_id,
                   "hand_number": self.hand_number, "dealt_by": self.dealt_by,
                   "shoe": {"commitment": shoe.commitment, "cut_index": shoe.cut_index,
                            "first_card": self.deal_start,
                            **({"retired": self.retired.retired()} if self.retired else {})}},
            result={"chips": [after[a] for a in order], "settlements": settlements,
                    "dealer_total": settled.dealer_total},
            hand_id=f"{self.name}#{self.hand_number}").to_json()
        doc["status"] = "settled"
        if self.irregularities:
            doc["irregularities"] = list(self.irregularities)
        return doc

    # irregularities -------------------------------------------------------------------------
    def void(self, conn: Connection, who: Account, reason: str) -> Apply:
        """The floor voids the hand in progress: every wager goes back (engine: a misdeal
        voids every hand; before the deal the wagers are simply taken back), who and why
        logged. The cards already dealt stay face down."""
        who.require(Permission.VOID)
        if self.hand_id is None:
            raise IllegalActionError("no hand is in progress at this table")
        mark = self.checkpoint()
        try:
            if self.engine.phase is Phase.BETTING:
                self.engine.seats.clear()  # no card out: the wagers are withdrawn
            else:
                self.engine.record_irregularity(IrregularityKind.MISDEAL, None,
                                                f"voided by {who.username}: {reason}")
            returned = hands.void_hand(conn, self.hand_id, who.username, reason)
        except BaseException:
            self.engine = mark
            raise
        hand_id = self.hand_id

        def after() -> None:
            for aid, total in returned.items():
                self.stacks[aid] += total
            self.hand_id = None
            self.last = {"hand": hand_id, "voided": True, "reason": reason,
                         "by": who.username}
            if self.engine.phase is Phase.COMPLETE:
                self.engine.new_round()
            del self.engine.events[:]
        return self.prepared(mark, after)

    def irregularity(self, conn: Connection, who: Account, msg: dict[str, Any]) -> Apply:
        """`{"type": "irregularity", "kind": "misdeal" | "exposed-card" | "wrong-card-count",
        "seat": n (absent: the deal or the dealer's hand), "reason": text}` from a dealer or
        the floor. The engine applies the house policy (`irregularity_policy`): the affected
        hand, or every hand, is void and its wagers come back in one balanced transaction; the
        cards stay as hidden as they were. Every hand void ends the round as a void hand."""
        if not who.may(Permission.DEAL):
            raise IllegalActionError("only a dealer or the floor may record an irregularity")
        if self.hand_id is None:
            raise IllegalActionError("no hand is in progress at this table")
        raw_kind, seat, reason = msg.get("kind"), msg.get("seat"), msg.get("reason")
        kinds = [k.value for k in IrregularityKind]
        if raw_kind not in kinds:
            raise MalformedMessage(f"the irregularity must be one of: {', '.join(kinds)}")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise MalformedMessage('choose a seat by its number')
        if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
            raise MalformedMessage('the reason must be a short text')
        kind = IrregularityKind(raw_kind)
        self.engine.verify_irregularity(kind, seat)
        hand_id, t = self.hand_id, self.table_id
        mark = self.checkpoint()
        try:
            event = self.engine.record_irregularity(kind, seat, f"{who.username}: {reason}")
            note = {"kind": kind.value, "seat": seat, "by": who.username, "reason": reason,
                    "policy": event.policy, "voided_seats": list(event.voided_seats)}
            audit.append(conn, who.username, "hand.irregularity", {
                "table": t, "hand": hand_id, **note, "returned": event.returned})
            finish: Apply | None = None
            returned: dict[int, Cents] = {}
            if self.engine.phase is Phase.COMPLETE:  # every hand void: the hand is void
                returned = hands.void_hand(conn, hand_id, who.username,
                                           f"{kind.value}: {reason}")
            else:
                postings: list[tuple[str, Cents]] = []
                for s in event.voided_seats:
                    aid = self.account_at(s)
                    assert aid is not None
                    h = self.engine.seats[s]
                    returned[aid] = h.wager + h.tie_wager
                    postings += [(ledger.wagers(t), -returned[aid]),
                                 (ledger.stack(t, aid), returned[aid])]
                    hands.record_wagers(conn, hand_id, aid, {})  # back: no longer open
                ledger.post(conn, f"hand:{hand_id}:irregularity:{len(self.irregularities)}",
                            "wager-returned", postings, actor=who.username,
                            memo=f"hand {hand_id}: {kind.value} ({reason})")
                if self.engine.phase is Phase.DEALER:
                    # the irregularities recorded so far go into the settled history
                    self.irregularities.append(note)
                    self.pending_returns = returned
                    try:
                        finish = self._finish(conn, list(self.actions))
                    finally:
                        self.irregularities.pop()
                        self.pending_returns = {}
        except BaseException:
            self.engine = mark
            raise
        complete = self.engine.phase is Phase.COMPLETE and finish is None

        def after() -> None:
            self.irregularities.append(note)
            if finish is not None:
                finish()  # the stacks as settled, this call's returns included
                return
            for aid, total in returned.items():
                self.stacks[aid] += total
            if complete:
                self.hand_id, self.irregularities = None, []
                self.last = {"hand": hand_id, "voided": True, "reason": reason,
                             "by": who.username, "irregularity": kind.value}
                self.engine.new_round()
                del self.engine.events[:]
        return self.prepared(mark, after)

    # views ----------------------------------------------------------------------------------
    def _public(self, viewer_seat: int | None) -> dict[str, Any]:
        """The engine's snapshot for `viewer_seat` (it decides which cards show), with the
        cards as the page draws them and the seat's player named."""
        snap = self.engine.snapshot(viewer_seat)
        seats = []
        for s in snap["seats"]:
            aid = self.account_at(s["seat"])
            seats.append({**s, "name": self.seated.get(aid, "?") if aid else "?",
                          "cards": cards_json(s["cards"])})
        d = snap["dealer"]
        return {"phase": snap["phase"], "to_act": snap["to_act"], "seats": seats,
                "dealer": {**d, "cards": cards_json(d["cards"])},
                "shoe_remaining": snap["shoe_remaining"]}

    def snapshot(self, viewer: Account | None) -> dict[str, Any]:
        """What `viewer` may see: their own cards, others' and the dealer's only as the rules
        reveal them; never the shoe's order."""
        r = self.rules
        seat = self.seat_of.get(viewer.id) if viewer is not None else None
        view = self.common_view(viewer)
        round_view = self._public(seat) if self.hand_id is not None else None
        view.update({
            "limits": {"min": r.min_wager_cents, "max": r.max_wager_cents,
                       "tie_min": r.tie_min_cents if r.tie_bet_offered else None,
                       "tie_max": r.tie_max_cents if r.tie_bet_offered else None,
                       "tie_pays": r.tie_pays,
                       "commission": f"{r.commission.numerator}/{r.commission.denominator}"},
            "round": round_view,
            "players": [{"seat": self.seat_of[a], "name": n, "stack": self.stacks[a],
                         "you": viewer is not None and a == viewer.id}
                        for a, n in sorted(self.seated.items(),
                                           key=lambda x: self.seat_of[x[0]])],
            "shoe": {"commitment": self.engine.shoe.commitment if self.engine.shoe else None,
                     "remaining": self.engine.shoe.remaining if self.engine.shoe else None},
        })
        phase = round_view["phase"] if round_view else "idle"
        view["you"].update({
            "to_act": round_view is not None and seat is not None
            and round_view["to_act"] == seat,
            "may_deal": view["you"]["may_deal"] or (
                phase == "betting" and seat is not None and seat in self.engine.seats)})
        view["hand"]["phase"] = phase
        return view


def build_table(conn: Connection, row: TableRow, source: RandomSource) -> SuperPan9Live:
    rules = build_rules(SuperPan9Rules, row.rules, f"table {row.name}")
    return SuperPan9Live(row.id, row.name, source=source, rules=rules)


__all__ = ["GAME", "SuperPan9Live", "build_table", "parse_bets"]
