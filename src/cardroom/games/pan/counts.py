"""Wrong card counts found before the player's first action (house foul rule 8)."""

from __future__ import annotations

from cardroom.engine import able, action

from . import errors as R
from .declarations import DeclarationsMixin
from .errors import PanRuleError
from .events import ChipsMoved, CountCorrected, Event
from .rules import HAND_SIZE
from .state import Phase, Status, check


class CountsMixin(DeclarationsMixin):
    """House foul rule 8: correcting a wrong count before the first action."""

    # ----- wrong card counts (house foul rule 8) ----------------------------------------------

    def verify_correct_count(self, seat: int, pick: int | None = None) -> None:
        self._open()
        s = self._seat(seat)
        if s.status not in (Status.IN, Status.PASSED):
            raise PanRuleError(R.FOUL_8, f"seat {seat} is not in the hand")
        check(not s.touched_deck, R.FOUL_8,
              "the player has touched the deck: a wrong count is now a foul (rule 3A)")
        k = s.card_count
        if not (k != HAND_SIZE):
            raise PanRuleError(R.FOUL_8, f"seat {seat} holds ten cards")
        if k == HAND_SIZE + 1:
            check(pick is not None and 0 <= pick < len(s.hand), R.FOUL_8,
                  "the dealer removes one card at random: give its position in the hand")
        if k == HAND_SIZE - 1:
            check(bool(self.stock), R.FOUL_8, "no card left to add")

    can_correct_count = able(verify_correct_count)

    @action
    def correct_count(self, seat: int, pick: int | None = None) -> list[Event]:
        """8A: eight or fewer / twelve or more: dead hand, ante returned. 8B: nine: one card
        added from the top (from the middle when the cards dealt out total correctly), no
        change of declaration. 8C: eleven: the dealer removes one at random (`pick`, chosen by
        the house's random source), and the player may change his declaration."""
        mark = len(self.events)
        s = self.seats[seat]
        k = s.card_count
        if k <= HAND_SIZE - 2 or k >= HAND_SIZE + 2:
            s.status = Status.DEAD
            self._to_stock(s.hand[::-1], bottom=True)
            s.hand = []
            back = self.single_contrib[seat]
            self.tops_single -= back
            self.single_contrib[seat] = 0
            dback = self.double_contrib[seat]
            self.tops_double -= dback
            self.double_contrib[seat] = 0
            s.chips += back + dback
            self._log(ChipsMoved(None, seat, back + dback, "dead hand: ante returned"))
            self._log(CountCorrected(seat, k, "dead hand", None))
            if self.phase is Phase.DECLARING:
                if self.order[self.next_declarer] == seat:
                    self.next_declarer += 1
                self._after_declaration(None)
            elif self.current == seat:
                self.current = self.next_in(seat)
            # a dead hand is the dealer's correction, not "the next player has acted": while
            # a passer may still change, the one left must declare or take the tops himself
            if self.phase is not Phase.COMPLETE and len(self.in_players()) == 1 \
                    and not any(self.can_change_declaration(i) for i, x in self.seats.items()
                                if x.status is Status.PASSED):
                self._award_tops_alone(self.in_players()[0], "every other hand is dead")
        elif k == HAND_SIZE - 1:
            dealt = sum(x.card_count for x in self.seats.values())
            if dealt == HAND_SIZE * self.n and len(self.stock) > 2:
                card = self._from_stock(len(self.stock) // 2)
                where = "added from the middle of the deck"
            else:
                card = self._from_stock()
                where = "added from the top of the deck"
            s.hand.append(card)
            s.locked_declaration = True
            self._log(CountCorrected(seat, k, where, card))
        else:
            assert pick is not None
            card = s.hand.pop(pick)
            self._to_stock([card], bottom=True)
            s.late_change_allowed = True
            self._log(CountCorrected(seat, k, "one card removed at random", card))
        return self.events[mark:]
