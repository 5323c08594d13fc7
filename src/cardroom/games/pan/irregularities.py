"""Irregularities: what a player physically does wrong (house foul rule 3 A-F, rule 15),
recorded as causes so another active player can call the hand foul."""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.cards import Card
from cardroom.engine import able, action

from . import errors as R
from .errors import PanRuleError
from .events import Event, Irregularity, Melded
from .fouls import FoulsMixin
from .melding import MeldingMixin
from .melds import lay_down_units, meld_kind, sort_meld
from .state import BoardMeld, Cause, DiscardEntry, Status, check, take_cards


class IrregularitiesMixin(FoulsMixin, MeldingMixin):
    """The irregular actions that give cause to call a hand foul."""

    # irregularities: what a player physically does wrong, recorded so it can be called

    def verify_extra_discard(self, seat: int, card: Card) -> None:
        self._open()
        s = self._seat(seat)
        check(s.status is Status.IN and self.last_discarder == seat and not self.turn_started,
              R.FOUL_3, "only the player who just discarded can discard twice")
        self._check_holds(seat, (card,), R.FOUL_3)

    can_extra_discard = able(verify_extra_discard)

    @action
    def extra_discard(self, seat: int, card: Card) -> list[Event]:
        """3B: a second discard (a cause for calling the hand foul)."""
        mark = len(self.events)
        self.seats[seat].hand.remove(card)
        self.discards.append(DiscardEntry(card, seat, False, touched=True))
        self._irregular(seat, Cause.DISCARD_COUNT, f"discarded {card} as a second discard")
        return self.events[mark:]

    def verify_skip_discard(self, seat: int) -> None:
        self._verify_turn(seat)
        check(self.turn_started and self.drawn is None and self.current == seat, R.FOUL_3,
              "nothing to skip")
        check(bool(self.seats[seat].hand), R.TURN_5, "an empty hand goes out")

    can_skip_discard = able(verify_skip_discard)

    @action
    def skip_discard(self, seat: int) -> list[Event]:
        """3B: failing to discard (the turn passes; a cause for calling the hand foul)."""
        mark = len(self.events)
        self._lose_pending(seat)
        self._irregular(seat, Cause.DISCARD_COUNT, "ended the turn without a discard")
        self._end_turn(seat)
        return self.events[mark:]

    def verify_drop_card(self, seat: int, card: Card) -> None:
        self._open()
        s = self._seat(seat)
        if not (s.status is Status.IN and card in s.hand):
            raise PanRuleError(R.FOUL_3, f"seat {seat} does not hold {card}")

    can_drop_card = able(verify_drop_card)

    @action
    def drop_card(self, seat: int, card: Card) -> list[Event]:
        """3C: a card thrown on the floor to correct the count."""
        mark = len(self.events)
        self.seats[seat].hand.remove(card)
        self.floor.append(card)
        self._irregular(seat, Cause.FLOOR, f"threw {card} on the floor")
        return self.events[mark:]

    def verify_spread_invalid(self, seat: int, cards: Sequence[Card],
                              use_drawn: bool = False) -> None:
        s = self._verify_meld_turn(seat, use_drawn)
        if not (take_cards(s.hand, cards) is not None):
            raise PanRuleError(R.MELDS, f"seat {seat} lacks those cards")
        allc = (*cards, *((self.drawn,) if use_drawn and self.drawn else ()))
        check(meld_kind(allc) is None, R.MELDS, "that is a valid meld: use meld")

    can_spread_invalid = able(verify_spread_invalid)

    @action
    def spread_invalid(self, seat: int, cards: Sequence[Card],
                       use_drawn: bool = False) -> list[Event]:
        """3D: an invalid meld spread (primary with the deck card, secondary from the hand).
        It pays nothing; it becomes a cause if still uncorrected when the player next
        touches the deck."""
        mark = len(self.events)
        s = self.seats[seat]
        rest = take_cards(s.hand, cards)
        assert rest is not None
        s.hand = rest
        deck_card = self._use_drawn() if use_drawn else None
        allc = (*cards, *((deck_card,) if deck_card else ()))
        s.melds.append(BoardMeld(tuple(allc), None, use_drawn, deck_card))
        self.turn_actions += 1
        self._log(Melded(seat, len(s.melds) - 1, tuple(allc), "invalid spread", False))
        return self.events[mark:]

    def verify_correct_meld(self, seat: int, meld: int, cards: Sequence[Card]) -> None:
        self._open()
        s = self._seat(seat)
        if s.status is not Status.IN:
            raise PanRuleError(R.FOUL_3, f"seat {seat} is not active")
        check(0 <= meld < len(s.melds) and not s.melds[meld].valid, R.FOUL_3,
              "no invalid meld there")
        m = s.melds[meld]
        check(not (s.touched_deck and self.turn_started and self.current == seat
                    and Cause.INVALID_MELD in s.causes), R.FOUL_3,
              "too late: the player has touched the deck")
        if not cards:
            check(not m.primary, R.FOUL_3,
                  "a primary meld holds a card from the deck: correct it as it lies")
            return
        pool = list(m.cards) + list(s.hand)
        check(take_cards(pool, cards) is not None, R.FOUL_3,
              "the corrected meld must use the meld's cards and the hand")
        if m.deck_card is not None:
            check(m.deck_card in cards, R.FOUL_3, "the deck card must stay in the meld")
        check(meld_kind(cards) is not None, R.FOUL_3, "the correction is still no meld")

    can_correct_meld = able(verify_correct_meld)

    @action
    def correct_meld(self, seat: int, meld: int, cards: Sequence[Card]) -> list[Event]:
        """3D a/b: a primary invalid meld corrected as it lies (the deck card stays in it);
        a secondary one taken back into the hand (`cards` empty), before touching the deck."""
        mark = len(self.events)
        s = self.seats[seat]
        m = s.melds[meld]
        pool = list(m.cards) + list(s.hand)
        if not cards:
            s.hand.extend(m.cards)
            del s.melds[meld]
            self._log(Melded(seat, meld, (), "taken back into the hand", True))
        else:
            rest = take_cards(pool, cards)
            assert rest is not None
            kind = meld_kind(cards)
            assert kind is not None
            s.hand = rest
            s.melds[meld] = BoardMeld(sort_meld(cards, kind), kind, m.primary, m.deck_card)
            self._log(Melded(seat, meld, s.melds[meld].cards, "corrected", True))
            self._hit(seat, meld, lay_down_units(cards, kind, self.rules), "corrected meld")
        return self.events[mark:]

    def verify_keep_drawn(self, seat: int) -> None:
        self._verify_meld_turn(seat, True)

    can_keep_drawn = able(verify_keep_drawn)

    @action
    def keep_drawn(self, seat: int) -> list[Event]:
        """3E: the deck card put in the hand. "The exception to this rule is when the player
        is going out (no discards)": it becomes a cause only when his turn ends with a discard
        (or none, 3B) instead of going out; until then nobody can tell, so it is no cause yet."""
        mark = len(self.events)
        card = self._use_drawn()
        s = self.seats[seat]
        s.hand.append(card)
        s.kept_drawn = True
        self._log(Irregularity(seat, "deck card in the hand",
                               f"put {card} in the hand: foul rule 3E unless he goes out"))
        return self.events[mark:]

    def verify_declare_out(self, seat: int) -> None:
        self._verify_turn(seat)
        check(self.turn_started and self.current == seat, R.TURN_5, "in one's own turn")
        check(not self.can_go_out(seat), R.TURN_5, "the player is out: use go_out")

    can_declare_out = able(verify_declare_out)

    @action
    def declare_out(self, seat: int) -> list[Event]:
        """3F: a false declaration of going out. Others may throw in their hands (rule 6)."""
        mark = len(self.events)
        self.false_out = seat
        self._irregular(seat, Cause.FALSE_OUT, "declared out without eleven melded cards")
        return self.events[mark:]

    def verify_throw_in(self, seat: int) -> None:
        self._open()
        check(self.false_out is not None and self.false_out != seat, R.FOUL_3,
              "no false declaration of going out to answer")
        if self._seat(seat).status is not Status.IN:
            raise PanRuleError(R.FOUL_3, f"seat {seat} is not active")

    can_throw_in = able(verify_throw_in)

    @action
    def throw_in(self, seat: int) -> list[Event]:
        """A player gathers his cards after a false declaration of going out (3F)."""
        self.seats[seat].threw_in = True
        self._log(Irregularity(seat, "threw in", f"after seat {self.false_out}'s false out"))
        return self.events[-1:]

    def can_foul_by_false_out(self, seat: int) -> bool:
        return self._can(self.verify_throw_in, seat)

    @action
    def foul_by_false_out(self, seat: int) -> list[Event]:
        """3F: a player whose hand was fouled by another's false declaration of going out (he
        threw it into the discards). He does not repay his collections, is not liable for
        later pay (1B), and pays the outs like the declarer ("Both must pay the outs")."""
        self.verify_throw_in(seat)
        mark = len(self.events)
        s = self.seats[seat]
        s.fouled_by_false_out = True
        s.pays_outs_when_fouled = True
        s.status = Status.FOULED
        s.pending = []
        self._log(Irregularity(seat, Cause.FALSE_OUT.value,
                               f"hand fouled by seat {self.false_out}'s false declaration"))
        self._after_status_change()
        return self.events[mark:]

    def verify_remove_board_card(self, seat: int, meld: int, card: Card) -> None:
        self._open()
        s = self._seat(seat)
        check(s.status is Status.IN and 0 <= meld < len(s.melds)
              and card in s.melds[meld].cards, R.RULE_15, "no such card on that spread")

    can_remove_board_card = able(verify_remove_board_card)

    @action
    def remove_board_card(self, seat: int, meld: int, card: Card) -> list[Event]:
        """Rule 15: removing or discarding a card from a board spread fouls the hand; the
        dealer enforces it (the hand is fouled at once)."""
        mark = len(self.events)
        s = self.seats[seat]
        cards = list(s.melds[meld].cards)
        cards.remove(card)
        s.melds[meld].cards = tuple(cards)
        self.discards.append(DiscardEntry(card, seat, False, touched=True))
        self._irregular(seat, Cause.BOARD_CARD, f"removed {card} from a board spread")
        self.call_foul(None, seat)
        return self.events[mark:]
