"""Forcing: the option card (house rule 12), cards forced back (13) and out cards forced back
only in the three cases of rule 14."""

from __future__ import annotations

from cardroom.cards import Card
from cardroom.engine import able, action

from . import errors as R
from .errors import PanRuleError
from .events import Event, Forced
from .melding import MeldingMixin
from .state import IN, PLAYING, DiscardEntry, check


class ForcingMixin(MeldingMixin):
    """Forcing the option card and forcing cards back (rules 11-14)."""

    # ----- forcing (house rules 11-14) ----------------------------------------------------------

    def _out_force_allowed(self, seat: int, card: Card, case_a: bool) -> bool:
        """Rule 14: an out card may be forced back only (A) against a pyramid attempt,
        (B) when it puts two players out, on the one who goes out for less, (C) head up."""
        if self.head_up:
            return True
        if case_a:
            return True
        others = [i for i in self.in_players() if i != seat and self.goes_out_with(i, card)]
        return any(self.out_value(seat, card) < self.out_value(i, card) for i in others)

    def verify_force_option_card(self, forcer: int, use: bool) -> None:
        self._open()
        f = self._seat(forcer)
        cur = self.current
        check(self.phase is PLAYING and cur is not None, R.RULE_12, "no turn in progress")
        assert cur is not None
        check(f.status is IN and forcer != cur, R.RULE_12,
              "only another active player may force the option card")
        check(self.drawn_kind == "stock" and self.drawn is not None and self.turn_actions == 0
              and not self.option_resolved, R.RULE_12,
              "the option card is forced right after the player touches the deck")
        top = self.discards[-1] if self.discards else None
        check(top is not None and top.from_stock and top.seat == self.last_discarder, R.RULE_12,
              "there is no option card")
        assert top is not None
        check(top.seat != forcer, R.RULE_11,
              "the player who discarded the card has lost the right to force it")
        if not any(u[0] in ("lay_off", "borrow") for u in self.card_uses(cur, top.card)):
            raise PanRuleError(R.RULE_12, f"{top.card} fits none of the player's spreads")
        if use and self.goes_out_with(cur, top.card):
            check(self._out_force_allowed(cur, top.card, False), R.RULE_14,
                  "that card would put the player out")

    can_force_option_card = able(verify_force_option_card)

    @action
    def force_option_card(self, forcer: int, use: bool) -> list[Event]:
        """Rule 12: a player who overlooked a usable card and touched the deck is forced
        either to use it (the drawn card goes back on the stock) or to continue."""
        mark = len(self.events)
        cur = self.current
        assert cur is not None
        self.option_resolved = True
        top = self.discards[-1]
        if not use:
            self._log(Forced(forcer, cur, top.card, R.RULE_12, "forced to continue to draw"))
            return self.events[mark:]
        self._drop_live(self.discards.pop())
        drawn = self._use_drawn()
        self._to_stock([drawn], bottom=False)
        self.drawn_kind = "taken"
        self._log(Forced(forcer, cur, top.card, R.RULE_12, "forced to use the option card"))
        if self.goes_out_with(cur, top.card):
            self._meld_out(cur, top.card, "forced lay off", "went out on a forced card")
            return self.events[mark:]
        fitting = self.fitting_melds(cur, top.card)
        if not fitting:
            # usable only by borrowing from a spread: it is his to meld at once, as a card
            # taken from the previous player (which borrow is his choice)
            self.drawn = top.card
            return self.events[mark:]
        self.turn_actions += 1
        self._add_to_meld(cur, fitting[0], top.card, "forced lay off")
        return self.events[mark:]

    def _force_back_entry(self, seat: int) -> DiscardEntry | None:
        """The seat's latest discard still in the pile and still forceable (rule 13)."""
        for d in reversed(self._live):
            if d.seat == seat:
                return d
        return None

    def verify_force_back(self, forcer: int, seat: int) -> None:
        self._open()
        f = self._seat(forcer)
        s = self._seat(seat)
        check(self.phase is PLAYING, R.RULE_13, "no hand in play")
        check(f.status is IN and forcer != seat and s.status is IN, R.RULE_13,
              "only another active player may force a card back on an active hand")
        check(self.forced_discard is None, R.RULE_13, "a forced discard is pending")
        d = self._force_back_entry(seat)
        if not (d is not None):
            raise PanRuleError(R.RULE_13, f"seat {seat} has no discard to force back")
        assert d is not None
        if d.from_stock:
            check(len(d.drawers) < 2, R.RULE_13,
                  "two players have drawn behind: the card can no longer be forced back")
            check(forcer not in d.drawers or self.head_up, R.RULE_13,
                  "a player who has drawn since has lost the right to force it back")
        else:
            check(not d.touched, R.RULE_13,
                  "the player has touched the deck: his hand discard can no longer be forced")
        out = self.goes_out_with(seat, d.card)
        if not out and not self.fitting_melds(seat, d.card):
            raise PanRuleError(R.RULE_13, f"{d.card} fits none of seat {seat}'s melds")
        if out and not self._out_force_allowed(seat, d.card, d.chosen):
            raise PanRuleError(R.RULE_14, f"{d.card} is an out card for seat {seat}")

    can_force_back = able(verify_force_back)

    @action
    def force_back(self, forcer: int, seat: int) -> list[Event]:
        """Rule 13: a card that fits the discarder's own spread is forced back onto it; the
        player then discards again from the hand (or is out, rule 14)."""
        mark = len(self.events)
        d = self._force_back_entry(seat)
        assert d is not None
        self.discards.remove(d)
        self._drop_live(d)
        self._log(Forced(forcer, seat, d.card, R.RULE_13, "forced back onto the spread"))
        if self.goes_out_with(seat, d.card):
            self._meld_out(seat, d.card, "forced back", "went out on a card forced back")
        else:
            self._add_to_meld(seat, self.fitting_melds(seat, d.card)[0], d.card, "forced back")
            self.forced_discard = seat
        return self.events[mark:]
