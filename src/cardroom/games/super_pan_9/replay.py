"""Super Pan 9 hand histories (`cardroom.history`): replaying one round through the table
engine (`SuperPan9Table`), which checks every wager and decision itself.

A Super Pan 9 history holds one round. Amounts are cents (``setup.unit``); ``seats`` are the
seats with a wager (``seat`` is the engine's seat 1-9, ``chips`` the stack before the round);
``pack`` the cards dealt in the round in the order they left the shoe; ``actions``::

    {"type": "wager", "seat": 3, "amount": 1000, "tie": 0}   # rule 5
    {"type": "deal"}                                          # rule 3: three cards each
    {"type": "draw" | "stand", "seat": 3}                     # rule 6, in seat order
    {"type": "reveal", "cards": ["9s", ...]}                  # rule 7: the dealer's three cards
    {"type": "dealer_draw"}                                   # rule 7 i: on 0-5
    {"type": "irregularity", "kind": "exposed-card", "seat": 1,
     "reason": "fiona: card flashed"}                         # internal controls: the
                                                              # house policy voids hands

and the settlement (rules 4, 8, 9) follows the last action, as at the table.
``result.chips`` (stacks after) and ``result.settlements`` are checked on replay.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardroom.engine import RuleError
from cardroom.history import GameReplay, HandHistory, HistoryError, Replayed
from cardroom.houserules import build_rules
from cardroom.money import Cents
from cardroom.shoe import Shoe

from .engine import Phase, SuperPan9Table
from .events import DEALER, IRREGULARITIES, WAGERS, IrregularityKind, RoundSettled
from .rules import SuperPan9Rules

RULE_OF_ACTION = {
    "wager": WAGERS, "deal": "rule 3 (the deal)", "draw": "rule 6 (one card)",
    "stand": "rule 6 (one card)", "reveal": DEALER, "dealer_draw": DEALER,
    "settle": "rules 4, 8, 9 (settlement)", "irregularity": IRREGULARITIES,
}
"""The clause a refusal that is not the engine's `RuleError` (a malformed amount) reports."""


class Replay(GameReplay[RoundSettled]):
    """The engine with the recorded cards as its shoe, the stacks and the seat index."""

    game = "super-pan-9"
    rule_of_action = RULE_OF_ACTION

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        rules = build_rules(SuperPan9Rules, h.rules, "history rules")
        self.read_seats(h, "seat")
        self.stacks: list[Cents] = list(self.start)
        # the round's cards, checked against the shoe before any action (rule 1: 36 cards a
        # deck, no 7-10, no joker); then the rest of the shoe (never dealt if the history is
        # whole): the engine deals from it in its own order and sees a shoe large enough
        problem = rules.shoe_spec.pack_problem(self.pack, whole=False)
        if problem is not None:
            raise HistoryError(
                f"the history's cards cannot come from a {rules.shoe_size}-card Super Pan 9 shoe "
                f"of {rules.decks} deck(s) (rule 1: 36 cards a deck, the 7s, 8s, 9s, 10s and "
                f"jokers removed): {problem}; nothing was replayed")
        rest = Counter(rules.shoe_spec.cards())
        rest.subtract(Counter(self.pack))
        order = [*self.pack, *sorted(rest.elements())]
        self.shoe = Shoe(order=order, cut_index=len(order) + 1, salt=b"")
        self.table = SuperPan9Table(rules, shoe=self.shoe)
        for seat, chips in zip(self.seat_numbers, self.start, strict=True):
            self.table.sit(seat, chips)

    def apply(self, index: int, action: dict[str, Any]) -> None:
        t, kind = self.table, action.get("type")
        if kind == "wager":
            seat = self.recorded_seat(action)
            i = self.seat_numbers.index(seat)
            amount, tie = action.get("amount"), action.get("tie", 0)
            t.place_wager(seat, amount, tie)  # type: ignore[arg-type]
            self.stacks[i] -= amount + tie
        elif kind == "deal":
            t.deal()
        elif kind in ("draw", "stand"):
            seat = self.recorded_seat(action)
            t.draw(seat) if kind == "draw" else t.stand(seat)
        elif kind == "reveal":
            t.reveal()
            recorded = action.get("cards")
            if recorded is not None and recorded != [str(c) for c in t.dealer_cards]:
                raise RuleError(DEALER, f"the dealer's cards are {t.dealer_cards}, not the "
                                f"recorded {recorded}")
        elif kind == "dealer_draw":
            t.dealer_draw()
        elif kind == "irregularity":
            self.irregularity(action)
        elif kind == "settle":
            self.settle()
        else:
            raise HistoryError(f"unknown Super Pan 9 action {kind!r}")
        if self.shoe.position > len(self.pack):
            raise HistoryError(f"the round needs more than the {len(self.pack)} recorded "
                               "cards")

    def irregularity(self, action: dict[str, Any]) -> None:
        """The floor's record: the engine voids the hands the house policy says; their
        wagers come back with the settlement (a void settlement returns them)."""
        try:
            kind = IrregularityKind(str(action.get("kind")))
        except ValueError:
            raise HistoryError(f"unknown irregularity {action.get('kind')!r}") from None
        seat = None if action.get("seat") is None else self.recorded_seat(action)
        reason = action.get("reason", "")
        self.table.record_irregularity(kind, seat, reason if isinstance(reason, str) else "")

    def settle(self) -> None:
        self.result = settled = self.table.settle()
        for s in settled.seats:
            self.stacks[self.seat_numbers.index(s.seat)] += s.settlement.returned

    def finish(self, actions: int) -> None:
        """The settlement follows the dealer's turn (rules 4, 8, 9)."""
        if self.result is None and self.table.phase is Phase.REVEALED:
            self.settle()
        if self.result is not None:
            self.moves(actions - 1, self.result)

    def moves(self, index: int, settled: RoundSettled) -> None:
        """Each seat's wager and tie bet won or lost (the commission, where one is taken)."""
        for s in settled.seats:
            who, st = self.seat_numbers.index(s.seat), s.settlement
            for what, net, commission in (("wager", st.main_net, st.commission),
                                          ("tie bet", st.tie_net, st.tie_commission)):
                result = st.outcome.value if what == "wager" else (
                    "wins" if net > 0 else "loses")
                self.move(index, who, net, f"{what} {result}"
                          + (f" (commission {commission})" if commission else ""))

    def void_problem(self, h: HandHistory) -> str | None:
        if self.shoe.position != len(self.pack):
            return ("a voided round's history holds only the cards dealt before the void "
                    "(hidden information stays hidden)")
        return None

    def final(self) -> list[int]:
        return list(self.stacks)

    def outcome(self) -> str:
        if self.result is None:
            return f"unfinished ({self.table.phase.value})"
        return f"dealer {self.result.dealer_total}; " + ", ".join(
            f"seat {s.seat} {'' if s.player_total is None else f'{s.player_total} '}"
            f"{s.settlement.outcome.value}"
            for s in self.result.seats)

    settled_key = "settlements"

    def replayed(self, settled: RoundSettled) -> Replayed | None:
        return Replayed({"dealer_total": settled.dealer_total}, "settlements",
                        ("seat", "outcome", "net"),
                        [(s.seat, s.settlement.outcome.value, s.settlement.net)
                         for s in settled.seats])


__all__ = ["Replay"]
