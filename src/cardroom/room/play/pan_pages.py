"""Panguingue's posted rules (`posted_rules`): chips, the tops and the fee, the conditions
and what they pay, irregularities and the time to act. And how its
hands read on the recall page (`Recall`)."""

from __future__ import annotations

from typing import Any

from cardroom.games.pan.history import boards
from cardroom.games.pan.melds import CONDITION_TABLE
from cardroom.games.pan.rules import PanRules
from cardroom.history import HIDDEN_CARD
from cardroom.money import Cents, format_money
from cardroom.room.play.posted_rules import Section, turns_section
from cardroom.room.play.recall import RecallView, Replay, history_of


def sections(rules: Any, jackpot: Cents | None = None, maximum: Cents = 0) -> list[Section]:
    """A Pan table's own sections (it has no jackpot)."""
    r = rules
    assert isinstance(r, PanRules)
    chip = format_money(r.chip_cents)
    fee = r.fee.describe() if r.fee is not None else "no fee to play"
    units = sorted(CONDITION_TABLE.items(), key=lambda kv: kv[0].value)
    double = r.spades_double
    header = ("Condition", "Pays when laid down", "Pays for each card added") + (
        ("In spades",) if double else ())
    return [
        Section("limits", "Wagering limits and fees", (
            f"A chip is {chip}; the buy-in is {r.buy_in_chips} chips "
            f"({format_money(r.buy_in_chips * r.chip_cents)}).",
            "Each player pays one chip to the tops when the hand is dealt; the player who "
            f"goes out takes the tops and {r.outs_chips} chip(s) from each player still in.",
            f"The house does not bank Pan: it charges {fee}.",
            "Seats marked \u201cbot\u201d are house players playing the house's own chips; "
            "they pay no fee.")),
        Section("pays", "Conditions (pays), in chips", tuple(
            ["Spade conditions pay double." if double else
             "Spade conditions pay the same as any other suit."]),
            (header, *((pay.description or kind.value, str(pay.units),
                        str(pay.addition_units))
                       + ((f"{pay.units_spades_double} / {pay.addition_units_spades_double}",)
                          if double else ()) for kind, pay in units))),
        Section("irregularities", "Irregularities", (
            "A foul (a wrong count, two discards, a card on the floor, an invalid meld, a "
            "card from the stock in hand) is settled by the Pan foul rules: a fouled hand "
            "pays as it lies.",
            "A hand that cannot be settled by the rules is voided by the floor supervisor and "
            "every chip it moved is returned.",
            "Double condition is offered at this table." if r.allow_double_condition
            else "This table plays straight condition: no double condition.")),
        turns_section(r, "the house plays for you: you pass if you have not yet declared, "
                  "otherwise you draw and discard the card drawn"),
    ]


class Recall(RecallView):
    """A Pan hand's actions count the history's seats from 0; a seat is its table seat
    (`table_seat`); the page draws the whole table after each step (its end is the last)."""

    seats_by_index = True

    def seat_number(self, index: int, seat: dict[str, Any]) -> object:
        return seat.get("table_seat")

    def boards(self, r: Replay) -> list[dict[str, Any]]:
        """Pan's table after each step, as `r.seen_by` saw it (a seat of the hand, by its
        account; an account not seated at it sees no concealed hand)."""
        if r.seen_by is None:
            return boards(history_of(r.record))
        seats = r.record.get("seats") or []
        mine = [i for i, s in enumerate(seats) if s.get("account") == r.seen_by]
        return boards(history_of(r.record), mine[0] if mine else None, everything=False)

    def file_withheld(self, r: Replay) -> str | None:
        """A Pan history's pack names every card dealt, the other players' concealed hands
        too, and a copy with those hidden would not replay (rules 14A and 17 and foul rule 5B
        read the whole hand of the player who acts, which "??" cards filled at random cannot
        restore), so a Pan hand's file is the staff's ('read every record'); a player's
        recall shows the hand as he saw it."""
        pack = r.record.get("pack") or []
        if r.seen_by is None or all(c == HIDDEN_CARD for c in pack):
            return None
        return ("This hand's history file names every card dealt, the other players' "
                "concealed hands too, so only the floor or the auditor may download it; this "
                "page shows the hand as you saw it.")
