"""Play or pass in turn from the first hand; a declaration changed until the next player has
acted, the last player's limit (reference: tops and declarations; house rule 9)."""

from __future__ import annotations

from cardroom.engine import able, action

from . import errors as R
from .ending import EndingMixin
from .errors import PanRuleError
from .events import ChipsMoved, Declared, Event
from .state import Phase, Status, check


class DeclarationsMixin(EndingMixin):
    """Play or pass, and changing a declaration."""

    # ----- declarations (Tops and declarations; house rules 8, 9) ---------------------------

    def verify_declare(self, seat: int, play: bool) -> None:
        self._open()
        self._seat(seat)
        check(self.phase is Phase.DECLARING, R.DECLARATIONS, "declarations are over")
        if not (self.order[self.next_declarer] == seat):
            raise PanRuleError(
                R.FOUL_9,
                f"seat {self.order[self.next_declarer]} declares next, not seat {seat}")
        s = self.seats[seat]
        if s.status is not Status.IN:
            raise PanRuleError(R.DECLARATIONS, f"seat {seat} is not in the hand")
        if not play:
            live = [i for i in self.in_players() if self.seats[i].declared is not False]
            check(len(live) > 1, R.DECLARATIONS,
                  "every other player has passed: this player takes the tops")

    can_declare = able(verify_declare)

    @action
    def declare(self, seat: int, play: bool) -> list[Event]:
        """Play or pass, in turn from the first hand (a knock in turn means play)."""
        mark = len(self.events)
        self._set_declaration(seat, play, changed=False)
        self.next_declarer += 1
        while (self.next_declarer < self.n
               and self.seats[self.order[self.next_declarer]].status is not Status.IN):
            self.next_declarer += 1
        self._after_declaration(seat)
        return self.events[mark:]

    @action
    def knock(self, seat: int) -> list[Event]:
        """House rules: a knock in turn means play."""
        return self.declare(seat, True)

    def _set_declaration(self, seat: int, play: bool, changed: bool) -> None:
        s = self.seats[seat]
        s.declared = play
        if not play:
            s.status = Status.PASSED
            fee = min(self.rules.pass_forfeit_chips, s.chips)
            if fee:
                s.chips -= fee
                self.tops_single += fee
                self.single_contrib[seat] += fee
                self._log(ChipsMoved(seat, None, fee, "pass forfeit to the tops"))
        else:
            if s.status is Status.PASSED:
                s.status = Status.IN
                fee = min(self.rules.pass_forfeit_chips, self.single_contrib[seat] - 1)
                if fee:
                    s.chips += fee
                    self.tops_single -= fee
                    self.single_contrib[seat] -= fee
                    self._log(ChipsMoved(None, seat, fee, "pass forfeit returned"))
        self._log(Declared(seat, play, changed))

    def _after_declaration(self, seat: int | None) -> None:
        """After `seat` declared (None: a dead hand left). When every other player has passed,
        the one left takes the tops at once only if he just acted himself: a passer keeps his
        right to change "until the next player has acted", so the hand then waits for the one
        left to take the tops (`take_tops`), the last player's window closing with it."""
        live = [i for i in self.in_players() if self.seats[i].declared is not False]
        if len(live) == 1 and all(self.seats[i].declared is not None
                                  for i in self.in_players()):
            if seat == live[0]:
                self._award_tops_alone(live[0], "every other player passed")
                return
            self.phase = Phase.PLAYING
            self.next_declarer = self.n
            self.current = live[0]
            return
        if self.next_declarer >= self.n and self.phase is Phase.DECLARING:
            self.phase = Phase.PLAYING
            self.current = self.order[0]
            if self.seats[self.current].status is not Status.IN:
                self.current = self.next_in(self.current)

    def verify_change_declaration(self, seat: int) -> None:
        """A declaration may be changed until the next player has acted; the last player not
        after the first card has been drawn; house rule 8B/8C exceptions. "May change his
        declaration" is one change: the changed declaration stands, so a hand cannot fill with
        play/pass toggles while the next player thinks (issue 23)."""
        self._open()
        s = self._seat(seat)
        if not (s.declared is not None):
            raise PanRuleError(R.DECLARATIONS, f"seat {seat} has not declared")
        if s.status not in (Status.IN, Status.PASSED):
            raise PanRuleError(R.DECLARATIONS, f"seat {seat} is out of the hand")
        check(not s.locked_declaration, R.FOUL_8,
              "a player given a card for a nine-card hand may not change his declaration")
        check(not self.first_draw_done or s.late_change_allowed, R.DECLARATIONS,
              "declarations are final once the first card has been drawn and exposed")
        if s.late_change_allowed:
            return
        idx = self.order.index(seat)
        later = [self.order[j] for j in range(idx + 1, self.n)
                 if self.seats[self.order[j]].status in (Status.IN, Status.PASSED)]
        if later:
            check(self.seats[later[0]].declared is None, R.DECLARATIONS,
                  "the next player has acted: the declaration stands")
        check(not s.changed_declaration, R.DECLARATIONS,
              "a declaration may be changed once: the changed declaration stands")
        if s.declared:
            live = [i for i in self.in_players() if self.seats[i].declared is not False]
            check(len(live) > 1, R.DECLARATIONS, "the only player left cannot pass")

    can_change_declaration = able(verify_change_declaration)

    @action
    def change_declaration(self, seat: int) -> list[Event]:
        mark = len(self.events)
        s = self.seats[seat]
        s.changed_declaration = True
        s.late_change_allowed = False
        self._set_declaration(seat, not s.declared, changed=True)
        if self.phase is Phase.PLAYING:
            if self.current is not None and self.seats[self.current].status is not Status.IN:
                self.current = self.next_in(self.current)
            elif s.status is Status.IN and self.current is not None:
                # back in before anyone drew: play starts again from the first hand
                self.current = next(i for i in self.order if self.seats[i].status is Status.IN)
        else:
            self._after_declaration(seat)
        return self.events[mark:]

    # ----- the one player left takes the tops (tops and declarations) ------------------------

    def verify_take_tops(self, seat: int) -> None:
        self._open()
        self._seat(seat)
        check(self.tops_waiting() and self.in_players() == [seat], R.DECLARATIONS,
              "only the one player left when every other player has passed takes the tops")

    can_take_tops = able(verify_take_tops)

    @action
    def take_tops(self, seat: int) -> list[Event]:
        """Every other player passed: the one left takes the tops. This is his action, so
        until then the last passer may still change his declaration."""
        mark = len(self.events)
        self._award_tops_alone(seat, "every other player passed")
        return self.events[mark:]
