"""A Super Pan 9 table in the card room. The engine (`cardroom.games.super_pan_9`) checks every
wager and decision and settles each hand; this module moves the money through the ledger, keeps
the hand record and builds what each viewer may see (`SuperPan9State`, from the engine's own
per-seat snapshot).

A round: seated players wager (and tie bet) -> a dealer, the floor or a player with a wager
deals -> each seat draws one card or stands, in seat order (rule 6) -> when the last seat has
acted the dealer reveals, draws on 0-5 (rule 7) and every wager is settled in one balanced
transaction (rules 4, 8, 9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Connection

from cardroom.engine import Action, history_actions, history_pack
from cardroom.errors import IllegalActionError
from cardroom.games.super_pan_9 import Phase, SuperPan9Rules, SuperPan9Table
from cardroom.games.super_pan_9.events import (
    RoundSettled,
    ShoeShuffled,
)
from cardroom.games.super_pan_9.replay import Replay as RoundReplay
from cardroom.games.super_pan_9.rules import MAX_SEATS
from cardroom.history import GameReplay, HandHistory
from cardroom.money import Cents
from cardroom.room.compliance.surveillance import Payout
from cardroom.room.money import hands, ledger
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.play import protocol
from cardroom.room.play.live_table import LiveTable, Stake, cards_view
from cardroom.room.play.protocol import Bet, ChangeBets, Deal
from cardroom.room.play.protocol_state import ShoeView, VoidedHand
from cardroom.room.play.super_pan_9_protocol import (
    Draw,
    Stand,
    SuperPan9Bet,
    SuperPan9ChangeBets,
    SuperPan9Dealer,
    SuperPan9Irregularity,
    SuperPan9Limits,
    SuperPan9Result,
    SuperPan9Round,
    SuperPan9Seat,
    SuperPan9Settlement,
    SuperPan9Stakes,
    SuperPan9State,
    SuperPan9VoidedSettlement,
    SuperPan9You,
)
from cardroom.room.storage import audit
from cardroom.shoe import Shoe, shoe_from, shoe_json

GAME = "super-pan-9"


@dataclass
class SuperPan9Live(LiveTable[SuperPan9Table, SuperPan9Result,
                              Draw | Stand | SuperPan9Irregularity]):
    rules: SuperPan9Rules = field(default_factory=SuperPan9Rules)
    deal_start: int = 0
    retired: Shoe | None = None  # the shoe this round's deal replaced, published with it

    max_seats = MAX_SEATS
    game = GAME
    rules_model = SuperPan9Rules
    state_model = SuperPan9State
    messages = (protocol.Sit, protocol.Leave, SuperPan9Bet, SuperPan9ChangeBets,
                protocol.Deal, protocol.Void, Draw, Stand,
                SuperPan9Irregularity, protocol.Back, protocol.ActFor)
    floor_irregularities = True

    def __post_init__(self) -> None:
        self.engine = SuperPan9Table(self.rules, source=self.source)

    def shared_objects(self) -> list[object]:
        shoe = self.engine.shoe
        return [self.source, self.rules, *([shoe.order] if shoe is not None else [])]

    def on_seat(self, account_id: int, seat: int, stack: Cents) -> None:
        self.engine.sit(seat, stack)

    def on_leave(self, account_id: int, seat: int) -> None:
        self.engine.leave(seat)

    def in_play(self, account_id: int) -> bool:
        seat = self.seat_of.get(account_id)
        return seat is not None and self.engine.in_hand(seat)

    # wagers ---------------------------------------------------------------------------------
    def stake_of(self, msg: Bet | ChangeBets) -> Stake:
        """The main wager and the Tie Bet, if any (`change_bets` with none: withdrawn)."""
        if not isinstance(msg.bets, SuperPan9Stakes):
            return {}
        tie = msg.bets.tie
        return {"wager": msg.bets.wager, **({"tie": tie} if tie else {})}

    def place_bets(self, who: Account, seat: int, bets: Stake) -> Stake:
        wager, tie = bets["wager"], bets.get("tie", 0)
        e = self.engine
        if e.phase is Phase.COMPLETE:
            e.new_round()  # the last round's showdown stays in `last`
        e.place_wager(seat, wager, tie)  # the engine knows the seat's stack (`on_seat`)
        return bets

    def withdraw_bets(self, who: Account, seat: int) -> None:
        self.engine.withdraw_wagers(seat)

    # the deal and the decisions -------------------------------------------------------------
    def deal(self, conn: Connection, who: Account, msg: Deal) -> None:
        """Seated players with a wager may call for the deal, as may a dealer or the floor."""
        seat = self.seat_of.get(who.id)
        if not (who.may(Permission.DEAL) or (seat is not None and seat in self.engine.seats)):
            raise IllegalActionError("only a dealer or a player with a wager may deal")
        start, shoe_before = len(self.engine.events), self.engine.shoe
        dealt = self.engine.deal()  # the engine's check refuses a deal with no wager down
        assert self.hand_id is not None
        shuffled = [e for e in self.engine.events[start:] if isinstance(e, ShoeShuffled)]
        audit.append(conn, who.username, "hand.dealt", {
            "table": self.table_id, "hand": self.hand_id,
            "seats": [s for s, _ in dealt.hands],
            "shoe": self.engine.shoe.commitment if self.engine.shoe else None,
            "new_shoe": bool(shuffled)})
        self.retired = shoe_before if shuffled else None
        if self.retired is not None:
            audit.append(conn, "dealer", "shoe.retired", {"table": self.table_id,
                                                          **self.retired.retired()})
            # published now: a void of this round (floor, irregularity, recovery) keeps it
            hands.publish_setup(conn, self.hand_id,
                                {"shoe": {"retired": self.retired.retired()}})
        shoe = self.engine.shoe
        assert shoe is not None
        self.deal_start = shoe.position - 3 * (len(dealt.hands) + 1)
        self.dealt_by, self.last = who.username, None

    def act(self, conn: Connection, who: Account,
            msg: Draw | Stand | SuperPan9Irregularity) -> None:
        """`draw` or `stand` (rule 6) for the seat in turn. A player acts for their own seat;
        a dealer or the floor may only stand a seat whose player does not act."""
        if isinstance(msg, SuperPan9Irregularity):
            return self.irregularity(conn, who, msg)
        seat = self.seat_of.get(who.id)
        staff = who.may(Permission.DEAL)
        if seat is None and not staff:
            raise IllegalActionError("you have no hand at this table")
        if seat is None or (seat not in self.engine.seats and staff):
            if isinstance(msg, Draw):
                raise IllegalActionError("a dealer may stand a seat that does not act, never "
                                         "draw for it")
            turn = self.engine.to_act
            if turn is None:
                raise IllegalActionError("no seat is to act now")
            seat = turn
        self.engine.apply(Action(msg.type, (seat,), seat))  # the message names the action
        audit.append(conn, who.username, f"hand.{msg.type}", {
            "table": self.table_id, "hand": self.hand_id, "seat": seat})
        if self.engine.phase is Phase.DEALER:
            self._finish(conn)

    # action timers (issue 23) -----------------------------------------------------------------
    def awaited(self) -> tuple[int, str] | None:
        """Rule 6, in seat order: the player of the seat in turn to draw or stand."""
        seat = self.engine.to_act
        account = None if seat is None else self.account_at(seat)
        if seat is None or account is None:
            return None
        return account, f"{self.hand_id}:{seat}"

    def default_action(self, conn: Connection, account: int, actor: str) -> str:
        """Rule 6 lets a player "draw one additional card or stand"; the rules do not say what
        a player who does not choose is deemed to do, and this table stands for them
        (docs/super-pan-9.md: it takes no card and changes no wager), the engine's `stand` in
        the round's events like any stand, audited as `hand.stand` by `actor`."""
        seat = self.seat_of[account]
        first = len(history_actions(self.engine.events))
        self.engine.stand(seat)
        self.record_default(first, len(history_actions(self.engine.events)), actor)
        audit.append(conn, actor, "hand.stand", {
            "table": self.table_id, "hand": self.hand_id, "seat": seat})
        if self.engine.phase is Phase.DEALER:
            self._finish(conn)
        return "stand"

    # the dealer's turn and the settlement ---------------------------------------------------
    def _finish(self, conn: Connection, returned: dict[int, Cents] | None = None) -> None:
        """Rule 7: the dealer reveals and draws on 0-5; rules 4, 8, 9: every wager settles
        in one balanced transaction of the ledger. `returned`: the wagers of hands an
        irregularity voided in this same action (not yet back in `stacks`)."""
        settled = self.engine.finish_dealer()
        t = self.table_id
        postings: ledger.Postings = []
        payouts: list[Payout] = []
        settlements: list[SuperPan9Settlement | SuperPan9VoidedSettlement] = []
        for s in settled.seats:
            aid = self.account_at(s.seat)
            assert aid is not None
            st = s.settlement
            stake = st.wager + st.tie_wager
            commission = st.commission + st.tie_commission
            if self.engine.seats[s.seat].voided:  # returned when the irregularity was recorded
                settlements.append(SuperPan9VoidedSettlement(
                    seat=s.seat, name=self.seated[aid], account=aid,
                    outcome=st.outcome.value, voided=True, wager=st.wager,
                    tie_wager=st.tie_wager, net=0, returned=st.returned))
                self.stacks[aid] += (returned or {}).get(aid, 0)
                continue
            # the seat's wager and tie wager settle as one payout (docs/compliance.md)
            payout = Payout(aid, "wager and tie" if st.tie_wager else "wager", stake,
                            st.net + commission, commission, ledger.tray(t))
            postings += payout.postings(t)
            payouts.append(payout)
            self.stacks[aid] += st.returned
            settlements.append(SuperPan9Settlement(
                seat=s.seat, name=self.seated[aid], account=aid,
                outcome=st.outcome.value, total=s.player_total, wager=st.wager,
                commission=st.commission, tie_wager=st.tie_wager,
                tie_commission=st.tie_commission, net=st.net, returned=st.returned))
        public = self._public(None)
        self.close_hand(conn, self.history(settled, settlements), SuperPan9Result(
            **self.settled_hand(), settlements=settlements,
            dealer_total=settled.dealer_total, seats=public.seats, dealer=public.dealer), {
            "dealer": [str(c) for c in self.engine.dealer_cards],
            "dealer_total": settled.dealer_total,
            "nets": {str(x.account): x.net for x in settlements}}, postings=postings,
            payouts=payouts)
        del self.engine.events[:]

    def history(self, settled: RoundSettled,
                settlements: list[SuperPan9Settlement | SuperPan9VoidedSettlement]
                ) -> dict[str, Any]:
        """The round in the shared hand-history format (`cardroom.history`), amounts in
        cents; the pack is exactly the cards dealt, in the order they left the shoe."""
        shoe = self.engine.shoe
        assert shoe is not None
        doc = self.hand_so_far()
        doc["setup"]["shoe"] = {
            "commitment": shoe.commitment, "cut_index": shoe.cut_index,
            "first_card": self.deal_start,
            **({"retired": self.retired.retired()} if self.retired else {})}
        doc["result"] = {"chips": [self.stacks[a] for a in self._in_hand()],
                         "settlements": [s.model_dump() for s in settlements],
                         "dealer_total": settled.dealer_total}
        return doc

    def _in_hand(self) -> list[int]:
        """The accounts with a wager in the round, in seat order."""
        return sorted(self.before, key=lambda a: self.seat_of[a])

    # resuming after a restart (issue 25) ---------------------------------------------------------
    def sealed_shoe(self) -> Shoe | None:
        """The shoe is dealt through to its cut card across rounds."""
        return self.engine.shoe

    def restore_shoe(self, shoe: Shoe) -> None:
        self.engine.shoe = shoe

    def hand_so_far(self) -> dict[str, Any]:
        """The round so far: the seats with a wager, the cards dealt in it and every action
        (`Replay`, `cardroom.games.super_pan_9.replay`, reads it)."""
        return HandHistory(
            game=GAME, rules=self.rules.model_dump(mode="json"),
            seats=[{"seat": self.seat_of[a], "name": self.seated[a], "account": a,
                    "chips": self.before[a]} for a in self._in_hand()],
            pack=history_pack(self.engine.events), actions=history_actions(self.engine.events),
            setup={"unit": "cents"}).to_json()

    def sealed_fields(self) -> dict[str, Any]:
        return {"deal_start": self.deal_start,
                "retired": None if self.retired is None else shoe_json(self.retired)}

    def adopt(self, replayed: GameReplay[Any], fields: dict[str, Any]) -> None:
        """The replayed round is the engine's (its seats, cards, turn and events), with the
        table's shoe, random source and every seated player's chips."""
        assert isinstance(replayed, RoundReplay)
        engine = replayed.table
        engine.chips = {**self.engine.chips, **engine.chips}
        engine.source = self.source
        engine.shoe = self.engine.shoe
        self.engine = engine
        self.deal_start = int(fields.get("deal_start") or 0)
        retired = fields.get("retired")
        self.retired = None if retired is None else shoe_from(retired)

    # irregularities -------------------------------------------------------------------------

    def irregularity(self, conn: Connection, who: Account, msg: SuperPan9Irregularity) -> None:
        """`{"type": "irregularity", "kind": "misdeal" | "exposed-card" | "wrong-card-count",
        "seat": n (absent: the deal or the dealer's hand), "reason": text}` from a dealer or
        the floor. The engine applies the house policy (`irregularity_policy`): the affected
        hand, or every hand, is void and its wagers come back in one balanced transaction; the
        cards stay as hidden as they were. Every hand void ends the round as a void hand."""
        if not who.may(Permission.DEAL):
            raise IllegalActionError("only a dealer or the floor may record an irregularity")
        if self.hand_id is None:
            raise IllegalActionError("no hand is in progress at this table")
        kind, seat, reason = msg.kind, msg.seat, msg.reason
        hand_id, t = self.hand_id, self.table_id
        event = self.engine.record_irregularity(kind, seat, f"{who.username}: {reason}")
        note = {"kind": kind.value, "seat": seat, "by": who.username, "reason": reason,
                "policy": event.policy, "voided_seats": list(event.voided_seats)}
        audit.append(conn, who.username, "hand.irregularity", {
            "table": t, "hand": hand_id, **note, "returned": event.returned})
        if self.engine.phase is Phase.COMPLETE:  # every hand void: the hand is void
            for account, total in hands.void_hand(conn, hand_id, who.username,
                                                  f"{kind.value}: {reason}").items():
                self.stacks[account] += total
            self.end_hand(VoidedHand(hand=hand_id, number=self.hand_number, voided=True,
                                     reason=reason,
                                     by=who.username, irregularity=kind.value))
            self.engine.new_round()
            del self.engine.events[:]
            return
        postings: ledger.Postings = []
        returned: dict[int, Cents] = {}
        for s in event.voided_seats:
            aid = self.account_at(s)
            assert aid is not None
            h = self.engine.seats[s]
            returned[aid] = h.wager + h.tie_wager
            postings += ledger.move(ledger.wagers(t), ledger.stack(t, aid), returned[aid])
            hands.record_wagers(conn, hand_id, aid, {})  # back: no longer open
        ledger.post(conn, f"hand:{hand_id}:irregularity:{len(self.irregularities)}",
                    "wager-returned", postings, actor=who.username,
                    memo=f"hand {hand_id}: {kind.value} ({reason})")
        self.irregularities.append(note)  # the settled history lists it
        if self.engine.phase is Phase.DEALER:
            self._finish(conn, returned)
        else:
            for aid, total in returned.items():
                self.stacks[aid] += total

    # views ----------------------------------------------------------------------------------
    def _public(self, viewer_seat: int | None) -> SuperPan9Round:
        """The engine's snapshot for `viewer_seat` (it decides which cards show), with the
        cards as the page draws them and the seat's player named."""
        snap = self.engine.snapshot(viewer_seat)
        seats = []
        for s in snap["seats"]:
            aid = self.account_at(s["seat"])
            seats.append(SuperPan9Seat(**s | {"name": self.seated.get(aid, "?") if aid else "?",
                                              "cards": cards_view(s["cards"])}))
        d = snap["dealer"]
        return SuperPan9Round(phase=snap["phase"], to_act=snap["to_act"], seats=seats,
                              dealer=SuperPan9Dealer(**d | {"cards": cards_view(d["cards"])}),
                              shoe_remaining=snap["shoe_remaining"])

    def state(self, viewer: Account | None) -> SuperPan9State:
        """What `viewer` may see: their own cards, others' and the dealer's only as the rules
        reveal them; never the shoe's order."""
        r, shoe = self.rules, self.engine.shoe
        seat = self.seat_of.get(viewer.id) if viewer is not None else None
        round_view = self._public(seat) if self.hand_id is not None else None
        phase = round_view.phase if round_view else "idle"
        flags = self.viewer_flags(viewer)
        return SuperPan9State(
            **self.envelope(phase),
            you=SuperPan9You(**flags | {"may_deal": flags["may_deal"] or (
                phase == "betting" and seat is not None and seat in self.engine.seats)},
                to_act=round_view is not None and seat is not None
                and round_view.to_act == seat),
            limits=SuperPan9Limits(
                min=r.min_wager_cents, max=r.max_wager_cents,
                tie_min=r.tie_min_cents if r.tie_bet_offered else None,
                tie_max=r.tie_max_cents if r.tie_bet_offered else None, tie_pays=r.tie_pays,
                commission=f"{r.commission.numerator}/{r.commission.denominator}",
                smallest_chip=r.smallest_chip_cents),
            round=round_view,
            players=self.players_view(viewer),
            shoe=ShoeView(commitment=shoe.commitment if shoe else None,
                          remaining=shoe.remaining if shoe else None))


__all__ = ["GAME", "SuperPan9Live"]
