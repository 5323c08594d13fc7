"""Mini-Baccarat's posted rules (`posted_rules`): limits, pay tables, commission, the
progressive jackpot "conspicuously posted", irregularities. And how its
coups read on the recall page (`Recall`)."""

from __future__ import annotations

from typing import Any

from cardroom.games.baccarat.paytables import nine_pay_table, progressive_schedule
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.wagers import (
    RESULT_WORDS,
    ProgressiveAward,
    WagerKind,
    fixed_award_for_one,
)
from cardroom.money import Cents, format_money, format_rate
from cardroom.room.play.posted_rules import Section, commission_words, decks_words
from cardroom.room.play.recall import RecallView, shown

PROGRESSIVE_WORDS = {
    ProgressiveAward.ONE_SUITED_NINE: "Player or Banker has a suited 9",
    ProgressiveAward.BOTH_SUITED_NINE: "Player and Banker both have a suited 9 (the suits "
    "may differ)",
    ProgressiveAward.BOTH_SUITED_ACE_EIGHT: "Player and Banker both have a two-card suited "
    "Ace-8, in different suits",
    ProgressiveAward.JACKPOT: "Player and Banker have the same two-card suited Ace-8 (the "
    "same suit)",
}
"""The progressive's winning hands in the layout's words, one per award the engine pays
(`progressive_award`); each award's multiple is the engine's (`fixed_award_for_one`)."""


def award_words(level: str) -> str:
    """A progressive award as its meters name it ("one_suited_nine") in the layout's words."""
    award = ProgressiveAward.__members__.get(level.upper())
    return PROGRESSIVE_WORDS[award] if award in PROGRESSIVE_WORDS else level.replace("_", " ")


def sections(rules: Any, jackpot: Cents | None, maximum: Cents = 0) -> list[Section]:
    """A Mini-Baccarat table's own sections, with its pool's posted amount and maximum prize
    (0: none)."""
    r = rules
    assert isinstance(r, BaccaratRules)
    nine = nine_pay_table(r.paytable)
    limits = Section("limits", "Wagering limits and fees", (
        f"Player and Banker: {format_money(r.table_min_cents)} to "
        f"{format_money(r.table_max_cents)}.",
        f"Tie: {format_money(r.tie_min_cents)} to {format_money(r.tie_max_cents)}.",
        f"Super-9 bonus wagers: {format_money(r.bonus_min_cents)} to "
        f"{format_money(r.bonus_max_cents)}"
        + ("" if r.bonus_without_main else ", with a Player or Banker wager")
        + ("" if r.bonus_over_main else ", no larger than that wager") + ".",
        "There is no fee to play."))
    pays = Section("pays", "Pay tables", (
        "Player wins pay 1 to 1. Banker wins pay 1 to 1 less the commission.",
        f"Tie pays {r.tie_pays} to 1; on a tie, Player and Banker wagers push.",
        f"Player 9 and Banker 9 (pay table {r.paytable}) win when that hand totals 9, with "
        "two cards or three, whichever hand wins the coup; a suited 9 has every card of the "
        "hand in one suit."),
        (("Winning hand", "Pays"),
         ("Player 9, not suited", f"{nine.player_unsuited} to 1"),
         ("Player 9, suited", f"{nine.player_suited} to 1"),
         ("Banker 9, not suited", f"{nine.banker_unsuited} to 1"),
         ("Banker 9, suited", f"{nine.banker_suited} to 1")))
    sections = [limits, pays, Section("commission", "Commission", (
        commission_words(r.commission, r.smallest_chip_cents, "each winning Banker wager"),))]
    if r.jackpot:
        p = progressive_schedule()
        sections.append(Section("jackpot", "Progressive jackpot", (
            "The jackpot now stands at "
            + (format_money(jackpot) if jackpot is not None else "its seed")
            + " (posted daily before the table opens).",
            f"The progressive wager is {format_money(p.wager_cents)}"
            + ("" if r.jackpot_alone else ", placed with a Player or Banker wager")
            + f". The jackpot is seeded with {format_money(r.jackpot_seed_cents)} by the "
            f"house, which is not recovered; {format_rate(r.jackpot_contribution)} of every "
            "progressive wager is added to it.",
            "If more than one hand wins the jackpot on the same coup, they share it equally.",
            *((f"The jackpot has a maximum prize of {format_money(maximum)} (WAC "
               "230-15-685): the jackpot does not grow above it; what would be added above it "
               "is set aside to seed the next jackpot.",) if maximum else ()),
            "Awards are \u201cfor 1\u201d: the progressive wager is collected even when it "
            "wins. A coup pays its highest award only. A suited 9 has every card of the hand "
            "in one suit, two cards or three; the Ace-8 awards take two cards."),
            (("Winning hands", "Award"),
             *((PROGRESSIVE_WORDS[a], f"{fixed_award_for_one(a)} for 1"
                if a is not ProgressiveAward.JACKPOT else "the jackpot")
               for a in ProgressiveAward if a is not ProgressiveAward.NONE))))
    sections.append(Section("irregularities", "Irregularities", (
        f"The game is dealt from a shoe of {decks_words(r.decks)}; the cut card is placed "
        f"{r.cut_card_from_end} cards from the end.",
        "A misdealt coup is voided by the floor supervisor and every wager on it is "
        "returned.")))
    return sections


class Recall(RecallView):
    """A coup's actions count the history's seats from 0, in the order they bet; its end is
    the player's and the banker's cards."""

    seats_by_index = True

    def seat_number(self, index: int, seat: dict[str, Any]) -> object:
        return index + 1

    def wager_label(self, kind: str) -> str | None:
        """The layout's name ("player_9": "Player 9", "progressive": "Jackpot")."""
        return WagerKind(kind).label if kind in {k.value for k in WagerKind} else None

    def result_label(self, outcome: str) -> str | None:
        """The wagers' outcomes in words (`wagers.RESULT_WORDS`)."""
        return RESULT_WORDS.get(outcome)

    def final_cards(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        result = record.get("result") or {}
        if not result.get("player"):
            return []
        return [{"name": "Player", "cards": [shown(c) for c in result["player"]]},
                {"name": "Banker", "cards": [shown(c) for c in result["banker"]]}]
