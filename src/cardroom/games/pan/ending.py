"""How a hand ends: going out (tops, outs, foul hands' value plus 2), the last player left,
the tops taken alone, and two players splitting the tops (house pays rule 2)."""

from __future__ import annotations

from cardroom.engine import able, action

from . import errors as R
from .events import ChipsMoved, Event, HandEnded, Irregularity, WentOut
from .pays import PaysMixin
from .state import (
    COMPLETE,
    FOULED,
    IN,
    LAST_PLAYER,
    OUT,
    PLAYING,
    SELF_FOULED,
    DiscardEntry,
    check,
)


class EndingMixin(PaysMixin):
    """Every way a hand ends, and who gets the tops."""

    def _finish(self, winner: int, reason: str) -> None:
        w = self.seats[winner]
        if w.pending:
            self._collect(winner)
        stake = w.chips  # house pays rule 5C: the tops may not build up the outs
        self._log(WentOut(winner))
        w.status = OUT
        self.winner = winner
        self._award_tops(winner)
        outs = self.rules.outs_chips
        extra = self.spread_value(winner) if self.rules.repay_conditions_on_out else 0
        for i, s in self.seats.items():
            if i == winner:
                continue
            if s.status in (IN, SELF_FOULED) or (
                    s.status is FOULED and s.pays_outs_when_fouled):
                due = outs + extra * self.multiplier(winner, i)
                self._move(i, winner, min(due, stake, s.chips), "outs")
            elif s.status is FOULED:
                due = s.foul_value + 2
                self._move(i, winner, min(due, stake, s.chips),
                           "foul hand: value as it lies plus 2 (foul rule 1B)")
        self._end(winner, reason, None)

    def _award_tops(self, winner: int) -> None:
        w = self.seats[winner]
        self._move(None, winner, self.tops_single, "tops")
        self.tops_single = 0
        if w.doubles:
            self._move(None, winner, self.tops_double, "double tops")
        else:
            for i, c in self.double_contrib.items():
                self._move(None, i, c, "double tops returned: won by a singles player")
            # double tops carried from a redeal (rule 6) whose contributors are not this
            # hand's: no progressive tops, so they go with the tops (docs/pan.md)
            carried = self.tops_double - sum(self.double_contrib.values())
            if carried > 0:
                self._move(None, winner, carried, "carried double tops: no doubles winner")
        self.tops_double = 0

    def _award_tops_alone(self, winner: int, reason: str) -> None:
        self.winner = winner
        self._award_tops(winner)
        self._end(winner, reason, None)

    def _end(self, winner: int | None, reason: str, split_with: int | None) -> None:
        self.phase = COMPLETE
        self.current = None
        self.end_reason = reason
        self._log(HandEnded(winner, reason, split_with))

    def _redeal(self, reason: str) -> None:
        """The tops stay for the redeal; every other chip moved in the hand goes back."""
        for ev in list(self.events):
            if isinstance(ev, ChipsMoved) and ev.payer is not None and ev.payee is not None:
                self._move(ev.payee, ev.payer, ev.chips, "redeal: returned")
        self.tops_carry = (self.tops_single, self.tops_double)
        self.tops_single = self.tops_double = 0
        self._end(None, reason, None)

    def _after_status_change(self) -> None:
        if self.phase is not PLAYING:
            return
        live = self.in_players()
        if self.current is not None and self.seats[self.current].status is not IN:
            if self.drawn is not None and self.drawn_kind == "stock":
                # house rule 16: the card drawn stays live for the next player
                self.discards.append(DiscardEntry(self.drawn, self.current, True))
                self.last_discarder = self.current
            self.drawn = None
            self.turn_started = False
            self.forced_discard = None
            nxt = self.next_in(self.current)
            self.current = nxt
        if self.forced_discard is not None and \
                self.seats[self.forced_discard].status is not IN:
            self.forced_discard = None
        if not live:
            # the face-up player of rule 5B declared foul by the floorman (rule 7): no active
            # hand is left, as when one player fouls all the others (rule 6)
            self._redeal("no active hand is left: the tops remain and the hand is redealt "
                         "(rule 6)")
        elif len(live) == 1 and not self.face_up:
            # foul rule 5: one player left "as a result of one or more fouled hands", a
            # self-declared foul (rule 2) included: he settles (5A) or plays face up (5B),
            # and a hand played face up is played "to completion": only going out ends it
            if any(s.status in (FOULED, SELF_FOULED) for s in self.seats.values()):
                self.phase = LAST_PLAYER
                self.current = live[0]
            else:
                self._finish(live[0], "last player in the hand")

    # ----- splitting the tops (house pays rule 2) -----------------------------------------------

    def verify_offer_split(self, seat: int) -> None:
        self._open()
        check(self.phase is PLAYING and len(self.in_players()) == 2
              and self.seats[seat].status is IN, R.PAYS_2,
              "only two players remaining in action may split the tops")

    @action
    def offer_split(self, seat: int) -> list[Event]:
        self.split_offer = seat
        self._log(Irregularity(seat, "split offered", "offers to split the tops"))
        return self.events[-1:]

    def verify_accept_split(self, seat: int) -> None:
        self.verify_offer_split(seat)
        check(self.split_offer is not None and self.split_offer != seat, R.PAYS_2,
              "no offer from the other player")

    def can_offer_split(self, seat: int) -> bool:
        return self._can(self.verify_offer_split, seat) and self.split_offer is None

    def verify_decline_split(self, seat: int) -> None:
        self.verify_accept_split(seat)

    can_decline_split = able(verify_decline_split)

    @action
    def decline_split(self, seat: int) -> list[Event]:
        """Pays rule 2: "If one player refuses, regardless of precedent, action continues"."""
        self.split_offer = None
        self._log(Irregularity(seat, "split declined", "refuses to split the tops"))
        return self.events[-1:]

    can_accept_split = able(verify_accept_split)

    @action
    def accept_split(self, seat: int) -> list[Event]:
        """Both agree: the single tops are split; doubles split the double tops only between
        two doubles players (a doubles player and a singles player split only the singles).
        An odd chip goes to the player whose turn is next."""
        mark = len(self.events)
        a, b = self.in_players()
        first = self.current if self.current in (a, b) else a
        second = b if first == a else a
        half, odd = divmod(self.tops_single, 2)
        self._move(None, first, half + odd, "split tops")
        self._move(None, second, half, "split tops")
        self.tops_single = 0
        da, db = self.seats[first].doubles, self.seats[second].doubles
        if da and db:
            h, o = divmod(self.tops_double, 2)
            self._move(None, first, h + o, "split double tops")
            self._move(None, second, h, "split double tops")
        elif da or db:
            self._move(None, first if da else second, self.tops_double, "double tops")
        else:
            for i, c in self.double_contrib.items():
                self._move(None, i, c, "double tops returned")
        self.tops_double = 0
        self._end(None, "tops split", second)
        return self.events[mark:]
