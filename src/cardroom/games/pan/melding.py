"""Melding in the turn: new melds, lay-offs on one's own melds, borrowing and splitting
(reference: a turn, 2-3; melds), each paying its conditions."""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.cards import Card
from cardroom.engine import able, action

from . import errors as R
from .errors import PanRuleError
from .events import Event, Melded
from .melds import (
    addition_units,
    fits,
    is_valid_on_board,
    lay_down_units,
    meld_kind,
    sort_meld,
    split_units,
)
from .state import BoardMeld, SeatState, check, take_cards
from .turn import TurnMixin


class MeldingMixin(TurnMixin):
    """New melds, lay-offs, borrowing and splitting in one's own turn."""

    # ----- melding (A turn, 2-3; melds; borrowing; splitting) -------------------------------

    def _verify_meld_turn(self, seat: int, use_drawn: bool) -> SeatState:
        s = self._verify_turn(seat)
        check(self.forced_discard is None, R.RULE_13, "a forced discard comes first")
        check(self.current == seat, R.TURN_3, "melds are made in one's own turn")
        check(self.turn_started, R.TURN_3, "draw first")
        if use_drawn:
            check(self.drawn is not None, R.TURN_2, "there is no unused drawn card")
        else:
            if self.drawn is not None:
                raise PanRuleError(
                    R.TURN_2,
                    f"the drawn card {self.drawn} must be melded at once or discarded first")
        return s

    def _verify_own_meld(self, seat: int, meld: int, use_drawn: bool, clause: str) -> BoardMeld:
        """The seat's meld number `meld`, in its melding turn."""
        s = self._verify_meld_turn(seat, use_drawn)
        if not (0 <= meld < len(s.melds)):
            raise PanRuleError(clause, f"seat {seat} has no meld {meld}")
        return s.melds[meld]

    def verify_meld(self, seat: int, cards: Sequence[Card], use_drawn: bool = False) -> None:
        self._verify_meld_turn(seat, use_drawn)
        self._check_holds(seat, cards, R.MELDS)
        allc = (*cards, self.drawn) if use_drawn and self.drawn else tuple(cards)
        if not (meld_kind(allc) is not None):
            raise PanRuleError(
                R.MELDS,
                f"{' '.join(map(str, allc))} is no meld: a set needs three or more of one "
                "rank (except aces and kings: all one suit or all different suits); a "
                "sequence three or more of one suit in order A 2 3 4 5 6 7 J Q K")

    can_meld = able(verify_meld)

    @action
    def meld(self, seat: int, cards: Sequence[Card], use_drawn: bool = False) -> list[Event]:
        """A new meld from hand cards, with the drawn card when `use_drawn`."""
        mark = len(self.events)
        s = self.seats[seat]
        rest = take_cards(s.hand, cards)
        assert rest is not None
        deck_card = self._use_drawn() if use_drawn else None
        s.hand = rest
        self._new_meld(seat, (*cards, *((deck_card,) if deck_card else ())), deck_card,
                       "meld", "laid down")
        return self.events[mark:]

    def _new_meld(self, seat: int, cards: Sequence[Card], deck_card: Card | None,
                  action: str, why: str) -> None:
        """A new meld of `cards` (already out of the hand), paying its value as it lies."""
        s = self.seats[seat]
        kind = meld_kind(cards)
        assert kind is not None
        m = BoardMeld(sort_meld(cards, kind), kind, deck_card is not None, deck_card)
        s.melds.append(m)
        self.turn_actions += 1
        self._log(Melded(seat, len(s.melds) - 1, m.cards, action, True))
        self._hit(seat, len(s.melds) - 1, lay_down_units(m.cards, kind, self.rules), why)

    def _use_drawn(self) -> Card:
        card = self.drawn
        assert card is not None
        self.drawn = None
        return card

    def verify_lay_off(self, seat: int, meld: int, card: Card | None = None) -> None:
        m = self._verify_own_meld(seat, meld, card is None, R.MELDS)
        c = self.drawn if card is None else card
        assert c is not None
        if card is not None:
            self._check_holds(seat, (card,), R.MELDS)
        if not (m.kind is not None and fits(m.cards, m.kind, c, self.rules.strict_set_additions)):
            raise PanRuleError(R.MELDS, f"{c} does not fit the meld {' '.join(map(str, m.cards))}")

    can_lay_off = able(verify_lay_off)

    @action
    def lay_off(self, seat: int, meld: int, card: Card | None = None) -> list[Event]:
        """Add one card to one of the player's own melds (None: the drawn card)."""
        mark = len(self.events)
        s = self.seats[seat]
        if card is None:
            c = self._use_drawn()
        else:
            c = card
            s.hand.remove(card)
        self.turn_actions += 1
        self._add_to_meld(seat, meld, c, "lay off")
        return self.events[mark:]

    def _add_to_meld(self, seat: int, meld: int, card: Card, action: str) -> None:
        s = self.seats[seat]
        m = s.melds[meld]
        assert m.kind is not None
        before = m.cards
        m.cards = sort_meld((*before, card), m.kind)
        self._log(Melded(seat, meld, m.cards, action, True))
        self._hit(seat, meld, addition_units(before, m.cards, m.kind, self.rules), "added to")

    def verify_borrow(self, seat: int, meld: int, borrowed: Sequence[Card],
                      cards: Sequence[Card], use_drawn: bool = False) -> None:
        m = self._verify_own_meld(seat, meld, use_drawn, R.BORROWING)
        check(m.kind is not None, R.BORROWING, "cannot borrow from an invalid meld")
        assert m.kind is not None
        left = take_cards(list(m.cards), borrowed)
        check(left is not None and len(borrowed) > 0, R.BORROWING,
              "the borrowed cards must come from that meld")
        assert left is not None
        check(is_valid_on_board(left, m.kind, self.rules.strict_set_additions), R.BORROWING,
              "what is left of the meld must still be a valid meld")
        self._check_holds(seat, cards, R.BORROWING)
        allc = (*borrowed, *cards, *((self.drawn,) if use_drawn and self.drawn else ()))
        if not (meld_kind(allc) is not None):
            raise PanRuleError(R.BORROWING, f"{' '.join(map(str, allc))} is no meld")

    can_borrow = able(verify_borrow)

    @action
    def borrow(self, seat: int, meld: int, borrowed: Sequence[Card], cards: Sequence[Card],
               use_drawn: bool = False) -> list[Event]:
        """Take cards from one's own meld to make a new meld, leaving a valid meld."""
        mark = len(self.events)
        s = self.seats[seat]
        rest = take_cards(s.hand, cards)
        assert rest is not None
        deck_card = self._use_drawn() if use_drawn else None
        s.hand = rest
        self._borrow_into(seat, meld, borrowed, (*cards, *((deck_card,) if deck_card else ())),
                          deck_card)
        return self.events[mark:]

    def _borrow_into(self, seat: int, meld: int, borrowed: Sequence[Card],
                     cards: Sequence[Card], deck_card: Card | None) -> None:
        """`borrowed` from the seat's meld with `cards` (already out of the hand) make a new
        meld, paying its value."""
        m = self.seats[seat].melds[meld]
        assert m.kind is not None
        left = take_cards(list(m.cards), borrowed)
        assert left is not None
        m.cards = sort_meld(left, m.kind)
        self._log(Melded(seat, meld, m.cards, "borrowed from", True))
        self._new_meld(seat, (*borrowed, *cards), deck_card, "borrow", "laid down by borrowing")

    def _meld_out(self, seat: int, card: Card, action: str, reason: str) -> None:
        """`card` and his whole hand melded as they pay him best (`out_plan`, the dealer
        laying them for him); he is out."""
        plan = self.out_plan(seat, card)
        assert plan is not None
        s = self.seats[seat]
        for x, use in plan.steps:
            if use[0] == "lay_off":
                self._add_to_meld(seat, use[1], x, action)
            elif use[0] == "meld":
                self._new_meld(seat, (x, *use[1]), None, action, "laid down")
            else:
                self._borrow_into(seat, use[1], use[2], (x, *use[3]), None)
        s.hand = []
        if self.current == seat:
            self.drawn = None
            self.turn_started = False
        self._finish(seat, reason)

    def verify_split(self, seat: int, meld: int, part: Sequence[Card]) -> None:
        m = self._verify_own_meld(seat, meld, False, R.SPLITTING)
        check(m.kind is not None, R.SPLITTING, "cannot split an invalid meld")
        assert m.kind is not None
        rest = take_cards(list(m.cards), part)
        check(rest is not None, R.SPLITTING, "the part must come from that meld")
        assert rest is not None
        strict = self.rules.strict_set_additions
        check(is_valid_on_board(part, m.kind, strict) and is_valid_on_board(rest, m.kind, strict),
              R.SPLITTING, "each part of a split must be a valid meld")

    can_split = able(verify_split)

    @action
    def split(self, seat: int, meld: int, part: Sequence[Card]) -> list[Event]:
        """Split a grown meld into two valid melds; a condition made by splitting pays."""
        mark = len(self.events)
        s = self.seats[seat]
        m = s.melds[meld]
        assert m.kind is not None
        whole = m.cards
        rest = take_cards(list(whole), part)
        assert rest is not None
        m.cards = sort_meld(rest, m.kind)
        new = BoardMeld(sort_meld(part, m.kind), m.kind, False)
        s.melds.append(new)
        self.turn_actions += 1
        self._log(Melded(seat, meld, m.cards, "split", True))
        self._log(Melded(seat, len(s.melds) - 1, new.cards, "split", True))
        self._hit(seat, len(s.melds) - 1,
                  split_units(whole, (m.cards, new.cards), m.kind, self.rules), "made by splitting")
        return self.events[mark:]
