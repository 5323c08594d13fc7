"""Pai Gow hand histories (`cardroom.history`): replaying one hand through the table engine
(`PaiGowTable`), which checks every wager (the table limits of the history's rules too), bank,
dragon hand, the deal and every setting.

A Pai Gow history holds one hand. Amounts are cents (``setup.unit``); ``seats`` are the
players in the hand (``seat`` is the engine's spot 1-6, ``chips`` the chips at the table
before the hand); ``pack`` the shuffled 53-card deck, first card dealt first; ``actions``::

    {"type": "wager", "seat": 2, "amount": 1000}                    # clause 10 (limits)
    {"type": "bank", "seat": 4, "dealer_wager": 1000}                # banking the game
    {"type": "dragon", "seat": 2, "spot": 5, "amount": 500}          # clause 7
    {"type": "deal", "dice": [3, 5, 1], "start": 2}                  # clauses 4, 5
    {"type": "set" | "house_way", "spot": 2, "front": ["As", "Kd"]}  # clauses 6, 8
    {"type": "expose", "spot": 2, "card": "Kd", "by_dealer": true}   # irregularities
    {"type": "card_count", "spot": 2, "count": 6}                    # irregularities

and the settlement (clauses 8, 10) follows the last setting, as at the table. A bank's
``dealer_wager`` is the house dealer's stake (what the banker wagered on the hand before);
``setup.player_banked_last`` says whether a player banked the hand before (default no).
``result.chips`` and ``result.spots`` are checked on replay.
"""

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
        """A setting's recorded front and house-way flag must be the engine's (clause 8); the
        last hand set (or taken out of play), the table settles (clauses 8, 10)."""
        t, kind = self.table, action.get("type")
        if self.result is not None:
            raise RuleError("clause 10 (settlement)", "the hand is settled: no action may follow")
        event = super().apply(index, action)
        if kind in ("set", "house_way"):
            front = [str(c) for c in event.setting.front]
            if kind == "house_way" and "front" in action and action["front"] != front:
                raise RuleError("clause 8", f"the house way sets {front} in front, not the "
                                f"recorded {action['front']} (clause 8)")
            if "house_way" in action and action["house_way"] != event.house_way:
                raise RuleError(self.steps[kind][0], "the recorded house-way flag differs "
                                "from the engine's")
        if kind in ("set", "house_way", "expose", "card_count") and t.can_settle():
            self.result = t.settle()
            self.moves(index, self.result)

    def bank(self, index: int, action: dict[str, Any]) -> None:
        """A player banks; the house dealer's wager against him is recorded."""
        seat = self.recorded_seat(action)
        self.table.last_wagers[seat] = self.field("bank", action, "dealer_wager")
        self.table.bank(seat)

    def deal(self, index: int, action: dict[str, Any]) -> None:
        """The three dice rolled (or, a table without dice, the start position); a recorded
        start must be where the dice start the deal (clause 5)."""
        dice = self.rules.use_dice
        rolled = action.get("dice") if dice else [action.get("start")]
        if not isinstance(rolled, list) or len(rolled) != (3 if dice else 1) or not all(
                isinstance(v, int) and 1 <= v <= (6 if dice else pg.SPOTS) for v in rolled):
            raise HistoryError("a deal with dice needs the three dice rolled" if dice else
                               "a deal needs its start position")
        wheel = (tuple(rolled), pg.start_from_dice(rolled)) if dice else ((), rolled[0])
        event = self.table.deal(order=self.pack, wheel=wheel)
        if "start" in action and action["start"] != event.start_position:
            raise RuleError("clause 5", f"the dice {list(event.dice)} start the deal at "
                            f"position {event.start_position}, not {action['start']} (clause 5)")

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
