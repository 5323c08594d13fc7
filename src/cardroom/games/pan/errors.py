"""Errors that name the rule an action breaks."""

from __future__ import annotations

from typing import ClassVar

from cardroom.engine import RuleError


class PanRuleError(RuleError):
    """An action refused by a rule of the game or of the house (the protocol's `RuleError`);
    its message ends with the rule in brackets, as Pan's have always done."""

    cite: ClassVar[bool] = True

    @property
    def rule(self) -> str:
        return self.clause


# Rule citations used in errors and events.
TURN_1 = "reference: a turn, 1"
TURN_2 = "reference: a turn, 2"
TURN_3 = "reference: a turn, 3"
TURN_4 = "reference: a turn, 4"
TURN_5 = "reference: a turn, 5"
MELDS = "reference: melds"
BORROWING = "reference: melds, borrowing"
SPLITTING = "reference: melds, splitting"
DECLARATIONS = "reference: tops and declarations"
KNOCK = "house rules: declarations (a knock in turn means play)"
ROTATION = "reference: seating, deal and rotation"
STOCK_OUT = "reference: the stock runs out"
PAN_1 = "house Pan rule 1 (hand out of play)"
FOUL_2 = "house foul rule 2 (self-declared foul)"
FOUL_3 = "house foul rule 3 (causes)"
FOUL_4 = "house foul rule 4 (any active player may call)"
FOUL_5 = "house foul rule 5 (one player left)"
FOUL_8 = "house foul rule 8 (wrong card count before the first action)"
FOUL_9 = "house rule 9 (declare in order)"
RULE_11 = "house rule 11 (released discard; right to force)"
RULE_12 = "house rule 12 (option card)"
RULE_13 = "house rule 13 (forcing back)"
RULE_14 = "house rule 14 (out cards forced back only in three cases)"
RULE_15 = "house rule 15 (card removed from a board spread)"
RULE_17 = "house rule 17 (no out card to a player with ten spread)"
PAYS_1 = "house pays rule 1 (call collections before discarding)"
PAYS_2 = "house pays rule 2 (splitting the tops)"
PAYS_5 = "house pays rule 5 (table stakes)"
DOUBLES = "house double condition rules"
CONDITIONS = "reference: conditions (pays)"
GOING_OUT = "reference: going out and the outs"
CHIPS = "reference: tops, conditions and the outs (chips paid)"
FOUL_CALLED = "house foul rules 2, 4, 7 (a hand called foul)"
FORCING = "house rules 12, 13, 14, 17 (forcing a card)"
NOTED = "house foul rule 3 and pays rules 2, 5 (what a player did, noted for the floor)"
