"""Super Pan 9's posted rules (`posted_rules`): limits, pays, commission, irregularities and
the time to act. And how its
rounds read on the recall page (`Recall`)."""

from __future__ import annotations

from typing import Any

from cardroom.games.super_pan_9.rules import IrregularityPolicy, SuperPan9Rules
from cardroom.history import HIDDEN_CARD
from cardroom.money import Cents, format_money
from cardroom.room.play.posted_rules import Section, commission_words, decks_words, turns_section
from cardroom.room.play.recall import RecallView, shown

_SP9_POLICY = {
    IrregularityPolicy.VOID_AND_RETURN: "only the affected hand is voided and its wagers "
    "returned (every hand, if the dealer's hand or the whole deal is affected)",
    IrregularityPolicy.VOID_ROUND: "every hand of the round is voided and every wager "
    "returned",
}


def sections(rules: Any, jackpot: Cents | None = None, maximum: Cents = 0) -> list[Section]:
    """A Super Pan 9 table's own sections (it has no jackpot)."""
    r = rules
    assert isinstance(r, SuperPan9Rules)
    lines = [f"Each hand: {format_money(r.min_wager_cents)} to "
             f"{format_money(r.max_wager_cents)}."]
    if r.tie_bet_offered:
        lines.append(f"Tie Bet: {format_money(r.tie_min_cents)} to "
                     f"{format_money(r.tie_max_cents)}.")
    lines.append("There is no fee to play.")
    pays = ["Winning hands pay 1 to 1 less the commission; ties with the dealer push."]
    if r.tie_bet_offered:
        pays.append(f"Tie Bet pays {r.tie_pays} to 1.")
    what = "each winning wager" + (", the Tie Bet included" if r.commission_on_tie_bet
                                   else " (not on the Tie Bet)")
    return [Section("limits", "Wagering limits and fees", tuple(lines)),
            Section("pays", "Pay tables", tuple(pays)),
            Section("commission", "Commission",
                    (commission_words(r.commission, r.smallest_chip_cents, what),)),
            Section("irregularities", "Irregularities", (
                f"The game is dealt from {decks_words(r.decks)} of 36 cards (no 7s, 8s, 9s, 10s or "
                f"jokers); the cut card is placed {r.cut_from_end} cards from the end.",
                "On a misdeal, an exposed card or a wrong count, "
                f"{_SP9_POLICY[r.irregularity_policy]}.")),
            turns_section(r, "you stand")]


class Recall(RecallView):
    """A round's end: its cards in the order they left the shoe."""

    def final_cards(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        if not record.get("pack"):
            return []
        return [{"name": "Cards in the order dealt",
                 "cards": [shown(c) for c in record["pack"] if c != HIDDEN_CARD]}]
