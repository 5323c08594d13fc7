"""Foul hands: calling a hand foul for cause and its penalty, the self-declared foul, the
floorman, the redeal of rule 6, and the one player left of rule 5 (house foul rules 1-7)."""

from __future__ import annotations

from cardroom.engine import able, action

from . import errors as R
from .ending import EndingMixin
from .errors import PanRuleError
from .events import Event, FoulCalled, Irregularity
from .state import Cause, Phase, Status, check


class FoulsMixin(EndingMixin):
    """Calling hands foul, their penalties, and what follows (rules 1-7)."""

    # ----- fouls (house foul rules 1-8, 15, 16) -----------------------------------------------

    def _irregular(self, seat: int, cause: Cause, detail: str) -> None:
        s = self.seats[seat]
        if cause not in s.causes:
            s.causes.append(cause)
        self._log(Irregularity(seat, cause.value, detail))

    def verify_call_foul(self, caller: int | None, seat: int) -> None:
        self._open()
        s = self._seat(seat)
        if caller is not None:
            c = self._seat(caller)
            check(c.status is Status.IN and caller != seat, R.FOUL_4,
                  "only another active player may call a hand foul")
        if s.status is not Status.IN:
            raise PanRuleError(R.FOUL_3, f"seat {seat} is not an active hand")
        if not (bool(s.causes)):
            raise PanRuleError(R.FOUL_3, f"seat {seat}'s hand gives no cause to call it foul")

    can_call_foul = able(verify_call_foul)

    @action
    def call_foul(self, caller: int | None, seat: int) -> list[Event]:
        """A hand called foul for cause (rule 3): it repays its collections to the active
        hands, is thrown in, and at the end pays the winner its value as it lies plus 2
        (no bust-out), or the outs for a false declaration of going out (3F)."""
        mark = len(self.events)
        s = self.seats[seat]
        self._log(FoulCalled(caller, seat, tuple(c.value for c in s.causes), False))
        if self.false_out == seat:
            others = [i for i, x in self.seats.items() if i != seat
                      and (x.status is Status.IN or x.fouled_by_false_out)]
            if others and all(self.seats[i].threw_in or self.seats[i].fouled_by_false_out
                              for i in others):
                self._redeal("one player caused every other active player to foul (rule 6)")
                return self.events[mark:]
            self._clear_false_out()
        self._apply_foul(seat)
        return self.events[mark:]

    def _apply_foul(self, seat: int) -> None:
        s = self.seats[seat]
        for p, paid in list(s.collected.items()):
            if self.seats[p].status is Status.IN and paid > 0:
                self._move(seat, p, min(paid, s.chips), "foul hand repays collections")
        s.collected.clear()
        s.foul_value = self.spread_value(seat)
        s.pays_outs_when_fouled = Cause.FALSE_OUT in s.causes
        s.status = Status.FOULED
        s.pending = []
        if self.forced_discard == seat:
            self.forced_discard = None
        if self.current == seat:
            self.drawn = None
            self.turn_started = False
            self.current = self.next_in(seat)
        self._after_status_change()

    def verify_declare_own_foul(self, seat: int) -> None:
        self._open()
        s = self._seat(seat)
        if not (s.status is Status.IN and self.phase is Phase.PLAYING
                and not self.tops_waiting()):
            raise PanRuleError(R.FOUL_2, f"seat {seat} is not an active hand")
        check(not self.face_up, R.FOUL_5, "a hand played out face up is played to completion")

    can_declare_own_foul = able(verify_declare_own_foul)

    @action
    def declare_own_foul(self, seat: int) -> list[Event]:
        """Rule 2: a player who calls his own hand foul and throws it in still pays every
        collection for the rest of the hand, bust-out included; rule 16: a card he drew stays
        live."""
        mark = len(self.events)
        s = self.seats[seat]
        s.status = Status.SELF_FOULED
        s.pending = []
        self._log(FoulCalled(seat, seat, (), True))
        self._after_status_change()
        return self.events[mark:]

    def verify_floor_foul(self, seat: int, reason: str = "") -> None:
        self._open()
        if self._seat(seat).status is not Status.IN:
            raise PanRuleError(R.FOUL_3, f"seat {seat} is not active")

    can_floor_foul = able(verify_floor_foul)

    @action
    def floor_foul(self, seat: int, reason: str) -> list[Event]:
        """Rule 7: the floorman declares a hand foul under extraordinary circumstances."""
        mark = len(self.events)
        self._irregular(seat, Cause.FLOORMAN, reason)
        self.call_foul(None, seat)
        return self.events[mark:]


    # ----- rule 5: one player left after fouls -------------------------------------------------

    def verify_settle(self, seat: int, payments: dict[int, int]) -> None:
        self._open()
        check(self.phase is Phase.LAST_PLAYER and self.current == seat, R.FOUL_5,
              "settling is for the one player left after fouls")
        for p, c in payments.items():
            if not (p in self.seats
                    and self.seats[p].status in (Status.FOULED, Status.SELF_FOULED)):
                raise PanRuleError(R.FOUL_5, f"seat {p} has no foul hand to settle")
            if not (0 <= c <= self.seats[p].chips):
                raise PanRuleError(R.PAYS_5, f"seat {p} has no {c} chips")

    can_settle = able(verify_settle)

    @action
    def settle(self, seat: int, payments: dict[int, int]) -> list[Event]:
        """5A: a settlement agreed with the foul hands; the player takes the tops."""
        mark = len(self.events)
        for p, c in payments.items():
            self._move(p, seat, c, "negotiated settlement (foul rule 5A)")
        self.winner = seat
        self._award_tops(seat)
        self._end(seat, "settled with the foul hands", None)
        return self.events[mark:]

    def verify_play_face_up(self, seat: int) -> None:
        self._open()
        check(self.phase is Phase.LAST_PLAYER and self.current == seat, R.FOUL_5,
              "only the one player left after fouls plays face up")

    can_play_face_up = able(verify_play_face_up)

    @action
    def play_face_up(self, seat: int) -> list[Event]:
        """5B: play the hand out face up, under the dealer's supervision."""
        self.face_up = True
        self.phase = Phase.PLAYING
        self._log(Irregularity(seat, "face up", "plays the hand out face up (foul rule 5B)"))
        return self.events[-1:]
