"""A Pai Gow table in the card room. The engine (`cardroom.games.pai_gow.table.PaiGowTable`)
checks every wager, bank, dragon hand and setting, deals with the dice and settles; this module
moves the money through the ledger, keeps the hand record and builds each viewer's view
(`PaiGowState`; the engine's own per-spot snapshot decides which cards show).

A hand: seated players wager (a player may take the bank, the engine saying whether the house
must bank this hand and whether the bank can cover; a player with a wager may play the dragon
hand where the house allows it) -> a dealer, the floor or a player deals -> each player sets
their hand or asks for the house way -> when the last hand is set, the dealer's hand is set the
house way, shown, and every wager settles in one balanced transaction: even money less
commission, copies to the banker, a player-banker paying commission on the bank's net win.

Engine chips are the chips a player has at the table including wagers down; the ledger's
`stack` account holds the chips not in play. Spots are the engine's: 0 is the house dealer,
1-6 the player seats.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy.engine import Connection

from cardroom.cards import Card, parse_cards
from cardroom.engine import history_actions, history_pack, unchecked
from cardroom.errors import CardroomError, IllegalActionError
from cardroom.games.pai_gow.evaluate import describe
from cardroom.games.pai_gow.limits import PaiGowTableRules
from cardroom.games.pai_gow.replay import Replay as HandReplay
from cardroom.games.pai_gow.settings import Setting, all_settings
from cardroom.games.pai_gow.table import (
    DEALER,
    PLAYER_SEATS,
    HandSet,
    PaiGowTable,
    Phase,
    Settled,
    spot_of_position,
)
from cardroom.history import GameReplay, HandHistory
from cardroom.money import Cents
from cardroom.room.compliance.surveillance import Payout
from cardroom.room.money import hands, ledger
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.play import protocol
from cardroom.room.play.live_table import LiveTable, Stake, card_view
from cardroom.room.play.messages import MalformedMessage
from cardroom.room.play.pai_gow_protocol import (
    Bank,
    Dragon,
    HouseWay,
    PaiGowBanker,
    PaiGowBet,
    PaiGowChangeBets,
    PaiGowChoice,
    PaiGowDeal,
    PaiGowIrregularity,
    PaiGowLimits,
    PaiGowNames,
    PaiGowPlayer,
    PaiGowResult,
    PaiGowResultSpot,
    PaiGowSetting,
    PaiGowSpot,
    PaiGowStakes,
    PaiGowState,
    PaiGowYou,
    SetHand,
)
from cardroom.room.play.protocol import Bet, ChangeBets, Deal
from cardroom.room.storage import audit

GAME = "pai-gow"


def setting_view(setting: Setting) -> PaiGowSetting:
    return PaiGowSetting(front=[card_view(c) for c in setting.front],
                         back=[card_view(c) for c in setting.back], foul=setting.is_foul)


@functools.lru_cache(maxsize=256)
def choices(cards: tuple[Card, ...], wheel_second: bool) -> tuple[PaiGowChoice, ...]:
    """Every way to set a seven-card hand (the 21 front pairs), each with its two hands named
    and whether it is foul: the page names the player's arrangement as they make it. Worked
    out once a hand (42 hands scored): every update of the table shows it to its player until
    they set it."""
    return tuple(PaiGowChoice(front=[str(c) for c in st.front], high=describe(st.back_score),
                              low=describe(st.front_score), foul=st.is_foul)
                 for st in all_settings(cards, wheel_second))


@dataclass
class PaiGowLive(LiveTable[PaiGowTable, PaiGowResult,
                           Dragon | Bank | SetHand | HouseWay | PaiGowIrregularity]):
    rules: PaiGowTableRules = field(default_factory=PaiGowTableRules)
    dealt: dict[str, Any] | None = None
    """The dice and start position of this hand's deal (or the last settled hand's)."""

    max_seats = len(PLAYER_SEATS)
    game = GAME
    rules_model = PaiGowTableRules
    state_model = PaiGowState
    messages = (protocol.Sit, protocol.Leave, PaiGowBet, PaiGowChangeBets,
                protocol.Deal, protocol.Void, Dragon, Bank, SetHand,
                HouseWay, PaiGowIrregularity)
    floor_irregularities = True

    def __post_init__(self) -> None:
        self.engine = PaiGowTable(self.rules)

    def shared_objects(self) -> list[object]:
        return [self.source, self.rules, self.engine.way]

    def on_seat(self, account_id: int, seat: int, stack: Cents) -> None:
        self.engine.sit(seat, stack)

    def on_leave(self, account_id: int, seat: int) -> None:
        self.engine.leave(seat)

    def in_play(self, account_id: int) -> bool:
        seat = self.seat_of.get(account_id)
        return seat is not None and self.engine.in_hand(seat)

    def new_hand(self) -> None:
        self.dealt = None

    def _record(self, seat: int) -> Stake:
        """The seat's stake as the open hand's record keeps it (its wager, its dragon)."""
        e = self.engine
        stake = {"wager": e.wagers[seat]} if seat in e.wagers else {}
        if e.dragon is not None and e.dragon[0] == seat:
            stake["dragon"] = e.dragon[2]
        return stake

    # wagers, the dragon hand, the bank ------------------------------------------------------
    def stake_of(self, msg: Bet | ChangeBets) -> Stake:
        """The wager (`change_bets` with none: withdrawn)."""
        return {"wager": msg.bets.wager} if isinstance(msg.bets, PaiGowStakes) else {}

    def place_bets(self, who: Account, seat: int, bets: Stake) -> Stake:
        """The engine refuses a second wager, one outside the table limits, one the seat's
        chips or a player-bank cannot cover."""
        self.engine.place_wager(seat, bets["wager"])
        return self._record(seat)

    def withdraw_bets(self, who: Account, seat: int) -> None:
        """The wager, and the dragon hand it carries, go back (the bank stays taken)."""
        self.engine.withdraw_wagers(seat)

    def _dragon(self, conn: Connection, who: Account, msg: Dragon) -> None:
        """The dragon hand (house rule `dragon_hand`): the hand of an open spot, played by a
        player who has a wager on their own hand, for a second wager."""
        seat = self.require_seated(who)
        amount, stated = msg.amount, msg.spot
        key = f"dragon:{self.table_id}:{who.id}:{msg.key}"
        request = {"amount": amount, "spot": stated}
        if ledger.replayed(conn, key, "wager", request, self.stake_accounts(who)):
            return  # a retried request: already applied once
        open_spots = self.engine.open_spots()
        spot = stated if stated is not None else (open_spots[0] if open_spots else 0)
        self.engine.take_dragon(seat, spot, amount)
        self.stacks[who.id] -= amount
        self.stake(conn, who, key, request, amount, self._record(seat), "table.dragon",
                   {"spot": spot, "amount": amount})

    def _bank(self, conn: Connection, who: Account, msg: Bank) -> None:
        """Player banking: the engine refuses it when the house must bank this hand, when the
        player had no wager last hand (the dealer's stake), or when the bank cannot cover."""
        seat = self.require_seated(who)
        key = f"bank:{self.table_id}:{who.id}:{msg.key}"
        if ledger.replayed(conn, key, "wager-returned", {}, self.stake_accounts(who)):
            return  # a retried request: already applied once
        e = self.engine
        own = e.wagers.get(seat, 0)
        e.bank(seat)
        hand_id = self.open_hand(conn)
        self.before.setdefault(who.id, self.stacks[who.id])
        if own:  # the banker's own wager comes back: a banker does not wager
            ledger.post(conn, key, "wager-returned",
                        ledger.move(ledger.wagers(self.table_id),
                                    ledger.stack(self.table_id, who.id), own),
                        actor=who.username, memo=f"hand {hand_id}: takes the bank",
                        request={})
        hands.record_wagers(conn, hand_id, who.id, {})
        audit.append(conn, who.username, "table.bank", {
            "table": self.table_id, "hand": hand_id, "seat": seat,
            "dealer_wager": e.last_wagers[seat]})
        self.stacks[who.id] += own

    # the deal --------------------------------------------------------------------------------
    def deal(self, conn: Connection, who: Account, msg: Deal) -> None:
        """A dealer, the floor, or a player with chips in the hand may call for the deal."""
        if not (who.may(Permission.DEAL) or self.in_play(who.id)):
            raise IllegalActionError("only a dealer or a player in the hand may deal")
        dealt = self.engine.deal(self.source)  # checked, then shuffled: CSPRNG in production
        assert self.hand_id is not None
        audit.append(conn, who.username, "hand.dealt", {
            "table": self.table_id, "hand": self.hand_id,
            "banker": dealt.banker_spot, "dice": list(dealt.dice),
            "start": dealt.start_position})
        self.dealt_by, self.last = who.username, None
        self.dealt = dealt.history_action()

    # setting hands --------------------------------------------------------------------------
    def _spot_for(self, who: Account, msg: SetHand | HouseWay) -> int:
        """The spot this player sets: their own seat (no spot named), or the dragon spot they
        play."""
        seat = self.require_seated(who)
        if msg.spot is None and "spot" in msg.model_fields_set:
            raise MalformedMessage("choose a spot by its number")  # named, but as nothing
        spot = seat if msg.spot is None else msg.spot
        d = self.engine.dragon
        if spot != seat and not (d is not None and d[0] == seat and d[1] == spot):
            raise IllegalActionError(f"spot {spot} is not your hand")
        return spot

    def act(self, conn: Connection, who: Account,
            msg: Dragon | Bank | SetHand | HouseWay | PaiGowIrregularity) -> None:
        if isinstance(msg, Bank):
            return self._bank(conn, who, msg)
        if isinstance(msg, Dragon):
            return self._dragon(conn, who, msg)
        if isinstance(msg, PaiGowIrregularity):
            return self._irregularity(conn, who, msg)
        spot = self._spot_for(who, msg)
        if isinstance(msg, SetHand):
            event = self.engine.set_hand(spot, parse_cards(" ".join(msg.front)))
        else:
            event = self.engine.ask_house_way(spot)
        audit.append(conn, who.username, "hand.set", {
            "table": self.table_id, "hand": self.hand_id, "spot": spot,
            "house_way": event.house_way})
        self._maybe_settle(conn)

    # settlement -----------------------------------------------------------------------------
    def _maybe_settle(self, conn: Connection) -> None:
        """Once every hand is set the engine may settle (its own answer, `can_settle`): the
        table's step runs then, not checked a second time (`unchecked`)."""
        if not self.engine.can_settle():
            return
        e, t = self.engine, self.table_id
        shown = {spot: list(cards) for spot, cards in e.hands.items()}
        settled = unchecked(e.settle)
        settings = {spot: hs for spot, hs in e.settings.items()}
        banker_aid = self.account_at(e.banker_spot) if e.banker_spot != DEALER else None
        bank = ledger.tray(t) if banker_aid is None else ledger.stack(t, banker_aid)
        postings: ledger.Postings = []
        payouts: list[Payout] = []
        change: dict[int, Cents] = {}
        for r in settled.results:
            if r.seat == DEALER:  # the house dealer's wager against a player-bank
                postings += [(ledger.tray(t), r.net), (ledger.HOUSE_COMMISSION, r.commission),
                             (bank, -(r.net + r.commission))]
            else:
                aid = self.account_at(r.seat)
                assert aid is not None
                payout = Payout(aid, "dragon hand" if r.dragon else "wager", r.wager,
                                r.net + r.commission, r.commission, bank)
                postings += payout.postings(t)
                payouts.append(payout)
                change[aid] = change.get(aid, 0) + payout.returned
            if banker_aid is not None:
                change[banker_aid] = change.get(banker_aid, 0) - (r.net + r.commission)
        if banker_aid is not None and settled.banker_commission:
            postings += ledger.move(bank, ledger.HOUSE_COMMISSION, settled.banker_commission)
            change[banker_aid] -= settled.banker_commission
        result = self._result(settled, shown, settings)
        for aid in self.stacks:
            self.stacks[aid] += change.get(aid, 0)
        self.close_hand(conn, self.history(result), result, {
            "banker": settled.banker_spot, "dealer": str(settings[DEALER].setting),
            "nets": {str(r.spot): r.net for r in settled.results},
            "banker_net": settled.banker_net - settled.banker_commission}, postings=postings,
            payouts=payouts)
        e.next_hand()
        del e.events[:]  # the hand is in its history now; the checkpoint stays small

    def _name_of(self, spot: int) -> str:
        if spot == DEALER:
            return "dealer"
        aid = self.account_at(spot)
        d = self.engine.dragon
        if d is not None and spot == d[1]:
            aid = self.account_at(d[0])
            return f"dragon ({self.seated.get(aid, '?') if aid else '?'})"
        return self.seated.get(aid, "?") if aid else "?"

    def _result(self, settled: Settled, shown: dict[int, list[Any]],
                settings: dict[int, HandSet]) -> PaiGowResult:
        """Every hand in play, as set, shown at settlement; outcomes and nets."""
        outcome = {r.spot: r for r in settled.results}
        spots = []
        for spot in sorted(shown):
            hs = settings.get(spot)
            r = outcome.get(spot)
            spots.append(PaiGowResultSpot(
                spot=spot, name=self._name_of(spot), cards=[card_view(c) for c in shown[spot]],
                setting=setting_view(hs.setting) if hs else None,
                names=PaiGowNames(high=describe(hs.setting.back_score),
                                  low=describe(hs.setting.front_score)) if hs else None,
                house_way=hs.house_way if hs else None,
                banker=spot == settled.banker_spot,
                outcome=r.outcome.value if r else None, wager=r.wager if r else None,
                commission=r.commission if r else None, net=r.net if r else None))
        return PaiGowResult(**self.settled_hand(), banker_spot=settled.banker_spot,
                            banker_net=settled.banker_net,
                            banker_commission=settled.banker_commission, spots=spots)

    def history(self, result: PaiGowResult) -> dict[str, Any]:
        """The hand in the shared hand-history format (`cardroom.history`), in cents; the
        pack is the shuffled deck, first card dealt first."""
        doc = self.hand_so_far()
        doc["result"] = {"chips": [self.stacks[a] for a in self._involved()],
                         "spots": [s.model_dump(exclude={"cards", "names"})
                                   for s in result.spots],
                         "banker_spot": result.banker_spot,
                         "banker_commission": result.banker_commission}
        return doc

    def _involved(self) -> list[int]:
        """The accounts with chips in the hand, in seat order."""
        return sorted(self.before, key=lambda a: self.seat_of[a])

    # resuming after a restart (issue 25) ---------------------------------------------------------
    def hand_so_far(self) -> dict[str, Any]:
        """The hand so far in the shared format: the players' stacks before it, the shuffled
        deck once dealt, every action (`cardroom.games.pai_gow.replay` reads it)."""
        events = self.engine.events
        return HandHistory(
            game=GAME, rules=self.rules.model_dump(mode="json"),
            seats=[{"seat": self.seat_of[a], "name": self.seated[a], "account": a,
                    "chips": self.before[a]} for a in self._involved()],
            pack=history_pack(events), actions=history_actions(events),
            setup={"unit": "cents", "player_banked_last": self.engine.player_banked_last}
        ).to_json()

    def sealed_fields(self) -> dict[str, Any]:
        return {"dealt": self.dealt,
                "last_wagers": {str(k): v for k, v in self.engine.last_wagers.items()}}

    def adopt(self, replayed: GameReplay[Any], fields: dict[str, Any]) -> None:
        """The replayed hand is the engine's (wagers, bank, dragon, hands, settings), with the
        table's house way and every seated player's chips."""
        assert isinstance(replayed, HandReplay)
        engine = replayed.table
        engine.chips = {**self.engine.chips, **engine.chips}
        engine.way = self.engine.way
        engine.last_wagers = {**{int(k): int(v) for k, v in
                                 (fields.get("last_wagers") or {}).items()},
                              **engine.last_wagers}
        self.engine = engine
        self.dealt = fields.get("dealt")

    # irregularities -------------------------------------------------------------------------
    def _irregularity(self, conn: Connection, who: Account, msg: PaiGowIrregularity
                      ) -> None:
        """`{"type": "irregularity", "kind": "misdeal" | "exposed-card" | "wrong-card-count",
        "spot": n, "card": "Ah" (exposed-card), "count": n (wrong-card-count), "reason": text}`
        from a dealer or the floor. The engine applies the house rules: a misdeal collects the
        hands and the same wagers are dealt again (no money moves); a card the dealer exposes
        is a misdeal or plays face up (`exposed_card`); a wrong count is a misdeal, or the hand
        is void (wager returned) or dead (wager lost) at the settlement, which stays one
        balanced transaction (`wrong_card_count`)."""
        if not who.may(Permission.DEAL):
            raise IllegalActionError("only a dealer or the floor may record an irregularity")
        if self.hand_id is None:
            raise IllegalActionError("no hand is in progress at this table")
        kind, reason, spot = msg.kind, msg.reason, msg.spot
        e = self.engine
        note: dict[str, Any] = {"kind": kind, "by": who.username, "reason": reason}
        if kind == "misdeal":
            e.declare_misdeal(reason)
        elif spot is None:
            raise MalformedMessage("choose a spot by its number")
        elif kind == "exposed-card":
            if msg.card is None:
                raise MalformedMessage("that is not a card")
            [card] = parse_cards(msg.card)
            e.expose_card(spot, card, True)
            note.update(spot=spot, card=str(card))  # public now (house rule), or a misdeal
        else:
            e.report_card_count(spot, cast(int, msg.count))
            note.update(spot=spot, count=msg.count)
        misdeal = e.phase is Phase.BETTING
        note["result"] = "misdeal" if misdeal else (
            e.out_of_play[spot].value if spot is not None and spot in e.out_of_play
            else "plays")
        audit.append(conn, who.username, "hand.irregularity", {
            "table": self.table_id, "hand": self.hand_id, **note})
        self.irregularities.append(note)
        if not misdeal:  # a misdeal: the redeal replaces the deal in the history (`Misdeal`)
            self._maybe_settle(conn)

    # views ----------------------------------------------------------------------------------
    def state(self, viewer: Account | None) -> PaiGowState:
        """What `viewer` may see: the engine's per-spot snapshot decides which hands show
        (your own, the dragon you play; everyone's only at settlement, which is `last`)."""
        e, r = self.engine, self.rules
        seat = self.seat_of.get(viewer.id) if viewer is not None else None
        snap = e.snapshot(seat)
        spots: list[PaiGowSpot] = []
        for spot, text in sorted(cast(dict[int, str], snap["hands"]).items()):
            visible = text != "hidden"
            hs = e.settings.get(spot)
            mine = visible and spot != DEALER and e.phase is Phase.SETTING
            spots.append(PaiGowSpot(
                spot=spot, name=self._name_of(spot),
                cards=[card_view(c) for c in parse_cards(text)] if visible else None,
                card_count=len(e.hands[spot]), set=hs is not None,
                setting=setting_view(hs.setting) if hs and visible else None, mine=mine,
                choices=list(choices(e.hands[spot], r.wheel_second))
                if mine and hs is None and len(e.hands[spot]) == 7 else None))
        legal = [] if seat is None else e.legal_actions(seat)  # what the seat may do now
        offered = {a.name for a in legal}
        bank_refusal = None
        if seat is not None and e.phase is Phase.BETTING and "bank" not in offered:
            try:
                e.verify_bank(seat)  # refused: only to say why
            except CardroomError as exc:
                bank_refusal = str(exc)
        flags = self.viewer_flags(viewer)
        return PaiGowState(
            **self.envelope(e.phase.value if self.hand_id is not None else "idle"),
            you=PaiGowYou(
                **flags | {"may_deal": e.can_deal() and (
                    flags["may_deal"] or (viewer is not None and self.in_play(viewer.id)))},
                may_bank="bank" in offered, bank_refusal=bank_refusal,
                may_dragon="take_dragon" in offered,
                to_set=[a.args[0] for a in legal if a.name == "ask_house_way"]),
            limits=PaiGowLimits(
                min=r.min_wager_cents, max=r.max_wager_cents,
                commission=f"{r.commission.numerator}/{r.commission.denominator}",
                dragon=r.dragon_hand.value, foul_policy=r.foul_policy.value,
                smallest_chip=r.smallest_chip_cents),
            phase=e.phase.value,
            deal=self._deal_view(),
            banker=PaiGowBanker(spot=e.banker_spot, name=self._name_of(e.banker_spot)
                                if e.banker_spot != DEALER else "house"),
            players=[PaiGowPlayer(**p.model_dump(), wager=e.wagers.get(p.seat),
                                  dragon=e.dragon[2] if e.dragon and e.dragon[0] == p.seat
                                  else None,
                                  banker=p.seat == e.banker_spot)
                     for p in self.players_view(viewer)],
            spots=spots)

    def _deal_view(self) -> PaiGowDeal | None:
        """The dice of this (or the last settled) hand and the spot dealt the first hand."""
        deal = self.dealt
        if deal is None:
            return None
        banker = self.engine.banker_spot if self.hand_id is not None else (
            self.last.banker_spot if isinstance(self.last, PaiGowResult) else DEALER)
        return PaiGowDeal(dice=deal["dice"], first_spot=spot_of_position(deal["start"], banker))


__all__ = ["GAME", "PaiGowLive", "PaiGowTableRules"]
