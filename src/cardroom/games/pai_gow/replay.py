"""Pai Gow hand histories (`cardroom.history`): replaying one hand through the table engine
(`PaiGowTable`), which checks every wager (the table limits of the history's rules too), bank,
dragon hand, the deal and every setting; the settlement (clauses 8, 10) follows the last
setting, as at the table. The format: docs/hand-history.md."""

from __future__ import annotations

from typing import Any, ClassVar

from cardroom.engine import RuleError
from cardroom.history import GameReplay, HandHistory, HistoryError, Replayed, whole_number
from cardroom.houserules import build_rules

from . import table as pg
from .limits import PaiGowTableRules
from .rules import WAGERS, PaiGowRules


class Replay(GameReplay[pg.Settled]):
    game, title = "pai-gow", "Pai Gow"
    settled_key = "spots"
    void_shows_no_card = ("a voided hand's history holds no card (dealt hands are hidden "
                          "information)")
    fields: ClassVar[dict[str, Any]] = {
        "spot": whole_number, "dealer_wager": whole_number, "by_dealer": bool}
    defaults: ClassVar[dict[str, Any]] = {"by_dealer": True}
    decided: ClassVar[dict[str, dict[str, str]]] = {
        "deal": {"start": "clause 5"}, "set": {"house_way": pg.SETTING},
        "house_way": {"front": "clause 8", "house_way": pg.HOUSE_WAY}}

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        # a room table's rules add its limits to the game's (`cardroom.games.pai_gow.limits`)
        limits = {"min_wager_cents", "max_wager_cents"} & h.rules.keys()
        self.rules = build_rules(PaiGowTableRules if limits else PaiGowRules, h.rules,
                                 "history rules")
        self.table = pg.PaiGowTable(self.rules)
        self.table.player_banked_last = bool(h.setup.get("player_banked_last", False))
        self.read_seats(h, "seat")
        # the whole deck, checked before any action (a voided hand records no card)
        self.check_pack(pg.DECK, bool(self.pack), "pack is not the Pai Gow deck (clause 1: one "
                        "deck with one joker, 53 cards)")
        self.seat_players(self.table.sit)

    def apply(self, index: int, action: dict[str, Any]) -> None:
        """The last hand set (or taken out of play), the table settles (clauses 8, 10)."""
        t, kind = self.table, action.get("type")
        if self.result is not None:
            raise RuleError("clause 10 (settlement)", "the hand is settled: no action may follow")
        super().apply(index, action)
        if kind in ("set", "house_way", "expose", "card_count") and t.can_settle():
            self.result = t.settle()
            self.moves(index, self.result)

    def bank(self, index: int, action: dict[str, Any]) -> None:
        """A player banks; the house dealer's wager against him is recorded."""
        seat = self.recorded_seat(action)
        self.table.last_wagers[seat] = self.field("bank", action, "dealer_wager")
        self.table.bank(seat)

    def deal(self, index: int, action: dict[str, Any]) -> Any:
        """The three dice rolled (or, a table without dice, the start position)."""
        dice = self.rules.use_dice
        rolled = action.get("dice") if dice else [action.get("start")]
        if not isinstance(rolled, list) or len(rolled) != (3 if dice else 1) or not all(
                isinstance(v, int) and 1 <= v <= (6 if dice else pg.SPOTS) for v in rolled):
            raise HistoryError("a deal with dice needs the three dice rolled" if dice else
                               "a deal needs its start position")
        wheel = (tuple(rolled), pg.start_from_dice(rolled)) if dice else ((), rolled[0])
        return self.table.deal(order=self.pack, wheel=wheel)

    steps: ClassVar[dict[str, Any]] = {
        "wager": (WAGERS, "place_wager seat amount"), "bank": ("banking the game", bank),
        "dragon": (pg.DRAGON, "take_dragon seat spot amount"),
        "deal": ("clauses 4, 5 (the deal)", deal),
        "set": ("clause 6 (setting a hand)", "set_hand spot front"),
        "house_way": ("clause 6 (the house way)", "ask_house_way spot"),
        "expose": (pg.IRREGULARITIES, "expose_card spot card by_dealer"),
        "card_count": (pg.IRREGULARITIES, "report_card_count spot count")}

    def outcome(self) -> str:
        s, t = self.result, self.table
        if s is None:
            return f"unfinished ({t.phase.value})" if t.phase is not pg.Phase.SETTLED else "settled"
        banker = "house" if s.banker_spot == pg.DEALER else f"seat {s.banker_spot}"
        return f"{banker} banks; " + ", ".join(
            f"{'dragon ' if r.dragon else ''}spot {r.spot} {r.outcome.value}" for r in s.results)

    def moves(self, index: int, s: pg.Settled) -> None:
        """Each wager against the bank (copies move nothing), each commission to the house."""
        who = {pg.DEALER: None, **{seat: i for i, seat in enumerate(self.seat_numbers)}}
        for r in s.results:
            player, label = who[r.seat], "dragon hand" if r.dragon else f"spot {r.spot}"
            if r.outcome is pg.Outcome.WIN:
                self.pay(index, who[s.banker_spot], player, r.wager, f"{label} wins")
                self.pay(index, player, None, r.commission, f"{label}: commission")
            elif r.outcome is pg.Outcome.LOSS:
                self.pay(index, player, who[s.banker_spot], r.wager, f"{label} loses")
        self.pay(index, who[s.banker_spot], None, s.banker_commission, "the bank's commission")

    def replayed(self, settled: pg.Settled) -> Replayed | None:
        return Replayed({"banker_spot": settled.banker_spot}, "spots",
                        ("spot", "outcome", "net"),
                        [(r.spot, r.outcome.value, r.net) for r in settled.results])
