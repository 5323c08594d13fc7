"""Pai Gow Poker's posted rules (`posted_rules`): limits, pays, the commission and the house
way "clearly posted", the dragon hand and banking, irregularities. And how its
hands read on the recall page (`Recall`)."""

from __future__ import annotations

from typing import Any

from cardroom.games.pai_gow.houseway import house_way
from cardroom.games.pai_gow.houseway_words import describe_house_way
from cardroom.games.pai_gow.limits import PaiGowTableRules
from cardroom.games.pai_gow.rules import (
    DragonHand,
    ExposedCardPolicy,
    FoulPolicy,
    WrongCountPolicy,
)
from cardroom.money import Cents, format_money
from cardroom.room.play.posted_rules import Section, commission_words
from cardroom.room.play.recall import RecallView, seat_name, shown

_FOUL = {FoulPolicy.HAND_LOSES: "a player's hand set foul loses its wager",
         FoulPolicy.RESET_HOUSE_WAY: "a player's hand set foul is reset by the house way",
         FoulPolicy.REFUSE: "a foul setting is refused and the player sets the hand again"}
_EXPOSED = {ExposedCardPolicy.MISDEAL: "a card the dealer exposes before the reveal makes a "
            "misdeal: every hand is collected and the cards are shuffled again",
            ExposedCardPolicy.HAND_PLAYS: "a card the dealer exposes before the reveal is "
            "shown to the whole table and the hand plays"}
_WRONG = {WrongCountPolicy.MISDEAL: "a hand of other than seven cards makes a misdeal: "
          "wagers stand, the cards are shuffled and dealt again",
          WrongCountPolicy.VOID_HAND: "a hand of other than seven cards has no action: its "
          "wager is returned",
          WrongCountPolicy.HAND_LOSES: "a hand of other than seven cards is dead and loses "
          "its wager"}
_DRAGON = {DragonHand.NOT_ALLOWED: "There is no dragon hand at this table.",
           DragonHand.HOUSE_WAY: "A player may wager on the dragon hand (the unused seat); "
           "the dealer sets it by the house way.",
           DragonHand.PLAYER_SETS: "A player may wager on the dragon hand (the unused seat) "
           "and sets it."}


def sections(rules: Any, jackpot: Cents | None = None, maximum: Cents = 0) -> list[Section]:
    """A Pai Gow table's own sections (it has no jackpot)."""
    r = rules
    assert isinstance(r, PaiGowTableRules)
    wheel = ("A-2-3-4-5 is the second-highest straight" if r.wheel_second
             else "A-2-3-4-5 is the lowest straight")
    return [
        Section("limits", "Wagering limits and fees", (
            f"Each wager, the dragon hand's too: {format_money(r.min_wager_cents)} to "
            f"{format_money(r.max_wager_cents)}.", "There is no fee to play.")),
        Section("pays", "Pay tables", (
            "A hand whose two hands both beat the banker's wins 1 to 1 less the commission; "
            "one won and one lost is a push; copies go to the banker.", f"{wheel}.")),
        Section("commission", "Commission", (
            commission_words(r.commission, r.smallest_chip_cents, "each winning hand"),
            "A player who banks pays the commission on the bank's net win.")),
        Section("house-way", "The house way", tuple(describe_house_way(house_way(
            r.house_way)))),
        Section("banking", "Dragon hand and banking", (
            _DRAGON[r.dragon_hand],
            "The house banks every hand unless a player who wagered on the last hand takes "
            "the bank and can cover every wager against it; the house then plays against the "
            "player-banker.")),
        Section("irregularities", "Irregularities", tuple(
            f"{line[0].upper()}{line[1:]}." for line in (
                _FOUL[r.foul_policy], _EXPOSED[r.exposed_card], _WRONG[r.wrong_card_count],
                "a dealing position is chosen with the dice" if r.use_dice
                else "the first hand is dealt without dice"))),
    ]


class Recall(RecallView):
    """A hand's end: each spot's setting, its low (front) and high (back) hands."""

    def final_cards(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for spot in (record.get("result") or {}).get("spots") or []:
            setting = spot.get("setting") or {}
            name = seat_name(record, spot.get("spot")) or f"seat {spot.get('spot')}"
            out.append({"name": f"{name}, low hand", "cards": [shown(c) for c in
                                                              setting.get("front", [])]})
            out.append({"name": f"{name}, high hand", "cards": [shown(c) for c in
                                                               setting.get("back", [])]})
        return out
