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

from typing import Any

from cardroom.cards import parse_card
from cardroom.engine import RuleError
from cardroom.history import GameReplay, HandHistory, HistoryError, Replayed
from cardroom.houserules import build_rules

from .limits import PaiGowTableRules
from .rules import WAGERS, PaiGowRules
from .table import (
    DEALER,
    DECK,
    DRAGON,
    IRREGULARITIES,
    SETTLEMENT,
    SPOTS,
    Dealt,
    Outcome,
    PaiGowTable,
    Phase,
    Settled,
    start_from_dice,
)

LIMIT_FIELDS = frozenset({"min_wager_cents", "max_wager_cents"})
"""A room table's rules add its limits to the game's (`cardroom.games.pai_gow.limits`)."""

RULE_OF_ACTION = {
    "wager": WAGERS, "bank": "banking the game", "dragon": DRAGON,
    "deal": "clauses 4, 5 (the deal)", "set": "clause 6 (setting a hand)",
    "house_way": "clause 6 (the house way)", "settle": SETTLEMENT,
    "expose": IRREGULARITIES, "card_count": IRREGULARITIES,
}
"""The clause a refusal that is not the engine's `RuleError` (a card not in the hand)
reports."""


def _rules(raw: dict[str, Any]) -> PaiGowRules:
    if LIMIT_FIELDS & raw.keys():
        return build_rules(PaiGowTableRules, raw, "history rules")
    return build_rules(PaiGowRules, raw, "history rules")


class Replay(GameReplay[Settled]):
    game = "pai-gow"
    rule_of_action = RULE_OF_ACTION
    void_shows_no_card = ("a voided hand's history holds no card (dealt hands are hidden "
                          "information)")

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        self.rules = _rules(h.rules)
        self.table = PaiGowTable(self.rules)
        self.table.player_banked_last = bool(h.setup.get("player_banked_last", False))
        self.read_seats(h, "seat")
        # the whole deck, checked before any action (a voided hand records no card)
        problem = DECK.pack_problem(self.pack, whole=True) if self.pack else None
        if problem is not None:
            raise HistoryError("the history's pack is not the Pai Gow deck (clause 1: one deck "
                               f"with one joker, 53 cards): {problem}; nothing was replayed")
        for seat, chips in zip(self.seat_numbers, self.start, strict=True):
            self.table.sit(seat, chips)

    def apply(self, index: int, action: dict[str, Any]) -> None:
        t, kind = self.table, action.get("type")
        if self.result is not None:
            raise RuleError("clause 10 (settlement)", "the hand is settled: no action may follow")
        if kind == "wager":
            amount = action.get("amount")
            t.place_wager(self.recorded_seat(action), amount)  # type: ignore[arg-type]
        elif kind == "bank":
            self.bank(action)
        elif kind == "dragon":
            amount, spot = action.get("amount"), action.get("spot")
            t.take_dragon(self.recorded_seat(action), spot, amount)  # type: ignore[arg-type]
        elif kind == "deal":
            self.deal(action)
        elif kind in ("set", "house_way"):
            self.set_hand(kind, action)
        elif kind == "expose":
            card = action.get("card")
            if not isinstance(card, str):
                raise HistoryError("an exposed card needs the card")
            t.expose_card(action.get("spot"), parse_card(card),  # type: ignore[arg-type]
                          bool(action.get("by_dealer", True)))
        elif kind == "card_count":
            t.report_card_count(action.get("spot"), action.get("count"))  # type: ignore[arg-type]
        else:
            raise HistoryError(f"unknown Pai Gow action {kind!r}")
        if kind in ("set", "house_way", "expose", "card_count") and t.can_settle():
            # the last hand set (or taken out of play): the table settles (clauses 8, 10)
            self.result = t.settle()
            self.moves(index, self.result)

    def bank(self, action: dict[str, Any]) -> None:
        """Banking the game: a player banks; the house dealer's wager against him is recorded."""
        seat = self.recorded_seat(action)
        stake = action.get("dealer_wager")
        if not isinstance(stake, int) or isinstance(stake, bool):
            raise HistoryError("a bank needs the house dealer's wager (dealer_wager)")
        self.table.last_wagers[seat] = stake
        self.table.bank(seat)

    def set_hand(self, kind: str, action: dict[str, Any]) -> None:
        """A hand set by the player ("set", its front recorded) or by the house way (clause 8:
        a recorded front must be the one the house way sets)."""
        spot = action.get("spot")
        if not isinstance(spot, int) or isinstance(spot, bool):
            raise HistoryError("a setting needs its spot")
        if kind == "set":
            front = action.get("front")
            if not isinstance(front, list):
                raise HistoryError("a setting needs its front hand (two cards)")
            event = self.table.set_hand(spot, [parse_card(c) for c in front])
        else:
            event = self.table.ask_house_way(spot)
        front_now = [str(c) for c in event.setting.front]
        if "front" in action and kind == "house_way" and action["front"] != front_now:
            raise RuleError("clause 8", f"the house way sets {front_now} in front, not the "
                            f"recorded {action['front']} (clause 8)")
        if "house_way" in action and action["house_way"] != event.house_way:
            raise RuleError(RULE_OF_ACTION[kind], "the recorded house-way flag differs "
                            "from the engine's")

    def deal(self, action: dict[str, Any]) -> None:
        if self.rules.use_dice:
            dice = action.get("dice")
            if not isinstance(dice, list) or len(dice) != 3 or \
                    not all(isinstance(d, int) for d in dice):
                raise HistoryError("a deal with dice needs the three dice rolled")
            values, sides = dice, 6
        else:
            begin = action.get("start")
            if not isinstance(begin, int):
                raise HistoryError("a deal needs its start position")
            values, sides = [begin], SPOTS
        for value in values:
            if not 1 <= value <= sides:
                raise HistoryError(f"recorded value {value} is not a possible roll")
        rolled = tuple(values) if self.rules.use_dice else ()
        wheel = (rolled, start_from_dice(rolled) if rolled else values[0])
        event: Dealt = self.table.deal(order=self.pack, wheel=wheel)
        if "start" in action and action["start"] != event.start_position:
            raise RuleError("clause 5", f"the dice {list(event.dice)} start the deal at "
                            f"position {event.start_position}, not {action['start']} (clause 5)")

    def final(self) -> list[int]:
        return [self.table.chips[s] for s in self.seat_numbers]

    def outcome(self) -> str:
        s, t = self.result, self.table
        if s is None:
            return f"unfinished ({t.phase.value})" if t.phase is not Phase.SETTLED else "settled"
        banker = "house" if s.banker_spot == DEALER else f"seat {s.banker_spot}"
        return f"{banker} banks; " + ", ".join(
            f"{'dragon ' if r.dragon else ''}spot {r.spot} {r.outcome.value}" for r in s.results)

    def moves(self, index: int, s: Settled) -> None:
        """Each wager against the bank (copies move nothing), each commission to the house."""
        def who(spot_or_seat: int) -> int | None:
            return None if spot_or_seat == DEALER else self.seat_numbers.index(spot_or_seat)

        bank = who(s.banker_spot)
        for r in s.results:
            player = who(r.seat)
            label = "dragon hand" if r.dragon else f"spot {r.spot}"
            if r.outcome is Outcome.WIN:
                self.pay(index, bank, player, r.wager, f"{label} wins")
                if r.commission:
                    self.pay(index, player, None, r.commission, f"{label}: commission")
            elif r.outcome is Outcome.LOSS:
                self.pay(index, player, bank, r.wager, f"{label} loses")
        if s.banker_commission:
            self.pay(index, bank, None, s.banker_commission, "the bank's commission")

    settled_key = "spots"

    def replayed(self, settled: Settled) -> Replayed | None:
        return Replayed({"banker_spot": settled.banker_spot}, "spots",
                        ("spot", "outcome", "net"),
                        [(r.spot, r.outcome.value, r.net) for r in settled.results])


__all__ = ["Replay"]
